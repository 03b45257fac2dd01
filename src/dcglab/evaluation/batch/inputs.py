"""Every input a pipeline produces, as something :mod:`dcglab.evaluation.batch.reader` reads.

- a path to a plain file: returned as it is (the fast, memory-mapped path);
- ``-`` (standard input), a pipe or FIFO (``<(zcat run.gz)``) or a file object:
  read into memory as :class:`Raw` bytes;
- gzip, bzip2 or xz data, in a file or a stream (recognised by its first bytes,
  whatever the file's name): decompressed into :class:`Raw` bytes;
- Parquet, in a file or a stream: a DataFrame (polars' reader when polars is
  installed, else pandas');
- other binary formats (zip, zstd, lz4, UTF-16, PDF, ...; :data:`UNREADABLE`):
  refused with a one-line error saying what the input looks like;
- in Python, pytrec_eval's dicts (``{qid: {docno: grade}}``), ir_measures'
  iterables of ``Qrel`` / ``ScoredDoc`` namedtuples, and DataFrames with
  ir_datasets' column names (``query_id``, ``doc_id``, ``relevance``): a
  DataFrame with dcglab's columns ``qid``, ``docno`` and ``grade`` or ``score``.

A DataFrame is recognised without importing pandas or polars: if neither was
imported, nothing can be one.
"""

from __future__ import annotations

import importlib
import io
import os
import stat
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["COLUMN_ALIASES", "Raw", "buffered", "is_frame", "resolve", "run_tag"]

MAGIC = {b"\x1f\x8b": ("gzip", "gzip"), b"BZh": ("bzip2", "bz2"), b"\xfd7zXZ\x00": ("xz", "lzma")}
"""The compressions read, by their first bytes: their name and the standard module that
decompresses them (imported when needed: most inputs are plain text)."""
PARQUET = b"PAR1"
UNREADABLE = {
    b"PK\x03\x04": "a zip archive (unzip -p FILE | dcglab ... -)",
    b"\x28\xb5\x2f\xfd": "zstd data (zstd -dc FILE | dcglab ... -)",
    b"\x04\x22\x4d\x18": "lz4 data (lz4 -dc FILE | dcglab ... -)",
    b"\xff\xfe": "UTF-16 text (iconv -f UTF-16 -t UTF-8 FILE | dcglab ... -)",
    b"\xfe\xff": "UTF-16 text (iconv -f UTF-16 -t UTF-8 FILE | dcglab ... -)",
    b"%PDF": "a PDF document",
    b"\x7fELF": "an executable (ELF)",
    b"SQLite format 3\x00": "an SQLite database",
}
"""Formats that are no TREC text, by their first bytes: what each looks like and,
where a tool turns it into text, how."""
COLUMN_ALIASES = {"query_id": "qid", "doc_id": "docno", "relevance": "grade"}
"""ir_datasets' and ir_measures' column names, and dcglab's for them."""


@dataclass(frozen=True)
class Raw:
    """A qrels or run file's bytes, already read (standard input, a pipe, a
    decompressed file); ``origin`` names it in messages."""

    data: bytes
    origin: str


def is_frame(source: object) -> bool:
    """Whether ``source`` is a pandas or polars DataFrame (without importing either)."""
    pd, pl = sys.modules.get("pandas"), sys.modules.get("polars")
    return (pd is not None and isinstance(source, pd.DataFrame)) or (
        pl is not None and isinstance(source, pl.DataFrame)
    )


def _is_polars(frame: object) -> bool:
    pl = sys.modules.get("polars")
    return pl is not None and isinstance(frame, pl.DataFrame)


def _renamed(frame):
    """A DataFrame with ir_datasets' column names renamed to dcglab's (when
    dcglab's own name is not there already)."""
    mapping = {a: b for a, b in COLUMN_ALIASES.items() if a in frame.columns}
    mapping = {a: b for a, b in mapping.items() if b not in frame.columns}
    if not mapping:
        return frame
    if _is_polars(frame):
        return frame.rename(mapping)
    return frame.rename(columns=mapping)


def _from_dict(source: Mapping, kind: str) -> Any:
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


def _from_rows(source: Iterable, kind: str) -> Any:
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


def _frame(qids: list, docnos: list, values: list, value: str, origin: str) -> Any:
    """Python lists as a pandas DataFrame of objects, checked later as any
    DataFrame is (:func:`dcglab.evaluation.batch.reader.read_table`)."""
    if not qids:
        raise ValueError(f"{origin} is empty: it needs at least one entry")
    import pandas as pd

    return pd.DataFrame(
        {
            c: pd.Series(v, dtype=object)
            for c, v in (("qid", qids), ("docno", docnos), (value, values))
        }
    )


def _refuse_unreadable(head: bytes, origin: str) -> None:
    """Raise a short error for input whose first bytes show a format dcglab does
    not read (:data:`UNREADABLE`)."""
    for magic, what in UNREADABLE.items():
        if head.startswith(magic):
            raise ValueError(f"{origin}: looks like {what}, not a TREC text file")


def _decompressed(data: bytes | Path, head: bytes, origin: str) -> Raw | None:
    """A compressed file's or stream's text (``data``: its bytes or path), by its
    first bytes ``head``; ``None`` when it is not compressed."""
    for magic, (name, module_name) in MAGIC.items():
        if head.startswith(magic):
            module = importlib.import_module(module_name)
            compressed = data if isinstance(data, bytes) else data.read_bytes()
            errors = (OSError, EOFError, ValueError, getattr(module, "LZMAError", OSError))
            try:
                return Raw(module.decompress(compressed), origin)
            except errors as exc:
                message = f"looks like {name} but cannot be decompressed: {exc}"
                raise ValueError(f"{origin}: {message}") from None
    return None


def _parquet(data: bytes | Path, origin: str) -> Any:
    """A Parquet file as a DataFrame: polars' when polars is installed, else pandas'."""
    source = io.BytesIO(data) if isinstance(data, bytes) else data
    try:
        import polars as pl
    except ImportError:
        import pandas as pd

        try:
            return pd.read_parquet(source)
        except (OSError, ImportError, ValueError) as exc:
            raise ValueError(f"{origin}: looks like Parquet but cannot be read: {exc}") from None
    try:
        return pl.read_parquet(source)
    except (OSError, pl.exceptions.PolarsError) as exc:
        raise ValueError(f"{origin}: looks like Parquet but cannot be read: {exc}") from None


def _decoded(source: Path | bytes, origin: str) -> Any:
    """A compressed file's (or stream's) text or a Parquet table, by their first
    bytes; an error for another known binary format; ``None`` for plain text."""
    if isinstance(source, bytes):
        head = source[:16]
    else:
        with open(source, "rb") as fh:
            head = fh.read(16)
    raw = _decompressed(source, head, origin)
    if raw is not None:
        return raw
    if head.startswith(PARQUET):
        return _parquet(source, origin)
    _refuse_unreadable(head, origin)
    return None


def _stream(data: bytes, origin: str) -> Any:
    """Bytes read from standard input, a pipe or a file object, decoded as a file's
    would be (compressed, Parquet, or text)."""
    decoded = _decoded(data, origin)
    return Raw(data, origin) if decoded is None else decoded


def buffered(source: object, kind: str = "input") -> object:
    """``source``, with standard input (``-``) and pipes read into memory once (and
    decompressed, by their first bytes), so that they can be looked at more than
    once (the command line reads the run's tag too). Other sources are returned
    as they are; ``kind`` names the argument in errors."""
    if isinstance(source, (str, os.PathLike)):
        if str(source) == "-":
            return _stream(sys.stdin.buffer.read(), "<stdin>")
        path = Path(source)
        try:
            mode = path.stat().st_mode
        except OSError:
            return source
        if stat.S_ISDIR(mode):
            raise ValueError(f"{kind} {os.fspath(source)} is a directory, not a file")
        if not stat.S_ISREG(mode):
            with open(path, "rb") as fh:
                return _stream(fh.read(), os.fspath(source))
    return source


def _resolve_path(source: str | os.PathLike, kind: str) -> object:
    """A path (or ``-``): standard input or a pipe as :class:`Raw` bytes, a
    compressed or Parquet file decoded, a plain file as its :class:`~pathlib.Path`."""
    buffered_source = buffered(source, kind)
    if not isinstance(buffered_source, (str, os.PathLike)):
        return _renamed(buffered_source) if is_frame(buffered_source) else buffered_source
    path = Path(buffered_source)
    if not path.is_file():
        raise ValueError(f"{kind} file not found: {os.fspath(source)}")
    decoded = _decoded(path, os.fspath(source))
    if decoded is None:
        return path
    return _renamed(decoded) if is_frame(decoded) else decoded


def resolve(source: object, kind: str) -> object:
    """What :func:`dcglab.evaluation.batch.reader.read_table` reads: a :class:`~pathlib.Path` to a
    plain file, :class:`Raw` bytes, or a DataFrame with dcglab's column names.

    Raises ``ValueError`` naming ``kind`` and the source when it is none of the
    inputs listed in the module docstring.
    """
    if is_frame(source):
        return _renamed(source)
    if isinstance(source, Raw):
        return source
    if isinstance(source, (str, os.PathLike)):
        return _resolve_path(source, kind)
    if hasattr(source, "read"):
        data = source.read()  # type: ignore[attr-defined]
        if isinstance(data, str):
            data = data.encode()
        decoded = _stream(data, str(getattr(source, "name", f"{kind} stream")))
        return _renamed(decoded) if is_frame(decoded) else decoded
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
    decoded = _decoded(path, str(path))
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
