"""Commands the book runs in their own process: trec_eval 10.0 on qrels and a run
given as dicts, DataFrames or text, and snippets of Python that would abort the
notebook's kernel.

* :func:`trec_eval_binary` finds the trec_eval 10.0 binary: ``$TREC_EVAL`` if set,
  otherwise it builds the unmodified source in ``../shared/reference/trec_eval-10.0``
  with ``make`` into a temporary folder, once per process.
* :func:`trec_eval` runs the binary and returns what it printed and its exit status;
  :func:`dcglab_cli` runs this package's command line the same way (:func:`on_files`).
* :func:`in_subprocess` runs a snippet of Python in a separate process.

Run files are written with ``repr`` scores, so that a double reaches trec_eval with
all its digits.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = [
    "Printed",
    "TrecEvalUnavailable",
    "dcglab_cli",
    "in_subprocess",
    "on_files",
    "qrels_text",
    "run_text",
    "trec_eval",
    "trec_eval_binary",
]

Qrels = Mapping[str, Mapping[str, float]]
Run = Mapping[str, Mapping[str, float]]

SOURCE = Path(__file__).resolve().parents[3].parent / "shared" / "reference" / "trec_eval-10.0"
"""The unmodified trec_eval 10.0 source that :func:`trec_eval_binary` builds."""


class TrecEvalUnavailable(RuntimeError):
    """trec_eval 10.0 can be neither found nor built on this machine."""


@dataclass(frozen=True)
class Printed:
    """What a command printed: its exit status, standard output and standard error."""

    status: int
    stdout: str
    stderr: str

    def __str__(self) -> str:
        return self.stdout + (f"[stderr] {self.stderr}" if self.stderr else "")


@functools.cache
def trec_eval_binary() -> Path:
    """The path of a trec_eval 10.0 binary, built at most once per process.

    ``$TREC_EVAL`` names a binary to use. Otherwise the source in
    ``../shared/reference/trec_eval-10.0`` is copied to a temporary folder and
    built with ``make`` (a few seconds with any C compiler).

    Raises
    ------
    TrecEvalUnavailable
        With what to do, when neither ``$TREC_EVAL`` nor the source and ``make`` work.
    """
    named = os.environ.get("TREC_EVAL")
    if named:
        path = Path(named)
        if not (path.is_file() and os.access(path, os.X_OK)):
            raise TrecEvalUnavailable(f"TREC_EVAL={named!r} is not an executable file")
        return path
    how = (
        "set TREC_EVAL to a trec_eval 10.0 binary, or put its source "
        f"(github.com/usnistgov/trec_eval, tag v10.0) in {SOURCE} and install make and a C compiler"
    )
    if not (SOURCE / "Makefile").is_file():
        raise TrecEvalUnavailable(f"no trec_eval 10.0 source at {SOURCE}: {how}")
    if shutil.which("make") is None:
        raise TrecEvalUnavailable(f"`make` is not installed: {how}")
    build = Path(tempfile.mkdtemp(prefix="dcglab-trec_eval-")) / "trec_eval-10.0"
    build.mkdir()
    for path in SOURCE.iterdir():  # contents only: the source may be read-only
        if path.is_file():
            shutil.copyfile(path, build / path.name)
    done = subprocess.run(["make", "-C", str(build)], capture_output=True, text=True, check=False)
    binary = build / "trec_eval"
    if done.returncode != 0 or not binary.is_file():
        tail = done.stderr.strip().splitlines()[-1:] or ["no output"]
        raise TrecEvalUnavailable(f"building trec_eval in {build} failed ({tail[0]}): {how}")
    return binary


def as_dicts(table: Any, value: str) -> dict[str, dict[str, Any]]:
    """``{query: {doc: value}}`` from a mapping, or from a DataFrame with columns
    ``qid``, ``docno`` and ``value`` (rows in rank order for a run)."""
    if not hasattr(table, "itertuples"):
        return {str(q): dict(docs) for q, docs in table.items()}
    out: dict[str, dict[str, Any]] = {}
    for q, d, v in zip(table["qid"], table["docno"], table[value], strict=True):
        out.setdefault(str(q), {})[str(d)] = v
    return out


def qrels_text(qrels: Qrels | Any | str) -> str:
    """TREC qrels lines ``query 0 doc grade`` from a mapping or a DataFrame
    (text passes through unchanged)."""
    if isinstance(qrels, str):
        return qrels
    table = as_dicts(qrels, "grade")
    return "".join(f"{q} 0 {d} {g}\n" for q, docs in table.items() for d, g in docs.items())


def run_text(run: Run | Any | str) -> str:
    """TREC run lines ``query Q0 doc rank score tag`` with ``repr`` scores, from a
    mapping or a DataFrame (text passes through unchanged)."""
    if isinstance(run, str):
        return run
    run = as_dicts(run, "score")
    return "".join(
        f"{q} Q0 {d} {i} {float(s)!r} book\n"
        for q, docs in run.items()
        for i, (d, s) in enumerate(docs.items(), start=1)
    )


def on_files(
    command: Sequence[str], qrels: Qrels | Any | str, run: Run | Any | str, args: Sequence[str]
) -> Printed:
    """Run ``COMMAND ARGS QRELS RUN`` on qrels and a run written to temporary files.

    The files' paths read ``QRELS`` and ``RUN`` in what the command printed on stderr.
    """
    with tempfile.TemporaryDirectory(prefix="dcglab-book-") as folder:
        q, r = Path(folder, "qrels"), Path(folder, "run")
        q.write_text(qrels_text(qrels), encoding="utf-8")
        r.write_text(run_text(run), encoding="utf-8")
        done = subprocess.run(
            [*command, *args, str(q), str(r)], capture_output=True, text=True, check=False
        )
    stderr = done.stderr.replace(str(q), "QRELS").replace(str(r), "RUN")
    return Printed(done.returncode, done.stdout, stderr)


def trec_eval(qrels: Qrels | Any | str, run: Run | Any | str, args: Sequence[str] = ()) -> Printed:
    """Run trec_eval 10.0 as ``trec_eval ARGS QRELS RUN`` and return what it printed.

    Examples
    --------
    >>> out = trec_eval({"q1": {"a": 1}}, {"q1": {"a": 0.5}}, ["-m", "P.1"])
    >>> out.status, out.stdout.split()
    (0, ['P_1', 'all', '1.0000'])
    """
    return on_files([str(trec_eval_binary())], qrels, run, args)


def dcglab_cli(qrels: Qrels | Any | str, run: Run | Any | str, args: Sequence[str] = ()) -> Printed:
    """Run this package's command line as ``python -m dcglab ARGS QRELS RUN``, as
    :func:`trec_eval` runs trec_eval, and return what it printed.

    Examples
    --------
    >>> out = dcglab_cli({"q1": {"a": 1}}, {"q1": {"a": 0.5}}, ["-m", "P.1"])
    >>> out.status, out.stdout.split()
    (0, ['P_1', 'all', '1.0000'])
    """
    return on_files([sys.executable, "-m", "dcglab"], qrels, run, args)


def in_subprocess(code: str, timeout: float = 120) -> Printed:
    """Run ``code`` with this Python in a separate process and return what it printed.

    For a call that would abort the caller's process: the notebook's kernel
    survives and the cell shows the exit status.
    """
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout, check=False
    )
    return Printed(done.returncode, done.stdout, done.stderr)
