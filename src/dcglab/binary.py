r"""trec_eval's binary measures, for many queries at once.

Each query is a row of relevant flags in rank order (padding is not relevant);
``n_rel`` counts each query's relevant judged documents. With :math:`r_i` the
flag at rank :math:`i` and :math:`R` the number of relevant documents:

.. math::

    P@k = \frac{1}{k}\sum_{i \le k} r_i, \quad
    \mathrm{recall}@k = \frac{1}{R}\sum_{i \le k} r_i, \quad
    \mathrm{RR} = \frac{1}{\min\{i : r_i = 1\}}, \quad
    \mathrm{AP} = \frac{1}{R}\sum_i r_i \frac{\sum_{j \le i} r_j}{i}.

As in trec_eval, P@k counts missing ranks below the end of a list as not
relevant, and a query without relevant documents scores 0 on every measure.
"""

from __future__ import annotations

import numpy as np

from .measures import clamp_k

__all__ = ["binary_measure"]


def binary_measure(family: str, k: int | None, rel: np.ndarray, n_rel: np.ndarray) -> np.ndarray:
    """``P``, ``recall`` (at cutoff ``k``), ``recip_rank`` or ``map`` of every row.

    Examples
    --------
    >>> rel = np.array([[True, False, True, False]])
    >>> [float(binary_measure(f, k, rel, np.array([3]))[0])
    ...  for f, k in (("P", 2), ("recall", 4), ("recip_rank", None), ("map", None))]
    [0.5, 0.6666666666666666, 1.0, 0.5555555555555555]
    """
    found = np.cumsum(rel, axis=1)
    if family == "P":
        return found[:, clamp_k(k, rel.shape[1]) - 1] / k
    if family == "recall":
        hits = found[:, clamp_k(k, rel.shape[1]) - 1]
        return np.divide(hits, n_rel, out=np.zeros(len(hits)), where=n_rel > 0)
    if family == "recip_rank":
        return np.where(rel.any(axis=1), 1.0 / (rel.argmax(axis=1) + 1), 0.0)
    if family == "map":
        total = (rel * found / np.arange(1, rel.shape[1] + 1)).sum(axis=1)
        return np.divide(total, n_rel, out=np.zeros(len(total)), where=n_rel > 0)
    raise ValueError(f"binary measure must be P, recall, recip_rank or map, got {family!r}")
