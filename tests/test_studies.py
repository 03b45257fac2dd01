"""Unit tests of dcglab.statistics.studies: Holm's adjustment, randomised Tukey HSD, power,
topic-set size."""

import itertools
import re

import numpy as np
import pytest
from scipy import stats

from dcglab.statistics import studies
from dcglab.statistics.significance import randomization_test


def test_holm_by_hand():
    # sorted 0.01, 0.03, 0.04 times 3, 2, 1: 0.03, 0.06, 0.04 -> running max 0.03, 0.06, 0.06
    assert studies.holm([0.01, 0.04, 0.03]).tolist() == pytest.approx([0.03, 0.06, 0.06])
    assert studies.holm([0.5, 0.6]).tolist() == [1.0, 1.0]


@pytest.mark.parametrize("seed", [20, 21, 22])
def test_holm_rejects_what_the_step_down_procedure_rejects(seed):
    p = np.random.default_rng(seed).random(8) ** 3
    adjusted = studies.holm(p)
    for alpha in (0.01, 0.05, 0.1, 0.2):
        rejected = set()
        for i, j in enumerate(np.argsort(p)):  # step down: stop at the first acceptance
            if p[j] > alpha / (len(p) - i):
                break
            rejected.add(int(j))
        assert set(np.flatnonzero(adjusted <= alpha).tolist()) == rejected


def exact_tukey(x):
    """Randomised Tukey HSD over every assignment of each query's scores to the systems."""
    m, n = x.shape
    perms = list(itertools.permutations(range(m)))
    observed = np.abs(x.mean(1)[:, None] - x.mean(1)[None, :])
    ranges = []
    for choice in itertools.product(perms, repeat=n):
        means = np.array([[x[p[i], q] for q, p in enumerate(choice)] for i in range(m)]).mean(1)
        ranges.append(means.max() - means.min())
    ranges = np.array(ranges)
    return (ranges[None, None, :] >= observed[:, :, None] * (1 - 1e-9)).mean(axis=2)


def test_randomised_tukey_hsd_agrees_with_exact_enumeration():
    rng = np.random.default_rng(23)
    x = rng.random((3, 5)) + np.array([[0.3], [0.0], [0.1]])
    exact = exact_tukey(x)  # 6**5 = 7776 assignments
    sampled = studies.randomised_tukey_hsd(x, n_resamples=20_000, seed=4)
    off = ~np.eye(3, dtype=bool)
    se = np.sqrt(exact * (1 - exact) / 20_000) + 1e-4
    assert np.all(np.abs(sampled - exact)[off] < 5 * se[off])
    assert np.array_equal(sampled, sampled.T) and np.all(np.diag(sampled) == 1)
    assert np.array_equal(studies.randomised_tukey_hsd(x, 20_000, seed=4), sampled)


def test_randomised_tukey_hsd_is_never_below_the_unadjusted_test():
    rng = np.random.default_rng(24)
    x = rng.random((4, 60)) + np.array([[0.1], [0.0], [0.05], [0.0]])
    tukey = studies.randomised_tukey_hsd(x, n_resamples=4_000, seed=1)
    for i, j in itertools.combinations(range(4), 2):
        plain = randomization_test(x[i], x[j], n_resamples=4_000, seed=1).pvalue
        assert tukey[i, j] >= plain - 0.02  # the max of the range is at least one pair's gap


def test_t_test_power_matches_simulation():
    rng = np.random.default_rng(25)
    d = rng.normal(0.04, 0.15, size=(20_000, 40))
    simulated = np.mean(stats.ttest_1samp(d, 0.0, axis=1).pvalue <= 0.05)
    power = studies.t_test_power(40, 0.04, 0.15)
    assert abs(simulated - power) < 5 * np.sqrt(power * (1 - power) / 20_000)


@pytest.mark.parametrize(("difference", "sd"), [(0.05, 0.15), (0.01, 0.2), (-0.1, 0.1)])
def test_topic_set_size_is_the_smallest_n_with_enough_power(difference, sd):
    n = studies.topic_set_size(difference, sd)
    assert studies.t_test_power(n, difference, sd) >= 0.8
    assert studies.t_test_power(n - 1, difference, sd) < 0.8


@pytest.mark.parametrize("difference", [0.1, -0.1, 0.3])
def test_t_test_power_far_out_is_finite(difference):
    power = studies.t_test_power(225, difference, 0.15)
    assert 0.999 < power <= 1.0


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: studies.holm([0.1, 1.5]), "pvalues"),
        (lambda: studies.randomised_tukey_hsd(np.ones((1, 4))), "shape"),
        (lambda: studies.randomised_tukey_hsd([[0.1, np.nan], [0.2, 0.3]]), "finite"),
        (lambda: studies.randomised_tukey_hsd(np.ones((2, 4)), n_resamples=0), "n_resamples"),
    ],
)
def test_bad_input_names_the_argument(call, message):
    with pytest.raises(ValueError, match=message):
        call()


@pytest.mark.parametrize("n_resamples", [0, -1, 2.5, True, "10"])
def test_check_resamples_refuses_what_is_not_a_count(n_resamples):
    message = f"n_resamples must be an integer >= 1, got {n_resamples!r}"
    with pytest.raises(ValueError, match=re.escape(message)):
        studies.check_resamples(n_resamples)


def test_check_resamples_returns_a_python_int():
    value = studies.check_resamples(np.int64(3))
    assert value == 3 and type(value) is int
