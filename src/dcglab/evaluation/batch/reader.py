"""Reading TREC qrels and runs, from files or DataFrames.

- qrels: ``qid iter docno grade`` (the ``iter`` column is ignored), exactly four
  fields a line;
- run: ``qid Q0 docno rank score tag`` (``Q0``, ``rank`` and ``tag`` are ignored:
  the order comes from the score, as in trec_eval); at least six fields a line,
  fields after the sixth are ignored (trec_eval reads the first six).

Fields are separated by any ASCII whitespace (C's ``isspace``: space, tab, CR,
vertical tab, form feed). Lines whose first field starts with ``#`` are comments
and blank lines are skipped, as in trec_eval 10; a UTF-8 byte-order mark at the
start of a file is ignored.

Files are read by polars (:mod:`dcglab.evaluation.batch.text`). The fast path is a file
whose fields are separated by single spaces (or single tabs) with no other
whitespace (for a run, no empty field either: it is read without ``Q0`` and
``rank``); anything else goes through a general path that splits each line on
runs of whitespace. Both yield the same table, and a malformed line raises
``ValueError`` naming the file, the line number and what is wrong with it. A
(qid, docno) pair given twice is an error too; the evaluator
(:func:`dcglab.evaluation.batch.preparation.prepare`) detects it through hashes of the pairs,
confirmed on the strings.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Union

import numpy as np
import polars as pl

from dcglab.evaluation.batch.codes import first_repeat
from dcglab.evaluation.batch.inputs import Raw, resolve
from dcglab.evaluation.batch.text import (
    BOM,
    QRELS_COLUMNS,
    RUN_COLUMNS,
    SCAN_CHUNK,
    _fast_read,
    _general,
    _spec,
    fast_layout,
    has_comment,
)

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "QRELS_COLUMNS",
    "RUN_COLUMNS",
    "Source",
    "Table",
    "read_qrels",
    "read_run",
    "qrels_table",
    "run_table",
    "locate",
    "raise_on_repeat",
    "read_table",
    "VALUE_COLUMNS",
    "SCAN_CHUNK",
    "fast_layout",
    "has_comment",
]

VALUE_COLUMNS = {"qrels": "grade", "run": "score"}
"""The numeric column of each kind of table."""
Source = Union[str, os.PathLike, "pd.DataFrame", pl.DataFrame]


@dataclass(frozen=True)
class Table:
    """A qrels or run as three aligned columns.

    ``qid`` and ``docno`` are polars string Series; ``value`` is the grade or
    the score as a float64 array; ``origin`` names the source in messages.
    """

    qid: pl.Series
    docno: pl.Series
    value: np.ndarray
    origin: str

    def __len__(self) -> int:
        return len(self.value)


def usable(values: np.ndarray | float, kind: str) -> np.ndarray:
    """Which values a table may hold: finite grades; a run's scores may also be
    ``-inf`` or ``inf`` (trec_eval reads them with ``atof`` and ranks them last or
    first, as rerankers expect), never NaN (which has no rank)."""
    values = np.asarray(values, dtype=float)
    return ~np.isnan(values) if kind == "run" else np.isfinite(values)


SHOWN = 60
"""The most characters (or bytes) of a line that an error message quotes."""


def _quoted(line: str | bytes) -> str:
    """``line`` as an error message quotes it: its repr, cut after :data:`SHOWN`
    characters (a binary file's "line" may be megabytes long)."""
    return repr(line) if len(line) <= SHOWN else f"{line[:SHOWN]!r}..."


def _problem(line: bytes, kind: str) -> str | None:
    """What is wrong with one line of a qrels or run file; ``None`` for a good data
    line, a comment or a blank line."""
    columns, numeric = _spec(kind)
    nul = line.find(b"\x00")
    if nul >= 0:
        return f"a NUL byte at column {nul + 1}: binary data, not TREC text"
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as exc:
        at = exc.start
        return f"byte 0x{line[at]:02x} at column {at + 1} is not UTF-8: {_quoted(line)}"
    fields = line.split()
    if not fields or fields[0].startswith(b"#"):
        return None
    shown = _quoted(text.strip())
    if kind == "qrels" and len(fields) != 4:
        return f"a qrels line has 4 fields (qid iter docno grade), got {len(fields)}: {shown}"
    if kind == "run" and len(fields) < 6:
        return f"a run line has 6 fields (qid Q0 docno rank score tag), got {len(fields)}: {shown}"
    value = fields[columns.index(numeric)]
    try:
        number = float(value)
    except ValueError:
        return f"{numeric} {_quoted(value.decode())} is not a number: {shown}"
    if not usable(number, kind):
        what = "NaN" if kind == "run" else "not finite"
        return f"{numeric} {_quoted(value.decode())} is {what}: {shown}"
    return None


def first_bad_line(raw: bytes, origin: str, kind: str) -> str:
    """Describe the first malformed line: ``FILE:LINE: what is wrong (the line)``.

    Slow (a Python loop), so it only runs after the fast readers failed.
    """
    if raw.startswith(BOM):
        raw = raw[len(BOM) :]
    n_lines = 0
    for lineno, line in enumerate(raw.split(b"\n"), start=1):
        problem = _problem(line, kind)
        if problem is not None:
            return f"{origin}:{lineno}: {problem}"
        fields = line.split()
        n_lines += bool(fields) and not fields[0].startswith(b"#")
    if n_lines == 0:
        return f"{origin}: the {kind} file has no data line"
    return f"{origin}: could not be read as a {kind} file"


def _read_file(path: Path | bytes, kind: str, origin: str = "") -> Table:
    """A plain file (memory-mapped) or its bytes (``origin`` names them) as a Table."""
    if isinstance(path, Path) and not path.is_file():
        raise ValueError(f"{kind} file not found: {path}")
    origin = origin or str(path)

    def content() -> bytes:
        return path if isinstance(path, bytes) else path.read_bytes()

    df = _fast_read(path, kind)
    raw = None
    if df is None:  # the general path: runs of any whitespace, comments, extra fields
        raw = content()
        df = _general(raw[len(BOM) :] if raw.startswith(BOM) else raw, kind)
    if df is None or len(df) == 0:
        raise ValueError(first_bad_line(raw if raw is not None else content(), origin, kind))
    values = df.get_column(df.columns[2]).to_numpy()
    if not usable(values, kind).all():
        raise ValueError(first_bad_line(content(), origin, kind))
    return Table(df.get_column("qid"), df.get_column("docno"), values, origin)


def is_pandas_frame(source: object) -> bool:
    """Whether ``source`` is a pandas DataFrame, without importing pandas (if it
    was never imported, nothing can be one)."""
    pd = sys.modules.get("pandas")
    return pd is not None and isinstance(source, pd.DataFrame)


def _id_column(frame: pd.DataFrame | pl.DataFrame, name: str, origin: str) -> pl.Series:
    """An id column as strings; every value checked (str, or all integers)."""
    if isinstance(frame, pl.DataFrame):
        col = frame.get_column(name)
        if col.null_count():
            row = int(col.is_null().arg_max())
            raise ValueError(f"{origin}: {name} of row {row} is missing (null)")
        if col.dtype == pl.String:
            return col
        if col.dtype.is_integer():
            return col.cast(pl.String)
        raise ValueError(f"{origin}: {name} must hold strings or integers, got dtype {col.dtype}")
    import pandas as pd

    col = frame[name]
    values = col.to_numpy(dtype=object)
    kind = pd.api.types.infer_dtype(values, skipna=False)
    if kind == "string":
        return pl.Series(name, values, dtype=pl.String)
    if kind == "integer":
        return pl.Series(name, [str(v) for v in values], dtype=pl.String)
    for label, v in zip(col.index, values):
        if not isinstance(v, str):
            raise ValueError(
                f"{origin}: {name} of row {label!r} is {v!r} ({type(v).__name__}); "
                "ids must all be strings (or all integers)"
            )
    raise ValueError(f"{origin}: {name} holds values that are not strings")


def _numbers(frame: pd.DataFrame | pl.DataFrame, name: str, origin: str) -> np.ndarray:
    col = frame.get_column(name) if isinstance(frame, pl.DataFrame) else frame[name]
    index = range(len(col)) if isinstance(frame, pl.DataFrame) else col.index
    try:
        values = np.asarray(col.to_numpy(), dtype=float)
    except (TypeError, ValueError):
        values = None
    kind = "run" if name == "score" else "qrels"
    if values is None or not usable(values, kind).all():
        for label, v in zip(index, col.to_list()):
            try:
                ok = isinstance(v, (int, float, np.number)) and not isinstance(v, bool)
                ok = ok and bool(usable(float(v), kind))
            except (TypeError, ValueError):
                ok = False
            if not ok:
                what = "a number (or -inf, inf)" if kind == "run" else "a finite number"
                raise ValueError(f"{origin}: {name} of row {label!r} is {v!r}, not {what}")
    return values  # type: ignore[return-value]


def _read_frame(frame: pd.DataFrame | pl.DataFrame, kind: str) -> Table:
    origin = f"{kind} DataFrame"
    numeric = "grade" if kind == "qrels" else "score"
    if kind == "qrels" and numeric not in frame.columns and "relevance" in frame.columns:
        mapping = {"relevance": "grade"}
        pandas = not isinstance(frame, pl.DataFrame)
        frame = frame.rename(columns=mapping) if pandas else frame.rename(mapping)
    missing = [c for c in ("qid", "docno", numeric) if c not in frame.columns]
    if missing:
        raise ValueError(f"{origin} needs columns qid, docno, {numeric}; missing {missing}")
    if len(frame) == 0:
        raise ValueError(f"{origin} is empty: it needs at least one row")
    return Table(
        _id_column(frame, "qid", origin),
        _id_column(frame, "docno", origin),
        _numbers(frame, numeric, origin),
        origin,
    )


def read_table(source: Source, kind: str) -> Table:
    """A qrels (``kind="qrels"``) or run (``kind="run"``) as a :class:`Table`: a file,
    ``-``, a pipe, a compressed or Parquet file, a DataFrame, a dict or namedtuples
    (:mod:`dcglab.evaluation.batch.inputs`)."""
    source = resolve(source, kind)
    if isinstance(source, Raw):
        return _read_file(source.data, kind, source.origin)
    if isinstance(source, Path):
        return _read_file(source, kind)
    return _read_frame(source, kind)  # type: ignore[arg-type]


def qrels_table(source: Source) -> Table:
    """:func:`read_qrels` as a :class:`Table` (``value`` is the grade)."""
    return read_table(source, "qrels")


def run_table(source: Source) -> Table:
    """:func:`read_run` as a :class:`Table` (``value`` is the score)."""
    return read_table(source, "run")


def _frame(t: Table, value: str) -> pd.DataFrame:
    import pandas as pd

    return pd.DataFrame(
        {"qid": t.qid.to_list(), "docno": t.docno.to_list(), value: t.value},
    )


def read_qrels(source: Source) -> pd.DataFrame:
    """Read qrels into a DataFrame with columns ``qid``, ``docno``, ``grade``.

    Parameters
    ----------
    source : path or DataFrame
        A TREC qrels file (``qid iter docno grade``) or a DataFrame with columns
        ``qid``, ``docno`` and ``grade`` (``relevance`` is accepted too).

    Raises
    ------
    ValueError
        On a malformed line (with file and line number) or a bad id or grade.
    """
    return _frame(qrels_table(source), "grade")


def read_run(source: Source) -> pd.DataFrame:
    """Read a run into a DataFrame with columns ``qid``, ``docno``, ``score``.

    Parameters
    ----------
    source : path or DataFrame
        A TREC run file (``qid Q0 docno rank score tag``) or a DataFrame with
        columns ``qid``, ``docno`` and ``score``.

    Raises
    ------
    ValueError
        On a malformed line (with file and line number) or a bad id or score.
    """
    return _frame(run_table(source), "score")


def raise_on_repeat(t: Table, query: np.ndarray, docno: pl.Series, rows, what: str) -> None:
    """Raise on the first (qid, docno) pair that ``t`` lists twice, naming its
    second line. ``query`` (integer codes) and ``docno`` hold some of the rows
    of ``t``: ``rows`` are their row numbers, ``None`` for all rows."""
    row = first_repeat(query, docno)
    if row is not None:
        line = row if rows is None else int(rows[row])
        pair = f"({t.qid[line]}, {t.docno[line]})"
        raise ValueError(f"{locate(t.origin, line)}: {what} lists {pair} more than once")


def locate(origin: str, row: int) -> str:
    """``FILE:LINE`` of the ``row``-th data line (0-based) of a file, or
    ``ORIGIN, row N`` for a DataFrame. Slow: only for error messages."""
    path = Path(origin)
    if not path.is_file():
        return f"{origin}, row {row}"
    n = -1
    with open(path, "rb") as fh:
        for lineno, line in enumerate(fh, start=1):
            if lineno == 1 and line.startswith(BOM):
                line = line[len(BOM) :]
            fields = line.split()
            if fields and not fields[0].startswith(b"#"):
                n += 1
                if n == row:
                    return f"{origin}:{lineno}"
    return origin
