"""Pools, judged pools, leave-one-out pools and Kendall's tau (dcglab.collections.pooling)."""

from __future__ import annotations

import subprocess

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from dcglab.collections.pooling import (
    judge,
    kendall_tau,
    leave_one_out,
    mean_scores,
    pool,
    qrels_frame,
    run_frame,
)
from dcglab.evaluation import batch

RUNS = {
    "a": {"q1": ["d1", "d2", "d3", "d4"], "q2": ["d5", "d6"]},
    "b": {"q1": ["d3", "d7", "d1", "d8"]},
    "c": {"q1": ["d9", "d3", "d2"], "q2": ["d6", "d7"]},
}


def test_pool_is_the_union_of_each_runs_top_d() -> None:
    pooled = pool(RUNS.values(), 2)
    assert pooled == {"q1": {"d1", "d2", "d3", "d7", "d9"}, "q2": {"d5", "d6", "d7"}}
    assert pool(RUNS.values(), 100)["q1"] == {"d1", "d2", "d3", "d4", "d7", "d8", "d9"}


@pytest.mark.parametrize("depth", [0, -1, 2.0, True, "10", None])
def test_pool_rejects_a_depth_that_is_not_a_positive_integer(depth) -> None:
    with pytest.raises(ValueError, match=f"depth must be a positive integer, got {depth!r}"):
        pool(RUNS.values(), depth)


def test_pool_needs_a_run() -> None:
    with pytest.raises(ValueError, match="runs is empty"):
        pool([], 10)


def test_judge_keeps_pooled_grades_and_judges_the_rest_non_relevant() -> None:
    truth = {"q1": {"d1": 2, "d4": 1, "d8": 3}, "q2": {"d6": 1}}
    judged = judge(truth, pool(RUNS.values(), 2))
    assert judged == {
        "q1": {"d1": 2, "d2": 0, "d3": 0, "d7": 0, "d9": 0},
        "q2": {"d5": 0, "d6": 1, "d7": 0},
    }
    assert judge(truth, {"q3": {"d1"}}, default=-1) == {"q3": {"d1": -1}}


def test_leave_one_out_pools_the_other_contributors() -> None:
    pools = leave_one_out(RUNS, 1)
    assert pools == {
        "a": pool([RUNS["b"], RUNS["c"]], 1),
        "b": pool([RUNS["a"], RUNS["c"]], 1),
        "c": pool([RUNS["a"], RUNS["b"]], 1),
    }
    assert set(leave_one_out(RUNS, 1, contributors=["a", "b"])) == {"a", "b"}
    assert leave_one_out(RUNS, 1, contributors=["a", "b"])["a"] == pool([RUNS["b"]], 1)


def test_leave_one_out_drops_the_whole_group() -> None:
    groups = {"a": "x", "b": "x", "c": "y"}
    pools = leave_one_out(RUNS, 2, groups=groups)
    assert pools["a"] == pools["b"] == pool([RUNS["c"]], 2)
    assert pools["c"] == pool([RUNS["a"], RUNS["b"]], 2)


def test_leave_one_out_names_bad_arguments() -> None:
    with pytest.raises(ValueError, match=r"not in runs: \['z'\]"):
        leave_one_out(RUNS, 1, contributors=["a", "z"])
    with pytest.raises(ValueError, match=r"no group for contributors \['c'\]"):
        leave_one_out(RUNS, 1, groups={"a": "x", "b": "x"})
    with pytest.raises(ValueError, match="leaves no contributor"):
        leave_one_out(RUNS, 1, groups=dict.fromkeys(RUNS, "all"))


def test_kendall_tau_counts_concordant_and_discordant_pairs() -> None:
    assert kendall_tau([3, 2, 1], [30, 20, 10]) == 1.0
    assert kendall_tau([3, 2, 1], [10, 20, 30]) == -1.0
    # one swapped pair of 6: (5 - 1) / 6
    assert kendall_tau([4, 3, 2, 1], [4, 2, 3, 1]) == pytest.approx(4 / 6, abs=1e-15)


scores = st.lists(st.integers(0, 6), min_size=2, max_size=30)


@given(st.data())
def test_kendall_tau_is_scipys_tau_b(data) -> None:
    """Ties included (integer scores tie often), against scipy's tau-b."""
    stats = pytest.importorskip("scipy.stats")
    x = data.draw(scores)
    y = data.draw(st.lists(st.integers(0, 6), min_size=len(x), max_size=len(x)))
    if len(set(x)) < 2 or len(set(y)) < 2:
        with pytest.raises(ValueError, match="same score"):
            kendall_tau(x, y)
        return
    assert kendall_tau(x, y) == pytest.approx(stats.kendalltau(x, y).statistic, abs=1e-12)


@pytest.mark.parametrize(
    ("x", "y", "message"),
    [
        ([1, 2], [1, 2, 3], "equal length"),
        ([1], [1], "at least two systems"),
        ([1, float("nan")], [1, 2], "finite"),
        ([1, 1], [1, 2], "same score"),
    ],
)
def test_kendall_tau_rejects_bad_input(x, y, message) -> None:
    with pytest.raises(ValueError, match=message):
        kendall_tau(x, y)


def test_frames_round_trip_the_ranking_and_the_grades() -> None:
    run = run_frame(RUNS["a"]).sort_values("score", ascending=False)
    assert run.groupby("qid")["docno"].agg(list).to_dict() == {
        "q1": ["d1", "d2", "d3", "d4"],
        "q2": ["d5", "d6"],
    }
    qrels = qrels_frame({"q1": {"d1": 2, "d2": 0}})
    assert qrels.to_dict("list") == {"qid": ["q1", "q1"], "docno": ["d1", "d2"], "grade": [2, 0]}


def _simulation(seed: int, n_queries: int = 12, n_docs: int = 60, n_runs: int = 5):
    """Random complete judgments and runs (docnos chosen so that ties in docno order
    cannot matter: every run's scores are distinct)."""
    rng = np.random.default_rng(seed)
    docs = [f"D{i:03d}" for i in range(n_docs)]
    truth = {
        f"Q{q}": {d: int(g) for d, g in zip(docs, rng.choice(4, n_docs, p=[0.8, 0.1, 0.06, 0.04]))}
        for q in range(n_queries)
    }
    runs = {
        f"r{r}": {q: list(rng.permutation(docs)[: rng.integers(5, 40)]) for q in truth}
        for r in range(n_runs)
    }
    return truth, runs


def _trec_eval_per_query(binary, qrels, run, tmp_path, *options) -> dict[str, str]:
    qrels_path, run_path = tmp_path / "qrels", tmp_path / "run"
    qrels_path.write_text(
        "".join(f"{r.qid} 0 {r.docno} {r.grade}\n" for r in qrels.itertuples(index=False))
    )
    run_path.write_text(
        "".join(f"{r.qid} Q0 {r.docno} 0 {r.score} t\n" for r in run.itertuples(index=False))
    )
    out = subprocess.run(
        [str(binary), "-q", "-c", *options, "-m", "ndcg_cut.10", str(qrels_path), str(run_path)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    rows = (line.split() for line in out.splitlines())
    return {qid: value for name, qid, value in rows if name == "ndcg_cut_10" and qid != "all"}


@pytest.mark.parametrize("judged_only", [False, True], ids=["zero-rule", "condensed"])
@pytest.mark.parametrize("seed", [0, 1])
def test_pooled_scores_match_trec_eval(trec_eval_binary, tmp_path, seed, judged_only) -> None:
    """A run that did not contribute, scored on a pool of the others' top 10, under the
    zero rule and with -J: dcglab's per-query nDCG@10 prints as trec_eval 10.0's."""
    truth, runs = _simulation(seed)
    pools = leave_one_out(runs, 10)
    qrels, run = qrels_frame(judge(truth, pools["r0"])), run_frame(runs["r0"])
    options = ("-J",) if judged_only else ()
    theirs = _trec_eval_per_query(trec_eval_binary, qrels, run, tmp_path, *options)
    ours = batch.evaluate(qrels, run, ["ndcg_cut.10"], zero_idcg="zero", judged_only=judged_only)
    table = ours.per_query["ndcg_cut_10"]
    assert {q: f"{v:.4f}" for q, v in table.items()} == theirs
    assert len(theirs) == len(truth)


def test_mean_scores_is_one_row_of_means_per_run() -> None:
    truth, runs = _simulation(2)
    qrels = qrels_frame(judge(truth, pool(runs.values(), 5)))
    frames = {name: run_frame(run) for name, run in runs.items()}
    table = mean_scores(qrels, frames, ["ndcg_cut.10", "P.5"], zero_idcg="zero")
    assert list(table.index) == list(runs) and list(table.columns) == ["ndcg_cut_10", "P_5"]
    for name, frame in frames.items():
        means = batch.evaluate(qrels, frame, ["ndcg_cut.10", "P.5"], zero_idcg="zero").means()
        assert table.loc[name].to_dict() == means
    with pytest.raises(ValueError, match="runs is empty"):
        mean_scores(qrels, {}, ["P.5"])
