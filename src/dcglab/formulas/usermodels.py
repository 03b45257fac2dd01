r"""Measures built on other user models: AP, RR, RBP and ERR.

The notation is the book's (``notation.md``): :math:`r_i` is the grade at rank
:math:`i`. Grades are made binary where a measure needs it: :math:`y_i = 1` when
:math:`r_i` is at least ``threshold`` (:math:`\tau`, default 1), else 0.

- Recall at rank :math:`i`, the share of the :math:`R` relevant judged documents
  in the top :math:`i`.
- Average precision, :math:`\mathrm{AP} = \frac{1}{R}\sum_i y_i\, P@i`, with
  :math:`R` the number of relevant judged documents.
- Reciprocal rank, :math:`1/f` for the first relevant rank :math:`f` (0 if none).
- Rank-biased precision (Moffat and Zobel 2008),
  :math:`\mathrm{RBP} = (1-p)\sum_i y_i\, p^{i-1}`.
- Expected reciprocal rank (Chapelle et al. 2009),
  :math:`\mathrm{ERR} = \sum_i \frac{1}{i} s_i \prod_{j<i}(1-s_j)` with
  :math:`s_i = (2^{r_i}-1)/2^{r_{\max}}`.
"""

from __future__ import annotations

import numpy as np

from dcglab.formulas.discounts import Discount
from dcglab.formulas.gains import as_grades, exponential_gain
from dcglab.formulas.ideal import check_subset
from dcglab.formulas.measures import Grades


def relevant(grades: Grades, threshold: float = 1) -> np.ndarray:
    """Binary relevance: 1.0 where the grade is at least ``threshold``."""
    arr = as_grades(grades)
    if np.any(arr < 0):
        raise ValueError(f"grades must be >= 0, got {arr[arr < 0].tolist()}")
    return (arr >= threshold).astype(float)


def precision_at(grades: Grades, threshold: float = 1) -> np.ndarray:
    r"""Precision at every rank, :math:`P@i = \frac{1}{i}\sum_{j \le i} y_j`.

    Examples
    --------
    >>> precision_at([3, 0, 1]).round(3).tolist()
    [1.0, 0.5, 0.667]
    """
    rel = relevant(grades, threshold)
    return np.cumsum(rel) / np.arange(1, len(rel) + 1)


def n_relevant(grades: Grades, judged: Grades | None = None, threshold: float = 1) -> float:
    """:math:`R`, the number of relevant judged documents (AP's and recall's denominator).

    ``judged`` lists every judged grade of the query and must contain the
    retrieved ``grades``; without it the ranking itself is taken as all judged
    documents.

    Examples
    --------
    >>> n_relevant([3, 0], judged=[3, 2, 1, 0])
    3.0
    """
    if judged is not None:
        check_subset(as_grades(grades), as_grades(judged, "judged"))
    return float(relevant(grades if judged is None else judged, threshold).sum())


def recall_at(grades: Grades, *, judged: Grades | None = None, threshold: float = 1) -> np.ndarray:
    r"""Recall at every rank, :math:`\mathrm{recall}@i = \frac{1}{R}\sum_{j \le i} y_j`.

    ``judged`` lists every judged grade (by default the ranking itself); its
    relevant documents make :math:`R`. A query with :math:`R = 0` has recall 0.

    Examples
    --------
    >>> recall_at([3, 0, 1], judged=[3, 2, 1, 0]).round(3).tolist()
    [0.333, 0.333, 0.667]
    """
    rel = relevant(grades, threshold)
    n_rel = n_relevant(grades, judged, threshold)
    if n_rel == 0:
        return np.zeros(len(rel))
    return np.cumsum(rel) / n_rel


def average_precision(
    grades: Grades, *, judged: Grades | None = None, threshold: float = 1
) -> float:
    r"""Average precision :math:`\frac{1}{R}\sum_i y_i\, P@i`.

    ``judged`` lists every judged grade (by default the ranking itself); its
    relevant documents make :math:`R`. A query with :math:`R = 0` scores 0.

    Examples
    --------
    >>> round(average_precision([3, 0, 1, 1, 1, 0]), 3)
    0.804
    """
    rel = relevant(grades, threshold)
    n_rel = n_relevant(grades, judged, threshold)
    if n_rel == 0:
        return 0.0
    return float((precision_at(grades, threshold) * rel).sum() / n_rel)


def reciprocal_rank(grades: Grades, threshold: float = 1) -> float:
    r""":math:`\mathrm{RR} = 1/f` for the first relevant rank :math:`f`, 0 when nothing
    is relevant.

    Examples
    --------
    >>> reciprocal_rank([0, 0, 2])
    0.3333333333333333
    """
    hits = np.flatnonzero(relevant(grades, threshold))
    return float(Discount("reciprocal").weights(hits[0] + 1)[-1]) if hits.size else 0.0


def rbp_weights(n: int, p: float = 0.8) -> np.ndarray:
    r"""RBP's weight of ranks :math:`i = 1..n`, :math:`(1-p)\,p^{i-1}`.

    The geometric discount (``Discount("geometric", p=p)``) scaled so that the
    weights of an endless list sum to 1.

    Examples
    --------
    >>> rbp_weights(3, p=0.5).tolist()
    [0.5, 0.25, 0.125]
    """
    d = Discount("geometric", p=p)
    return (1 - d.p) * d.weights(n)


def rbp_curve(gains: np.ndarray, p: float = 0.8) -> np.ndarray:
    r"""RBP at every cutoff :math:`k`, :math:`(1-p)\sum_{i \le k} g_i\, p^{i-1}`, along the
    last axis of ``gains`` (one ranking, or a ``queries × ranks`` matrix).

    The gains :math:`g_i` are binary :math:`y_i` in Moffat and Zobel's RBP and a
    graded gain in its graded form; the terms are added left to right in rank order.

    Examples
    --------
    >>> rbp_curve(np.array([[1.0, 0.0, 1.0], [0.0, 2.0, 0.0]]), p=0.5).tolist()
    [[0.5, 0.5, 0.625], [0.0, 0.5, 0.5]]
    """
    return np.cumsum(gains * rbp_weights(gains.shape[-1], p), axis=-1)


def rbp(grades: Grades, p: float = 0.8, threshold: float = 1) -> float:
    r"""Rank-biased precision :math:`(1-p)\sum_i y_i p^{i-1}` with binary :math:`y_i`
    (:func:`rbp_weights`, :func:`rbp_curve`).

    Examples
    --------
    >>> round(rbp([1, 0, 1], p=0.5), 4)
    0.625
    """
    return float(rbp_curve(relevant(grades, threshold), p)[-1])


def err_stop(grades: Grades, max_grade: float = 3) -> np.ndarray:
    r"""ERR's probability that the user stops at each rank,
    :math:`s_i = (2^{r_i}-1)/2^{r_{\max}}`.

    Examples
    --------
    >>> err_stop([3, 0, 1]).tolist()
    [0.875, 0.0, 0.125]
    """
    arr = as_grades(grades)
    if np.any(arr < 0) or np.any(arr > max_grade):
        raise ValueError(f"grades must lie in [0, max_grade={max_grade}], got {arr.tolist()}")
    return exponential_gain(arr) / 2.0**max_grade


def err_reach(grades: Grades, max_grade: float = 3) -> np.ndarray:
    r"""Probability that ERR's cascade user reaches each rank, :math:`\prod_{j<i}(1-s_j)`,
    with the stopping probabilities :math:`s_j` of :func:`err_stop`.

    Examples
    --------
    >>> err_reach([3, 0, 1]).tolist()
    [1.0, 0.125, 0.125]
    """
    return cascade_reach(err_stop(grades, max_grade))


def cascade_reach(stop: np.ndarray) -> np.ndarray:
    r"""Probability of reaching each rank, :math:`\prod_{j<i}(1-s_j)`, from the stopping
    probabilities ``stop`` along its last axis (one ranking or a matrix of them).

    Examples
    --------
    >>> cascade_reach(np.array([[0.5, 0.5, 0.0]])).tolist()
    [[1.0, 0.5, 0.25]]
    """
    reach = np.ones(stop.shape)
    np.cumprod(1 - stop[..., :-1], axis=-1, out=reach[..., 1:])
    return reach


def err_curve(stop: np.ndarray) -> np.ndarray:
    r"""ERR at every cutoff :math:`k`, :math:`\sum_{i \le k} \frac{1}{i} s_i \prod_{j<i}(1-s_j)`,
    from the stopping probabilities ``stop`` (:func:`err_stop`) along its last axis;
    the terms are added left to right in rank order, as gdeval adds them.

    Examples
    --------
    >>> err_curve(np.array([[0.875, 0.0, 0.125], [0.0, 0.5, 0.0]])).tolist()
    [[0.875, 0.875, 0.8802083333333334], [0.0, 0.25, 0.25]]
    """
    reciprocal = Discount("reciprocal").weights(stop.shape[-1])
    return np.cumsum(reciprocal * stop * cascade_reach(stop), axis=-1)


def err(grades: Grades, max_grade: float = 3) -> float:
    r"""Expected reciprocal rank :math:`\sum_i \frac{1}{i} s_i \prod_{j<i}(1-s_j)`.

    The user reads down the list and stops at rank :math:`i` with probability
    :math:`s_i = (2^{r_i} - 1)/2^{r_{\max}}`; ERR is the expected :math:`1/i` of the
    stopping rank.

    Examples
    --------
    >>> round(err([3, 0]), 4)
    0.875
    """
    return float(err_curve(err_stop(grades, max_grade))[-1])
