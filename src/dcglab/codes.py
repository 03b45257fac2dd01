"""Integer codes for the batch evaluator: ids in byte order, sortable scores,
(query, docno) matching, padding.

trec_eval orders a query's documents by score (as float32), descending, then by
docno, descending, comparing docnos with ``strcmp``. These helpers turn query
ids into integers with the same order, scores into unsigned integers with the
float order, and give each document its position in that order, so one
integer sort reproduces trec_eval's ranking. Run rows find their qrels row
through 64-bit keys of the (query, docno) pair, verified against the strings.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import polars as pl

__all__ = [
    "Grouping",
    "first_repeat",
    "lexicographic_codes",
    "match_rows",
    "may_repeat",
    "pair_keys",
    "row_ranks",
    "sortable_bits",
    "top_in_trec_order",
]

_MIX = np.uint64(0x9E3779B97F4A7C15)  # an odd 64-bit constant (2^64 over the golden ratio)


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
    f32 = np.ascontiguousarray(np.asarray(scores, dtype=np.float32) + np.float32(0.0))
    flip = (f32.view(np.int32) >> 31).view(np.uint32) | np.uint32(0x80000000)  # sign -> all ones
    return (f32.view(np.uint32) ^ flip).astype(np.uint64)


def row_ranks(scores: np.ndarray, rows: np.ndarray, docno: pl.Series) -> np.ndarray:
    """Each document's position in its row sorted by (float32 score, docno bytes),
    ascending; -1 for padding.

    ``scores`` and ``rows`` are padded matrices (padding: any score, row -1);
    ``rows`` points into ``docno``. A row sort of packed integer keys orders the
    scores; only documents with tied scores then have their docnos compared,
    group by group, by polars, which compares strings byte by byte, as
    ``strcmp`` does. Reversed, the positions are trec_eval's ranking.

    Examples
    --------
    >>> row_ranks(np.array([[1.0, 2.0, 1.0]]), np.array([[0, 1, 2]]), pl.Series(["b", "a", "a"]))
    array([[1, 2, 0]])
    """
    n, w = scores.shape
    valid = rows >= 0
    bits = np.where(valid, sortable_bits(np.where(valid, scores, 0.0)), np.uint64(0xFFFFFFFF))
    key = np.sort((bits << np.uint64(32)) | np.arange(w, dtype=np.uint64), axis=1)  # padding last
    col = (key & np.uint64(0xFFFFFFFF)).astype(np.intp)
    high = key >> np.uint64(32)
    same = np.zeros((n, w), dtype=bool)  # equal to the score before it in the row
    same[:, 1:] = high[:, 1:] == high[:, :-1]
    same &= np.arange(w) < valid.sum(axis=1)[:, None]
    del key, high
    tied = same.copy()
    tied[:, :-1] |= same[:, 1:]
    at = np.flatnonzero(tied)  # positions of tied documents, group after group
    if len(at):
        flat = col.ravel()
        group = np.cumsum(~same.ravel()[at])
        strings = docno.gather(rows.ravel()[(at // w) * w + flat[at]])
        order = (
            pl.DataFrame({"group": group, "docno": strings})
            .with_row_index("i")
            .sort("group", "docno")
            .get_column("i")
            .to_numpy()
        )
        flat[at] = flat[at[order]]  # the k-th smallest tied document takes the k-th tied place
    ranks = np.empty((n, w), dtype=np.int64)
    np.put_along_axis(ranks, col, np.arange(w), axis=1)
    ranks[~valid] = -1
    return ranks


def pair_keys(query: np.ndarray, docno: pl.Series) -> np.ndarray:
    """A 64-bit key for each (query code, docno) pair: the docno's hash XOR the
    code times an odd constant. Equal pairs have equal keys; two distinct pairs
    share one with a chance of about 2^-64, so every use verifies its matches."""
    return docno.hash(seed=0).to_numpy() ^ (query.astype(np.uint64) * _MIX)


def may_repeat(keys: np.ndarray, counts: np.ndarray | None = None) -> bool:
    """Whether a row holds two equal keys: of a 1-D array, or among the first
    ``counts[i]`` keys of row ``i`` of a matrix padded with the largest uint64.
    Equal keys mean a repeated pair or (rarely) a hash collision; :func:`first_repeat`
    tells them apart."""
    s = np.sort(np.atleast_2d(keys), axis=1)
    same = s[:, 1:] == s[:, :-1]
    if counts is not None:
        same &= np.arange(1, s.shape[1]) < counts[:, None]
    return bool(same.any())


def first_repeat(query: np.ndarray, docno: pl.Series) -> int | None:
    """The first row whose (query, docno) pair is on an earlier row too, or ``None``
    (exact: compares the strings)."""
    frame = pl.DataFrame({"query": query, "docno": docno})
    again = ~frame.select(pl.struct("query", "docno").is_first_distinct()).to_series()
    rows = again.arg_true()
    return int(rows[0]) if len(rows) else None


def match_rows(
    q_query: np.ndarray, q_docno: pl.Series, r_query: np.ndarray, r_docno: pl.Series
) -> np.ndarray:
    """The qrels row of each run row's (query, docno) pair, or -1 (unjudged).

    The qrels pairs must be distinct. A hash join on :func:`pair_keys`, whose
    matches are then compared as strings; after a hash collision (never seen in
    practice) the join is redone on the strings themselves.
    """
    q_keys = pair_keys(q_query, q_docno)
    if not may_repeat(q_keys):
        found = _join(pl.DataFrame({"k": q_keys}), pl.DataFrame({"k": pair_keys(r_query, r_docno)}))
        hit = np.flatnonzero(found >= 0)
        at = found[hit]
        if (q_query[at] == r_query[hit]).all() and (q_docno.gather(at) == r_docno.gather(hit)).all():
            return found
    return _join(
        pl.DataFrame({"q": q_query, "d": q_docno}), pl.DataFrame({"q": r_query, "d": r_docno})
    )


def _join(table: pl.DataFrame, probe: pl.DataFrame) -> np.ndarray:
    """The row of ``table`` equal to each row of ``probe`` (same columns, unique in
    ``table``), or -1."""
    out = probe.join(
        table.with_row_index("_row"), on=probe.columns, how="left", maintain_order="left"
    )
    return out.get_column("_row").cast(pl.Int64).fill_null(-1).to_numpy()


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


def lexicographic_codes(values: pl.Series | np.ndarray | Sequence[str]) -> np.ndarray:
    """Integer codes of strings, increasing with their byte order (C's ``strcmp``).

    Ids that come in blocks (the query ids of a run grouped by query) are coded
    block by block. Otherwise the strings are factorised through a 64-bit hash,
    checked against a second independent hash (on a disagreement, polars'
    categorical cast decides), and only the distinct strings are sorted
    (polars compares strings byte by byte).

    Examples
    --------
    >>> lexicographic_codes(np.array(["d10", "d9", "d10", "a"], dtype=object)).tolist()
    [1, 2, 1, 0]
    """
    s = values if isinstance(values, pl.Series) else pl.Series(list(values), dtype=pl.String)
    n = len(s)
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    # a cheap look at both ends first: a list of docnos is seldom grouped
    grouped = any(
        int((end != end.shift(1)).fill_null(True).sum()) <= max(len(end) // 20, 1)
        for end in (s.head(4096), s.tail(4096))
    )
    starts = (s != s.shift(1)).fill_null(True) if grouped else None
    if starts is not None and int(starts.sum()) <= max(n // 20, 1):  # grouped: code block heads
        heads = s.filter(starts)
        distinct = heads.unique()
        code = {v: c for c, v in enumerate(distinct.gather(_byte_order(distinct)).to_list())}
        lengths = np.diff(np.append(np.flatnonzero(starts.to_numpy()), n))
        return np.repeat(np.array([code[h] for h in heads.to_list()], dtype=np.int64), lengths)
    import pandas as pd  # only here: the command line starts faster without it

    codes, distinct = pd.factorize(s.hash(seed=0).to_numpy())
    n_distinct = len(distinct)
    del distinct
    first = np.empty(n_distinct, dtype=np.int64)
    first[codes[::-1]] = np.arange(n - 1, -1, -1)
    check = s.hash(seed=0x5EED).to_numpy()  # a second, independent hash must agree
    agree = np.array_equal(check, check[first[codes]])
    del check
    if not agree:
        return _sorted_factorize(s)  # a collision of the first hash: exact but slower
    rank = np.empty(n_distinct, dtype=np.int32 if n_distinct < 2**31 else np.int64)
    rank[_byte_order(s.gather(first))] = np.arange(n_distinct)
    return rank[codes]


def _sorted_factorize(s: pl.Series) -> np.ndarray:
    """Codes through polars' categorical cast; only the distinct strings are sorted."""
    cat = s.cast(pl.Categorical)
    distinct = cat.unique()
    ids = distinct.to_physical().to_numpy().astype(np.int64)
    rank = np.zeros(int(ids.max()) + 1, dtype=np.int64)
    rank[ids[distinct.cast(pl.String).arg_sort().to_numpy()]] = np.arange(len(ids))
    return rank[cat.to_physical().to_numpy()]


def _byte_order(s: pl.Series) -> np.ndarray:
    """The permutation that sorts distinct strings by their bytes (``strcmp``).

    Each string's UTF-8 bytes, zero-padded, become a row of big-endian 64-bit
    words, whose integer order is byte order; ``numpy.lexsort`` sorts the rows.
    ASCII strings are padded by polars; others byte by byte in numpy.
    """
    lengths = s.str.len_bytes().to_numpy().astype(np.int64)
    n, width = len(lengths), max(int(lengths.max()), 1)
    if int(s.str.len_chars().sum()) == int(lengths.sum()):  # ASCII: one byte a character
        row = -(-width // 8) * 8
        text = s.str.pad_end(row, "\x00").str.join("").item().encode("ascii")
        words = np.frombuffer(text, dtype=">u8").reshape(n, row // 8).astype(np.uint64)
        return np.lexsort(words.T[::-1])
    data = np.frombuffer(s.str.join("").item().encode("utf-8"), dtype=np.uint8)
    table = np.zeros((n, -(-width // 8) * 8), dtype=np.uint8)
    starts = np.concatenate(([0], np.cumsum(lengths)[:-1]))
    for lo in range(0, n, 1 << 18):
        st, ln = starts[lo : lo + (1 << 18), None], lengths[lo : lo + (1 << 18), None]
        inside = np.arange(width) < ln
        at = np.where(inside, st + np.arange(width), 0)
        table[lo : lo + (1 << 18), :width] = np.where(inside, data[at] if len(data) else 0, 0)
    words = table.view(">u8").astype(np.uint64)
    return np.lexsort(words.T[::-1])


def top_in_trec_order(scores: np.ndarray, docs: np.ndarray, index: np.ndarray, m: int):
    """Each row's first ``m`` documents in trec_eval's order (trec_eval ``-M``):
    the largest :func:`row_ranks` (padding has -1)."""
    top = np.argpartition(-docs, m - 1, axis=1)[:, :m]
    take = lambda a: np.take_along_axis(a, top, axis=1)  # noqa: E731
    return take(scores), take(docs), take(index)
