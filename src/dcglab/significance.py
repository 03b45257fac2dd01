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

Both are two-sided. A small p-value says that the sign of the mean difference
is unlikely to be an accident of which queries were sampled; it says nothing
about whether the difference is large enough for users to notice.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy.special import stdtr

__all__ = [
    "RandomizationResult",
    "TTestResult",
    "paired_differences",
    "paired_t_test",
    "randomization_test",
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


def paired_differences(a: Sequence[float], b: Sequence[float]) -> np.ndarray:
    r"""Per-query differences :math:`\delta_q = a_q - b_q` of two paired score lists.

    Parameters
    ----------
    a, b : sequence of float
        Scores of systems A and B on the same queries, in the same order.

    Returns
    -------
    numpy.ndarray
        ``a - b`` as floats.

    Raises
    ------
    ValueError
        If the lengths differ, fewer than two queries are given, or a score is
        not finite (NaN or infinite).

    Examples
    --------
    >>> paired_differences([0.5, 0.25], [0.25, 0.25]).tolist()
    [0.25, 0.0]
    """
    x = np.asarray(a, dtype=float)
    y = np.asarray(b, dtype=float)
    if x.ndim != 1 or y.ndim != 1 or len(x) != len(y):
        raise ValueError(
            f"a and b must be flat and paired (one score per query each), "
            f"got shapes {x.shape} and {y.shape}"
        )
    if len(x) < 2:
        raise ValueError(f"need scores for at least 2 queries, got {len(x)}")
    for name, v in (("a", x), ("b", y)):
        bad = np.flatnonzero(~np.isfinite(v))
        if len(bad):
            raise ValueError(f"{name}[{bad[0]}] must be a finite score, got {v[bad[0]]!r}")
    return x - y


def paired_t_test(a: Sequence[float], b: Sequence[float]) -> TTestResult:
    r"""Student's paired t-test of A against B over queries, two-sided.

    With :math:`n` differences :math:`\delta_q = a_q - b_q`, their mean
    :math:`\bar\delta` and sample standard deviation
    :math:`s = \sqrt{\sum_q (\delta_q - \bar\delta)^2 / (n - 1)}`,

    .. math:: t = \frac{\bar\delta}{s / \sqrt{n}},

    and the p-value is :math:`P(|T| \ge |t|)` for :math:`T` following Student's
    t distribution with :math:`n - 1` degrees of freedom.

    Parameters
    ----------
    a, b : sequence of float
        Per-query scores of systems A and B (same queries, same order).

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
    a: Sequence[float],
    b: Sequence[float],
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

    Means within a relative :math:`10^{-9}` of :math:`|\bar\delta|` count as equal,
    so rounding in the sums does not decide a tie.

    Parameters
    ----------
    a, b : sequence of float
        Per-query scores of systems A and B (same queries, same order).
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
    if not (isinstance(n_resamples, int | np.integer) and n_resamples >= 1):
        raise ValueError(f"n_resamples must be an integer >= 1, got {n_resamples!r}")
    n = len(d)
    observed = float(d.mean())
    threshold = abs(observed) * (1 - 1e-9)
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
