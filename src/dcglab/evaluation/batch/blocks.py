"""Rows a block at a time, and rows grouped into padded matrices: the layout of the
batch evaluator's per-query matrices (one row per query, one column per document).

Large per-row steps work a block of rows at a time (:func:`row_blocks`), so that their
temporaries stay small and are reused; :class:`Grouping` places the rows of each query
in one row of a padded matrix.
"""

from __future__ import annotations

import numpy as np

__all__ = ["BLOCK", "Grouping", "distinct_sorted", "equal_blocks", "row_blocks", "take_in_rows"]


BLOCK = 1 << 18
"""Elements per block of rows in the per-row steps: their temporaries stay a few
megabytes, reused from block to block, instead of fresh arrays the size of the
run, whose first touch costs a page fault per page."""


def row_blocks(shape: tuple[int, int], size: int | None = None) -> list[slice]:
    """Slices of the rows of a ``shape`` matrix, about ``size`` elements each
    (``None``: :data:`BLOCK`).

    Examples
    --------
    >>> row_blocks((5, 100_000))[:2]
    [slice(0, 2, None), slice(2, 4, None)]
    """
    n, w = shape
    step = max(1, (BLOCK if size is None else size) // max(w, 1))
    return [slice(lo, min(lo + step, n)) for lo in range(0, n, step)]


def equal_blocks(codes: np.ndarray) -> int | None:
    """The common length of the blocks of equal codes, when each code forms one
    block and all blocks are equally long (a run grouped by query, with as many
    documents for every query); otherwise ``None``.

    Examples
    --------
    >>> equal_blocks(np.array([1, 1, 0, 0])), equal_blocks(np.array([1, 0, 1]))
    (2, None)
    """
    if len(codes) == 0:
        return None
    heads = np.flatnonzero(codes[1:] != codes[:-1]) + 1
    width = int(heads[0]) if len(heads) else len(codes)
    if len(codes) % width or len(heads) != len(codes) // width - 1:
        return None
    if len(heads) and not (np.diff(heads) == width).all():
        return None
    firsts = codes[::width]
    return width if len(distinct_sorted(firsts)) == len(firsts) else None


def distinct_sorted(values: np.ndarray) -> np.ndarray:
    """The distinct values, ascending: ``numpy.unique`` without its import of
    ``numpy.ma`` (20 ms of a small run's start-up).

    Examples
    --------
    >>> distinct_sorted(np.array([3, 1, 3, 2])).tolist()
    [1, 2, 3]
    """
    s = np.sort(values)
    return s[np.r_[True, s[1:] != s[:-1]]] if len(s) else s


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


class Grouping:
    """Rows grouped by an integer code into a padded ``n_groups × width`` matrix.

    A run file is usually already grouped by query with equal list lengths; then
    the values are reshaped, with no per-element scatter. If the groups come in
    another order than their codes, their rows are permuted (``rows``), or, with
    ``keep_order``, left in the file's order: row ``row_of_code[c]`` then holds
    group ``c``, and the caller renumbers the groups. ``sizes``, the rows of each
    group, are counted unless the caller has them already.
    """

    def __init__(
        self,
        codes: np.ndarray,
        n_groups: int,
        keep_order: bool = False,
        sizes: np.ndarray | None = None,
    ) -> None:
        if sizes is None:
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
