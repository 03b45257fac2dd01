"""Preparing (:func:`dcglab.evaluation.batch.prepare`): the padded layouts, the early ranking,
the options applied when reading, repeated pairs."""

import numpy as np
import pandas as pd
import pytest
from spies import spy
from workloads import tie_workload

from dcglab.evaluation.batch import evaluate, prepare

TOL = 1e-12


def test_prepare_then_compute_reuses_the_work():
    qrels, run = tie_workload(12)
    p = prepare(qrels, run)
    from dcglab.evaluation.batch import compute

    a = compute(p, ["ndcg_cut.5"], zero_idcg="zero").per_query
    b = evaluate(qrels, run, ["ndcg_cut.5"], zero_idcg="zero").per_query
    pd.testing.assert_frame_equal(a, b)


@pytest.mark.parametrize("layout", ["sorted", "reversed", "shuffled"])
def test_grouping_layouts_give_the_same_result(layout):
    """Equal-length lists in qid order, in another order, or interleaved."""
    rng = np.random.default_rng(21)
    rows = [
        (f"q{q}", f"d{d}", float(rng.integers(0, 3)))
        for q in range(30)
        for d in rng.choice(50, 8, replace=False)
    ]
    run = pd.DataFrame(rows, columns=["qid", "docno", "score"])
    qrels = pd.DataFrame(
        [(f"q{q}", f"d{d}", int(rng.integers(0, 4))) for q in range(30) for d in range(0, 50, 3)],
        columns=["qid", "docno", "grade"],
    )
    measures = ["ndcg", "ndcg_cut.3", "map", "P.5", "recip_rank"]
    expected = evaluate(qrels, run, measures, zero_idcg="zero").per_query
    if layout == "reversed":
        run = pd.concat([g for _, g in run.groupby("qid", sort=False)][::-1])
    elif layout == "shuffled":
        run = run.sample(frac=1, random_state=3)
    got = evaluate(qrels, run, measures, zero_idcg="zero").per_query
    pd.testing.assert_frame_equal(expected, got, rtol=0, atol=TOL)
    assert got.index.tolist() == sorted(got.index, key=str.encode)


def test_rows_in_the_run_files_order_report_the_first_query_in_byte_order():
    """A run whose query blocks are not in byte order is laid out in its own
    order; results and errors still come in byte order of the query ids."""
    qrels = pd.DataFrame({"qid": ["q2", "q10", "q1"], "docno": ["d"] * 3, "grade": [0, 0, 1]})
    run = pd.DataFrame({"qid": ["q2", "q10", "q1"], "docno": ["d"] * 3, "score": [1.0] * 3})
    p = prepare(qrels, run)
    assert p.byte_order is not None and p.qids.tolist() == ["q2", "q10", "q1"]
    with pytest.raises(ValueError, match="q10"):
        evaluate(qrels, run)  # q10 and q2 have IDCG 0; q10 comes first in byte order
    res = evaluate(qrels, run, ["ndcg", "P.1"], zero_idcg="zero").per_query
    assert res.index.tolist() == ["q1", "q10", "q2"]
    assert res["ndcg"].tolist() == [1.0, 0.0, 0.0]


@pytest.mark.parametrize("layout", ["all", "extra run query", "query missing from the run"])
def test_the_early_ranking_of_equal_blocks_gives_the_same_result(layout, monkeypatch):
    """A run held as equal query blocks is ranked before its queries are coded;
    placed in the layout (run queries without qrels left out, qrels queries
    without run lines as empty rows), it gives what ranking the layout gives."""
    import dcglab.evaluation.batch.preparation as preparation

    rng = np.random.default_rng(5)
    queries = [f"q{i}" for i in (3, 1, 20, 2)]
    run = pd.DataFrame(
        [(q, f"d{d}", float(rng.integers(0, 4))) for q in queries for d in rng.permutation(9)],
        columns=["qid", "docno", "score"],
    )
    judged = queries[:-1] if layout == "extra run query" else queries
    judged = judged + ["q0"] if layout == "query missing from the run" else judged
    qrels = pd.DataFrame(
        [(q, f"d{d}", int(rng.integers(0, 3))) for q in judged for d in range(0, 12, 2)],
        columns=["qid", "docno", "grade"],
    )
    measures = ["ndcg", "ndcg_cut.3", "map", "P.2", "num_ret"]
    options = {"zero_idcg": "zero", "missing": "zero", "max_docs": 7, "judged_only": True}
    early = spy(monkeypatch, preparation, "trec_ranking")
    got = evaluate(qrels, run, measures, **options).per_query
    assert len(early) == 1 and early[0].shape == (4, 9), "the early ranking was not used"
    monkeypatch.setattr(preparation, "equal_blocks", lambda ids: None)
    expected = evaluate(qrels, run, measures, **options).per_query
    assert len(early) == 2 and early[1].shape[1] == 9
    pd.testing.assert_frame_equal(got, expected, rtol=0, atol=0)


def test_fractional_grades_truncate_toward_zero_as_atol():
    """2.5 is 2, 1.9 is 1, -0.5 is 0 (judged, not relevant), -1.5 is -1 (unjudged)."""
    docs = ["d1", "d2", "d3", "d4"]
    run = pd.DataFrame({"qid": ["a"] * 4, "docno": docs, "score": [4.0, 3.0, 2.0, 1.0]})
    fractional = pd.DataFrame({"qid": ["a"] * 4, "docno": docs, "grade": [-1.5, -0.5, 1.9, 2.5]})
    integer = fractional.assign(grade=[-1, 0, 1, 2])
    kw = {"negative_grades": "unjudged", "judged_only": True}
    measures = ["ndcg", "ndcg_cut.2", "P.1", "map"]
    truncated = evaluate(fractional, run, measures, fractional_grades="truncate", **kw)
    assert truncated.per_query.equals(evaluate(integer, run, measures, **kw).per_query)
    kept = evaluate(fractional, run, measures, **kw).per_query
    assert not kept.equals(truncated.per_query)


def test_duplicates_are_errors():
    qrels = pd.DataFrame({"qid": ["a"], "docno": ["d1"], "grade": [1]})
    run = pd.DataFrame({"qid": ["a", "a"], "docno": ["d1", "d1"], "score": [1.0, 2.0]})
    with pytest.raises(ValueError, match=r"run lists \(a, d1\) more than once"):
        evaluate(qrels, run)
    with pytest.raises(ValueError, match=r"qrels lists \(a, d1\) more than once"):
        evaluate(pd.concat([qrels, qrels]), run.iloc[:1])
