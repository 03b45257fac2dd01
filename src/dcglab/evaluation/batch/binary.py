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
(rounded half up) is found; ``gm_map`` is AP per query and ``gm_bpref`` bpref
per query, averaged geometrically (:func:`summary`). As in trec_eval, P@k
counts missing ranks below the end of a
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
from functools import cached_property
from typing import NamedTuple

import numpy as np

from dcglab.evaluation.measure_families import FAMILIES as FAMILY_RECORDS
from dcglab.evaluation.measure_families import FAMILY
from dcglab.evaluation.measure_names import is_ir_name
from dcglab.formulas.measures import clamp_k

__all__ = [
    "COUNTS",
    "FAMILIES",
    "MIN_GEO_MEAN",
    "Ranking",
    "Steps",
    "binary_measure",
    "binary_values",
    "docno_ascending",
    "stand_in",
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


class Steps:
    """The running sums a ranking's measures share, each computed once, when first
    asked for: ``found`` (relevant documents by rank), ``ap`` (AP's running sum),
    ``best_below`` (the best precision at or below each rank) and ``bpref``."""

    def __init__(self, r: Ranking) -> None:
        self.r = r

    @cached_property
    def found(self) -> np.ndarray:
        return np.cumsum(self.r.rel, axis=1)

    @cached_property
    def ap(self) -> np.ndarray:
        """Running AP sums, left to right in rank order (sequential, as trec_eval adds)."""
        rel = self.r.rel
        terms = np.where(rel, self.found / np.arange(1, rel.shape[1] + 1), 0.0)
        return np.cumsum(terms, axis=1)

    @cached_property
    def best_below(self) -> np.ndarray:
        precision = self.found / np.arange(1, self.found.shape[1] + 1)
        return np.maximum.accumulate(precision[:, ::-1], axis=1)[:, ::-1]

    @cached_property
    def bpref(self) -> np.ndarray:
        return _bpref(self.r)


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


def _iprec(
    point: float, r: Ranking, s: Steps, rounding: Callable[[np.ndarray], np.ndarray] = _half_up
) -> np.ndarray:
    """Interpolated precision at a recall point: the best precision at or below the
    rank where ``rounding(point * R)`` relevant documents are found (all ranks for
    0); trec_eval 10 rounds half up (C's ``lround``)."""
    found = s.found
    need = rounding(point * r.n_rel)
    total = found[:, -1]
    rank = np.argmax(found >= np.maximum(need, 1)[:, None], axis=1)
    return np.where((need <= total) & (total > 0), _at(s.best_below, rank), 0.0)


def _upto(found: np.ndarray, k: float | None) -> np.ndarray:
    """Relevant documents found within the top ``k`` (all ranks for ``None``)."""
    return found[:, clamp_k(k, found.shape[1]) - 1] if k else found[:, -1]


def _map(r: Ranking, k: float | None, s: Steps) -> np.ndarray:
    return _ratio(_upto(s.ap, k), r.n_rel)


def _recip_rank(r: Ranking, k: float | None, s: Steps) -> np.ndarray:
    first = r.rel.argmax(axis=1)
    hit = r.rel.any(axis=1) & (True if k is None else first < k)
    return np.where(hit, 1.0 / (first + 1), 0.0)


def _rprec(r: Ranking, k: float | None, s: Steps) -> np.ndarray:
    look = np.minimum(r.n_ret, r.n_rel)
    hits = _at(s.found, np.clip(look - 1, 0, s.found.shape[1] - 1))
    return np.where(look > 0, _ratio(hits, r.n_rel), 0.0)


def _judged(r: Ranking, k: float | None, s: Steps) -> np.ndarray:
    depth = r.n_ret if k is None else np.minimum(r.n_ret, k)
    return _ratio(_upto(np.cumsum(r.judged, axis=1), k), depth)


Kernel = Callable[[Ranking, "float | None", Steps], np.ndarray]

#: The kernel of each family over non-empty rankings: (ranking, k, its shared sums).
KERNELS: dict[str, Kernel] = {
    "map": _map,
    "gm_map": _map,
    "map_cut": _map,
    "P": lambda r, k, s: _upto(s.found, k) / k,
    "recall": lambda r, k, s: _ratio(_upto(s.found, k), r.n_rel),
    "success": lambda r, k, s: (_upto(s.found, k) > 0).astype(float),
    "recip_rank": _recip_rank,
    "Rprec": _rprec,
    "bpref": lambda r, k, s: s.bpref,
    "gm_bpref": lambda r, k, s: s.bpref,
    "iprec_at_recall": lambda r, k, s: _iprec(float(k), r, s),  # type: ignore[arg-type]
    "Judged": _judged,
}

#: The counts of :data:`COUNTS`, defined for empty rankings too: (ranking, relevant retrieved).
COUNT_KERNELS: dict[str, Callable[[Ranking, np.ndarray], np.ndarray]] = {
    "num_q": lambda r, last: np.ones(len(r.rel)),
    "num_ret": lambda r, last: r.n_ret.astype(float),
    "num_rel": lambda r, last: r.n_rel.astype(float),
    "num_rel_ret": lambda r, last: last.astype(float),
}


def binary_measure(
    family: str, k: float | None, r: Ranking, steps: Steps | None = None
) -> np.ndarray:
    """One binary measure of every row; ``k`` is the cutoff (the recall point of
    ``iprec_at_recall``), ``None`` for the whole ranking; ``steps`` the ranking's
    shared sums (:class:`Steps`), when other measures of it are computed too.

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
    s = Steps(r) if steps is None else steps
    if family in COUNT_KERNELS:
        last = s.found[:, -1] if width else np.zeros(len(r.rel), dtype=np.int64)
        return COUNT_KERNELS[family](r, last)
    if width == 0:
        return np.zeros(len(r.rel))
    return KERNELS[family](r, k, s)


def level_flags(levels: np.ndarray, level: float, negative_grades: str) -> tuple[np.ndarray, ...]:
    """Per grade level (then one entry for unjudged documents): relevant at ``level``,
    and judged. Under ``negative_grades="unjudged"`` a negative grade is neither
    (trec_eval: in the pool, unjudged)."""
    judged = levels >= 0 if negative_grades == "unjudged" else np.ones(len(levels), dtype=bool)
    rel = (levels >= level) & judged
    return np.append(rel, False), np.append(judged, False)


def stand_in(p) -> np.ndarray:
    """The queries of prepared ``p`` that trec_eval ``-c`` evaluates on a stand-in
    ranking, one document not in the qrels (``trec_eval.c``): those missing from
    the run, unless ``-J`` drops that document or ``-M 0`` cuts it."""
    c = p.conventions
    return (p.retrieved == 0) & (not c.judged_only) & (c.max_docs != 0)


def docno_ascending(p, width: int) -> np.ndarray:
    """The grade levels of prepared ``p`` in rank order with each group of tied
    scores in docno ascending order, as ir_measures' msmarco and judged providers
    sort (by score, then docno), cut at ``width`` ranks (the whole ranking is
    reordered first, so a tied group that straddles the cut is whole)."""
    scores = p.ranked_scores
    w = scores.shape[1]
    place = np.arange(w)
    new = np.ones(scores.shape, dtype=bool)
    new[:, 1:] = scores[:, 1:] != scores[:, :-1]  # NaN padding: a group each
    last = np.ones(scores.shape, dtype=bool)
    last[:, :-1] = new[:, 1:]
    start = np.maximum.accumulate(np.where(new, place, 0), axis=1)
    end = np.minimum.accumulate(np.where(last, place, w)[:, ::-1], axis=1)[:, ::-1]
    return np.take_along_axis(p.ranked_index, start + end - place, axis=1)[:, :width]


def _ir_variant(m, ir_measures: bool) -> str:
    """Which ranking a measure reads: trec_eval's (``"trec"``), or under
    ``ir_measures`` for ir_measures' ``Judged@k`` (``"judged"``: ties by docno
    ascending, every qrels entry judged) and ``RR@k`` (``"ascending"``)."""
    if not (ir_measures and is_ir_name(m)):
        return "trec"
    if m.family == "Judged":
        return "judged"
    return "ascending" if m.family == "recip_rank" and m.k is not None else "trec"


def _nine(x: np.ndarray) -> np.ndarray:
    """trec_eval 9's recall point rank, ``(long)(x + 0.9)`` (10.0 rounds: :func:`_half_up`)."""
    return np.floor(x + 0.9).astype(np.int64)


def binary_values(
    specs: Sequence,
    p,
    index: np.ndarray,
    level: float,
    corrected: bool = True,
    ir_measures: bool = False,
) -> dict[str, np.ndarray]:
    r"""Every binary measure of ``specs`` for prepared queries ``p`` (a
    :class:`dcglab.evaluation.batch.preparation.Prepared`) whose grade levels in
    rank order are ``index``.

    A measure's own relevance level (``P(rel=2)@10``) replaces ``level``. For a
    query left with no document (``-J``, ``-M 0``) trec_eval divides 0 by 0 in
    ``iprec_at_recall`` at each point :math:`x` with :math:`\mathrm{round}(xR) = 0`
    and prints ``-nan``: the value is NaN there, or 0 when ``corrected``. With
    ``ir_measures``, the measures named in ir_measures' syntax give ir_measures'
    numbers (:data:`dcglab.evaluation.presets.IR_MEASURES`).
    """
    out: dict[str, np.ndarray] = {}
    rankings: dict[tuple[float, str], Ranking] = {}
    steps: dict[tuple[float, str], Steps] = {}
    n_ret = p.retrieved
    for m in specs:
        at = float(level if m.rel is None else m.rel)
        key = (at, _ir_variant(m, ir_measures))
        if key not in rankings:
            rel, judged = level_flags(p.levels, at, p.negative_grades)
            n_rel = rel[p.judged_index].sum(axis=1)
            n_nonrel = (judged & ~rel)[p.judged_index].sum(axis=1)
            where = index if key[1] == "trec" else docno_ascending(p, index.shape[1])
            if key[1] == "judged":  # any qrels entry, whatever its grade
                judged = np.append(np.ones(len(p.levels), dtype=bool), False)
            rankings[key] = Ranking(rel[where], judged[where], n_ret, n_rel, n_nonrel)
            steps[key] = Steps(rankings[key])
        k = m.param if m.record.params == "points" else m.k
        r = rankings[key]
        if m.family == "iprec_at_recall" and ir_measures and is_ir_name(m):
            value = _iprec(float(k), r, steps[key], _nine) if r.rel.shape[1] else 0.0 * n_ret
        else:
            value = binary_measure(m.family, k, r, steps[key])
        if m.family == "iprec_at_recall" and not corrected:
            empty = (n_ret == 0) & ~stand_in(p)
            value = np.where(empty & (_half_up(float(k) * r.n_rel) == 0), np.nan, value)
        out[m.name] = value
    return out


def summary(family: str | None, values: np.ndarray, mean: float) -> float:
    """trec_eval's summary (``all``) value of a measure of ``family`` from its
    per-query values (``None``: a measure without a family, its mean).

    Counts are summed (``num_q`` counts the queries); ``gm_map`` is the geometric
    mean :math:`\\exp(\\frac{1}{|Q|}\\sum_q \\ln \\max(AP_q, 10^{-5}))`, its logs
    added left to right in query order as trec_eval adds them; every other
    measure has its ``mean`` (:meth:`dcglab.evaluation.batch.result.BatchResult.means`).
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
