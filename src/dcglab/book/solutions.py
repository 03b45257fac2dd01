"""The code of the exercise solutions that implement a measure from its formula.

Some exercises ask the reader to write a measure in a few lines of NumPy and to
check it against an outside tool (trec_eval 10.0, ranx). The solutions' code
lives here, written from the formula alone and sharing nothing with
:mod:`dcglab`'s kernels, so that the chapter that quotes its values and the
tests that compare it with the tools run the same code, and an agreement is
between two independent implementations.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def ndcg_at(ranked: Sequence[float], judged: Sequence[float], k: int) -> float:
    """nDCG@k with linear gain: the ranked grades' DCG over the ideal's.

    .. math:: \\mathrm{nDCG}@k = \\frac{\\sum_{i=1}^{k} g_i / \\log_2(i+1)}
              {\\sum_{i=1}^{k} g^*_i / \\log_2(i+1)}

    where :math:`g_i` is the grade at rank :math:`i` of ``ranked`` (0 beyond its
    end) and :math:`g^*` is ``judged`` sorted from the highest grade down.

    Examples
    --------
    One of two relevant documents retrieved, at rank 1: :math:`1 / (1 + 1/\\log_2 3)`.

    >>> round(ndcg_at([1, 0], [1, 1], 2), 4)
    0.6131
    """
    weights = 1 / np.log2(np.arange(2, k + 2))
    top = np.zeros(k)
    top[: min(k, len(ranked))] = np.asarray(ranked, dtype=float)[:k]
    best = np.zeros(k)
    ideal = np.sort(np.asarray(judged, dtype=float))[::-1][:k]
    best[: ideal.size] = ideal
    return float((top * weights).sum() / (best * weights).sum())


def average_precision(grades: Sequence[float], theta: float = 1) -> float:
    """Average precision of a fully judged ranking, grades at least ``theta`` relevant.

    .. math:: \\mathrm{AP} = \\frac{1}{R} \\sum_{i=1}^{n} y_i \\, \\frac{1}{i} \\sum_{j=1}^{i} y_j ,
              \\qquad y_i = [g_i \\ge \\theta], \\quad R = \\sum_i y_i

    Examples
    --------
    >>> average_precision([1, 0, 2]), average_precision([1, 0, 2], theta=2)
    (0.8333333333333333, 0.3333333333333333)
    """
    y = np.asarray(grades) >= theta
    precision = np.cumsum(y) / np.arange(1, len(y) + 1)
    return float((precision * y).sum() / y.sum())


def rbp(relevant: Sequence[float], p: float) -> float:
    """Rank-biased precision with persistence ``p``.

    .. math:: \\mathrm{RBP} = (1 - p) \\sum_{i=1}^{n} r_i \\, p^{\\,i-1}

    Examples
    --------
    >>> round(rbp([1, 0, 1], 0.5), 4)
    0.625
    """
    y = np.asarray(relevant, dtype=float)
    return float((1 - p) * (y * p ** np.arange(len(y))).sum())


__all__ = ["average_precision", "ndcg_at", "rbp"]
