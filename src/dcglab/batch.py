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
from .trec import Source, qrels_columns, run_columns

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
    Python strings. Ids longer than 8 bytes are factorised through a hash of
    their words that is then verified against every row: any collision (or any
    non-ASCII id) falls back to pandas' string factorisation, so the codes are
    always exact.

    Examples
    --------
    >>> lexicographic_codes(np.array(["d10", "d9", "d10", "a"], dtype=object)).tolist()
    [1, 2, 1, 0]
    """
    values = np.asarray(values, dtype=object)
    sample = values[:10_000]  # a contiguous block: grouped query ids repeat within it
    if len(np.unique(sample)) <= len(sample) // 10:  # mostly repeats: hash the strings
        return _sorted_factorize(values)
    words = ascii_words(values)
    if words is None:
        return _sorted_factorize(values)
    nwords = words.shape[1]
    first_word = words[:, 0].astype(np.uint64)
    if nwords == 1:
        return _sorted_factorize(first_word)
    h = first_word
    for j in range(1, nwords):
        h = h * np.uint64(0x9E3779B97F4A7C15) + words[:, j].astype(np.uint64)
    codes, uniques = pd.factorize(h)
    first = np.empty(len(uniques), dtype=np.int64)
    first[codes[::-1]] = np.arange(len(codes) - 1, -1, -1)
    rep = first[codes]
    if any(not np.array_equal(words[:, j], words[rep, j]) for j in range(nwords)):
        return _sorted_factorize(values)  # a hash collision: exact but slower
    rank = np.empty(len(uniques), dtype=np.int64)
    rank[np.lexsort(words[first].astype(np.uint64).T[::-1])] = np.arange(len(uniques))
    return rank[codes]


def ascii_words(values: np.ndarray, chunk: int = 1 << 20) -> np.ndarray | None:
    """Each string's bytes, zero-padded, as rows of big-endian 64-bit words.

    The strings are joined into one buffer (a single pass over the Python
    objects, the costly part for millions of ids scattered in memory) and cut
    apart with numpy. Returns ``None`` for non-ASCII strings or strings holding NUL.

    Examples
    --------
    >>> [hex(int(w)) for w in ascii_words(np.array(["ab", "c"], dtype=object))[:, 0]]
    ['0x6162000000000000', '0x6300000000000000']
    """
    n = len(values)
    try:
        buf = "\x00".join(values.tolist()).encode("ascii")
    except (UnicodeEncodeError, TypeError):
        return None
    data = np.frombuffer(buf + b"\x00", dtype=np.uint8)
    ends = np.flatnonzero(data == 0)
    if len(ends) != n:
        return None  # a string contains NUL
    starts = np.concatenate(([0], ends[:-1] + 1))
    lengths = ends - starts
    width = max(int(lengths.max()) if n else 0, 1)
    nwords = -(-width // 8)
    out = np.zeros((n, nwords * 8), dtype=np.uint8)
    if n and np.all(lengths == width):  # fixed-width ids: the buffer is already a table
        out[:, :width] = data.reshape(n, width + 1)[:, :width]
    else:
        cols = np.arange(width)
        for lo in range(0, n, chunk):
            s, ln = starts[lo : lo + chunk, None], lengths[lo : lo + chunk, None]
            inside = cols < ln
            out[lo : lo + chunk, :width] = np.where(inside, data[np.where(inside, s + cols, 0)], 0)
    return out.view(">u8")


def _sorted_factorize(values: np.ndarray) -> np.ndarray:
    """pandas' hash factorisation, then codes renumbered in sorted order of the values."""
    codes, uniques = pd.factorize(values)
    rank = np.empty(len(uniques), dtype=np.int64)
    rank[np.argsort(np.asarray(uniques), kind="stable")] = np.arange(len(uniques))
    return rank[codes]


class Grouping:
    """Rows grouped by an integer code into a padded ``n_groups × width`` matrix.

    A run file is usually already grouped by query with equal list lengths; then
    the values are reshaped and, if the queries come in another order, their rows
    permuted, with no per-element scatter.
    """

    def __init__(self, codes: np.ndarray, n_groups: int) -> None:
        sizes = np.bincount(codes, minlength=n_groups)
        width = max(int(sizes.max()) if len(sizes) else 0, 1)
        self.shape = (n_groups, width)
        self.order = self.flat = self.rows = None
        if len(codes) and np.all(sizes == width):
            firsts = codes[::width]
            if np.array_equal(np.repeat(firsts, width), codes):  # contiguous blocks
                self.rows = None if np.all(firsts[1:] > firsts[:-1]) else np.argsort(firsts)
                return
        self.order = np.argsort(codes, kind="stable")
        starts = np.concatenate(([0], np.cumsum(sizes)[:-1]))
        self.flat = codes[self.order] * width + np.arange(len(codes)) - np.repeat(starts, sizes)

    def pad(self, values: np.ndarray, fill: float | int) -> np.ndarray:
        """The values placed in their group's row, ``fill`` elsewhere."""
        if self.flat is None:
            table = np.ascontiguousarray(values).reshape(self.shape)
            return table if self.rows is None else table[self.rows]
        out = np.full(self.shape, fill, dtype=values.dtype)
        out.ravel()[self.flat] = values[self.order]
        return out


@dataclass(frozen=True)
class Prepared:
    """A run and its qrels as padded arrays, ready for :func:`compute`.

    ``scores``, ``docs`` and ``gains`` are ``queries × retrieved`` matrices (padding:
    NaN score, doc code -1, gain 0); ``levels`` are the distinct gains (0 first) and
    ``gain_index`` the position of each gain in it; ``judged_gains`` holds each
    query's qrels gains sorted in decreasing order (padding 0). Document codes run
    from 0 to ``n_docs - 1`` in byte order of the docnos.
    """

    qids: np.ndarray
    scores: np.ndarray
    docs: np.ndarray
    gains: np.ndarray
    judged_gains: np.ndarray
    levels: np.ndarray
    gain_index: np.ndarray
    n_docs: int


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
    q, r = qrels_columns(qrels), run_columns(run)
    nq_rows = len(q["qid"])
    qid_codes = lexicographic_codes(np.concatenate([q["qid"], r["qid"]]))
    doc_codes = lexicographic_codes(np.concatenate([q["docno"], r["docno"]]))
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
    all_qids = np.concatenate([q["qid"], r["qid"]])
    qids = all_qids[first[keep]]
    nq = len(qids)
    q_sel, r_sel = keep[q_q], keep[r_q]
    q_q, q_doc = new_code[q_q[q_sel]], q_doc[q_sel]
    r_q, r_doc = new_code[r_q[r_sel]], r_doc[r_sel]
    r_scores, r_docnos = r["score"], r["docno"]
    if not r_sel.all():
        r_scores, r_docnos = r_scores[r_sel], r_docnos[r_sel]

    q_gain = gain_values(q["grade"][q_sel], gain) if q_sel.any() else np.zeros(0)
    ndocs = int(doc_codes.max()) + 1
    q_key = q_q.astype(np.int64) * ndocs + q_doc
    sorted_key = np.sort(q_key)
    if len(q_key) and (sorted_key[1:] == sorted_key[:-1]).any():
        twice = sorted_key[1:][sorted_key[1:] == sorted_key[:-1]][0]
        row = int(np.flatnonzero(q_key == twice)[0])
        raise ValueError(f"qrels lists ({qids[q_q[row]]}, {q['docno'][q_sel][row]}) more than once")
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
    gains = run_rows.pad(r_gain, 0.0)
    levels = np.unique(np.concatenate(([0.0], q_gain)))
    index = np.searchsorted(levels, gains).astype(np.uint64)
    return Prepared(qids, run_rows.pad(r_scores, np.nan), docs, gains, judged, levels, index, ndocs)


def packed_keys(p: Prepared) -> tuple[np.ndarray, int] | None:
    """One uint64 per document whose ascending order is trec_eval's ranking order.

    Bits, high to low: the float32 score, inverted (score descending); the docno
    code, inverted (docno descending); the gain's index into ``p.levels``. Scores
    and docno decide the order completely, and the gain rides along, so sorting
    the keys alone yields the gains in rank order. Returns ``None`` when the codes
    do not fit in 32 bits next to the score. Padding is the largest key.
    """
    gbits = int(len(p.levels)).bit_length()  # the all-ones index is free: padding
    dbits = max(int(p.n_docs - 1).bit_length(), 1)
    if gbits + dbits > 32:
        return None
    bits = sortable_bits(np.nan_to_num(p.scores, nan=-np.inf))
    doc = np.uint64(p.n_docs - 1) - p.docs.clip(min=0).astype(np.uint64)
    key = ((np.uint64(0xFFFFFFFF) - bits) << np.uint64(32)) | (doc << np.uint64(gbits))
    key |= p.gain_index
    key[np.isnan(p.scores)] = np.iinfo(np.uint64).max
    return key, gbits


def order_by_rank(p: Prepared, ties: Ties, depth: int | None) -> tuple[np.ndarray, np.ndarray]:
    """Gains in rank order (the first ``depth`` ranks, or all) and, for
    ``ties="average"``, the scores in the same order."""
    packed = packed_keys(p) if ties == "trec" else None
    width = p.scores.shape[1]
    if packed is not None:
        key, gbits = packed
        if depth is not None and depth < width:
            key = np.partition(key, depth - 1, axis=1)[:, :depth]
        key = np.sort(key, axis=1)
        table = np.zeros(1 << gbits)
        table[: len(p.levels)] = p.levels
        return table[(key & np.uint64((1 << gbits) - 1)).astype(np.intp)], key
    if ties == "trec":  # codes too wide to pack: sort indices instead
        bits = sortable_bits(np.nan_to_num(p.scores, nan=-np.inf))
        key = ~((bits << np.uint64(32)) | p.docs.astype(np.uint64))
        key[np.isnan(p.scores)] = np.iinfo(np.uint64).max
    else:
        key = np.where(np.isnan(p.scores), np.inf, -p.scores)
    if depth is not None and depth < width:
        top = np.argpartition(key, depth - 1, axis=1)[:, :depth]
        order = np.argsort(np.take_along_axis(key, top, axis=1), axis=1, kind="stable")
        rank = np.take_along_axis(top, order, axis=1)
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


def check_conventions(
    measures: Sequence[str],
    discount: DiscountSpec,
    ideal: BatchIdeal,
    ties: Ties,
    zero_idcg: ZeroPolicy,
) -> tuple[list[tuple[str, int | None]], Discount]:
    """Validate the conventions (before any data is read) and parse measures and discount."""
    if ideal not in IDEALS:
        raise ValueError(f"ideal must be one of {IDEALS}, got {ideal!r}")
    if ties not in TIES:
        raise ValueError(f"ties must be one of {TIES}, got {ties!r}")
    if zero_idcg not in ZERO_POLICIES:
        raise ValueError(f"zero_idcg must be one of {ZERO_POLICIES}, got {zero_idcg!r}")
    return parse_measures(measures), Discount.parse(discount)


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
    wanted, disc = check_conventions(measures, discount, ideal, ties, zero_idcg)
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
    check_conventions(measures, discount, ideal, ties, zero_idcg)  # fail before reading
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
