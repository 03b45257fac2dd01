"""Rank discounts: how much weight each rank :math:`i = 1, 2, \\dots` receives.

Four families are supported; each formula lives in exactly one function.

- ``log:b``: :math:`1 / \\log_b(i + 1)`; a user whose attention fades slowly.
- ``jk:b``: 1 for :math:`i < b`, else :math:`1/\\log_b i`; a user who reads at
  least to rank :math:`b` (Järvelin and Kekäläinen's original form).
- ``geometric:p``: :math:`p^{i-1}`; a user who goes on after each result with
  probability :math:`p` (rank-biased precision).
- ``reciprocal``: :math:`1 / i`; attention concentrated at the very top.

A :class:`Discount` is built from such a name (``"log2"`` and ``"ln"`` are
accepted shorthands) or directly, and gives the weights with
:meth:`Discount.weights`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

KINDS = ("log", "jk", "geometric", "reciprocal")


def _check_base(base: float) -> float:
    base = float(base)
    if not np.isfinite(base) or base <= 1:
        raise ValueError(
            f"base must be greater than 1 (a base <= 1 gives no decreasing discount), got {base}"
        )
    return base


def _check_patience(p: float) -> float:
    p = float(p)
    if not 0 < p < 1:
        raise ValueError(f"p (patience) must lie in the open interval (0, 1), got {p}")
    return p


def _ranks(n: int) -> np.ndarray:
    if int(n) != n or n < 1:
        raise ValueError(f"n (number of ranks) must be a positive integer, got {n}")
    return np.arange(1, int(n) + 1, dtype=float)


def log_discount(n: int, base: float = 2.0) -> np.ndarray:
    r"""Weights :math:`1/\log_b(i+1)` for ranks :math:`i = 1..n`.

    The :math:`+1` keeps rank 1 finite (:math:`\log_b 1 = 0`); it is the form of
    Burges et al. (2005) and of most tools.

    Examples
    --------
    >>> np.round(log_discount(3), 3).tolist()
    [1.0, 0.631, 0.5]
    """
    base = _check_base(base)
    return math.log(base) / np.log(_ranks(n) + 1.0)


def jk_discount(n: int, base: float = 2.0) -> np.ndarray:
    r"""Järvelin and Kekäläinen's original discount with base :math:`b`.

    .. math:: w_i = 1 \text{ if } i < b, \qquad w_i = 1/\log_b i \text{ if } i \ge b.

    Ranks before :math:`b` are not discounted (Järvelin and Kekäläinen 2002,
    eq. 2). With :math:`b = 2` ranks 1 and 2 both get weight 1.

    Examples
    --------
    >>> np.round(jk_discount(4), 3).tolist()
    [1.0, 1.0, 0.631, 0.5]
    """
    base = _check_base(base)
    i = _ranks(n)
    return np.where(i < base, 1.0, math.log(base) / np.log(np.maximum(i, base)))


def geometric_discount(n: int, p: float = 0.8) -> np.ndarray:
    r"""Geometric (patience) weights :math:`p^{i-1}`, as in rank-biased precision.

    Examples
    --------
    >>> geometric_discount(3, 0.5).tolist()
    [1.0, 0.5, 0.25]
    """
    p = _check_patience(p)
    return np.power(p, _ranks(n) - 1.0)


def reciprocal_discount(n: int) -> np.ndarray:
    r"""Reciprocal-rank weights :math:`1/i`.

    Examples
    --------
    >>> reciprocal_discount(4).tolist()
    [1.0, 0.5, 0.3333333333333333, 0.25]
    """
    return 1.0 / _ranks(n)


@dataclass(frozen=True)
class Discount:
    """A rank discount: a family and its parameter.

    Parameters
    ----------
    kind : {"log", "jk", "geometric", "reciprocal"}
        The family (see the module table).
    base : float, default 2
        Logarithm base for ``"log"`` and ``"jk"``.
    p : float, default 0.8
        Patience for ``"geometric"``.

    Examples
    --------
    >>> Discount.parse("jk:2")
    Discount(kind='jk', base=2.0, p=0.8)
    >>> np.round(Discount.parse("ln").weights(2), 4).tolist()
    [1.4427, 0.9102]
    """

    kind: str = "log"
    base: float = 2.0
    p: float = 0.8

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"discount kind must be one of {KINDS}, got {self.kind!r}")
        object.__setattr__(self, "base", _check_base(self.base))
        object.__setattr__(self, "p", _check_patience(self.p))

    @classmethod
    def parse(cls, spec: DiscountSpec) -> Discount:
        """Build a discount from ``"log2"``, ``"ln"``, ``"log10"``, ``"log:b"``,
        ``"jk:b"``, ``"geometric:p"`` (alias ``"rbp:p"``) or ``"reciprocal"``."""
        if isinstance(spec, Discount):
            return spec
        if not isinstance(spec, str):
            raise ValueError(f"discount must be a Discount or a name, got {spec!r}")
        shorthands = {"log2": ("log", 2.0), "ln": ("log", math.e), "log10": ("log", 10.0)}
        if spec in shorthands:
            kind, base = shorthands[spec]
            return cls(kind, base=base)
        kind, _, param = spec.partition(":")
        kind = {"rbp": "geometric"}.get(kind, kind)
        try:
            if kind in ("log", "jk"):
                return cls(kind, base=float(param) if param else 2.0)
            if kind == "geometric":
                return cls(kind, p=float(param) if param else 0.8)
        except ValueError as exc:
            raise ValueError(f"discount {spec!r}: {exc}") from exc
        if kind == "reciprocal" and not param:
            return cls(kind)
        raise ValueError(
            "discount must be log2, ln, log10, log:b, jk:b, geometric:p or reciprocal, "
            f"got {spec!r}"
        )

    def weights(self, n: int) -> np.ndarray:
        """Weights of ranks ``1..n``."""
        if self.kind == "log":
            return log_discount(n, self.base)
        if self.kind == "jk":
            return jk_discount(n, self.base)
        if self.kind == "geometric":
            return geometric_discount(n, self.p)
        return reciprocal_discount(n)

    def label(self) -> str:
        """A short human-readable name, e.g. ``1/log2(i+1)``."""
        b = f"{self.base:g}" if self.base != math.e else "e"
        return {
            "log": f"1/log{b}(i+1)" if b not in ("e",) else "1/ln(i+1)",
            "jk": f"Järvelin–Kekäläinen, b={b}",
            "geometric": f"patience p={self.p:g}",
            "reciprocal": "1/i",
        }[self.kind]


DiscountSpec = str | Discount
