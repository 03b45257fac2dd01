r"""The Cranfield files: where they come from, how they are checked and parsed.

:func:`load` reads ``cran.all.1400``, ``cran.qry`` and ``cranqrel`` from a folder
given as an argument, by the environment variable ``DCGLAB_CRANFIELD_DIR``, or
else from the Glasgow IR group's archive, which :func:`fetch` downloads once
with pooch. :func:`verify` checks each file's MD5.

Quirks of the files: queries are numbered 1..225 by position in ``cran.qry``
(its ``.I`` labels are not the numbers the qrels use; they are kept in
:attr:`Collection.query_labels`); relevance codes run from 1 (complete answer)
to 4 (minimum interest), plus one code −1 per query that the readme does not
explain; documents 240, 576 and 578 break the field layout (see
:func:`parse_documents`).
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

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

CODES = (1, 2, 3, 4, -1)
"""The relevance codes of ``cranqrel``."""
UNJUDGED = 0
"""Code given to a retrieved document absent from the qrels; it always has gain 0."""

FIELDS = ("title", "author", "bib", "abstract")
"""The text fields of a document, in file order (``.T .A .B .W``)."""


class CranfieldUnavailable(RuntimeError):
    """The Cranfield files could not be downloaded or found."""


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
        if code not in CODES:
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
        f"{ENV_VAR}=/path/to/folder, or pass data_dir=... to dcglab.collections.cranfield.load()."
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
