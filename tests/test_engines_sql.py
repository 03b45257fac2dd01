"""dcglab.evaluation.engines.sql: the one SQL text both engines run."""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dcglab.evaluation import measure_names
from dcglab.evaluation.engines import evaluation_sql
from dcglab.evaluation.engines.measures import refuse_others
from dcglab.evaluation.engines.sql import DUCKDB, ROWS, SPARK, depths, discount_rows, double
from dcglab.evaluation.measure_families import FAMILIES, FAMILY, Family
from dcglab.evaluation.measure_names import measure_specs
from dcglab.evaluation.options import Conventions


def test_sql_is_shared_and_holds_no_formula():
    """One text per dialect, differing only in the ordered sums; no discount or gain
    formula (they are tables), scores compared as DOUBLE unless float32 is asked for."""
    measures = ["official", "ndcg_cut.10", "ndcg", "map_cut.5", "Judged@5"]
    duck = evaluation_sql(measures, dialect=DUCKDB)
    sparks = evaluation_sql(measures, dialect=SPARK)
    assert "ORDER BY s DESC, docno DESC" in duck and "CAST(score AS DOUBLE)" in duck
    assert "FLOAT" not in duck
    assert "CAST(score AS FLOAT)" in evaluation_sql(["ndcg"], score_precision="float32")
    for text in (duck, sparks):
        assert "gain_0 * d.mul / d.div" in text
        assert "LN(" not in text and "LOG" not in text and "POWER" not in text
    assert "list_reduce" in duck and "max_by(" in sparks and "list_reduce" not in sparks
    assert duck.count("\n") == sparks.count("\n")
    for a, b in zip(duck.splitlines(), sparks.splitlines()):
        running = f"OVER (PARTITION BY qid ORDER BY rnk {ROWS})"
        assert (
            a == b or ("list_reduce" in a and "max_by(" in b) or (running in b and running not in a)
        )


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
    assert depths(measure_specs(["ndcg_cut.5,10", "dcg_cut.3"]), Conventions(**conventions)) == want


def test_a_measure_no_cutoff_needs_every_rank():
    assert depths(measure_specs(["ndcg_cut.5", "ndcg"]), Conventions()) == (None, None)
    assert depths(measure_specs(["P.5", "bpref"]), Conventions()) == (None, None)


@pytest.mark.parametrize("engine", ["duckdb"])
def test_a_family_the_engines_do_not_compute_is_refused_by_name(engine, monkeypatch):
    """A family added to the measure tables without an engine kernel is refused in
    one line naming it and the path that computes it, not a crash."""
    fake = Family("fake_measure", "a family only the default path computes")
    monkeypatch.setitem(FAMILY, "fake_measure", fake)
    monkeypatch.setattr(measure_names, "FAMILIES", (*FAMILIES, fake))
    refused = rf"^engine '{engine}' does not compute fake_measure: the default path does"
    with pytest.raises(ValueError, match=refused) as raised:
        refuse_others(["ndcg", "map", "fake_measure", "official"], engine)
    assert "\n" not in str(raised.value)
    refuse_others(["official", "map_cut.5", "nDCG@10", "P(rel=2)@5", "Judged@3"], engine)
