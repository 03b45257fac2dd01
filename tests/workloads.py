"""The workloads the tests share: seeded qrels and runs, as DataFrames, dicts or files.

Each generator is seeded, so a test that fails fails again; each aims at a
different kind of trouble (ties, byte order, edge grades, the benchmark's shape).
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pandas as pd

BENCH = Path(__file__).resolve().parents[1] / "benchmarks" / "cli.py"


def tie_workload(seed, n_queries=60, tie_levels=6, float32_ties=False):
    """``(qrels, run)`` DataFrames: many exact score ties (and -0.0), half the judged
    documents unretrieved; ``float32_ties``: scores equal once rounded to float32."""
    rng = np.random.default_rng(seed)
    run, qrels = [], []
    for q in range(n_queries):
        qid = f"q{q:03d}"
        docs = rng.choice(80, size=int(rng.integers(1, 40)), replace=False)
        for d in docs:
            score = float(rng.integers(-tie_levels, tie_levels)) / 2 or -0.0
            if float32_ties:
                score += float(rng.integers(0, 2)) * 1e-9  # equal once rounded to float32
            run.append((qid, f"doc{d}", score))
        judged = np.concatenate([docs[: len(docs) // 2], 100 + rng.choice(50, 5, replace=False)])
        for d in judged:
            qrels.append((qid, f"doc{d}", int(rng.integers(0, 4))))
    return (
        pd.DataFrame(qrels, columns=["qid", "docno", "grade"]),
        pd.DataFrame(run, columns=["qid", "docno", "score"]),
    )


def as_dicts(run, qrels):
    """A run and qrels DataFrame as pytrec_eval's nested dicts ``{qid: {docno: value}}``."""
    r, j = {}, {}
    for q, d, s in run.itertuples(index=False):
        r.setdefault(q, {})[d] = s
    for q, d, g in qrels.itertuples(index=False):
        j.setdefault(q, {})[d] = int(g)
    return r, j


def edge_workload(seed, n_queries=40):
    """``(qrels, run)`` DataFrames for the engines: heavy ties, -0.0, float32-only
    ties, unretrieved judged documents, queries with nothing relevant, qrels-only
    and run-only queries, grades -1 and 2.5."""
    rng = np.random.default_rng(seed)
    run, qrels = [], []
    for q in range(n_queries):
        qid = f"q{q}"  # q10 sorts before q2: byte order matters
        docs = rng.choice(60, size=int(rng.integers(1, 30)), replace=False)
        for d in docs:
            score = float(rng.integers(-3, 4)) / 2
            if score == 0:
                score = float(rng.choice([-0.0, 0.0]))  # must tie: trec_eval ties them
            else:
                score += float(rng.integers(0, 2)) * 1e-9  # equal once rounded to float32
            run.append((qid, f"d{d}", score))
        judged = np.concatenate([docs[: len(docs) // 2], 100 + rng.choice(20, 4, replace=False)])
        top = 0 if q % 7 == 0 else 4  # every 7th query has nothing relevant
        for d in judged:
            grade = int(rng.integers(-1, top)) if top else 0
            qrels.append((qid, f"d{d}", 2.5 if grade == 3 and q % 3 == 0 else grade))
    qrels.append(("only_qrels", "d1", 2))
    run.append(("only_run", "d1", 1.0))
    return (
        pd.DataFrame(qrels, columns=["qid", "docno", "grade"]),
        pd.DataFrame(run, columns=["qid", "docno", "score"]),
    )


DOCNOS = ["b", "a", "ab", "aa", "é", "", "Z", "a\x7f", "zz", "doc10", "doc9", "€", "doc#1"]
"""Docnos whose byte order, ``strcmp`` order and string order disagree."""


def docno_workload(docnos):
    """``(qrels, run)`` DataFrames: six queries retrieving every one of ``docnos``, every
    other one judged, plus a judged document no query retrieves."""
    rng = np.random.default_rng(3)
    run = pd.DataFrame(
        [(f"q{q}", d, float(rng.integers(0, 3))) for q in range(6) for d in docnos],
        columns=["qid", "docno", "score"],
    )
    qrels = pd.DataFrame(
        [
            (f"q{q}", d, int(rng.integers(1, 4)))
            for q in range(6)
            for d in [*docnos[::2], "judged only"]
        ],
        columns=["qid", "docno", "grade"],
    )
    return qrels, run


def file_workload(folder):
    """Files in ``folder`` and dicts: 25 queries, up to 30 documents each, scores with many ties."""
    rng = np.random.default_rng(10)
    qrels, run = {}, {}
    qlines, rlines = [], []
    for q in range(25):
        qid = f"q{q:02d}"
        docs = rng.choice(60, size=int(rng.integers(3, 30)), replace=False)
        for d in docs:
            score = float(rng.integers(0, 6)) / 4
            run.setdefault(qid, {})[f"d{d}"] = score
            rlines.append(f"{qid} Q0 d{d} 0 {score} t")
        judged = np.concatenate([docs[: len(docs) // 2], 60 + rng.choice(20, 4, replace=False)])
        for d in judged:
            g = int(rng.integers(-1, 4))
            qrels.setdefault(qid, {})[f"d{d}"] = g
            qlines.append(f"{qid} 0 d{d} {g}")
    qpath, rpath = folder / "qrels", folder / "run"
    qpath.write_text("\n".join(qlines) + "\n")
    rpath.write_text("\n".join(rlines) + "\n")
    return qpath, rpath, qrels, run


def benchmark_workload(folder: Path, **size: int) -> Path:
    """The CLI benchmark's TREC files (``benchmarks/cli.py``'s ``write_workload``),
    written to ``folder`` at the given size."""
    spec = importlib.util.spec_from_file_location("bench_cli", BENCH)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    bench.write_workload(folder, **size)
    return folder


COMPARE_QUERIES = [f"q{i:02d}" for i in range(25)]
"""The queries of :func:`compare_workload`."""


def compare_qrels(seed=0):
    """Qrels of :data:`COMPARE_QUERIES`: 15 documents a query graded 0..3, ``d0`` always 3."""
    rng = np.random.default_rng(seed)
    rows = [(q, f"d{j}", int(rng.integers(0, 4))) for q in COMPARE_QUERIES for j in range(15)]
    rows += [(q, "d0", 3) for q in COMPARE_QUERIES]  # every query has a relevant document
    return pd.DataFrame(rows, columns=["qid", "docno", "grade"]).drop_duplicates(["qid", "docno"])


def compare_run(seed, boost, queries=COMPARE_QUERIES):
    """A run over ``queries``: random scores, the first four documents lifted by ``boost``."""
    rng = np.random.default_rng(seed)
    rows = [(q, f"d{j}", float(rng.random() + boost * (j < 4))) for q in queries for j in range(15)]
    return pd.DataFrame(rows, columns=["qid", "docno", "score"])


def compare_workload():
    """``(qrels, runs)``: three runs of decreasing boost (bm25 > tfidf > bim) to compare."""
    runs = {"bm25": compare_run(1, 0.4), "tfidf": compare_run(2, 0.2), "bim": compare_run(3, 0.0)}
    return compare_qrels(), runs


def write_run(path, frame):
    """Write a ``qid, docno, score`` DataFrame as a TREC run file (rank 0, tag ``t``)."""
    frame = frame.assign(Q0="Q0", rank=0, tag="t")[["qid", "Q0", "docno", "rank", "score", "tag"]]
    frame.to_csv(path, sep=" ", header=False, index=False)


def write_qrels(path, frame):
    """Write a ``qid, docno, grade`` DataFrame as a TREC qrels file."""
    frame.assign(iter=0)[["qid", "iter", "docno", "grade"]].to_csv(
        path, sep=" ", header=False, index=False
    )
