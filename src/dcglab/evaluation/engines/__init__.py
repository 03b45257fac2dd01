r"""nDCG where the data lives: the batch evaluation run by DuckDB or Spark.

One SQL query (:func:`dcglab.engines.sql.evaluation_sql`) does the ranking,
trec_eval's ``-M`` and ``-J``, the join with the qrels and the sums, added in
trec_eval's order; the engine runs it next to the data and returns one row per
query. The gains come from :func:`dcglab.batch.levels.level_gains`, the discounts
from :mod:`dcglab.discounts` (:func:`dcglab.engines.sql.discount_rows`) and the
division with its IDCG = 0 policy from :func:`dcglab.measures.ndcg_ratio`, so
every formula stays in one place, and the printed values equal those of
:func:`dcglab.batch.evaluate` and of trec_eval 10.0.

Each engine is an adapter (:class:`dcglab.engines.adapter.Adapter`):
:class:`~dcglab.engines.duckdb_adapter.DuckDBAdapter` and
:class:`~dcglab.engines.spark_adapter.SparkAdapter`. Text files and DataFrames
are read by :mod:`dcglab.batch.reader`, the default path's reader, so every path accepts
and refuses the same input.

Examples
--------
::

    from dcglab.engines import evaluate
    evaluate("qrels.txt", "run.parquet", ["ndcg_cut.10", "ndcg"], zero_idcg="zero")
    evaluate(spark_qrels_df, spark_run_df, ["ndcg"], engine="spark")  # on a cluster

DuckDB and PySpark are imported only when an engine is used: ``import dcglab``
needs neither.
"""

from __future__ import annotations

import os
import uuid
import warnings
from collections.abc import Callable, Sequence
from typing import Any, Literal, Unpack

import numpy as np
import pandas as pd
import polars as pl

from ..batch.levels import level_gains, read_grades
from ..batch.result import BatchResult
from ..batch.scoring import measure_list
from ..gains import GainSpec
from ..measures import ndcg_ratio
from ..options import ConventionKeywords, Conventions, check_option
from .adapter import Adapter, EngineError, Opened, check_rows, open_view, projected
from .duckdb_adapter import DuckDBAdapter
from .spark_adapter import SparkAdapter, import_spark, local_spark
from .sql import dcg_measures, depths, discount_rows, evaluation_sql, gains_sql, sum_columns

Engine = Literal["duckdb", "spark"]
ADAPTERS: dict[str, Callable[..., Adapter]] = {
    "duckdb": lambda connection=None, spark=None, config=None: DuckDBAdapter(connection, config),
    "spark": lambda connection=None, spark=None, config=None: SparkAdapter(spark),
}
"""Each engine's adapter, built from :func:`evaluate`'s engine arguments."""
ENGINES = tuple(ADAPTERS)

__all__ = [
    "ENGINES",
    "EngineError",
    "evaluate",
    "evaluate_files",
    "evaluation_sql",
    "gains_of",
    "local_spark",
]


def gains_of(grades: np.ndarray, gain: GainSpec, negative_grades: str = "gain") -> np.ndarray:
    """The gain of each distinct grade, as the batch evaluator computes it
    (:func:`dcglab.batch.levels.level_gains`, without its trailing entry for unjudged
    documents): with ``negative_grades="unjudged"`` a negative grade gains 0, and a
    gain that is not a finite number is an error naming the grade."""
    return level_gains(np.asarray(grades, dtype=float), gain, negative_grades)[:-1]


def _grades(db: Adapter, qv: Opened, rv: Opened, qrels: str, run: str, every: bool) -> np.ndarray:
    """The distinct grades of the evaluated queries (``every``: of all the qrels,
    ``-c``), ascending, from the tables read here or by the engine."""
    if qv.frame is not None and (every or rv.frame is not None):
        frame = qv.frame
        if not every:
            frame = frame.filter(pl.col("qid").is_in(rv.frame.get_column("qid").implode()))
        return np.sort(frame.get_column("grade").unique().to_numpy())
    where = (
        ""
        if every
        else f" WHERE CAST(qid AS STRING) IN (SELECT CAST(qid AS STRING) FROM {run} AS u)"
    )
    rows = db.sql(f"SELECT DISTINCT CAST(grade AS DOUBLE) FROM {qrels} AS t{where}")
    return np.sort(np.array([g for (g,) in rows], dtype=float))


def _gains_table(grades: np.ndarray, origin: str, c: Conventions) -> str:
    """The ``gains(grade, gain, pooled)`` table of the qrels' grades, as SQL.

    With ``fractional_grades="truncate"`` each grade counts as its integer part,
    as trec_eval reads it (C's ``atol``). ``pooled`` is whether a document with
    the grade counts as judged for ``-J``: with ``negative_grades="unjudged"`` a negative
    grade is in the pool but not judged (trec_eval 10.0's ``RELVALUE_UNJUDGED``,
    ``form_res_rels.c``).
    """
    read = read_grades(grades, c.fractional_grades)
    unjudged = c.negative_grades == "unjudged"
    pooled = read >= 0 if unjudged else np.ones(len(read), dtype=bool)
    try:
        gains = gains_of(read, c.gain, c.negative_grades)
    except ValueError as exc:
        raise ValueError(f"{origin}: {exc}") from None
    return f"({gains_sql(grades, gains, pooled)})"


def _refuse_missing(db: Adapter, qv: Opened, rv: Opened, qrels: str, run: str) -> None:
    """Raise on the first qrels query (in byte order) without a run line, as
    trec_eval does without ``-c``."""
    if qv.frame is not None and rv.frame is not None:
        qids = qv.frame.get_column("qid").unique()
        absent = qids.filter(~qids.is_in(rv.frame.get_column("qid").unique().implode()))
        qid = min(absent.to_list(), key=str.encode, default=None)
    else:
        (qid,) = db.sql(
            f"SELECT MIN(CAST(qid AS STRING)) FROM {qrels} AS t "
            f"WHERE CAST(qid AS STRING) NOT IN (SELECT CAST(qid AS STRING) FROM {run} AS u)"
        )[0]
    if qid is not None:
        raise ValueError(
            f"query {qid} of the qrels ({qv.origin}) has no line in the run ({rv.origin}), "
            "which trec_eval refuses; -c (missing='zero') scores it 0, "
            "missing='ignore' leaves it out"
        )


def _longest(db: Adapter, qv: Opened, rv: Opened, qrels: str, run: str) -> int:
    """The most lines any query has in the run or in the qrels."""
    if qv.frame is not None and rv.frame is not None:
        return max(int(v.frame.get_column("qid").value_counts()["count"].max()) for v in (qv, rv))
    (n,) = db.sql(
        f"SELECT MAX(n) FROM (SELECT COUNT(*) AS n FROM {run} AS t GROUP BY qid "
        f"UNION ALL SELECT COUNT(*) AS n FROM {qrels} AS u GROUP BY qid) AS c"
    )[0]
    return int(n or 0)


def _discounts_table(db: Adapter, discount, depth: tuple[int | None, int | None], longest) -> str:
    """The ``discounts(rnk, mul, div)`` table for as many ranks as any list needs:
    ``depth`` (:func:`dcglab.engines.sql.depths`), or ``longest()`` where that is
    ``None``."""
    system, best = depth
    n = max(system or 0, best or 0)
    if system is None or best is None:
        n = max(n, longest())
    rnk, mul, div = zip(*discount_rows(discount, max(n, 1)))
    name = f"dcglab_discounts_{uuid.uuid4().hex[:8]}"
    db.frame_view(pl.DataFrame({"rnk": rnk, "mul": mul, "div": div}), name)
    return name


def evaluate(
    qrels: Any,
    run: Any,
    measures: Sequence[str] = ("ndcg_cut.10",),
    *,
    engine: Engine = "duckdb",
    connection: Any = None,
    spark: Any = None,
    config: dict | None = None,
    check: bool = True,
    conventions: Conventions | None = None,
    **options: Unpack[ConventionKeywords],
) -> BatchResult:
    r"""nDCG of every query, computed by a SQL engine where the data is.

    The same measures and conventions as :func:`dcglab.batch.evaluate`, and the
    same result type; the ranking, the join and the sums run in the engine
    (:func:`dcglab.engines.sql.evaluation_sql`), and only one row per query comes
    back to Python.

    Parameters
    ----------
    qrels, run
        A TREC file or Parquet file/folder path, a pandas or polars DataFrame, a
        DuckDB relation (``engine="duckdb"``) or a Spark DataFrame
        (``engine="spark"``). Columns: ``qid, docno, grade`` (or ``relevance``)
        and ``qid, docno, score``. Text files and DataFrames are read by
        :func:`dcglab.batch.reader.read_table`, as on the default path.
    measures : sequence of str
        ``ndcg``, ``ndcg_cut.K`` (``K`` may be a comma list), ``nDCG@K``, ``dcg``,
        ``dcg_cut.K``; any other measure is an error naming the engine.
    engine : {"duckdb", "spark"}, default ``"duckdb"``
    connection : duckdb.DuckDBPyConnection, optional
        DuckDB connection to use; by default a new in-memory one (or the
        relations' own connection).
    spark : pyspark.sql.SparkSession, optional
        Spark session to use; by default the DataFrames' session, the active
        session, or a new ``local[2]`` session (:func:`local_spark`).
    config : dict, optional
        DuckDB settings for a new connection, e.g. ``{"memory_limit": "8GB",
        "temp_directory": "/tmp/duck"}`` for out-of-core runs.
    check : bool, default True
        For Parquet and the engine's own tables: reject missing ids, non-finite
        values and repeated (qid, docno) pairs, as the reader does for text;
        this costs one more pass over the run.
    conventions, **options
        As in :func:`dcglab.batch.evaluate`, checked by the same table
        (:data:`dcglab.options.OPTIONS`): ``max_docs`` cuts each ranking
        first, then ``judged_only`` drops the documents that are not judged,
        as trec_eval 10.0 does. ``relevance_level`` concerns the binary
        measures only, which the engines refuse.

    Returns
    -------
    BatchResult
        ``per_query`` has one row per evaluated query, sorted by qid.

    Raises
    ------
    ValueError
        For bad conventions or input; :class:`EngineError` (a ``ValueError``)
        when the engine is missing or the engine rejects the input.
    """
    check_option("engine", engine, ENGINES)
    c = Conventions.of(conventions, **options)
    measure_list(measures, c)
    sum_columns(measures, c.ideal, engine)  # a measure the engines lack, before any data
    db = ADAPTERS[engine](connection=connection, spark=spark, config=config)
    try:
        qv, rv, q, r = _tables(db, qrels, run, check)
        if c.missing == "error":
            _refuse_missing(db, qv, rv, q, r)
        grades = _grades(db, qv, rv, q, r, c.missing == "zero")
        if len(grades) == 0:
            raise ValueError(
                f"no query is in both the qrels ({qv.origin}) and the run ({rv.origin})"
            )
        text = evaluation_sql(
            measures,
            dialect=db.dialect,
            conventions=c,
            run=r,
            qrels=q,
            gains=_gains_table(grades, qv.origin, c),
            discounts=_discounts_table(
                db, c.discount, depths(measures, c), lambda: _longest(db, qv, rv, q, r)
            ),
        )
        rows = db.sql(text)
    finally:
        db.close()
    return _result(rows, measures, c, engine)


def _tables(db: Any, qrels: Any, run: Any, check: bool) -> tuple:
    """Both inputs as engine views and the projected table names, their rows
    checked (``check``) where the reader has not checked them already."""
    qv = open_view(db, qrels, "qrels")
    rv = open_view(db, run, "run", None if qv.frame is None else qv.frame.get_column("qid"))
    q, r = projected(db, qv.name, "qrels"), projected(db, rv.name, "run")
    if check:
        for table, kind, view in ((q, "qrels", qv), (r, "run", rv)):
            if view.frame is None:
                check_rows(db, table, kind)
    return qv, rv, q, r


def _result(rows: list[tuple], measures, c: Conventions, engine: str) -> BatchResult:
    """Per-query sums from the engine to nDCG values, through :func:`ndcg_ratio`."""
    cols = sum_columns(measures, c.ideal, engine)
    dcg_cols = sorted({d for _, d, _ in cols})
    idcg_cols = sorted({i for _, _, i in cols if i is not None})
    frame = pd.DataFrame.from_records(rows, columns=["qid", *dcg_cols, *idcg_cols])
    frame["qid"] = frame["qid"].astype(object)
    order = sorted(range(len(frame)), key=lambda i: frame["qid"].iat[i].encode())
    frame = frame.iloc[order]
    qids = frame["qid"].to_numpy(dtype=object)
    out: dict[str, np.ndarray] = {}
    for name, d, i in cols:
        dcg = frame[d].to_numpy(dtype=float)
        if i is None:
            out[name] = dcg
        elif name not in out:
            idcg = frame[i].to_numpy(dtype=float)
            out[name] = ndcg_ratio(dcg, idcg, c.zero_idcg, queries=qids, measure=name)
    return BatchResult(qids, out, {m.name: m for m in dcg_measures(measures, engine)})


def _cli_spark():
    """The active SparkSession, or a quiet ``local[*]`` one (:func:`local_spark`)."""
    with warnings.catch_warnings():  # pyspark warns that it does not know this pandas
        warnings.simplefilter("ignore", FutureWarning)
        active = import_spark().SparkSession.getActiveSession()
        return active or local_spark("local[*]", quiet=True)


def evaluate_files(
    qrels: str | os.PathLike,
    run: str | os.PathLike,
    measures: Sequence[str],
    *,
    engine: Engine,
    conventions: Conventions | None = None,
    **options: Unpack[ConventionKeywords],
) -> BatchResult:
    """The command line's entry point: :func:`evaluate` on two paths.

    DuckDB gets a new in-memory connection with its default settings; Spark
    gets the active session or a quiet ``local[*]`` one (:func:`local_spark`),
    started only once the engine, the conventions and the measures are
    checked. Every failure, including a missing engine, is a ``ValueError``
    with a one-line message.
    """
    check_option("engine", engine, ENGINES)
    c = Conventions.of(conventions, **options)
    measure_list(measures, c)
    sum_columns(measures, c.ideal, engine)  # refuse a measure before Spark starts
    spark = _cli_spark() if engine == "spark" else None
    return evaluate(qrels, run, measures, engine=engine, spark=spark, conventions=c)
