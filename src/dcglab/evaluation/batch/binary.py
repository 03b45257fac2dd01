r"""trec_eval's binary measures (and ir_measures' Judged), for many queries at once.

Each query is a row of flags in rank order: ``rel`` (relevant: grade at least the
relevance level) and ``judged`` (in the qrels and judged; padding is neither).
With :math:`r_i` the relevant flag at rank :math:`i`, :math:`j_i` the judged flag,
:math:`R` the relevant and :math:`N` the judged non-relevant documents of the
qrels, and :math:`n` the documents retrieved:

.. math::

    P@k = \frac{1}{k}\sum_{i \le k} r_i, \quad
    \mathrm{recall}@k = \frac{1}{R}\sum_{i \le k} r_i, \quad
    \mathrm{RR}@k = \max_{i \le k} \frac{r_i}{i}, \quad
    \mathrm{AP}@k = \frac{1}{R}\sum_{i \le k} r_i \frac{\sum_{j \le i} r_j}{i},

    R\text{-prec} = \frac{1}{R}\sum_{i \le \min(n, R)} r_i, \quad
    \mathrm{bpref} = \frac{1}{R}\sum_{i : r_i = 1}
        \Big(1 - \frac{\min(b_i, R)}{\min(N, R)}\Big), \quad
    \mathrm{Judged}@k = \frac{\sum_{i \le k} j_i}{\min(k, n)},

where :math:`b_i` counts the judged non-relevant documents above rank :math:`i`.
``success.K`` is 1 when a relevant document is in the top K; ``iprec_at_recall``
is the best precision at or below the rank where the share ``x`` of :math:`R`
(rounded half up) is found; ``gm_map`` is AP per query, averaged geometrically
(:func:`summary`). As in trec_eval, P@k counts missing ranks below the end of a
list as not relevant, and a query without relevant documents scores 0.

**Order of the sums.** AP, AP@k and bpref add their terms left to right in rank
order, in double (``np.cumsum`` is sequential; ``np.sum`` is pairwise), because
trec_eval does, and a pairwise sum can change the fourth printed decimal (an
exact 71/160 = 0.44375 prints 0.4438 summed left to right, 0.4437 pairwise).
The other measures divide two counts, which is exact whatever the order.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import NamedTuple

import numpy as np

from ..measure_families import FAMILIES as FAMILY_RECORDS
from ..measure_families import FAMILY
from ..measures import clamp_k

__all__ = [
    "COUNTS",
    "FAMILIES",
    "MIN_GEO_MEAN",
    "Ranking",
    "binary_measure",
    "binary_values",
    "summary",
]

COUNTS = tuple(f.name for f in FAMILY_RECORDS if f.count)
"""Measures whose summary is a count (a sum over queries, printed as an integer)."""
FAMILIES = tuple(f.name for f in FAMILY_RECORDS if f.kernel == "binary")
"""The measure families this module computes (:data:`COUNT_KERNELS`, :data:`KERNELS`)."""
MIN_GEO_MEAN = 0.00001
"""trec_eval's floor of an AP before its logarithm is taken (``gm_map``)."""


class Ranking(NamedTuple):
    """The flags and counts the binary measures need, one row per query.

    ``rel`` and ``judged`` are boolean ``queries × ranks`` matrices in rank order
    (padding ``False``); ``n_ret``, ``n_rel`` and ``n_nonrel`` count each query's
    retrieved documents, relevant documents in the qrels and judged non-relevant
    documents in the qrels.
    """

    rel: np.ndarray
    judged: np.ndarray
    n_ret: np.ndarray
    n_rel: np.ndarray
    n_nonrel: np.ndarray


def _ratio(top: np.ndarray, bottom: np.ndarray) -> np.ndarray:
    """``top / bottom``, and 0 where ``bottom`` is 0 (trec_eval's empty queries)."""
    top = np.asarray(top, dtype=float)
    return np.divide(top, bottom, out=np.zeros(top.shape), where=bottom > 0)


def _at(matrix: np.ndarray, column: np.ndarray) -> np.ndarray:
    """``matrix[q, column[q]]`` for every row ``q``."""
    return np.take_along_axis(matrix, column[:, None], axis=1)[:, 0]


def _ap_terms(rel: np.ndarray, found: np.ndarray) -> np.ndarray:
    """Running AP sums, left to right in rank order (sequential, as trec_eval adds)."""
    terms = np.where(rel, found / np.arange(1, rel.shape[1] + 1), 0.0)
    return np.cumsum(terms, axis=1)


def _bpref(r: Ranking) -> np.ndarray:
    nonrel = r.judged & ~r.rel
    above = np.cumsum(nonrel, axis=1)  # at a relevant rank, the non-relevant ones above it
    cap = np.minimum(r.n_nonrel, r.n_rel)[:, None]
    share = np.divide(
        np.minimum(above, r.n_rel[:, None]), cap, out=np.zeros(above.shape), where=cap > 0
    )
    terms = np.where(r.rel, np.where(above > 0, 1.0 - share, 1.0), 0.0)
    return _ratio(np.cumsum(terms, axis=1)[:, -1], r.n_rel)


def _half_up(x: np.ndarray) -> np.ndarray:
    """C's ``lround`` for x >= 0: halves round up (numpy's ``round`` rounds them to even)."""
    low = np.floor(x)
    return np.where(x - low >= 0.5, low + 1, low).astype(np.int64)


def _iprec(point: float, r: Ranking, found: np.ndarray) -> np.ndarray:
    """Interpolated precision at a recall point: the best precision at or below the
    rank where ``round(point * R)`` relevant documents are found (all ranks for 0)."""
    precision = found / np.arange(1, found.shape[1] + 1)
    best_below = np.maximum.accumulate(precision[:, ::-1], axis=1)[:, ::-1]
    need = _half_up(point * r.n_rel)
    total = found[:, -1]
    rank = np.argmax(found >= np.maximum(need, 1)[:, None], axis=1)
    return np.where((need <= total) & (total > 0), _at(best_below, rank), 0.0)


def _upto(found: np.ndarray, k: float | None) -> np.ndarray:
    """Relevant documents found within the top ``k`` (all ranks for ``None``)."""
    return found[:, clamp_k(k, found.shape[1]) - 1] if k else found[:, -1]


def _map(r: Ranking, k: float | None, found: np.ndarray) -> np.ndarray:
    return _ratio(_upto(_ap_terms(r.rel, found), k), r.n_rel)


def _recip_rank(r: Ranking, k: float | None, found: np.ndarray) -> np.ndarray:
    first = r.rel.argmax(axis=1)
    hit = r.rel.any(axis=1) & (True if k is None else first < k)
    return np.where(hit, 1.0 / (first + 1), 0.0)


def _rprec(r: Ranking, k: float | None, found: np.ndarray) -> np.ndarray:
    look = np.minimum(r.n_ret, r.n_rel)
    hits = _at(found, np.clip(look - 1, 0, found.shape[1] - 1))
    return np.where(look > 0, _ratio(hits, r.n_rel), 0.0)


def _judged(r: Ranking, k: float | None, found: np.ndarray) -> np.ndarray:
    depth = r.n_ret if k is None else np.minimum(r.n_ret, k)
    return _ratio(_upto(np.cumsum(r.judged, axis=1), k), depth)


Kernel = Callable[[Ranking, "float | None", np.ndarray], np.ndarray]

#: The kernel of each family over non-empty rankings: (ranking, k, relevant found by rank).
KERNELS: dict[str, Kernel] = {
    "map": _map,
    "gm_map": _map,
    "map_cut": _map,
    "P": lambda r, k, found: _upto(found, k) / k,
    "recall": lambda r, k, found: _ratio(_upto(found, k), r.n_rel),
    "success": lambda r, k, found: (_upto(found, k) > 0).astype(float),
    "recip_rank": _recip_rank,
    "Rprec": _rprec,
    "bpref": lambda r, k, found: _bpref(r),
    "iprec_at_recall": lambda r, k, found: _iprec(float(k), r, found),  # type: ignore[arg-type]
    "Judged": _judged,
}

#: The counts of :data:`COUNTS`, defined for empty rankings too: (ranking, relevant retrieved).
COUNT_KERNELS: dict[str, Callable[[Ranking, np.ndarray], np.ndarray]] = {
    "num_q": lambda r, last: np.ones(len(r.rel)),
    "num_ret": lambda r, last: r.n_ret.astype(float),
    "num_rel": lambda r, last: r.n_rel.astype(float),
    "num_rel_ret": lambda r, last: last.astype(float),
}


def binary_measure(family: str, k: float | None, r: Ranking) -> np.ndarray:
    """One binary measure of every row; ``k`` is the cutoff (the recall point of
    ``iprec_at_recall``), ``None`` for the whole ranking.

    Examples
    --------
    >>> rel = np.array([[True, False, True, False]])
    >>> r = Ranking(rel, np.array([[True, True, True, False]]), np.array([4]),
    ...             np.array([3]), np.array([1]))
    >>> [round(float(binary_measure(f, k, r)[0]), 4) for f, k in (("P", 2), ("recall", 4),
    ...  ("recip_rank", None), ("map", None), ("bpref", None), ("Judged", 4))]
    [0.5, 0.6667, 1.0, 0.5556, 0.3333, 0.75]
    """
    if family not in KERNELS and family not in COUNT_KERNELS:
        raise ValueError(f"binary measure must be one of {FAMILIES}, got {family!r}")
    width = r.rel.shape[1]
    found = np.cumsum(r.rel, axis=1)
    if family in COUNT_KERNELS:
        last = found[:, -1] if width else np.zeros(len(r.rel), dtype=np.int64)
        return COUNT_KERNELS[family](r, last)
    if width == 0:
        return np.zeros(len(r.rel))
    return KERNELS[family](r, k, found)


def level_flags(levels: np.ndarray, level: float, negative_grades: str) -> tuple[np.ndarray, ...]:
    """Per grade level (then one entry for unjudged documents): relevant at ``level``,
    and judged. Under ``negative_grades="unjudged"`` a negative grade is neither
    (trec_eval: in the pool, unjudged)."""
    judged = levels >= 0 if negative_grades == "unjudged" else np.ones(len(levels), dtype=bool)
    rel = (levels >= level) & judged
    return np.append(rel, False), np.append(judged, False)


def binary_values(specs: Sequence, p, index: np.ndarray, level: float) -> dict[str, np.ndarray]:
    """Every binary measure of ``specs`` for prepared queries ``p`` (a
    :class:`dcglab.batch.preparation.Prepared`) whose grade levels in rank order are ``index``.

    A measure's own relevance level (``P(rel=2)@10``) replaces ``level``.
    """
    out: dict[str, np.ndarray] = {}
    rankings: dict[float, Ranking] = {}
    n_ret = p.retrieved
    for m in specs:
        at = float(level if m.rel is None else m.rel)
        if at not in rankings:
            rel, judged = level_flags(p.levels, at, p.negative_grades)
            n_rel = rel[p.judged_index].sum(axis=1)
            n_nonrel = (judged & ~rel)[p.judged_index].sum(axis=1)
            rankings[at] = Ranking(rel[index], judged[index], n_ret, n_rel, n_nonrel)
        k = m.param if m.record.params == "points" else m.k
        out[m.name] = binary_measure(m.family, k, rankings[at])
    return out


def summary(family: str | None, values: np.ndarray, mean: float) -> float:
    """trec_eval's summary (``all``) value of a measure of ``family`` from its
    per-query values (``None``: a measure without a family, its mean).

    Counts are summed (``num_q`` counts the queries); ``gm_map`` is the geometric
    mean :math:`\\exp(\\frac{1}{|Q|}\\sum_q \\ln \\max(AP_q, 10^{-5}))`, its logs
    added left to right in query order as trec_eval adds them; every other
    measure has its ``mean`` (:meth:`dcglab.batch.result.BatchResult.means`).
    """
    aggregate = FAMILY[family].aggregate if family in FAMILY else "mean"
    if aggregate == "queries":
        return float(len(values))
    if aggregate == "sum":
        return float(values.sum())  # integers: exact in any order
    if aggregate == "geometric":
        logs = np.log(np.maximum(values, MIN_GEO_MEAN))
        return math.exp(float(np.cumsum(logs)[-1]) / len(values))
    return mean
