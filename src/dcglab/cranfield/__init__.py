"""The Cranfield collection: its files, three retrieval models, and nDCG on them.

Cranfield holds 1,400 abstracts on aeronautics, 225 queries and graded relevance
judgments. :mod:`~dcglab.cranfield.data` downloads, checks and parses the files
(:func:`load`); :mod:`~dcglab.cranfield.retrieval` indexes them and ranks the
documents with BIM, TF-IDF and BM25 (:class:`Index`, :func:`rank`);
:mod:`~dcglab.cranfield.evaluation` computes per-query nDCG@k with
:func:`dcglab.ndcg` (:func:`evaluate`), the table of the three models
(:func:`table`) and the queries on which two models swap places between graded
and binary gain (:func:`direction_changes`). :mod:`~dcglab.cranfield.search`
holds the option lists of the configuration search.

>>> import dcglab.cranfield as cf
>>> cf.MODELS
('bim', 'tfidf', 'bm25')
"""

from .data import (
    ARCHIVE_HASH,
    ARCHIVE_SIZE,
    ARCHIVE_URL,
    CODES,
    ENV_VAR,
    FIELDS,
    FILES,
    UNJUDGED,
    Collection,
    CranfieldUnavailable,
    Document,
    data_dir,
    fetch,
    load,
    md5,
    parse_documents,
    parse_qrels,
    parse_queries,
    verify,
)
from .evaluation import (
    BINARY,
    GAIN_NAMES,
    GRADED,
    DirectionChanges,
    direction_changes,
    evaluate,
    gain_mapping,
    mean,
    table,
)
from .retrieval import (
    IDF,
    LUCENE_STOP_WORDS,
    MODELS,
    STOP_LISTS,
    Config,
    Index,
    Tokeniser,
    bim_scores,
    bm25_scores,
    lucene_length,
    matches,
    rank,
    scores,
    tfidf_scores,
)

__all__ = [
    "ARCHIVE_HASH",
    "ARCHIVE_SIZE",
    "ARCHIVE_URL",
    "BINARY",
    "CODES",
    "ENV_VAR",
    "FIELDS",
    "FILES",
    "GAIN_NAMES",
    "GRADED",
    "IDF",
    "LUCENE_STOP_WORDS",
    "MODELS",
    "STOP_LISTS",
    "UNJUDGED",
    "Collection",
    "Config",
    "CranfieldUnavailable",
    "DirectionChanges",
    "Document",
    "Index",
    "Tokeniser",
    "bim_scores",
    "bm25_scores",
    "data_dir",
    "direction_changes",
    "evaluate",
    "fetch",
    "gain_mapping",
    "load",
    "lucene_length",
    "matches",
    "md5",
    "mean",
    "parse_documents",
    "parse_qrels",
    "parse_queries",
    "rank",
    "scores",
    "table",
    "tfidf_scores",
    "verify",
]
