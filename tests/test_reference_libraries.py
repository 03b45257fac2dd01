"""dcglab agrees with trec_eval, scikit-learn, ranx and ir_measures on every
convention they share (test-only dependencies, called through the shared
``references`` fixture of ``conftest.py``).

Conventions:
- trec_eval ``ndcg_cut.k`` / ranx ``ndcg@k`` / ir_measures ``nDCG@k``: linear gain,
  1/log2(i+1), ideal from all judged documents cut at k;
- trec_eval ``ndcg``: the same with no cutoff on either side;
- ranx ``ndcg_burges@k``: exponential gain 2^rel - 1;
- scikit-learn ``ndcg_score``/``dcg_score``: the ideal from the items passed.

Scores are distinct here, so tie rules do not matter (``test_batch_scoring.py`` covers ties).
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


def test_trec_eval_ndcg_cut_and_ndcg(workload, references):
    queries, qrels, run = workload
    result = references.trec_eval(qrels, run, {f"ndcg_cut_{k}" for k in KS} | {"ndcg"})
    for k in KS:
        ours = dcglab_values(queries, k)
        for q in queries:
            assert ours[q] == pytest.approx(result[q][f"ndcg_cut_{k}"], abs=1e-12)
    full = dcglab_values(queries, None)
    for q in queries:
        assert full[q] == pytest.approx(result[q]["ndcg"], abs=1e-12)


@pytest.mark.slow  # ranx compiles its measures with numba on first use
def test_ranx_ndcg_and_ndcg_burges(workload, references):
    queries, qrels, run = workload
    scores = references.ranx(
        qrels, run, [f"ndcg@{k}" for k in KS] + [f"ndcg_burges@{k}" for k in KS]
    )
    for k in KS:
        for gain, name in (("linear", "ndcg"), ("exponential", "ndcg_burges")):
            ours = dcglab_values(queries, k, gain)
            for q in queries:
                assert ours[q] == pytest.approx(scores[f"{name}@{k}"][q], abs=1e-12), (name, k, q)


def test_ir_measures_ndcg_at_k(workload, references):
    queries, qrels, run = workload
    got = references.ir_measures(qrels, run, [f"nDCG@{k}" for k in KS] + ["nDCG"])
    for k in KS:
        ours = dcglab_values(queries, k)
        for q in queries:
            assert ours[q] == pytest.approx(got[f"nDCG@{k}"][q], abs=1e-12)
    full = dcglab_values(queries, None)
    for q in queries:
        assert full[q] == pytest.approx(got["nDCG"][q], abs=1e-12)


def test_scikit_learn_ideal_from_items_passed(workload, references):
    queries, _, _ = workload
    n_compared = 0
    for q, (_, run, grades) in queries.items():
        scores = list(run.values())
        for k in KS:
            if any(grades):
                theirs = references.sklearn("ndcg", grades, scores, k)
                assert ndcg(grades, k, ideal="retrieved") == pytest.approx(theirs, abs=1e-12)
                n_compared += 1
            assert dcg(grades, k) == pytest.approx(
                references.sklearn("dcg", grades, scores, k), abs=1e-12
            ), q
    assert n_compared >= len(KS) * N_QUERIES // 2  # most queries retrieve something relevant
