r"""Evaluate every query of a run in one vectorised pass.

The run becomes a padded matrix (queries × retrieved documents) of uint64 sort
keys packing each document's position in (score, docno) order
(:func:`dcglab.codes.row_ranks`) and its grade level, so one row sort gives
trec_eval's order (score, then docno, descending) with the levels riding
along; gains and relevance are looked up from the levels, DCG at every cutoff
is a prefix sum, and the ideal comes from the qrels' gains.

Conventions, all explicit (see :func:`evaluate`); the names are those of the
single-query API (:func:`dcglab.ndcg`) and of the command line:

=====================  =============================================  ======================
convention             options                                        used by
=====================  =============================================  ======================
``ideal``              ``"judged"`` ideal from the qrels, cut at k     trec_eval ``ndcg_cut``,
                       (alias ``"qrels-cut"``)                        ranx, ir_measures
                       ``"judged-uncut"`` ideal from the qrels,        trec_eval ``ndcg``
                       never cut (alias ``"qrels"``)                  (no k)
                       ``"retrieved"`` ideal from the run's items      scikit-learn,
                                                                      torchmetrics
``ties``               ``"trec"`` score desc, then docno desc          trec_eval, ir_measures
                       ``"average"`` gains averaged over tied scores   scikit-learn
``score_precision``    ``"double"``: scores compared as read           trec_eval 10.0
                       ``"float32"``: rounded to float32 first, so     trec_eval 9.x,
                       scores closer than that tie                    pytrec_eval, ir_measures
``zero_idcg``          ``"error"``, ``"zero"``, ``"one"``, ``"skip"``  trec_eval scores 0
``missing``            ``"ignore"``, ``"zero"`` or ``"error"`` for     trec_eval ``-c`` is
                       qrels queries absent from the run              ``"zero"``, else
                                                                      ``"error"``
``fractional_grades``  ``"keep"`` or ``"truncate"`` toward zero      trec_eval truncates
                                                                      (C's ``atol``)
``negative_grades``    ``"gain"``: through the gain like any grade;    trec_eval is
                       ``"unjudged"``: gain 0, never relevant, not    ``"unjudged"``
                       judged for ``judged_only``
=====================  =============================================  ======================

Where the order of a sum changes its last bit, and so possibly the fourth
printed decimal, the sums follow trec_eval: DCG adds ``gain / log2(i + 1)``
rank by rank (:func:`numpy.cumsum` is sequential), and the mean over queries
adds the values in query order (:meth:`dcglab.result.BatchResult.means`).
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import polars as pl

from .binary import FAMILIES as BINARY
from .binary import binary_values
from .codes import (
    Grouping,
    exact_match,
    lexicographic_codes,
    match_rows,
    may_repeat,
    pair_keys,
    row_ranks,
    sortable_bits,
    top_in_trec_order,
)
from .discounts import Discount, DiscountSpec
from .gains import GainError, GainSpec, gain_values
from .measure_names import Measure, measure_specs, parse_measures, trec_order
from .measures import ZERO_POLICIES, ZeroPolicy, clamp_k, ndcg_ratio
from .options import (
    FRACTIONAL_GRADES,
    IDEALS,
    MISSING,
    NEGATIVE_GRADES,
    SCORE_PRECISIONS,
    TIES,
    BatchIdeal,
    FractionalGrades,
    Missing,
    NegativeGrades,
    ScorePrecision,
    Ties,
    check_option,
    ideal_name,
)
from .result import BatchResult
from .trec import Source, Table, locate, qrels_table, raise_on_repeat, run_table

__all__ = [
    "FRACTIONAL_GRADES",
    "IDEALS",
    "MISSING",
    "SCORE_PRECISIONS",
    "TIES",
    "BatchIdeal",
    "BatchResult",
    "Measure",
    "Prepared",
    "NEGATIVE_GRADES",
    "ScorePrecision",
    "Ties",
    "check_conventions",
    "check_option",
    "compute",
    "evaluate",
    "ideal_name",
    "level_gains",
    "measure_specs",
    "parse_measures",
    "prepare",
    "sortable_bits",
    "trec_order",
]


def _average_ties(gains: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """Replace each gain by the mean gain of its group of equal scores (scikit-learn).

    Every position of a tied group gets the group's mean gain, so the group's
    contribution is its mean gain times the sum of its discounts.
    """
    new = np.ones(keys.shape, dtype=bool)
    new[:, 1:] = keys[:, 1:] != keys[:, :-1]
    group = np.cumsum(new.ravel()) - 1
    mean = np.bincount(group, gains.ravel()) / np.bincount(group)
    return mean[group].reshape(gains.shape)


@dataclass(frozen=True)
class Prepared:
    """A run and its qrels as padded arrays, ready for :func:`compute`.

    ``scores``, ``docs`` and ``gains`` are ``queries × retrieved`` matrices
    (padding: NaN score, doc code -1, gain 0); ``judged_gains`` holds each
    query's qrels gains sorted in decreasing order (padding 0). ``scores`` are
    rounded to float32 (and held as float64) under ``score_precision="float32"``.
    ``docs`` holds each document's position (0 to ``n_docs - 1``) in its row
    sorted by (score, docno bytes), ascending (:func:`dcglab.codes.row_ranks`):
    reversed, trec_eval's ranking.

    The grades behind the gains: ``levels`` are the distinct qrels grades,
    ascending; ``level_index`` (a matrix like ``scores``) and ``judged_index``
    (a matrix like ``judged_gains``, unsorted) point into them, with
    ``len(levels)`` for an unjudged document or padding. ``level_gains`` are the
    gains of the levels under ``gain`` (and 0 at the end), ``level_rows`` the
    first qrels row of each level (for error messages).
    """

    qids: np.ndarray
    scores: np.ndarray
    docs: np.ndarray
    judged_gains: np.ndarray
    levels: np.ndarray
    level_index: np.ndarray
    judged_index: np.ndarray
    level_gains: np.ndarray
    level_rows: np.ndarray
    n_docs: int
    gain: GainSpec
    negative_grades: str
    qrels_origin: str

    @property
    def gains(self) -> np.ndarray:
        """The gain of each retrieved document (a matrix like ``scores``)."""
        return self.level_gains[self.level_index]

    @property
    def unjudged(self) -> int:
        """The level index of an unjudged document (and of padding)."""
        return len(self.levels)


def level_gains(
    levels: np.ndarray,
    gain: GainSpec,
    negative_grades: str,
) -> np.ndarray:
    """Gain of each grade level, then 0 for unjudged documents (one more entry).

    A partial table (trec_eval's ``ndcg.1=3,2=9``) is completed with each
    unlisted grade as its own gain before :func:`dcglab.gains.gain_values` maps
    the grades. With ``negative_grades="unjudged"`` a negative grade has gain 0.
    Raises ``ValueError`` naming the gain and the grade when a gain is not a
    finite number.
    """
    out = np.zeros(len(levels) + 1)
    use = levels >= 0 if negative_grades == "unjudged" else np.ones(len(levels), dtype=bool)
    if not use.any():
        return out
    grades = levels[use]
    try:
        with np.errstate(over="ignore", invalid="ignore"):  # overflow is reported below
            out[: len(levels)][use] = gain_values(grades, gain)
    except GainError:
        raise  # it names the gain and the grade already
    except (ValueError, TypeError, OverflowError) as exc:
        hint = (
            "; negative_grades='unjudged' reads negative grades as trec_eval does "
            "(in the pool, unjudged: gain 0)"
            if (grades < 0).any()
            else ""
        )
        raise ValueError(f"gain={gain!r}: {exc} (qrels grades {grades.tolist()}){hint}") from None
    bad = np.flatnonzero(~np.isfinite(out))
    if len(bad):
        i = int(bad[0])
        raise ValueError(
            f"gain={gain!r}: grade {levels[i]:g} has gain {out[i]}, not a finite number"
        )
    return out


def _complete(
    gain: Mapping[float, float], levels: np.ndarray, negative_grades: str
) -> dict[float, float]:
    """trec_eval's partial gain table: an unlisted grade is its own gain (negative
    grades too, unless they count as unjudged)."""
    keep = levels >= 0 if negative_grades == "unjudged" else np.ones(len(levels), dtype=bool)
    table = {float(g): float(g) for g in levels[keep]}
    table.update({float(k): float(v) for k, v in gain.items()})
    return table


def prepare(
    qrels: Source,
    run: Source,
    *,
    gain: GainSpec = "linear",
    missing: Missing = "ignore",
    negative_grades: NegativeGrades = "gain",
    max_docs: int | None = None,
    judged_only: bool = False,
    score_precision: ScorePrecision = "double",
    fractional_grades: FractionalGrades = "keep",
) -> Prepared:
    """Read, map ids to integers, look up grades and gains, and pad: all the string work.

    Queries evaluated: those of the run that have qrels, as trec_eval does, or with
    ``missing="zero"`` every query of the qrels (trec_eval ``-c``); run queries
    without qrels are ignored. ``max_docs`` keeps each query's top documents in
    trec_eval's order (``-M``); ``judged_only`` then drops unjudged documents, so
    the judged ones move up (``-J``, the condensed list). Raises ``ValueError`` on
    a duplicate (qid, docno), naming the file and line.
    """
    check_option("missing", missing, MISSING)
    check_option("fractional_grades", fractional_grades, FRACTIONAL_GRADES)
    check_option("negative_grades", negative_grades, NEGATIVE_GRADES)
    check_option("score_precision", score_precision, SCORE_PRECISIONS)
    if max_docs is not None and (
        isinstance(max_docs, bool) or int(max_docs) != max_docs or max_docs < 1
    ):
        raise ValueError(f"max_docs must be an integer >= 1, got {max_docs!r}")
    with ThreadPoolExecutor(1) as other_core:  # the qrels read while the run's checks run
        pending = other_core.submit(qrels_table, qrels)
        try:
            r = run_table(run)
        finally:
            q = pending.result()  # a qrels error first, as when read one after the other
    if score_precision == "float32":
        r = dataclasses.replace(r, value=r.value.astype(np.float32).astype(np.float64))
    if fractional_grades == "truncate":
        q = dataclasses.replace(q, value=np.trunc(q.value) + 0.0)  # + 0.0: -0.5 gives 0, not -0
    return _prepare(q, r, gain, missing, negative_grades, max_docs, judged_only)


def _prepare(
    q: Table,
    r: Table,
    gain: GainSpec,
    missing: str,
    negative_grades: str,
    max_docs: int | None,
    judged_only: bool,
) -> Prepared:
    nq_rows = len(q)
    qid_codes = lexicographic_codes(pl.concat([q.qid, r.qid], rechunk=False))
    q_q, r_q = qid_codes[:nq_rows], qid_codes[nq_rows:]
    if may_repeat(pair_keys(q_q, q.docno)):
        raise_on_repeat(q, q_q, q.docno, None, "qrels")
    n_codes = int(qid_codes.max()) + 1
    in_qrels = np.bincount(q_q, minlength=n_codes) > 0
    in_run = np.bincount(r_q, minlength=n_codes) > 0
    if missing == "error" and (in_qrels & ~in_run).any():
        _refuse_missing(q, q_q, np.flatnonzero(in_qrels & ~in_run)[0], r.origin)
    keep = in_qrels & (in_run if missing == "ignore" else True)
    if not keep.any():
        raise ValueError(f"no query is in both the qrels ({q.origin}) and the run ({r.origin})")
    new_code = np.cumsum(keep) - 1
    first = np.full(n_codes, -1)
    first[qid_codes[::-1]] = np.arange(len(qid_codes) - 1, -1, -1)
    at = first[keep]
    qids = np.array(pl.concat([q.qid, r.qid], rechunk=False).gather(at).to_list(), dtype=object)
    nq = len(qids)
    q_sel, r_sel = keep[q_q], keep[r_q]
    q_q, q_grade = new_code[q_q[q_sel]], q.value[q_sel]
    q_docno = q.docno if q_sel.all() else q.docno.filter(pl.Series(q_sel))
    r_rows = np.flatnonzero(r_sel) if not r_sel.all() else None
    r_docno = r.docno if r_rows is None else r.docno.gather(r_rows)
    if r_rows is not None:
        r_q = r_q[r_rows]
    # every query kept: the codes stay as they are
    r_q = new_code[r_q] if not keep.all() else r_q.astype(np.int64, copy=False)
    r_scores = r.value if r_rows is None else r.value[r_rows]

    levels, level_rows, q_level = np.unique(q_grade, return_index=True, return_inverse=True)
    q_rows_kept = np.flatnonzero(q_sel)
    unjudged = len(levels)
    r_level = np.full(len(r_q), unjudged, dtype=np.min_scalar_type(unjudged))
    run_rows, judged_rows = Grouping(r_q, nq), Grouping(q_q, nq)
    r_index = run_rows.pad(np.arange(len(r_q), dtype=np.int64), -1)
    scores = run_rows.pad(r_scores, np.nan)
    with ThreadPoolExecutor(1) as other_core:  # numpy and polars release the GIL
        ranks = other_core.submit(row_ranks, scores, r_index, r_docno)
        found = match_rows(q_docno, judged_rows, r_docno, run_rows, r_index)
        if found is None:  # equal hashes: a repeated docno (an error) or a collision
            raise_on_repeat(r, r_q, r_docno, r_rows, "run")
            found = exact_match(q_q, q_docno, r_q, r_docno)
        docs = ranks.result()
    r_level[found >= 0] = q_level[found[found >= 0]]
    index = run_rows.pad(r_level, unjudged)
    if max_docs is not None and scores.shape[1] > max_docs:
        scores, docs, index = top_in_trec_order(scores, docs, index, max_docs)
    if judged_only:
        drop = index == unjudged
        if negative_grades == "unjudged":
            drop |= np.append(levels < 0, False)[index]
        scores = np.where(drop, np.nan, scores)
        docs = np.where(drop, -1, docs)
        index = np.where(drop, unjudged, index)
    judged_index = judged_rows.pad(q_level.astype(np.int64), unjudged)
    try:
        table = level_gains(levels, gain, negative_grades)
    except ValueError as exc:
        raise ValueError(_with_line(str(exc), levels, level_rows, q_rows_kept, q.origin)) from None
    judged_gains = -np.sort(-table[judged_index], axis=1)
    return Prepared(
        qids=qids,
        scores=scores,
        docs=docs,
        judged_gains=judged_gains,
        levels=levels,
        level_index=index.astype(np.min_scalar_type(unjudged)),
        judged_index=judged_index,
        level_gains=table,
        level_rows=q_rows_kept[level_rows],
        n_docs=max(int(docs.max(initial=0)) + 1, 1),
        gain=gain,
        negative_grades=negative_grades,
        qrels_origin=q.origin,
    )


def _refuse_missing(q: Table, q_q: np.ndarray, code: int, run_origin: str) -> None:
    """Raise on the first qrels query (in byte order) that has no run line."""
    row = int(np.flatnonzero(q_q == code)[0])
    raise ValueError(
        f"query {q.qid[row]} of the qrels ({q.origin}) has no line in the run ({run_origin}), "
        "which trec_eval refuses; -c (missing='zero') scores it 0, "
        "missing='ignore' leaves it out"
    )


def _with_line(message: str, levels, level_rows, rows_kept, origin: str) -> str:
    """Add the qrels line of the grade a gain error names."""
    m = re.search(r"grade (-?[\d.e+]+)", message)
    if m:
        hit = np.flatnonzero(levels == float(m[1]))
        if len(hit):
            return f"{locate(origin, int(rows_kept[level_rows[hit[0]]]))}: {message}"
    return f"{origin}: {message}"


def _packed_keys(p: Prepared) -> tuple[np.ndarray, int] | None:
    """One uint64 per document whose ascending order is trec_eval's ranking order.

    Bits, high to low: the document's position (:func:`dcglab.codes.row_ranks`:
    score, then docno), inverted, so descending; the index of its grade level.
    The position decides the order, and the level rides along, so sorting the keys
    alone yields the levels in rank order. Returns ``None`` when they do not fit
    in 63 bits. Padding is the largest key.
    """
    lbits = int(p.unjudged).bit_length()
    dbits = max(int(p.n_docs - 1).bit_length(), 1)
    if lbits + dbits > 63:
        return None
    doc = np.uint64(p.n_docs - 1) - p.docs.clip(min=0).astype(np.uint64)
    key = (doc << np.uint64(lbits)) | p.level_index.astype(np.uint64)
    key[p.docs < 0] = np.iinfo(np.uint64).max
    return key, lbits


def _ranked_levels(p: Prepared, ties: Ties, depth: int | None) -> tuple[np.ndarray, np.ndarray]:
    """Grade-level indices in rank order (the first ``depth`` ranks, or all) and
    the sort keys in the same order (tied scores have equal keys under
    ``ties="average"``). Padding and unjudged documents have index ``p.unjudged``."""
    packed = _packed_keys(p) if ties == "trec" else None
    width = p.scores.shape[1]
    if packed is not None:
        key, lbits = packed
        if depth is not None and depth < width:
            key = np.partition(key, depth - 1, axis=1)[:, :depth]
        key.sort(axis=1)
        index = (key & np.uint64((1 << lbits) - 1)).astype(np.min_scalar_type(p.unjudged))
        index[key == np.iinfo(np.uint64).max] = p.unjudged
        return index, key
    if ties == "trec":  # too wide to pack: sort indices by the positions instead
        key = np.where(p.docs < 0, np.iinfo(np.int64).max, -p.docs.astype(np.int64))
    else:
        key = np.where(np.isnan(p.scores), np.inf, -p.scores)
    if depth is not None and depth < width:
        top = np.argpartition(key, depth - 1, axis=1)[:, :depth]
        order = np.argsort(np.take_along_axis(key, top, axis=1), axis=1, kind="stable")
        rank = np.take_along_axis(top, order, axis=1)
    else:
        rank = np.argsort(key, axis=1, kind="stable")
    index = np.take_along_axis(p.level_index.astype(np.intp), rank, axis=1)
    return index, np.take_along_axis(key, rank, axis=1)


def check_conventions(
    measures: Sequence[str],
    discount: DiscountSpec,
    ideal: BatchIdeal,
    ties: Ties,
    zero_idcg: ZeroPolicy,
) -> tuple[list[Measure], Discount, str]:
    """Validate the conventions (before any data is read); parse measures, discount
    and the ideal's name."""
    name = ideal_name(ideal) if isinstance(ideal, str) else ideal_name(repr(ideal))
    check_option("ties", ties, TIES)
    check_option("zero_idcg", zero_idcg, ZERO_POLICIES)
    specs = measure_specs(measures)
    if ties == "average" and any(m.family in BINARY for m in specs):
        raise ValueError("ties='average' applies to DCG measures only; use ties='trec'")
    try:
        disc = Discount.parse(discount)
    except (ValueError, TypeError) as exc:
        raise ValueError(f"discount={discount!r}: {exc}") from None
    return specs, disc, name


def compute(
    p: Prepared,
    measures: Sequence[str] = ("ndcg_cut.10",),
    *,
    discount: DiscountSpec = "log2",
    ideal: BatchIdeal = "judged",
    ties: Ties = "trec",
    zero_idcg: ZeroPolicy = "error",
    relevance_level: float = 1,
) -> BatchResult:
    """The measures for every prepared query: the purely numerical part of :func:`evaluate`."""
    specs, disc, ideal = check_conventions(measures, discount, ideal, ties, zero_idcg)
    rl = _check_level(relevance_level)
    cuts = [m.k for m in specs]
    # Only the top max(k) ranks matter unless a measure has no cutoff or ties are
    # averaged (a tied group may straddle the cutoff).
    depth = None if None in cuts or ties == "average" else max(cuts)
    index, keys = _ranked_levels(p, ties, depth)
    width = index.shape[1]
    out: dict[str, np.ndarray] = {}
    curves: dict[int, tuple[np.ndarray, np.ndarray]] = {}
    binary = binary_values([m for m in specs if m.family in BINARY], p, index, rl)
    for m in specs:
        if m.name in binary:
            out[m.name] = binary[m.name]
            continue
        table = p.level_gains if m.gain is None else _measure_gains(p, m)
        if id(table) not in curves:
            curves[id(table)] = _dcg_curves(p, table, index, keys, disc, ideal, ties)
        dcg, best = curves[id(table)]
        d = dcg[:, clamp_k(m.k, width) - 1] if m.k else dcg[:, -1]
        if m.family.startswith("dcg"):
            out[m.name] = d
            continue
        cut = m.k is not None and ideal != "judged-uncut"
        i = best[:, clamp_k(m.k, best.shape[1]) - 1] if cut else best[:, -1]
        out[m.name] = ndcg_ratio(d, i, zero_idcg, queries=p.qids, measure=m.name)
    for name, v in out.items():
        bad = ~np.isfinite(v) & ~(np.isnan(v) & (zero_idcg == "skip"))
        if bad.any():
            raise ValueError(
                f"{name}: query {p.qids[np.flatnonzero(bad)[0]]} gives {v[bad][0]}, "
                "not a finite number (gains too large?)"
            )
    return BatchResult(p.qids, out)


def _check_level(level: float) -> float:
    try:
        value = float(level)
    except (TypeError, ValueError):
        value = float("nan")
    if isinstance(level, bool) or not np.isfinite(value):
        raise ValueError(f"relevance_level must be a finite number, got {level!r}")
    return value


def _measure_gains(p: Prepared, m: Measure) -> np.ndarray:
    table = m.gain if isinstance(m.gain, str) else _complete(m.gain, p.levels, p.negative_grades)
    try:
        return level_gains(p.levels, table, p.negative_grades)
    except ValueError as exc:
        raise ValueError(f"measure {m.name!r}: {exc}") from None


def _dcg_curves(p, table, index, keys, disc, ideal, ties) -> tuple[np.ndarray, np.ndarray]:
    """DCG and IDCG at every cutoff, for one gain table."""
    g = table[index]
    if ties == "average":
        g = _average_ties(g, keys)
    with np.errstate(over="ignore", invalid="ignore"):  # compute() reports non-finite sums
        dcg = np.cumsum(_discounted(g, disc), axis=1, out=g)
    if ideal == "retrieved":
        source = -np.sort(-table[p.level_index.astype(np.intp)], axis=1)
    elif table is p.level_gains:
        source = p.judged_gains
    else:
        source = -np.sort(-table[p.judged_index], axis=1)
    source = np.maximum(source, 0.0)  # the best ranking leaves negative gains out
    with np.errstate(over="ignore", invalid="ignore"):
        best = np.cumsum(_discounted(source, disc), axis=1)
    return dcg, best


TREC_DISCOUNT = Discount("log", 2.0)


@lru_cache(maxsize=8)
def _log2_ranks(n: int) -> np.ndarray:
    r""":math:`\log_2(i + 1)` for ranks :math:`i = 1..n`, from the C library's ``log2``
    (as trec_eval computes them; numpy's vectorised ``log2`` may differ in the last bit)."""
    out = np.array([math.log2(float(i)) for i in range(2, n + 2)])
    out.flags.writeable = False
    return out


def _discounted(g: np.ndarray, disc: Discount) -> np.ndarray:
    r"""Gains (a matrix in rank order) times their rank's discount, in place.

    Under the log2 discount each gain is divided by :math:`\log_2(i + 1)`, as
    trec_eval does: multiplying by the weight :math:`1/\log_2(i + 1)` can
    differ in the last bit, which can move the fourth printed decimal.
    """
    if disc == TREC_DISCOUNT:
        g /= _log2_ranks(g.shape[1])
    else:
        g *= disc.weights(g.shape[1])
    return g


def evaluate(
    qrels: Source,
    run: Source,
    measures: Sequence[str] = ("ndcg_cut.10",),
    *,
    gain: GainSpec = "linear",
    discount: DiscountSpec = "log2",
    ideal: BatchIdeal = "judged",
    ties: Ties = "trec",
    zero_idcg: ZeroPolicy = "error",
    missing: Missing = "ignore",
    negative_grades: NegativeGrades = "gain",
    relevance_level: float = 1,
    max_docs: int | None = None,
    judged_only: bool = False,
    score_precision: ScorePrecision = "double",
    fractional_grades: FractionalGrades = "keep",
) -> BatchResult:
    r"""nDCG (and trec_eval's binary measures) of every query of a run, for several cutoffs at once.

    .. math:: \mathrm{nDCG}@k_q = \frac{\sum_{i \le k} g(rel_{q,i})\,w_i}{\mathrm{IDCG}@k_q}

    Parameters
    ----------
    qrels, run : path or DataFrame
        See :func:`dcglab.trec.read_qrels` and :func:`dcglab.trec.read_run`.
    measures : sequence of str
        ``ndcg``, ``ndcg_cut.K`` (``K`` may be a comma list), ``nDCG@K``, ``dcg``,
        ``dcg_cut.K``, ``ndcg.G=V,...`` (trec_eval's gain table for this measure:
        unlisted grades keep their grade as gain), and trec_eval's binary
        measures ``map``, ``recip_rank``, ``P.K`` and ``recall.K``.
    gain, discount
        As in :func:`dcglab.measures.dcg`; unjudged documents have gain 0.
    ideal : {"judged", "judged-uncut", "retrieved"}
        Where IDCG comes from (module table); ``"qrels-cut"`` and ``"qrels"`` are
        accepted aliases of the first two.
    ties : {"trec", "average"}
        Tie rule (module table).
    zero_idcg : {"error", "zero", "one", "skip"}
        Policy for queries whose IDCG is 0; ``"skip"`` leaves NaN, which drops
        the query from the mean.
    missing : {"ignore", "zero", "error"}
        Whether queries in the qrels but not in the run are left out, scored
        with an empty ranking (trec_eval ``-c``), or refused with a
        ``ValueError`` naming the first one (trec_eval without ``-c``).
    negative_grades : {"gain", "unjudged"}
        ``"gain"``: a negative grade goes through ``gain`` like any other (a
        table may give it a gain; linear and exponential gains reject it).
        ``"unjudged"``: trec_eval's reading, gain 0 and never relevant.
    relevance_level : float, default 1
        The grade from which a document counts as relevant for the binary
        measures (trec_eval ``-l``); nDCG ignores it.
    max_docs : int, optional
        Keep only each query's top ``max_docs`` documents (trec_eval ``-M``).
    judged_only : bool, default False
        Drop unjudged documents before ranking (trec_eval ``-J``).
    fractional_grades : {"keep", "truncate"}
        ``"truncate"`` reads grades as trec_eval does, truncated toward zero
        (2.5 is 2, -0.5 is 0, -1.5 is -1); ``"keep"`` uses them as they are.
    score_precision : {"double", "float32"}
        ``"double"`` compares scores as read, as trec_eval 10.0 does;
        ``"float32"`` rounds them to float32 first, as trec_eval 9.x,
        pytrec_eval and ir_measures do, so scores closer than that tie and are
        ordered by docno.

    Returns
    -------
    BatchResult
        ``per_query`` has one row per evaluated query, sorted by qid.
    """
    check_conventions(measures, discount, ideal, ties, zero_idcg)  # fail before reading
    _check_level(relevance_level)
    prepared = prepare(
        qrels,
        run,
        gain=gain,
        missing=missing,
        negative_grades=negative_grades,
        max_docs=max_docs,
        judged_only=judged_only,
        score_precision=score_precision,
        fractional_grades=fractional_grades,
    )
    return compute(
        prepared,
        measures,
        discount=discount,
        ideal=ideal,
        ties=ties,
        zero_idcg=zero_idcg,
        relevance_level=relevance_level,
    )
