r"""Evaluation where the data lives: the batch evaluation run by DuckDB or Spark.

DuckDB runs one SQL query (:func:`dcglab.evaluation.engines.measures.evaluation_sql`):
the ranking, trec_eval's ``-M`` and ``-J``, the join with the qrels, the running
counts and the sums added in trec_eval's order; it returns one row of statistics
per query, from which :mod:`dcglab.evaluation.engines.measures` finishes every
measure of :data:`~dcglab.evaluation.engines.measures.COMPUTED` (any other is
refused naming it). The gains and the relevance of each grade come from the
batch path's grade reading (:mod:`dcglab.evaluation.batch.levels`,
:func:`dcglab.evaluation.batch.binary.level_flags`), the discounts from
:mod:`dcglab.formulas.discounts` and the division with its IDCG = 0 policy from
:func:`dcglab.formulas.measures.ndcg_ratio`, so every formula's rule stays in one
place.

Spark runs the default path itself: the run and the qrels are split into
buckets of queries by a hash of the query id, and each task evaluates its
buckets with :mod:`dcglab.evaluation.batch`
(:mod:`dcglab.evaluation.engines.buckets`), so Spark computes every measure the
default path computes. Both engines' values equal those of
:func:`dcglab.evaluation.batch.evaluate` and of trec_eval 10.0.

Each engine is an adapter (:class:`dcglab.evaluation.engines.adapter.Adapter`):
:class:`~dcglab.evaluation.engines.duckdb_adapter.DuckDBAdapter` and
:class:`~dcglab.evaluation.engines.spark_adapter.SparkAdapter`. Text files and DataFrames
are read by :mod:`dcglab.evaluation.batch.reader`, the default path's reader, so every path
accepts and refuses the same input.

Examples
--------
::

    from dcglab.evaluation.engines import evaluate
    evaluate("qrels.txt", "run.parquet", ["official", "ndcg_cut.10"], zero_idcg="zero")
    evaluate(spark_qrels_df, spark_run_df, ["map", "nDCG@10"], engine="spark")  # on a cluster

DuckDB and PySpark are imported only when an engine is used, and this package's
names load on first use: ``import dcglab`` needs neither engine, and the command
line reads :data:`~dcglab.evaluation.engines.measures.COMPUTED` without loading polars.
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = [
    "COMPUTED",
    "ENGINES",
    "EngineError",
    "evaluate",
    "evaluate_files",
    "evaluation_sql",
    "gains_of",
    "spark_session",
]

_HOMES = {
    "COMPUTED": ".measures",
    "ENGINES": ".evaluator",
    "EngineError": ".adapter",
    "evaluate": ".evaluator",
    "evaluate_files": ".evaluator",
    "evaluation_sql": ".measures",
    "gains_of": ".evaluator",
    "spark_session": ".spark_adapter",
}
"""The module that defines each public name."""


def __getattr__(name: str) -> Any:
    if name not in _HOMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(_HOMES[name], __name__), name)


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
