"""The option lists of the configuration search (``scripts/cranfield_search.py``).

The search scores every combination of these options and ranks them by their
distance to the article's table. Every list starts with the most standard choice,
which breaks ties in distance. Chapter 11 counts the grid from here.
"""

from __future__ import annotations

from dcglab.collections.cranfield.evaluation import BINARY, GRADED
from dcglab.collections.cranfield.index import STOP_LISTS

FIELDS = [("title", "abstract"), ("abstract",), ("title", "author", "bib", "abstract")]
"""Fields indexed (:attr:`dcglab.collections.cranfield.Config.fields`)."""
STOPWORDS = ["lucene", "none", "sklearn"]
"""Stop lists; ``"sklearn"`` needs :func:`register_sklearn_stop_words` first."""
STEMMERS = ["porter", "english", "none"]
"""Stemmers (``snowballstemmer`` names, or none)."""
TIES = ["docid-asc", "docid-desc"]
"""Order of documents with equal scores."""
MINUS_ONE = {
    # reading of code -1: (graded gain, binary gain)
    "nonrelevant": (0, 0),
    "as-code-4": (1, 1),  # relevant, of minimum interest
    "as-code-1": (4, 1),  # relevant, a complete answer (the source paper?)
    "literal": (6, 1),  # 5 - (-1) taken literally
}
"""Readings of the unexplained code −1: its graded and binary gain (evaluation only)."""
BIM = [dict(bim_idf=i, bim_query=q) for i in ("rsj", "rsj+") for q in ("unique", "tf")]
"""BIM variants: term weight × query terms."""
TFIDF = [
    dict(tfidf_tf=tf, tfidf_idf=idf, tfidf_query=q)
    for tf in ("raw", "log", "binary")
    for idf in ("smooth", "plain+1", "plain")
    for q in ("binary", "tf-idf", "tf", "binary-idf")
]
"""TF-IDF variants: document tf × idf × query vector."""
BM25 = [
    dict(bm25_k1=k1, bm25_b=b, bm25_idf=idf, bm25_query=q, bm25_length=n)
    for k1 in (1.2, 0.9, 1.0, 1.5, 2.0)
    for b in (0.75, 0.4, 0.3, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)
    for idf in ("lucene", "rsj", "rsj+")
    for q in ("unique", "tf")
    for n in ("exact", "lucene")
]
"""BM25 variants: k1 × b × idf × query tf × document length."""
MODEL_GRID = {"bim": BIM, "tfidf": TFIDF, "bm25": BM25}
"""The variants of each model."""


def gain_tables(minus_one: str) -> dict[str, dict[int, int]]:
    """The graded and binary gain tables under one reading of code −1 (:data:`MINUS_ONE`).

    Examples
    --------
    >>> gain_tables("as-code-1")["graded"]
    {1: 4, 2: 3, 3: 2, 4: 1, -1: 4}
    """
    graded, binary = MINUS_ONE[minus_one]
    return {"graded": {**GRADED, -1: graded}, "binary": {**BINARY, -1: binary}}


def register_sklearn_stop_words() -> None:
    """Add scikit-learn's 318-word English stop list as ``"sklearn"`` to
    :data:`dcglab.collections.cranfield.STOP_LISTS` (scikit-learn is a test dependency)."""
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

    STOP_LISTS.setdefault("sklearn", frozenset(ENGLISH_STOP_WORDS))
