"""dcglab.evaluation.engines.sql: the one SQL text both engines run."""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dcglab.evaluation.engines import evaluation_sql
from dcglab.evaluation.engines.sql import DUCKDB, SPARK, dcg_measures, depths, discount_rows, double
from dcglab.evaluation.options import Conventions


def test_sql_is_shared_and_holds_no_formula():
    """One text per dialect, differing only in the ordered sum; no discount or gain
    formula (they are tables), scores compared as DOUBLE unless float32 is asked for."""
    duck = evaluation_sql(["ndcg_cut.10", "ndcg"], dialect=DUCKDB)
    sparks = evaluation_sql(["ndcg_cut.10", "ndcg"], dialect=SPARK)
    assert "ORDER BY s DESC, docno DESC" in duck and "CAST(score AS DOUBLE)" in duck
    assert "FLOAT" not in duck
    assert "CAST(score AS FLOAT)" in evaluation_sql(["ndcg"], score_precision="float32")
    for text in (duck, sparks):
        assert "gain * d.mul / d.div" in text
        assert "LN(" not in text and "LOG" not in text and "POWER" not in text
    assert "list_reduce" in duck and "aggregate(array_sort" in sparks
    strip = [line for line in duck.splitlines() if "list_reduce" not in line]
    assert strip == [line for line in sparks.splitlines() if "aggregate(" not in line]


@given(st.floats(allow_nan=False, allow_infinity=False, width=64))
def test_a_double_literal_reads_back_as_the_same_double(x):
    literal = double(x)
    assert literal.startswith("CAST('") and literal.endswith("' AS DOUBLE)")
    assert float(literal[len("CAST('") : -len("' AS DOUBLE)")]) == x


def test_the_log2_discount_divides_by_trec_evals_logarithm():
    """trec_eval's term ``g / log2(i + 1)``: a division, not a multiplication by its inverse."""
    rows = discount_rows("log2", 50)
    assert [r[0] for r in rows] == list(range(1, 51))
    for i, mul, div in rows:
        assert mul == 1.0 and div == math.log2(i + 1)
        assert 3.0 * mul / div == 3.0 / math.log2(i + 1)


def test_other_discounts_multiply_by_their_weight():
    assert discount_rows("reciprocal", 4) == [(i, 1 / i, 1.0) for i in range(1, 5)]


@pytest.mark.parametrize(
    "conventions, want",
    [
        ({}, (10, 10)),
        ({"max_docs": 7}, (7, 10)),
        ({"max_docs": 70}, (10, 10)),
        ({"ideal": "retrieved"}, (None, 10)),
        ({"ties": "average", "max_docs": 3}, (3, 10)),
        ({"ideal": "judged-uncut"}, (10, None)),
    ],
)
def test_only_the_top_max_k_ranks_are_needed_unless_a_rule_says_all(conventions, want):
    assert depths(["ndcg_cut.5,10", "dcg_cut.3"], Conventions(**conventions)) == want


def test_a_measure_no_cutoff_needs_every_rank():
    assert depths(["ndcg_cut.5", "ndcg"], Conventions()) == (None, None)


@pytest.mark.parametrize("engine", ["duckdb", "spark"])
def test_a_measure_the_engine_does_not_compute_is_named(engine):
    with pytest.raises(
        ValueError, match=rf"^engine '{engine}' does not compute P.5, map: it computes"
    ):
        dcg_measures(["ndcg", "P.5", "map"], engine)
