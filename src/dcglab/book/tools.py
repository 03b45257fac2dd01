"""Run trec_eval 10.0 and the peer libraries on the book's small examples.

Every sentence of the book about what another tool does is backed by a cell that
calls one of these functions, and the tests call the same functions, so that the
book and its checks make each peer-library call in one place.

* :func:`trec_eval`, :func:`trec_eval_binary`, :func:`dcglab_cli` and
  :func:`in_subprocess` run a command in its own process (:mod:`dcglab.book.commands`,
  re-exported here).
* :func:`pytrec_eval`, :func:`ir_measures`, :func:`ranx`, :func:`sklearn_ndcg` and
  :func:`sklearn_dcg` call the peer libraries under their own conventions.
* :func:`version` names the installed version of a peer library.
* :func:`convention_table` runs every tool on the probes of the conventions table.

Inputs are ``qrels[query][doc] = grade`` and ``run[query][doc] = score``, or the
text of a TREC file; :func:`trec_eval` also takes DataFrames with columns ``qid``,
``docno`` and ``grade`` or ``score``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from dcglab.book.commands import (
    Printed,
    Qrels,
    Run,
    TrecEvalUnavailable,
    dcglab_cli,
    in_subprocess,
    qrels_text,
    run_text,
    trec_eval,
    trec_eval_binary,
)

__all__ = [
    "Printed",
    "TrecEvalUnavailable",
    "dcglab_cli",
    "in_subprocess",
    "ir_measures",
    "pytrec_eval",
    "qrels_text",
    "ranx",
    "ranx_frames",
    "ranx_of_grades",
    "run_text",
    "sklearn_dcg",
    "sklearn_ndcg",
    "trec_eval",
    "trec_eval_binary",
    "version",
]


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


def ranx_evaluate(*args: Any, **kwargs: Any) -> Any:
    """``ranx.evaluate``, without the type-safety warning numba prints when it compiles
    ranx's kernels (about ranx's integer casts, not about the values), so that a
    notebook's output does not depend on whether numba's cache was warm."""
    import warnings

    import ranx as lib
    from numba.core.errors import NumbaTypeSafetyWarning

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NumbaTypeSafetyWarning)
        return lib.evaluate(*args, **kwargs)


def ranx(qrels: Qrels, run: Run, metrics: Iterable[str]) -> dict[str, dict[str, float]]:
    """ranx: ``{metric: {query: value}}`` for names such as ``ndcg@5`` or ``ndcg_burges@5``."""
    import ranx as lib

    names = list(metrics)
    r = lib.Run({q: {d: float(s) for d, s in docs.items()} for q, docs in run.items()})
    j = lib.Qrels({q: {d: int(g) for d, g in docs.items()} for q, docs in qrels.items()})
    values = ranx_evaluate(j, r, names, return_mean=False)
    if len(names) == 1:
        values = {names[0]: values}
    return {m: dict(zip(r.keys(), (float(v) for v in values[m]), strict=True)) for m in names}


def ranx_of_grades(grades: Sequence[float], metric: str) -> float:
    """ranx's value of ``metric`` (such as ``rbp.8``) on one ranking given as its grades.

    The ranking holds documents ``d1``, ``d2``, ... in that order (scores falling);
    the qrels hold those with a grade above 0, as ranx keeps only relevant documents.
    """
    qrels = {"q": {f"d{i}": int(g) for i, g in enumerate(grades, 1) if g > 0}}
    run = {"q": {f"d{i}": float(len(grades) - i) for i in range(1, len(grades) + 1)}}
    return ranx(qrels, run, [metric])[metric]["q"]


def ranx_frames(qrels: Any, run: Any, metrics: Iterable[str]) -> dict[str, float]:
    """ranx's mean of each metric on DataFrames with columns ``qid``, ``docno`` and
    ``grade`` (qrels) or ``score`` (run), read by ranx's own ``from_df`` (ids as objects,
    as ranx requires)."""
    import ranx as lib

    ids = {"qid": object, "docno": object}
    j = lib.Qrels.from_df(qrels.astype(ids), q_id_col="qid", doc_id_col="docno", score_col="grade")
    r = lib.Run.from_df(run.astype(ids), q_id_col="qid", doc_id_col="docno", score_col="score")
    names = list(metrics)
    values = ranx_evaluate(j, r, names)
    return {names[0]: float(values)} if len(names) == 1 else {m: float(values[m]) for m in names}


def sklearn_ndcg(grades: Sequence[float], scores: Sequence[float], k: int | None = None) -> float:
    """scikit-learn's ``ndcg_score`` of one query (ideal from the items passed, ties averaged).

    scikit-learn refuses a list of one document (``ValueError``); that refusal is
    passed on unchanged, so that a cell can show it.
    """
    from sklearn.metrics import ndcg_score

    return one_query(ndcg_score, grades, scores, k)


def sklearn_dcg(grades: Sequence[float], scores: Sequence[float], k: int | None = None) -> float:
    """scikit-learn's ``dcg_score`` of one query (linear gain, 1/log2(i+1), ties averaged)."""
    from sklearn.metrics import dcg_score

    return one_query(dcg_score, grades, scores, k)


def one_query(score: Any, grades: Sequence[float], scores: Sequence[float], k: int | None) -> float:
    """``score`` (a scikit-learn ranking metric) of one query given as its grades and scores."""
    import numpy as np

    return float(score(np.asarray([grades]), np.asarray([scores]), k=k))


def version(distribution: str) -> str:
    """The installed version of a Python distribution, e.g. ``version("ranx")``."""
    from importlib.metadata import version as installed

    return installed(distribution)


# ------------------------------------------------------------ the conventions table

TOOLS = ("trec_eval 10.0", "pytrec_eval", "ir_measures", "ranx", "scikit-learn", "dcglab")
"""The tools that :func:`convention_table` runs, in the order of its columns."""


def ndcg_by_tool(tool: str, qrels: Qrels, run: Run, k: int) -> dict[str, float]:
    """nDCG@k of each query as ``tool`` computes it with its defaults.

    trec_eval's ``ndcg_cut.k``, pytrec_eval's ``ndcg_cut_k``, ir_measures' ``nDCG@k``,
    ranx's ``ndcg@k``, scikit-learn's ``ndcg_score`` (one call per query, on the
    retrieved documents, unjudged ones graded 0) and ``dcglab.evaluation.batch.evaluate``'s
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

            from dcglab.evaluation.batch import evaluate

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


def load_probes() -> tuple[Probe, ...]:
    """The probes of :func:`convention_table`, from ``probes.yaml`` next to this module."""
    from importlib.resources import files

    import yaml

    rows = yaml.safe_load(files(__package__).joinpath("probes.yaml").read_text(encoding="utf-8"))
    return tuple(Probe(**row) for row in rows)


PROBES = load_probes()
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
