r"""The kernels under every measure: cutoffs, prefix sums and the ratio to the ideal.

With gains :math:`g_i` and discount weights :math:`w_i` in rank order, DCG at
every cutoff is the prefix sum

.. math::

    \mathrm{DCG}@k = \sum_{i=1}^{k} g_i\, w_i, \quad k = 1..n,

read at a cutoff by :func:`at_cutoff` (a cutoff beyond the end of a list adds
nothing, :func:`clamp_k`); IDCG@k is the same curve over the ideal order
(:func:`ideal_curve`), and nDCG is their ratio (:func:`ndcg_ratio`) with a
policy for IDCG = 0. The single-ranking API (:mod:`dcglab.formulas.measures`, where these
names are public too), the batch path and the engines all read these.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from dcglab.formulas.checks import ZERO_POLICIES, ZeroPolicy, check_option
from dcglab.formulas.discounts import Discount, DiscountSpec
from dcglab.formulas.gains import GainSpec, gain_values
from dcglab.formulas.ideal import ideal_order

Grades = Sequence[float] | np.ndarray


def check_k(k: int | None, n: int) -> int:
    """Validate a cutoff and return it, or ``n`` when ``k`` is ``None``.

    Raises
    ------
    ValueError
        If ``k`` is not an integer >= 1.
    """
    if k is None:
        return n
    try:  # "abc", inf, nan and non-numbers all end in the message below
        ok = not isinstance(k, (bool, str)) and int(k) == k and k >= 1
    except (TypeError, ValueError, OverflowError):
        ok = False
    if not ok:
        raise ValueError(f"k must be an integer >= 1, got {k!r}")
    return int(k)


def clamp_k(k: int, n: int) -> int:
    """The cutoff a list of ``n`` items can reach: :math:`\\min(k, n)`.

    Ranks beyond the end of a list add nothing, so DCG@k of a list of ``n``
    items equals DCG@n when ``k > n``. Validate ``k`` with :func:`check_k` first.

    Examples
    --------
    >>> clamp_k(10, 6), clamp_k(3, 6)
    (6, 3)
    """
    return min(k, n)


def dcg_curve(gains: np.ndarray, discount: DiscountSpec = "log2") -> np.ndarray:
    r"""DCG at every cutoff: the prefix sums :math:`\sum_{i\le k} g_i w_i`, k = 1..n.

    This is the single place where gains meet discounts.

    Parameters
    ----------
    gains : numpy.ndarray
        Gains in rank order (see :func:`dcglab.formulas.gains.gain_values`).
    discount : str or Discount, default ``"log2"``

    Examples
    --------
    >>> np.round(dcg_curve(np.array([3.0, 2.0, 3.0])), 3).tolist()
    [3.0, 4.262, 5.762]

    Raises
    ------
    ValueError
        If a prefix sum is not a finite number (finite gains whose sum overflows).
    """
    with np.errstate(over="ignore", invalid="ignore"):  # reported below
        curve = np.cumsum(gains * Discount.parse(discount).weights(len(gains)))
    if not np.all(np.isfinite(curve)):
        raise ValueError(
            f"grades: DCG is {curve[-1]}, not a finite number: the gains "
            f"(largest {np.max(gains):g}) are too large to sum"
        )
    return curve


def at_cutoff(curve: np.ndarray, k: int) -> float:
    """Value of a prefix-sum curve at cutoff ``k`` (the last value when ``k`` > n)."""
    return float(curve[clamp_k(k, len(curve)) - 1])


def ideal_curve(
    judged: Grades, gain: GainSpec = "linear", discount: DiscountSpec = "log2"
) -> np.ndarray:
    r"""IDCG at every cutoff k = 1..n: :func:`dcg_curve` of the judged grades in
    the ideal order (:func:`dcglab.formulas.ideal.ideal_order`, decreasing gain).

    Examples
    --------
    >>> np.round(ideal_curve([3, 2, 3, 0, 1, 2]), 3).tolist()
    [3.0, 4.893, 5.893, 6.754, 7.141, 7.141]
    """
    return dcg_curve(gain_values(ideal_order(judged, gain), gain), discount)


ZERO_SCORES = {"zero": 0.0, "one": 1.0, "skip": np.nan}
"""What a query with IDCG 0 scores under each policy but ``"error"`` (NaN: left out)."""


def ndcg_ratio(
    dcg: float | np.ndarray,
    idcg: float | np.ndarray,
    zero_idcg: ZeroPolicy = "error",
    *,
    queries: Sequence[object] | np.ndarray | None = None,
    measure: str = "nDCG",
) -> float | None | np.ndarray:
    r"""nDCG as :math:`\mathrm{DCG} / \mathrm{IDCG}`, with the policy for IDCG = 0.

    The one place where DCG is divided by the ideal, for one query (scalars)
    or many (arrays of the same shape, or an array and a scalar).

    Parameters
    ----------
    dcg, idcg : float or numpy.ndarray
        DCG and ideal DCG at the same cutoff.
    zero_idcg : {"error", "zero", "one", "skip"}, default ``"error"``
        Where IDCG <= 0: raise a ``ValueError``, score 0 (trec_eval), score 1,
        or leave the query out, which is ``None`` for a scalar and NaN in an
        array (pandas and :meth:`numpy.nanmean` treat it as missing).
    queries : sequence, optional
        Query ids of an array's entries, named in the error message.
    measure : str, default ``"nDCG"``
        The measure's name in the error message for arrays.

    Returns
    -------
    float, None or numpy.ndarray
        A float (or ``None``) for scalar input, else a float array.

    Examples
    --------
    >>> ndcg_ratio(3.0, 4.0)
    0.75
    >>> ndcg_ratio(0.0, 0.0, "skip") is None
    True
    >>> ndcg_ratio(np.array([3.0, 0.0]), np.array([4.0, 0.0]), "one").tolist()
    [0.75, 1.0]
    """
    check_option("zero_idcg", zero_idcg, ZERO_POLICIES)
    d, i = np.asarray(dcg, dtype=float), np.asarray(idcg, dtype=float)
    zero = i <= 0
    with np.errstate(divide="ignore", invalid="ignore"):
        value = np.where(zero, 0.0, d / np.where(zero, 1.0, i))
    if zero.any():
        if zero_idcg == "error":
            if value.ndim == 0:
                raise ValueError(
                    "IDCG is 0 (no judged document has positive gain), so nDCG is undefined; "
                    "pass zero_idcg='zero', 'one' or 'skip' to choose a policy"
                )
            at = np.broadcast_to(zero, value.shape)
            names = np.asarray(queries)[at] if queries is not None else np.flatnonzero(at)
            raise ValueError(
                f"{measure}: IDCG is 0 for {int(at.sum())} queries "
                f"(e.g. {', '.join(map(str, names[:5]))}); "
                "choose zero_idcg='zero' (trec_eval), 'one' or 'skip'"
            )
        value = np.where(zero, ZERO_SCORES[zero_idcg], value)
    if value.ndim == 0:
        return None if np.isnan(value) else float(value)
    return value
