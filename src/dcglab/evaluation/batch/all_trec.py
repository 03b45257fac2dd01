r"""trec_eval's measures that read grades and pool marks, for many queries at once.

These are the measures of trec_eval's ``all_trec`` set beyond the binary ones
(:mod:`dcglab.evaluation.batch.binary`) and nDCG: the set measures, utility,
relative precision, infAP, Rprec_mult, 11pt_avg, binG, G, ndcg_rel, Rndcg, RBP
and its residual, unj and relstring. Each query is a row of trec_eval's
relevance values in rank order (:class:`Pool`): the (truncated) grade of a
judged document, :data:`NONPOOL` for a document missing from the qrels,
:data:`UNJUDGED` for one with a negative grade (in the pool, not judged), and
:data:`PAD` after the last retrieved document.

Counts: :math:`n` documents retrieved, :math:`R` relevant in the qrels (grade at
least the relevance level, ``-l``), :math:`a` relevant retrieved. Each kernel
follows the arithmetic of its ``m_*.c`` file in trec_eval 10.0: the same
operations in the same order (sums left to right, as :func:`numpy.cumsum`
adds), and ``log2`` from the C library, so the printed digits agree.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, ThreadPoolExecutor
from functools import cached_property, lru_cache
from typing import NamedTuple

import numpy as np

from dcglab.evaluation.batch.binary import (
    Ranking,
    Steps,
    _half_up,
    _iprec,
    packed,
    running_at,
    stand_in,
)
from dcglab.evaluation.batch.blocks import row_blocks
from dcglab.evaluation.measure_families import DEFAULT_IPREC

__all__ = [
    "NONPOOL",
    "PAD",
    "TREC_KERNELS",
    "UNJUDGED",
    "Pool",
    "ideal_gains",
    "pool",
    "trec_values",
]

NONPOOL = -1
"""trec_eval's ``RELVALUE_NONPOOL``: a retrieved document not in the qrels."""
UNJUDGED = -2
"""trec_eval's ``RELVALUE_UNJUDGED``: in the qrels with a negative grade."""
PAD = -3
"""A place after the last retrieved document."""
INFAP_EPSILON = 0.00001
"""trec_eval's ``INFAP_EPSILON`` (``trec_eval.h``)."""
TREC_BLOCK = 1 << 20
"""Elements (queries × ranks) per block of :func:`trec_values`. Its kernels work
on each query's few pool documents (:func:`places`), so its blocks can be larger
than :data:`dcglab.evaluation.batch.blocks.BLOCK`: fewer blocks make fewer numpy
calls, whose Python part the threads would otherwise take turns at (the GIL)."""


class Pool(NamedTuple):
    """trec_eval's view of each query (``RES_RELS`` of ``form_res_rels.c``).

    ``grades`` is a ``queries × ranks`` matrix of relevance values in rank
    order (:data:`NONPOOL`, :data:`UNJUDGED`, :data:`PAD` or a grade >= 0), in
    the smallest integer type that holds them; ``n_ret`` counts the retrieved
    documents; ``counts[q, g]`` the qrels documents of grade ``g`` (grades >=
    0); ``level`` is the relevance level;
    ``stand_in`` marks the queries missing from the run, which trec_eval ``-c``
    evaluates on a ranking of one document not in the qrels.
    """

    grades: np.ndarray
    n_ret: np.ndarray
    counts: np.ndarray
    level: int
    stand_in: np.ndarray

    @property
    def rel(self) -> np.ndarray:
        """Relevant retrieved documents (grade >= level), by rank."""
        return self.grades >= max(self.level, 0)

    @property
    def n_rel(self) -> np.ndarray:
        """:math:`R`: the qrels documents with a grade >= the level."""
        return self.counts[:, self.level :].sum(axis=1)

    @property
    def levels_used(self) -> np.ndarray:
        """trec_eval's ``num_rel_levels``: one more than the highest grade present."""
        present = self.counts > 0
        top = present.shape[1] - np.argmax(present[:, ::-1], axis=1)
        return np.where(present.any(axis=1), top, 0)


def pool(p, index: np.ndarray, level: float, rows: slice = slice(None)) -> Pool:
    """The :class:`Pool` of prepared queries ``p`` (a
    :class:`dcglab.evaluation.batch.preparation.Prepared`) whose grade levels in
    rank order are ``index``, or of the queries ``rows`` of them. Grades are
    truncated to integers and a negative grade marks a document in the pool but
    unjudged, as trec_eval reads them.
    """
    grade = np.trunc(p.levels).astype(np.int64)
    n_ret = p.retrieved[rows]
    stand_ins = stand_in(p)
    if stand_ins.any():
        if index.shape[1] == 0:
            index = np.zeros((len(index), 1), dtype=index.dtype)
        index = index[rows].copy()
        stand_ins = stand_ins[rows]
        index[stand_ins, 0] = len(grade)
        n_ret = np.where(stand_ins, 1, n_ret)
    else:
        index, stand_ins = index[rows], stand_ins[rows]
    top = int(grade.max()) if len(grade) and grade.max() > 0 else 0
    small = np.result_type(np.min_scalar_type(PAD), np.min_scalar_type(top))  # int8 mostly
    value = np.append(np.where(grade < 0, UNJUDGED, grade), NONPOOL).astype(small)
    grades = value[index]
    if (n_ret < index.shape[1]).any():  # a query with fewer documents than the widest
        grades[np.arange(index.shape[1]) >= n_ret[:, None]] = PAD
    judged = np.append(grade, -1)[p.judged_index[rows]]
    nq = len(judged)
    keep = judged >= 0
    rows = np.broadcast_to(np.arange(nq)[:, None], judged.shape)[keep]
    counts = np.bincount(rows * (top + 1) + judged[keep], minlength=nq * (top + 1))
    return Pool(grades, n_ret, counts.reshape(nq, top + 1), int(level), stand_ins)


class Places(NamedTuple):
    """Some documents of each query's ranking, in rank order: ``pos`` their ranks
    (0-based; a ``queries × P`` matrix padded with the ranking's width) and
    ``grades`` their relevance values (:data:`PAD` in the padding)."""

    pos: np.ndarray
    grades: np.ndarray


def places(pl: Pool, nonpool: bool = False) -> Places:
    """The :class:`Places` of the pool's documents (judged, or in the pool but
    unjudged), and with ``nonpool`` of the documents not in the qrels too.

    A ranking of a thousand documents holds a few dozen of the pool's: the
    running sums of the ranked measures below change only there (unless a gain
    table gives :data:`NONPOOL` a gain), so they are summed over these places
    alone, in rank order, which adds the same terms in the same order.
    """
    g = pl.grades
    keep = (g >= 0) | (g == UNJUDGED) | ((g == NONPOOL) & nonpool)
    found = packed(keep)
    grades = np.full(found.columns.shape, PAD, dtype=g.dtype)
    grades[found.at] = g.ravel()[found.flat]
    return Places(found.columns, grades)


# ------------------------------------------------------------------ helpers


@lru_cache(maxsize=8)
def _c_log2_ints(n: int) -> np.ndarray:
    """``log2(m)`` for ``m = 0..n`` from the C library (``math.log2``); 0 for m < 1."""
    out = np.array([math.log2(m) if m > 0 else 0.0 for m in range(n + 1)])
    out.flags.writeable = False
    return out


def c_log2(x: np.ndarray) -> np.ndarray:
    """``log2`` of each element as the C library computes it (numpy's vectorised
    ``log2`` may differ in the last bit); each distinct value is computed once."""
    flat = x.ravel()
    if flat.size and np.all(flat == np.round(flat)) and 0 < flat.min() and flat.max() < 1 << 22:
        return _c_log2_ints(int(flat.max()))[flat.astype(np.int64)].reshape(x.shape)
    values, where = np.unique(flat, return_inverse=True)
    table = np.array([math.log2(v) if v > 0 else math.nan for v in values.tolist()])
    return table[where].reshape(x.shape)


def _ratio(top: np.ndarray, bottom: np.ndarray) -> np.ndarray:
    """``top / bottom``, 0 where ``bottom`` is 0."""
    top = np.asarray(top, dtype=float)
    return np.divide(top, bottom, out=np.zeros(top.shape), where=bottom != 0)


class Counts(NamedTuple):
    """The counts of the set measures: retrieved, relevant, relevant retrieved,
    retrieved but not in the qrels, retrieved in the pool but unjudged."""

    ret: np.ndarray
    rel: np.ndarray
    rel_ret: np.ndarray
    nonpool: np.ndarray
    unjudged: np.ndarray


def counts(pl: Pool) -> Counts:
    """The :class:`Counts` of every query."""
    return Counts(
        pl.n_ret,
        pl.n_rel,
        pl.rel.sum(axis=1),
        (pl.grades == NONPOOL).sum(axis=1),
        (pl.grades == UNJUDGED).sum(axis=1),
    )


# ------------------------------------------------------------------ set measures


def set_p(c: Counts) -> np.ndarray:
    r"""Set precision, :math:`a / n` (0 when :math:`n = 0`; ``m_set_P.c``)."""
    return _ratio(c.rel_ret, c.ret)


def set_recall(c: Counts) -> np.ndarray:
    r"""Set recall, :math:`a / R` (0 when :math:`R = 0`; ``m_set_recall.c``)."""
    return _ratio(c.rel_ret, c.rel)


def set_map(c: Counts) -> np.ndarray:
    r"""Unranked set AP, :math:`a^2 / (n R)` (``m_set_map.c``)."""
    a = c.rel_ret.astype(float)
    return _ratio(a * a, c.ret.astype(float) * c.rel.astype(float))


def set_relative_p(c: Counts) -> np.ndarray:
    r"""Relative set precision, :math:`a / \min(n, R)` (``m_set_rel_P.c``)."""
    return _ratio(c.rel_ret, np.minimum(c.ret, c.rel))


def set_f(c: Counts, beta: float = 1.0) -> np.ndarray:
    r"""Set F, :math:`\frac{(x+1) P R}{x P + R}` with :math:`P = a/n`,
    :math:`R = a/R` and :math:`x` = ``beta`` (0 when :math:`a = 0`; ``m_set_F.c``)."""
    hit = c.rel_ret > 0
    prec = _ratio(c.rel_ret, np.where(hit, c.ret, 0))
    rec = _ratio(c.rel_ret, np.where(hit, c.rel, 0))
    with np.errstate(invalid="ignore", divide="ignore"):
        value = (beta + 1.0) * prec * rec / (beta * prec + rec)
    return np.where(hit, value, 0.0)


def utility(c: Counts, weights: Sequence[float] = (1.0, -1.0, 0.0, 0.0)) -> np.ndarray:
    r"""Set utility :math:`w_1 a + w_2 (n - a) + w_3 (R - a) + w_4 (N + a - n - R)`,
    :math:`N` the collection size, 0 here as trec_eval without ``-N``
    (``m_utility.c``)."""
    w1, w2, w3, w4 = (float(w) for w in weights)
    a, n, r = c.rel_ret, c.ret, c.rel
    return w1 * a + w2 * (n - a) + w3 * (r - a) + w4 * (a - n - r)


def nonrel_judged_ret(c: Counts) -> np.ndarray:
    r"""Judged non-relevant documents retrieved,
    :math:`n - \text{not in qrels} - \text{unjudged} - a` (``m_num_nonrel_judged_ret.c``)."""
    return (c.ret - c.nonpool - c.unjudged - c.rel_ret).astype(float)


# ------------------------------------------------------------------ cutoffs


def _upto(found: np.ndarray, depth: np.ndarray) -> np.ndarray:
    """``found[q, depth[q] - 1]``, 0 where ``depth`` is 0."""
    if found.shape[1] == 0:
        return np.zeros(len(found))
    at = np.take_along_axis(found, np.clip(depth - 1, 0, found.shape[1] - 1)[:, None], axis=1)
    return np.where(depth > 0, at[:, 0], 0)


def relative_p(pl: Pool, k: int, steps: Steps) -> np.ndarray:
    r"""Relative precision at :math:`k`, :math:`\frac{\sum_{i \le k} r_i}{\min(k, R)}`
    (0 when :math:`R = 0`; ``m_rel_P.c``); ``steps`` are the running sums of the
    pool's ranking (:class:`dcglab.evaluation.batch.binary.Steps`)."""
    return _ratio(steps.within(np.minimum(pl.n_ret, k)), np.minimum(k, pl.n_rel))


def unjudged_at(pl: Pool, k: int, judged: Places) -> np.ndarray:
    r"""Share of the top :math:`k` not judged, :math:`\frac{1}{k}\sum_{i \le k} u_i`,
    :math:`u_i` = 1 for a document not in the qrels or with a negative grade
    (missing ranks count as judged; ``m_unjudged.c``): the ranks within
    :math:`\min(n, k)` less the judged documents among them (``judged``: the
    pool's places, :func:`places`)."""
    depth = np.minimum(pl.n_ret, k)
    inside = (judged.pos < depth[:, None]) & (judged.grades >= 0)
    return (depth - inside.sum(axis=1)) / float(k)


def rprec_mult(pl: Pool, x: float, steps: Steps) -> np.ndarray:
    r"""Precision at :math:`c = \lfloor xR + 0.9 \rfloor` documents, missing ranks
    counting as non-relevant (0 when :math:`c = 0`; ``m_Rprec_mult.c``); ``steps``
    are the running sums of the pool's ranking
    (:class:`dcglab.evaluation.batch.binary.Steps`)."""
    cut = (x * pl.n_rel.astype(float) + 0.9).astype(np.int64)
    return _ratio(steps.within(np.minimum(cut, pl.n_ret)), cut)


def eleven_point(
    pl: Pool, points: Sequence[float], steps: Steps, corrected: bool = False
) -> np.ndarray:
    r"""Interpolated precision averaged over recall points (``m_11pt_avg.c``):
    :math:`\frac{1}{|X|}\sum_{x \in X} \mathrm{iprec}(x)`, added from the last point
    to the first as trec_eval adds. Where nothing is retrieved, trec_eval divides
    0 by 0 for a point with :math:`\mathrm{round}(xR) = 0`, giving NaN
    (``-nan``); ``corrected`` gives 0 there. ``steps`` are the running sums of the
    pool's ranking (:class:`dcglab.evaluation.batch.binary.Steps`)."""
    total = np.zeros(len(pl.n_ret))
    empty = pl.n_ret == 0
    for x in reversed(points):
        v = _iprec(float(x), steps.r, steps) if pl.grades.shape[1] else np.zeros(len(total))
        if not corrected:
            v = np.where(empty & (_half_up(x * pl.n_rel) == 0), np.nan, v)
        total = total + v
    return total / float(len(points))


# ------------------------------------------------------------------ ranked


def infap(pl: Pool, pc: Places) -> np.ndarray:
    r"""Inferred AP (Yilmaz and Aslam 2006; ``m_infap.c``): over relevant ranks
    :math:`j` (0-based), 1 at :math:`j = 0`, else

    .. math:: \frac{1}{j+1} + \frac{j}{j+1}\cdot\frac{r_j - 1 + s_j + u_j}{j}
              \cdot\frac{r_j - 1 + \epsilon}{r_j - 1 + s_j + 2\epsilon},

    with :math:`r_j` relevant, :math:`s_j` judged non-relevant and :math:`u_j`
    unjudged-in-pool documents so far, summed and divided by :math:`R`. The
    counts change only at the pool's documents, ``pc`` (:func:`places`)."""
    g = pc.grades
    rel = g >= max(pl.level, 0)
    r = np.cumsum(rel, axis=1) - 1
    s = np.cumsum((g >= 0) & ~rel, axis=1)
    u = np.cumsum(g == UNJUDGED, axis=1)
    fj = pc.pos.astype(float)
    with np.errstate(invalid="ignore", divide="ignore"):
        term = 1.0 / (fj + 1.0) + (fj / (fj + 1.0)) * ((r + s + u) / fj) * (
            (r + INFAP_EPSILON) / ((r + s) + 2 * INFAP_EPSILON)
        )
    term = np.where(pc.pos == 0, 1.0, term)
    total = np.cumsum(np.where(rel, term, 0.0), axis=1)
    return _ratio(total[:, -1], pl.n_rel)


def bin_g(pl: Pool, pc: Places) -> np.ndarray:
    r"""Binary G (``m_binG.c``): :math:`\frac{1}{R}\sum_{i: r_i}
    \frac{1}{\log_2(2 + b_i)}`, :math:`b_i` the non-relevant ranks above :math:`i`
    (its rank less the relevant ones above it), summed over the pool's
    documents ``pc`` (:func:`places`)."""
    rel = pc.grades >= max(pl.level, 0)
    above = pc.pos + 1 - np.cumsum(rel, axis=1)
    term = np.where(rel, 1.0 / c_log2((above + 2).astype(float)), 0.0)
    total = np.cumsum(term, axis=1)[:, -1]
    return np.where(rel.any(axis=1), _ratio(total, pl.n_rel), 0.0)


def rbp_resid(pl: Pool, p: float = 0.9) -> np.ndarray:
    r"""RBP's residual (``m_rbp_resid.c``): with :math:`u_i` = 1 for an unjudged
    retrieved document, :math:`p^n + (1-p)\sum_i u_i p^{i-1}` when some
    :math:`u_i` = 1, else 0; :math:`p^i` by repeated multiplication."""
    g = pl.grades
    weight = _powers(p, g.shape[1] + 1)
    unj = (g == NONPOOL) | (g == UNJUDGED)
    total = np.cumsum(np.where(unj, weight[:-1], 0.0), axis=1)
    last = total[:, -1] if g.shape[1] else np.zeros(len(g))
    value = weight[pl.n_ret] + (1 - p) * last
    return np.where(unj.any(axis=1), value, 0.0)


def _powers(p: float, n: int) -> np.ndarray:
    """:math:`p^0, p^1, ...` by repeated multiplication, as trec_eval computes them."""
    return np.cumprod(np.r_[1.0, np.full(n - 1, p)]) if n else np.ones(0)


# ------------------------------------------------------------------ gains


def gain_order(table: dict[int, float], n_levels: int, corrected: bool) -> list[tuple[int, float]]:
    """trec_eval's list of (grade, gain) of ``setup_gains`` (``gain_init.c``) for a
    query whose grades go up to ``n_levels - 1``, sorted by increasing gain.

    The table's entries come first, then each unlisted grade with its grade as
    gain. trec_eval sorts with ``qsort`` comparing ``(int)(g1 - g2)``, so gains
    less than 1 apart count as equal and keep their order; glibc's ``qsort`` is
    a merge sort, done here as it does. ``corrected`` sorts by exact gain.
    """
    items = [(int(g), float(v)) for g, v in table.items()]
    items += [(i, float(i)) for i in range(n_levels) if i not in table]

    def before(a: tuple[int, float], b: tuple[int, float]) -> bool:
        diff = a[1] - b[1]
        return (diff <= 0) if corrected else int(diff) <= 0

    def msort(xs: list) -> list:
        if len(xs) <= 1:
            return xs
        left, right = msort(xs[: len(xs) // 2]), msort(xs[len(xs) // 2 :])
        out: list = []
        i = j = 0
        while i < len(left) and j < len(right):
            if before(left[i], right[j]):
                out.append(left[i])
                i += 1
            else:
                out.append(right[j])
                j += 1
        return out + left[i:] + right[j:]

    return msort(items)


def ideal_gains(pl: Pool, table: dict[int, float], corrected: bool = False) -> np.ndarray:
    """Each query's ideal gains in rank order as trec_eval's DCG measures walk them
    (``m_ndcg.c``): the grades of :func:`gain_order` from the last, each as often
    as the qrels hold it, stopping at the first grade held whose gain is not
    positive (or at once when the top grade's gain is not). Padding is 0.
    """
    nq, top = pl.counts.shape
    used = pl.levels_used
    width = int(pl.counts.sum(axis=1).max()) if nq else 0
    out = np.zeros((nq, max(width, 1)))
    for n_levels in np.unique(used).tolist():
        rows = np.flatnonzero(used == n_levels)
        order = gain_order(table, n_levels, corrected)[::-1]
        if not order or order[0][1] <= 0:
            continue
        held = np.array([pl.counts[rows, g] if 0 <= g < top else np.zeros(len(rows), int)
                         for g, _ in order]).T  # fmt: skip
        gains = np.array([v for _, v in order])
        stop = (held > 0) & (gains <= 0)
        keep = np.cumsum(stop, axis=1) == 0
        reps = np.where(keep, held, 0)
        lengths = reps.sum(axis=1)
        seq = np.repeat(np.tile(gains, len(rows)), reps.ravel())
        starts = np.cumsum(lengths) - lengths
        col = np.arange(len(seq)) - np.repeat(starts, lengths)
        out[np.repeat(rows, lengths), col] = seq
    return out


def gain_lookup(top: int, table: dict[int, float]) -> np.ndarray:
    """The gain of each relevance value (``get_gain``), indexed by the value: the
    table's gain of a grade, its grade when unlisted (grades ``0..top-1``), 0 for
    unjudged documents and padding unless the table lists :data:`NONPOOL` or
    :data:`UNJUDGED`; :data:`PAD` always 0."""
    lookup = np.zeros(top + 3)  # grades 0..top-1, then NONPOOL, UNJUDGED at -1, -2; PAD -3
    lookup[:top] = np.arange(top)
    for g, v in table.items():
        if -2 <= g < top:
            lookup[g] = v
    lookup[PAD] = 0.0
    return lookup


def _discount_table(n: int) -> np.ndarray:
    """:math:`\\log_2(i + 2)` for ranks ``i = 0..n-1``, from the C library."""
    return _c_log2_ints(n + 1)[2 : n + 2]


def _dcg(g: np.ndarray) -> np.ndarray:
    """Running DCG, :math:`\\sum_{j \\le i} g_j / \\log_2(j + 2)`, left to right."""
    return np.cumsum(g / _discount_table(g.shape[1]), axis=1)


def _aligned(a: np.ndarray, width: int) -> np.ndarray:
    """``a`` padded with zeros (or cut) to ``width`` columns."""
    if a.shape[1] >= width:
        return a[:, :width]
    return np.pad(a, ((0, 0), (0, width - a.shape[1])))


class Curves(NamedTuple):
    """A pool's gains under one table and their running DCG, summed left to right.

    ``gains`` and ``dcg`` are at the places that can hold a gain (``pos``, from
    :func:`places`: DCG changes only there); ``ideal`` holds the ideal gains
    (:func:`ideal_gains`) and one rank of 0 more, ``idcg`` their running DCG, and
    ``head`` the running DCG of the ranking's first ranks, as many as ``ideal``'s.
    """

    pos: np.ndarray
    gains: np.ndarray
    dcg: np.ndarray
    ideal: np.ndarray
    idcg: np.ndarray
    head: np.ndarray

    def dcg_at(self, depth: np.ndarray) -> np.ndarray:
        """DCG of each query's top ``depth`` ranks."""
        return running_at(self.dcg, (self.pos < depth[:, None]).sum(axis=1))

    def idcg_at(self) -> np.ndarray:
        """IDCG at each of the ``pos`` ranks (past the ideal's end, its total)."""
        return np.take_along_axis(self.idcg, np.minimum(self.pos, self.idcg.shape[1] - 1), axis=1)


def curves(pl: Pool, pc: Places, lookup: np.ndarray, ideal: np.ndarray) -> Curves:
    """The :class:`Curves` of the ranking's places ``pc`` under the gains ``lookup``
    (:func:`gain_lookup`) and of the ``ideal`` gains."""
    width = ideal.shape[1] + 1
    gains = lookup[pc.grades]
    discount = _discount_table(max(width, pl.grades.shape[1] + 1))
    ideal = _aligned(ideal, width)
    head = _aligned(lookup[pl.grades[:, :width]], width)
    dcg = np.cumsum(gains / discount[pc.pos], axis=1)
    return Curves(pc.pos, gains, dcg, ideal, _dcg(ideal), _dcg(head))


def ndcg_rel(cv: Curves) -> np.ndarray:
    r"""nDCG averaged over relevant documents (``m_ndcg_rel.c``): with :math:`P`
    the ideal's positive gains, the mean over the :math:`P` of
    :math:`\mathrm{DCG}_i/\mathrm{IDCG}_i` at each retrieved document of positive
    gain, and :math:`\mathrm{DCG}_n/\mathrm{IDCG}` for each one not found."""
    n_pos = (cv.ideal > 0).sum(axis=1)
    hit = cv.gains > 0
    with np.errstate(invalid="ignore", divide="ignore"):
        total = np.cumsum(np.where(hit, cv.dcg / cv.idcg_at(), 0.0), axis=1)[:, -1]
        rest = (n_pos - hit.sum(axis=1)) * cv.dcg[:, -1] / cv.idcg[:, -1]
        total = total + rest
        value = total / n_pos
    return np.where(total > 0.0, value, 0.0)


def rndcg(pl: Pool, cv: Curves) -> np.ndarray:
    r"""nDCG averaged at the R levels (``m_Rndcg.c``): at each rank :math:`i` where
    the ideal gain changes, :math:`\mathrm{DCG}_{<i}/\mathrm{IDCG}_{<i}`, and once
    more at the end of the ranking when it outlasts the ideal by two or more
    documents; 0 when :math:`R = 0`, NaN (trec_eval's ``-nan``) when no point
    counts. The changes are within the ideal's ranks, where ``cv.head`` holds
    the ranking's DCG."""
    n = pl.n_ret
    ideal, idcg = cv.ideal, cv.idcg
    n_pos = (ideal > 0).sum(axis=1)
    place = np.arange(ideal.shape[1])
    # a change at rank i >= 1 (to the next gain, or past the last positive one)
    change = (place[None, :] >= 1) & (place[None, :] <= n_pos[:, None])
    change[:, 1:] &= ideal[:, 1:] != ideal[:, :-1]
    before = np.maximum(np.minimum(place[None, :], n[:, None]) - 1, -1)
    found = np.where(before >= 0, np.take_along_axis(cv.head, np.maximum(before, 0), axis=1), 0.0)
    best = np.concatenate([np.zeros((len(n), 1)), idcg[:, :-1]], axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        total = np.cumsum(np.where(change, found / best, 0.0), axis=1)[:, -1]
        end = (n >= n_pos + 2) & (n_pos > 0)
        total = total + np.where(end, cv.dcg_at(n) / idcg[:, -1], 0.0)
        value = total / (change.sum(axis=1) + end)
    return np.where(pl.n_rel == 0, 0.0, value)


def _cost_at(ideal: np.ndarray, pos: np.ndarray, width: int) -> np.ndarray:
    r"""G's running cost :math:`\sum_{j \le i} \max(g^*_j, 1)` over a ranking of
    ``width`` ranks (:math:`g^*` the ideal gains, 0 past them) at the ranks
    ``pos`` (clipped to the width). Past the ideal each rank adds 1: when the
    ideal's sum is a whole number, so is every later sum, and adding the ranks
    at once gives the same double as adding 1 rank by rank."""
    inside = min(ideal.shape[1], width)
    cost = np.cumsum(np.maximum(ideal[:, :inside], 1.0), axis=1)
    last = cost[:, -1]
    if inside < width and not np.all((last == np.floor(last)) & (last < 2.0**52)):
        inside = width  # a sum with a fraction: added rank by rank
        cost = np.cumsum(np.maximum(_aligned(ideal, width), 1.0), axis=1)
        last = cost[:, -1]
    at = np.minimum(pos, width - 1)
    head = np.take_along_axis(cost, np.minimum(at, inside - 1), axis=1)
    return np.where(at < inside, head, last[:, None] + (at - inside + 1))


def g_measure(pl: Pool, pc: Places, gains: np.ndarray, ideal: np.ndarray) -> np.ndarray:
    r"""G (``m_G.c``): :math:`\frac{1}{\sum_i g^*_i}\sum_i
    \frac{g_i}{\log_2(2 + \sum_{j \le i}\max(g^*_j, 1) - \sum_{j \le i} g_j)}`,
    :math:`g^*` the ideal gains (0 past them), over the retrieved documents;
    ``gains`` are those of the places ``pc`` (:func:`places`), the only ones
    that can hold a gain."""
    width = pl.grades.shape[1]
    total_ideal = np.cumsum(ideal, axis=1)[:, -1]
    if width == 0:
        return np.zeros(len(gains))
    cost = _cost_at(ideal, pc.pos, width)
    got = np.cumsum(gains, axis=1)
    term = np.where(gains != 0, gains / c_log2(2 + cost - got), 0.0)
    return _ratio(np.cumsum(term, axis=1)[:, -1], np.where(total_ideal > 0, total_ideal, 0))


def rbp(pl: Pool, table: dict[int, float], pc: Places, p: float = 0.9) -> np.ndarray:
    r"""Rank-biased precision (Moffat and Zobel 2008; ``m_rbp.c``):
    :math:`(1-p)\sum_i g_i p^{i-1}`, each query's gains rescaled to
    :math:`(g - \min g)/(\max g - \min g)` over its grades when they leave [0, 1]
    (trec_eval reads ``min`` and ``max`` uninitialised; here they start at the
    gains themselves); summed over the places ``pc`` (:func:`places`), the only
    ones that can hold a gain."""
    nq, top = pl.counts.shape
    grades = pc.grades
    gains = gain_lookup(top, table)[grades]
    marks = [k for k in table if k < 0]
    used = pl.levels_used
    for n_levels in np.unique(used).tolist():
        listed = [float(v) for v in table.values()]
        listed += [float(i) for i in range(n_levels) if i not in table]
        if not listed:
            continue
        lo, hi = min(listed), max(listed)
        if lo < 0 or hi > 1:
            rows = used == n_levels
            g, mark = gains[rows], grades[rows]
            listed_mark = np.isin(mark, marks) & (mark != PAD)
            scaled = (g - lo) / (hi - lo)
            gains[rows] = np.where((mark >= 0) | listed_mark, scaled, g)
    weight = _powers(p, pl.grades.shape[1] + 1)
    total = np.cumsum(np.where(gains != 0, gains * weight[pc.pos], 0.0), axis=1)
    return (1.0 - p) * total[:, -1]


def relstring(pl: Pool, n: int = 10) -> np.ndarray:
    """The first ``n`` relevance values as text (``m_relstring.c``): a grade 0-9
    as its digit, ``>`` above 9, ``-`` not in the qrels, ``.`` in the pool but
    unjudged."""
    g = pl.grades[:, : max(int(n), 0)]
    char = np.where(g > 9, ord(">"), np.where(g >= 0, ord("0") + np.clip(g, 0, 9), ord("<")))
    char = np.where(g == NONPOOL, ord("-"), np.where(g == UNJUDGED, ord("."), char))
    char = np.where(g == PAD, 0, char).astype(np.uint8)
    return np.array([row.tobytes().rstrip(b"\0").decode() for row in char], dtype=object)


# ------------------------------------------------------------------ dispatch

STAND_IN_ZERO = ("utility", "relstring", "rbp_resid")
"""Output names that trec_eval -c resets for a query missing from the run (with
every ``unj`` cutoff): ``trec_eval.c`` compares the full name, so the same
measures with parameters keep the stand-in ranking's value."""


def _table(m) -> dict[int, float]:
    return {} if not isinstance(m.gain, dict) else {int(g): float(v) for g, v in m.gain.items()}


class Shared:
    """What several kernels of one pool use, each computed once when first asked
    for: the counts, the binary ranking's running sums (:class:`Steps`), the
    places that can hold a gain (:func:`places`), the gains and the curves."""

    def __init__(self, pl: Pool) -> None:
        self.pl = pl
        self._places: dict[bool, Places] = {}
        self._gains: dict[tuple, np.ndarray] = {}
        self._ideal: dict[tuple, np.ndarray] = {}
        self._curves: dict[tuple, Curves] = {}

    def places(self, m=None) -> Places:
        """The pool's places, and those of documents not in the qrels when ``m``'s
        table lists :data:`NONPOOL`."""
        nonpool = m is not None and NONPOOL in _table(m)
        if nonpool not in self._places:
            self._places[nonpool] = places(self.pl, nonpool)
        return self._places[nonpool]

    def gains(self, m) -> np.ndarray:
        """The gains under ``m``'s table (:func:`gain_lookup`) at its places."""
        table = _table(m)
        key = tuple(table.items())
        if key not in self._gains:
            lookup = gain_lookup(self.pl.counts.shape[1], table)
            self._gains[key] = lookup[self.places(m).grades]
        return self._gains[key]

    def curves(self, m, corrected: bool) -> Curves:
        """The :class:`Curves` under ``m``'s table."""
        table = _table(m)
        key = (*table.items(), corrected)
        if key not in self._curves:
            lookup = gain_lookup(self.pl.counts.shape[1], table)
            ideal = self.ideal(m, corrected)
            self._curves[key] = curves(self.pl, self.places(m), lookup, ideal)
        return self._curves[key]

    def ideal(self, m, corrected: bool) -> np.ndarray:
        """The ideal's gains under ``m``'s table (:func:`ideal_gains`)."""
        table = _table(m)
        key = (*table.items(), corrected)
        if key not in self._ideal:
            self._ideal[key] = ideal_gains(self.pl, table, corrected)
        return self._ideal[key]

    @cached_property
    def counts(self) -> Counts:
        return counts(self.pl)

    @cached_property
    def steps(self) -> Steps:
        pl = self.pl
        return Steps(Ranking(pl.rel, pl.grades >= 0, pl.n_ret, pl.n_rel, pl.n_rel))


TREC_KERNELS: dict[str, Callable[[Pool, Shared, object, bool], np.ndarray]] = {
    "set_P": lambda pl, s, m, fix: set_p(s.counts),
    "set_relative_P": lambda pl, s, m, fix: set_relative_p(s.counts),
    "set_recall": lambda pl, s, m, fix: set_recall(s.counts),
    "set_map": lambda pl, s, m, fix: set_map(s.counts),
    "set_F": lambda pl, s, m, fix: set_f(s.counts, *(m.args or (1.0,))[:1]),
    "utility": lambda pl, s, m, fix: utility(s.counts, m.args or (1.0, -1.0, 0.0, 0.0)),
    "num_nonrel_judged_ret": lambda pl, s, m, fix: nonrel_judged_ret(s.counts),
    "relative_P": lambda pl, s, m, fix: relative_p(pl, m.k, s.steps),
    "unj": lambda pl, s, m, fix: unjudged_at(pl, m.k, s.places()),
    "Rprec_mult": lambda pl, s, m, fix: rprec_mult(pl, m.param, s.steps),
    "11pt_avg": lambda pl, s, m, fix: eleven_point(pl, m.args or DEFAULT_IPREC, s.steps, fix),
    "infAP": lambda pl, s, m, fix: infap(pl, s.places()),
    "binG": lambda pl, s, m, fix: bin_g(pl, s.places()),
    "G": lambda pl, s, m, fix: g_measure(pl, s.places(m), s.gains(m), s.ideal(m, fix)),
    "ndcg_rel": lambda pl, s, m, fix: ndcg_rel(s.curves(m, fix)),
    "Rndcg": lambda pl, s, m, fix: rndcg(pl, s.curves(m, fix)),
    "rbp": lambda pl, s, m, fix: rbp(
        pl, _table(m), s.places(m), 0.9 if m.param is None else m.param
    ),
    "rbp_resid": lambda pl, s, m, fix: rbp_resid(pl, 0.9 if m.param is None else m.param),
    "relstring": lambda pl, s, m, fix: relstring(pl, int((m.args or (10,))[0])),
}
"""The kernel of each family: (pool, its shared sums, measure, corrected) to values."""


def trec_values(
    specs: Sequence,
    p,
    index: np.ndarray,
    level: float,
    corrected: bool = True,
    cores: Executor | None = None,
) -> dict[str, np.ndarray]:
    """Every measure of ``specs`` computed here, for prepared queries ``p`` whose
    grade levels in rank order are ``index`` (see :func:`pool`). The kernels work a
    block of queries at a time (:func:`dcglab.evaluation.batch.blocks.row_blocks`,
    :data:`TREC_BLOCK`), so that their temporaries stay small, the blocks shared
    among the threads of ``cores`` (``None``: two threads; numpy releases the
    GIL); every kernel treats each query alone, so the values do not depend on
    which block ends first."""
    levels = {float(level if m.rel is None else m.rel) for m in specs}

    def block_values(block: slice) -> list[np.ndarray]:
        shared = {at: Shared(pool(p, index, at, block)) for at in levels}
        out = []
        for m in specs:
            s = shared[float(level if m.rel is None else m.rel)]
            value = TREC_KERNELS[m.family](s.pl, s, m, corrected)
            if m.name in STAND_IN_ZERO or m.family == "unj":
                value = np.where(s.pl.stand_in, "" if m.family == "relstring" else 0.0, value)
            out.append(value)
        return out

    if not specs:
        return {}
    if cores is None:
        with ThreadPoolExecutor(2) as own:
            parts = list(own.map(block_values, row_blocks(index.shape, TREC_BLOCK)))
    else:
        parts = list(cores.map(block_values, row_blocks(index.shape, TREC_BLOCK)))
    return {m.name: np.concatenate([part[i] for part in parts]) for i, m in enumerate(specs)}
