"""The engines' evaluation: inputs made views, one SQL query run, measures finished.

:func:`evaluate` is the library's entry point and :func:`evaluate_files` the
command line's; both check the conventions and the measures before any engine
starts.
"""

from __future__ import annotations

import os
import uuid
import warnings
from collections.abc import Callable, Sequence
from typing import Any, Literal, Unpack

import numpy as np
import polars as pl

from dcglab.evaluation.batch.binary import level_flags
from dcglab.evaluation.batch.levels import level_gains, measure_gains, read_grades
from dcglab.evaluation.batch.result import BatchResult
from dcglab.evaluation.batch.scoring import measure_list, refuse_non_finite
from dcglab.evaluation.engines.adapter import (
    Adapter,
    Opened,
    check_rows,
    open_view,
    projected,
)
from dcglab.evaluation.engines.duckdb_adapter import DuckDBAdapter
from dcglab.evaluation.engines.measures import Plan, plan, refuse_others, values
from dcglab.evaluation.engines.spark_adapter import SparkAdapter, import_spark, spark_session
from dcglab.evaluation.engines.sql import depths, discount_rows, levels_sql, statistics_sql
from dcglab.evaluation.measure_names import Measure, is_ir_name
from dcglab.evaluation.options import ConventionKeywords, Conventions, check_option
from dcglab.formulas.gains import GainSpec

Engine = Literal["duckdb", "spark"]
ADAPTERS: dict[str, Callable[..., Adapter]] = {
    "duckdb": lambda connection=None, spark=None, config=None: DuckDBAdapter(connection, config),
    "spark": lambda connection=None, spark=None, config=None: SparkAdapter(spark),
}
"""Each engine's adapter, built from :func:`evaluate`'s engine arguments."""
ENGINES = tuple(ADAPTERS)
IR_OWN = ("Judged", "recip_rank", "iprec_at_recall")
"""Families whose ir_measures names give ir_measures' own numbers under
``ir_measures=True`` (:func:`dcglab.evaluation.batch.binary.binary_values`)."""
SPARK_MASTER = "DCGLAB_SPARK_MASTER"
"""The environment variable the command line reads a Spark master URL from."""


def gains_of(grades: np.ndarray, gain: GainSpec, negative_grades: str = "gain") -> np.ndarray:
    """The gain of each distinct grade, as the batch evaluator computes it
    (:func:`dcglab.evaluation.batch.levels.level_gains`, without its trailing entry for unjudged
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


def _levels_table(grades: np.ndarray, origin: str, c: Conventions, p: Plan) -> str:
    """The levels table of the qrels' grades, as SQL: each grade read as the
    ``fractional_grades`` convention reads it (:func:`read_grades`); whether it
    counts as judged and whether it is relevant at each of the plan's levels
    (:func:`dcglab.evaluation.batch.binary.level_flags`); its gain under each of
    the plan's gain tables (:func:`level_gains`, :func:`measure_gains`)."""
    read = read_grades(grades, c.fractional_grades)
    judged = level_flags(read, 0.0, c.negative_grades)[1][:-1]
    relevant = [level_flags(read, lv, c.negative_grades)[0][:-1] for lv in p.levels]
    try:
        tables = [gains_of(read, c.gain, c.negative_grades)]
    except ValueError as exc:
        raise ValueError(f"{origin}: {exc}") from None
    # a measure's own table: the error names the measure, as on the default path
    tables += [measure_gains(read, m, c.negative_grades)[:-1] for m in p.gains[1:]]
    for m, table in zip(p.gains[1:], tables[1:]):
        _refuse_trec_walk(m, c, read, table)
    return f"({levels_sql(grades, judged, tables, relevant)})"


def _refuse_trec_walk(m: Measure, c: Conventions, read: np.ndarray, gains: np.ndarray) -> None:
    """Refuse trec_eval's ``ndcg.G=V,...`` under ``corrected=False`` where trec_eval's
    own walk of the ideal (:func:`dcglab.evaluation.batch.all_trec.ideal_gains`: grades
    truncated, negative grades unjudged, gains compared as integers) can differ
    from the ideal sorted by gain, which DuckDB computes."""
    trec_table = isinstance(m.gain, dict) and m.name.startswith(f"{m.family}_")
    if c.corrected or not (trec_table and m.record.normalised and m.k is None):
        return
    negative = c.negative_grades == "gain" and bool((read < 0).any())
    if negative or not (np.all(read == np.trunc(read)) and np.all(gains == np.trunc(gains))):
        raise ValueError(
            f"engine 'duckdb' does not compute {m.name} on these grades: trec_eval orders "
            "its ideal by gains truncated to integers; the default path and Spark compute "
            "it (--engine python or spark), or corrected=True gives the ideal sorted by gain"
        )


def _refuse_missing(db: Adapter, qv: Opened, rv: Opened, qrels: str, run: str) -> None:
    """Raise on the first qrels query (in byte order) without a run line, as
    trec_eval does without ``-c``."""
    if qv.frame is not None and rv.frame is not None:
        qids = qv.frame.get_column("qid").unique()
        absent = qids.filter(~qids.is_in(rv.frame.get_column("qid").unique().implode()))
        qid = min(absent.to_list(), key=str.encode, default=None)
    else:
        ids = "SELECT DISTINCT CAST(qid AS STRING) AS qid FROM {} AS t"
        (qid,) = db.sql(
            f"SELECT MIN(q.qid) FROM ({ids.format(qrels)}) AS q "
            f"LEFT JOIN ({ids.format(run)}) AS r ON q.qid = r.qid WHERE r.qid IS NULL"
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
    ``depth`` (:func:`dcglab.evaluation.engines.sql.depths`), or ``longest()`` where that is
    ``None``."""
    system, best = depth
    n = max(system or 0, best or 0)
    if system is None or best is None:
        n = max(n, longest())
    rnk, mul, div = zip(*discount_rows(discount, max(n, 1)))
    name = f"dcglab_discounts_{uuid.uuid4().hex[:8]}"
    db.frame_view(pl.DataFrame({"rnk": rnk, "mul": mul, "div": div}), name)
    return name


def checked(measures: Sequence[str], engine: str, c: Conventions) -> list[Measure]:
    """The measures parsed and checked for ``engine``, before any data is read:
    refused under conventions that cannot compute them (as on the default path),
    and, on DuckDB, refused when it does not compute them
    (:func:`dcglab.evaluation.engines.measures.refuse_others`); Spark computes
    every measure the default path computes."""
    check_option("engine", engine, ENGINES)
    specs = measure_list(measures, c)
    if engine == "spark":  # the default path's own evaluation, per bucket of queries
        return specs
    refuse_others(measures, engine)
    variants = [m.name for m in specs if c.ir_measures and is_ir_name(m) and m.family in IR_OWN]
    if variants:
        raise ValueError(
            f"engine {engine!r} does not compute ir_measures' own variants of "
            f"{', '.join(variants)} (ir_measures=True); the default path and Spark do"
        )
    return specs


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
    r"""Every query's measures, computed by a SQL engine where the data is.

    The same measures and conventions as :func:`dcglab.evaluation.batch.evaluate`, and the
    same result type. On DuckDB the ranking, the join and the sums run in SQL
    (:func:`dcglab.evaluation.engines.sql.statistics_sql`), and only one row
    of statistics per query comes back to Python. On Spark each task evaluates
    buckets of whole queries with the default path
    (:meth:`dcglab.evaluation.engines.spark_adapter.SparkAdapter.bucketed`), and
    one row of values per query comes back to the driver.

    Parameters
    ----------
    qrels, run
        A TREC file or Parquet file/folder path, a pandas or polars DataFrame, a
        DuckDB relation (``engine="duckdb"``) or a Spark DataFrame
        (``engine="spark"``). Columns: ``qid, docno, grade`` (or ``relevance``)
        and ``qid, docno, score``. Text files and DataFrames are read by
        :func:`dcglab.evaluation.batch.reader.read_table`, as on the default path.
    measures : sequence of str
        As on the default path: trec_eval's names (``official``, ``map``,
        ``P.5,10``, ``ndcg_cut.10``, ``bpref``, ``ndcg.1=3,2=9`` ...) and
        ir_measures' (``nDCG@10``, ``AP@100``, ``P(rel=2)@10`` ...). Spark
        computes every measure of the default path; on DuckDB a family it does
        not compute (:data:`~dcglab.evaluation.engines.measures.COMPUTED`) is an
        error naming it.
    engine : {"duckdb", "spark"}, default ``"duckdb"``
    connection : duckdb.DuckDBPyConnection, optional
        DuckDB connection to use; by default a new in-memory one (or the
        relations' own connection).
    spark : pyspark.sql.SparkSession, optional
        Spark session to use (local or on a cluster); by default the
        DataFrames' session, the active session, or a new ``local[2]`` session
        (:func:`~dcglab.evaluation.engines.spark_adapter.spark_session`).
    config : dict, optional
        DuckDB settings for a new connection, e.g. ``{"memory_limit": "8GB",
        "temp_directory": "/tmp/duck"}`` for out-of-core runs.
    check : bool, default True
        For Parquet and the engine's own tables: reject missing ids, non-finite
        values and repeated (qid, docno) pairs, as the reader does for text;
        this costs one more pass over the run.
    conventions, **options
        As in :func:`dcglab.evaluation.batch.evaluate`, checked by the same table
        (:data:`dcglab.evaluation.options.OPTIONS`): ``max_docs`` cuts each ranking
        first, then ``judged_only`` drops the documents that are not judged,
        as trec_eval 10.0 does.

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
    c = Conventions.of(conventions, **options)
    specs = checked(measures, engine, c)
    db = ADAPTERS[engine](connection=connection, spark=spark, config=config)
    try:
        qv, rv, q, r = _tables(db, qrels, run, check)
        if c.missing == "error":
            _refuse_missing(db, qv, rv, q, r)
        if engine == "spark":
            repeats = (check and qv.frame is None, check and rv.frame is None)
            return db.by_query(q, r, measures, c, (qv.origin, rv.origin), repeats)
        p = plan(specs, c)
        grades = _grades(db, qv, rv, q, r, c.missing == "zero")
        if len(grades) == 0:
            raise ValueError(
                f"no query is in both the qrels ({qv.origin}) and the run ({rv.origin})"
            )
        depth = depths(p.specs, c)
        text = statistics_sql(
            p.stats,
            c,
            n_gains=len(p.gains),
            n_levels=len(p.levels),
            depths=depth,
            dialect=db.dialect,
            run=r,
            qrels=q,
            levels=_levels_table(grades, qv.origin, c, p),
            discounts=_discounts_table(db, c.discount, depth, lambda: _longest(db, qv, rv, q, r)),
        )
        rows = db.sql(text)
    finally:
        db.close()
    return _result(rows, p, c)


def _tables(db: Any, qrels: Any, run: Any, check: bool) -> tuple:
    """Both inputs as engine views and the projected table names, their rows
    checked (``check``) where the reader has not checked them already."""
    qv = open_view(db, qrels, "qrels")
    rv = open_view(db, run, "run", None if qv.frame is None else qv.frame.get_column("qid"))
    q, r = projected(db, qv.name, "qrels"), projected(db, rv.name, "run")
    if check:
        for table, kind, view in ((q, "qrels", qv), (r, "run", rv)):
            if view.frame is None:  # Spark checks the pairs in its buckets (by_query)
                check_rows(db, table, kind, pairs=db.dialect.name != "spark")
    return qv, rv, q, r


def _result(rows: list[tuple], p: Plan, c: Conventions) -> BatchResult:
    """The engine's rows (qid, then one statistic a column, in ``p.stats`` order)
    as measures in qid byte order (:func:`dcglab.evaluation.engines.measures.values`)."""
    rows = sorted(rows, key=lambda row: str(row[0]).encode())
    qids = np.array([str(row[0]) for row in rows], dtype=object)
    stats = {
        s: np.array([row[j] for row in rows], dtype=float) for j, s in enumerate(p.stats, start=1)
    }
    out = values(p, stats, c, qids)
    refuse_non_finite(out, qids, c.zero_idcg, {m.name for m in p.specs if m.record.kernel == "dcg"})
    return BatchResult(qids, out, {m.name: m for m in p.specs})


def _cli_spark(master: str | None):
    """The session for the command line: on ``master`` (a URL such as
    ``spark://host:7077``) if given, else the active session or a quiet
    ``local[*]`` one (:func:`spark_session`)."""
    with warnings.catch_warnings():  # pyspark warns that it does not know this pandas
        warnings.simplefilter("ignore", FutureWarning)
        if master:
            return spark_session(master, quiet=True)
        active = import_spark().SparkSession.getActiveSession()
        return active or spark_session("local[*]", quiet=True)


def evaluate_files(
    qrels: str | os.PathLike,
    run: str | os.PathLike,
    measures: Sequence[str],
    *,
    engine: Engine,
    spark_master: str | None = None,
    conventions: Conventions | None = None,
    **options: Unpack[ConventionKeywords],
) -> BatchResult:
    """The command line's entry point: :func:`evaluate` on two paths.

    DuckDB gets a new in-memory connection with its default settings; Spark
    gets a session on ``spark_master`` (default: the environment variable
    ``DCGLAB_SPARK_MASTER``), or the active session, or a quiet ``local[*]``
    one, started only once the engine, the conventions and the measures are
    checked. Every failure, including a missing engine, is a ``ValueError``
    with a one-line message.
    """
    c = Conventions.of(conventions, **options)
    checked(measures, engine, c)  # refuse a measure before Spark starts
    master = spark_master or os.environ.get(SPARK_MASTER) or None
    spark = _cli_spark(master) if engine == "spark" else None
    return evaluate(qrels, run, measures, engine=engine, spark=spark, conventions=c)
