"""TREC text into polars frames: the fast path and the general path of the reader
(:mod:`dcglab.evaluation.batch.reader`).

The fast path reads a file whose fields are separated by single spaces (or single
tabs) with no other whitespace with one polars call, while a scan of the file's bytes
(:func:`fast_layout`) confirms that layout. Any other text goes through the general
path, which splits each line on runs of whitespace, drops comments and blank lines and
cuts extra run fields, then parses the result as the fast path does. Both give a frame
of ``qid``, ``docno`` and the numeric column, or ``None`` when a line is malformed
(:func:`dcglab.evaluation.batch.reader.first_bad_line` then says which).
"""

from __future__ import annotations

import importlib
import mmap
import os
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import polars as pl

QRELS_COLUMNS = ("qid", "iter", "docno", "grade")


RUN_COLUMNS = ("qid", "Q0", "docno", "rank", "score", "tag")


BOM = b"\xef\xbb\xbf"


OTHER_SPACE = (b"\r", b"\x0b", b"\x0c")


NOT_FAST = (*OTHER_SPACE, b"\x00")
"""Bytes that send a file to the general path: other whitespace, and NUL, which no
text file holds (the general path refuses it, naming its line)."""


SEPARATORS = b"\t "


def _spec(kind: str) -> tuple[tuple[str, ...], str]:
    return (QRELS_COLUMNS, "grade") if kind == "qrels" else (RUN_COLUMNS, "score")


@contextmanager
def _mapped(data: Path | bytes | mmap.mmap) -> Iterator[bytes | mmap.mmap]:
    """A file's bytes, memory-mapped (``b""`` when empty), or the bytes (or
    mapping) given."""
    if not isinstance(data, Path):
        yield data
        return
    with open(data, "rb") as fh:
        if os.fstat(fh.fileno()).st_size == 0:
            yield b""
            return
        with mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as mm:
            yield mm


SCAN_CHUNK = 1 << 19
"""Bytes :func:`fast_layout` scans at a time: half a megabyte stays in a core's
cache while it is searched for each byte it must not hold, about three times as
fast as searching the whole file once for each byte."""


def fast_layout(
    data: Path | bytes | mmap.mmap, kind: str, chunk: int = SCAN_CHUNK
) -> tuple[bytes, bool] | None:
    """The fast path's reading of a file: its one separator (space or tab) and
    whether a line may be a comment; ``None`` when the file needs the general
    path.

    The general path is needed for a file that is empty, starts with a
    byte-order mark, holds CR, VT, FF or NUL, or holds both tabs and spaces; and for
    a run with an empty field (a leading, trailing or doubled separator),
    because a run is read without its ``Q0`` and ``rank`` fields
    (:func:`_polars`), where an empty field would go unseen. Other ragged lines
    leave a null field, which polars reports. The file is scanned a chunk at a
    time; for empty fields, adjacent bytes <= 32 (a separator or a newline) are
    looked for, and only such pairs are then looked at.

    A comment is a line starting with ``#``; most files hold no ``#`` at all,
    and the exact search (:func:`has_comment`) runs only when one is found.
    """
    with _mapped(data) as mm:
        n = len(mm)
        if (
            n == 0
            or mm[:3] == BOM
            or (kind == "run" and (mm[0] in SEPARATORS or mm[-1] in SEPARATORS))
        ):
            return None
        bytes_ = np.frombuffer(mm, dtype=np.uint8) if kind == "run" else None
        low = np.empty(chunk + 1, dtype=bool)
        pair = np.empty(chunk, dtype=bool)
        has_tab = has_space = comments = seen_hash = False
        try:
            for lo in range(0, n, chunk):
                hi = min(lo + chunk, n)
                if any(mm.find(c, lo, hi) >= 0 for c in NOT_FAST):
                    return None
                has_tab = has_tab or mm.find(b"\t", lo, hi) >= 0
                has_space = has_space or mm.find(b" ", lo, hi) >= 0
                if has_tab and has_space:
                    return None
                if not seen_hash and mm.find(b"#", lo, hi) >= 0:
                    seen_hash, comments = True, has_comment(mm)
                if bytes_ is not None and _empty_field(bytes_[lo : hi + 1], low, pair):
                    return None
        finally:
            bytes_ = None
    return (b"\t" if has_tab else b" "), comments


def _empty_field(part: np.ndarray, low: np.ndarray, pair: np.ndarray) -> bool:
    """Whether ``part`` holds a separator next to a separator or a newline
    (``low`` and ``pair``: scratch arrays at least as long as ``part``)."""
    n = len(part)
    np.less_equal(part, 32, out=low[:n])
    np.logical_and(low[1:n], low[: n - 1], out=pair[: n - 1])
    if not pair[: n - 1].any():  # the usual case: no two in a row
        return False
    at = np.flatnonzero(pair[: n - 1])
    ends = np.concatenate((part[at], part[at + 1]))
    return bool(((ends == ord("\t")) | (ends == ord(" "))).any())


def has_comment(path: Path | bytes | mmap.mmap) -> bool:
    """Whether a line of the file starts with ``#``."""
    with _mapped(path) as mm:
        first = mm.find(b"#")
        return first == 0 or (first > 0 and mm.find(b"\n#", first - 1) >= 0)


def _polars(
    data: Path | bytes, sep: bytes, kind: str, comments: bool = True
) -> pl.DataFrame | None:
    """Parse single-separator text; ``None`` if any line is not exactly well formed.

    A run's text has no empty field (no leading, trailing or doubled separator:
    :func:`fast_layout`, :func:`_normalise`). A qrels line's four fields are
    all read; a run is read without ``Q0`` and ``rank``, which nothing uses,
    but with its last field, ``tag``, so that a line with too few fields still
    shows as null.
    """
    columns, numeric = _spec(kind)
    schema = {c: pl.String for c in columns}
    schema[numeric] = pl.Float64
    schema = {c: schema[c] for c in columns}
    read = list(range(len(columns))) if kind == "qrels" else [0, 2, 4, 5]
    try:
        df = pl.read_csv(
            data,
            separator=sep.decode(),
            has_header=False,
            columns=read,
            schema=schema,
            quote_char=None,
            comment_prefix="#" if comments else None,
            raise_if_empty=False,
            truncate_ragged_lines=kind == "run",  # trec_eval reads a run line's first 6
        )
    except (pl.exceptions.PolarsError, ValueError, OSError):
        return None
    if df.width != len(read) or any(df.null_count().row(0)):
        return None
    return df.select("qid", "docno", numeric)


def _normalise(raw: bytes, kind: str) -> bytes:
    """Each line's first fields joined by single spaces (comments and blank lines
    dropped, extra run fields cut); the input of the general path."""
    n = 4 if kind == "qrels" else 6
    keep = n if kind == "run" else n + 1  # qrels: a fifth field must stay, to be caught
    out = []
    for line in raw.split(b"\n"):
        fields = line.split()
        if fields and not fields[0].startswith(b"#"):
            out.append(b" ".join(fields[:keep]))
    return b"\n".join(out) + b"\n"


def _general(raw: bytes, kind: str, chunk: int = 1 << 23) -> pl.DataFrame | None:
    """The general path, a few megabytes at a time (cut at line ends), so that
    the per-line Python objects of :func:`_normalise` stay few; ``None`` for text
    holding a NUL byte (binary data, or a corrupt file)."""
    if raw.find(b"\x00") >= 0:
        return None
    frames = []
    start = 0
    while start < len(raw):
        end = raw.find(b"\n", min(start + chunk, len(raw)))
        end = len(raw) if end < 0 else end + 1
        text = _normalise(raw[start:end], kind)
        start = end
        if text == b"\n":  # only comments or blank lines
            continue
        df = _polars(text, b" ", kind)
        if df is None:
            return None
        frames.append(df)
    return pl.concat(frames) if frames else None


def _first_separator(data: Path | bytes) -> bytes:
    """Tab if the first line holds one, else space: the likely single separator."""
    with _mapped(data) as mm:
        end = mm.find(b"\n")
        return b"\t" if mm.find(b"\t", 0, end if end >= 0 else len(mm)) >= 0 else b" "


def _fast_read(data: Path | bytes, kind: str) -> pl.DataFrame | None:
    """The fast path's table, or ``None`` when the file needs the general path.

    polars reads the file on the first line's separator, without looking for
    comments, while this thread scans it (:func:`fast_layout`): the scan then
    costs little wall time. A read whose assumptions the scan refutes is
    discarded and, if the file still qualifies, read again as the scan says.
    """
    with _mapped(data) as mm, ThreadPoolExecutor(1) as reader:  # one mapping for the scans
        guess = _first_separator(mm)
        pending = reader.submit(_polars, data, guess, kind, False)  # polars releases the GIL
        layout = fast_layout(mm, kind)
        # polars loads numpy.ma the first time it takes a numpy array (~20 ms):
        # done here, while this thread would wait for the read anyway
        importlib.import_module("numpy.ma")
        df = pending.result()
    if layout is None:
        return None
    sep, comments = layout
    return df if sep == guess and not comments else _polars(data, sep, kind, comments)
