r"""Paired significance tests over queries.

Two systems A and B scored on the same :math:`n` queries give per-query
differences :math:`\delta_q = a_q - b_q`. Both tests ask how surprising the mean
difference :math:`\bar\delta = \frac{1}{n}\sum_q \delta_q` would be if the two
systems were equally good, that is, if each :math:`\delta_q` were as likely to
have the opposite sign.

- :func:`paired_t_test`: Student's paired t-test, which assumes the
  :math:`\delta_q` are drawn independently from one normal distribution.
- :func:`randomization_test`: Fisher's paired randomization (permutation)
  test, which assumes only that swapping the labels A and B within a query
  is harmless under the null hypothesis, so it flips the sign of each
  :math:`\delta_q` at random.

Both are two-sided. The p-value is the probability, were the systems equally
good, of a mean difference at least as far from 0 as the one observed. It is
not the probability that the systems are equal, and it says nothing about
whether the difference is large enough for users to notice. The size comes
from :func:`t_interval` and :func:`bootstrap_interval` (95% confidence
intervals of :math:`\bar\delta`) and :func:`effect_size` (Cohen's
:math:`d_z`). With many systems, :func:`holm` adjusts a family of p-values and
:func:`randomised_tukey_hsd` tests every pair at once; :func:`t_test_power` and
:func:`topic_set_size` plan a study (both from :mod:`dcglab.statistics.studies`).

Scores indexed by query id (a :class:`pandas.Series` or a mapping) are paired
by id, never by position: the same scores in another order give the same
result. Plain sequences are paired by position.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.special import stdtr, stdtrit

from dcglab.statistics.paired_scores import Scores, paired_differences
from dcglab.statistics.studies import (
    check_resamples,
    holm,
    randomised_tukey_hsd,
    t_test_power,
    topic_set_size,
)

__all__ = [
    "RandomizationResult",
    "TTestResult",
    "bootstrap_interval",
    "effect_size",
    "holm",
    "paired_differences",
    "paired_t_test",
    "randomised_tukey_hsd",
    "randomization_test",
    "t_interval",
    "t_test_power",
    "topic_set_size",
]

#: Above this many queries the randomization test samples sign patterns instead
#: of enumerating all :math:`2^n` (2**20 is about a million patterns).
EXACT_MAX_QUERIES = 20


@dataclass(frozen=True)
class TTestResult:
    """Result of :func:`paired_t_test`.

    Attributes
    ----------
    mean_difference : float
        :math:`\\bar\\delta`, the mean of A's scores minus B's.
    statistic : float
        The t statistic.
    df : int
        Degrees of freedom, :math:`n - 1`.
    pvalue : float
        Two-sided p-value.
    """

    mean_difference: float
    statistic: float
    df: int
    pvalue: float


@dataclass(frozen=True)
class RandomizationResult:
    """Result of :func:`randomization_test`.

    Attributes
    ----------
    mean_difference : float
        :math:`\\bar\\delta`, the statistic of the test.
    pvalue : float
        Two-sided p-value.
    n_patterns : int
        Sign patterns compared: all :math:`2^n` when exact, else the number
        drawn.
    exact : bool
        Whether every sign pattern was enumerated.
    """

    mean_difference: float
    pvalue: float
    n_patterns: int
    exact: bool


def paired_t_test(a: Scores, b: Scores) -> TTestResult:
    r"""Student's paired t-test of A against B over queries, two-sided.

    With :math:`n` differences :math:`\delta_q = a_q - b_q`, their mean
    :math:`\bar\delta` and sample standard deviation
    :math:`s = \sqrt{\sum_q (\delta_q - \bar\delta)^2 / (n - 1)}`,

    .. math:: t = \frac{\bar\delta}{s / \sqrt{n}},

    and the p-value is :math:`P(|T| \ge |t|)` for :math:`T` following Student's
    t distribution with :math:`n - 1` degrees of freedom.

    Parameters
    ----------
    a, b : sequence of float, pandas Series or mapping
        Per-query scores of systems A and B, paired as in
        :func:`paired_differences`.

    Returns
    -------
    TTestResult

    Raises
    ------
    ValueError
        As :func:`paired_differences`, or if every difference is the same
        (:math:`s = 0`, so :math:`t` is undefined).

    Examples
    --------
    Differences 0.1, 0.2 and 0.3: mean 0.2, s = 0.1, t = 0.2 / (0.1 / √3) = 2√3.

    >>> r = paired_t_test([0.6, 0.7, 0.8], [0.5, 0.5, 0.5])
    >>> round(r.statistic, 6), r.df, round(r.pvalue, 4)
    (3.464102, 2, 0.0742)
    """
    d = paired_differences(a, b)
    n = len(d)
    mean = float(d.mean())
    s = float(d.std(ddof=1))
    if s == 0.0:
        raise ValueError(
            f"all {n} differences equal {d[0]!r}: the t statistic is undefined "
            "(use randomization_test)"
        )
    t = mean / (s / math.sqrt(n))
    p = 2.0 * float(stdtr(n - 1, -abs(t)))  # two tails of Student's t with n - 1 df
    return TTestResult(mean, t, n - 1, min(p, 1.0))


def _sign_patterns(n: int) -> np.ndarray:
    """All :math:`2^n` vectors of ±1, one per row."""
    bits = (np.arange(2**n)[:, None] >> np.arange(n)[None, :]) & 1
    return 1.0 - 2.0 * bits


def randomization_test(
    a: Scores,
    b: Scores,
    n_resamples: int = 100_000,
    seed: int = 0,
) -> RandomizationResult:
    r"""Fisher's paired randomization test of A against B over queries, two-sided.

    Under the null hypothesis each difference :math:`\delta_q` is as likely to
    be :math:`-\delta_q`. For a sign pattern :math:`\varepsilon \in \{-1, 1\}^n`
    let :math:`\bar\delta_\varepsilon = \frac{1}{n}\sum_q \varepsilon_q \delta_q`.
    The p-value is the share of patterns at least as extreme as the observed
    mean:

    .. math:: p = \frac{\#\{\varepsilon : |\bar\delta_\varepsilon| \ge |\bar\delta|\}}{2^n}.

    With at most :data:`EXACT_MAX_QUERIES` queries all :math:`2^n` patterns are
    enumerated. Otherwise ``n_resamples`` patterns are drawn uniformly at random
    and, counting the observed pattern as one of them (so that :math:`p > 0`),

    .. math::

        p = \frac{1 + \#\{\text{drawn } \varepsilon :
                   |\bar\delta_\varepsilon| \ge |\bar\delta|\}}{1 + B}.

    Means within :math:`10^{-9}` times the mean absolute difference of
    :math:`|\bar\delta|` count as equal, so rounding in the sums does not decide a
    tie (a mean that is 0 up to rounding gives p = 1).

    Parameters
    ----------
    a, b : sequence of float, pandas Series or mapping
        Per-query scores of systems A and B, paired as in
        :func:`paired_differences`.
    n_resamples : int
        :math:`B`, the number of random sign patterns when not exact.
    seed : int
        Seed of :func:`numpy.random.default_rng`, so the p-value is reproducible.

    Returns
    -------
    RandomizationResult

    Raises
    ------
    ValueError
        As :func:`paired_differences`, or if ``n_resamples`` < 1.

    Examples
    --------
    Three queries, all differences positive: of the 8 sign patterns only
    all-plus and all-minus reach a mean of ±0.2, so p = 2/8.

    >>> r = randomization_test([0.6, 0.7, 0.8], [0.5, 0.5, 0.5])
    >>> round(r.mean_difference, 6), r.pvalue, r.n_patterns, r.exact
    (0.2, 0.25, 8, True)
    """
    d = paired_differences(a, b)
    check_resamples(n_resamples)
    n = len(d)
    observed = float(d.mean())
    threshold = abs(observed) - 1e-9 * float(np.abs(d).mean())
    if n <= EXACT_MAX_QUERIES:
        means = np.abs(_sign_patterns(n) @ d) / n
        hits = int(np.count_nonzero(means >= threshold))
        return RandomizationResult(observed, hits / 2**n, 2**n, True)
    rng = np.random.default_rng(seed)
    hits = 0
    for start in range(0, n_resamples, 10_000):  # in blocks, to bound memory
        size = min(10_000, n_resamples - start)
        signs = rng.choice(np.array([-1.0, 1.0]), size=(size, n))
        hits += int(np.count_nonzero(np.abs(signs @ d) / n >= threshold))
    return RandomizationResult(observed, (hits + 1) / (n_resamples + 1), n_resamples, False)


def _check_confidence(confidence: float) -> float:
    if not (isinstance(confidence, float | int) and 0 < confidence < 1):
        raise ValueError(f"confidence must be a number between 0 and 1, got {confidence!r}")
    return float(confidence)


def t_interval(a: Scores, b: Scores, confidence: float = 0.95) -> tuple[float, float]:
    r"""Student's t confidence interval of the mean paired difference :math:`\bar\delta`.

    .. math:: \bar\delta \pm t_{(1 + c)/2,\,n-1}\,\frac{s}{\sqrt{n}}

    with :math:`s` the sample standard deviation of the :math:`n` differences
    and :math:`t_{p,\nu}` the :math:`p` quantile of Student's t with
    :math:`\nu` degrees of freedom (the interval of :func:`scipy.stats.ttest_rel`).

    Parameters
    ----------
    a, b : sequence of float, pandas Series or mapping
        Paired as in :func:`paired_differences`.
    confidence : float, default 0.95
        :math:`c`, the coverage of the interval.

    Returns
    -------
    tuple of float
        Lower and upper end.

    Examples
    --------
    Differences 0.1, 0.2, 0.3: mean 0.2, s / √n = 0.1 / √3, t = 4.303 (2 df).

    >>> [round(x, 4) for x in t_interval([0.6, 0.7, 0.8], [0.5, 0.5, 0.5])]
    [-0.0484, 0.4484]
    """
    c = _check_confidence(confidence)
    d = paired_differences(a, b)
    n = len(d)
    half = float(stdtrit(n - 1, (1 + c) / 2)) * float(d.std(ddof=1)) / math.sqrt(n)
    mean = float(d.mean())
    return mean - half, mean + half


def bootstrap_interval(
    a: Scores,
    b: Scores,
    confidence: float = 0.95,
    n_resamples: int = 10_000,
    seed: int = 0,
) -> tuple[float, float]:
    r"""Percentile bootstrap confidence interval of the mean paired difference.

    Draw :math:`B` resamples of the :math:`n` differences with replacement, take
    the mean :math:`\bar\delta^{*}_b` of each, and return their
    :math:`(1 - c)/2` and :math:`(1 + c)/2` quantiles (linear interpolation).
    The same seed gives the interval of :func:`scipy.stats.bootstrap` with
    ``method="percentile"`` and ``rng=numpy.random.default_rng(seed)``.

    Parameters
    ----------
    a, b : sequence of float, pandas Series or mapping
        Paired as in :func:`paired_differences`.
    confidence : float, default 0.95
        :math:`c`.
    n_resamples : int, default 10000
        :math:`B`, the number of resampled means.
    seed : int, default 0
        Seed of :func:`numpy.random.default_rng`, so the interval is reproducible.

    Returns
    -------
    tuple of float
        Lower and upper end.
    """
    c = _check_confidence(confidence)
    check_resamples(n_resamples)
    d = paired_differences(a, b)
    rng = np.random.default_rng(seed)
    means = d[rng.integers(0, len(d), (n_resamples, len(d)))].mean(axis=-1)
    low, high = np.quantile(means, [(1 - c) / 2, (1 + c) / 2])
    return float(low), float(high)


def effect_size(a: Scores, b: Scores) -> float:
    r"""Cohen's :math:`d_z`: the mean paired difference in standard deviations of the differences.

    .. math::

        d_z = \frac{\bar\delta}{s}, \qquad
        s = \sqrt{\frac{\sum_q (\delta_q - \bar\delta)^2}{n - 1}}

    It equals :math:`t / \sqrt{n}` of the paired t-test, so it does not grow with
    the number of queries.

    Examples
    --------
    >>> round(effect_size([0.6, 0.7, 0.8], [0.5, 0.5, 0.5]), 12)
    2.0
    """
    d = paired_differences(a, b)
    s = float(d.std(ddof=1))
    if s == 0.0:
        raise ValueError(f"all {len(d)} differences equal {d[0]!r}: d_z is undefined")
    return float(d.mean()) / s
