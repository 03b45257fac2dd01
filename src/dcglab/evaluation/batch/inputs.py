"""Every input a pipeline produces, as something :mod:`dcglab.batch.reader` reads.

- a path to a plain file: returned as it is (the fast, memory-mapped path);
- ``-`` (standard input), a pipe or FIFO (``<(zcat run.gz)``), a file object,
  or a ``.gz``, ``.bz2`` or ``.xz`` file (recognised by its first bytes): read
  into memory as :class:`Raw` bytes;
- a Parquet file: a polars DataFrame;
- in Python, pytrec_eval's dicts (``{qid: {docno: grade}}``), ir_measures'
  iterables of ``Qrel`` / ``ScoredDoc`` namedtuples, and DataFrames with
  ir_datasets' column names (``query_id``, ``doc_id``, ``relevance``): a
  DataFrame with dcglab's columns ``qid``, ``docno`` and ``grade`` or ``score``.
"""

from __future__ import annotations

import bz2
import gzip
import lzma
import os
import stat
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

import polars as pl

__all__ = ["COLUMN_ALIASES", "Raw", "buffered", "resolve", "run_tag"]

MAGIC = {b"\x1f\x8b": gzip.decompress, b"BZh": bz2.decompress, b"\xfd7zXZ\x00": lzma.decompress}
PARQUET = b"PAR1"
COLUMN_ALIASES = {"query_id": "qid", "doc_id": "docno", "relevance": "grade"}
"""ir_datasets' and ir_measures' column names, and dcglab's for them."""


@dataclass(frozen=True)
class Raw:
    """A qrels or run file's bytes, already read (standard input, a pipe, a
    decompressed file); ``origin`` names it in messages."""

    data: bytes
    origin: str


def _is_frame(source: object) -> bool:
    pd = sys.modules.get("pandas")
    return isinstance(source, pl.DataFrame) or (pd is not None and isinstance(source, pd.DataFrame))


def _renamed(frame):
    """A DataFrame with ir_datasets' column names renamed to dcglab's (when
    dcglab's own name is not there already)."""
    mapping = {a: b for a, b in COLUMN_ALIASES.items() if a in frame.columns}
    mapping = {a: b for a, b in mapping.items() if b not in frame.columns}
    if not mapping:
        return frame
    if isinstance(frame, pl.DataFrame):
        return frame.rename(mapping)
    return frame.rename(columns=mapping)


def _from_dict(source: Mapping, kind: str) -> pl.DataFrame:
    """pytrec_eval's ``{qid: {docno: value}}``."""
    value = "grade" if kind == "qrels" else "score"
    qids, docnos, values = [], [], []
    for q, docs in source.items():
        if not isinstance(docs, Mapping):
            raise ValueError(
                f"{kind} dict: query {q!r} maps to {type(docs).__name__}, expected "
                f"{{docno: {value}}} (pytrec_eval's layout)"
            )
        for d, v in docs.items():
            qids.append(q)
            docnos.append(d)
            values.append(v)
    return _frame(qids, docnos, values, value, f"{kind} dict")


def _from_rows(source: Iterable, kind: str) -> pl.DataFrame:
    """ir_measures' ``Qrel(query_id, doc_id, relevance)`` and
    ``ScoredDoc(query_id, doc_id, score)`` namedtuples (or any with those fields)."""
    value = "relevance" if kind == "qrels" else "score"
    qids, docnos, values = [], [], []
    for i, row in enumerate(source):
        try:
            qids.append(row.query_id)
            docnos.append(row.doc_id)
            values.append(getattr(row, value))
        except AttributeError:
            named = "Qrel" if kind == "qrels" else "ScoredDoc"
            raise ValueError(
                f"{kind} rows: row {i} is {row!r}; expected namedtuples with fields "
                f"query_id, doc_id, {value} (ir_measures' {named})"
            ) from None
    return _frame(qids, docnos, values, "grade" if kind == "qrels" else "score", f"{kind} rows")


def _frame(qids: list, docnos: list, values: list, value: str, origin: str) -> pl.DataFrame:
    if not qids:
        raise ValueError(f"{origin} is empty: it needs at least one entry")
    try:
        return pl.DataFrame(
            {"qid": qids, "docno": docnos, value: values}, strict=False, infer_schema_length=None
        )
    except (TypeError, ValueError, pl.exceptions.PolarsError) as exc:
        raise ValueError(f"{origin}: cannot be read as qid, docno, {value}: {exc}") from None


def _decoded(path: Path) -> Raw | pl.DataFrame | None:
    """A compressed file's bytes or a Parquet file's table, by their first bytes;
    ``None`` for a plain file."""
    with open(path, "rb") as fh:
        head = fh.read(6)
    for magic, decompress in MAGIC.items():
        if head.startswith(magic):
            try:
                return Raw(decompress(path.read_bytes()), str(path))
            except (OSError, EOFError, lzma.LZMAError, ValueError) as exc:
                raise ValueError(f"{path}: cannot decompress: {exc}") from None
    if head.startswith(PARQUET):
        try:
            return pl.read_parquet(path)
        except (OSError, pl.exceptions.PolarsError) as exc:
            raise ValueError(f"{path}: cannot read as Parquet: {exc}") from None
    return None


def buffered(source: object) -> object:
    """``source``, with standard input (``-``) and pipes read into memory once, so
    that they can be looked at more than once (the command line reads the run's
    tag too). Other sources are returned as they are."""
    if isinstance(source, (str, os.PathLike)):
        if str(source) == "-":
            return Raw(sys.stdin.buffer.read(), "<stdin>")
        path = Path(source)
        try:
            mode = path.stat().st_mode
        except OSError:
            return source
        if not stat.S_ISREG(mode):
            with open(path, "rb") as fh:
                return Raw(fh.read(), str(path))
    return source


def _resolve_path(source: str | os.PathLike, kind: str) -> object:
    """A path (or ``-``): standard input or a pipe as :class:`Raw` bytes, a
    compressed or Parquet file decoded, a plain file as its :class:`~pathlib.Path`."""
    buffered_source = buffered(source)
    if isinstance(buffered_source, Raw):
        return buffered_source
    path = Path(buffered_source)  # type: ignore[arg-type]
    if not path.is_file():
        raise ValueError(f"{kind} file not found: {path}")
    decoded = _decoded(path)
    if decoded is None:
        return path
    return _renamed(decoded) if isinstance(decoded, pl.DataFrame) else decoded


def resolve(source: object, kind: str) -> object:
    """What :func:`dcglab.batch.reader.read_table` reads: a :class:`~pathlib.Path` to a
    plain file, :class:`Raw` bytes, or a DataFrame with dcglab's column names.

    Raises ``ValueError`` naming ``kind`` and the source when it is none of the
    inputs listed in the module docstring.
    """
    if _is_frame(source):
        return _renamed(source)
    if isinstance(source, Raw):
        return source
    if isinstance(source, (str, os.PathLike)):
        return _resolve_path(source, kind)
    if hasattr(source, "read"):
        data = source.read()  # type: ignore[attr-defined]
        if isinstance(data, str):
            data = data.encode()
        return Raw(data, str(getattr(source, "name", f"{kind} stream")))
    if isinstance(source, Mapping):
        return _from_dict(source, kind)
    if isinstance(source, Iterable) and not isinstance(source, (bytes, str)):
        return _from_rows(source, kind)
    raise ValueError(
        f"{kind} must be a file path, '-', a DataFrame, a dict {{qid: {{docno: value}}}} or "
        f"ir_measures namedtuples, got {type(source).__name__}"
    )


def _last_tag(data: bytes) -> str:
    """The sixth field of the last data line (trec_eval's ``runid``)."""
    end = len(data)
    while end > 0:
        start = data.rfind(b"\n", 0, end - 1) + 1
        fields = data[start:end].split()
        if fields and not fields[0].startswith(b"#") and len(fields) >= 6:
            return fields[5].decode("utf-8", "replace")
        end = start
    return ""


def run_tag(source: object) -> str:
    """The run's tag as trec_eval prints it (``runid``): the sixth field of the
    run's last data line; empty for a DataFrame or an empty file."""
    if isinstance(source, Raw):
        return _last_tag(source.data)
    if not isinstance(source, (str, os.PathLike)) or not Path(source).is_file():
        return ""
    path = Path(source)
    decoded = _decoded(path)
    if isinstance(decoded, Raw):
        return _last_tag(decoded.data)
    if decoded is not None:
        return ""
    size, chunk = path.stat().st_size, 1 << 16
    with open(path, "rb") as fh:
        while True:
            fh.seek(max(size - chunk, 0))
            tail = fh.read()
            tag = _last_tag(tail if chunk >= size else tail[tail.find(b"\n") + 1 :])
            if tag or chunk >= size:
                return tag
            chunk *= 4
