"""Spark as an engine (:class:`dcglab.evaluation.engines.adapter.Adapter`): local or on a
cluster."""

from __future__ import annotations

import os
import re
import shutil
import sys
import tempfile
import warnings
from collections.abc import Sequence
from functools import partial
from pathlib import Path
from typing import Any

import polars as pl

from dcglab.evaluation.batch.result import BatchResult
from dcglab.evaluation.engines.adapter import EngineError
from dcglab.evaluation.engines.buckets import evaluate_bucket, joined, schema
from dcglab.evaluation.engines.sql import SPARK
from dcglab.evaluation.options import Conventions

SPARK_TYPES = {pl.String: "STRING", pl.Float64: "DOUBLE"}


def import_spark():
    """The ``pyspark.sql`` module, or an :class:`EngineError` saying how to install it."""
    try:
        with warnings.catch_warnings():  # pyspark may warn that pandas is newer than it knows
            warnings.simplefilter("ignore", FutureWarning)
            import pyspark.sql
    except ImportError as exc:  # pragma: no cover - depends on the installation
        raise EngineError(
            "engine='spark' needs pyspark (and a Java runtime): pip install pyspark"
        ) from exc
    return pyspark.sql


SETTINGS = {
    "spark.ui.enabled": "false",
    "spark.ui.showConsoleProgress": "false",
    "spark.sql.session.timeZone": "UTC",
}


def spark_session(
    master: str = "local[2]",
    memory: str = "2g",
    partitions: int = 8,
    quiet: bool = False,
    settings: dict[str, str] | None = None,
):
    """A SparkSession on ``master``: ``local[N]``, or a cluster's URL such as
    ``spark://host:7077``; no UI, few shuffle partitions.

    ``memory`` is the driver's, ``settings`` more Spark settings (say
    ``{"spark.executor.memory": "2g"}`` on a cluster). ``quiet=True`` (the
    command line) sends everything the JVM prints (its start-up notes and log
    lines) to a log file in the temporary folder instead of this process's
    stderr; a start-up failure names that file.
    """
    sql_mod = import_spark()
    conf = {
        **SETTINGS,
        "spark.driver.memory": memory,
        "spark.sql.shuffle.partitions": str(partitions),
        "spark.default.parallelism": str(partitions),
        **(settings or {}),
    }
    if master.startswith("local"):
        # the Python workers evaluate the buckets: locally they run this Python, which has
        # dcglab (pyspark reads the workers' Python from this variable, not from the conf)
        os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    if not quiet:
        builder = sql_mod.SparkSession.builder.master(master).appName("dcglab")
        for key, value in conf.items():
            builder = builder.config(key, value)
        return builder.getOrCreate()
    from pyspark import SparkConf, SparkContext
    from pyspark.java_gateway import launch_gateway

    spark_conf = SparkConf().setMaster(master).setAppName("dcglab").setAll(list(conf.items()))
    log = Path(tempfile.gettempdir()) / f"dcglab_spark_{os.getpid()}.log"
    with open(log, "ab") as out:
        try:
            gateway = launch_gateway(spark_conf, popen_kwargs={"stdout": out, "stderr": out})
            context = SparkContext(conf=spark_conf, gateway=gateway)
        except Exception as exc:  # Py4J / JVM start-up errors carry no common base class
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise EngineError(
                f"spark: could not start Spark on {master} (is Java installed, is the "
                f"master reachable?), see {log}: {first}"
            ) from exc
    context.setLogLevel("ERROR")
    return sql_mod.SparkSession(context)


class SparkAdapter:
    """Temporary views and queries on one SparkSession.

    A DataFrame read in this process reaches a local Spark as a Parquet file in
    a temporary folder; on a cluster, whose executors cannot see that folder, it
    is sent with ``createDataFrame``.
    """

    dialect = SPARK

    def __init__(self, session: Any = None) -> None:
        self.sql_mod = import_spark()
        self.session = session
        self.views: list[str] = []
        self.folder: Path | None = None

    def _session(self):
        if self.session is None:
            self.session = self.sql_mod.SparkSession.getActiveSession() or spark_session()
        return self.session

    def sql(self, text: str) -> list[tuple]:
        from pyspark.errors import PySparkException

        try:
            return [tuple(row) for row in self._session().sql(text).collect()]
        except PySparkException as exc:
            raise EngineError(f"spark: {str(exc).strip().splitlines()[0]}") from exc

    def _view(self, frame: Any, name: str) -> None:
        frame.createOrReplaceTempView(name)
        self.views.append(name)

    def native_view(self, source: Any, name: str) -> bool:
        if not isinstance(source, self.sql_mod.DataFrame):
            return False
        if self.session is None:
            self.session = source.sparkSession
        self._view(source, name)
        return True

    def parquet_view(self, path: Path, name: str) -> None:
        self._view(self._session().read.parquet(str(path)), name)

    def frame_view(self, frame: pl.DataFrame, name: str) -> None:
        session = self._session()
        if session.sparkContext.master.startswith("local"):  # local-cluster too
            if self.folder is None:
                self.folder = Path(tempfile.mkdtemp(prefix="dcglab_spark_"))
            path = self.folder / f"{name}.parquet"
            frame.write_parquet(path)
            self.parquet_view(path, name)
            return
        schema = ", ".join(f"{c} {SPARK_TYPES.get(t, 'BIGINT')}" for c, t in frame.schema.items())
        self._view(session.createDataFrame(frame.rows(), schema), name)

    def columns(self, name: str) -> dict[str, str]:
        return {f.name: f.dataType.simpleString() for f in self._session().table(name).schema}

    def by_query(
        self,
        qrels: str,
        run: str,
        measures: Sequence[str],
        c: Conventions,
        origins: tuple[str, str],
        repeats: tuple[bool, bool] = (True, True),
    ) -> BatchResult:
        """Every query evaluated by the default path, in buckets of queries
        (:meth:`bucketed`); the driver collects one row per query
        (:func:`dcglab.evaluation.engines.buckets.joined`)."""
        from pyspark.errors import PySparkException

        try:
            with warnings.catch_warnings():  # pyspark warns that it does not know this pandas
                warnings.simplefilter("ignore", FutureWarning)
                table = self.bucketed(qrels, run, measures, c, origins, repeats).toArrow()
        except PySparkException as exc:
            raise EngineError(f"spark: {_last_line(exc)}") from exc
        return joined(table, measures, c, origins)

    def bucketed(
        self,
        qrels: str,
        run: str,
        measures: Sequence[str],
        c: Conventions,
        origins: tuple[str, str],
        repeats: tuple[bool, bool] = (True, True),
    ):
        """The Spark DataFrame of the evaluation, not yet run: one row per query.

        Both tables get a bucket number, ``pmod(hash(qid), n)`` with ``n`` Spark's
        ``spark.sql.shuffle.partitions``, and are grouped by it together
        (``cogroup``): one shuffle of each table, after which every row of a
        query, run and qrels, is in one task. Each bucket, many queries, is
        evaluated in a Python worker by the default path
        (:func:`dcglab.evaluation.engines.buckets.evaluate_bucket`). ``repeats``
        says whether to refuse a (qid, docno) pair listed twice in the qrels and
        in the run (:func:`dcglab.evaluation.engines.adapter.check_rows`' rule).
        """
        from pyspark.sql import functions as F

        session = self._session()
        n = int(session.conf.get("spark.sql.shuffle.partitions"))
        sides = []
        for table, value in ((run, "score"), (qrels, "grade")):
            frame = session.sql(
                f"SELECT CAST(qid AS STRING) AS qid, CAST(docno AS STRING) AS docno, "
                f"CAST({value} AS DOUBLE) AS {value} FROM {table} AS t"
            )
            sides.append(frame.withColumn("bucket", F.pmod(F.hash("qid"), F.lit(n))))
        run_side, qrels_side = sides
        task = partial(_bucket, measures=tuple(measures), c=c, origins=origins, repeats=repeats)
        grouped = run_side.groupBy("bucket").cogroup(qrels_side.groupBy("bucket"))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)
            return grouped.applyInArrow(task, schema(measures, c))

    def close(self) -> None:
        if self.session is not None:
            for name in self.views:
                self.session.catalog.dropTempView(name)
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)


def _bucket(run, qrels, *, measures, c, origins, repeats):
    """One bucket's task: Spark passes the run's rows, then the qrels' (Arrow tables
    with the bucket column), as ``cogroup`` groups them."""
    return evaluate_bucket(qrels, run, measures, c, origins, repeats)


def _last_line(exc: Exception) -> str:
    """The line of a Spark error that says what went wrong: a Python worker's
    exception (the last line of its traceback), else the first line."""
    lines = [line.strip() for line in str(exc).strip().splitlines() if line.strip()]
    if not lines:
        return type(exc).__name__
    worker = [line for line in lines if re.match(r"^[A-Za-z_.]*(Error|Exception):", line)]
    return worker[-1] if "Python worker" in lines[0] and worker else lines[0]
