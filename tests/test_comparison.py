"""dcglab.statistics.comparison: statistics against scipy and ranx, missing queries, formats."""

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from workloads import COMPARE_QUERIES, compare_run, compare_workload

from dcglab.evaluation.batch import evaluate
from dcglab.statistics import significance
from dcglab.statistics.comparison import compare, compare_scores, discriminative_power, swap_rates


@pytest.fixture(scope="module")
def three():
    return compare_workload()


def test_pairs_match_scipy_on_the_per_query_values(three):
    qrels, runs = three
    c = compare(qrels, runs, ["ndcg_cut.10", "ndcg_cut.5"], n_resamples=2_000, seed=7)
    assert len(c.pairs) == 6
    for row in c.pairs.itertuples():
        a = evaluate(qrels, runs[row.run_a], [row.measure], zero_idcg="error").per_query.iloc[:, 0]
        b = evaluate(qrels, runs[row.run_b], [row.measure], zero_idcg="error").per_query.iloc[:, 0]
        a, b = a.to_numpy(), b.to_numpy()
        ref = stats.ttest_rel(a, b)
        ci = ref.confidence_interval(0.95)
        boot = stats.bootstrap((a - b,), np.mean, n_resamples=2_000, method="percentile",
                               rng=np.random.default_rng(7)).confidence_interval  # fmt: skip
        expected = {
            "queries": 25, "mean_a": a.mean(), "mean_b": b.mean(), "difference": np.mean(a - b),
            "t": ref.statistic, "p_t": ref.pvalue, "t_low": ci.low, "t_high": ci.high,
            "boot_low": boot.low, "boot_high": boot.high,
            "d_z": np.mean(a - b) / np.std(a - b, ddof=1),
        }  # fmt: skip
        for key, value in expected.items():
            assert getattr(row, key) == pytest.approx(value, rel=1e-12, abs=1e-15), key
        rand = significance.randomization_test(a, b, n_resamples=2_000, seed=7)
        assert row.p_rand == rand.pvalue
    for m, block in c.pairs.groupby("measure", sort=False):
        assert block["p_t_holm"].tolist() == significance.holm(block["p_t"]).tolist()
        x = c.scores[m][["bm25", "tfidf", "bim"]].to_numpy().T
        tukey = significance.randomised_tukey_hsd(x, 2_000, 7)
        assert block["p_tukey"].tolist() == [tukey[0, 1], tukey[0, 2], tukey[1, 2]]
    assert c.means.loc["bm25", "ndcg_cut_10"] == pytest.approx(
        evaluate(qrels, runs["bm25"], ["ndcg_cut.10"]).means()["ndcg_cut_10"], rel=1e-12
    )


def test_seeded_and_independent_of_row_order(three):
    qrels, runs = three
    first = compare(qrels, runs, n_resamples=500, seed=3)
    shuffled = {k: v.sample(frac=1.0, random_state=5) for k, v in runs.items()}
    again = compare(qrels.sample(frac=1.0, random_state=6), shuffled, n_resamples=500, seed=3)
    pd.testing.assert_frame_equal(first.pairs, again.pairs)
    other_seed = compare(qrels, runs, n_resamples=500, seed=4)
    assert not first.pairs["boot_low"].equals(other_seed.pairs["boot_low"])


def test_missing_queries_follow_the_stated_rule(three):
    qrels, runs = three
    short = {"full": runs["bm25"], "short": compare_run(4, 0.2, COMPARE_QUERIES[:-2])}
    zero = compare(qrels, short, n_resamples=200)
    assert zero.settings["queries"] == 25 and zero.settings["missing"] == "zero"
    assert zero.scores["ndcg_cut_10"].loc[COMPARE_QUERIES[-2:], "short"].tolist() == [0.0, 0.0]
    kept = compare(qrels, short, missing="intersect", n_resamples=200)
    assert kept.settings["queries"] == 23 and kept.settings["dropped"] == COMPARE_QUERIES[-2:]
    with pytest.raises(ValueError, match=r"2 queries are not scored by every run \(query 'q23'"):
        compare(qrels, short, missing="error")


def test_compare_scores_refuses_unmatched_input():
    a = pd.DataFrame({"m": [0.1, 0.5, 0.3]}, index=["q1", "q2", "q3"])
    b = pd.DataFrame({"m": [0.2, 0.1, np.nan]}, index=["q1", "q2", "q3"])
    with pytest.raises(ValueError, match="query 'q3' not by 'b'"):
        compare_scores({"a": a, "b": b})
    assert compare_scores({"a": a, "b": b}, missing="intersect").settings["dropped"] == ["q3"]
    with pytest.raises(ValueError, match="has measures"):
        compare_scores({"a": a, "b": a.rename(columns={"m": "other"})})
    with pytest.raises(ValueError, match="must be a DataFrame"):
        compare_scores({"a": a, "b": [0.1, 0.2]})


def test_runs_that_tie_on_every_query_leave_the_rest_of_the_table_intact(three):
    """A copy of a run (as a reranker that changes nothing in the top 10 gives) has no
    t statistic and no d_z; its randomization p-value is 1; the other pairs are as
    without it, except that Holm's family of the t-test leaves the tied pair out."""
    qrels, runs = three
    with_copy = {**runs, "copy": runs["bm25"].copy()}
    c = compare(qrels, with_copy, ["ndcg_cut.10", "map"], n_resamples=300)
    alone = compare(qrels, runs, ["ndcg_cut.10", "map"], n_resamples=300)
    tied = (c.pairs["run_a"] == "bm25") & (c.pairs["run_b"] == "copy")
    assert tied.sum() == 2
    for col in ("t", "p_t", "p_t_holm", "d_z"):
        assert c.pairs.loc[tied, col].isna().all(), col
    assert (c.pairs.loc[tied, "difference"] == 0).all() and (c.pairs.loc[tied, "p_rand"] == 1).all()
    assert c.pairs.loc[~tied, ["t", "p_t", "p_t_holm", "d_z"]].notna().all().all()
    for _, block in c.pairs.groupby("measure", sort=False):
        defined = block["p_t"].notna()
        expected = significance.holm(block.loc[defined, "p_t"])
        assert block.loc[defined, "p_t_holm"].tolist() == expected.tolist()
    keys = ["measure", "run_a", "run_b"]
    same = c.pairs.merge(alone.pairs, on=keys, suffixes=("", "_alone"))
    assert len(same) == len(alone.pairs)
    for col in ("difference", "t", "p_t", "d_z", "boot_low", "p_rand"):
        assert same[col].tolist() == same[f"{col}_alone"].tolist(), col


def test_a_baseline_is_compared_with_each_other_run(three):
    """With a baseline the pairs are (run, baseline), difference run - baseline, and Holm
    adjusts over those pairs only."""
    qrels, runs = three
    c = compare(qrels, runs, ["ndcg_cut.10", "map"], baseline="bim", n_resamples=300)
    every = compare(qrels, runs, ["ndcg_cut.10", "map"], n_resamples=300)
    assert c.settings["baseline"] == "bim" and every.settings["baseline"] is None
    assert list(zip(c.pairs["run_a"], c.pairs["run_b"])) == [("bm25", "bim"), ("tfidf", "bim")] * 2
    for row in c.pairs.itertuples():
        a, b = c.scores[row.measure][row.run_a], c.scores[row.measure][row.run_b]
        assert row.difference == pytest.approx(float((a - b).mean()), rel=1e-12)
        twin = every.pairs.query("measure == @row.measure and run_a == @row.run_a "
                                 "and run_b == @row.run_b")  # fmt: skip
        assert row.p_t == twin["p_t"].item() and row.p_tukey == twin["p_tukey"].item()
    for _, block in c.pairs.groupby("measure", sort=False):
        assert block["p_t_holm"].tolist() == significance.holm(block["p_t"]).tolist()
    with pytest.raises(ValueError, match="baseline 'bm26' is none of the runs 'bm25', 'tfidf'"):
        compare(qrels, runs, baseline="bm26")


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"runs": {"only": None}}, "at least 2 runs"),
        ({"missing": "drop"}, "missing must be one of zero, intersect, error"),
        ({"runs": "a.run"}, "runs must be a mapping"),
    ],
)
def test_bad_arguments_are_named(three, kwargs, message):
    qrels, runs = three
    args = {"runs": runs, **kwargs}
    with pytest.raises(ValueError, match=message):
        compare(qrels, **args)


def test_discriminative_power():
    assert discriminative_power([0.01, 0.2, 0.04, 0.5]) == 0.5
    assert discriminative_power([0.01, 0.2], alpha=0.001) == 0.0
    with pytest.raises(ValueError, match="pvalues"):
        discriminative_power([])


def test_swap_rates_count_opposite_signs():
    rng = np.random.default_rng(0)
    far = np.vstack([rng.random(40) + 5, rng.random(40)])  # system 0 always far ahead
    table = swap_rates(far, 10, [0, 1, 10], n_splits=50)
    assert table["pairs"].tolist() == [0, 50] and table["swaps"].tolist() == [0, 0]
    same = np.vstack([rng.random(40), rng.random(40)])  # equally good: swaps are common
    rates = swap_rates(same, 10, [0, 1], n_splits=400)
    assert 0.25 < rates["swap_rate"][0] < 0.75
    with pytest.raises(ValueError, match="size must be an integer from 1 to 20"):
        swap_rates(same, 21, [0, 1])


@pytest.mark.slow  # ranx compiles its numba kernels on first use
def test_agrees_with_ranx_where_ranx_has_the_test(three):
    """ranx's paired t-test is scipy's (exact); its Fisher randomization test samples
    permutations with its own generator, so it agrees within sampling error."""
    st = pytest.importorskip("ranx.statistical_tests")
    qrels, runs = three
    c = compare(qrels, runs, ["ndcg_cut.10"], n_resamples=20_000)
    frame = c.scores["ndcg_cut_10"]
    for row in c.pairs.itertuples():
        a, b = frame[row.run_a].to_numpy(), frame[row.run_b].to_numpy()
        p_t, _ = st.paired_student_t_test(a, b)
        assert row.p_t == pytest.approx(p_t, rel=1e-12)
        p_rand, _ = st.fisher_randomization_test(a, b, n_permutations=20_000)
        se = np.sqrt(p_rand * (1 - p_rand) / 20_000) + 1e-4
        assert abs(row.p_rand - p_rand) < 2 * 5 * se


def test_conventions_trec_eval_gives_the_command_lines_evaluation(three):
    """``conventions=TREC_EVAL`` evaluates as ``dcglab compare`` does; compare's own
    ``missing`` rule still decides (TREC_EVAL's ``missing="error"`` does not apply)."""
    from dcglab.evaluation.presets import TREC_EVAL

    qrels, runs = three
    short = {**runs, "short": compare_run(4, 0.2, COMPARE_QUERIES[:-2])}
    by_mapping = compare(qrels, short, ["ndcg_cut.10"], conventions=TREC_EVAL, n_resamples=200)
    by_keywords = compare(qrels, short, ["ndcg_cut.10"], n_resamples=200,
                          **{k: v for k, v in TREC_EVAL.items() if k != "missing"})  # fmt: skip
    pd.testing.assert_frame_equal(by_mapping.pairs, by_keywords.pairs)
    assert by_mapping.settings["queries"] == 25
