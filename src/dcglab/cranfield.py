r"""The Cranfield collection: download, parsing, three retrieval models, evaluation.

Cranfield holds 1,400 abstracts on aeronautics, 225 queries and graded relevance
judgments (qrels). Everything the book computes on it goes through this module:

1. **Data.** :func:`load` reads the three files from a folder given as an
   argument, by the environment variable ``DCGLAB_CRANFIELD_DIR``, or else from
   the Glasgow IR group's archive ``cran.tar.gz``, which :func:`fetch` downloads
   once with pooch (cached, hash-checked, extracted with ``pooch.Untar``).
   :func:`verify` checks each file's MD5.
2. **Models.** :class:`Index` tokenises title and abstract (see :class:`Config`)
   into sparse term-frequency matrices; :func:`scores` computes the binary
   independence model (BIM), the cosine TF-IDF model and BM25 with a few sparse
   products, and :func:`rank` orders the documents.
3. **Evaluation.** :func:`evaluate` gives per-query nDCG@k with
   :func:`dcglab.ndcg`; :func:`direction_changes` counts the queries on which the
   comparison of two systems flips between graded and binary gains.

Quirks of the files, and how they are resolved
----------------------------------------------
* Queries are numbered **1..225 by position** in ``cran.qry``. The ``.I``
  labels there (1, 2, 4, 8, 9, ..., 365) are not the numbers the qrels use;
  they are kept in :attr:`Collection.query_labels`.
* Relevance codes run from 1 (complete answer) to 4 (minimum interest). Each
  query also has exactly one document with code **−1**, 225 lines in all; the
  readme does not explain it. That document is almost always the best match
  to its query (median BM25 rank 2): most likely the paper the question was
  written from (Cranfield II's questions came from the authors of "base"
  documents), not a relevance grade. dcglab counts it **judged non-relevant**,
  gain 0 (:data:`GRADED`, :data:`BINARY`), as trec_eval does with any code
  <= 0. Counting it as relevant (graded like code 1, or binary 1) lifts the
  default configuration's mean nDCG@10 to 0.38–0.51, at least 0.09 above each
  of the article's figures, so the article did not count it either.
* Three documents break the field layout: 576 and 578 repeat ``.W``, and 240
  has stray ``.A`` and ``.B`` lines inside its abstract. Fields come in the
  order ``.T .A .B .W``, so everything after the first ``.W`` up to the next
  ``.I`` is the abstract, and marker lines inside it are dropped.
* Every abstract begins by repeating its title, so indexing title and abstract
  counts title words twice (as every title-plus-abstract index of Cranfield does).
* Every query has at least one document with code 1..4, so no query has ideal
  DCG 0; :func:`evaluate` therefore uses ``zero_idcg="error"``, which would
  expose a parsing mistake rather than hide it.
"""

from __future__ import annotations

import hashlib
import logging
import math
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Literal

import numpy as np
import scipy.sparse as sp

from .judgments import run_grades
from .measures import ndcg

ENV_VAR = "DCGLAB_CRANFIELD_DIR"
"""Environment variable naming a local folder that holds the three Cranfield files."""

ARCHIVE_URL = "http://ir.dcs.gla.ac.uk/resources/test_collections/cran/cran.tar.gz"
"""The Glasgow IR group's public archive (the record ir_datasets also uses)."""
ARCHIVE_HASH = "md5:1730f7be572d95a5a4b56c59a7b900a5"
"""pooch hash of ``cran.tar.gz`` (506,960 bytes), from the ir_datasets record."""
ARCHIVE_SIZE = 506_960

FILES = {
    "cran.all.1400": "ed6036836f100f79fcac69c8d6316515",
    "cran.qry": "da21a9df84d0ce3f66d0451c4d880903",
    "cranqrel": "d07d508ca927f30763ec3da959611528",
}
"""The three files dcglab reads, with their MD5 checksums."""

GRADED: dict[int, int] = {1: 4, 2: 3, 3: 2, 4: 1, -1: 0}
"""Graded gain :math:`5 - \\text{code}` for codes 1..4; code −1 is non-relevant (gain 0)."""
BINARY: dict[int, int] = {1: 1, 2: 1, 3: 1, 4: 1, -1: 0}
"""Binary gain: every code 1..4 counts 1; code −1 is non-relevant (gain 0)."""
ARTICLE_TABLE: dict = {
    "bim": {"graded": 0.268, "binary": 0.282},
    "tfidf": {"graded": 0.356, "binary": 0.371},
    "bm25": {"graded": 0.368, "binary": 0.385},
    "changes": 6,
}
"""The reference article's Cranfield figures: mean nDCG@10 per model under graded
(:data:`GRADED`) and binary (:data:`BINARY`) gain, and the number of the 225
queries on which BM25 versus TF-IDF changes direction between the two gains.
The article does not give its configuration; ``scripts/cranfield_search.py``
looks for the closest one."""
UNJUDGED = 0
"""Code given to a retrieved document absent from the qrels; it always has gain 0."""

LUCENE_STOP_WORDS = frozenset(
    "a an and are as at be but by for if in into is it no not of on or such that the their "
    "then there these they this to was will with".split()
)
"""Lucene's 33 English stop words (``EnglishAnalyzer.ENGLISH_STOP_WORDS_SET``)."""
STOP_LISTS: dict[str, frozenset[str]] = {"none": frozenset(), "lucene": LUCENE_STOP_WORDS}
"""Named stop lists a :class:`Config` may refer to."""

FIELDS = ("title", "author", "bib", "abstract")
MODELS = ("bim", "tfidf", "bm25")
Model = Literal["bim", "tfidf", "bm25"]
TOKEN = re.compile(r"[a-z0-9]+")


class CranfieldUnavailable(RuntimeError):
    """The Cranfield files could not be downloaded or found."""


# --------------------------------------------------------------------------- data


@dataclass(frozen=True)
class Document:
    """One Cranfield abstract: its number and its four text fields."""

    id: int
    title: str
    author: str
    bib: str
    abstract: str


@dataclass(frozen=True)
class Collection:
    """Documents, queries and qrels.

    Attributes
    ----------
    docs : tuple of Document
        Document ``d`` is ``docs[d - 1]``.
    queries : tuple of str
        Query ``q`` (1..225, by position in ``cran.qry``) is ``queries[q - 1]``.
    query_labels : tuple of int
        The ``.I`` label of each query in ``cran.qry`` (not used by the qrels).
    qrels : dict
        ``qrels[q][d]`` is the raw relevance code (1..4 or −1) of document ``d``
        for query ``q``.
    """

    docs: tuple[Document, ...]
    queries: tuple[str, ...]
    query_labels: tuple[int, ...]
    qrels: Mapping[int, Mapping[int, int]]

    @property
    def query_ids(self) -> range:
        """Query numbers 1..n, by position."""
        return range(1, len(self.queries) + 1)


def parse_documents(text: str) -> list[Document]:
    """Parse ``cran.all.1400``: records ``.I n`` with fields ``.T .A .B .W``.

    Everything after the first ``.W`` of a record is its abstract; marker lines
    inside the abstract (documents 240, 576, 578) are dropped.

    Examples
    --------
    >>> text = ".I 1\\n.T\\nwing .\\n.A\\nsmith,j.\\n.B\\nj. ae. 1\\n.W\\nwing .\\n.W\\nlift .\\n"
    >>> parse_documents(text)
    [Document(id=1, title='wing .', author='smith,j.', bib='j. ae. 1', abstract='wing .\\nlift .')]
    """
    docs = []
    for record in re.split(r"^\.I\s+", text, flags=re.M)[1:]:
        head, *lines = record.splitlines()
        parts: dict[str, list[str]] = {f: [] for f in FIELDS}
        markers = {".T": "title", ".A": "author", ".B": "bib", ".W": "abstract"}
        field = None
        for line in lines:
            marker = line.strip()
            if marker in markers:
                if field != "abstract":
                    field = markers[marker]
                continue
            if field is None:
                raise ValueError(f"document {head.strip()}: text before any field marker")
            parts[field].append(line)
        docs.append(Document(int(head), **{f: "\n".join(v).strip() for f, v in parts.items()}))
    return docs


def parse_queries(text: str) -> tuple[list[int], list[str]]:
    """Parse ``cran.qry``: the ``.I`` labels and the ``.W`` texts, in file order.

    Query ``q`` of the qrels is the ``q``-th query of the file, whatever its label.

    Examples
    --------
    >>> parse_queries(".I 001\\n.W\\nwhat is lift .\\n.I 004\\n.W\\ndrag ?\\n")
    ([1, 4], ['what is lift .', 'drag ?'])
    """
    labels, texts = [], []
    for record in re.split(r"^\.I\s+", text, flags=re.M)[1:]:
        head, _, body = record.partition("\n")
        if not body.startswith(".W"):
            raise ValueError(f"query {head.strip()}: expected a .W line")
        labels.append(int(head))
        texts.append(body[2:].strip())
    return labels, texts


def parse_qrels(text: str) -> dict[int, dict[int, int]]:
    """Parse ``cranqrel``: lines ``query document code`` (some end in CR).

    Raises
    ------
    ValueError
        On a line without three integers, a code outside {−1, 1, 2, 3, 4}, or a
        (query, document) pair judged twice.

    Examples
    --------
    >>> parse_qrels("1 184 2 \\r\\n1 486 -1\\r\\n")
    {1: {184: 2, 486: -1}}
    """
    qrels: dict[int, dict[int, int]] = {}
    for n, line in enumerate(text.splitlines(), 1):
        cols = line.split()
        if not cols:
            continue
        if len(cols) != 3:
            raise ValueError(f"cranqrel line {n}: expected 3 columns, got {line!r}")
        q, d, code = (int(c) for c in cols)
        if code not in GRADED:
            raise ValueError(f"cranqrel line {n}: unknown relevance code {code}")
        if d in qrels.setdefault(q, {}):
            raise ValueError(f"cranqrel line {n}: query {q}, document {d} judged twice")
        qrels[q][d] = code
    return qrels


def md5(path: str | Path) -> str:
    """MD5 hex digest of a file."""
    return hashlib.md5(Path(path).read_bytes()).hexdigest()


def verify(folder: str | Path) -> Path:
    """Check that ``folder`` holds the three Cranfield files with the expected MD5s.

    Raises
    ------
    CranfieldUnavailable
        If a file is missing or its checksum differs (names each such file).
    """
    folder = Path(folder)
    problems = []
    for name, want in FILES.items():
        path = folder / name
        if not path.is_file():
            problems.append(f"{name} is missing")
        elif (got := md5(path)) != want:
            problems.append(f"{name} has md5 {got}, expected {want}")
    if problems:
        raise CranfieldUnavailable(
            f"Cranfield files in {folder} fail verification: " + "; ".join(problems)
        )
    return folder


def _instructions() -> str:
    return (
        f"Download {ARCHIVE_URL} by other means, extract it, and point dcglab at the folder "
        f"holding cran.all.1400, cran.qry and cranqrel: set the environment variable "
        f"{ENV_VAR}=/path/to/folder, or pass data_dir=... to dcglab.cranfield.load()."
    )


def fetch(
    url: str = ARCHIVE_URL,
    known_hash: str | None = ARCHIVE_HASH,
    cache_dir: str | Path | None = None,
    progress: bool = False,
) -> Path:
    """Download ``cran.tar.gz`` once with pooch, extract it and verify the files.

    Parameters
    ----------
    url : str
        Where the archive lives (a local server in the tests).
    known_hash : str or None
        pooch hash of the archive, ``"md5:..."``; the default is the public
        archive's. A re-packed archive has another hash even when its files match.
    cache_dir : path, optional
        Cache folder; by default ``pooch.os_cache("dcglab")`` (for example
        ``~/.cache/dcglab`` on Linux). A cached archive is not downloaded again.
    progress : bool
        Show a download progress bar.

    Returns
    -------
    pathlib.Path
        The folder holding the verified files.

    Raises
    ------
    CranfieldUnavailable
        With one message that says how to use a local copy instead, when the
        download fails, the archive's hash differs or the files fail :func:`verify`.
    """
    import pooch

    path = Path(cache_dir) if cache_dir is not None else pooch.os_cache("dcglab")
    logger = pooch.get_logger()
    level = logger.level
    logger.setLevel(logging.WARNING)
    try:
        members = pooch.retrieve(
            url,
            known_hash,
            fname="cran.tar.gz",
            path=path,
            processor=pooch.Untar(extract_dir="cran"),
            progressbar=progress,
        )
    except Exception as exc:  # network errors, HTTP errors, hash mismatch
        reason = f"{type(exc).__name__}: {exc}".splitlines()[0]
        raise CranfieldUnavailable(
            f"Could not download the Cranfield collection from {url} ({reason}). " + _instructions()
        ) from None
    finally:
        logger.setLevel(level)
    found = {Path(m).name: Path(m).parent for m in members if Path(m).name in FILES}
    folder = found.get("cran.all.1400", path / "cran")
    try:
        return verify(folder)
    except CranfieldUnavailable as exc:
        raise CranfieldUnavailable(f"{exc}. {_instructions()}") from None


def data_dir(data_dir: str | Path | None = None, download: bool = True) -> Path:
    """The folder to read Cranfield from.

    In order: ``data_dir`` if given, else the folder named by
    ``DCGLAB_CRANFIELD_DIR``, else the pooch cache (downloading the archive with
    :func:`fetch` if ``download``).

    Raises
    ------
    CranfieldUnavailable
        If the chosen folder does not exist, or nothing is found and
        ``download`` is false.
    """
    chosen = data_dir if data_dir is not None else os.environ.get(ENV_VAR) or None
    if chosen is not None:
        folder = Path(chosen).expanduser()
        if not folder.is_dir():
            source = "data_dir" if data_dir is not None else ENV_VAR
            raise CranfieldUnavailable(f"{source} points at {folder}, which is not a folder")
        return folder
    if not download:
        raise CranfieldUnavailable(f"No Cranfield folder given. {_instructions()}")
    return fetch()


_data_dir = data_dir


def load(data_dir: str | Path | None = None, check: bool = True) -> Collection:
    """Read the Cranfield collection (see :func:`data_dir` for where from).

    Parameters
    ----------
    data_dir : path, optional
        Folder holding ``cran.all.1400``, ``cran.qry`` and ``cranqrel``.
    check : bool
        Verify the files' MD5s first (:func:`verify`).

    Returns
    -------
    Collection
    """
    folder = _data_dir(data_dir)
    if check:
        verify(folder)
    read = lambda name: (folder / name).read_text(encoding="ascii")  # noqa: E731
    docs = parse_documents(read("cran.all.1400"))
    if [d.id for d in docs] != list(range(1, len(docs) + 1)):
        raise ValueError("cran.all.1400: documents are not numbered 1..n in order")
    labels, queries = parse_queries(read("cran.qry"))
    qrels = parse_qrels(read("cranqrel"))
    if set(qrels) - set(range(1, len(queries) + 1)):
        raise ValueError("cranqrel names queries beyond the number of queries in cran.qry")
    return Collection(tuple(docs), tuple(queries), tuple(labels), qrels)


# ------------------------------------------------------------------------- models


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


@dataclass(frozen=True)
class Config:
    r"""Every choice behind the three models, in one place.

    The defaults are the configuration that ``scripts/cranfield_search.py``
    found closest to the article's table (``scripts/cranfield_search_results.csv``):
    nDCG@10 graded/binary BIM 0.2678/0.2809, TF-IDF 0.3560/0.3707, BM25
    0.3683/0.3856, with 7 strict direction changes (the article: 0.268/0.282,
    0.356/0.371, 0.368/0.385 and 6). Its BM25 (k1 = 2.0, b = 0.4, RSJ idf,
    query tf) fits noise at the third decimal; k1 = 2.0 is the edge of the
    searched range. The textbook BM25 (k1 = 1.2, b = 0.75, Lucene's idf) with
    scikit-learn's smooth idf for TF-IDF is the search's ``standard`` row.

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


TF = {
    "raw": lambda tf: tf,
    "log": lambda tf: 1.0 + np.log(tf),
    "binary": lambda tf: np.ones_like(tf),
}
QUERY_TFIDF = {"binary": (False, False), "tf": (True, False), "binary-idf": (False, True)}
QUERY_TFIDF["tf-idf"] = (True, True)


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


def _progress(iterable, progress: bool, desc: str, total: int | None = None):
    if not progress:
        return iterable
    from tqdm.auto import tqdm

    return tqdm(iterable, desc=desc, total=total, delay=1.0)


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


# --------------------------------------------------------------------- evaluation


def gain_mapping(gain: Literal["graded", "binary"] | Mapping[int, float]) -> dict[int, float]:
    """The gain table for ``"graded"`` (:data:`GRADED`), ``"binary"`` (:data:`BINARY`) or a mapping.

    Code 0 (:data:`UNJUDGED`) is added with gain 0.
    """
    if isinstance(gain, str):
        if gain not in ("graded", "binary"):
            raise ValueError(f"gain must be 'graded', 'binary' or a mapping, got {gain!r}")
        gain = GRADED if gain == "graded" else BINARY
    if UNJUDGED in gain and gain[UNJUDGED] != 0:
        raise ValueError("code 0 is reserved for unjudged documents, whose gain is 0")
    return {**gain, UNJUDGED: 0}


def evaluate(
    collection: Collection,
    ranking: Mapping[int, Sequence[int]],
    k: int = 10,
    gain: Literal["graded", "binary"] | Mapping[int, float] = "graded",
) -> dict[int, float]:
    r"""Per-query nDCG@k of a ranking, with :func:`dcglab.ndcg`.

    Each retrieved document gets its code from the qrels (unjudged documents
    count 0, :func:`dcglab.judgments.run_grades`); the ideal is built from all
    the query's judged codes, so the −1 documents are judged non-relevant.
    Gains: ``"graded"`` is :math:`5 - \text{code}` (:data:`GRADED`), ``"binary"`` 1
    for codes 1..4 (:data:`BINARY`); the discount is :math:`1/\log_2(i + 1)`.
    ``zero_idcg="error"``: no Cranfield query lacks a relevant document. A query
    missing from ``ranking`` scores 0.

    Returns
    -------
    dict
        Query number → nDCG@k.
    """
    table = gain_mapping(gain)
    out = {}
    for q in collection.query_ids:
        judged = collection.qrels.get(q, {})
        docs = [str(d) for d in ranking.get(q, [])]
        codes = run_grades(docs, {str(d): c for d, c in judged.items()}) if docs else [UNJUDGED]
        value = ndcg(codes, k, judged=list(judged.values()), gain=table, zero_idcg="error")
        out[q] = float(value)  # type: ignore[arg-type]
    return out


def mean(values: Mapping[int, float]) -> float:
    """Mean over queries."""
    return float(np.mean(list(values.values())))


@dataclass(frozen=True)
class DirectionChanges:
    """Queries where system A's advantage over B flips between graded and binary gain.

    With :math:`\\Delta_g = \\mathrm{A}_g - \\mathrm{B}_g` and
    :math:`\\Delta_b = \\mathrm{A}_b - \\mathrm{B}_b` per query:

    ``strict``
        :math:`\\Delta_g \\Delta_b < 0`: one strictly positive, the other
        strictly negative.
    ``lenient``
        :math:`\\operatorname{sign}\\Delta_g \\ne \\operatorname{sign}\\Delta_b`,
        which also counts a tie under one gain and not the other.
    """

    strict: tuple[int, ...]
    lenient: tuple[int, ...]


def direction_changes(
    graded: tuple[Mapping[int, float], Mapping[int, float]],
    binary: tuple[Mapping[int, float], Mapping[int, float]],
    tol: float = 1e-12,
) -> DirectionChanges:
    """Count the queries whose A-versus-B comparison changes direction.

    Parameters
    ----------
    graded, binary : (dict, dict)
        Per-query nDCG of systems A and B under graded and under binary gain.
    tol : float
        Differences within ``tol`` count as ties (sign 0).

    Examples
    --------
    >>> direction_changes(({1: .5, 2: .4, 3: .3}, {1: .4, 2: .4, 3: .4}),
    ...                   ({1: .3, 2: .5, 3: .2}, {1: .4, 2: .4, 3: .2}))
    DirectionChanges(strict=(1,), lenient=(1, 2, 3))
    """
    (ga, gb), (ba, bb) = graded, binary
    strict, lenient = [], []
    for q in sorted(ga):
        sg = _sign(ga[q] - gb[q], tol)
        sb = _sign(ba[q] - bb[q], tol)
        if sg * sb < 0:
            strict.append(q)
        if sg != sb:
            lenient.append(q)
    return DirectionChanges(tuple(strict), tuple(lenient))


def _sign(x: float, tol: float) -> int:
    return 0 if abs(x) <= tol else int(math.copysign(1, x))


def table(
    collection: Collection, config: Config | None = None, k: int = 10, progress: bool = False
) -> dict[str, dict[str, float]]:
    """Mean nDCG@k of BIM, TF-IDF and BM25 under graded and binary gain.

    Returns
    -------
    dict
        ``{"bim": {"graded": ..., "binary": ...}, "tfidf": ..., "bm25": ...}``.
    """
    index = Index.build(collection, config, progress=progress)
    return {
        m: {g: mean(evaluate(collection, rank(index, m), k, g)) for g in ("graded", "binary")}
        for m in MODELS
    }


#: One character per qrels code, so the explorer's embedded rankings stay small.
CODE_CHARS = {-1: "-", 0: "0", 1: "1", 2: "2", 3: "3", 4: "4"}


def encode_codes(codes: Sequence[int]) -> str:
    """A list of qrels codes as a string, one character each (``-`` for −1).

    Examples
    --------
    >>> encode_codes([1, 0, -1, 4])
    '10-4'
    """
    return "".join(CODE_CHARS[c] for c in codes)


def decode_codes(text: str) -> list[int]:
    """The inverse of :func:`encode_codes`.

    Examples
    --------
    >>> decode_codes("10-4")
    [1, 0, -1, 4]
    """
    return [-1 if ch == "-" else int(ch) for ch in text]


def explorer_data(
    collection: Collection, config: Config | None = None, top: int = 100
) -> dict[str, object]:
    """What :class:`dcglab.book.explorers.CranfieldExplorer` embeds: per model, the qrels
    codes of each query's top ``top`` documents (0 for unjudged) and each query's
    judged codes, both as :func:`encode_codes` strings, and the gain tables
    (graded ``5 - code``, binary, and exponential ``2^(5 - code) - 1`` on the same
    grades), keyed by strings for JSON.
    """
    index = Index.build(collection, config)
    runs = {}
    for m in MODELS:
        ranking = rank(index, m, top=top)
        runs[m] = [
            encode_codes([collection.qrels.get(q, {}).get(d, UNJUDGED) for d in ranking.get(q, [])])
            or encode_codes([UNJUDGED])
            for q in collection.query_ids
        ]
    graded = gain_mapping("graded")
    gains = {
        "graded": graded,
        "binary": gain_mapping("binary"),
        "exponential": {c: 2.0**g - 1 for c, g in graded.items()},
    }
    return {
        "runs": runs,
        "judged": [
            encode_codes(collection.qrels.get(q, {}).values()) for q in collection.query_ids
        ],
        "gains": {n: {str(c): float(v) for c, v in table.items()} for n, table in gains.items()},
    }


__all__ = [
    "ARCHIVE_HASH",
    "ARCHIVE_URL",
    "BINARY",
    "ENV_VAR",
    "FILES",
    "GRADED",
    "IDF",
    "LUCENE_STOP_WORDS",
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
    "decode_codes",
    "encode_codes",
    "explorer_data",
    "fetch",
    "load",
    "matches",
    "rank",
    "scores",
    "table",
    "tfidf_scores",
    "verify",
]
