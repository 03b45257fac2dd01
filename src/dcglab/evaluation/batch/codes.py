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

from dcglab.evaluation.batch.blocks import Grouping, equal_blocks, row_blocks, take_in_rows
from dcglab.evaluation.batch.matching import (
    exact_match,
    first_repeat,
    match_in_rows,
    match_rows,
    may_repeat,
    pair_keys,
)
from dcglab.evaluation.batch.tokens import Strings, sort_ties

__all__ = [
    "Grouping",
    "average_ties",
    "equal_blocks",
    "exact_match",
    "first_repeat",
    "lexicographic_codes",
    "match_in_rows",
    "match_rows",
    "may_repeat",
    "merged_codes",
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


def trec_ranking(scores: np.ndarray, rows: np.ndarray | None, docno: Strings) -> np.ndarray:
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
    group by group on the full key and then the docno, compared byte by byte
    as ``strcmp`` does (:func:`dcglab.evaluation.batch.tokens.sort_ties`). Rows are taken
    a block at a time (:func:`row_blocks`).

    Examples
    --------
    >>> scores, rows = np.array([[1.0, 2.0, 1.0, 0.0]]), np.array([[0, 1, 2, -1]])
    >>> trec_ranking(scores, rows, Strings.of(["b", "a", "a"])).tolist()
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
        cell = (at // w) * w + flat[at]
        key = sortable_bits(scores.ravel()[cell])
        at_docno = cell if rows is None else rows.ravel()[cell]
        bounds = np.append(np.flatnonzero(starts), len(at))
        order = sort_ties(docno.take(at_docno), key, bounds)
        flat[at] = flat[at[order]]  # the k-th tied document in order: k-th tied place
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


def merged_codes(*columns: tuple[np.ndarray, Sequence[str]]) -> tuple[list[np.ndarray], list[str]]:
    """Codes of the ids of several tables in one numbering that increases with
    their byte order (C's ``strcmp``), and the distinct ids in code order. Each
    table's column is given as its codes into its own distinct ids (``(codes,
    ids)``, as the tokenizer gives them); only the distinct ids are sorted.

    Examples
    --------
    >>> codes, ids = merged_codes((np.array([0, 1, 0]), ["q2", "q10"]), (np.array([0]), ["q1"]))
    >>> [c.tolist() for c in codes], ids
    ([[2, 1, 2], [0]], ['q1', 'q10', 'q2'])
    """
    distinct = sorted({q for _, ids in columns for q in ids}, key=str.encode)
    number = {q: i for i, q in enumerate(distinct)}
    dtype = np.int32 if len(distinct) < 2**31 else np.int64
    codes = []
    for code, ids in columns:
        remap = np.fromiter((number[q] for q in ids), dtype=dtype, count=len(ids))
        codes.append(remap[code])
    return codes, distinct


def lexicographic_codes(values: Sequence[str]) -> tuple[np.ndarray, list[str]]:
    """Integer codes of strings, increasing with their byte order (C's ``strcmp``),
    and the distinct strings in code order.

    Examples
    --------
    >>> codes, distinct = lexicographic_codes(["d10", "d9", "d10", "a"])
    >>> codes.tolist(), distinct
    ([1, 2, 1, 0], ['a', 'd10', 'd9'])
    """
    index: dict[str, int] = {}
    first = np.fromiter(
        (index.setdefault(v, len(index)) for v in values), dtype=np.int64, count=len(values)
    )
    (codes,), distinct = merged_codes((first, list(index)))
    return codes, distinct
