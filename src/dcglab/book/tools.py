"""Run trec_eval 10.0 and the peer libraries on the book's small examples.

Every sentence of the book about what another tool does is backed by a cell that
calls one of these functions, and the tests call the same functions, so that the
book and its checks make each peer-library call in one place.

* :func:`trec_eval_binary` finds the trec_eval 10.0 binary: ``$TREC_EVAL`` if set,
  otherwise it builds the unmodified source in ``../shared/reference/trec_eval-10.0``
  with ``make`` into a temporary folder, once per process.
* :func:`trec_eval` runs the binary on qrels and a run given as dicts or text and
  returns what it printed and its exit status.
* :func:`pytrec_eval`, :func:`ir_measures`, :func:`ranx` and :func:`sklearn_ndcg`
  call the peer libraries under their own conventions.
* :func:`version` names the installed version of a peer library.
* :func:`in_subprocess` runs a snippet of Python in a separate process, for a call
  that would abort the notebook's kernel (pytrec_eval given ``ndcg.G=V``).

Inputs are ``qrels[query][doc] = grade`` and ``run[query][doc] = score``, or the
text of a TREC file; :func:`trec_eval` also takes DataFrames with columns ``qid``,
``docno`` and ``grade`` or ``score``. Run files are written with ``repr`` scores, so that a double
reaches trec_eval with all its digits.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = [
    "Printed",
    "TrecEvalUnavailable",
    "in_subprocess",
    "ir_measures",
    "pytrec_eval",
    "qrels_text",
    "ranx",
    "run_text",
    "sklearn_ndcg",
    "trec_eval",
    "trec_eval_binary",
    "version",
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


def trec_eval(qrels: Qrels | Any | str, run: Run | Any | str, args: Sequence[str] = ()) -> Printed:
    """Run trec_eval 10.0 as ``trec_eval ARGS QRELS RUN`` and return what it printed.

    Examples
    --------
    >>> out = trec_eval({"q1": {"a": 1}}, {"q1": {"a": 0.5}}, ["-m", "P.1"])
    >>> out.status, out.stdout.split()
    (0, ['P_1', 'all', '1.0000'])
    """
    binary = trec_eval_binary()
    with tempfile.TemporaryDirectory(prefix="dcglab-book-") as folder:
        q, r = Path(folder, "qrels"), Path(folder, "run")
        q.write_text(qrels_text(qrels), encoding="utf-8")
        r.write_text(run_text(run), encoding="utf-8")
        done = subprocess.run(
            [str(binary), *args, str(q), str(r)], capture_output=True, text=True, check=False
        )
    stderr = done.stderr.replace(str(q), "QRELS").replace(str(r), "RUN")
    return Printed(done.returncode, done.stdout, stderr)


def pytrec_eval(qrels: Qrels, run: Run, measures: Iterable[str]) -> dict[str, dict[str, float]]:
    """pytrec_eval (which bundles trec_eval 9.x, float32 scores): ``{query: {measure: value}}``.

    Never pass trec_eval's gain syntax (``ndcg.G=V``): pytrec_eval then ends the
    whole Python process. Use :func:`in_subprocess` to show that.
    """
    import pytrec_eval as lib

    grades = {q: {d: int(g) for d, g in docs.items()} for q, docs in qrels.items()}
    scores = {q: {d: float(s) for d, s in docs.items()} for q, docs in run.items()}
    return lib.RelevanceEvaluator(grades, set(measures)).evaluate(scores)


def ir_measures(qrels: Qrels, run: Run, measures: Iterable[str]) -> dict[str, dict[str, float]]:
    """ir_measures: ``{measure: {query: value}}`` for names such as ``nDCG@5``."""
    import ir_measures as lib

    parsed = [lib.parse_measure(m) for m in measures]
    out: dict[str, dict[str, float]] = {str(m): {} for m in parsed}
    grades = {q: {d: int(g) for d, g in docs.items()} for q, docs in qrels.items()}
    scores = {q: {d: float(s) for d, s in docs.items()} for q, docs in run.items()}
    for value in lib.iter_calc(parsed, grades, scores):
        out[str(value.measure)][value.query_id] = value.value
    return out


def ranx(qrels: Qrels, run: Run, metrics: Iterable[str]) -> dict[str, dict[str, float]]:
    """ranx: ``{metric: {query: value}}`` for names such as ``ndcg@5`` or ``ndcg_burges@5``."""
    import ranx as lib

    names = list(metrics)
    r = lib.Run({q: {d: float(s) for d, s in docs.items()} for q, docs in run.items()})
    j = lib.Qrels({q: {d: int(g) for d, g in docs.items()} for q, docs in qrels.items()})
    values = lib.evaluate(j, r, names, return_mean=False)
    if len(names) == 1:
        values = {names[0]: values}
    return {m: dict(zip(r.keys(), (float(v) for v in values[m]), strict=True)) for m in names}


def sklearn_ndcg(grades: Sequence[float], scores: Sequence[float], k: int | None = None) -> float:
    """scikit-learn's ``ndcg_score`` of one query (ideal from the items passed, ties averaged).

    scikit-learn refuses a list of one document (``ValueError``); that refusal is
    passed on unchanged, so that a cell can show it.
    """
    import numpy as np
    from sklearn.metrics import ndcg_score

    return float(ndcg_score(np.asarray([grades]), np.asarray([scores]), k=k))


def version(distribution: str) -> str:
    """The installed version of a Python distribution, e.g. ``version("ranx")``."""
    from importlib.metadata import version as installed

    return installed(distribution)


def in_subprocess(code: str, timeout: float = 120) -> Printed:
    """Run ``code`` with this Python in a separate process and return what it printed.

    For a call that would abort the caller's process: the notebook's kernel
    survives and the cell shows the exit status.
    """
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout, check=False
    )
    return Printed(done.returncode, done.stdout, done.stderr)


# ------------------------------------------------------------ the conventions table

TOOLS = ("trec_eval 10.0", "pytrec_eval", "ir_measures", "ranx", "scikit-learn", "dcglab")
"""The tools that :func:`convention_table` runs, in the order of its columns."""


def ndcg_by_tool(tool: str, qrels: Qrels, run: Run, k: int) -> dict[str, float]:
    """nDCG@k of each query as ``tool`` computes it with its defaults.

    trec_eval's ``ndcg_cut.k``, pytrec_eval's ``ndcg_cut_k``, ir_measures' ``nDCG@k``,
    ranx's ``ndcg@k``, scikit-learn's ``ndcg_score`` (one call per query, on the
    retrieved documents, unjudged ones graded 0) and ``dcglab.batch.evaluate``'s
    ``ndcg_cut.k``. A query the tool does not return is absent from the result.

    Raises
    ------
    RuntimeError
        When the tool refuses the input: the message says how (trec_eval's exit
        status, or the library's exception).
    """
    if tool == "trec_eval 10.0":
        out = trec_eval(qrels, run, ["-q", "-m", f"ndcg_cut.{k}"])
        if out.status != 0:
            raise RuntimeError(f"exit status {out.status}")
        lines = (line.split() for line in out.stdout.splitlines())
        return {q: float(v) for _, q, v in lines if q != "all"}
    try:
        if tool == "pytrec_eval":
            return {
                q: m[f"ndcg_cut_{k}"] for q, m in pytrec_eval(qrels, run, {f"ndcg_cut.{k}"}).items()
            }
        if tool == "ir_measures":
            return ir_measures(qrels, run, [f"nDCG@{k}"])[f"nDCG@{k}"]
        if tool == "ranx":
            return ranx(qrels, run, [f"ndcg@{k}"])[f"ndcg@{k}"]
        if tool == "scikit-learn":
            return {
                q: sklearn_ndcg(
                    [qrels.get(q, {}).get(d, 0) for d in docs], list(docs.values()), k=k
                )
                for q, docs in run.items()
            }
        if tool == "dcglab":
            import pandas as pd

            from ..batch import evaluate

            rows = [(q, d, g) for q, docs in qrels.items() for d, g in docs.items()]
            ranked = [(q, d, s) for q, docs in run.items() for d, s in docs.items()]
            result = evaluate(
                pd.DataFrame(rows, columns=["qid", "docno", "grade"]),
                pd.DataFrame(ranked, columns=["qid", "docno", "score"]),
                [f"ndcg_cut.{k}"],
            )
            return {str(q): float(v) for q, v in result.per_query.iloc[:, 0].items()}
    except Exception as exc:  # the refusal is the finding: name its type
        raise RuntimeError(type(exc).__name__) from exc
    raise ValueError(f"tool must be one of {', '.join(TOOLS)}, got {tool!r}")


@dataclass(frozen=True)
class Probe:
    """One input that isolates one convention, and how to read each tool's answer.

    ``query`` is the query whose nDCG@``k`` is read; ``readings`` maps that value,
    rounded to 4 decimals, to what it reveals. A refusal reads as "refused (...)", a
    query left out of the result as "left out".
    """

    question: str
    qrels: Qrels
    run: Run
    k: int
    query: str
    readings: Mapping[float, str]


PROBES = (
    Probe(
        "ideal (1 of 2 relevant documents retrieved)",
        {"q1": {"a": 1, "b": 1}},
        {"q1": {"a": 1.0, "z": 0.5}},
        2,
        "q1",
        {0.6131: "all judged documents", 1.0: "retrieved documents only"},
    ),
    Probe(
        "equal scores, grades 0 (a) and 2 (b)",
        {"q1": {"a": 0, "b": 2}},
        {"q1": {"a": 0.5, "b": 0.5}},
        1,
        "q1",
        {1.0: "b first (docno descending)", 0.0: "a first (input order)", 0.5: "gains averaged"},
    ),
    Probe(
        "equal scores, b listed first",
        {"q1": {"a": 0, "b": 2}},
        {"q1": {"b": 0.5, "a": 0.5}},
        1,
        "q1",
        {1.0: "b first", 0.0: "a first (docno ascending)", 0.5: "gains averaged"},
    ),
    Probe(
        "scores 0.7000000001 (a, grade 0) and 0.7 (b, grade 2)",
        {"q1": {"a": 0, "b": 2}},
        {"q1": {"a": 0.7000000001, "b": 0.7}},
        1,
        "q1",
        {0.0: "double: a first", 1.0: "float32 tie: b first", 0.5: "float32 tie, averaged"},
    ),
    Probe(
        "query with nothing relevant (IDCG = 0)",
        {"q1": {"a": 1}, "q2": {"b": 0}},
        {"q1": {"a": 1.0, "z": 0.5}, "q2": {"b": 1.0, "y": 0.5}},
        2,
        "q2",
        {0.0: "scored 0", 1.0: "scored 1"},
    ),
    Probe(
        "unjudged document n above relevant a",
        {"q1": {"a": 1, "z": 0}},
        {"q1": {"n": 1.0, "a": 0.5}},
        2,
        "q1",
        {0.6309: "gain 0", 1.0: "dropped (condensed list)"},
    ),
    Probe(
        "judged query q2 missing from the run",
        {"q1": {"a": 1}, "q2": {"b": 1}},
        {"q1": {"a": 1.0, "z": 0.5}},
        2,
        "q2",
        {0.0: "scored 0"},
    ),
    Probe(
        "a list of one document",
        {"q1": {"a": 1}},
        {"q1": {"a": 1.0}},
        1,
        "q1",
        {1.0: "scored (1)"},
    ),
)
"""The probes of :func:`convention_table`, one row each."""


def read_probe(probe: Probe, tool: str) -> str:
    """What ``tool`` does on ``probe``: the reading of its value, with the value."""
    try:
        values = ndcg_by_tool(tool, probe.qrels, probe.run, probe.k)
    except RuntimeError as exc:
        return f"refused ({exc})"
    if probe.query not in values:
        return "left out"
    value = round(float(values[probe.query]), 4)
    return f"{probe.readings.get(value, 'other')} [{value:.4f}]"


def convention_table(tools: Sequence[str] = TOOLS) -> Any:
    """A DataFrame: one row per probe of :data:`PROBES`, one column per tool, each
    cell what that tool did (:func:`read_probe`)."""
    import warnings

    import pandas as pd

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # ranx's numba warnings, scikit-learn's
        rows = {p.question: {t: read_probe(p, t) for t in tools} for p in PROBES}
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis("input")
