"""What an engine must offer the evaluation, and the input rules every engine shares.

An engine is an :class:`Adapter`: a few methods that make views and run SQL.
Everything else is written once, here and in :mod:`dcglab.evaluation.engines.sql`:

- TREC text files and pandas or polars DataFrames are read by
  :func:`dcglab.evaluation.batch.reader.read_table`, the default path's reader, with its rules
  (any whitespace, ``#`` comments, blank lines, extra run fields) and its
  messages (file and line, or column and row); then handed to the engine as a
  polars DataFrame (:meth:`Adapter.frame_view`);
- Parquet files and the engine's own tables (a DuckDB relation, a Spark
  DataFrame) stay in the engine, and :func:`check_rows` checks them in SQL the
  way the reader checks the others: ids present and strings or integers,
  values finite, no (qid, docno) pair twice.
"""

from __future__ import annotations

import os
import re
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import polars as pl

from dcglab.evaluation.batch.reader import VALUE_COLUMNS, raise_on_repeat, read_table
from dcglab.evaluation.engines.sql import Dialect

PARQUET_SUFFIXES = (".parquet", ".pq")
ID_TYPE = re.compile(
    r"(?i)^(varchar|string|text|u?(tiny|small|big|huge)?int(eger)?\d*|long|short)$"
)
"""SQL types an id column may have: text or an integer (as the reader allows)."""


class EngineError(ValueError):
    """An engine is missing or rejected the input (a ``ValueError``, as bad input is)."""


class Adapter(Protocol):
    """One engine: views of its inputs and SQL run next to the data."""

    dialect: Dialect

    def native_view(self, source: Any, name: str) -> bool:
        """Make the engine's own table ``source`` the view ``name``; ``False`` if
        ``source`` is not one."""

    def parquet_view(self, path: Path, name: str) -> None:
        """Make a Parquet file or folder the view ``name``, read where it is."""

    def frame_view(self, frame: pl.DataFrame, name: str) -> None:
        """Make a polars DataFrame (read in this process) the view ``name``."""

    def columns(self, name: str) -> dict[str, str]:
        """The columns of a view and their SQL types."""

    def sql(self, text: str) -> list[tuple]:
        """Run a query and return its rows; an engine error is an :class:`EngineError`."""

    def close(self) -> None:
        """Drop what the adapter created."""


def is_parquet(path: Path) -> bool:
    """Whether a path names Parquet data: a folder, or a file ending in ``.parquet``/``.pq``."""
    return path.is_dir() or path.suffix.lower() in PARQUET_SUFFIXES


@dataclass(frozen=True)
class Opened:
    """A qrels or run made a view: its name, where it came from (for messages),
    and the table if this process read it (``None``: the engine reads it)."""

    name: str
    origin: str
    frame: pl.DataFrame | None


def open_view(db: Adapter, source: Any, kind: str, qids: pl.Series | None = None) -> Opened:
    """Make ``source`` (a qrels or run) a view with columns ``qid, docno,
    grade|score`` (``relevance`` is taken for ``grade``).

    Text, DataFrames and whatever else :func:`dcglab.evaluation.batch.reader.read_table` reads are
    read and checked here, as on the default path; ``qids`` (the qrels' queries,
    for a run) limits the check for repeated pairs to the queries that are
    evaluated, as there. Parquet paths and the engine's own tables are read by
    the engine, which must then check them (:func:`check_rows`).
    """
    name = f"dcglab_{kind}_{uuid.uuid4().hex[:8]}"
    if db.native_view(source, name):
        return Opened(name, f"{kind} table", None)
    if isinstance(source, (str, os.PathLike)) and is_parquet(Path(source)):
        if not Path(source).exists():
            raise ValueError(f"{kind} file not found: {source}")
        db.parquet_view(Path(source), name)
        return Opened(name, str(source), None)
    table = read_table(source, kind)
    qid = pl.Series("qid", table.qids, dtype=pl.String).gather(table.qid_code)
    frame = pl.DataFrame(
        {"qid": qid, "docno": table.docno.to_list(), VALUE_COLUMNS[kind]: table.value},
        schema={"qid": pl.String, "docno": pl.String, VALUE_COLUMNS[kind]: pl.Float64},
    )
    if qids is None:
        raise_on_repeat(table, table.qid_code, table.docno, None, kind)
    else:
        wanted = set(qids.to_list())
        evaluated = np.array([q in wanted for q in table.qids], dtype=bool)
        rows = np.flatnonzero(evaluated[table.qid_code])
        raise_on_repeat(table, table.qid_code[rows], table.docno.take(rows), rows, kind)
    db.frame_view(frame, name)
    return Opened(name, table.origin, frame)


def projected(db: Adapter, name: str, kind: str) -> str:
    """The view as ``(SELECT qid, docno, grade|score ...)``, naming a missing or
    mistyped column."""
    value = VALUE_COLUMNS[kind]
    types = {c.lower(): t for c, t in db.columns(name).items()}
    source = value if value in types or kind == "run" or "relevance" not in types else "relevance"
    missing = [c for c in ("qid", "docno", source) if c not in types]
    if missing:
        raise EngineError(f"{kind} needs columns qid, docno, {value}; missing {missing}")
    for col in ("qid", "docno"):
        if not ID_TYPE.match(types[col].split("(")[0].strip()):
            raise EngineError(f"{kind}: {col} must hold strings or integers, got type {types[col]}")
    return f"(SELECT qid, docno, {source} AS {value} FROM {name})"


def repeat_message(kind: str, pair: str) -> str:
    """The error for a (qid, docno) pair, written ``qid, docno``, listed twice."""
    return f"{kind} lists ({pair}) more than once"


def check_rows(db: Adapter, table: str, kind: str, pairs: bool = True) -> None:
    """Reject missing ids, NaN scores, non-finite grades and repeated (qid, docno)
    pairs (the rules of :func:`dcglab.evaluation.batch.reader.read_table`), in one pass over the
    table; a second query describes an offending row, naming its column.
    ``pairs=False`` leaves the repeated pairs to the caller (Spark finds them in
    its buckets of queries, which hold every row of a pair): then the pass is a
    plain scan, without grouping."""
    value = VALUE_COLUMNS[kind]
    number = f"CAST({value} AS DOUBLE)"
    if kind == "run":  # trec_eval sorts infinite scores like any other
        bad_value = f"{value} IS NULL OR isnan({number})", "is not a number (scores may be inf)"
    else:
        bad_value = f"{value} IS NULL OR isnan({number} - {number})", "is not a finite number"
    problems = (
        ("qid", "qid IS NULL", "is missing (null)"),
        ("docno", "docno IS NULL", "is missing (null)"),
        (value, *bad_value),
    )
    flags = "".join(
        f", SUM(CASE WHEN {where} THEN 1 ELSE 0 END) AS bad{i}"
        for i, (_, where, _) in enumerate(problems)
    )
    if pairs:
        rows, dup, *bad = db.sql(
            "SELECT SUM(n), MIN(CASE WHEN n > 1 THEN CONCAT(qid, ', ', docno) END), "
            f"SUM(bad0), SUM(bad1), SUM(bad2) FROM (SELECT CAST(qid AS STRING) AS qid, "
            f"CAST(docno AS STRING) AS docno, COUNT(*) AS n{flags} "
            f"FROM {table} AS t GROUP BY CAST(qid AS STRING), CAST(docno AS STRING)) AS pairs"
        )[0]
    else:
        (rows, *bad), dup = db.sql(f"SELECT COUNT(*){flags} FROM {table} AS t")[0], None
    if not rows:
        raise EngineError(f"{kind} is empty: it needs at least one row")
    for (column, where, what), count in zip(problems, bad):
        if count:
            (example,) = db.sql(
                f"SELECT MIN(CONCAT('qid ', COALESCE(CAST(qid AS STRING), 'null'), "
                f"', docno ', COALESCE(CAST(docno AS STRING), 'null'), ', {value} ', "
                f"COALESCE(CAST({value} AS STRING), 'null'))) FROM {table} AS t WHERE {where}"
            )[0]
            raise EngineError(
                f"{kind}: {column} {what} in {count} row(s), e.g. the row ({example})"
            )
    if dup is not None:
        raise EngineError(repeat_message(kind, dup))
