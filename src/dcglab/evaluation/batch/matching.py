"""(query, docno) pairs: 64-bit keys, repeats, and the qrels row of each run row.

Run rows find their qrels row through 64-bit hashes of the docnos within each query
(:func:`match_in_rows`), verified against the strings (:func:`match_rows`); when
hashes collide, a join on the strings themselves decides (:func:`exact_match`).
"""

from __future__ import annotations

import numpy as np

from dcglab.evaluation.batch.blocks import Grouping, row_blocks
from dcglab.evaluation.batch.tokens import Strings, docno_hashes

__all__ = [
    "docno_hashes",
    "exact_match",
    "first_repeat",
    "match_in_rows",
    "match_rows",
    "may_repeat",
    "pair_keys",
]


_MIX = np.uint64(0x9E3779B97F4A7C15)  # an odd 64-bit constant (2^64 over the golden ratio)


def pair_keys(query: np.ndarray, docno: Strings) -> np.ndarray:
    """A 64-bit key for each (query code, docno) pair: the docno's hash XOR the
    code times an odd constant. Equal pairs have equal keys; two distinct pairs
    share one with a chance of about 2^-64, so every use verifies its matches."""
    keys = query.astype(np.uint64)
    keys *= _MIX
    keys ^= docno_hashes(docno)
    return keys


def may_repeat(keys: np.ndarray) -> bool:
    """Whether two of the keys are equal: a repeated pair or (rarely) a hash
    collision, which :func:`first_repeat` tells apart."""
    s = np.sort(keys)
    return bool((s[1:] == s[:-1]).any())


def first_repeat(query: np.ndarray, docno: Strings) -> int | None:
    """The first row whose (query, docno) pair is on an earlier row too, or ``None``
    (exact: rows whose keys (:func:`pair_keys`) repeat are compared as strings).

    Examples
    --------
    >>> first_repeat(np.array([0, 1, 0, 0]), Strings.of(["a", "a", "b", "a"]))
    3
    """
    keys = pair_keys(query, docno)
    order = np.argsort(keys, kind="stable")
    s = keys[order]
    same = s[1:] == s[:-1]
    if not same.any():
        return None
    rows = np.unique(order[np.flatnonzero(np.r_[same, False] | np.r_[False, same])])
    seen: set[tuple[int, bytes]] = set()
    for row in rows.tolist():  # in file order: the first pair seen twice
        pair = (int(query[row]), docno.raw(row))
        if pair in seen:
            return row
        seen.add(pair)
    return None


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
    q_docno: Strings,
    judged_rows: Grouping,
    r_docno: Strings,
    run_rows: Grouping,
    r_index: np.ndarray,
    r_hash: np.ndarray | None = None,
) -> np.ndarray | None:
    """The qrels row of each run row (-1: unjudged) by docno hashes within each
    query (:func:`match_in_rows`), checked on the strings; ``None``
    when hashes repeat or a match is not one. ``r_hash``: the run docnos'
    hashes (:func:`docno_hashes`), when computed already."""
    r_hash = docno_hashes(r_docno) if r_hash is None else r_hash
    hashes = [run_rows.pad(r_hash, 0), judged_rows.pad(docno_hashes(q_docno), 0)]
    q_index = judged_rows.pad(np.arange(len(q_docno), dtype=np.int64), -1)
    found = match_in_rows(hashes[0], r_index, hashes[1], q_index)
    if found is not None:
        hit = np.flatnonzero(found >= 0)
        if not q_docno.take(found[hit]).equals(r_docno.take(hit)):
            return None
    return found


def exact_match(
    q_query: np.ndarray, q_docno: Strings, r_query: np.ndarray, r_docno: Strings
) -> np.ndarray:
    """The qrels row of each run row's (query, docno) pair, or -1: a join on the
    strings themselves (qrels pairs distinct).

    Examples
    --------
    >>> q = Strings.of(["a", "b"])
    >>> exact_match(np.array([0, 0]), q, np.array([0, 1, 0]), Strings.of(["b", "a", "c"])).tolist()
    [1, -1, -1]
    """
    row = {(int(c), q_docno.raw(i)): i for i, c in enumerate(q_query.tolist())}
    return np.array(
        [row.get((int(c), r_docno.raw(i)), -1) for i, c in enumerate(r_query.tolist())],
        dtype=np.int64,
    )
