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

Files are read by a compiled tokenizer (:mod:`dcglab.evaluation.batch.tokens`), in two
parts on two threads when large; a malformed line raises ``ValueError`` naming
the file, the line number and what is wrong with it. A number field is read as
C's ``strtod`` reads it (the value trec_eval's ``atof`` gives), and must be a
whole decimal number (``[+-]digits[.digits][e[+-]digits]``) or ``inf``,
``infinity`` or ``nan`` in any case. A (qid, docno) pair given twice is an error
too; the evaluator
(:func:`dcglab.evaluation.batch.preparation.prepare`) detects it through hashes of the pairs,
confirmed on the strings.
"""

from __future__ import annotations

import mmap
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Union

import numpy as np

from dcglab.evaluation.batch.inputs import Raw, resolve
from dcglab.evaluation.batch.matching import first_repeat
from dcglab.evaluation.batch.tokens import Bad, Strings, first_codes, lines_before, read_text

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "BOM",
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
]

QRELS_COLUMNS = ("qid", "iter", "docno", "grade")
RUN_COLUMNS = ("qid", "Q0", "docno", "rank", "score", "tag")
BOM = b"\xef\xbb\xbf"
VALUE_COLUMNS = {"qrels": "grade", "run": "score"}
"""The numeric column of each kind of table."""
Source = Union[str, os.PathLike, "pd.DataFrame", Any]
NUMBER = re.compile(
    rb"[+-]?(?:(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|(?i:inf|infinity|nan))"
)
"""A number field as the tokenizer reads it (``_trec.c``, ``parse_number``)."""


@dataclass(frozen=True)
class Table:
    """A qrels or run as aligned columns.

    ``qid_code`` codes each row's query id into ``qids`` (the distinct ids, in
    order of first appearance); ``docno`` holds the document ids
    (:class:`~dcglab.evaluation.batch.tokens.Strings`); ``value`` is the grade or the
    score as a float64 array; ``origin`` names the source in messages.
    """

    qid_code: np.ndarray
    qids: list[str]
    docno: Strings
    value: np.ndarray
    origin: str

    def __len__(self) -> int:
        return len(self.value)

    def qid(self, row: int) -> str:
        """The query id of row ``row``."""
        return self.qids[int(self.qid_code[row])]

    def qid_column(self) -> np.ndarray:
        """Every row's query id, as an object array of ``str``."""
        return np.array(self.qids, dtype=object)[self.qid_code]

    @classmethod
    def of(cls, qid: list[str], docno: list[str], value: np.ndarray, origin: str) -> Table:
        """A table of string columns (each value a ``str``).

        Examples
        --------
        >>> t = Table.of(["b", "a", "b"], ["d1", "d2", "d3"], np.zeros(3), "x")
        >>> t.qids, t.qid_code.tolist(), t.qid(2)
        (['b', 'a'], [0, 1, 0], 'b')
        """
        code, qids = first_codes(Strings.of(qid))
        return cls(code, qids, Strings.of(docno), value, origin)


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
    columns, numeric = (QRELS_COLUMNS, "grade") if kind == "qrels" else (RUN_COLUMNS, "score")
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
    if NUMBER.fullmatch(value) is None:
        return f"{numeric} {_quoted(value.decode())} is not a number: {shown}"
    if not usable(float(value), kind):
        what = "NaN" if kind == "run" else "not finite"
        return f"{numeric} {_quoted(value.decode())} is {what}: {shown}"
    return None


def _read_text(text: bytes | mmap.mmap, kind: str, origin: str) -> Table:
    """A file's bytes (or its mapping) as a Table; ``ValueError`` naming the first
    malformed line."""
    start = len(BOM) if text[: len(BOM)] == BOM else 0
    tokens = read_text(text, kind, start)
    if isinstance(tokens, Bad):
        lineno = lines_before(text, tokens.offset) + 1
        end = text.find(b"\n", tokens.offset)
        line = bytes(text[tokens.offset : len(text) if end < 0 else end])
        problem = _problem(line, kind) or f"could not be read as a {kind} line: {_quoted(line)}"
        raise ValueError(f"{origin}:{lineno}: {problem}")
    if len(tokens.value) == 0:
        raise ValueError(f"{origin}: the {kind} file has no data line")
    t = Table(tokens.qid_code, tokens.qids, tokens.docno, tokens.value, origin)
    bad = np.flatnonzero(~usable(t.value, kind))
    if len(bad):
        row = int(bad[0])
        raise ValueError(f"{locate(origin, row, text)}: {_problem(_line(text, row), kind)}")
    return t


def _line(text: bytes | mmap.mmap, row: int) -> bytes:
    """The ``row``-th data line (0-based) of a text. Slow: only for error messages."""
    n = -1
    for line in bytes(text).split(b"\n"):
        fields = line.split()
        if fields and not fields[0].startswith(b"#"):
            n += 1
            if n == row:
                return line
    return b""


def _read_file(path: Path | bytes, kind: str, origin: str = "") -> Table:
    """A plain file (memory-mapped) or its bytes (``origin`` names them) as a Table."""
    if isinstance(path, bytes):
        return _read_text(path, kind, origin)
    if not path.is_file():
        raise ValueError(f"{kind} file not found: {path}")
    with open(path, "rb") as fh:
        if os.fstat(fh.fileno()).st_size == 0:
            return _read_text(b"", kind, origin or str(path))
        # the mapping lives as long as the docnos that point into it
        text = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
    return _read_text(text, kind, origin or str(path))


def _id_column(frame: Any, name: str, origin: str) -> Any:
    """An id column as strings, every value checked (str, or all integers): a
    polars Series of strings, or an object array or list of ``str``."""
    if not is_pandas_frame(frame):  # a polars DataFrame
        col = frame.get_column(name)
        if col.null_count():
            row = int(col.is_null().arg_max())
            raise ValueError(f"{origin}: {name} of row {row} is missing (null)")
        if col.dtype.is_integer():
            return col.cast(str)
        if str(col.dtype) == "String":
            return col
        raise ValueError(f"{origin}: {name} must hold strings or integers, got dtype {col.dtype}")
    import pandas as pd

    col = frame[name]
    arrow = _arrow_strings(col)
    if arrow is not None:
        return arrow
    values = col.to_numpy(dtype=object)
    kind = pd.api.types.infer_dtype(values, skipna=False)
    if kind == "string":
        return values
    if kind == "integer":
        return [str(v) for v in values]
    for label, v in zip(col.index, values):
        if not isinstance(v, str):
            raise ValueError(
                f"{origin}: {name} of row {label!r} is {v!r} ({type(v).__name__}); "
                "ids must all be strings (or all integers)"
            )
    raise ValueError(f"{origin}: {name} holds values that are not strings")


def _arrow_strings(col: Any) -> Any:
    """A pandas column held by Arrow as strings without a missing value: its Arrow
    array, in one piece; otherwise ``None``."""
    pa = sys.modules.get("pyarrow")
    if pa is None or not hasattr(col.array, "__arrow_array__"):
        return None
    array = pa.array(col.array)
    if isinstance(array, pa.ChunkedArray):
        array = array.combine_chunks()
    string = pa.types.is_string(array.type) or pa.types.is_large_string(array.type)
    return array if string and array.null_count == 0 else None


def _strings(ids: Any) -> Strings:
    """Strings (:class:`~dcglab.evaluation.batch.tokens.Strings`) of an Arrow string
    array (its own buffers), a polars Series of strings (in one piece, as polars
    joins them), or ``str`` values."""
    if isinstance(ids, (list, np.ndarray)):
        return Strings.of(ids.tolist() if isinstance(ids, np.ndarray) else ids)
    if not hasattr(ids, "buffers"):  # polars: its Arrow array, when pyarrow is there
        try:
            arrow = ids.to_arrow()
        except ImportError:
            arrow = None
        if arrow is not None and str(arrow.type) in ("string", "large_string"):
            ids = arrow
    if hasattr(ids, "buffers"):  # Arrow: offsets into one data buffer
        _, offsets, data = ids.buffers()
        wide = str(ids.type) == "large_string"
        ends = np.frombuffer(offsets, np.int64 if wide else np.int32)
        ends = ends[ids.offset : ids.offset + len(ids) + 1].astype(np.int64)
        return Strings(b"" if data is None else data, ends[:-1], np.diff(ends).astype(np.int32))
    text = ids.str.join("").item().encode("utf-8")
    return Strings.joined(text, ids.str.len_bytes().to_numpy())


def is_pandas_frame(source: object) -> bool:
    """Whether ``source`` is a pandas DataFrame, without importing pandas (if it
    was never imported, nothing can be one)."""
    pd = sys.modules.get("pandas")
    return pd is not None and isinstance(source, pd.DataFrame)


def _numbers(frame: Any, name: str, origin: str) -> np.ndarray:
    pandas = is_pandas_frame(frame)
    col = frame[name] if pandas else frame.get_column(name)
    index = col.index if pandas else range(len(col))
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


def _read_frame(frame: Any, kind: str) -> Table:
    """A pandas or polars DataFrame (with dcglab's column names) as a Table."""
    origin = f"{kind} DataFrame"
    numeric = "grade" if kind == "qrels" else "score"
    if kind == "qrels" and numeric not in frame.columns and "relevance" in frame.columns:
        mapping = {"relevance": "grade"}
        pandas = is_pandas_frame(frame)
        frame = frame.rename(columns=mapping) if pandas else frame.rename(mapping)
    missing = [c for c in ("qid", "docno", numeric) if c not in frame.columns]
    if missing:
        raise ValueError(f"{origin} needs columns qid, docno, {numeric}; missing {missing}")
    if len(frame) == 0:
        raise ValueError(f"{origin} is empty: it needs at least one row")
    codes, qids = first_codes(_strings(_id_column(frame, "qid", origin)))
    docno = _strings(_id_column(frame, "docno", origin))
    return Table(codes, qids, docno, _numbers(frame, numeric, origin), origin)


def read_table(source: Source, kind: str) -> Table:
    """A qrels (``kind="qrels"``) or run (``kind="run"``) as a :class:`Table`: a file,
    ``-``, a pipe, a compressed or Parquet file, a DataFrame, a dict or namedtuples
    (:mod:`dcglab.evaluation.batch.inputs`)."""
    source = resolve(source, kind)
    if isinstance(source, Raw):
        return _read_file(source.data, kind, source.origin)
    if isinstance(source, Path):
        return _read_file(source, kind)
    if isinstance(source, Table):
        return source
    return _read_frame(source, kind)


def qrels_table(source: Source) -> Table:
    """:func:`read_qrels` as a :class:`Table` (``value`` is the grade)."""
    return read_table(source, "qrels")


def run_table(source: Source) -> Table:
    """:func:`read_run` as a :class:`Table` (``value`` is the score)."""
    return read_table(source, "run")


def _frame(t: Table, value: str) -> pd.DataFrame:
    import pandas as pd

    return pd.DataFrame(
        {"qid": t.qid_column(), "docno": t.docno.to_list(), value: t.value},
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


def raise_on_repeat(
    t: Table, query: np.ndarray, docno: Strings, rows: np.ndarray | None, what: str
) -> None:
    """Raise on the first (qid, docno) pair that ``t`` lists twice, naming its
    second line. ``query`` (integer codes) and ``docno`` hold some of the rows
    of ``t``: ``rows`` are their row numbers, ``None`` for all rows."""
    row = first_repeat(query, docno)
    if row is not None:
        line = row if rows is None else int(rows[row])
        pair = f"({t.qid(line)}, {t.docno[line]})"
        raise ValueError(f"{locate(t.origin, line)}: {what} lists {pair} more than once")


def locate(origin: str, row: int, text: bytes | mmap.mmap | None = None) -> str:
    """``FILE:LINE`` of the ``row``-th data line (0-based) of a file (or of
    ``text``, its bytes), or ``ORIGIN, row N`` for a DataFrame. Slow: only for
    error messages."""
    if text is None:
        path = Path(origin)
        if not path.is_file():
            return f"{origin}, row {row}"
        text = path.read_bytes()
    n = -1
    for lineno, line in enumerate(bytes(text).split(b"\n"), start=1):
        if lineno == 1 and line.startswith(BOM):
            line = line[len(BOM) :]
        fields = line.split()
        if fields and not fields[0].startswith(b"#"):
            n += 1
            if n == row:
                return f"{origin}:{lineno}"
    return origin
