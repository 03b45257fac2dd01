"""trec_eval's conventions in Python, and the command line's spelling of the options.

The library's defaults refuse what might be a mistake (IDCG = 0 raises, negative
grades are refused); the command line's reproduce trec_eval 10.0. One mapping,
:data:`TREC_EVAL`, gives Python exactly the command line's conventions::

    from dcglab.batch import evaluate
    from dcglab.presets import TREC_EVAL

    result = evaluate(qrels, run, ["official", "nDCG@10"], **TREC_EVAL)

:func:`option_spelling` rewrites an error message from the library's spelling
(``zero_idcg='zero'``) to the command line's (``--zero-idcg zero``), so each
interface names its own options.
"""

from __future__ import annotations

import re
from types import MappingProxyType

from .options import OPTIONS

__all__ = ["CLI_OPTIONS", "TREC_EVAL", "option_spelling"]

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
    }
)
"""Keyword arguments of :func:`dcglab.batch.evaluate` that give the command line's
(trec_eval 10.0's) conventions; trec_eval's ``-c`` is ``missing="zero"``."""

CLI_OPTIONS = {name: o.flag for name, o in OPTIONS.items() if o.flag is not None}
"""Each keyword argument of :func:`dcglab.batch.evaluate` and its command-line option."""

_KEYWORD = re.compile(r"\b(" + "|".join(CLI_OPTIONS) + r")=(?:'([^']*)'|([\w.+-]+))")


def option_spelling(message: str) -> str:
    """``message`` with each ``keyword='value'`` written as the command line's
    ``--option value``; ``missing='zero'`` becomes ``-c``.

    Examples
    --------
    >>> option_spelling("choose zero_idcg='zero' or 'one'")
    "choose --zero-idcg zero or 'one'"
    >>> option_spelling("-c (missing='zero') scores it 0")
    '-c scores it 0'
    """
    message = message.replace(" (missing='zero')", "").replace("missing='zero'", "-c")

    def cli(m: re.Match) -> str:
        return f"{CLI_OPTIONS[m[1]]} {m[2] if m[2] is not None else m[3]}"

    return _KEYWORD.sub(cli, message)
