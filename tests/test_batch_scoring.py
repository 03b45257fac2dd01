"""Scoring (:func:`dcglab.evaluation.batch.evaluate`, :func:`dcglab.evaluation.batch.compute`):
agreement with
each reference library under that library's own convention, on seeded random runs
with ties and grades 0-3, within 1e-12; the conventions and their errors."""

import numpy as np
import pandas as pd
import pytest
from workloads import as_dicts, tie_workload

from dcglab.evaluation.batch import evaluate

TOL = 1e-12


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("float32_ties", [False, True])
def test_trec_eval_ndcg_and_ndcg_cut(seed, float32_ties, references):
    """pytrec_eval (trec_eval 9.x inside) rounds scores to float32: so does
    ``score_precision="float32"``."""
    qrels, run = tie_workload(seed, float32_ties=float32_ties)
    r, j = as_dicts(run, qrels)
    names = {"ndcg", "ndcg_cut_1", "ndcg_cut_5", "ndcg_cut_10", "ndcg_cut_100"}
    theirs = references.trec_eval(j, r, names)
    ours = evaluate(
        qrels, run, ["ndcg", "ndcg_cut.1,5,10,100"], zero_idcg="zero", score_precision="float32"
    ).per_query
    assert sorted(theirs) == list(ours.index)
    for q, row in ours.iterrows():
        for name in names:
            assert row[name] == pytest.approx(theirs[q][name], abs=TOL), (q, name)


def test_ir_measures_ndcg_at_k(references):
    qrels, run = tie_workload(7)
    r, j = as_dicts(run, qrels)
    ours = evaluate(qrels, run, ["nDCG@5", "ndcg"], zero_idcg="zero").per_query
    theirs = references.ir_measures(j, r, ["nDCG@5", "nDCG"])
    for name, col in (("nDCG@5", "nDCG@5"), ("nDCG", "ndcg")):
        assert sorted(theirs[name]) == list(ours.index)
        for q, value in theirs[name].items():
            assert ours.loc[q, col] == pytest.approx(value, abs=TOL)


@pytest.mark.slow  # ranx compiles its measures with numba on first use
def test_ranx_ndcg_and_ndcg_burges_without_ties(references):
    """ranx breaks score ties its own way, so it is compared on untied scores."""
    qrels, run = tie_workload(8)
    run["score"] = np.random.default_rng(8).permutation(len(run)).astype(float)
    r, j = as_dicts(run, qrels)
    theirs = references.ranx(j, r, ["ndcg@5", "ndcg", "ndcg_burges@5", "ndcg_burges"])
    for gain, name in (("linear", "ndcg"), ("exponential", "ndcg_burges")):
        ours = evaluate(qrels, run, ["ndcg_cut.5", "ndcg"], gain=gain, zero_idcg="zero")
        for ours_col, metric in (("ndcg_cut_5", f"{name}@5"), ("ndcg", name)):
            for q, v in ours.per_query[ours_col].items():
                assert v == pytest.approx(theirs[metric][q], abs=TOL), (metric, q)


def test_scikit_learn_ideal_from_items_and_tie_averaging(references):
    qrels, run = tie_workload(9, tie_levels=2)
    ours = evaluate(
        qrels,
        run,
        ["ndcg_cut.3", "ndcg", "dcg_cut.3", "dcg"],
        ideal="retrieved",
        ties="average",
        zero_idcg="skip",
    ).per_query
    grades = run.merge(qrels, on=["qid", "docno"], how="left").fillna({"grade": 0})
    for q, g in grades.groupby("qid"):
        truth, score = g["grade"].to_numpy(), g["score"].to_numpy()
        if len(g) < 2:
            continue  # scikit-learn refuses a single document
        sk = references.sklearn
        assert ours.loc[q, "dcg_cut_3"] == pytest.approx(sk("dcg", truth, score, 3), abs=TOL)
        assert ours.loc[q, "dcg"] == pytest.approx(sk("dcg", truth, score), abs=TOL)
        if truth.sum() > 0:
            assert ours.loc[q, "ndcg_cut_3"] == pytest.approx(sk("ndcg", truth, score, 3), abs=TOL)
            assert ours.loc[q, "ndcg"] == pytest.approx(sk("ndcg", truth, score), abs=TOL)
        else:
            assert np.isnan(ours.loc[q, "ndcg"])


def test_trec_measures_do_not_depend_on_the_blocks(monkeypatch):
    """trec_eval's own measures are computed a block of queries at a time, on two
    threads: blocks of one query each give the same values, bit for bit."""
    from dcglab.evaluation.batch import all_trec

    qrels, run = tie_workload(11)
    options = {"zero_idcg": "zero", "missing": "zero", "negative_grades": "unjudged"}
    whole = evaluate(qrels, run, ["all_trec"], **options).per_query
    monkeypatch.setattr(all_trec, "TREC_BLOCK", 1)
    pieces = evaluate(qrels, run, ["all_trec"], **options).per_query
    assert len(whole) == 60 and "infAP" in whole and "relstring" in whole
    pd.testing.assert_frame_equal(whole, pieces, check_exact=True)


def test_batch_agrees_with_single_query_measures():
    qrels, run = tie_workload(11)
    run["score"] = np.arange(len(run), 0, -1, dtype=float)  # distinct, in file order
    res = evaluate(
        qrels,
        run,
        ["ndcg_cut.4"],
        gain="exponential",
        discount="jk:3",
        ideal="qrels",
        zero_idcg="one",
    ).per_query
    judged = qrels.groupby("qid")
    for q, g in run.groupby("qid"):
        j = dict(zip(judged.get_group(q)["docno"], judged.get_group(q)["grade"]))
        grades = [j.get(d, 0) for d in g["docno"]]
        # ideal="qrels": DCG cut at 4, IDCG over every judged document
        from dcglab import dcg, idcg

        i = idcg(list(j.values()), gain="exponential", discount="jk:3")
        want = dcg(grades, 4, "exponential", "jk:3") / i if i > 0 else 1.0
        assert res.loc[q, "ndcg_cut_4"] == pytest.approx(want, abs=TOL)


def test_missing_queries_and_trec_c():
    qrels = pd.DataFrame({"qid": ["a", "b"], "docno": ["d1", "d2"], "grade": [1, 2]})
    run = pd.DataFrame({"qid": ["a", "z"], "docno": ["d1", "d9"], "score": [1.0, 1.0]})
    assert list(evaluate(qrels, run).per_query.index) == ["a"]
    full = evaluate(qrels, run, missing="zero").per_query["ndcg_cut_10"]
    assert full.to_dict() == {"a": 1.0, "b": 0.0}


def test_zero_idcg_policies_and_means():
    qrels = pd.DataFrame({"qid": ["a", "b", "b"], "docno": ["d1", "d2", "d3"], "grade": [2, 0, 0]})
    run = pd.DataFrame(
        {"qid": ["a", "a", "b"], "docno": ["d0", "d1", "d2"], "score": [2.0, 1.0, 1.0]}
    )
    with pytest.raises(ValueError, match="IDCG is 0 for 1 queries"):
        evaluate(qrels, run)
    a = 1 / np.log2(3)
    for policy, mean in (("zero", a / 2), ("one", (a + 1) / 2), ("skip", a)):
        res = evaluate(qrels, run, ["ndcg"], zero_idcg=policy)
        assert res.mean()["ndcg"] == pytest.approx(mean)
    res = evaluate(qrels, run, ["ndcg"], zero_idcg="zero")
    assert res.weighted_mean({"a": 3, "b": 1})["ndcg"] == pytest.approx(3 * a / 4)
    with pytest.raises(ValueError, match="non-negative"):
        res.weighted_mean({"a": -1})


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"measures": ["no_such_measure"]}, "unknown measure"),
        ({"measures": ["ndcg_cut.0"]}, "cutoff must be >= 1"),
        ({"measures": []}, "measures is empty"),
        ({"ideal": "best"}, "ideal must be one of"),
        ({"ties": "random"}, "ties must be one of"),
        ({"missing": "drop"}, "missing must be"),
        ({"discount": "log:1"}, "base must be greater than 1"),
        ({"gain": "quadratic"}, "gain must be"),
    ],
)
def test_bad_arguments(kwargs, message):
    qrels = pd.DataFrame({"qid": ["a"], "docno": ["d1"], "grade": [1]})
    run = pd.DataFrame({"qid": ["a"], "docno": ["d1"], "score": [1.0]})
    with pytest.raises(ValueError, match=message):
        evaluate(qrels, run, **kwargs)


def test_negative_grades_need_a_mapping():
    qrels = pd.DataFrame({"qid": ["a", "a"], "docno": ["d1", "d2"], "grade": [1, -1]})
    run = pd.DataFrame({"qid": ["a"], "docno": ["d2"], "score": [1.0]})
    with pytest.raises(ValueError, match="use a gain mapping"):
        evaluate(qrels, run)
    res = evaluate(qrels, run, gain={1: 4, -1: 0})
    assert res.per_query["ndcg_cut_10"].iloc[0] == 0.0


def test_negative_grades_message_names_the_option_that_accepts_them():
    qrels = pd.DataFrame({"qid": ["a", "a"], "docno": ["d1", "d2"], "grade": [1, -1]})
    run = pd.DataFrame({"qid": ["a"], "docno": ["d2"], "score": [1.0]})
    with pytest.raises(ValueError, match="negative_grades='unjudged'"):
        evaluate(qrels, run)
    res = evaluate(qrels, run, ["ndcg", "P.1"], negative_grades="unjudged", judged_only=True)
    assert res.per_query.iloc[0].tolist() == [0.0, 0.0]  # d2 dropped by -J: nothing left


def test_missing_error_names_the_first_query_and_the_options():
    qrels = pd.DataFrame({"qid": ["q3", "q1", "q2"], "docno": ["d"] * 3, "grade": [1, 1, 1]})
    run = pd.DataFrame({"qid": ["q1"], "docno": ["d"], "score": [1.0]})
    with pytest.raises(ValueError, match=r"query q2 of the qrels .* -c \(missing='zero'\)"):
        evaluate(qrels, run, missing="error")
    assert evaluate(qrels, run, missing="ignore").per_query.index.tolist() == ["q1"]
    assert evaluate(qrels, run, missing="zero").per_query.index.tolist() == ["q1", "q2", "q3"]


@pytest.mark.parametrize(("precision", "expected"), [("double", 0.0), ("float32", 1.0)])
def test_score_precision(precision, expected):
    """0.7000000001 ranks above 0.7 as doubles; as float32 they tie, and the tie
    goes to the larger docno, "b"."""
    qrels = pd.DataFrame({"qid": ["q"] * 2, "docno": ["a", "b"], "grade": [0, 2]})
    run = pd.DataFrame({"qid": ["q"] * 2, "docno": ["a", "b"], "score": [0.7000000001, 0.7]})
    res = evaluate(qrels, run, ["ndcg_cut.1"], score_precision=precision)
    assert res.per_query["ndcg_cut_1"].iloc[0] == expected


def test_score_precision_is_checked():
    with pytest.raises(ValueError, match=r"score_precision must be one of \('double', 'float32'\)"):
        evaluate(pd.DataFrame(), pd.DataFrame(), score_precision="float64")
