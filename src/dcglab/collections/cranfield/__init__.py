"""The Cranfield collection: its files, three retrieval models, and nDCG on them.

Cranfield holds 1,400 abstracts on aeronautics, 225 queries and graded relevance
judgments. :mod:`~dcglab.collections.cranfield.data` downloads, checks and parses the files
(:func:`load`); :mod:`~dcglab.collections.cranfield.retrieval` indexes them and ranks the
documents with BIM, TF-IDF and BM25 (:class:`Index`, :func:`rank`);
:mod:`~dcglab.collections.cranfield.evaluation` computes per-query nDCG@k with
:func:`dcglab.ndcg` (:func:`ndcg_by_query`), the table of the three models
(:func:`table`) and the queries on which two models swap places between graded
and binary gain (:func:`direction_changes`). :mod:`~dcglab.collections.cranfield.search`
holds the option lists of the configuration search.

>>> import dcglab.collections.cranfield as cf
>>> cf.MODELS
('bim', 'tfidf', 'bm25')
"""

from dcglab.collections.cranfield.data import (
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
from dcglab.collections.cranfield.evaluation import (
    BINARY,
    GAIN_NAMES,
    GRADED,
    MINUS_ONE_READINGS,
    DirectionChanges,
    direction_changes,
    gain_flips,
    gain_mapping,
    mean,
    ndcg_by_model,
    ndcg_by_query,
    read_minus_one,
    relevant_in_top,
    run_scores,
    table,
)
from dcglab.collections.cranfield.index import (
    LUCENE_STOP_WORDS,
    MODELS,
    STOP_LISTS,
    Config,
    Index,
    Tokeniser,
)
from dcglab.collections.cranfield.models import bim_scores, bm25_scores, lucene_length, tfidf_scores
from dcglab.collections.cranfield.retrieval import matches, rank, scores
from dcglab.collections.cranfield.weights import IDF

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
    "fetch",
    "gain_mapping",
    "load",
    "lucene_length",
    "matches",
    "md5",
    "mean",
    "ndcg_by_model",
    "ndcg_by_query",
    "read_minus_one",
    "relevant_in_top",
    "run_scores",
    "gain_flips",
    "MINUS_ONE_READINGS",
    "parse_documents",
    "parse_qrels",
    "parse_queries",
    "rank",
    "scores",
    "table",
    "tfidf_scores",
    "verify",
]
