r"""How often two scoring conventions rank a pair of orderings in opposite orders.

Given a multiset of judged grades, every *distinguishable* ordering (a distinct
sequence of grades) is scored twice, say with linear and with exponential gain.
A pair of orderings is *reversed* (discordant) when one convention scores the
first strictly higher and the other strictly lower; ties under either convention
count as neither.

The orderings are generated level by level from the grade counts, never through
all :math:`n!` permutations, and the discordant pairs are counted as inversions
with a vectorised bottom-up merge sort in :math:`O(N \log^2 N)` for :math:`N`
orderings, never over the :math:`N^2` pairs.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from dcglab.formulas.discounts import Discount, DiscountSpec
from dcglab.formulas.gains import GainSpec, as_grades, gain_values
from dcglab.formulas.measures import Grades, check_k, clamp_k, ideal_curve, ndcg_ratio

GainPair = tuple[GainSpec, GainSpec]
"""The two gains whose nDCG orders a study compares."""

#: Scores are compared as integers round(score * TIE_SCALE): scores equal to twelve
#: decimals tie (float noise is not a difference). measures.js uses the same rule.
TIE_SCALE = 1e12


def tie_keys(scores: np.ndarray) -> np.ndarray:
    """``floor(score * 1e12 + 0.5)``: the integer keys under which scores are compared."""
    return np.floor(np.asarray(scores, dtype=float) * TIE_SCALE + 0.5)


def orderings(grades: Grades) -> np.ndarray:
    """Every distinguishable ordering of a multiset of grades, in lexicographic order.

    Returns an array of shape ``(N, n)`` with the multinomial
    :math:`N = n! / \\prod_g c_g!` rows, built one rank at a time from the counts.

    Examples
    --------
    >>> orderings([1, 0, 0]).tolist()
    [[0.0, 0.0, 1.0], [0.0, 1.0, 0.0], [1.0, 0.0, 0.0]]
    >>> len(orderings([3, 2, 3, 0, 1, 2]))
    180
    """
    values, counts = np.unique(as_grades(grades), return_counts=True)
    rows = np.zeros((1, 0), dtype=np.int64)
    left = counts[None, :].copy()
    for _ in range(counts.sum()):
        parts, rests = [], []
        for v in range(len(values)):
            has = left[:, v] > 0
            parts.append(np.column_stack([rows[has], np.full(has.sum(), v)]))
            rest = left[has].copy()
            rest[:, v] -= 1
            rests.append(rest)
        rows, left = np.concatenate(parts), np.concatenate(rests)
    return values[rows[np.lexsort(rows.T[::-1])]]


def ndcg_of_orderings(
    rows: np.ndarray, k: int, gain: GainSpec = "linear", discount: DiscountSpec = "log2"
) -> np.ndarray:
    """nDCG@k of each row, all rows being orderings of the same judged multiset."""
    n = rows.shape[1]
    k = clamp_k(check_k(k, n), n)
    g = gain_values(rows.ravel(), gain).reshape(rows.shape)[:, :k]
    w = Discount.parse(discount).weights(k)
    ideal = ideal_curve(rows[0], gain, discount)[k - 1]
    if ideal <= 0:
        raise ValueError("IDCG is 0: every ordering ties, so no pair can be reversed")
    return ndcg_ratio((g * w).sum(axis=1), ideal)  # type: ignore[return-value]


def strict_inversions(values: np.ndarray) -> int:
    """Number of pairs ``i < j`` with ``values[i] > values[j]`` (ties do not count).

    A bottom-up merge sort, vectorised level by level: at each level every
    element of a right half-run counts the elements of its left half-run that
    are strictly greater.

    Examples
    --------
    >>> strict_inversions(np.array([3, 1, 2, 2]))
    3
    """
    _, r = np.unique(values, return_inverse=True)
    n, span = len(r), int(r.max()) + 1 if len(r) else 1
    idx = np.arange(n)
    keys, total, s = r.astype(np.int64), 0, 1
    while s < n:
        block = idx // (2 * s)
        k = block * span + keys
        right = (idx // s) % 2 == 1
        left_keys = k[~right]
        not_greater = np.searchsorted(left_keys, k[right], side="right")
        block_end = np.searchsorted(left_keys, (block[right] + 1) * span, side="left")
        total += int((block_end - not_greater).sum())
        keys = np.sort(k, kind="stable") - block * span  # timsort: merges the two runs
        s *= 2
    return total


def discordant_pairs(a: np.ndarray, b: np.ndarray) -> int:
    """Pairs ranked strictly one way by ``a`` and strictly the other way by ``b``.

    Sort by ``a`` then ``b`` (ascending); a discordant pair is then a strict
    inversion of ``b``. Pairs tied in ``a`` are in ascending ``b`` order and so
    never counted; pairs tied in ``b`` are not strict inversions.

    Examples
    --------
    >>> discordant_pairs(np.array([1, 2, 3, 3]), np.array([3, 2, 1, 0]))
    5
    """
    a, b = tie_keys(a), tie_keys(b)
    return strict_inversions(b[np.lexsort((b, a))])


def _ndcg_by_gain(
    judged: Grades, k: int, gains: GainPair, discount: DiscountSpec
) -> list[np.ndarray]:
    """nDCG@k of every distinguishable ordering of ``judged``, once under each gain."""
    rows = orderings(judged)
    return [ndcg_of_orderings(rows, k, g, discount) for g in gains]


@dataclass(frozen=True)
class Reversals:
    """Counts of a reversal study (see :func:`count_reversals`)."""

    orderings: int
    pairs: int
    reversed: int

    @property
    def share(self) -> float:
        """Reversed pairs as a fraction of all pairs."""
        return self.reversed / self.pairs if self.pairs else 0.0


def count_reversals(
    judged: Grades,
    k: int,
    gains: GainPair = ("linear", "exponential"),
    discount: DiscountSpec = "log2",
) -> Reversals:
    """How many pairs of orderings of ``judged`` two gains rank in opposite orders at nDCG@k.

    Examples
    --------
    >>> count_reversals([3, 2, 3, 0, 1, 2], 6)
    Reversals(orderings=180, pairs=16110, reversed=1002)
    """
    a, b = _ndcg_by_gain(judged, k, gains, discount)
    n = len(a)
    return Reversals(n, n * (n - 1) // 2, discordant_pairs(a, b))


def _tied_pairs(*columns: np.ndarray) -> int:
    """Pairs of rows equal in every one of the given columns."""
    _, counts = np.unique(np.stack(columns, axis=1), axis=0, return_counts=True)
    return int((counts * (counts - 1) // 2).sum())


def comparable_pairs(
    judged: Grades,
    k: int,
    gains: GainPair = ("linear", "exponential"),
    discount: DiscountSpec = "log2",
) -> int:
    r"""Pairs of orderings of ``judged`` that neither gain scores as tied at nDCG@k.

    By inclusion-exclusion over the :math:`N` orderings, with :math:`T_a` and
    :math:`T_b` the pairs tied under each gain and :math:`T_{ab}` those tied under both:

    .. math::

        \binom{N}{2} - T_a - T_b + T_{ab}

    Ties are judged on :func:`tie_keys`, as in :func:`count_reversals`, so the
    reversed pairs are a subset of these.

    Examples
    --------
    >>> comparable_pairs([3, 2, 3, 0, 1, 2], 6) >= count_reversals([3, 2, 3, 0, 1, 2], 6).reversed
    True
    """
    a, b = (tie_keys(s) for s in _ndcg_by_gain(judged, k, gains, discount))
    n = len(a)
    return n * (n - 1) // 2 - _tied_pairs(a) - _tied_pairs(b) + _tied_pairs(a, b)
