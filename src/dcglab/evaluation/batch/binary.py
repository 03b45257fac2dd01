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
    "Packed",
    "Ranking",
    "Steps",
    "binary_measure",
    "binary_values",
    "docno_ascending",
    "packed",
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


class Packed(NamedTuple):
    """The true places of a boolean ``rows × width`` matrix, packed to the left.

    ``columns`` is a ``rows × P`` matrix of each row's true columns, ascending
    (``P`` the most in a row, at least 1), padded with ``width``; ``count`` the
    true places of each row; ``flat`` their flat indices in the matrix, in row
    order, and ``at`` where each of them is in ``columns`` (its row and place).
    """

    columns: np.ndarray
    count: np.ndarray
    flat: np.ndarray
    at: tuple[np.ndarray, np.ndarray]


def packed(mask: np.ndarray) -> Packed:
    """The :class:`Packed` true places of ``mask``: a ranking's few relevant (or
    judged) documents as a narrow matrix, so that sums over them skip the rest.

    Examples
    --------
    >>> packed(np.array([[False, True, True], [False, False, False]])).columns.tolist()
    [[1, 2], [3, 3]]
    """
    n, w = mask.shape
    flat = np.flatnonzero(mask)
    row = flat // max(w, 1)
    count = np.bincount(row, minlength=n)
    columns = np.full((n, max(int(count.max(initial=0)), 1)), w, dtype=np.int64)
    first = np.cumsum(count) - count  # each row's first entry in flat
    at = (row, np.arange(len(flat)) - first[row])
    columns[at] = flat - row * w
    return Packed(columns, count, flat, at)


class Steps:
    """The sums a ranking's measures share, each computed once, when first asked for.

    They are worked out on each query's relevant ranks (:attr:`hits`) rather than
    on the whole ranking: a ranking of a thousand documents holds a few dozen
    relevant ones, and every running sum here changes only at a relevant rank.
    ``total`` counts each query's relevant documents retrieved, ``ap`` and
    ``best_below`` are AP's running sum and the best precision at or below each
    relevant rank, and ``bpref`` is bpref.
    """

    def __init__(self, r: Ranking) -> None:
        self.r = r

    @cached_property
    def _packed(self) -> Packed:
        return packed(self.r.rel)

    @property
    def total(self) -> np.ndarray:
        r"""Relevant documents retrieved by each query: :math:`\sum_i r_i`."""
        return self._packed.count

    @property
    def hits(self) -> np.ndarray:
        """Each query's relevant ranks (0-based, ascending): a ``queries × H`` matrix,
        ``H`` the most relevant documents a query retrieved (at least 1), padded
        with the ranking's width (:func:`packed`)."""
        return self._packed.columns

    def within(self, depth: float | np.ndarray | None) -> np.ndarray:
        r"""Relevant documents in the top ``depth`` ranks of each query (a cutoff,
        one per query, or ``None`` for the whole ranking): :math:`\sum_{i \le k} r_i`."""
        if depth is None:
            return self.total
        depth = np.minimum(depth, self.r.rel.shape[1])  # the padding is at the width
        return (self.hits < (depth[:, None] if depth.ndim else depth)).sum(axis=1)

    @cached_property
    def precision(self) -> np.ndarray:
        """Precision at each relevant rank, :math:`j / h_j` for the j-th relevant
        document at rank :math:`h_j` (1-based); 0 in the padding."""
        h = self.hits
        at = np.arange(1, h.shape[1] + 1)
        return np.where(h < self.r.rel.shape[1], at / (h + 1), 0.0)

    @cached_property
    def ap(self) -> np.ndarray:
        """Running AP sums at each relevant rank, left to right in rank order
        (sequential, as trec_eval adds; the ranks between add nothing)."""
        return np.cumsum(self.precision, axis=1)

    @cached_property
    def best_below(self) -> np.ndarray:
        """The best precision at or below each relevant rank. Below a relevant rank
        precision falls until the next relevant one, so the best is at a
        relevant rank."""
        return np.maximum.accumulate(self.precision[:, ::-1], axis=1)[:, ::-1]

    @cached_property
    def bpref(self) -> np.ndarray:
        return _bpref(self.r, self.hits)


def _bpref(r: Ranking, hits: np.ndarray) -> np.ndarray:
    """bpref from each query's relevant ranks ``hits`` (:attr:`Steps.hits`): at a
    relevant rank, :math:`b_i` is the number of judged non-relevant documents
    ranked above it, found by a search in their sorted flat places."""
    n, w = r.rel.shape
    nonrel = np.flatnonzero(r.judged & ~r.rel)
    starts = np.arange(n, dtype=np.int64)[:, None] * w
    above = np.searchsorted(nonrel, hits + starts) - np.searchsorted(nonrel, starts)
    cap = np.minimum(r.n_nonrel, r.n_rel)[:, None]
    share = np.divide(
        np.minimum(above, r.n_rel[:, None]), cap, out=np.zeros(above.shape), where=cap > 0
    )
    terms = np.where(hits < w, np.where(above > 0, 1.0 - share, 1.0), 0.0)
    return _ratio(np.cumsum(terms, axis=1)[:, -1], r.n_rel)


def running_at(running: np.ndarray, count: np.ndarray) -> np.ndarray:
    """``running[q, count[q] - 1]``: a running sum over packed places (such as
    :attr:`Steps.hits`) after each query's first ``count`` of them; 0 where
    ``count`` is 0."""
    col = np.clip(count - 1, 0, running.shape[1] - 1)
    return np.where(count > 0, _at(running, col), 0.0)


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
    need = rounding(point * r.n_rel)
    total = s.total
    best = running_at(s.best_below, np.maximum(need, 1))
    return np.where((need <= total) & (total > 0), best, 0.0)


def _map(r: Ranking, k: float | None, s: Steps) -> np.ndarray:
    return _ratio(running_at(s.ap, s.within(k)), r.n_rel)


def _recip_rank(r: Ranking, k: float | None, s: Steps) -> np.ndarray:
    first = s.hits[:, 0]
    hit = (s.total > 0) & (True if k is None else first < k)
    return np.where(hit, 1.0 / (first + 1), 0.0)


def _rprec(r: Ranking, k: float | None, s: Steps) -> np.ndarray:
    look = np.minimum(r.n_ret, r.n_rel)
    return np.where(look > 0, _ratio(s.within(look), r.n_rel), 0.0)


def _judged(r: Ranking, k: float | None, s: Steps) -> np.ndarray:
    depth = r.n_ret if k is None else np.minimum(r.n_ret, k)
    top = r.judged if k is None else r.judged[:, : clamp_k(k, r.judged.shape[1])]
    return _ratio(top.sum(axis=1), depth)


Kernel = Callable[[Ranking, "float | None", Steps], np.ndarray]

#: The kernel of each family over non-empty rankings: (ranking, k, its shared sums).
KERNELS: dict[str, Kernel] = {
    "map": _map,
    "gm_map": _map,
    "map_cut": _map,
    "P": lambda r, k, s: s.within(k) / k,
    "recall": lambda r, k, s: _ratio(s.within(k), r.n_rel),
    "success": lambda r, k, s: (s.within(k) > 0).astype(float),
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
        return COUNT_KERNELS[family](r, s.total)
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
