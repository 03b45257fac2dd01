"""Integer codes for the batch evaluator: ids in byte order, sortable scores and
trec_eval's ranking. The padded layout (:mod:`dcglab.evaluation.batch.blocks`) and the matching of
(query, docno) pairs (:mod:`dcglab.evaluation.batch.matching`) are re-exported here.

trec_eval 10.0 orders a query's documents by score (a C ``double``), descending,
then by docno, descending, comparing docnos with ``strcmp``. These helpers turn
query ids into integers with the same order, scores into unsigned integers with
the float order, and one integer sort per query into trec_eval's ranking (only
tied scores compare their docnos).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import polars as pl

from dcglab.evaluation.batch.blocks import Grouping, equal_blocks, gather, row_blocks, take_in_rows
from dcglab.evaluation.batch.matching import (
    exact_match,
    first_repeat,
    match_in_rows,
    match_rows,
    may_repeat,
    pair_keys,
)

__all__ = [
    "Grouping",
    "average_ties",
    "equal_blocks",
    "exact_match",
    "first_repeat",
    "gather",
    "lexicographic_codes",
    "match_in_rows",
    "match_rows",
    "may_repeat",
    "pair_keys",
    "row_blocks",
    "sortable_bits",
    "take_in_rows",
    "trec_ranking",
]


def sortable_bits(scores: np.ndarray) -> np.ndarray:
    """Map float64 scores to uint64 keys whose integer order is the float order
    (negative floats have all bits flipped, positive ones only the sign bit).
    ``-0.0`` becomes ``+0.0`` first: they compare equal as floats, so they must tie.

    Examples
    --------
    >>> sortable_bits(np.array([-1.0, 0.0, 0.5, 2.0])).argsort().tolist()
    [0, 1, 2, 3]
    >>> bool(sortable_bits(np.array([-0.0]))[0] == sortable_bits(np.array([0.0]))[0])
    True
    >>> bool(sortable_bits(np.array([0.7]))[0] < sortable_bits(np.array([0.7000000001]))[0])
    True
    """
    f64 = np.ascontiguousarray(np.asarray(scores, dtype=np.float64) + 0.0)
    flip = (f64.view(np.int64) >> 63).view(np.uint64) | np.uint64(1 << 63)  # sign -> all ones
    return f64.view(np.uint64) ^ flip


def trec_ranking(scores: np.ndarray, rows: np.ndarray | None, docno: pl.Series) -> np.ndarray:
    """Each row's columns in trec_eval's ranking order: score descending, then
    docno bytes descending (``strcmp``); padding last.

    ``scores`` and ``rows`` are padded matrices (padding: any score, row -1);
    ``rows`` points into ``docno``; ``None`` stands for a matrix without
    padding whose row ``i`` holds the docnos ``i * width`` onwards (a file of
    equal query blocks). Each score's 64-bit key
    (:func:`sortable_bits`, inverted so that higher scores come first) has its
    lowest bits replaced by its column, and a row sort of these packed keys
    orders the scores. Documents whose keys agree above the column bits (equal
    scores, or scores a few units in the last place apart) are then ordered
    group by group by polars, on the full key and then the docno, which polars
    compares byte by byte, as ``strcmp`` does. Rows are taken a block at a time
    (:func:`row_blocks`).

    Examples
    --------
    >>> scores, rows = np.array([[1.0, 2.0, 1.0, 0.0]]), np.array([[0, 1, 2, -1]])
    >>> trec_ranking(scores, rows, pl.Series(["b", "a", "a"])).tolist()
    [[1, 0, 2, 3]]
    """
    n, w = scores.shape
    valid = None if rows is None else rows >= 0
    col = np.empty((n, w), dtype=np.uint32)  # each row's columns in rank order
    tied_at, group_starts = [], []  # documents whose key ties with a neighbour's
    for block in row_blocks(scores.shape):
        col[block], same = _score_order(scores[block], None if valid is None else valid[block])
        tied = same.copy()
        tied[:, :-1] |= same[:, 1:]
        at = np.flatnonzero(tied)
        tied_at.append(at + block.start * w)
        group_starts.append(~same.ravel()[at])
    at = np.concatenate(tied_at)
    if len(at):  # order each group of tied keys by full key, then docno, both descending
        flat = col.ravel()
        starts = np.concatenate(group_starts)
        group = np.cumsum(starts, dtype=np.uint32 if len(at) < 2**32 else np.int64)
        cell = (at // w) * w + flat[at]
        key = sortable_bits(scores.ravel()[cell])
        at_docno = cell if rows is None else rows.ravel()[cell]
        frame = pl.DataFrame({"group": group, "docno": gather(docno, at_docno)})
        sizes = np.diff(np.flatnonzero(starts), append=len(at))
        by = ["group", "docno"]  # when every group holds one score, the docno decides
        if not np.array_equal(key, np.repeat(key[starts], sizes)):
            frame, by = frame.with_columns(key=key), ["group", "key", "docno"]
        descending = [False] + [True] * (len(by) - 1)
        order = frame.select(
            pl.int_range(pl.len(), dtype=pl.UInt32).sort_by(by, descending=descending)
        ).to_series()
        flat[at] = flat[at[order.to_numpy()]]  # the k-th tied document in order: k-th tied place
    return col


def average_ties(values: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """Replace each value of a ``queries × ranks`` matrix by the mean over its group of
    equal ``keys`` (scores) in its row: scikit-learn's tie rule for gains, and
    trectools' for RBP's weights (``average_ties=True``).

    A tied group's contribution to a weighted sum is then its mean value times the
    sum of its weights (or its mean weight times the sum of its values). NaN keys
    (padding) are groups of one.

    Examples
    --------
    >>> average_ties(np.array([[3.0, 0.0, 1.0]]), np.array([[2.0, 2.0, 1.0]])).tolist()
    [[1.5, 1.5, 1.0]]
    """
    new = np.ones(keys.shape, dtype=bool)
    new[:, 1:] = keys[:, 1:] != keys[:, :-1]
    group = np.cumsum(new.ravel()) - 1
    mean = np.bincount(group, values.ravel()) / np.bincount(group)
    return mean[group].reshape(values.shape)


def _score_order(scores: np.ndarray, valid: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
    """Each row's columns sorted by score, descending (padding, ``valid`` false,
    last; ``None``: none), and whether each sorted key equals the one before it
    above the column bits (a possible tie)."""
    n, w = scores.shape
    bits = max(int(w - 1).bit_length(), 1)
    low = np.uint64((1 << bits) - 1)
    full = valid is None or bool(valid.all())
    key = sortable_bits(scores if full else np.where(valid, scores, 0.0))
    np.invert(key, out=key)  # the highest score has the smallest key
    if not full:
        key[~valid] = np.iinfo(np.uint64).max  # above every score's key: padding sorts last
    key &= ~low
    key |= np.arange(w, dtype=np.uint64)
    key.sort(axis=1)
    same = np.zeros((n, w), dtype=bool)
    same[:, 1:] = (key[:, 1:] ^ key[:, :-1]) <= low
    if not full:
        same &= np.arange(w) < valid.sum(axis=1)[:, None]
    return (key & low).astype(np.uint32), same


def lexicographic_codes(
    values: pl.Series | np.ndarray | Sequence[str],
) -> tuple[np.ndarray, pl.Series]:
    """Integer codes of strings, increasing with their byte order (C's ``strcmp``),
    and the distinct strings in code order.

    Ids that come in blocks (the query ids of a run grouped by query) are coded
    block by block. Otherwise the strings are factorised through a 64-bit hash,
    checked against a second independent hash (on a disagreement, polars'
    categorical cast decides), and only the distinct strings are sorted
    (polars compares strings byte by byte).

    Examples
    --------
    >>> codes, distinct = lexicographic_codes(np.array(["d10", "d9", "d10", "a"], dtype=object))
    >>> codes.tolist(), distinct.to_list()
    ([1, 2, 1, 0], ['a', 'd10', 'd9'])
    """
    s = values if isinstance(values, pl.Series) else pl.Series(list(values), dtype=pl.String)
    n = len(s)
    if n == 0:
        return np.zeros(0, dtype=np.int64), s
    # a cheap look at both ends first: a list of docnos is seldom grouped
    grouped = any(
        int((end != end.shift(1)).fill_null(True).sum()) <= max(len(end) // 20, 1)
        for end in (s.head(4096), s.tail(4096))
    )
    runs = s.rle() if grouped else None  # blocks of equal values: (len, value)
    if runs is not None and len(runs) <= max(n // 20, 1):  # grouped: code block heads
        heads = runs.struct.field("value")
        distinct = heads.unique()
        distinct = distinct.gather(_byte_order(distinct))
        code = {v: c for c, v in enumerate(distinct.to_list())}
        lengths = runs.struct.field("len").to_numpy()
        codes = np.repeat(np.array([code[h] for h in heads.to_list()], dtype=np.int64), lengths)
        return codes, distinct
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
    order = _byte_order(s.gather(first))
    rank = np.empty(n_distinct, dtype=np.int32 if n_distinct < 2**31 else np.int64)
    rank[order] = np.arange(n_distinct)
    return rank[codes], s.gather(first[order])


def _sorted_factorize(s: pl.Series) -> tuple[np.ndarray, pl.Series]:
    """Codes through polars' categorical cast; only the distinct strings are sorted."""
    cat = s.cast(pl.Categorical)
    distinct = cat.unique()
    ids = distinct.to_physical().to_numpy().astype(np.int64)
    text = distinct.cast(pl.String)
    order = text.arg_sort().to_numpy()
    rank = np.zeros(int(ids.max()) + 1, dtype=np.int64)
    rank[ids[order]] = np.arange(len(ids))
    return rank[cat.to_physical().to_numpy()], text.gather(order)


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
