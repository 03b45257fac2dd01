r"""Three retrieval models on Cranfield: the binary independence model (BIM),
TF-IDF with cosine similarity and BM25.

:func:`scores` computes a model's scores (:mod:`dcglab.collections.cranfield.models`) over an
:class:`~dcglab.collections.cranfield.index.Index` and :func:`rank` orders the documents.
"""

from __future__ import annotations

import numpy as np

from dcglab.collections.cranfield.index import (
    MODELS,
    Config,
    Index,
    Model,
    _progress,
)
from dcglab.collections.cranfield.models import SCORERS, _with_data

__all__ = ["matches", "rank", "scores"]


def scores(index: Index, model: Model, config: Config | None = None) -> np.ndarray:
    """Score every document for every query with one model.

    Parameters
    ----------
    index : Index
    model : {"bim", "tfidf", "bm25"}
    config : Config, optional
        Model parameters; by default the index's own. Its tokenisation must
        equal the index's.

    Returns
    -------
    numpy.ndarray
        ``scores[q - 1, d - 1]``.
    """
    config = config or index.config
    if model not in SCORERS:
        raise ValueError(f"model must be one of {MODELS}, got {model!r}")
    if config.tokenisation != index.config.tokenisation:
        raise ValueError("config's fields, stopwords and stemmer differ from the index's")
    return SCORERS[model](index, config)


def matches(index: Index) -> np.ndarray:
    """Boolean matrix: query q shares at least one indexed term with document d."""
    q = _with_data(index.qtf, np.ones(index.qtf.nnz))
    d = _with_data(index.tf, np.ones(index.tf.nnz))
    return np.asarray((q @ d.T).todense()) > 0


def rank(
    index: Index,
    model: Model,
    top: int | None = 100,
    config: Config | None = None,
    progress: bool = False,
) -> dict[int, list[int]]:
    """Rank the documents for every query.

    Only documents sharing at least one term with the query are retrieved.
    They are ordered by score, highest first; equal scores are ordered by
    document number as ``Config.ties`` says.

    Parameters
    ----------
    index : Index
    model : {"bim", "tfidf", "bm25"}
    top : int or None
        How many documents to keep per query (all matching ones if ``None``).
    config : Config, optional
        Model parameters; by default the index's own.
    progress : bool
        Show a tqdm progress bar if ranking takes more than a second.

    Returns
    -------
    dict
        Query number → document numbers, best first.
    """
    config = config or index.config
    s = scores(index, model, config)
    hit = matches(index)
    ids = np.arange(1, index.n_docs + 1)
    if config.ties == "docid-desc":
        s, hit, ids = s[:, ::-1], hit[:, ::-1], ids[::-1]
    ranking = {}
    for i in _progress(range(s.shape[0]), progress, f"ranking ({model})"):
        cand = np.flatnonzero(hit[i])
        order = cand[np.argsort(-s[i, cand], kind="stable")]  # stable: ties keep id order
        ranking[i + 1] = ids[order[:top]].tolist()
    return ranking
