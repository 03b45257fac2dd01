"""Integer codes for the batch evaluator: ids in byte order, sortable scores,
(query, docno) matching, padding.

trec_eval 10.0 orders a query's documents by score (a C ``double``), descending,
then by docno, descending, comparing docnos with ``strcmp``. These helpers turn
query ids into integers with the same order, scores into unsigned integers with
the float order, and one integer sort per query into trec_eval's ranking (only
tied scores compare their docnos). Run rows find their qrels row through 64-bit
hashes of the docnos within each query, verified against the strings.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import polars as pl

__all__ = [
    "Grouping",
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

_MIX = np.uint64(0x9E3779B97F4A7C15)  # an odd 64-bit constant (2^64 over the golden ratio)


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


BLOCK = 1 << 18
"""Elements per block of rows in the per-row steps: their temporaries stay a few
megabytes, reused from block to block, instead of fresh arrays the size of the
run (on the benchmark's 5M lines, page faults were a third of the time)."""


def row_blocks(shape: tuple[int, int]) -> list[slice]:
    """Slices of the rows of a ``shape`` matrix, about :data:`BLOCK` elements each.

    Examples
    --------
    >>> row_blocks((5, 100_000))[:2]
    [slice(0, 2, None), slice(2, 4, None)]
    """
    n, w = shape
    step = max(1, BLOCK // max(w, 1))
    return [slice(lo, min(lo + step, n)) for lo in range(0, n, step)]


def equal_blocks(ids: pl.Series) -> int | None:
    """The common length of the blocks of equal ids, when each id forms one
    block and all blocks are equally long (a run grouped by query, with as many
    documents for every query); otherwise ``None``.

    Examples
    --------
    >>> equal_blocks(pl.Series(["b", "b", "a", "a"])), equal_blocks(pl.Series(["b", "a", "b"]))
    (2, None)
    """
    if len(ids) == 0:
        return None
    runs = ids.rle()
    lengths = runs.struct.field("len")
    if lengths.n_unique() != 1 or runs.struct.field("value").n_unique() != len(runs):
        return None
    return int(lengths[0])


def take_in_rows(values: np.ndarray, columns: np.ndarray) -> np.ndarray:
    """``values[i, columns[i, j]]`` for every row ``i`` (numpy's
    ``take_along_axis``, done a block of rows at a time with flat indices,
    which is several times faster on large matrices).

    Examples
    --------
    >>> take_in_rows(np.array([[1.0, 2.0], [3.0, 4.0]]), np.array([[1, 0], [1, 1]])).tolist()
    [[2.0, 1.0], [4.0, 4.0]]
    """
    n, w = values.shape
    out = np.empty(columns.shape, dtype=values.dtype)
    flat = values.reshape(-1)
    for block in row_blocks(columns.shape):
        at = columns[block].astype(np.intp)
        at += (np.arange(block.start, block.stop, dtype=np.intp) * w)[:, None]
        np.take(flat, at, out=out[block])
    return out


def gather(values: pl.Series, rows: np.ndarray) -> pl.Series:
    """``values[rows]``, taken chunk by chunk.

    A Series read from a CSV file is held in many chunks (polars makes about
    one per 44,000 lines), and polars' own gather across them is several times
    slower than from one chunk (measured on the benchmark's 5M docnos). Here
    the rows are sorted (unless they already are), each chunk gives its own,
    and the result is put back in the order asked.

    Examples
    --------
    >>> parts = pl.concat([pl.Series(["a", "b"]), pl.Series(["c"])], rechunk=False)
    >>> gather(parts, np.array([2, 0, 2])).to_list()
    ['c', 'a', 'c']
    """
    chunks = values.get_chunks()
    if len(chunks) == 1 or len(rows) == 0:
        return values.gather(rows)
    order = None if bool(np.all(rows[1:] >= rows[:-1])) else np.argsort(rows, kind="stable")
    ordered = rows if order is None else rows[order]
    ends = np.cumsum([len(c) for c in chunks])
    cuts = np.searchsorted(ordered, ends)
    parts = [
        chunk.gather(ordered[lo:hi] - start)
        for chunk, lo, hi, start in zip(chunks, np.r_[0, cuts[:-1]], cuts, np.r_[0, ends[:-1]])
        if hi > lo
    ]
    got = pl.concat(parts, rechunk=True)
    if order is None:
        return got
    back = np.empty_like(order)
    back[order] = np.arange(len(order))
    return got.gather(back)


def trec_ranking(scores: np.ndarray, rows: np.ndarray, docno: pl.Series) -> np.ndarray:
    """Each row's columns in trec_eval's ranking order: score descending, then
    docno bytes descending (``strcmp``); padding last.

    ``scores`` and ``rows`` are padded matrices (padding: any score, row -1);
    ``rows`` points into ``docno``. Each score's 64-bit key
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
    valid = rows >= 0
    col = np.empty((n, w), dtype=np.uint32)  # each row's columns in rank order
    tied_at, group_starts = [], []  # documents whose key ties with a neighbour's
    for block in row_blocks(scores.shape):
        col[block], same = _score_order(scores[block], valid[block])
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
        frame = pl.DataFrame({"group": group, "docno": gather(docno, rows.ravel()[cell])})
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


def _score_order(scores: np.ndarray, valid: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each row's columns sorted by score, descending (padding last), and whether
    each sorted key equals the one before it above the column bits (a possible tie)."""
    n, w = scores.shape
    bits = max(int(w - 1).bit_length(), 1)
    low = np.uint64((1 << bits) - 1)
    full = bool(valid.all())
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


def pair_keys(query: np.ndarray, docno: pl.Series) -> np.ndarray:
    """A 64-bit key for each (query code, docno) pair: the docno's hash XOR the
    code times an odd constant. Equal pairs have equal keys; two distinct pairs
    share one with a chance of about 2^-64, so every use verifies its matches."""
    keys = query.astype(np.uint64)
    keys *= _MIX
    keys ^= docno.hash(seed=0).to_numpy()
    return keys


def may_repeat(keys: np.ndarray) -> bool:
    """Whether two of the keys are equal: a repeated pair or (rarely) a hash
    collision, which :func:`first_repeat` tells apart."""
    s = np.sort(keys)
    return bool((s[1:] == s[:-1]).any())


def first_repeat(query: np.ndarray, docno: pl.Series) -> int | None:
    """The first row whose (query, docno) pair is on an earlier row too, or ``None``
    (exact: compares the strings)."""
    frame = pl.DataFrame({"query": query, "docno": docno})
    again = ~frame.select(pl.struct("query", "docno").is_first_distinct()).to_series()
    rows = again.arg_true()
    return int(rows[0]) if len(rows) else None


def match_in_rows(
    r_hash: np.ndarray, r_index: np.ndarray, q_hash: np.ndarray, q_index: np.ndarray
) -> np.ndarray | None:
    """Match each query's run documents to its qrels documents by docno hash.

    ``r_hash`` and ``q_hash`` are ``queries × width`` matrices of docno hashes
    (any uint64), ``r_index`` and ``q_index`` the run and qrels rows they come
    from (-1: padding). Each query's hashes, with their column in the low bits,
    are sorted together, so equal hashes become neighbours. Returns the qrels
    row of every run row (-1: unjudged), or ``None`` when a query holds two
    equal hashes that are not one run and one qrels document (a repeated docno,
    or a hash collision), which the caller must then sort out exactly. The
    matches are of hashes: the caller compares the strings.
    """
    found = np.full(int(r_index.max(initial=-1)) + 1, -1, dtype=np.int64)
    for block in row_blocks((r_hash.shape[0], r_hash.shape[1] + q_hash.shape[1])):
        pairs = _block_pairs(r_hash[block], r_index[block], q_hash[block], q_index[block])
        if pairs is None:
            return None
        found[pairs[0]] = pairs[1]
    return found


def _block_pairs(r_hash, r_index, q_hash, q_index) -> tuple[np.ndarray, np.ndarray] | None:
    """(run rows, qrels rows) of the equal hashes in some queries (see :func:`match_in_rows`)."""
    nq, w = r_hash.shape
    width = w + q_hash.shape[1]
    bits = max(int(width - 1).bit_length(), 1)
    low = np.uint64((1 << bits) - 1)
    padding = np.iinfo(np.uint64).max  # above every real key, whose top bit is 0
    keys = np.empty((nq, width), dtype=np.uint64)
    for h, index, start in ((r_hash, r_index, 0), (q_hash, q_index, w)):
        cut = keys[:, start : start + h.shape[1]]
        np.right_shift(h, np.uint64(1), out=cut)
        cut &= ~low
        cut |= np.arange(start, start + h.shape[1], dtype=np.uint64)
        cut[index < 0] = padding
    keys.sort(axis=1)
    row, at = np.nonzero((keys[:, 1:] ^ keys[:, :-1]) <= low)  # equal above the low bits
    real = keys[row, at + 1] != padding
    row, at = row[real], at[real]
    first = (keys[row, at] & low).astype(np.intp)
    second = (keys[row, at + 1] & low).astype(np.intp)
    # in a group of equal hashes run columns (< w) come first: a run-run or a
    # qrels-qrels neighbour shows any group that is not one run-qrels pair
    if (second < w).any() or (first >= w).any():
        return None
    return r_index[row, first], q_index[row, second - w]


def match_rows(
    q_docno: pl.Series,
    judged_rows: Grouping,
    r_docno: pl.Series,
    run_rows: Grouping,
    r_index: np.ndarray,
) -> np.ndarray | None:
    """The qrels row of each run row (-1: unjudged) by docno hashes within each
    query (:func:`match_in_rows`), checked on the strings; ``None``
    when hashes repeat or a match is not one."""
    hashes = [
        rows.pad(d.hash(seed=0).to_numpy(), 0)
        for d, rows in ((r_docno, run_rows), (q_docno, judged_rows))
    ]
    q_index = judged_rows.pad(np.arange(len(q_docno), dtype=np.int64), -1)
    found = match_in_rows(hashes[0], r_index, hashes[1], q_index)
    if found is not None:
        hit = np.flatnonzero(found >= 0)
        if not (gather(q_docno, found[hit]) == gather(r_docno, hit)).all():
            return None
    return found


def exact_match(
    q_query: np.ndarray, q_docno: pl.Series, r_query: np.ndarray, r_docno: pl.Series
) -> np.ndarray:
    """The qrels row of each run row's (query, docno) pair, or -1: a join on the
    strings themselves (qrels pairs distinct)."""
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
    the values are reshaped, with no per-element scatter. If the groups come in
    another order than their codes, their rows are permuted (``rows``), or, with
    ``keep_order``, left in the file's order: row ``row_of_code[c]`` then holds
    group ``c``, and the caller renumbers the groups.
    """

    def __init__(self, codes: np.ndarray, n_groups: int, keep_order: bool = False) -> None:
        sizes = np.bincount(codes, minlength=n_groups)
        width = max(int(sizes.max()) if len(sizes) else 0, 1)
        self.shape = (n_groups, width)
        self.order = self.flat = self.rows = self.row_of_code = None
        if len(codes) and np.all(sizes == width):
            firsts = codes[::width]
            if (codes.reshape(-1, width) == firsts[:, None]).all():  # contiguous blocks
                if not np.all(firsts[1:] > firsts[:-1]):
                    if keep_order:
                        self.row_of_code = np.argsort(firsts)
                    else:
                        self.rows = np.argsort(firsts)
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
