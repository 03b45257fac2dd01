"""dcglab agrees with trec_eval, scikit-learn, ranx and ir_measures on every
convention they share (test-only dependencies).

Conventions (see DESIGN.md):
- trec_eval ``ndcg_cut.k`` / ranx ``ndcg@k`` / ir_measures ``nDCG@k``: linear gain,
  1/log2(i+1), ideal from all judged documents cut at k;
- trec_eval ``ndcg``: the same with no cutoff on either side;
- ranx ``ndcg_burges@k``: exponential gain 2^rel - 1;
- scikit-learn ``ndcg_score``/``dcg_score``: the ideal from the items passed.

Scores are distinct here, so tie rules (a later issue) do not matter.
"""

import numpy as np
import pytest

from dcglab import dcg, ndcg

N_QUERIES = 40
KS = (1, 3, 5, 10)


def make_query(rng, q):
    """Judged docs with grades 0-3; a run of 15 docs mixing judged and unjudged ones."""
    judged = {f"d{q}_{i}": int(rng.integers(0, 4)) for i in range(int(rng.integers(3, 12)))}
    if not any(judged.values()):
        judged[f"d{q}_0"] = 2
    pool = list(judged) + [f"u{q}_{i}" for i in range(10)]
    docs = rng.choice(pool, size=min(15, len(pool)), replace=False).tolist()
    scores = np.sort(rng.permutation(len(docs)) + rng.random(len(docs)))[::-1] + 1
    run = {d: float(s) for d, s in zip(docs, scores)}
    ranked_grades = [judged.get(d, 0) for d in docs]
    return judged, run, ranked_grades


@pytest.fixture(scope="module")
def workload():
    rng = np.random.default_rng(20261130)
    queries = {f"q{q}": make_query(rng, q) for q in range(N_QUERIES)}
    qrels = {q: v[0] for q, v in queries.items()}
    run = {q: v[1] for q, v in queries.items()}
    return queries, qrels, run


def dcglab_values(queries, k, gain="linear"):
    return {
        q: ndcg(grades, k, judged=list(judged.values()), gain=gain)
        for q, (judged, _, grades) in queries.items()
    }


def test_trec_eval_ndcg_cut_and_ndcg(workload):
    pytrec_eval = pytest.importorskip("pytrec_eval")
    queries, qrels, run = workload
    measures = {f"ndcg_cut_{k}" for k in KS} | {"ndcg"}
    result = pytrec_eval.RelevanceEvaluator(qrels, measures).evaluate(run)
    for k in KS:
        ours = dcglab_values(queries, k)
        for q in queries:
            assert ours[q] == pytest.approx(result[q][f"ndcg_cut_{k}"], abs=1e-12)
    full = dcglab_values(queries, None)
    for q in queries:
        assert full[q] == pytest.approx(result[q]["ndcg"], abs=1e-12)


def test_ranx_ndcg_and_ndcg_burges(workload):
    ranx = pytest.importorskip("ranx")
    queries, qrels, run = workload
    metrics = [f"ndcg@{k}" for k in KS] + [f"ndcg_burges@{k}" for k in KS]
    scores = ranx.evaluate(ranx.Qrels(qrels), ranx.Run(run), metrics, return_mean=False)
    ids = list(ranx.Run(run).keys())
    for k in KS:
        for gain, name in (("linear", "ndcg"), ("exponential", "ndcg_burges")):
            ours = dcglab_values(queries, k, gain)
            theirs = dict(zip(ids, scores[f"{name}@{k}"]))
            for q in queries:
                assert ours[q] == pytest.approx(theirs[q], abs=1e-12), (name, k, q)


def test_ir_measures_ndcg_at_k(workload):
    ir_measures = pytest.importorskip("ir_measures")
    queries, qrels, run = workload
    measures = [ir_measures.nDCG @ k for k in KS] + [ir_measures.nDCG]
    got = {
        (str(m.measure), m.query_id): m.value for m in ir_measures.iter_calc(measures, qrels, run)
    }
    for k in KS:
        ours = dcglab_values(queries, k)
        for q in queries:
            assert ours[q] == pytest.approx(got[(f"nDCG@{k}", q)], abs=1e-12)
    full = dcglab_values(queries, None)
    for q in queries:
        assert full[q] == pytest.approx(got[("nDCG", q)], abs=1e-12)


def test_scikit_learn_ideal_from_items_passed(workload):
    metrics = pytest.importorskip("sklearn.metrics")
    queries, _, _ = workload
    for q, (_, run, grades) in queries.items():
        scores = np.array([list(run.values())])
        truth = np.array([grades])
        for k in KS:
            if any(grades):
                theirs = metrics.ndcg_score(truth, scores, k=k)
                assert ndcg(grades, k, ideal="retrieved") == pytest.approx(theirs, abs=1e-12)
            assert dcg(grades, k) == pytest.approx(
                metrics.dcg_score(truth, scores, k=k), abs=1e-12
            ), q
