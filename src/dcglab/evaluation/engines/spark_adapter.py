"""Spark as an engine (:class:`dcglab.evaluation.engines.adapter.Adapter`): local or on a
cluster."""

from __future__ import annotations

import os
import shutil
import tempfile
import warnings
from pathlib import Path
from typing import Any

import polars as pl

from dcglab.evaluation.engines.adapter import EngineError
from dcglab.evaluation.engines.sql import SPARK

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

    def close(self) -> None:
        if self.session is not None:
            for name in self.views:
                self.session.catalog.dropTempView(name)
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)
