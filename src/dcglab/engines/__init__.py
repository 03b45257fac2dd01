r"""nDCG where the data lives: the batch evaluation run by DuckDB or Spark.

One SQL query (:func:`dcglab.engines.sql.evaluation_sql`) does the ranking,
the join with the qrels and the sums; the engine runs it next to the data and
returns one row per query. The gains come from :func:`dcglab.batch.level_gains`
and the division with its IDCG = 0 policy from
:func:`dcglab.measures.ndcg_ratio`, so every formula stays in one place. The
values equal :func:`dcglab.batch.evaluate`'s (and trec_eval's) to 1e-12.

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
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

import numpy as np
import pandas as pd

from ..batch import NEGATIVE_GRADES, BatchIdeal, BatchResult, Ties, check_option, level_gains
from ..discounts import Discount, DiscountSpec
from ..gains import GainSpec
from ..measures import ZERO_POLICIES, ZeroPolicy, ndcg_ratio
from ..trec import QRELS_COLUMNS, RUN_COLUMNS, read_qrels, read_run
from .sql import MISSING, TIES, dcg_measures, evaluation_sql, gains_sql, ideal_name, sum_columns

Engine = Literal["duckdb", "spark"]
ENGINES = ("duckdb", "spark")
PARQUET_SUFFIXES = (".parquet", ".pq")

__all__ = ["ENGINES", "EngineError", "evaluate", "evaluate_files", "evaluation_sql"]


class EngineError(ValueError):
    """An engine is missing or rejected the input (a ``ValueError``, as bad input is)."""


def _import(engine: str):
    try:
        if engine == "duckdb":
            import duckdb

            return duckdb
        import pyspark.sql

        return pyspark.sql
    except ImportError as exc:  # pragma: no cover - depends on the installation
        pkg = "duckdb" if engine == "duckdb" else "pyspark (and a Java runtime)"
        raise EngineError(f"engine={engine!r} needs {pkg}: pip install {pkg.split()[0]}") from exc


def _is_parquet(path: Path) -> bool:
    return path.is_dir() or path.suffix.lower() in PARQUET_SUFFIXES


def _quote(path: Path) -> str:
    return "'" + str(path).replace("'", "''") + "'"


class _DuckDB:
    """Views and queries on one DuckDB connection (the relations' own, if given)."""

    def __init__(self, connection: Any = None, config: dict | None = None) -> None:
        self.duckdb = _import("duckdb")
        self.con = connection
        self.config = config or {}
        self.anchor: tuple[Any, str] | None = None  # a relation that runs SQL on its connection
        self.views: list[str] = []

    def _connection(self):
        if self.con is None:
            self.con = self.duckdb.connect(config=self.config)
        return self.con

    def sql(self, text: str) -> list[tuple]:
        try:
            if self.anchor is not None:
                rel, name = self.anchor
                result = rel.query(name, text)
            else:
                result = self._connection().sql(text)
            return result.fetchall() if result is not None else []
        except self.duckdb.Error as exc:
            raise EngineError(f"duckdb: {str(exc).splitlines()[0]}") from exc

    def view(self, source: Any, kind: str) -> str:
        name = f"dcglab_{kind}_{uuid.uuid4().hex[:8]}"
        if isinstance(source, self.duckdb.DuckDBPyRelation):
            if self.con is None and self.anchor is None:
                self.anchor = (source, name)
            source.create_view(name)
        elif isinstance(source, pd.DataFrame):
            if self.anchor is not None:
                raise EngineError(f"{kind}: pass a DuckDB relation or a path with a relation")
            self._connection().register(name, source)
        else:
            path = Path(source)
            if not path.exists():
                raise EngineError(f"{kind} file not found: {path}")
            if _is_parquet(path):
                glob = path / "**" / "*.parquet" if path.is_dir() else path
                self.sql(f"CREATE TEMP VIEW {name} AS SELECT * FROM read_parquet({_quote(glob)})")
            else:
                self._trec_view(name, path, kind)
        self.views.append(name)
        return name

    def _trec_view(self, name: str, path: Path, kind: str) -> None:
        """A TREC text file: DuckDB's CSV reader on single spaces, else dcglab.trec."""
        names = QRELS_COLUMNS if kind == "qrels" else RUN_COLUMNS
        numeric = "grade" if kind == "qrels" else "score"
        cols = ", ".join(f"'{c}': '{'DOUBLE' if c == numeric else 'VARCHAR'}'" for c in names)
        try:
            self._connection().sql(
                f"CREATE TEMP TABLE {name} AS SELECT * FROM read_csv({_quote(path)}, "
                f"delim=' ', header=false, quote='', escape='', auto_detect=false, "
                f"null_padding=false, columns={{{cols}}})"
            )
            return
        except self.duckdb.Error:
            pass  # tabs, runs of spaces or a malformed line: the general reader decides
        frame = read_qrels(path) if kind == "qrels" else read_run(path)
        self._connection().register(name, frame)

    def close(self) -> None:
        for name in self.views:
            for what in ("VIEW", "TABLE"):
                try:
                    self.sql(f"DROP {what} IF EXISTS {name}")
                except EngineError:
                    pass
            if self.anchor is None and self.con is not None:
                try:
                    self.con.unregister(name)
                except self.duckdb.Error:
                    pass


class _Spark:
    """Temporary views and queries on one SparkSession."""

    def __init__(self, session: Any = None) -> None:
        self.sql_mod = _import("spark")
        self.session = session
        self.views: list[str] = []

    def _session(self):
        if self.session is None:
            spark = self.sql_mod.SparkSession
            self.session = spark.getActiveSession() or local_spark()
        return self.session

    def sql(self, text: str) -> list[tuple]:
        from pyspark.errors import PySparkException

        try:
            return [tuple(row) for row in self._session().sql(text).collect()]
        except PySparkException as exc:
            raise EngineError(f"spark: {str(exc).splitlines()[0]}") from exc

    def view(self, source: Any, kind: str) -> str:
        name = f"dcglab_{kind}_{uuid.uuid4().hex[:8]}"
        if isinstance(source, self.sql_mod.DataFrame):
            if self.session is None:
                self.session = source.sparkSession
            frame = source
        elif isinstance(source, pd.DataFrame):
            value = "grade" if kind == "qrels" else "score"
            if kind == "qrels" and value not in source and "relevance" in source:
                source = source.rename(columns={"relevance": "grade"})
            rows = zip(
                source["qid"].astype(str), source["docno"].astype(str), source[value].astype(float)
            )
            schema = f"qid STRING, docno STRING, {value} DOUBLE"
            frame = self._session().createDataFrame(list(rows), schema)
        else:
            path = Path(source)
            if not path.exists():
                raise EngineError(f"{kind} file not found: {path}")
            if _is_parquet(path):
                frame = self._session().read.parquet(str(path))
            else:
                frame = self._trec_frame(path, kind)
        frame.createOrReplaceTempView(name)
        self.views.append(name)
        return name

    def _trec_frame(self, path: Path, kind: str):
        """A TREC text file split on any whitespace; bad lines are counted and reported."""
        n = 4 if kind == "qrels" else 6
        value, at = ("grade", 3) if kind == "qrels" else ("score", 4)
        lines = self._session().read.text(str(path))
        tmp = f"dcglab_lines_{uuid.uuid4().hex[:8]}"
        lines.createOrReplaceTempView(tmp)
        split = f"SELECT split(trim(value), '[ \\t]+') AS f FROM {tmp}"
        bad = self.sql(
            f"SELECT COUNT(*) FROM ({split}) AS s "
            f"WHERE size(f) <> {n} OR TRY_CAST(f[{at}] AS DOUBLE) IS NULL"
        )[0][0]
        if bad:
            raise EngineError(
                f"{path}: {bad} line(s) are not {kind} lines ({n} fields, field {at + 1} a number)"
            )
        return self._session().sql(
            f"SELECT f[0] AS qid, f[2] AS docno, CAST(f[{at}] AS DOUBLE) AS {value} FROM ({split})"
        )

    def close(self) -> None:
        if self.session is not None:
            for name in self.views:
                self.session.catalog.dropTempView(name)


QUIET_LOG4J = """\
rootLogger.level = error
rootLogger.appenderRef.stderr.ref = stderr
appender.console.type = Console
appender.console.name = stderr
appender.console.target = SYSTEM_ERR
appender.console.layout.type = PatternLayout
appender.console.layout.pattern = spark: %p %c{1}: %m%n
"""


def local_spark(
    master: str = "local[2]", memory: str = "2g", partitions: int = 8, quiet: bool = False
):
    """A local SparkSession for files and tests: no UI, few shuffle partitions.

    ``quiet=True`` (the command line) starts the JVM with a log configuration
    that prints errors only. On a cluster, build the session as usual and pass it
    (or Spark DataFrames).
    """
    import tempfile

    with warnings.catch_warnings():  # pyspark 4.3 warns that pandas 3 is new to it
        warnings.simplefilter("ignore", FutureWarning)
        from pyspark.sql import SparkSession

    builder = SparkSession.builder
    if quiet:
        conf = Path(tempfile.gettempdir()) / "dcglab_spark_log4j2.properties"
        conf.write_text(QUIET_LOG4J)
        options = f"-Dlog4j2.configurationFile={conf.as_uri()}"
        builder = builder.config("spark.driver.extraJavaOptions", options)
    return (
        builder.master(master)
        .appName("dcglab")
        .config("spark.ui.enabled", "false")
        .config("spark.driver.memory", memory)
        .config("spark.sql.shuffle.partitions", str(partitions))
        .config("spark.default.parallelism", str(partitions))
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.session.timeZone", "UTC")
        .getOrCreate()
    )


def _columns(db, name: str, kind: str) -> str:
    """Project a view onto ``qid, docno, grade|score``, naming what is missing."""
    value = "grade" if kind == "qrels" else "score"
    cols = _column_names(db, name)
    if kind == "qrels" and value not in cols and "relevance" in cols:
        value_expr = "relevance AS grade"
    else:
        value_expr = value
    missing = {"qid", "docno", value} - set(cols)
    if missing and value_expr == value:
        raise EngineError(f"{kind} needs columns qid, docno, {value}; missing {sorted(missing)}")
    return f"(SELECT qid, docno, {value_expr} FROM {name})"


def _column_names(db, name: str) -> list[str]:
    if isinstance(db, _DuckDB):
        return [r[0] for r in db.sql(f"DESCRIBE SELECT * FROM {name}")]
    return list(db._session().table(name).columns)


def _check_rows(db, table: str, kind: str, value: str) -> None:
    """Reject NULL ids, non-finite values and duplicate (qid, docno) pairs, in one pass."""
    bad_value = (
        f"qid IS NULL OR docno IS NULL OR {value} IS NULL "
        f"OR isnan(CAST({value} AS DOUBLE) - CAST({value} AS DOUBLE))"
    )
    rows, bad, dup = db.sql(
        "SELECT SUM(n), SUM(bad), MIN(CASE WHEN n > 1 THEN CONCAT(qid, ', ', docno) END) "
        "FROM (SELECT CAST(qid AS STRING) AS qid, CAST(docno AS STRING) AS docno, "
        f"COUNT(*) AS n, SUM(CASE WHEN {bad_value} THEN 1 ELSE 0 END) AS bad "
        f"FROM {table} AS t GROUP BY CAST(qid AS STRING), CAST(docno AS STRING)) AS pairs"
    )[0]
    if not rows:
        raise EngineError(f"{kind} is empty")
    if bad:
        raise EngineError(f"{kind}: {bad} row(s) have a missing id or a non-finite {value}")
    if dup is not None:
        raise EngineError(f"{kind} lists ({dup}) more than once")


def check_conventions(
    measures: Sequence[str],
    discount: DiscountSpec,
    ideal: str,
    ties: str,
    zero_idcg: str,
    missing: str = "ignore",
    negative_grades: str = "gain",
) -> None:
    """Reject an unknown option before any data is read, naming the argument."""
    dcg_measures(measures)
    Discount.parse(discount)
    ideal_name(ideal)
    check_option("ties", ties, TIES)
    check_option("zero_idcg", zero_idcg, ZERO_POLICIES)
    check_option("missing", missing, MISSING)
    check_option("negative_grades", negative_grades, NEGATIVE_GRADES)


def gains_of(grades: np.ndarray, gain: GainSpec, negative_grades: str = "gain") -> np.ndarray:
    """The gain of each distinct grade, as the batch evaluator computes it
    (:func:`dcglab.batch.level_gains`, without its trailing entry for unjudged
    documents): with ``negative_grades="unjudged"`` a negative grade gains 0, and a
    gain that is not a finite number is an error naming the grade."""
    return level_gains(np.asarray(grades, dtype=float), gain, negative_grades)[:-1]


def evaluate(
    qrels: Any,
    run: Any,
    measures: Sequence[str] = ("ndcg_cut.10",),
    *,
    engine: Engine = "duckdb",
    gain: GainSpec = "linear",
    discount: DiscountSpec = "log2",
    ideal: BatchIdeal = "judged",
    ties: Ties = "trec",
    zero_idcg: ZeroPolicy = "error",
    missing: Literal["ignore", "zero"] = "ignore",
    negative_grades: Literal["gain", "unjudged"] = "gain",
    max_docs: int | None = None,
    judged_only: bool = False,
    connection: Any = None,
    spark: Any = None,
    config: dict | None = None,
    check: bool = True,
) -> BatchResult:
    r"""nDCG of every query, computed by a SQL engine where the data is.

    The same measures and conventions as :func:`dcglab.batch.evaluate`, and the
    same result type; the ranking, the join and the sums run in the engine
    (:func:`dcglab.engines.sql.evaluation_sql`), and only one row per query comes
    back to Python.

    Parameters
    ----------
    qrels, run
        A TREC file or Parquet file/folder path, a pandas DataFrame, a DuckDB
        relation (``engine="duckdb"``) or a Spark DataFrame (``engine="spark"``).
        Columns: ``qid, docno, grade`` (or ``relevance``) and ``qid, docno, score``.
    measures : sequence of str
        ``ndcg``, ``ndcg_cut.K`` (``K`` may be a comma list), ``nDCG@K``, ``dcg``...
    engine : {"duckdb", "spark"}, default ``"duckdb"``
    gain, discount, ideal, ties, zero_idcg, missing, negative_grades, max_docs, judged_only
        As in :func:`dcglab.batch.evaluate` (trec_eval's ``-c``, ``-M``, ``-J``).
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
        Reject NULL ids, non-finite values and duplicate (qid, docno) pairs, as
        :func:`dcglab.batch.evaluate` does; this costs one more pass over the run.

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
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {ENGINES}, got {engine!r}")
    check_conventions(measures, discount, ideal, ties, zero_idcg, missing, negative_grades)
    if max_docs is not None and (
        isinstance(max_docs, bool) or not isinstance(max_docs, int) or max_docs < 1
    ):
        raise ValueError(f"max_docs must be an integer >= 1, got {max_docs!r}")
    db = _DuckDB(connection, config) if engine == "duckdb" else _Spark(spark)
    try:
        q = _columns(db, db.view(qrels, "qrels"), "qrels")
        r = _columns(db, db.view(run, "run"), "run")
        if check:
            _check_rows(db, q, "qrels", "grade")
            _check_rows(db, r, "run", "score")
        grades = np.array(
            [g for (g,) in db.sql(f"SELECT DISTINCT CAST(grade AS DOUBLE) FROM {q} AS t")],
            dtype=float,
        )
        if len(grades) == 0:
            raise EngineError("qrels is empty")
        table = f"({gains_sql(grades, gains_of(grades, gain, negative_grades))})"
        text = evaluation_sql(
            measures,
            discount=discount,
            ideal=ideal,
            ties=ties,
            missing=missing,
            max_docs=max_docs,
            judged_only=judged_only,
            run=r,
            qrels=q,
            gains=table,
        )
        rows = db.sql(text)
    finally:
        db.close()
    if not rows:
        raise ValueError("no query is in both the qrels and the run")
    return _result(rows, measures, ideal, zero_idcg)


def _result(rows: list[tuple], measures, ideal: str, zero_idcg: ZeroPolicy) -> BatchResult:
    """Per-query sums from the engine to nDCG values, through :func:`ndcg_ratio`."""
    cols = sum_columns(measures, ideal)
    dcg_cols = sorted({d for _, d, _ in cols})
    idcg_cols = sorted({i for _, _, i in cols if i is not None})
    names = ["qid", *dcg_cols, *idcg_cols]
    frame = pd.DataFrame.from_records(rows, columns=names)
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
            out[name] = ndcg_ratio(dcg, idcg, zero_idcg, queries=qids, measure=name)
    return BatchResult(qids, out)


def evaluate_files(
    qrels: str | os.PathLike,
    run: str | os.PathLike,
    measures: Sequence[str],
    *,
    engine: Engine,
    gain: GainSpec = "linear",
    discount: DiscountSpec = "log2",
    ideal: BatchIdeal = "judged",
    ties: Ties = "trec",
    zero_idcg: ZeroPolicy = "zero",
    missing: Literal["ignore", "zero"] = "ignore",
    negative_grades: Literal["gain", "unjudged"] = "gain",
    relevance_level: float = 1,
    max_docs: int | None = None,
    judged_only: bool = False,
) -> BatchResult:
    """The command line's entry point: :func:`evaluate` on two paths.

    It takes the keyword arguments of :func:`dcglab.batch.evaluate`, so the
    command line can call either; ``relevance_level`` only matters for binary
    measures, which the engines do not compute, and is ignored.

    DuckDB gets a new in-memory connection with its default settings; Spark
    gets the active session or a quiet ``local[*]`` one (:func:`local_spark`). Every failure,
    including a missing engine, is a ``ValueError`` with a one-line message.
    """
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {ENGINES}, got {engine!r}")
    with warnings.catch_warnings():  # pyspark 4.3 warns that pandas 3 is new to it
        warnings.simplefilter("ignore", FutureWarning)
        spark = None
        if engine == "spark":
            sql_mod = _import("spark")
            try:
                spark = sql_mod.SparkSession.getActiveSession() or local_spark(
                    "local[*]", quiet=True
                )
            except Exception as exc:  # Py4J / JVM start-up errors carry no common base class
                first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
                raise EngineError(
                    f"spark: could not start Spark (is Java installed?): {first}"
                ) from exc
            spark.sparkContext.setLogLevel("ERROR")
        return evaluate(
            qrels,
            run,
            measures,
            engine=engine,
            gain=gain,
            discount=discount,
            ideal=ideal,
            ties=ties,
            zero_idcg=zero_idcg,
            missing=missing,
            negative_grades=negative_grades,
            max_docs=max_docs,
            judged_only=judged_only,
            spark=spark,
        )
