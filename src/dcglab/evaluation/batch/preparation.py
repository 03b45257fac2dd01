"""Reading a qrels and a run into padded arrays: all the string work of an evaluation.

:func:`prepare` reads both tables, codes the query ids in byte order, matches
each retrieved document with its judgment by hash (:mod:`dcglab.evaluation.batch.codes`), and
lays the run out as a ``queries × retrieved`` matrix, ranks it and looks up the
gains (:func:`dcglab.evaluation.batch.levels.level_gains`), each a named step of
:func:`_prepare`. The result, :class:`Prepared`, is what
:func:`dcglab.evaluation.batch.compute` sums.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from functools import cached_property
from typing import Unpack

import numpy as np

from dcglab.evaluation.batch.blocks import distinct_sorted
from dcglab.evaluation.batch.codes import (
    Grouping,
    equal_blocks,
    exact_match,
    match_rows,
    may_repeat,
    merged_codes,
    pair_keys,
    take_in_rows,
    trec_ranking,
)
from dcglab.evaluation.batch.levels import gain_table, read_grades
from dcglab.evaluation.batch.reader import Source, Table, qrels_table, raise_on_repeat, run_table
from dcglab.evaluation.batch.tokens import Strings, docno_hashes
from dcglab.evaluation.options import ConventionKeywords, Conventions
from dcglab.formulas.gains import GainSpec

__all__ = ["Prepared", "prepare"]


@dataclass(frozen=True)
class Prepared:
    """A run and its qrels as padded arrays, ready for :func:`compute`.

    ``ranked_scores`` and ``ranked_index`` are ``queries × retrieved`` matrices
    in trec_eval's ranking order (score descending, then docno bytes
    descending: :func:`dcglab.evaluation.batch.codes.trec_ranking`), cut at ``max_docs`` and
    condensed under ``judged_only``; padding (NaN score, index ``len(levels)``)
    comes after each query's documents. ``ranked_scores`` are rounded to
    float32 (and held as float64) under ``score_precision="float32"``.
    ``judged_gains`` holds each query's qrels gains sorted in decreasing order
    (padding 0).

    The grades behind the gains: ``levels`` are the distinct qrels grades,
    ascending; ``ranked_index`` and ``judged_index`` (a matrix like
    ``judged_gains``, unsorted) point into them, with ``len(levels)`` for an
    unjudged document or padding. ``level_gains`` are the gains of the levels
    under ``gain`` (and 0 at the end), ``level_rows`` the first qrels row of
    each level (for error messages). ``conventions`` are those the tables were
    read and laid out with.

    Rows follow the run file's order of queries when its query blocks are not
    in byte order of their ids (so that laying the run out moves no data);
    ``byte_order`` then lists the rows in byte order of ``qids``, and ``None``
    means they are in that order already.
    """

    qids: np.ndarray
    ranked_scores: np.ndarray
    ranked_index: np.ndarray
    judged_gains: np.ndarray
    levels: np.ndarray
    judged_index: np.ndarray
    level_gains: np.ndarray
    level_rows: np.ndarray
    conventions: Conventions
    qrels_origin: str
    byte_order: np.ndarray | None = None

    @property
    def gain(self) -> GainSpec:
        """The gain the levels' gains were computed with."""
        return self.conventions.gain

    @property
    def negative_grades(self) -> str:
        """How negative grades were read (``"gain"`` or ``"unjudged"``)."""
        return self.conventions.negative_grades

    @property
    def gains(self) -> np.ndarray:
        """The gain at each rank (a matrix like ``ranked_index``)."""
        return self.level_gains[self.ranked_index]

    @cached_property
    def retrieved(self) -> np.ndarray:
        """The number of ranked documents of each query (after ``max_docs`` and
        ``judged_only``)."""
        return (~np.isnan(self.ranked_scores)).sum(axis=1)


def prepare(
    qrels: Source,
    run: Source,
    *,
    conventions: Conventions | None = None,
    **options: Unpack[ConventionKeywords],
) -> Prepared:
    """Read, map ids to integers, look up grades and gains, and pad: all the string work.

    ``conventions`` and ``options`` are those of :func:`dcglab.evaluation.batch.evaluate`;
    the options of the ``"read"`` stage (:data:`dcglab.evaluation.options.OPTIONS`) apply
    here. Queries evaluated: those of the run that have qrels, as trec_eval
    does, or with ``missing="zero"`` every query of the qrels (trec_eval
    ``-c``); run queries without qrels are ignored. ``max_docs`` keeps each
    query's top documents in trec_eval's order (``-M``); ``judged_only`` then
    drops unjudged documents, so the judged ones move up (``-J``, the condensed
    list). Raises ``ValueError`` on a duplicate (qid, docno), naming the file
    and line.
    """
    c = Conventions.of(conventions, **options)
    return prepare_tables(*_read_both(qrels, run), c)


def prepare_tables(q: Table, r: Table, c: Conventions) -> Prepared:
    """:func:`prepare` of tables already read: scores rounded to float32 under
    ``score_precision="float32"``, grades truncated under ``fractional_grades="truncate"``,
    then the run laid out, ranked and matched with its judgments."""
    if c.score_precision == "float32":
        r = dataclasses.replace(r, value=r.value.astype(np.float32).astype(np.float64))
    if c.fractional_grades == "truncate":
        q = dataclasses.replace(q, value=read_grades(q.value, c.fractional_grades))
    return _prepare(q, r, c)


def _read_both(qrels: Source, run: Source) -> tuple[Table, Table]:
    """Both tables, the qrels read on another core while the run's checks run; a
    qrels error comes first, as when they are read one after the other."""
    with ThreadPoolExecutor(1) as other_core:
        pending = other_core.submit(qrels_table, qrels)
        try:
            r = run_table(run)
        finally:
            q = pending.result()
    return q, r


@dataclass(frozen=True)
class _Kept:
    """The queries evaluated, in byte order of their ids, and the rows of each
    table that belong to them (``r_rows`` ``None``: every run row). A run row's
    query number is its query's code in byte order (``r_code``), or under
    ``renumber`` (:func:`_in_run_order`) query ``c`` is number ``renumber[c]``."""

    qids: np.ndarray
    q_query: np.ndarray  # query number of each kept qrels row
    q_rows: np.ndarray  # the kept qrels rows
    r_code: np.ndarray  # query code (byte order) of each kept run row
    r_rows: np.ndarray | None
    r_sizes: np.ndarray  # the kept run rows of each query, by code
    renumber: np.ndarray | None = None

    def r_query(self, step: int = 1) -> np.ndarray:
        """The query number of every ``step``-th kept run row: only the fast path's
        block heads are needed, and the error paths' full list."""
        codes = self.r_code[::step]
        return codes if self.renumber is None else self.renumber[codes]


def _keep_queries(q: Table, r: Table, missing: str) -> _Kept:
    """Code both tables' query ids in byte order and keep the queries to evaluate:
    those of the run with qrels, or every qrels query (``missing="zero"``)."""
    (q_q, r_q), distinct = merged_codes((q.qid_code, q.qids), (r.qid_code, r.qids))
    if may_repeat(pair_keys(q_q, q.docno)):
        raise_on_repeat(q, q_q, q.docno, None, "qrels")
    n_codes = len(distinct)
    in_qrels = np.bincount(q_q, minlength=n_codes) > 0
    r_sizes = np.bincount(r_q, minlength=n_codes)
    in_run = r_sizes > 0
    if missing == "error" and (in_qrels & ~in_run).any():
        _refuse_missing(q, q_q, np.flatnonzero(in_qrels & ~in_run)[0], r.origin)
    keep = in_qrels & (in_run if missing == "ignore" else True)
    if not keep.any():
        raise ValueError(f"no query is in both the qrels ({q.origin}) and the run ({r.origin})")
    number = np.cumsum(keep) - 1
    qids = np.array([d for d, k in zip(distinct, keep.tolist()) if k], dtype=object)
    q_rows = np.flatnonzero(keep[q_q])
    r_rows = None if keep[in_run].all() else np.flatnonzero(keep[r_q])  # None: every run row
    if r_rows is not None:
        r_q = r_q[r_rows]
    # every query kept: the codes are the numbers already
    r_q = r_q.astype(np.int64, copy=False) if keep.all() else number[r_q]
    return _Kept(qids, number[q_q[q_rows]], q_rows, r_q, r_rows, r_sizes[keep])


@dataclass(frozen=True)
class _Layout:
    """The kept rows of both tables laid out by query: ``run_rows`` and
    ``judged_rows`` group the run's and the qrels' kept rows; ``r_index`` (the
    kept run row at each place, -1 for padding) and ``scores`` (NaN padding)
    are ``queries × retrieved`` matrices."""

    kept: _Kept
    run_rows: Grouping
    judged_rows: Grouping
    q_docno: Strings
    r_docno: Strings
    r_index: np.ndarray
    scores: np.ndarray


def _lay_out(q: Table, r: Table, missing: str) -> _Layout:
    """The queries to evaluate (:func:`_keep_queries`) and the run laid out by query,
    in the run file's order of queries when it is not byte order."""
    kept = _keep_queries(q, r, missing)
    nq = len(kept.qids)
    run_rows = Grouping(kept.r_code, nq, keep_order=True, sizes=kept.r_sizes)
    if run_rows.row_of_code is not None:
        kept = _in_run_order(kept, run_rows.row_of_code)
    r_scores = r.value if kept.r_rows is None else r.value[kept.r_rows]
    return _Layout(
        kept=kept,
        run_rows=run_rows,
        judged_rows=Grouping(kept.q_query, nq),
        q_docno=q.docno if len(kept.q_rows) == len(q) else q.docno.take(kept.q_rows),
        r_docno=r.docno if kept.r_rows is None else r.docno.take(kept.r_rows),
        r_index=run_rows.pad(np.arange(len(kept.r_code), dtype=np.int64), -1),
        scores=run_rows.pad(r_scores, np.nan),
    )


@dataclass(frozen=True)
class _Levels:
    """The distinct grades of the kept qrels (``levels``, ascending; ``level_rows``
    the first qrels row of each) and, as indices into them (``len(levels)``:
    unjudged or padding), the grade of each laid-out run place (``run_index``)
    and of each query's judged documents (``judged_index``)."""

    levels: np.ndarray
    level_rows: np.ndarray
    run_index: np.ndarray
    judged_index: np.ndarray


def _distinct(values: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``numpy.unique(values, return_index=True, return_inverse=True)`` for a few
    distinct values among many: the distinct values ascending (each as its first
    occurrence holds it), the first position of each, and each value's index
    among them; a sort of the values and a search of each, instead of an
    argsort."""
    distinct = distinct_sorted(values)
    inverse = np.searchsorted(distinct, values)
    first = np.full(len(distinct), len(values), dtype=np.intp)
    np.minimum.at(first, inverse, np.arange(len(values)))
    return values[first], first, inverse


def _grade_levels(q: Table, r: Table, lay: _Layout, r_hash: np.ndarray) -> _Levels:
    """Each retrieved document matched with its judgment by hash
    (:func:`dcglab.evaluation.batch.codes.match_rows`; exactly on equal hashes) and both tables'
    grades as level indices; ``r_hash`` holds the hashes of the run's docnos
    (:func:`dcglab.evaluation.batch.matching.docno_hashes`)."""
    kept = lay.kept
    levels, level_rows, q_level = _distinct(q.value[kept.q_rows])
    unjudged = len(levels)
    if kept.r_rows is not None:
        r_hash = r_hash[kept.r_rows]
    found = match_rows(lay.q_docno, lay.judged_rows, lay.r_docno, lay.run_rows, lay.r_index, r_hash)
    if found is None:  # equal hashes: a repeated docno (an error) or a collision
        raise_on_repeat(r, kept.r_query(), lay.r_docno, kept.r_rows, "run")
        found = exact_match(kept.q_query, lay.q_docno, kept.r_query(), lay.r_docno)
    # each run row's level, through its qrels row (-1, unjudged: the last entry)
    r_level = np.append(q_level, unjudged).astype(np.min_scalar_type(unjudged))[found]
    return _Levels(
        levels=levels,
        level_rows=kept.q_rows[level_rows],
        run_index=lay.run_rows.pad(r_level, unjudged),
        judged_index=lay.judged_rows.pad(q_level.astype(np.int64), unjudged),
    )


def _prepare(q: Table, r: Table, c: Conventions) -> Prepared:
    """The steps of :func:`prepare` after reading: lay the run out, rank it (on the
    other core, cut at ``max_docs``), match the judgments, look up the gains, and
    under ``judged_only`` condense the ranking."""
    with ThreadPoolExecutor(1) as other_core:  # numpy and the tokenizer release the GIL
        hashed = other_core.submit(docno_hashes, r.docno)  # first: matching needs them soonest
        blocks = other_core.submit(equal_blocks, r.qid_code)
        # ranked while the queries are sorted out, cut at max_docs (-M)
        early = other_core.submit(_file_ranking, r, blocks, c.max_docs)
        lay = _lay_out(q, r, c.missing)
        laid_out = (lay.scores, lay.r_index, lay.r_docno)
        ranked = _ranking(other_core, blocks, early, lay.run_rows, lay.kept, laid_out, c.max_docs)
        # what does not need the ranking is done while it is computed
        lv = _grade_levels(q, r, lay, hashed.result())
        table = gain_table(lv.levels, c.gain, c.negative_grades, lv.level_rows, q)
        judged_gains = -np.sort(-table[lv.judged_index], axis=1)
        order, ranked_scores = ranked()
    ranked_index = take_in_rows(lv.run_index, order)
    if c.judged_only:  # the condensed list: unjudged documents leave, the judged move up
        unjudged = len(lv.levels)
        drop = ranked_index == unjudged
        if c.negative_grades == "unjudged":
            drop |= np.append(lv.levels < 0, False)[ranked_index]
        ranked_scores, ranked_index = _condensed(drop, ranked_scores, ranked_index, unjudged)
    return Prepared(
        qids=lay.kept.qids,
        ranked_scores=ranked_scores,
        ranked_index=ranked_index,
        judged_gains=judged_gains,
        levels=lv.levels,
        judged_index=lv.judged_index,
        level_gains=table,
        level_rows=lv.level_rows,
        conventions=c,
        qrels_origin=q.origin,
        byte_order=lay.run_rows.row_of_code,
    )


def _condensed(
    drop: np.ndarray, scores: np.ndarray, index: np.ndarray, unjudged: int
) -> tuple[np.ndarray, np.ndarray]:
    """Ranked matrices without the ``drop`` documents: the others keep their
    order and move up, padding fills each row's end."""
    order = np.argsort(drop, axis=1, kind="stable")  # kept documents first, in rank order
    scores = np.where(drop, np.nan, scores)
    index = np.where(drop, unjudged, index).astype(index.dtype)
    return take_in_rows(scores, order), take_in_rows(index, order)


def _ranked(
    scores: np.ndarray, rows: np.ndarray | None, docno: Strings, depth: int | None
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`dcglab.evaluation.batch.codes.trec_ranking` of a padded matrix cut at its first
    ``depth`` columns (``max_docs``, trec_eval's ``-M``; ``None``: all), and the
    scores in that order."""
    order = trec_ranking(scores, rows, docno)[:, :depth]
    return order, take_in_rows(scores, order)


def _file_ranking(
    r: Table, blocks: Future, depth: int | None
) -> tuple[np.ndarray, np.ndarray] | None:
    """The run's documents ranked block by block (one row per query block, in
    file order), when the file holds equal blocks (``blocks``: their length,
    from :func:`dcglab.evaluation.batch.codes.equal_blocks`), which needs no query codes."""
    width = blocks.result()
    if width is None:
        return None
    return _ranked(r.value.reshape(len(r) // width, width), None, r.docno, depth)


def _ranking(
    pool: ThreadPoolExecutor,
    blocks: Future,
    early: Future,
    run_rows: Grouping,
    kept: _Kept,
    laid_out: tuple[np.ndarray, np.ndarray, Strings],
    depth: int | None,
) -> Callable[[], tuple[np.ndarray, np.ndarray]]:
    """A function giving the ranking of the laid-out run (``laid_out``: the
    scores, rows and docnos that :func:`dcglab.evaluation.batch.codes.trec_ranking` takes) and
    the scores in rank order, both cut at ``depth`` (:func:`_ranked`) and
    computed on ``pool``.

    When the file holds equal blocks as long as the layout's rows, the early
    ranking of the file's blocks (:func:`_file_ranking`) is placed in the rows
    of its queries (a query without documents gets a row of padding);
    otherwise the ranking is computed now.
    """
    width = blocks.result()
    n, w = run_rows.shape
    if width is None or width != w:
        return pool.submit(_ranked, *laid_out, depth).result
    kept_blocks = slice(None) if kept.r_rows is None else kept.r_rows[::width] // width
    rows = kept.r_query(width)  # the layout's row of each kept block

    def placed() -> tuple[np.ndarray, np.ndarray]:
        order, scores = (part[kept_blocks] for part in early.result())
        if len(rows) == n and np.array_equal(rows, np.arange(n)):
            return order, scores
        cut = order.shape[1]
        out = np.tile(np.arange(cut, dtype=order.dtype), (n, 1)), np.full((n, cut), np.nan)
        out[0][rows], out[1][rows] = order, scores
        return out

    return placed


def _in_run_order(kept: _Kept, row_of_code: np.ndarray) -> _Kept:
    """The same queries numbered in the run file's order: query ``c`` (in byte
    order) becomes number ``row_of_code[c]``."""
    return dataclasses.replace(
        kept,
        qids=kept.qids[np.argsort(row_of_code)],
        q_query=row_of_code[kept.q_query],
        renumber=row_of_code,
    )


def _refuse_missing(q: Table, q_q: np.ndarray, code: int, run_origin: str) -> None:
    """Raise on the first qrels query (in byte order) that has no run line."""
    row = int(np.flatnonzero(q_q == code)[0])
    raise ValueError(
        f"query {q.qid(row)} of the qrels ({q.origin}) has no line in the run ({run_origin}), "
        "which trec_eval refuses; -c (missing='zero') scores it 0, "
        "missing='ignore' leaves it out"
    )
