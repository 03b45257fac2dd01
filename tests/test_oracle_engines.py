"""``--engine duckdb`` and ``--engine spark`` against the real trec_eval 10.0 binary.

The generated cases of tests/oracle.py (float32-close scores, heavy ties,
scientific notation, negative and fractional grades, missing queries, odd
docnos, comments, extra fields, ``-q -c -J -M -l -n``) are run through the
command line in this process with an engine, and judged as the default path is
(``oracle.agree``): the same bytes on stdout, or a refusal wherever
trec_eval refuses. DuckDB's measures are those the oracle draws for the default
path that DuckDB computes: the official set's families, P, recall, map_cut,
success, the counts, nDCG with and without a gain table. Spark runs the default
path in its buckets of queries, so it gets every measure the oracle draws. Spark
gets fewer examples, a Spark job costing seconds.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from oracle import MEASURES, Case, agree, cases, dcglab, trec_eval

from dcglab.evaluation.engines import COMPUTED
from dcglab.evaluation.measure_names import measure_specs


def _engines_compute(name: str) -> bool:
    """Whether DuckDB computes ``name`` under trec_eval's conventions: its family
    is one of its own, and a gain table gives integer gains (with a fractional one trec_eval
    orders its ideal by truncated gains, which the engines refuse)."""
    specs = [m for m in measure_specs([name], runid=True) if m.record.kernel != "tag"]
    tables = [m.gain for m in specs if isinstance(m.gain, dict)]
    whole = all(float(v).is_integer() for table in tables for v in table.values())
    return whole and all(m.family in COMPUTED for m in specs)


SPARK_MEASURES = [*MEASURES, "ndcg_cut.2", "map_cut.2,5"]
"""Every measure the oracle draws for the default path, and more cutoffs."""
ENGINE_MEASURES = [m for m in SPARK_MEASURES if _engines_compute(m)]
"""Those that DuckDB computes (it refuses the others, tests/test_parity.py)."""

# -J applies after -M (trec_eval cuts first); a negative grade is unjudged under -J.
J_AFTER_M = Case(
    qrels="q 0 j1 1\nq 0 j2 1\nq 0 a -1\n",
    run="q Q0 u 1 5 t\nq Q0 a 2 4 t\nq Q0 j1 3 3 t\nq Q0 j2 4 2 t\n",
    options=("-q", "-J", "-M3"),
    measures=("ndcg", "ndcg_cut.1,3", "map", "bpref", "P.1,2", "num_ret", "Rprec"),
)
CLOSE = Case(
    qrels="q1 0 b 2\nq1 0 a 0\n",
    run="q1 Q0 b 1 0.7 t\nq1 Q0 a 2 0.7000000001 t\n",
    options=("-q",),
    measures=("ndcg_cut.1",),
)


def check(binary: Path, case: Case, engine: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        agree(dcglab(case, folder, ("--engine", engine)), trec_eval(binary, case, folder), case)


def examples(n: int, *checks: HealthCheck):
    """Hypothesis settings for ``n`` examples of the oracle, which has no deadline
    (each example runs trec_eval and an engine)."""
    return settings(
        max_examples=n, deadline=None, suppress_health_check=[HealthCheck.too_slow, *checks]
    )


@examples(150, HealthCheck.data_too_large)
@given(case=cases(ENGINE_MEASURES))
@example(case=J_AFTER_M)
@example(case=CLOSE)
def test_duckdb_is_trec_eval(case: Case, trec_eval_binary: Path) -> None:
    check(trec_eval_binary, case, "duckdb")


@pytest.mark.slow
@examples(6, HealthCheck.function_scoped_fixture)
@given(case=cases(SPARK_MEASURES))
@example(case=J_AFTER_M)
def test_spark_is_trec_eval(case: Case, trec_eval_binary: Path, spark) -> None:
    check(trec_eval_binary, case, "spark")
