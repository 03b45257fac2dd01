r"""What the retrieval models read: :class:`Index` tokenises the documents and queries
(:class:`Tokeniser`, choices in :class:`Config`) into sparse term-frequency matrices.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import Literal

import numpy as np
import scipy.sparse as sp

from dcglab.collections.cranfield.data import FIELDS, Collection
from dcglab.collections.cranfield.weights import IDF, QUERY_TFIDF, TF

LUCENE_STOP_WORDS = frozenset(
    "a an and are as at be but by for if in into is it no not of on or such that the their "
    "then there these they this to was will with".split()
)
"""Lucene's 33 English stop words (``EnglishAnalyzer.ENGLISH_STOP_WORDS_SET``)."""
STOP_LISTS: dict[str, frozenset[str]] = {"none": frozenset(), "lucene": LUCENE_STOP_WORDS}
"""Named stop lists a :class:`Config` may refer to."""

MODELS = ("bim", "tfidf", "bm25")
Model = Literal["bim", "tfidf", "bm25"]
TOKEN = re.compile(r"[a-z0-9]+")
"""A token: a run of lowercase letters and digits."""


@dataclass(frozen=True)
class Config:
    r"""Every choice behind the three models, in one place.

    The defaults are the configuration that ``scripts/cranfield_search.py`` found
    closest to the article's table (its option lists are in
    :mod:`dcglab.collections.cranfield.search`; the textbook BM25 with k1 = 1.2, b = 0.75 is
    its ``standard`` row).

    Attributes
    ----------
    fields : tuple of str
        Document fields indexed, from ``("title", "author", "bib", "abstract")``.
    stopwords : str
        A name in :data:`STOP_LISTS`: ``"lucene"`` (33 words) or ``"none"``.
    stemmer : str
        A ``snowballstemmer`` algorithm (``"porter"``, ``"english"`` = Porter2)
        or ``"none"``. Tokens are lowercase alphanumeric runs ``[a-z0-9]+``;
        stop words are removed before stemming.
    bim_idf : str
        Term weight of the BIM, a name in :data:`IDF` (``"rsj"`` by definition).
    bim_query : {"unique", "tf"}
        BIM sums each distinct query term once, or once per occurrence.
    tfidf_tf : {"raw", "log", "binary"}
        Document term weight :math:`f(\mathrm{tf})`: tf, :math:`1 + \ln \mathrm{tf}`, or 1.
    tfidf_idf : str
        The idf of the TF-IDF model, a name in :data:`IDF`.
    tfidf_query : {"binary", "tf", "binary-idf", "tf-idf"}
        Query vector: 1 or tf per distinct term, optionally times idf.
    bm25_k1, bm25_b : float
        BM25's term-frequency saturation and length normalisation.
    bm25_idf : str
        The idf of BM25, a name in :data:`IDF`.
    bm25_query : {"unique", "tf"}
        BM25 sums each distinct query term once, or weights it by its query tf.
    bm25_length : {"exact", "lucene"}
        Document length :math:`|d|` as counted, or rounded as Lucene (8 and later)
        stores it in one byte (:func:`lucene_length`); the mean length is exact.
    ties : {"docid-asc", "docid-desc"}
        Order of documents with equal scores: by increasing or decreasing
        document number. (trec_eval uses decreasing docno, but it re-sorts runs
        itself; here the ranking is the system's own.)
    """

    fields: tuple[str, ...] = ("title", "abstract")
    stopwords: str = "lucene"
    stemmer: str = "porter"
    bim_idf: str = "rsj"
    bim_query: Literal["unique", "tf"] = "unique"
    tfidf_tf: Literal["raw", "log", "binary"] = "raw"
    tfidf_idf: str = "plain+1"
    tfidf_query: Literal["binary", "tf", "binary-idf", "tf-idf"] = "binary"
    bm25_k1: float = 2.0
    bm25_b: float = 0.4
    bm25_idf: str = "rsj"
    bm25_query: Literal["unique", "tf"] = "tf"
    bm25_length: Literal["exact", "lucene"] = "exact"
    ties: Literal["docid-asc", "docid-desc"] = "docid-asc"

    def __post_init__(self) -> None:
        checks = {
            "fields": (set(self.fields) <= set(FIELDS) and len(self.fields) > 0, FIELDS),
            "stopwords": (self.stopwords in STOP_LISTS, tuple(STOP_LISTS)),
            "bim_idf": (self.bim_idf in IDF, tuple(IDF)),
            "bim_query": (self.bim_query in ("unique", "tf"), ("unique", "tf")),
            "tfidf_tf": (self.tfidf_tf in TF, tuple(TF)),
            "tfidf_idf": (self.tfidf_idf in IDF, tuple(IDF)),
            "tfidf_query": (self.tfidf_query in QUERY_TFIDF, tuple(QUERY_TFIDF)),
            "bm25_idf": (self.bm25_idf in IDF, tuple(IDF)),
            "bm25_query": (self.bm25_query in ("unique", "tf"), ("unique", "tf")),
            "bm25_length": (self.bm25_length in ("exact", "lucene"), ("exact", "lucene")),
            "ties": (self.ties in ("docid-asc", "docid-desc"), ("docid-asc", "docid-desc")),
        }
        for name, (ok, allowed) in checks.items():
            if not ok:
                raise ValueError(
                    f"Config.{name} must be from {allowed}, got {getattr(self, name)!r}"
                )
        if not (self.bm25_k1 >= 0 and 0 <= self.bm25_b <= 1):
            raise ValueError(f"need k1 >= 0 and 0 <= b <= 1, got {self.bm25_k1}, {self.bm25_b}")

    @property
    def tokenisation(self) -> tuple[tuple[str, ...], str, str]:
        """The choices an :class:`Index` depends on: fields, stop list, stemmer."""
        return self.fields, self.stopwords, self.stemmer

    def describe(self) -> dict[str, object]:
        """The configuration as a plain dict (for tables)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


class Tokeniser:
    """Lowercase alphanumeric runs, stop words removed, then stemmed.

    Stems are cached, so each distinct word is stemmed once.

    Examples
    --------
    >>> Tokeniser("lucene", "porter")("The flows of a Heated wing, 2 Mach.")
    ['flow', 'heat', 'wing', '2', 'mach']
    """

    def __init__(self, stopwords: str = "lucene", stemmer: str = "porter") -> None:
        self.stopwords = STOP_LISTS[stopwords]
        if stemmer == "none":
            self._stem = None
        else:
            import snowballstemmer

            self._stem = snowballstemmer.stemmer(stemmer).stemWord
        self._cache: dict[str, str] = {}

    def __call__(self, text: str) -> list[str]:
        words = [w for w in TOKEN.findall(text.lower()) if w not in self.stopwords]
        if self._stem is None:
            return words
        cache, stem = self._cache, self._stem
        return [cache[w] if w in cache else cache.setdefault(w, stem(w)) for w in words]


PROGRESS_DELAY = 1.0
"""Seconds before a progress bar appears (a quick step shows none)."""


def _progress(iterable, progress: bool, desc: str, total: int | None = None):
    if not progress:
        return iterable
    from tqdm.auto import tqdm

    return tqdm(iterable, desc=desc, total=total, delay=PROGRESS_DELAY)


@dataclass(frozen=True)
class Index:
    """Term-frequency matrices of the documents and the queries.

    Attributes
    ----------
    config : Config
        The configuration the index was built with (its :attr:`Config.tokenisation`).
    vocabulary : dict
        Term → column.
    tf : scipy.sparse.csr_matrix
        ``tf[d - 1, t]``: occurrences of term t in document d (float).
    qtf : scipy.sparse.csr_matrix
        ``qtf[q - 1, t]``: occurrences of term t in query q; query words that occur
        in no document are dropped (they score 0 in every model).
    df : numpy.ndarray
        :math:`n_t`, the number of documents containing term t.
    length : numpy.ndarray
        :math:`|d|`, indexed tokens per document.
    """

    config: Config
    vocabulary: dict[str, int]
    tf: sp.csr_matrix
    qtf: sp.csr_matrix
    df: np.ndarray
    length: np.ndarray

    @property
    def n_docs(self) -> int:
        """:math:`N`, the number of documents."""
        return self.tf.shape[0]

    @classmethod
    def build(
        cls, collection: Collection, config: Config | None = None, progress: bool = False
    ) -> Index:
        """Tokenise the collection's documents and queries.

        Parameters
        ----------
        collection : Collection
        config : Config, optional
            Its ``fields``, ``stopwords`` and ``stemmer`` are used; default :class:`Config`.
        progress : bool
            Show a tqdm progress bar if indexing takes more than a second.
        """
        config = config or Config()
        tokenise = Tokeniser(config.stopwords, config.stemmer)
        vocabulary: dict[str, int] = {}
        docs = []
        for doc in _progress(collection.docs, progress, "indexing Cranfield"):
            text = "\n".join(getattr(doc, f) for f in config.fields)
            docs.append([vocabulary.setdefault(t, len(vocabulary)) for t in tokenise(text)])
        queries = [
            [vocabulary[t] for t in tokenise(q) if t in vocabulary] for q in collection.queries
        ]
        tf = _count_matrix(docs, len(vocabulary))
        return cls(
            config=config,
            vocabulary=vocabulary,
            tf=tf,
            qtf=_count_matrix(queries, len(vocabulary)),
            df=np.diff(tf.tocsc().indptr).astype(float),
            length=np.asarray(tf.sum(axis=1)).ravel(),
        )


def _count_matrix(rows: Sequence[Sequence[int]], n_terms: int) -> sp.csr_matrix:
    indptr = np.cumsum([0] + [len(r) for r in rows])
    indices = np.fromiter((t for r in rows for t in r), dtype=np.int64, count=indptr[-1])
    data = np.ones(len(indices))
    m = sp.csr_matrix((data, indices, indptr), shape=(len(rows), n_terms))
    m.sum_duplicates()
    return m
