r"""Many systems and the size of a study: multiple comparisons, power, topic-set size.

- :func:`holm`: Holm's step-down adjustment of a family of p-values;
- :func:`randomised_tukey_hsd`: every pair of systems tested at once, with the
  range of the system means under random relabelling (Carterette 2012);
- :func:`t_test_power` and :func:`topic_set_size`: the paired t-test's power with
  :math:`n` queries, and the fewest queries that reach a given power (Sakai's
  topic-set size design).

The two-system tests are in :mod:`dcglab.statistics.significance`, which re-exports these.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from scipy.special import stdtrit

__all__ = ["check_resamples", "holm", "randomised_tukey_hsd", "t_test_power", "topic_set_size"]


def check_resamples(n_resamples: int) -> int:
    """Validate a number of random resamples :math:`B`: an integer >= 1.

    Raises
    ------
    ValueError
        If ``n_resamples`` is not an integer >= 1 (a bool or float is refused).

    Examples
    --------
    >>> check_resamples(100)
    100
    """
    if isinstance(n_resamples, bool) or not (
        isinstance(n_resamples, int | np.integer) and n_resamples >= 1
    ):
        raise ValueError(f"n_resamples must be an integer >= 1, got {n_resamples!r}")
    return int(n_resamples)


def holm(pvalues: Sequence[float]) -> np.ndarray:
    r"""Holm's step-down adjustment of a family of :math:`m` p-values.

    Sort them, :math:`p_{(1)} \le \dots \le p_{(m)}`; the adjusted values are

    .. math:: \tilde p_{(i)} = \min\Bigl(1, \max_{j \le i} (m - j + 1)\, p_{(j)}\Bigr),

    returned in the input's order. Rejecting where :math:`\tilde p \le \alpha`
    keeps the chance of any false rejection at most :math:`\alpha`.

    Examples
    --------
    >>> holm([0.01, 0.04, 0.03]).tolist()
    [0.03, 0.06, 0.06]
    """
    p = np.asarray(pvalues, dtype=float)
    if p.ndim != 1 or np.any(~np.isfinite(p)) or np.any((p < 0) | (p > 1)):
        raise ValueError(f"pvalues must be a flat list of numbers in [0, 1], got {pvalues!r}")
    m = len(p)
    order = np.argsort(p, kind="stable")
    steps = np.maximum.accumulate((m - np.arange(m)) * p[order])
    out = np.empty(m)
    out[order] = np.minimum(steps, 1.0)
    return out


def randomised_tukey_hsd(
    scores: np.ndarray, n_resamples: int = 10_000, seed: int = 0
) -> np.ndarray:
    r"""Randomised Tukey HSD p-values of every pair of :math:`m` systems (Carterette 2012).

    ``scores[i, q]`` is system :math:`i`'s score on query :math:`q`. Under the
    null hypothesis that all systems are equally good, the scores of one query
    could belong to any system. Each resample permutes every query's scores
    across the systems at random and records the range
    :math:`r^{*} = \max_i \bar x^{*}_i - \min_i \bar x^{*}_i` of the system means.
    The p-value of a pair is the share of resamples whose range reaches the pair's
    observed difference, counting the observed assignment as one of them:

    .. math:: p_{ij} = \frac{1 + \#\{b : r^{*}_b \ge |\bar x_i - \bar x_j|\}}{1 + B}.

    Comparing with the largest difference of each resample controls the chance of
    any false rejection among all pairs at once.

    Parameters
    ----------
    scores : array of shape (m, n)
        :math:`m \ge 2` systems, :math:`n \ge 2` queries, finite values.
    n_resamples : int, default 10000
        :math:`B`, the number of random relabellings.
    seed : int, default 0
        Seed of :func:`numpy.random.default_rng`, so the p-values are reproducible.

    Returns
    -------
    numpy.ndarray
        Symmetric (m, m) matrix of p-values, 1 on the diagonal.
    """
    x = np.asarray(scores, dtype=float)
    if x.ndim != 2 or x.shape[0] < 2 or x.shape[1] < 2:
        raise ValueError(f"scores must have shape (systems >= 2, queries >= 2), got {x.shape}")
    if not np.all(np.isfinite(x)):
        raise ValueError("scores must be finite")
    check_resamples(n_resamples)
    m, n = x.shape
    means = x.mean(axis=1)
    observed = np.abs(means[:, None] - means[None, :])
    rng = np.random.default_rng(seed)
    ranges = np.empty(n_resamples)
    cols = np.arange(n)
    for start in range(0, n_resamples, 1_000):  # in blocks, to bound memory
        size = min(1_000, n_resamples - start)
        perm = rng.permuted(np.broadcast_to(np.arange(m)[:, None], (size, m, n)), axis=1)
        shuffled = x[perm, cols].mean(axis=2)
        ranges[start : start + size] = shuffled.max(axis=1) - shuffled.min(axis=1)
    threshold = observed * (1 - 1e-9)
    hits = np.count_nonzero(ranges[None, None, :] >= threshold[:, :, None], axis=2)
    p = (hits + 1) / (n_resamples + 1)
    np.fill_diagonal(p, 1.0)
    return p


def t_test_power(n: int, difference: float, sd: float, alpha: float = 0.05) -> float:
    r"""Power of the two-sided paired t-test with :math:`n` queries.

    If the true mean difference is :math:`\Delta` and the differences have
    standard deviation :math:`\sigma`, the t statistic follows a noncentral t
    distribution with :math:`n - 1` degrees of freedom and noncentrality
    :math:`\lambda = \sqrt{n}\,\Delta/\sigma`. The power is the chance that
    :math:`|t|` exceeds the critical value :math:`t_{1-\alpha/2,\,n-1}`:

    .. math::

        1 - \beta = P(T_{n-1,\lambda} > t_{1-\alpha/2}) + P(T_{n-1,\lambda} < -t_{1-\alpha/2}).

    Examples
    --------
    >>> round(t_test_power(50, 0.05, 0.15), 4)
    0.6371
    """
    from scipy.stats import nct

    if not (isinstance(n, int | np.integer) and n >= 2):
        raise ValueError(f"n must be an integer >= 2, got {n!r}")
    if not (math.isfinite(sd) and sd > 0):
        raise ValueError(f"sd must be a positive number, got {sd!r}")
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be between 0 and 1, got {alpha!r}")
    crit = float(stdtrit(n - 1, 1 - alpha / 2))
    lam = math.sqrt(n) * abs(difference) / sd  # the power is symmetric in the sign
    far = float(nct.cdf(-crit, n - 1, lam))  # the tail opposite the true difference
    if not math.isfinite(far):  # scipy fails far out in that tail; bound it instead
        bound = float(nct.cdf(crit, n - 1, lam))  # P(T < -crit) <= P(T < crit)
        if not bound < 1e-15:
            raise ValueError(f"the power for n={n}, difference={difference}, sd={sd} failed")
        far = 0.0
    return min(1.0, float(nct.sf(crit, n - 1, lam)) + far)


def topic_set_size(
    difference: float, sd: float, alpha: float = 0.05, power: float = 0.8, n_max: int = 100_000
) -> int:
    r"""Fewest queries with which the paired t-test detects a true difference :math:`\Delta`.

    The smallest :math:`n \ge 2` with :func:`t_test_power` :math:`\ge 1 - \beta`
    (Sakai's topic-set size design for the paired t-test). A first guess comes
    from the normal approximation
    :math:`n \approx \bigl((z_{1-\alpha/2} + z_{1-\beta})\,\sigma/\Delta\bigr)^2`.

    Examples
    --------
    >>> topic_set_size(0.05, 0.15)
    73
    """
    from scipy.special import ndtri

    if not (math.isfinite(difference) and difference != 0):
        raise ValueError(f"difference must be a non-zero number, got {difference!r}")
    if not 0 < power < 1:
        raise ValueError(f"power must be between 0 and 1, got {power!r}")
    guess = ((ndtri(1 - alpha / 2) + ndtri(power)) * sd / abs(difference)) ** 2
    n = max(2, int(guess) - 2)
    while t_test_power(n, difference, sd, alpha) < power:
        n += 1
        if n > n_max:
            raise ValueError(f"more than n_max = {n_max} queries needed")
    while n > 2 and t_test_power(n - 1, difference, sd, alpha) >= power:
        n -= 1
    return n
