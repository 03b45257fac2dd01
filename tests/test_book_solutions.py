"""The exercise solutions' own NumPy code agrees with the outside tools it is checked
against in the chapters: trec_eval 10.0 (the binary the tests build) and ranx."""

from __future__ import annotations

import numpy as np
import pytest

from dcglab.book import solutions, tools

SEEDS = range(12)


def ranking(seed: int) -> tuple[list[int], list[int]]:
    """Grades 0-3 of a ranking of 4-9 documents, and of 0-4 judged documents it misses."""
    rng = np.random.default_rng(seed)
    ranked = rng.integers(0, 4, size=int(rng.integers(4, 10))).tolist()
    missed = rng.integers(0, 4, size=int(rng.integers(0, 5))).tolist()
    if not any(ranked):
        ranked[-1] = 1
    return ranked, missed


def trec_files(ranked: list[int], missed: list[int]) -> tuple[dict, dict]:
    """Qrels holding the ranked and the missed documents, and a run of the ranked ones
    with falling scores."""
    qrels = {
        "q1": {f"r{i}": g for i, g in enumerate(ranked)}
        | {f"m{i}": g for i, g in enumerate(missed)}
    }
    run = {"q1": {f"r{i}": float(len(ranked) - i) for i in range(len(ranked))}}
    return qrels, run


def printed(qrels: dict, run: dict, args: list[str]) -> float:
    out = tools.trec_eval(qrels, run, args)
    assert out.status == 0, out.stderr
    return float(out.stdout.split()[-1])


@pytest.fixture
def trec_eval_env(trec_eval_binary, monkeypatch: pytest.MonkeyPatch) -> None:
    """tools.trec_eval runs the binary the tests built."""
    monkeypatch.setenv("TREC_EVAL", str(trec_eval_binary))


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("k", [1, 3, 5])
def test_ndcg_at_is_trec_evals_ndcg_cut(trec_eval_env, seed: int, k: int) -> None:
    ranked, missed = ranking(seed)
    qrels, run = trec_files(ranked, missed)
    expected = printed(qrels, run, ["-m", f"ndcg_cut.{k}"])
    assert f"{solutions.ndcg_at(ranked, ranked + missed, k):.4f}" == f"{expected:.4f}"


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("theta", [1, 2])
def test_average_precision_is_trec_evals_map(trec_eval_env, seed: int, theta: int) -> None:
    ranked, _ = ranking(seed)
    if not any(g >= theta for g in ranked):
        ranked[0] = theta
    qrels, run = trec_files(ranked, [])
    expected = printed(qrels, run, ["-l", str(theta), "-m", "map"])
    assert f"{solutions.average_precision(ranked, theta):.4f}" == f"{expected:.4f}"


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("p", [0.5, 0.8])
def test_rbp_is_ranxs_rbp_on_binary_grades(require, seed: int, p: float) -> None:
    require("ranx")
    relevant = [int(g > 0) for g in ranking(seed)[0]]
    assert solutions.rbp(relevant, p) == pytest.approx(
        tools.ranx_of_grades(relevant, f"rbp.{round(10 * p)}"), abs=1e-12
    )
