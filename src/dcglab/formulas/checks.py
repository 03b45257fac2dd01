"""The check every option goes through, and the one option a formula itself takes.

:class:`OptionError` is the error of a bad option value everywhere (the single-list
formulas, the evaluator's conventions table :mod:`dcglab.evaluation.options`, the command
line); :func:`check_option` raises it for a value outside a fixed set. The IDCG = 0
policy (:data:`ZERO_POLICIES`) is a parameter of the nDCG division
(:func:`dcglab.formulas.kernels.ndcg_ratio`), so it is declared here, with the formulas.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

__all__ = ["ZERO_POLICIES", "OptionError", "ZeroPolicy", "check_option"]

ZeroPolicy = Literal["error", "zero", "one", "skip"]
ZERO_POLICIES: tuple[str, ...] = ("error", "zero", "one", "skip")
"""What nDCG is for a query whose IDCG is 0: an error, 0, 1, or no value (left out of
a mean)."""


class OptionError(ValueError):
    """A bad option value: ``NAME must be RULE, got VALUE``, or ``NAME VALUE: DETAIL``
    when there is more to say than the rule (what is wrong inside the value).

    ``name`` is the option's name in the library; :meth:`spelled` gives the same
    message under another spelling of it (the command line's flag).
    """

    def __init__(self, name: str, value: object, rule: str, detail: str = "") -> None:
        self.name, self.value, self.rule, self.detail = name, value, rule, detail
        super().__init__(self.spelled(name))

    def spelled(self, name: str) -> str:
        """The message with the option called ``name``.

        Examples
        --------
        >>> OptionError("max_docs", 0, "an integer >= 1").spelled("-M")
        '-M must be an integer >= 1, got 0'
        """
        if self.detail:
            return f"{name} {self.value!r}: {self.detail}"
        return f"{name} must be {self.rule}, got {self.value!r}"


def check_option(name: str, value: object, allowed: Sequence[str]) -> None:
    """Raise :class:`OptionError` naming the argument unless ``value`` is one of ``allowed``.

    Examples
    --------
    >>> check_option("ties", "random", ("trec", "average"))
    Traceback (most recent call last):
    ...
    dcglab.formulas.checks.OptionError: ties must be one of ('trec', 'average'), got 'random'
    """
    if not isinstance(value, str) or value not in allowed:
        raise OptionError(name, value, f"one of {tuple(allowed)}")
