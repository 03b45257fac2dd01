"""Paired significance tests against scipy's t-test and permutation test."""

import numpy as np
import pytest
from scipy import stats

from dcglab.statistics import significance
from dcglab.statistics.significance import paired_t_test, randomization_test


def scores(n, seed, shift=0.03):
    """Two paired lists of nDCG-like scores in [0, 1], B a noisy copy of A."""
    rng = np.random.default_rng(seed)
    a = rng.random(n)
    b = np.clip(a - shift + rng.normal(0, 0.1, n), 0, 1)
    return a, b


def mean_difference(x, y, axis):
    return np.mean(x - y, axis=axis)


def scipy_permutation(a, b, n_resamples, seed=None):
    return stats.permutation_test(
        (a, b),
        mean_difference,
        permutation_type="samples",
        vectorized=True,
        n_resamples=n_resamples,
        alternative="two-sided",
        rng=None if seed is None else np.random.default_rng(seed),
    )


@pytest.mark.parametrize(("n", "seed"), [(2, 1), (5, 2), (30, 3), (225, 4)])
def test_t_test_matches_scipy_ttest_rel(n, seed):
    a, b = scores(n, seed)
    ours = paired_t_test(a, b)
    ref = stats.ttest_rel(a, b)
    assert ours.statistic == pytest.approx(ref.statistic, rel=1e-12)
    assert ours.pvalue == pytest.approx(ref.pvalue, rel=1e-9)
    assert ours.df == n - 1
    assert ours.mean_difference == pytest.approx(np.mean(a - b), rel=1e-12)


def test_t_test_by_hand():
    # differences 0, 0.2, 0.4: mean 0.2, s = 0.2, t = 0.2 / (0.2 / sqrt 3) = sqrt 3
    r = paired_t_test([0.5, 0.7, 0.9], [0.5, 0.5, 0.5])
    assert r.statistic == pytest.approx(np.sqrt(3), rel=1e-12)


@pytest.mark.parametrize(("n", "seed"), [(2, 5), (7, 6), (12, 7)])
def test_exact_randomization_matches_scipy_exact_permutation_test(n, seed):
    a, b = scores(n, seed)
    ours = randomization_test(a, b)
    ref = scipy_permutation(a, b, np.inf)  # scipy enumerates all 2**n pairings
    assert ours.exact and ours.n_patterns == 2**n
    assert ours.pvalue == pytest.approx(ref.pvalue, rel=1e-12)
    assert ours.mean_difference == pytest.approx(ref.statistic, rel=1e-12)


def test_exact_randomization_by_hand():
    # differences 0.1, 0.3: sign patterns give means ±0.2 and ±0.1; two of four reach 0.2
    r = randomization_test([0.4, 0.8], [0.3, 0.5])
    assert r.pvalue == 0.5
    # four equal differences: only all-plus and all-minus reach a mean of size 1
    r = randomization_test([1.0, 1.0, 1.0, 1.0], [0.0, 0.0, 0.0, 0.0])
    assert r.pvalue == 2 / 16


def test_sampled_randomization_agrees_with_exact_p(monkeypatch):
    a, b = scores(14, 8)
    exact = randomization_test(a, b).pvalue
    monkeypatch.setattr(significance, "EXACT_MAX_QUERIES", 5)
    sampled = randomization_test(a, b, n_resamples=40_000, seed=11)
    assert not sampled.exact and sampled.n_patterns == 40_000
    se = np.sqrt(exact * (1 - exact) / 40_000)
    assert abs(sampled.pvalue - exact) < 5 * se


@pytest.mark.parametrize(("n", "seed", "shift"), [(40, 9, 0.0), (225, 10, 0.01)])
def test_sampled_randomization_agrees_with_scipy_seeded(n, seed, shift):
    a, b = scores(n, seed, shift)
    ours = randomization_test(a, b, n_resamples=40_000, seed=seed)
    ref = scipy_permutation(a, b, 40_000, seed=seed)
    assert 0.01 < ref.pvalue < 0.99  # a p-value the comparison can resolve
    se = np.sqrt(ref.pvalue * (1 - ref.pvalue) / 40_000)
    assert abs(ours.pvalue - ref.pvalue) < 2 * 5 * se  # two independent estimates


def test_sampled_randomization_is_reproducible_and_symmetric():
    a, b = scores(50, 12)
    first = randomization_test(a, b, n_resamples=5_000, seed=3)
    assert randomization_test(a, b, n_resamples=5_000, seed=3) == first
    swapped = randomization_test(b, a, n_resamples=5_000, seed=3)
    assert swapped.pvalue == first.pvalue
    assert swapped.mean_difference == pytest.approx(-first.mean_difference, rel=1e-12)


def test_identical_systems():
    a = [0.1, 0.5, 0.9]
    assert randomization_test(a, a).pvalue == 1.0
    with pytest.raises(ValueError, match="differences equal"):
        paired_t_test(a, a)


@pytest.mark.parametrize(
    ("a", "b", "message"),
    [
        ([0.1, 0.2], [0.1], "paired"),
        ([[0.1, 0.2]], [[0.1, 0.2]], "paired"),
        ([0.1], [0.2], "at least 2 queries"),
        ([0.1, float("nan")], [0.1, 0.2], r"a\[1\] must be a finite score"),
        ([0.1, 0.2], [float("inf"), 0.2], r"b\[0\] must be a finite score"),
    ],
)
@pytest.mark.parametrize("test", [paired_t_test, randomization_test])
def test_bad_input_names_the_argument(test, a, b, message):
    with pytest.raises(ValueError, match=message):
        test(a, b)


@pytest.mark.parametrize("n_resamples", [0, -5, 2.5])
def test_bad_resample_count(n_resamples):
    with pytest.raises(ValueError, match="n_resamples"):
        randomization_test([0.1, 0.2, 0.3], [0.2, 0.1, 0.1], n_resamples=n_resamples)


# Scores keyed by query id are paired by id, never by position.


def test_series_in_another_order_give_the_same_result():
    pd = pytest.importorskip("pandas")
    a, b = scores(30, 13)
    ids = [f"q{i:03d}" for i in range(30)]  # sorted ids = positions, so sums match bit for bit
    sa, sb = pd.Series(a, index=ids), pd.Series(b, index=ids)
    shuffled = sb.sample(frac=1.0, random_state=1)  # same scores, another order
    assert list(shuffled.index) != ids
    assert paired_t_test(sa, shuffled) == paired_t_test(a, b)
    assert randomization_test(sa, shuffled, 5_000) == randomization_test(a, b, 5_000)
    # by position the shuffled scores would pair the wrong queries
    assert paired_t_test(a, shuffled.to_numpy()).pvalue != paired_t_test(a, b).pvalue


def test_mappings_are_paired_by_query_id():
    assert paired_t_test({"q1": 0.5, "q2": 0.9, "q3": 0.1}, {"q3": 0.0, "q1": 0.3, "q2": 0.6}) == (
        paired_t_test([0.5, 0.9, 0.1], [0.3, 0.6, 0.0])
    )


@pytest.mark.parametrize(
    ("a", "b", "message"),
    [
        ({"q1": 0.1, "q2": 0.2}, [0.1, 0.2], "a is indexed by query id and the other is not"),
        ([0.1, 0.2], {"q1": 0.1, "q2": 0.2}, "b is indexed by query id"),
        ({"q1": 0.1, "q2": 0.2}, {"q1": 0.1, "q3": 0.2}, r"1 only in a \['q2'\], 1 only in b"),
    ],
)
def test_query_ids_that_do_not_pair_are_refused(a, b, message):
    with pytest.raises(ValueError, match=message):
        paired_t_test(a, b)


def test_duplicate_query_ids_are_refused():
    pd = pytest.importorskip("pandas")
    a = pd.Series([0.1, 0.2, 0.3], index=["q1", "q1", "q2"])
    with pytest.raises(ValueError, match="'q1' twice"):
        randomization_test(a, a)


@pytest.mark.parametrize(
    ("n", "seed", "confidence"), [(2, 14, 0.95), (30, 15, 0.9), (225, 16, 0.99)]
)
def test_t_interval_matches_scipy(n, seed, confidence):
    a, b = scores(n, seed)
    low, high = significance.t_interval(a, b, confidence)
    ref = stats.ttest_rel(a, b).confidence_interval(confidence)
    assert low == pytest.approx(ref.low, rel=1e-12, abs=1e-15)
    assert high == pytest.approx(ref.high, rel=1e-12, abs=1e-15)


@pytest.mark.parametrize(("n", "seed", "confidence"), [(5, 17, 0.95), (225, 18, 0.9)])
def test_bootstrap_interval_matches_scipy_with_the_same_seed(n, seed, confidence):
    a, b = scores(n, seed)
    ours = significance.bootstrap_interval(a, b, confidence, n_resamples=2_000, seed=seed)
    ref = stats.bootstrap(
        (a - b,), np.mean, confidence_level=confidence, n_resamples=2_000,
        method="percentile", rng=np.random.default_rng(seed),
    ).confidence_interval  # fmt: skip
    assert ours == pytest.approx((ref.low, ref.high), rel=1e-12)


def test_effect_size_is_t_over_root_n():
    a, b = scores(40, 19)
    t = stats.ttest_rel(a, b).statistic
    assert significance.effect_size(a, b) == pytest.approx(t / np.sqrt(40), rel=1e-12)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: significance.t_interval([0.1, 0.2], [0.2, 0.4], confidence=1.5), "confidence"),
        (
            lambda: significance.bootstrap_interval([0.1, 0.2], [0.2, 0.4], n_resamples=0),
            "n_resamples",
        ),
        (lambda: significance.effect_size([0.1, 0.2], [0.1, 0.2]), "d_z is undefined"),
    ],
)
def test_bad_statistics_input_names_the_argument(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_a_mean_that_is_zero_up_to_rounding_gives_p_one():
    assert randomization_test([0.24, 0.31, -0.24, -0.31], [0.0] * 4).pvalue == 1.0
