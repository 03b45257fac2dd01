"""The evaluator's conventions: one declared table of options, and the value built from it.

Each option (:class:`Option`) is declared once in :data:`OPTIONS`: its name, its
command-line flag, its default, its accepted values and aliases, its check and
the message that check gives, and the stage that applies it (``"read"``: when
the tables are read and laid out, :func:`dcglab.evaluation.batch.prepare`; ``"score"``:
when the measures are computed, :func:`dcglab.evaluation.batch.compute`). The role is that
of scikit-learn's ``validate_params``: a :class:`Conventions` value is checked
against the table once, when it is built, and is what :mod:`dcglab.evaluation.batch`, the
engines' SQL builder (:mod:`dcglab.evaluation.engines.sql`) and the command line pass
around.

This module imports no data-frame library (only :mod:`dcglab.formulas.gains` and
:mod:`dcglab.formulas.discounts`, for their parsers), so the command line checks its
options before it loads the evaluator (see :mod:`dcglab.cli.process`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, TypedDict

import numpy as np

from dcglab.formulas.checks import ZERO_POLICIES, OptionError, ZeroPolicy, check_option
from dcglab.formulas.discounts import Discount, DiscountSpec
from dcglab.formulas.gains import GainSpec, parse_gain

__all__ = [
    "CHOICES",
    "FRACTIONAL_GRADES",
    "IDEALS",
    "IDEAL_ALIASES",
    "MISSING",
    "NEGATIVE_GRADES",
    "OPTIONS",
    "SCORE_PRECISIONS",
    "TIES",
    "ZERO_POLICIES",
    "BatchIdeal",
    "ConventionKeywords",
    "Conventions",
    "FractionalGrades",
    "Missing",
    "NegativeGrades",
    "Option",
    "OptionError",
    "ScorePrecision",
    "Ties",
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
Stage = Literal["read", "score"]


def check_max_docs(max_docs: object) -> int | None:
    """``max_docs`` (trec_eval's ``-M``) as an int, ``None`` for no limit: a whole
    number >= 0 (0 evaluates every query on an empty ranking, as trec_eval ``-M 0``).

    Examples
    --------
    >>> check_max_docs(5.0), check_max_docs(None)
    (5, None)
    >>> check_max_docs(2.5)
    Traceback (most recent call last):
    ...
    dcglab.formulas.checks.OptionError: max_docs must be an integer >= 0, got 2.5
    """
    if max_docs is None:
        return None
    if not _whole(max_docs) or max_docs < 0:  # type: ignore[operator]
        raise OptionError("max_docs", max_docs, "an integer >= 0")
    return int(max_docs)  # type: ignore[call-overload]


def _whole(value: object) -> bool:
    """Whether ``value`` is a number with no fractional part (not a bool)."""
    try:
        return not isinstance(value, bool) and int(value) == value  # type: ignore[call-overload]
    except (TypeError, ValueError, OverflowError):
        return False


def _relevance_level(level: object) -> float:
    """trec_eval's ``-l``: an integer >= 0 (trec_eval reads it with C's ``atoi``; a
    negative level would make unjudged documents relevant there)."""
    if not _whole(level) or level < 0:  # type: ignore[operator]
        raise OptionError(
            "relevance_level",
            level,
            "an integer >= 0 (trec_eval reads -l as an integer; a negative level "
            "would count unjudged documents as relevant there)",
        )
    return float(level)  # type: ignore[arg-type]


def _flag(name: str) -> Callable[[object], bool]:
    """The check of a True/False option."""

    def check(value: object) -> bool:
        if not isinstance(value, (bool, np.bool_)):
            raise OptionError(name, value, "True or False")
        return bool(value)

    return check


GAIN_RULE = "'linear', 'exponential', 'exponential:A' (A > 1) or a mapping {grade: gain}"
DISCOUNT_RULE = "log2, ln, log10, log:B, jk:B, geometric:P (rbp:P), reciprocal or a Discount"


def _detail(exc: BaseException) -> str:
    """What is wrong inside a value: the error a parser chained to its own (``raise
    ... from``), or nothing when the value is not of any accepted form."""
    return "" if exc.__cause__ is None else str(exc.__cause__)


def _gain(gain: object) -> GainSpec:
    try:
        parse_gain(gain)  # type: ignore[arg-type]
    except ValueError as exc:
        raise OptionError("gain", gain, GAIN_RULE, _detail(exc)) from None
    return gain  # type: ignore[return-value]


def _discount(discount: object) -> Discount:
    try:
        return Discount.parse(discount)  # type: ignore[arg-type]
    except (ValueError, TypeError) as exc:
        raise OptionError("discount", discount, DISCOUNT_RULE, _detail(exc)) from None


@dataclass(frozen=True)
class Option:
    """One convention: everything about it that the evaluator's paths share.

    ``check`` returns the value in the form the evaluator uses (aliases
    resolved, numbers as ``int``/``float``, a discount as :class:`Discount`)
    or raises :class:`OptionError`; ``from_text`` turns a command-line
    argument into a value for ``check``; ``flag`` is the command line's
    spelling (``None``: the command line sets it otherwise, e.g. ``-c``).
    """

    name: str
    default: Any
    stage: Stage
    flag: str | None
    choices: tuple[str, ...] = ()
    aliases: Mapping[str, str] = field(default_factory=dict)
    rule: Callable[[Any], Any] | None = None
    from_text: Callable[[str], Any] = str

    def check(self, value: object) -> Any:
        """``value`` checked and normalised (see the class docstring)."""
        if self.rule is not None:
            return self.rule(value)
        check_option(self.name, value, (*self.choices, *self.aliases))
        return self.aliases.get(value, value)  # type: ignore[call-overload]


def _integer_text(text: str) -> object:
    """A command-line whole number as ``int``; a fraction as ``float`` and anything else
    as the text itself, so that the check names what was typed (``1e30`` is not read as
    a number: trec_eval reads such an option with ``atol``, which stops at the ``e``)."""
    try:
        return int(text)
    except ValueError:
        pass
    try:
        value = float(text)
    except ValueError:
        return text
    return text if value.is_integer() else value


def gain_text(text: str) -> GainSpec:
    """The ``--gain`` text as a gain spec: a name, or a full table ``1=4,2=3``.

    Examples
    --------
    >>> gain_text("exponential"), gain_text("0=0,1=1,2=3")
    ('exponential', {0.0: 0.0, 1.0: 1.0, 2.0: 3.0})
    """
    if "=" not in text:
        return text
    table: dict[float, float] = {}
    for item in text.split(","):
        grade, _, value = item.partition("=")
        try:
            table[float(grade)] = float(value)
        except ValueError:
            raise OptionError(
                "gain", text, GAIN_RULE, f"expected GRADE=GAIN pairs, got {item!r}"
            ) from None
    return table


IDEAL_ALIASES = {"qrels-cut": "judged", "qrels": "judged-uncut"}
_OPTIONS = (
    Option("gain", "linear", "read", "--gain", rule=_gain, from_text=gain_text),
    Option("discount", "log2", "score", "--discount", rule=_discount),
    Option("ideal", "judged", "score", "--ideal",
           choices=("judged", "judged-uncut", "retrieved"), aliases=IDEAL_ALIASES),
    Option("ties", "trec", "score", "--ties", choices=("trec", "average")),
    Option("zero_idcg", "error", "score", "--zero-idcg", choices=ZERO_POLICIES),
    Option("missing", "ignore", "read", None, choices=("ignore", "zero", "error")),
    Option("negative_grades", "gain", "read", "--negative-grades", choices=("gain", "unjudged")),
    Option("relevance_level", 1, "score", "-l", rule=_relevance_level, from_text=_integer_text),
    Option("max_docs", None, "read", "-M", rule=check_max_docs, from_text=_integer_text),
    Option("judged_only", False, "read", None, rule=_flag("judged_only")),
    Option("score_precision", "double", "read", "--score-precision",
           choices=("double", "float32")),
    Option("fractional_grades", "keep", "read", "--fractional-grades",
           choices=("keep", "truncate")),
    Option("corrected", True, "score", None, rule=_flag("corrected")),
    Option("ir_measures", False, "score", None, rule=_flag("ir_measures")),
)  # fmt: skip
OPTIONS: dict[str, Option] = {o.name: o for o in _OPTIONS}
"""Every convention of the evaluator, by name, in the order they are checked."""

CHOICES: dict[str, tuple[str, ...]] = {
    o.name: (*o.choices, *o.aliases) for o in _OPTIONS if o.rule is None
}
"""Every convention that takes a name, with its accepted values (aliases last)."""
IDEALS = CHOICES["ideal"]
"""Accepted ``ideal`` values: the names, then the older aliases."""
TIES = CHOICES["ties"]
MISSING = CHOICES["missing"]
"""Accepted ``missing`` values, for qrels queries without run lines: left out,
scored 0 (trec_eval ``-c``), or refused (trec_eval without ``-c``)."""
NEGATIVE_GRADES = CHOICES["negative_grades"]
FRACTIONAL_GRADES = CHOICES["fractional_grades"]
"""Accepted ``fractional_grades`` values: used as they are, or truncated toward
zero as trec_eval reads them (C's ``atol``: 2.5 is 2, -0.5 is 0, -1.5 is -1)."""
SCORE_PRECISIONS = CHOICES["score_precision"]
"""Accepted ``score_precision`` values: ``"double"`` compares scores as trec_eval
10.0 does; ``"float32"`` rounds them first, as trec_eval 9.x, pytrec_eval and
ir_measures do."""


def check_options(**given: object) -> None:
    """Check each named convention against :data:`OPTIONS`.

    Examples
    --------
    >>> check_options(ties="trec", missing="drop")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    dcglab.formulas.checks.OptionError: missing must be one of ('ignore', 'zero', 'error'), got...
    """
    for name, value in given.items():
        OPTIONS[name].check(value)


def ideal_name(ideal: str) -> str:
    """The name of an ``ideal`` option, aliases resolved.

    Examples
    --------
    >>> ideal_name("qrels-cut"), ideal_name("qrels"), ideal_name("retrieved")
    ('judged', 'judged-uncut', 'retrieved')
    """
    return OPTIONS["ideal"].check(ideal)


class ConventionKeywords(TypedDict, total=False):
    """The keyword arguments that build a :class:`Conventions` (for ``**options``)."""

    gain: GainSpec
    discount: DiscountSpec
    ideal: BatchIdeal
    ties: Ties
    zero_idcg: ZeroPolicy
    missing: Missing
    negative_grades: NegativeGrades
    relevance_level: float
    max_docs: int | None
    judged_only: bool
    score_precision: ScorePrecision
    fractional_grades: FractionalGrades
    corrected: bool
    ir_measures: bool


def _default(name: str) -> Any:
    return field(default=OPTIONS[name].default)


@dataclass(frozen=True)
class Conventions:
    """Every convention of an evaluation, checked against :data:`OPTIONS` once, when built.

    The fields are the options of :data:`OPTIONS` with their defaults (the
    library's: they refuse what may be a mistake; :data:`dcglab.evaluation.presets.TREC_EVAL`
    holds trec_eval's). A bad value raises :class:`OptionError` naming the
    option and the value; the checked fields hold the normalised values
    (``ideal`` without aliases, ``discount`` a :class:`~dcglab.formulas.discounts.Discount`).

    Examples
    --------
    >>> c = Conventions(ideal="qrels", max_docs=10.0)
    >>> c.ideal, c.max_docs, c.ties
    ('judged-uncut', 10, 'trec')
    >>> Conventions(ties="random")
    Traceback (most recent call last):
    ...
    dcglab.formulas.checks.OptionError: ties must be one of ('trec', 'average'), got 'random'
    """

    gain: GainSpec = _default("gain")
    discount: Discount = _default("discount")
    ideal: str = _default("ideal")
    ties: str = _default("ties")
    zero_idcg: str = _default("zero_idcg")
    missing: str = _default("missing")
    negative_grades: str = _default("negative_grades")
    relevance_level: float = _default("relevance_level")
    max_docs: int | None = _default("max_docs")
    judged_only: bool = _default("judged_only")
    score_precision: str = _default("score_precision")
    fractional_grades: str = _default("fractional_grades")
    corrected: bool = _default("corrected")
    ir_measures: bool = _default("ir_measures")

    def __post_init__(self) -> None:
        for name, option in OPTIONS.items():
            object.__setattr__(self, name, option.check(getattr(self, name)))

    @classmethod
    def of(
        cls, conventions: Conventions | Mapping[str, Any] | None = None, /, **options: Any
    ) -> Conventions:
        """``conventions`` (default: the defaults) with ``options`` set: the one way a
        keyword-argument API builds its conventions. ``conventions`` may also be a
        mapping of options, such as :data:`dcglab.evaluation.presets.TREC_EVAL`.

        Examples
        --------
        >>> Conventions.of(zero_idcg="zero").zero_idcg
        'zero'
        >>> Conventions.of({"zero_idcg": "zero", "ties": "trec"}, zero_idcg="one").zero_idcg
        'one'
        >>> Conventions.of("trec_eval")
        Traceback (most recent call last):
        ...
        TypeError: conventions must be a Conventions or a mapping of options (such as \
dcglab.evaluation.presets.TREC_EVAL), got str 'trec_eval'
        >>> Conventions.of(tie="trec")
        Traceback (most recent call last):
        ...
        TypeError: unknown option 'tie'; the options are gain, discount, ideal, ties, \
zero_idcg, missing, negative_grades, relevance_level, max_docs, judged_only, \
score_precision, fractional_grades, corrected, ir_measures
        """
        if isinstance(conventions, Mapping):
            conventions, options = None, {**conventions, **options}
        elif not (conventions is None or isinstance(conventions, cls)):
            raise TypeError(
                "conventions must be a Conventions or a mapping of options (such as "
                "dcglab.evaluation.presets.TREC_EVAL), got "
                f"{type(conventions).__name__} {conventions!r:.60}"
            )
        unknown = [name for name in options if name not in OPTIONS]
        if unknown:
            raise TypeError(f"unknown option {unknown[0]!r}; the options are {', '.join(OPTIONS)}")
        base = cls() if conventions is None else conventions
        return dataclasses.replace(base, **options) if options else base

    def stage(self, stage: Stage) -> dict[str, Any]:
        """The options that ``stage`` applies, by name."""
        return {n: getattr(self, n) for n, o in OPTIONS.items() if o.stage == stage}
