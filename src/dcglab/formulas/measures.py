r"""Cumulative gain, DCG, ideal DCG and nDCG for one ranked list.

With gain :math:`g`, discount weights :math:`w_i` and grades :math:`r_i` in rank
order,

.. math::

    \mathrm{CG}@k = \sum_{i=1}^{k} r_i, \qquad
    \mathrm{DCG}@k = \sum_{i=1}^{k} g(r_i)\, w_i, \qquad
    \mathrm{nDCG}@k = \frac{\mathrm{DCG}@k}{\mathrm{IDCG}@k},

where IDCG@k is the DCG@k of the ideal ranking (:mod:`dcglab.formulas.ideal`). Every
cutoff is read from one prefix sum (:func:`dcg_curve`), so the table of all
cutoffs costs one pass. A cutoff beyond the end of a list adds nothing.

This is the public home of the measures: the kernels they are built on
(:func:`check_k`, :func:`clamp_k`, :func:`dcg_curve`, :func:`at_cutoff`,
:func:`ideal_curve`, :func:`ndcg_ratio`), defined in :mod:`dcglab.formulas.kernels`,
are importable from here too.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, TypedDict, Unpack

import numpy as np

from dcglab.formulas.checks import ZeroPolicy
from dcglab.formulas.discounts import Discount, DiscountSpec
from dcglab.formulas.gains import GainSpec, as_grades, as_numbers, gain_values
from dcglab.formulas.ideal import IdealSource, ideal_source
from dcglab.formulas.kernels import (
    ZERO_SCORES,
    Grades,
    at_cutoff,
    check_k,
    clamp_k,
    dcg_curve,
    ideal_curve,
    ndcg_ratio,
)

__all__ = [
    "ZERO_SCORES",
    "CurveConventions",
    "Grades",
    "ZeroPolicy",
    "at_cutoff",
    "cg",
    "check_k",
    "clamp_k",
    "curves",
    "dcg",
    "dcg_curve",
    "idcg",
    "ideal_curve",
    "mean_ndcg",
    "ndcg",
    "ndcg_curve",
    "ndcg_ratio",
    "rank_table",
]

if TYPE_CHECKING:
    import pandas as pd


def cg(grades: Grades, k: int | None = None, gain: GainSpec = "linear") -> float:
    r"""Cumulative gain :math:`\mathrm{CG}@k = \sum_{i=1}^{k} g(r_i)`, blind to order.

    Examples
    --------
    >>> cg([3, 0, 0]), cg([0, 0, 3])
    (3.0, 3.0)
    """
    g = gain_values(grades, gain)
    return at_cutoff(np.cumsum(g), check_k(k, len(g)))


def dcg(
    grades: Grades,
    k: int | None = None,
    gain: GainSpec = "linear",
    discount: DiscountSpec = "log2",
) -> float:
    r"""Discounted cumulative gain :math:`\mathrm{DCG}@k = \sum_{i=1}^{k} g(r_i)\,w_i`.

    Parameters
    ----------
    grades : sequence of float
        Grades in rank order.
    k : int, optional
        Cutoff; all ranks when omitted.
    gain : str or mapping, default ``"linear"``
    discount : str or Discount, default ``"log2"`` (:math:`w_i = 1/\log_2(i+1)`)

    Examples
    --------
    >>> round(dcg([3, 2, 3, 0, 1, 2], 6), 3)
    6.861
    >>> round(dcg([3, 2, 3, 0, 1, 2], 6, gain="exponential"), 3)
    13.848
    """
    g = gain_values(grades, gain)
    return at_cutoff(dcg_curve(g, discount), check_k(k, len(g)))


def idcg(
    judged: Grades,
    k: int | None = None,
    gain: GainSpec = "linear",
    discount: DiscountSpec = "log2",
) -> float:
    r"""Ideal DCG: the DCG@k of ``judged`` sorted by decreasing gain (:func:`ideal_curve`).

    Examples
    --------
    >>> round(idcg([3, 2, 3, 0, 1, 2], 6), 3)
    7.141
    """
    curve = ideal_curve(judged, gain, discount)
    return at_cutoff(curve, check_k(k, len(curve)))


class CurveConventions(TypedDict, total=False):
    """The keywords of :func:`curves`, which :func:`ndcg_curve` passes on."""

    judged: Grades | None
    ideal: IdealSource
    gain: GainSpec
    discount: DiscountSpec
    kmax: int | None


def curves(
    grades: Grades,
    *,
    judged: Grades | None = None,
    ideal: IdealSource = "judged",
    gain: GainSpec = "linear",
    discount: DiscountSpec = "log2",
    kmax: int | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    r"""DCG@k and IDCG@k for every cutoff k = 1..kmax, from two prefix sums.

    Parameters
    ----------
    grades : sequence of float
        Grades of the retrieved list in rank order.
    judged : sequence of float, optional
        All judged grades of the query; by default the retrieved list itself.
    ideal : {"judged", "retrieved"}, default ``"judged"``
        Build the ideal from all judged grades, or only from the retrieved ones.
    gain, discount
        See :func:`dcg`.
    kmax : int, optional
        Largest cutoff; by default the length of the retrieved list.

    Returns
    -------
    tuple of numpy.ndarray
        Two arrays of length ``kmax``: the system's DCG and the ideal DCG.

    Examples
    --------
    >>> d, i = curves([3, 2, 3, 0, 1, 2])
    >>> np.round(ndcg_ratio(d, i), 3).tolist()
    [1.0, 0.871, 0.978, 0.853, 0.861, 0.961]
    """
    arr = as_grades(grades)
    kmax = check_k(kmax, len(arr))
    source = ideal_source(arr, judged, ideal, gain)
    system = dcg_curve(gain_values(arr, gain), discount)
    best = ideal_curve(source, gain, discount)
    ks = range(1, kmax + 1)
    return (
        np.array([at_cutoff(system, k) for k in ks]),
        np.array([at_cutoff(best, k) for k in ks]),
    )


def ndcg_curve(
    grades: Grades, *, zero_idcg: ZeroPolicy = "error", **conventions: Unpack[CurveConventions]
) -> pd.DataFrame:
    r"""The table of DCG, IDCG and nDCG at every cutoff k = 1..kmax, in one call.

    Parameters
    ----------
    grades : sequence of float
        Grades of the retrieved list in rank order.
    zero_idcg : {"error", "zero", "one", "skip"}, default ``"error"``
        Policy when IDCG@k is 0 (see :func:`ndcg_ratio`); ``"skip"``
        gives a missing value (``None``) in the nDCG column.
    **conventions
        ``judged``, ``ideal``, ``gain``, ``discount`` and ``kmax``, as in
        :func:`curves`.

    Returns
    -------
    pandas.DataFrame
        Columns ``k``, ``DCG``, ``IDCG``, ``nDCG``.

    Examples
    --------
    >>> ndcg_curve([3, 2, 3, 0, 1, 2])["nDCG"].round(3).tolist()
    [1.0, 0.871, 0.978, 0.853, 0.861, 0.961]
    """
    import pandas as pd

    d, i = curves(grades, **conventions)
    n = [ndcg_ratio(dk, ik, zero_idcg) for dk, ik in zip(d, i)]
    return pd.DataFrame({"k": np.arange(1, len(d) + 1), "DCG": d, "IDCG": i, "nDCG": n})


def ndcg(
    grades: Grades,
    k: int | None = None,
    *,
    judged: Grades | None = None,
    ideal: IdealSource = "judged",
    gain: GainSpec = "linear",
    discount: DiscountSpec = "log2",
    zero_idcg: ZeroPolicy = "error",
) -> float | None:
    r"""Normalised DCG, :math:`\mathrm{nDCG}@k = \mathrm{DCG}@k / \mathrm{IDCG}@k`.

    Parameters
    ----------
    grades : sequence of float
        Grades of the retrieved list in rank order.
    k : int, optional
        Cutoff; the whole list when omitted (the ideal is then also uncut, as
        in trec_eval's ``ndcg``).
    judged : sequence of float, optional
        Every judged grade of the query. By default the retrieved list is taken
        to hold all judged documents.
    ideal : {"judged", "retrieved"}, default ``"judged"``
    gain, discount
        See :func:`dcg`.
    zero_idcg : {"error", "zero", "one", "skip"}, default ``"error"``
        What a query with IDCG 0 scores; ``"skip"`` returns ``None``.

    Examples
    --------
    >>> round(ndcg([3, 2, 3, 0, 1, 2], 6), 3)
    0.961
    >>> round(ndcg([1, 0], 2, judged=[3, 3, 2, 1, 0, 0]), 3)
    0.204
    >>> ndcg([1, 0], 2, judged=[3, 3, 2, 1, 0, 0], ideal="retrieved")
    1.0
    """
    arr = as_grades(grades)
    source = ideal_source(arr, judged, ideal, gain)
    kk = check_k(k, max(len(arr), len(source)))
    d = dcg(arr, kk, gain, discount)
    i = idcg(source, kk, gain, discount)
    return ndcg_ratio(d, i, zero_idcg)  # type: ignore[return-value]


def mean_ndcg(
    rankings: Sequence[Grades],
    k: int | None = None,
    *,
    judged: Sequence[Grades | None] | None = None,
    weights: Sequence[float] | None = None,
    zero_idcg: ZeroPolicy = "error",
    **conventions: object,
) -> float:
    r"""Mean or weighted mean of nDCG@k over queries.

    .. math:: \overline{\mathrm{nDCG}} = \sum_q w_q\,\mathrm{nDCG}_q \Big/ \sum_q w_q

    Parameters
    ----------
    rankings : sequence of grade sequences
        One ranked list of grades per query.
    k : int, optional
        Cutoff.
    judged : sequence, optional
        Per query, all judged grades (or ``None`` for the ranking itself).
    weights : sequence of float, optional
        Per-query weights (default: all 1).
    zero_idcg : {"error", "zero", "one", "skip"}, default ``"error"``
        Policy for queries with IDCG 0; skipped queries leave the mean entirely.
    **conventions
        ``gain``, ``discount`` and ``ideal``, passed to :func:`ndcg`.

    Examples
    --------
    >>> mean_ndcg([[3, 2], [0, 0]], zero_idcg="zero"), mean_ndcg([[3, 2], [0, 0]], zero_idcg="skip")
    (0.5, 1.0)
    """
    if len(rankings) == 0:
        raise ValueError("rankings is empty: a mean needs at least one query")
    judged = list(judged) if judged is not None else [None] * len(rankings)
    w = as_numbers(list(weights), "weights") if weights is not None else np.ones(len(rankings))
    if len(judged) != len(rankings) or len(w) != len(rankings):
        raise ValueError("judged and weights must have one entry per ranking")
    if not np.all(np.isfinite(w)) or np.any(w < 0) or w.sum() <= 0:
        raise ValueError(
            f"weights must be finite, non-negative and not all 0, got {list(weights or [])}"
        )
    pairs = [
        (ndcg(r, k, judged=j, zero_idcg=zero_idcg, **conventions), x)  # type: ignore[arg-type]
        for r, j, x in zip(rankings, judged, w.tolist())
    ]
    kept = [(v, x) for v, x in pairs if v is not None]
    total = sum(x for _, x in kept)
    if not kept or total == 0:
        raise ValueError("every query was skipped (IDCG 0): the mean is undefined")
    return float(sum(v * x for v, x in kept) / total)


def rank_table(
    grades: Grades, gain: GainSpec = "linear", discount: DiscountSpec = "log2"
) -> pd.DataFrame:
    """Per-rank breakdown: rank, discount weight, grade, gain and discounted gain.

    Examples
    --------
    >>> rank_table([3, 2])["discounted"].round(3).tolist()
    [3.0, 1.262]
    """
    import pandas as pd

    arr = as_grades(grades)
    g = gain_values(arr, gain)
    w = Discount.parse(discount).weights(len(arr))
    return pd.DataFrame(
        {
            "rank": np.arange(1, len(arr) + 1),
            "discount": w,
            "grade": arr.astype(int) if np.all(arr == np.round(arr)) else arr,
            "gain": g,
            "discounted": g * w,
        }
    )
