"""trec_eval's conventions in Python, and the command line's spelling of the options.

The library's defaults refuse what might be a mistake (IDCG = 0 raises, negative
grades are refused); the command line's reproduce trec_eval 10.0. One mapping,
:data:`TREC_EVAL`, gives Python exactly the command line's conventions::

    from dcglab.evaluation.batch import evaluate
    from dcglab.evaluation.presets import TREC_EVAL

    result = evaluate(qrels, run, ["official", "nDCG@10"], **TREC_EVAL)

:func:`option_spelling` rewrites an error message from the library's spelling
(``zero_idcg='zero'``) to the command line's (``--zero-idcg zero``), so each
interface names its own options.
"""

from __future__ import annotations

import re
from types import MappingProxyType

from dcglab.evaluation.options import OPTIONS

__all__ = ["CLI_OPTIONS", "IR_MEASURES", "TREC_EVAL", "option_spelling"]

TREC_EVAL = MappingProxyType(
    {
        "gain": "linear",
        "discount": "log2",
        "ideal": "judged",
        "ties": "trec",
        "zero_idcg": "zero",
        "missing": "error",
        "negative_grades": "unjudged",
        "fractional_grades": "truncate",
        "score_precision": "double",
        "corrected": False,
    }
)
"""Keyword arguments of :func:`dcglab.evaluation.batch.evaluate` that give the command line's
(trec_eval 10.0's) conventions; trec_eval's ``-c`` is ``missing="zero"``.
``corrected=False`` keeps trec_eval's own numbers where its code gives a number a
careful reader would call wrong (``--help`` of the command line lists each);
the library's default, ``corrected=True``, gives the corrected ones."""

IR_MEASURES = MappingProxyType({**TREC_EVAL, "score_precision": "float32", "ir_measures": True})
r"""trec_eval's conventions (:data:`TREC_EVAL`) with ir_measures 0.4's numbers for the
measures named in ir_measures' syntax (the command line's ``--ir-measures``):
scores compared as float32 (pytrec_eval, trec_eval 9), ``Judged@k`` counting
every qrels entry as judged (negative grades too), ``IPrec@x`` rounding
:math:`xR` as trec_eval 9 does (:math:`\lfloor xR + 0.9 \rfloor`), and ``RR@k`` and
``Judged@k`` ordering tied scores by docno ascending (ir_measures' msmarco and
judged providers), ``RBP(rel=L)`` as cwl_eval computes it (1,000 ranks, weights
divided by :math:`1 - p^{1000}`) and graded ``RBP`` as trectools does (tied scores
share their mean weight): :mod:`dcglab.evaluation.batch.user_models`. ``ERR@k`` is
gdeval's under both presets. Names in trec_eval's syntax keep trec_eval 10.0's numbers."""

CLI_OPTIONS = {name: o.flag for name, o in OPTIONS.items() if o.flag is not None}
"""Each keyword argument of :func:`dcglab.evaluation.batch.evaluate` and its command-line option."""

_KEYWORD = re.compile(r"\b(" + "|".join(CLI_OPTIONS) + r")=(?:'([^']*)'|([\w.+-]+))")


def option_spelling(message: str) -> str:
    """``message`` with each ``keyword='value'`` written as the command line's
    ``--option value``; ``missing='zero'`` becomes ``-c`` and ``missing='ignore'``
    ``--ignore-missing``.

    Examples
    --------
    >>> option_spelling("choose zero_idcg='zero' or 'one'")
    "choose --zero-idcg zero or 'one'"
    >>> option_spelling("-c (missing='zero') scores it 0, missing='ignore' leaves it out")
    '-c scores it 0, --ignore-missing leaves it out'
    """
    message = message.replace(" (missing='zero')", "").replace("missing='zero'", "-c")
    message = message.replace("missing='ignore'", "--ignore-missing")

    def cli(m: re.Match) -> str:
        return f"{CLI_OPTIONS[m[1]]} {m[2] if m[2] is not None else m[3]}"

    return _KEYWORD.sub(cli, message)
