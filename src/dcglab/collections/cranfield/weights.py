r"""The weighting choices of the retrieval models, by name: term weights (:data:`IDF`),
term-frequency forms (:data:`TF`) and the query vector of TF-IDF (:data:`QUERY_TFIDF`).
A :class:`~dcglab.collections.cranfield.index.Config` names one of each; the models
(:mod:`dcglab.collections.cranfield.models`) apply them.
"""

from __future__ import annotations

import numpy as np

__all__ = ["IDF", "QUERY_TFIDF", "TF"]


def _idf_rsj(N: int, n: np.ndarray) -> np.ndarray:
    return np.log((N - n + 0.5) / (n + 0.5))


IDF = {
    "rsj": _idf_rsj,
    "rsj+": lambda N, n: np.maximum(_idf_rsj(N, n), 0.0),
    "lucene": lambda N, n: np.log1p((N - n + 0.5) / (n + 0.5)),
    "smooth": lambda N, n: np.log((1 + N) / (1 + n)) + 1.0,
    "plain": lambda N, n: np.log(N / n),
    "plain+1": lambda N, n: np.log(N / n) + 1.0,
}
r"""Inverse document frequency variants; :math:`N` documents, :math:`n_t` contain term t.

=============  ======================================================================
``"rsj"``      :math:`\ln\frac{N - n_t + 0.5}{n_t + 0.5}` (Robertson–Spärck Jones
               weight with no relevance information; negative when :math:`n_t > N/2`)
``"rsj+"``     :math:`\max(0, \text{rsj})`
``"lucene"``   :math:`\ln\bigl(1 + \frac{N - n_t + 0.5}{n_t + 0.5}\bigr)` (Lucene's BM25)
``"smooth"``   :math:`\ln\frac{1 + N}{1 + n_t} + 1` (scikit-learn, ``smooth_idf=True``)
``"plain"``    :math:`\ln\frac{N}{n_t}`
``"plain+1"``  :math:`\ln\frac{N}{n_t} + 1` (scikit-learn, ``smooth_idf=False``)
=============  ======================================================================
"""


TF = {
    "raw": lambda tf: tf,
    "log": lambda tf: 1.0 + np.log(tf),
    "binary": lambda tf: np.ones_like(tf),
}


QUERY_TFIDF = {"binary": (False, False), "tf": (True, False), "binary-idf": (False, True)}
QUERY_TFIDF["tf-idf"] = (True, True)
