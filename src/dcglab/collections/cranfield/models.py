r"""The three retrieval models' scores: the binary independence model (BIM), TF-IDF
with cosine similarity and BM25, each a few sparse products over an
:class:`~dcglab.collections.cranfield.index.Index`, and the weighting choices they take from a
:class:`~dcglab.collections.cranfield.index.Config` (:data:`IDF`, :data:`TF`,
:data:`QUERY_TFIDF`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import scipy.sparse as sp

from dcglab.collections.cranfield.weights import IDF, QUERY_TFIDF, TF

if TYPE_CHECKING:
    from dcglab.collections.cranfield.index import Config, Index

__all__ = [
    "IDF",
    "QUERY_TFIDF",
    "SCORERS",
    "TF",
    "bim_scores",
    "bm25_scores",
    "lucene_length",
    "tfidf_scores",
]


def _with_data(m: sp.csr_matrix, data: np.ndarray) -> sp.csr_matrix:
    return sp.csr_matrix((data, m.indices, m.indptr), shape=m.shape)


def bim_scores(index: Index, config: Config) -> np.ndarray:
    r"""Binary independence model without relevance information.

    .. math::

        s(q, d) = \sum_{t \in q \cap d} w_t, \qquad
        w_t = \ln\frac{N - n_t + 0.5}{n_t + 0.5}

    the Robertson–Spärck Jones weight with no relevant documents known
    (``Config.bim_idf="rsj"``; other :data:`IDF` names are accepted for the
    search). Documents are binary: a term counts once however often it occurs.
    Query terms count once each (``bim_query="unique"``) or once per occurrence.

    Returns
    -------
    numpy.ndarray
        Scores, queries × documents.
    """
    w = IDF[config.bim_idf](index.n_docs, index.df)
    q = index.qtf if config.bim_query == "tf" else _with_data(index.qtf, np.ones(index.qtf.nnz))
    d = _with_data(index.tf, np.ones(index.tf.nnz))
    return np.asarray((q @ sp.diags(w) @ d.T).todense())


def tfidf_scores(index: Index, config: Config) -> np.ndarray:
    r"""Vector-space model: cosine of TF-IDF vectors.

    .. math::

        d_t = f(\mathrm{tf}_{t,d})\,\mathrm{idf}_t, \qquad
        q_t = g(\mathrm{qtf}_t)\,[\mathrm{idf}_t], \qquad
        s(q, d) = \frac{\sum_t q_t d_t}{\lVert q \rVert_2\,\lVert d \rVert_2}

    with :math:`f` from ``Config.tfidf_tf`` (raw tf, :math:`1 + \ln \mathrm{tf}` or 1),
    :math:`\mathrm{idf}` from ``Config.tfidf_idf`` (default
    :math:`\ln\frac{N}{n_t} + 1`, scikit-learn's ``smooth_idf=False``), and the query vector from
    ``Config.tfidf_query``: :math:`g` is 1 (``"binary"``) or qtf (``"tf"``), times
    idf for ``"binary-idf"`` and ``"tf-idf"``. Dividing by :math:`\lVert q \rVert`
    does not change a query's ranking; it keeps scores in [0, 1].

    Returns
    -------
    numpy.ndarray
        Scores, queries × documents.
    """
    idf = IDF[config.tfidf_idf](index.n_docs, index.df)
    d = _with_data(index.tf, TF[config.tfidf_tf](index.tf.data) * idf[index.tf.indices])
    d = sp.diags(1.0 / _norms(d)) @ d
    use_tf, use_idf = QUERY_TFIDF[config.tfidf_query]
    qdata = index.qtf.data.copy() if use_tf else np.ones(index.qtf.nnz)
    if use_idf:
        qdata = qdata * idf[index.qtf.indices]
    q = _with_data(index.qtf, qdata)
    q = sp.diags(1.0 / _norms(q)) @ q
    return np.asarray((q @ d.T).todense())


def _norms(m: sp.csr_matrix) -> np.ndarray:
    n = np.sqrt(np.asarray(m.multiply(m).sum(axis=1)).ravel())
    return np.where(n > 0, n, 1.0)


def bm25_scores(index: Index, config: Config) -> np.ndarray:
    r"""Okapi BM25.

    .. math::

        s(q, d) = \sum_{t \in q} c_t\,\mathrm{idf}_t\,
        \frac{\mathrm{tf}_{t,d}\,(k_1 + 1)}
             {\mathrm{tf}_{t,d} + k_1\,\bigl(1 - b + b\,|d| / \overline{|d|}\bigr)}

    with :math:`k_1` = ``Config.bm25_k1``, :math:`b` = ``Config.bm25_b``,
    :math:`|d|` the number of indexed tokens of d and :math:`\overline{|d|}` its
    mean (``Config.bm25_length="lucene"`` rounds :math:`|d|` as Lucene stores
    it, :func:`lucene_length`); :math:`\mathrm{idf}` from ``Config.bm25_idf`` (default the RSJ
    weight :math:`\ln\frac{N - n_t + 0.5}{n_t + 0.5}`; Lucene's is
    :math:`\ln(1 + \frac{N - n_t + 0.5}{n_t + 0.5})`); :math:`c_t` is the query
    tf of t (``bm25_query="tf"``) or 1 for each distinct query term.

    Returns
    -------
    numpy.ndarray
        Scores, queries × documents.
    """
    k1, b = config.bm25_k1, config.bm25_b
    idf = IDF[config.bm25_idf](index.n_docs, index.df)
    tf = index.tf
    length = lucene_length(index.length) if config.bm25_length == "lucene" else index.length
    norm = k1 * (1 - b + b * length / index.length.mean())
    rows = np.repeat(np.arange(tf.shape[0]), np.diff(tf.indptr))
    data = tf.data * (k1 + 1) / (tf.data + norm[rows]) * idf[tf.indices]
    q = index.qtf if config.bm25_query == "tf" else _with_data(index.qtf, np.ones(index.qtf.nnz))
    return np.asarray((q @ _with_data(tf, data).T).todense())


def lucene_length(length: np.ndarray) -> np.ndarray:
    """Document lengths as Lucene 8+ keeps them: one byte, ``SmallFloat.intToByte4``.

    Lengths below 24 are exact; larger ones keep 4 significant bits beyond 24
    and are rounded down (``byte4ToInt(intToByte4(n))``).

    Examples
    --------
    >>> lucene_length(np.array([23, 24, 40, 100, 130])).tolist()
    [23.0, 24.0, 40.0, 96.0, 128.0]
    """
    free = 24  # 255 - longToInt4(Integer.MAX_VALUE)
    out = []
    for n in np.asarray(length, dtype=np.int64).tolist():
        i = n - free
        if i < 0:
            out.append(n)
            continue
        bits = i.bit_length()
        shift = max(bits - 4, 0)
        out.append(free + ((i >> shift) << shift))  # keep the top 4 bits of n - 24
    return np.array(out, dtype=float)


SCORERS = {"bim": bim_scores, "tfidf": tfidf_scores, "bm25": bm25_scores}
