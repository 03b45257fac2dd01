r"""Evaluate every query of a run in one vectorised pass.

The run is turned into a padded matrix (queries × retrieved documents) of sort
keys; each key packs a document's float32 score and its docno rank into one
uint64, so one row sort orders a query by score descending, then docno
descending (trec_eval's rule), with no separate tie handling. Gains are read
from the qrels with one ``searchsorted``; DCG at every cutoff is a prefix sum of
gains times discount weights, and the ideal comes from the qrels' gains sorted
per query.

Conventions, all explicit (see :func:`evaluate`):

=============  ==========================================  ===========================
convention     options                                      used by
=============  ==========================================  ===========================
``ideal``      ``"qrels-cut"`` ideal from qrels, cut at k   trec_eval ``ndcg_cut``, ranx,
                                                           ir_measures
               ``"qrels"`` ideal from qrels, never cut       trec_eval ``ndcg`` (no k)
               ``"retrieved"`` ideal from the run's items   scikit-learn, torchmetrics
``ties``       ``"trec"`` score desc, then docno desc       trec_eval, ir_measures
               (float32 scores)
               ``"average"`` gains averaged over tied        scikit-learn
               scores
``zero_idcg``  ``"error"``, ``"zero"``, ``"one"``, ``"skip"`` trec_eval scores 0
``missing``    ``"ignore"`` or ``"zero"`` for qrels queries   trec_eval ``-c`` is ``"zero"``
               absent from the run
=============  ==========================================  ===========================
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
import pandas as pd

from .discounts import Discount, DiscountSpec
from .gains import GainSpec, gain_values
from .measures import ZERO_POLICIES, ZeroPolicy
from .trec import Source, read_qrels, read_run

BatchIdeal = Literal["qrels-cut", "qrels", "retrieved"]
Ties = Literal["trec", "average"]
IDEALS = ("qrels-cut", "qrels", "retrieved")
TIES = ("trec", "average")
MEASURE = re.compile(
    r"^(?P<kind>n?dcg)(?:_cut[._](?P<cuts>\d+(?:,\d+)*)|@(?P<at>\d+))?$", re.IGNORECASE
)


def parse_measures(names: Iterable[str]) -> list[tuple[str, int | None]]:
    """Turn measure names into ``(output name, cutoff)`` pairs.

    ``ndcg`` and ``dcg`` have no cutoff; ``ndcg_cut.10``, ``ndcg_cut.5,10``,
    ``nDCG@10`` and ``dcg_cut.10`` have one. Output names follow trec_eval
    (``ndcg_cut_10``); a name starting with ``dcg`` is unnormalised DCG.

    Examples
    --------
    >>> parse_measures(["ndcg_cut.5,10", "ndcg", "nDCG@3", "dcg_cut.2"])
    [('ndcg_cut_5', 5), ('ndcg_cut_10', 10), ('ndcg', None), ('ndcg_cut_3', 3), ('dcg_cut_2', 2)]
    """
    out: list[tuple[str, int | None]] = []
    for name in names:
        m = MEASURE.match(name.strip())
        if not m:
            raise ValueError(
                f"measure must be ndcg, ndcg_cut.K, nDCG@K, dcg or dcg_cut.K, got {name!r}"
            )
        kind = m.group("kind").lower()
        cuts = m.group("cuts") or m.group("at")
        if cuts is None:
            out.append((kind, None))
            continue
        for c in cuts.split(","):
            if int(c) < 1:
                raise ValueError(f"measure {name!r}: the cutoff must be >= 1")
            out.append((f"{kind}_cut_{int(c)}", int(c)))
    if not out:
        raise ValueError("measures is empty: name at least one measure")
    return out


def sortable_bits(scores: np.ndarray) -> np.ndarray:
    """Map scores, rounded to float32 as trec_eval stores them, to uint64 keys whose
    integer order is the float order (negative floats have all bits flipped,
    positive ones only the sign bit). ``-0.0`` becomes ``+0.0`` first: they compare
    equal as floats, so they must tie.

    Examples
    --------
    >>> sortable_bits(np.array([-1.0, 0.0, 0.5, 2.0])).argsort().tolist()
    [0, 1, 2, 3]
    >>> bool(sortable_bits(np.array([-0.0]))[0] == sortable_bits(np.array([0.0]))[0])
    True
    """
    f32 = np.asarray(scores, dtype=np.float32) + np.float32(0.0)
    u = np.ascontiguousarray(f32).view(np.uint32).astype(np.uint64)
    return u ^ (((u >> np.uint64(31)) * np.uint64(0xFFFFFFFF)) | np.uint64(0x80000000))


def lexicographic_codes(values: np.ndarray) -> np.ndarray:
    """Integer codes of strings, increasing with their byte order (``strcmp``).

    Few distinct values (query ids) are factorised by pandas' string hash table,
    which then stays in cache, and only the distinct values are sorted. Many
    distinct values (document ids) are packed, as ASCII, into big-endian 64-bit
    words, so equal strings have equal words and integer order is byte order;
    the words are factorised as integers, several times faster than hashing
    Python strings. A hash of multi-word ids is verified against every row, and
    any collision (or any non-ASCII string) falls back to pandas' factorisation.

    Examples
    --------
    >>> lexicographic_codes(np.array(["d10", "d9", "d10", "a"], dtype=object)).tolist()
    [1, 2, 1, 0]
    """
    values = np.asarray(values, dtype=object)
    if len(np.unique(values[:10_000])) <= 100:
        return _sorted_factorize(values)
    try:
        raw = values.astype("S")
    except UnicodeEncodeError:
        return _sorted_factorize(values)
    n, width = len(raw), max(raw.dtype.itemsize, 1)
    nwords = -(-width // 8)
    padded = np.zeros((n, nwords * 8), dtype=np.uint8)
    padded[:, : raw.dtype.itemsize] = raw.view(np.uint8).reshape(n, raw.dtype.itemsize)
    words = padded.view(">u8").astype(np.uint64)
    if nwords == 1:
        return _sorted_factorize(words[:, 0])
    h = words[:, 0].copy()
    for j in range(1, nwords):
        h = h * np.uint64(0x9E3779B97F4A7C15) + words[:, j]
    codes, uniques = pd.factorize(h)
    first = np.empty(len(uniques), dtype=np.int64)
    first[codes[::-1]] = np.arange(n - 1, -1, -1)
    if not np.array_equal(words, words[first[codes]]):
        return _sorted_factorize(values)
    rank = np.empty(len(uniques), dtype=np.int64)
    rank[np.lexsort(words[first].T[::-1])] = np.arange(len(uniques))
    return rank[codes]


def _sorted_factorize(values: np.ndarray) -> np.ndarray:
    """pandas' hash factorisation, then codes renumbered in sorted order of the values."""
    codes, uniques = pd.factorize(values)
    rank = np.empty(len(uniques), dtype=np.int64)
    rank[np.argsort(np.asarray(uniques), kind="stable")] = np.arange(len(uniques))
    return rank[codes]


class Grouping:
    """Rows grouped by an integer code into a padded ``n_groups × width`` matrix."""

    def __init__(self, codes: np.ndarray, n_groups: int) -> None:
        monotonic = len(codes) < 2 or bool(np.all(codes[1:] >= codes[:-1]))
        self.order = None if monotonic else np.argsort(codes, kind="stable")
        sizes = np.bincount(codes, minlength=n_groups)
        width = max(int(sizes.max()) if len(sizes) else 0, 1)
        self.shape = (n_groups, width)
        # a run already grouped by query with equal list lengths needs no scatter
        self.flat = None
        if not (monotonic and np.all(sizes == width)):
            starts = np.concatenate(([0], np.cumsum(sizes)[:-1]))
            rows = codes if monotonic else codes[self.order]
            self.flat = rows * width + np.arange(len(codes)) - np.repeat(starts, sizes)

    def pad(self, values: np.ndarray, fill: float | int) -> np.ndarray:
        """The values placed in their group's row, ``fill`` elsewhere."""
        ordered = values if self.order is None else values[self.order]
        if self.flat is None:
            return np.ascontiguousarray(ordered).reshape(self.shape)
        out = np.full(self.shape, fill, dtype=values.dtype)
        out.ravel()[self.flat] = ordered
        return out


@dataclass(frozen=True)
class Prepared:
    """A run and its qrels as padded arrays, ready for :func:`compute`.

    ``scores``, ``docs`` and ``gains`` are ``queries × retrieved`` matrices (padding:
    NaN score, doc code -1, gain 0); ``judged_gains`` holds each query's qrels gains
    sorted in decreasing order (padding 0).
    """

    qids: np.ndarray
    scores: np.ndarray
    docs: np.ndarray
    gains: np.ndarray
    judged_gains: np.ndarray


def prepare(
    qrels: Source,
    run: Source,
    *,
    gain: GainSpec = "linear",
    missing: Literal["ignore", "zero"] = "ignore",
) -> Prepared:
    """Read, map ids to integers, look up gains and pad: all the string work.

    Queries evaluated: those of the run that have qrels, as trec_eval does, or with
    ``missing="zero"`` every query of the qrels (trec_eval ``-c``); run queries
    without qrels are ignored. Raises ``ValueError`` on a duplicate (qid, docno).
    """
    if missing not in ("ignore", "zero"):
        raise ValueError(f"missing must be 'ignore' or 'zero', got {missing!r}")
    q, r = read_qrels(qrels), read_run(run)
    nq_rows = len(q)
    qid_codes = lexicographic_codes(np.concatenate([q["qid"].to_numpy(), r["qid"].to_numpy()]))
    doc_codes = lexicographic_codes(np.concatenate([q["docno"].to_numpy(), r["docno"].to_numpy()]))
    q_q, r_q = qid_codes[:nq_rows], qid_codes[nq_rows:]
    q_doc, r_doc = doc_codes[:nq_rows], doc_codes[nq_rows:]
    n_codes = int(qid_codes.max()) + 1
    in_qrels = np.bincount(q_q, minlength=n_codes) > 0
    keep = in_qrels & (np.bincount(r_q, minlength=n_codes) > 0 if missing == "ignore" else True)
    if not keep.any():
        raise ValueError("no query is in both the qrels and the run")
    new_code = np.cumsum(keep) - 1
    first = np.full(n_codes, -1)
    first[qid_codes[::-1]] = np.arange(len(qid_codes) - 1, -1, -1)
    all_qids = np.concatenate([q["qid"].to_numpy(), r["qid"].to_numpy()])
    qids = all_qids[first[keep]]
    nq = len(qids)
    q_sel, r_sel = keep[q_q], keep[r_q]
    q_q, q_doc = new_code[q_q[q_sel]], q_doc[q_sel]
    r_q, r_doc = new_code[r_q[r_sel]], r_doc[r_sel]
    r_scores, r_docnos = r["score"].to_numpy(), r["docno"].to_numpy()
    if not r_sel.all():
        r_scores, r_docnos = r_scores[r_sel], r_docnos[r_sel]

    q_gain = gain_values(q["grade"].to_numpy()[q_sel], gain) if q_sel.any() else np.zeros(0)
    ndocs = int(doc_codes.max()) + 1
    q_key = q_q.astype(np.int64) * ndocs + q_doc
    sorted_key = np.sort(q_key)
    if len(q_key) and (sorted_key[1:] == sorted_key[:-1]).any():
        twice = sorted_key[1:][sorted_key[1:] == sorted_key[:-1]][0]
        row = int(np.flatnonzero(q_key == twice)[0])
        raise ValueError(
            f"qrels lists ({qids[q_q[row]]}, {q['docno'].to_numpy()[q_sel][row]}) more than once"
        )
    r_gain = np.zeros(len(r_q))
    if len(q_q):
        where = pd.Index(q_key).get_indexer(r_q.astype(np.int64) * ndocs + r_doc)
        r_gain[where >= 0] = q_gain[where[where >= 0]]

    run_rows = Grouping(r_q, nq)
    docs = run_rows.pad(r_doc.astype(np.int64), -1)
    by_doc = np.sort(docs, axis=1)
    dup = (by_doc[:, 1:] == by_doc[:, :-1]) & (by_doc[:, 1:] >= 0)
    if dup.any():
        row, col = np.argwhere(dup)[0]
        docno = r_docnos[r_doc == by_doc[row, col + 1]][0]
        raise ValueError(f"run lists ({qids[row]}, {docno}) more than once")
    judged = -np.sort(-Grouping(q_q, nq).pad(q_gain, 0.0), axis=1)
    return Prepared(qids, run_rows.pad(r_scores, np.nan), docs, run_rows.pad(r_gain, 0.0), judged)


def order_by_rank(p: Prepared, ties: Ties, depth: int | None) -> tuple[np.ndarray, np.ndarray]:
    """Gains in rank order (the first ``depth`` ranks, or all) and, for
    ``ties="average"``, the scores in the same order."""
    if ties == "trec":
        # one uint64 key: float32 score bits, then docno code; descending = ascending ~key
        bits = sortable_bits(np.nan_to_num(p.scores, nan=-np.inf))
        key = ~((bits << np.uint64(32)) | p.docs.astype(np.uint64))
        key[np.isnan(p.scores)] = np.iinfo(np.uint64).max
    else:
        key = np.where(np.isnan(p.scores), np.inf, -p.scores)
    width = key.shape[1]
    if depth is not None and depth < width:
        top = np.argpartition(key, depth - 1, axis=1)[:, :depth]
        rank = np.take_along_axis(
            top, np.argsort(np.take_along_axis(key, top, axis=1), axis=1, kind="stable"), axis=1
        )
    else:
        rank = np.argsort(key, axis=1, kind="stable")
    return np.take_along_axis(p.gains, rank, axis=1), np.take_along_axis(key, rank, axis=1)


def average_ties(gains: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """Replace each gain by the mean gain of its group of equal scores (scikit-learn).

    Every position of a tied group gets the group's mean gain, so the group's
    contribution is its mean gain times the sum of its discounts.
    """
    new = np.ones(keys.shape, dtype=bool)
    new[:, 1:] = keys[:, 1:] != keys[:, :-1]
    group = np.cumsum(new.ravel()) - 1
    mean = np.bincount(group, gains.ravel()) / np.bincount(group)
    return mean[group].reshape(gains.shape)


def compute(
    p: Prepared,
    measures: Sequence[str] = ("ndcg_cut.10",),
    *,
    discount: DiscountSpec = "log2",
    ideal: BatchIdeal = "qrels-cut",
    ties: Ties = "trec",
    zero_idcg: ZeroPolicy = "error",
) -> BatchResult:
    """The measures for every prepared query: the purely numerical part of :func:`evaluate`."""
    if ideal not in IDEALS:
        raise ValueError(f"ideal must be one of {IDEALS}, got {ideal!r}")
    if ties not in TIES:
        raise ValueError(f"ties must be one of {TIES}, got {ties!r}")
    if zero_idcg not in ZERO_POLICIES:
        raise ValueError(f"zero_idcg must be one of {ZERO_POLICIES}, got {zero_idcg!r}")
    wanted = parse_measures(measures)
    disc = Discount.parse(discount)
    cuts = [k for _, k in wanted]
    # Only the top max(k) ranks matter unless a measure has no cutoff or ties are
    # averaged (a tied group may straddle the cutoff).
    depth = None if None in cuts or ties == "average" else max(cuts)
    g, keys = order_by_rank(p, ties, depth)
    if ties == "average":
        g = average_ties(g, keys)
    dcg = np.cumsum(g * disc.weights(g.shape[1]), axis=1)
    source = -np.sort(-p.gains, axis=1) if ideal == "retrieved" else p.judged_gains
    best = np.cumsum(source * disc.weights(source.shape[1]), axis=1)
    out = {}
    for name, k in wanted:
        d = dcg[:, min(k, dcg.shape[1]) - 1] if k else dcg[:, -1]
        if name.startswith("dcg"):
            out[name] = d
            continue
        cut = k is not None and ideal != "qrels"
        i = best[:, min(k, best.shape[1]) - 1] if cut else best[:, -1]
        out[name] = _resolve(d, i, zero_idcg, p.qids, name)
    return BatchResult(pd.DataFrame(out, index=pd.Index(p.qids, name="qid")))


@dataclass(frozen=True)
class BatchResult:
    """Per-query values (one column per measure) and how to aggregate them."""

    per_query: pd.DataFrame

    def mean(self) -> pd.Series:
        """Mean over the evaluated queries (skipped queries left out)."""
        return self.per_query.mean(skipna=True)

    def weighted_mean(self, weights: Mapping[str, float]) -> pd.Series:
        r"""Weighted mean :math:`\sum_q w_q v_q / \sum_q w_q` (section 4.2.1 of the overview).

        Queries without a weight get weight 0; skipped queries are left out.
        """
        w = pd.Series(weights, dtype=float).reindex(self.per_query.index).fillna(0.0)
        if (w < 0).any() or not np.isfinite(w).all():
            raise ValueError("weights must be finite and non-negative")
        out = {}
        for col in self.per_query:
            v = self.per_query[col]
            keep = v.notna()
            total = w[keep].sum()
            if total <= 0:
                raise ValueError(f"weights of the queries kept for {col} sum to 0")
            out[col] = float((v[keep] * w[keep]).sum() / total)
        return pd.Series(out)


def evaluate(
    qrels: Source,
    run: Source,
    measures: Sequence[str] = ("ndcg_cut.10",),
    *,
    gain: GainSpec = "linear",
    discount: DiscountSpec = "log2",
    ideal: BatchIdeal = "qrels-cut",
    ties: Ties = "trec",
    zero_idcg: ZeroPolicy = "error",
    missing: Literal["ignore", "zero"] = "ignore",
) -> BatchResult:
    r"""nDCG of every query of a run, for several cutoffs at once.

    .. math:: \mathrm{nDCG}@k_q = \frac{\sum_{i \le k} g(rel_{q,i})\,w_i}{\mathrm{IDCG}@k_q}

    Parameters
    ----------
    qrels, run : path or DataFrame
        See :func:`dcglab.trec.read_qrels` and :func:`dcglab.trec.read_run`.
    measures : sequence of str
        ``ndcg``, ``ndcg_cut.K`` (``K`` may be a comma list) or ``nDCG@K``.
    gain, discount
        As in :func:`dcglab.measures.dcg`; unjudged documents have gain 0.
    ideal : {"qrels-cut", "qrels", "retrieved"}
        Where IDCG comes from (module table).
    ties : {"trec", "average"}
        Tie rule (module table).
    zero_idcg : {"error", "zero", "one", "skip"}
        Policy for queries whose IDCG is 0; ``"skip"`` leaves NaN, which drops
        the query from the mean.
    missing : {"ignore", "zero"}
        Whether queries in the qrels but not in the run are left out or scored
        with an empty ranking (trec_eval ``-c``).

    Returns
    -------
    BatchResult
        ``per_query`` has one row per evaluated query, sorted by qid.
    """
    prepared = prepare(qrels, run, gain=gain, missing=missing)
    return compute(
        prepared, measures, discount=discount, ideal=ideal, ties=ties, zero_idcg=zero_idcg
    )


def _resolve(d: np.ndarray, i: np.ndarray, policy: ZeroPolicy, qids, name) -> np.ndarray:
    zero = i <= 0
    with np.errstate(divide="ignore", invalid="ignore"):
        v = np.where(zero, 0.0, d / np.where(zero, 1.0, i))
    if zero.any():
        if policy == "error":
            bad = ", ".join(map(str, qids[zero][:5]))
            raise ValueError(
                f"{name}: IDCG is 0 for {int(zero.sum())} queries (e.g. {bad}); "
                "choose zero_idcg='zero' (trec_eval), 'one' or 'skip'"
            )
        v[zero] = {"zero": 0.0, "one": 1.0, "skip": np.nan}[policy]
    return v
