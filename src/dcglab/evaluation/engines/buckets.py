"""The batch evaluation of one bucket of queries: what each Spark task runs.

Spark splits the run and the qrels into buckets by a hash of the query id, so
that each query's rows, of both tables, meet in one bucket
(:meth:`dcglab.evaluation.engines.spark_adapter.SparkAdapter.by_query`). Each
bucket, many queries at once, is evaluated here by the default path itself
(:func:`dcglab.evaluation.batch.preparation.prepare_tables` and
:func:`dcglab.evaluation.batch.scoring.compute`), so the engine computes every
measure the default path computes, with its numbers; the driver only puts the
buckets' rows together (:func:`joined`) and the summary over queries is
:class:`dcglab.evaluation.batch.result.BatchResult`'s.

A bucket's input and output are Arrow tables (Spark's exchange format with
Python workers). This module imports no engine: the workers need dcglab,
polars and pyarrow, not pyspark's SQL side.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import polars as pl

from dcglab.evaluation.batch.preparation import prepare_tables
from dcglab.evaluation.batch.reader import Table
from dcglab.evaluation.batch.result import BatchResult
from dcglab.evaluation.batch.scoring import compute, measure_list
from dcglab.evaluation.engines.adapter import EngineError, repeat_message
from dcglab.evaluation.options import Conventions

if TYPE_CHECKING:
    import pyarrow as pa

TEXT_FAMILIES = ("relstring",)
"""Families whose per-query value is text, not a number."""


def columns(measures: Sequence[str], c: Conventions) -> list[tuple[str, str]]:
    """The output names of ``measures`` and each one's Spark type (``double`` or
    ``string``), in the order :func:`evaluate_bucket` returns them as ``v0, v1, ...``."""
    return [
        (m.name, "string" if m.family in TEXT_FAMILIES else "double")
        for m in measure_list(measures, c)
    ]


def schema(measures: Sequence[str], c: Conventions) -> str:
    """The Spark schema (DDL) of :func:`evaluate_bucket`'s tables: ``qid``, an error
    row's ``stage`` and ``error`` (see :func:`joined`) and one column ``v<i>`` per
    output name."""
    values = "".join(f", v{i} {kind}" for i, (_, kind) in enumerate(columns(measures, c)))
    return f"qid string, stage int, error string{values}"


def _table(frame: pa.Table, value: str, origin: str) -> Table:
    """A bucket's qrels or run as the reader's :class:`Table` (already read and
    checked where it came from)."""
    data = pl.from_arrow(frame)
    return Table.of(
        data.get_column("qid").to_list(),
        data.get_column("docno").to_list(),
        data.get_column(value).to_numpy().astype(float, copy=False),
        origin,
    )


def _repeated(t: Table, kind: str) -> str | None:
    """The first (qid, docno) pair listed twice, as ``qid, docno`` (byte order), if any."""
    pairs = pl.DataFrame({"qid": t.qid_column().tolist(), "docno": t.docno.to_list()})
    twice = pairs.filter(pairs.is_duplicated())
    if twice.height == 0:
        return None
    return min((f"{q}, {d}" for q, d in twice.iter_rows()), key=str.encode)


def evaluate_bucket(
    qrels: pa.Table,
    run: pa.Table,
    measures: Sequence[str],
    c: Conventions,
    origins: tuple[str, str],
    repeats: tuple[bool, bool] = (True, True),
) -> pa.Table:
    """Every query of one bucket evaluated by the default path.

    ``qrels`` has columns ``qid, docno, grade``, ``run`` ``qid, docno, score``
    (ids as strings, values as doubles), each holding every row of the bucket's
    queries; ``origins`` names the two inputs in messages; ``repeats`` says
    whether to refuse a (qid, docno) pair listed twice in each
    (:func:`dcglab.evaluation.engines.adapter.check_rows`' rule, checked here
    because a bucket holds every row of its pairs). Returns one row per
    evaluated query (:func:`schema`), or a single error row (:func:`joined`).
    A bucket without an evaluated query returns no row.
    """
    import pyarrow as pa

    names = columns(measures, c)
    shape = _arrow_schema(names)
    q = _table(qrels, "grade", origins[0])
    r = _table(run, "score", origins[1])

    def error(stage: int, key: str, message: str) -> pa.Table:
        blank = {f"v{i}": [None] for i in range(len(names))}
        return pa.table({"qid": [key], "stage": [stage], "error": [message], **blank}, shape)

    for t, kind, check in ((q, "qrels", repeats[0]), (r, "run", repeats[1])):
        pair = _repeated(t, kind) if check else None
        if pair is not None:
            return error(0, pair, repeat_message(kind, pair))
    evaluated = q.qids if c.missing == "zero" else sorted(set(q.qids) & set(r.qids))
    if len(evaluated) == 0:
        return shape.empty_table()
    try:
        result = compute(prepare_tables(q, r, c), measures, conventions=c)
    except ValueError as exc:
        return error(1, min(evaluated, key=str.encode), str(exc))
    data = {"qid": result.qids.tolist(), "stage": [None] * len(result.qids)}
    data["error"] = data["stage"]
    for i, (name, _) in enumerate(names):
        data[f"v{i}"] = result.values[name]
    return pa.table(data, shape)


def _arrow_schema(names: list[tuple[str, str]]) -> pa.Schema:
    import pyarrow as pa

    kinds = {"double": pa.float64(), "string": pa.string()}
    return pa.schema(
        [("qid", pa.string()), ("stage", pa.int32()), ("error", pa.string())]
        + [(f"v{i}", kinds[kind]) for i, (_, kind) in enumerate(names)]
    )


def joined(table: pa.Table, measures: Sequence[str], c: Conventions, origins: tuple[str, str]):
    """The buckets' rows as one :class:`BatchResult`, queries in byte order of their
    ids (as the default path orders them).

    A bucket's error is raised instead: a repeated pair (stage 0, keyed by the
    pair) before an evaluation error (stage 1, keyed by the bucket's first
    query), the first key in byte order within a stage, so the message is the
    one a single pass over the whole table would give first.
    """
    data = pl.from_arrow(table)
    errors = data.filter(pl.col("error").is_not_null())
    if errors.height:
        rows = errors.select("stage", "qid", "error").iter_rows()
        stage, _, message = min(rows, key=lambda row: (row[0], row[1].encode()))
        raise (EngineError if stage == 0 else ValueError)(message)
    if data.height == 0:
        raise ValueError(f"no query is in both the qrels ({origins[0]}) and the run ({origins[1]})")
    qids = data.get_column("qid").to_list()
    order = sorted(range(len(qids)), key=lambda i: qids[i].encode())
    rows = pl.Series(order, dtype=pl.UInt32)
    values = {}
    for i, (name, kind) in enumerate(columns(measures, c)):
        column = data.get_column(f"v{i}").gather(rows)
        values[name] = (
            np.array(column.to_list(), dtype=object) if kind == "string" else column.to_numpy()
        )
    specs = measure_list(measures, c)
    return BatchResult(
        np.array([qids[i] for i in order], dtype=object), values, {m.name: m for m in specs}
    )
