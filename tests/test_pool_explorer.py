"""Chapter 12's pool explorer: its JavaScript twin (pool_twin.js) agrees with dcglab.

pool_twin.js is evaluated in Chromium on seeded random collections, for every pool
depth, every number of contributing runs and both rules for unjudged documents; its
results must equal :meth:`PoolExplorer.compute` within 1e-12. Kendall's tau and
Judged@k are checked on their own against :mod:`dcglab.collections.pooling` and
:mod:`dcglab.evaluation.batch.binary`, and ``compute`` itself against
:func:`dcglab.evaluation.batch.evaluate`
on the same pooled judgments.
"""

from __future__ import annotations

import numpy as np
import pytest
from sitekit import twin_page

from dcglab.book.explorers.base import asset, twin_script
from dcglab.book.explorers.pooling import (
    PoolExplorer,
    decode_indices,
    encode_indices,
    explorer_data,
)
from dcglab.collections.pooling import judge, kendall_tau, mean_scores, pool, qrels_frame, run_frame
from dcglab.evaluation.batch.binary import Ranking, binary_measure

TOL = 1e-12


def collection(seed: int, n_runs: int = 4, n_queries: int = 6, n_docs: int = 40, top: int = 12):
    """Random complete judgments (grades 0..3, mostly 0) and runs of 3 to ``top`` documents."""
    rng = np.random.default_rng(seed)
    docs = [f"d{i}" for i in range(n_docs)]
    truth = {
        q: {d: int(g) for d, g in zip(docs, rng.choice(4, n_docs, p=[0.75, 0.12, 0.08, 0.05]))}
        for q in range(n_queries)
    }
    runs = {
        f"r{r}": {q: list(rng.permutation(docs)[: rng.integers(3, top + 1)]) for q in truth}
        for r in range(n_runs)
    }
    return runs, truth


def states(data):
    return [
        (depth, n, rule)
        for depth in range(1, data["k"] + 1)
        for n in range(1, len(data["names"]) + 1)
        for rule in ("zero", "condensed")
    ]


@pytest.fixture(scope="module")
def twin(browser):
    with twin_page(
        browser,
        twin_script() + asset("pool_twin.js"),
        "{poolResults, kendallTau, judgedAt, decodeIndices}",
    ) as page:
        yield page


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_results_agree_with_python_in_every_state(twin, seed):
    runs, truth = collection(seed)
    data = explorer_data(runs, truth, list(truth), top=12, k=5)
    cases = states(data)
    js = twin.evaluate(
        "([D, C]) => C.map(([h, n, rule]) => twin.poolResults(D, h, n, rule))", [data, cases]
    )
    for (depth, n, rule), got in zip(cases, js):
        want = PoolExplorer.compute({"data": data, "depth": depth, "contributors": n, "rule": rule})
        assert set(got) == set(want)
        for key, value in want.items():
            if value is None:
                assert got[key] is None, (depth, n, rule, key)
            else:
                assert got[key] == pytest.approx(value, abs=TOL), (depth, n, rule, key)


def test_indices_round_trip_in_both_languages(twin):
    lists = [[0, 1, 35, 36, 1295], [], list(range(0, 1296, 7))]
    texts = [encode_indices(x) for x in lists]
    assert [decode_indices(t) for t in texts] == lists
    assert twin.evaluate("T => T.map((t) => twin.decodeIndices(t))", texts) == lists
    with pytest.raises(ValueError, match="indices must lie in 0..1295"):
        encode_indices([1296])


def test_kendall_tau_twin(twin):
    rng = np.random.default_rng(3)
    pairs = [rng.integers(0, 5, (2, n)).tolist() for n in range(2, 12) for _ in range(20)]
    pairs += [[[1, 1, 1], [1, 2, 3]], [[0.1, 0.2], [0.2, 0.1]]]
    js = twin.evaluate("P => P.map(([x, y]) => twin.kendallTau(x, y))", pairs)
    for (x, y), got in zip(pairs, js):
        if len(set(x)) < 2 or len(set(y)) < 2:
            assert got is None
        else:
            assert got == pytest.approx(kendall_tau(x, y), abs=TOL)


def test_judged_at_k_twin(twin):
    rng = np.random.default_rng(4)
    flags = [rng.random(n) < 0.6 for n in range(0, 15) for _ in range(5)]
    k = 10
    js = twin.evaluate("F => F.map((f) => twin.judgedAt(f, 10))", [f.tolist() for f in flags])
    width = max(len(f) for f in flags)
    judged = np.zeros((len(flags), width), dtype=bool)
    for i, f in enumerate(flags):
        judged[i, : len(f)] = f
    n_ret = np.array([len(f) for f in flags])
    none = np.zeros(len(flags), dtype=int)
    want = binary_measure("Judged", k, Ranking(judged, judged, n_ret, none, none))
    assert np.max(np.abs(np.array(js) - want)) <= TOL


@pytest.mark.parametrize("rule", ["zero", "condensed"])
def test_compute_is_what_batch_evaluate_gives_on_the_same_pool(rule):
    """The explorer's per-run arithmetic, against qrels and runs scored by
    dcglab.evaluation.batch."""
    runs, truth = collection(5, n_runs=5, top=12)
    top = {name: {q: docs[:12] for q, docs in run.items()} for name, run in runs.items()}
    data = explorer_data(top, truth, list(truth), top=12, k=5)
    depth, n = 3, 2
    got = PoolExplorer.compute({"data": data, "depth": depth, "contributors": n, "rule": rule})
    frames = {name: run_frame(run) for name, run in top.items()}
    complete = mean_scores(qrels_frame(truth), frames, ["ndcg_cut.5"], zero_idcg="zero")
    pooled = qrels_frame(judge(truth, pool(list(top.values())[:n], depth)))
    scores = mean_scores(
        pooled,
        frames,
        ["ndcg_cut.5", "Judged@5"],
        zero_idcg="zero",
        judged_only=rule == "condensed",
    )
    change = scores["ndcg_cut_5"] - complete["ndcg_cut_5"]
    assert got["change_in"] == pytest.approx(change.iloc[:n].mean(), abs=TOL)
    assert got["change_out"] == pytest.approx(change.iloc[n:].mean(), abs=TOL)
    assert got["tau"] == pytest.approx(
        kendall_tau(complete["ndcg_cut_5"], scores["ndcg_cut_5"]), abs=TOL
    )
    if rule == "zero":  # with -J every retrieved document is judged
        assert got["judged_out"] == pytest.approx(scores["Judged@5"].iloc[n:].mean(), abs=TOL)


def test_every_run_in_the_pool_leaves_no_others():
    runs, truth = collection(6)
    data = explorer_data(runs, truth, list(truth))
    got = PoolExplorer.compute({"data": data, "depth": 10, "contributors": 4, "rule": "zero"})
    assert got["change_out"] is None and got["judged_out"] is None


def test_bad_input_is_named():
    runs, truth = collection(7)
    with pytest.raises(ValueError, match="integer grades from 0 to 9"):
        explorer_data(runs, {0: {"d1": 2.5}}, [0])
    data = explorer_data(runs, truth, list(truth))
    with pytest.raises(ValueError, match="rule must be one of"):
        PoolExplorer.compute({"data": data, "depth": 2, "contributors": 1, "rule": "skip"})


def test_defaults_and_text_form():
    e = PoolExplorer()
    assert (e.depth, e.contributors, e.rule) == (10, 3, "zero")
    assert repr(e) == "PoolExplorer(depth=10, contributors=3, rule='zero')"
