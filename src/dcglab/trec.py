"""Reading TREC qrels and runs, from files or pandas DataFrames.

- qrels: ``qid iter docno grade`` (the ``iter`` column is ignored);
- run: ``qid Q0 docno rank score tag`` (``Q0``, ``rank`` and ``tag`` are ignored:
  the order comes from the score, as in trec_eval).

Fields are separated by any whitespace. A malformed line raises ``ValueError``
naming the file and the line number. A (qid, docno) pair given twice is an error
too; the evaluator (:func:`dcglab.batch.prepare`) detects it on integer codes,
which is much faster than on strings.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pandas as pd

QRELS_COLUMNS = ("qid", "iter", "docno", "grade")
RUN_COLUMNS = ("qid", "Q0", "docno", "rank", "score", "tag")
Source = str | os.PathLike | pd.DataFrame


def _first_bad_line(path: Path, n_fields: int, numeric: int, what: str) -> str:
    """Find and describe the first malformed line (slow path, only after a failure)."""
    with open(path, encoding="utf-8", errors="replace") as fh:
        for lineno, line in enumerate(fh, start=1):
            fields = line.split()
            if not fields:
                return f"{path}:{lineno}: empty line in {what} file"
            if len(fields) != n_fields:
                return (
                    f"{path}:{lineno}: expected {n_fields} fields ({what}), "
                    f"got {len(fields)}: {line.strip()!r}"
                )
            try:
                value = float(fields[numeric])
            except ValueError:
                return f"{path}:{lineno}: field {numeric + 1} is not a number: {line.strip()!r}"
            if not np.isfinite(value):
                return f"{path}:{lineno}: field {numeric + 1} is not finite: {line.strip()!r}"
    return f"{path}: could not be parsed as a {what} file"


def _read(path: Source, columns: tuple[str, ...], numeric: str, what: str) -> pd.DataFrame:
    if isinstance(path, pd.DataFrame):
        return path
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"{what} file not found: {path}")
    dtypes = {c: str for c in columns}
    dtypes[numeric] = "float64"
    try:
        df = pd.read_csv(
            path,
            sep=r"\s+",
            header=None,
            names=list(columns),
            dtype=dtypes,
            engine="c",
            skip_blank_lines=False,
            keep_default_na=False,
            na_filter=False,
        )
    except (pd.errors.ParserError, ValueError):
        df = None
    if df is None or df.isna().any().any() or not np.isfinite(df[numeric]).all():
        raise ValueError(_first_bad_line(path, len(columns), columns.index(numeric), what))
    if len(df) == 0:
        raise ValueError(f"{what} file is empty: {path}")
    # read_csv silently fills missing trailing fields with "" / NaN: reject those lines
    if (df[list(columns)].astype(str) == "").any().any():
        raise ValueError(_first_bad_line(path, len(columns), columns.index(numeric), what))
    return df


def _check(df: pd.DataFrame, value: str, what: str) -> dict[str, np.ndarray]:
    missing = {"qid", "docno", value} - set(df.columns)
    if missing:
        raise ValueError(f"{what} needs columns qid, docno, {value}; missing {sorted(missing)}")
    values = pd.to_numeric(df[value], errors="coerce").to_numpy(dtype=float)
    bad = ~np.isfinite(values)
    if bad.any():
        row = int(np.flatnonzero(bad)[0])
        raise ValueError(f"{what}: {value} of row {row} is not a finite number")
    return {"qid": _strings(df["qid"]), "docno": _strings(df["docno"]), value: values}


def _strings(column: pd.Series) -> np.ndarray:
    """A column as an object array of ``str`` (ids may arrive as numbers)."""
    arr = column.to_numpy(dtype=object)
    if len(arr) and not all(isinstance(x, str) for x in (arr[0], arr[-1])):
        arr = column.astype(str).to_numpy(dtype=object)
    return arr


def qrels_columns(source: Source) -> dict[str, np.ndarray]:
    """:func:`read_qrels` as plain arrays (``qid``, ``docno``: str objects; ``grade``)."""
    df = _read(source, QRELS_COLUMNS, "grade", "qrels")
    if "grade" not in df.columns and "relevance" in df.columns:
        df = df.rename(columns={"relevance": "grade"})
    return _check(df, "grade", "qrels")


def run_columns(source: Source) -> dict[str, np.ndarray]:
    """:func:`read_run` as plain arrays (``qid``, ``docno``: str objects; ``score``)."""
    return _check(_read(source, RUN_COLUMNS, "score", "run"), "score", "run")


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
        On a malformed line (with file and line number) or a duplicate pair.
    """
    return pd.DataFrame(qrels_columns(source))


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
        On a malformed line (with file and line number) or a duplicate (qid, docno).
    """
    return pd.DataFrame(run_columns(source))
