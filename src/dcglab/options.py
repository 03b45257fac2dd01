"""The allowed values of the evaluator's conventions, and the check that names the argument.

These names are shared by :mod:`dcglab.batch`, the engines and the command line;
this module imports nothing heavy, so the command line can build its parser
before polars is loaded (see :mod:`dcglab.process`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

__all__ = [
    "FRACTIONAL_GRADES",
    "IDEALS",
    "MISSING",
    "IDEAL_ALIASES",
    "NEGATIVE_GRADES",
    "SCORE_PRECISIONS",
    "TIES",
    "BatchIdeal",
    "FractionalGrades",
    "Missing",
    "NegativeGrades",
    "ScorePrecision",
    "Ties",
    "CHOICES",
    "ZERO_POLICIES",
    "ZeroPolicy",
    "check_max_docs",
    "check_option",
    "check_options",
    "ideal_name",
]

BatchIdeal = Literal["judged", "judged-uncut", "retrieved", "qrels-cut", "qrels"]
Ties = Literal["trec", "average"]
NegativeGrades = Literal["gain", "unjudged"]
ScorePrecision = Literal["double", "float32"]
Missing = Literal["ignore", "zero", "error"]
FractionalGrades = Literal["keep", "truncate"]
ZeroPolicy = Literal["error", "zero", "one", "skip"]
IDEAL_ALIASES = {"qrels-cut": "judged", "qrels": "judged-uncut"}
IDEALS = ("judged", "judged-uncut", "retrieved", *IDEAL_ALIASES)
"""Accepted ``ideal`` values: the names, then the older aliases."""
TIES = ("trec", "average")
NEGATIVE_GRADES = ("gain", "unjudged")
MISSING = ("ignore", "zero", "error")
"""Accepted ``missing`` values, for qrels queries without run lines: left out,
scored 0 (trec_eval ``-c``), or refused (trec_eval without ``-c``)."""
FRACTIONAL_GRADES = ("keep", "truncate")
"""Accepted ``fractional_grades`` values: used as they are, or truncated toward
zero as trec_eval reads them (C's ``atol``: 2.5 is 2, -0.5 is 0, -1.5 is -1)."""
SCORE_PRECISIONS = ("double", "float32")
"""Accepted ``score_precision`` values: ``"double"`` compares scores as trec_eval
10.0 does; ``"float32"`` rounds them first, as trec_eval 9.x, pytrec_eval and
ir_measures do."""

ZERO_POLICIES = ("error", "zero", "one", "skip")
"""Accepted ``zero_idcg`` values, for a query whose IDCG is 0: an error, nDCG 0,
nDCG 1, or the query left out of the mean."""
CHOICES: dict[str, tuple[str, ...]] = {
    "ideal": IDEALS,
    "ties": TIES,
    "zero_idcg": ZERO_POLICIES,
    "missing": MISSING,
    "negative_grades": NEGATIVE_GRADES,
    "fractional_grades": FRACTIONAL_GRADES,
    "score_precision": SCORE_PRECISIONS,
}
"""Every convention that takes a name, with its accepted values: the one table the
library, both engines and the command line (its ``choices``) check against."""


def check_option(name: str, value: object, allowed: Sequence[str]) -> None:
    """Raise ``ValueError`` naming the argument unless ``value`` is one of ``allowed``.

    Examples
    --------
    >>> check_option("score_precision", "float64", SCORE_PRECISIONS)
    Traceback (most recent call last):
    ...
    ValueError: score_precision must be one of ('double', 'float32'), got 'float64'
    """
    if not isinstance(value, str) or value not in allowed:
        raise ValueError(f"{name} must be one of {tuple(allowed)}, got {value!r}")


def check_options(**given: object) -> None:
    """Check each named convention against :data:`CHOICES` (:func:`check_option`).

    Examples
    --------
    >>> check_options(ties="trec", missing="drop")
    Traceback (most recent call last):
    ...
    ValueError: missing must be one of ('ignore', 'zero', 'error'), got 'drop'
    """
    for name, value in given.items():
        check_option(name, value, CHOICES[name])


def check_max_docs(max_docs: object) -> int | None:
    """``max_docs`` (trec_eval's ``-M``) as an int, ``None`` for no limit: a whole number >= 1.

    Examples
    --------
    >>> check_max_docs(5.0), check_max_docs(None)
    (5, None)
    >>> check_max_docs(2.5)
    Traceback (most recent call last):
    ...
    ValueError: max_docs must be an integer >= 1, got 2.5
    """
    if max_docs is None:
        return None
    try:
        whole = not isinstance(max_docs, bool) and int(max_docs) == max_docs  # type: ignore[call-overload]
    except (TypeError, ValueError, OverflowError):
        whole = False
    if not whole or max_docs < 1:  # type: ignore[operator]
        raise ValueError(f"max_docs must be an integer >= 1, got {max_docs!r}")
    return int(max_docs)  # type: ignore[call-overload]


def ideal_name(ideal: str) -> str:
    """The name of an ``ideal`` option, aliases resolved.

    Examples
    --------
    >>> ideal_name("qrels-cut"), ideal_name("qrels"), ideal_name("retrieved")
    ('judged', 'judged-uncut', 'retrieved')
    """
    check_option("ideal", ideal, IDEALS)
    return IDEAL_ALIASES.get(ideal, ideal)
