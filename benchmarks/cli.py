"""End to end from files: ``python -m dcglab`` against trec_eval, pytrec_eval, ir_measures, ranx.

Run: nice -n 10 .venv/bin/python benchmarks/cli.py [--queries 5000] [--docs 1000] [--repeat 3]
     (set TREC_EVAL=/path/to/trec_eval to include trec_eval's C binary)

Writes a seeded TREC workload (Q queries x D documents, scores rounded to three
decimals so that many tie, about 100 judged documents per query graded 0-3,
half of them retrieved), then times each tool as a fresh process that reads the
two files and prints nDCG@10 and nDCG for every query: wall time and peak
memory (the child's maximum resident set size), and CPU time (user + system
over all threads), which a busy machine disturbs less than wall time. The tools
run in turns, ``--repeat`` rounds (``--peer-repeat`` for the slow Python
peers), and each tool's best time is kept (a shared machine is noisy); peak
memory is the largest seen. Per-query values are checked against dcglab's: trec_eval's
printed 4-decimal values must equal ours formatted the same way, the Python
peers must agree within 1e-12 (ranx breaks score ties its own way: the number
of queries that differ is shown). Ratios are the tool's time (memory) over dcglab's.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import polars as pl

MEASURES = ("ndcg_cut_10", "ndcg")

PEERS = {
    "pytrec_eval": """
import json, sys, pytrec_eval
with open(sys.argv[1]) as f: qrels = pytrec_eval.parse_qrel(f)
with open(sys.argv[2]) as f: run = pytrec_eval.parse_run(f)
res = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut_10", "ndcg"}).evaluate(run)
json.dump({q: [v["ndcg_cut_10"], v["ndcg"]] for q, v in res.items()}, open(sys.argv[3], "w"))
""",
    "ir_measures": """
import json, sys, ir_measures
from ir_measures import nDCG
qrels = ir_measures.read_trec_qrels(sys.argv[1])
run = ir_measures.read_trec_run(sys.argv[2])
out = {}
for m in ir_measures.iter_calc([nDCG @ 10, nDCG], qrels, run):
    out.setdefault(m.query_id, [None, None])[0 if str(m.measure) == "nDCG@10" else 1] = m.value
json.dump(out, open(sys.argv[3], "w"))
""",
    "ranx": """
import json, sys
from ranx import Qrels, Run, evaluate
qrels = Qrels.from_file(sys.argv[1], kind="trec")
run = Run.from_file(sys.argv[2], kind="trec")
res = evaluate(qrels, run, ["ndcg@10", "ndcg"], return_mean=False)
json.dump({q: [float(a), float(b)] for q, a, b in zip(run.keys(), res["ndcg@10"], res["ndcg"])},
          open(sys.argv[3], "w"))
""",
}

LAUNCH = """
import resource, subprocess, sys, time
t = time.perf_counter()
with open(sys.argv[1], "w") as out:
    code = subprocess.run(sys.argv[2:], stdout=out).returncode
wall = time.perf_counter() - t
use = resource.getrusage(resource.RUSAGE_CHILDREN)
print(wall, use.ru_utime + use.ru_stime, use.ru_maxrss, code)
"""


def write_workload(folder: Path, n_queries: int, n_docs: int, seed: int = 20261201) -> None:
    """``qrels.txt`` and ``run.txt`` in ``folder``: the seeded synthetic workload."""
    rng = np.random.default_rng(seed)
    pool = 1_000_000
    docs = rng.permutation(pool)[
        rng.integers(0, pool - n_docs, n_queries)[:, None] + np.arange(n_docs)
    ]
    run = pl.DataFrame(
        {
            "q": np.repeat(np.arange(n_queries), n_docs),
            "d": docs.ravel(),
            "s": np.round(rng.normal(size=n_queries * n_docs), 3),
        }
    )
    run.select(
        pl.format("q{}", pl.col("q")).alias("qid"),
        pl.lit("Q0").alias("Q0"),
        pl.format("doc{}", pl.col("d").cast(pl.String).str.zfill(7)).alias("docno"),
        (pl.int_range(pl.len()) % n_docs + 1).alias("rank"),
        pl.col("s").alias("score"),
        pl.lit("bench").alias("tag"),
    ).write_csv(folder / "run.txt", separator=" ", include_header=False)
    half = n_docs // 20
    judged = np.concatenate(
        [docs[:, :half], pool + rng.integers(0, pool, (n_queries, half))], axis=1
    )
    qrels = pl.DataFrame(
        {
            "q": np.repeat(np.arange(n_queries), judged.shape[1]),
            "d": judged.ravel(),
            "g": rng.integers(0, 4, judged.size),
        }
    ).unique(["q", "d"], keep="first", maintain_order=True)
    qrels.select(
        pl.format("q{}", pl.col("q")).alias("qid"),
        pl.lit("0").alias("iter"),
        pl.format("doc{}", pl.col("d").cast(pl.String).str.zfill(7)).alias("docno"),
        pl.col("g").alias("grade"),
    ).write_csv(folder / "qrels.txt", separator=" ", include_header=False)


def timed(command: list[str], out: Path) -> tuple[float, float, float]:
    """Wall seconds, CPU seconds (user + system, all threads) and peak resident
    memory (MB) of ``command`` run as a child process."""
    proc = subprocess.run(
        [sys.executable, "-c", LAUNCH, str(out), *command], capture_output=True, text=True
    )
    wall, cpu, rss_kb, code = proc.stdout.split()
    if int(code) != 0:
        raise RuntimeError(f"{command[:3]} failed: {proc.stderr[-500:]}")
    return float(wall), float(cpu), int(rss_kb) / 1024


def read_trec_output(path: Path) -> dict[str, dict[str, str]]:
    out: dict[str, dict[str, str]] = {}
    for line in path.read_text().splitlines():
        name, qid, value = line.split()
        out.setdefault(qid, {})[name] = value
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--queries", type=int, default=5_000)
    ap.add_argument("--docs", type=int, default=1_000)
    ap.add_argument("--repeat", type=int, default=3, help="runs per tool; the best time is kept")
    ap.add_argument("--peer-repeat", type=int, default=1, help="runs per Python peer")
    ap.add_argument("--skip", action="append", default=[], help="a peer to leave out")
    ap.add_argument("--folder", type=Path, default=None, help="where to write the workload")
    args = ap.parse_args()

    folder = args.folder or Path(tempfile.mkdtemp(prefix="dcglab-bench-"))
    folder.mkdir(parents=True, exist_ok=True)
    write_workload(folder, args.queries, args.docs)
    qrels, run = folder / "qrels.txt", folder / "run.txt"
    n_lines = sum(1 for _ in open(run, "rb"))
    print(
        f"workload: {args.queries:,} queries x {args.docs:,} docs = {n_lines:,} run lines "
        f"({run.stat().st_size / 1e6:.0f} MB), {sum(1 for _ in open(qrels, 'rb')):,} judgments; "
        f"scores rounded to 3 decimals (ties)"
    )

    trec_args = ["-q", "-m", "ndcg_cut.10", "-m", "ndcg", str(qrels), str(run)]
    tools: dict[str, list[str]] = {
        "dcglab": [sys.executable, "-m", "dcglab", "--format", "csv", *trec_args],
    }
    if os.environ.get("TREC_EVAL"):
        tools["trec_eval"] = [os.environ["TREC_EVAL"], *trec_args]
    for name, code in PEERS.items():
        if name not in args.skip:
            tools[name] = [
                sys.executable,
                "-c",
                code,
                str(qrels),
                str(run),
                str(folder / f"{name}.json"),
            ]

    # Round robin, so that every tool sees the same (shared, noisy) machine.
    best = {name: (float("inf"), float("inf"), 0.0) for name in tools}
    outputs = {name: folder / f"{name}.out" for name in tools}
    runs = {name: 0 for name in tools}
    for round_ in range(max(args.repeat, args.peer_repeat)):
        for name, command in tools.items():
            repeat = args.repeat if name in ("dcglab", "trec_eval") else args.peer_repeat
            if round_ >= repeat:
                continue
            wall, cpu, mem = timed(command, outputs[name])
            w, c, m = best[name]
            best[name], runs[name] = (min(w, wall), min(c, cpu), max(m, mem)), runs[name] + 1
            print(f"  round {round_ + 1} {name:12} {wall:7.2f} s  cpu {cpu:7.2f} s  {mem:5.0f} MB")
    results = best

    ours: dict[str, list[float]] = {}
    for line in outputs["dcglab"].read_text().splitlines()[1:]:
        measure, qid, value = line.split(",")
        if qid != "all":
            ours.setdefault(qid, [np.nan, np.nan])[MEASURES.index(measure)] = float(value)

    def check(name: str) -> str:
        if name == "dcglab":
            return "reference"
        if name == "trec_eval":
            theirs = read_trec_output(outputs[name])
            bad = sum(
                theirs.get(q, {}).get(m) != f"{v[i]:6.4f}".strip()
                for q, v in ours.items()
                for i, m in enumerate(MEASURES)
            )
            same_set = set(theirs) - {"all"} == set(ours)
            return "identical output" if bad == 0 and same_set else f"{bad} values DIFFER"
        theirs = json.loads((folder / f"{name}.json").read_text())
        if set(theirs) != set(ours):
            return f"query sets DIFFER ({len(theirs)} against {len(ours)})"
        diff = np.array([[abs(theirs[q][i] - ours[q][i]) for i in range(2)] for q in ours])
        if name == "ranx":
            n = int((diff.max(axis=1) > 1e-12).sum())
            return f"{n:,} of {len(ours):,} queries differ (ranx breaks score ties its own way)"
        return f"max |diff| {diff.max():.1e}" + (" ok" if diff.max() <= 1e-12 else " DIFFERENT")

    base_t, base_c, base_m = results["dcglab"]
    print(f"\nbest of {args.repeat} runs (dcglab, trec_eval) or {args.peer_repeat} (peers):")
    head = f"{'x dcglab wall':>14} {'x dcglab cpu':>13} {'x dcglab MB':>12}"
    print(f"{'tool':12} {'wall s':>7} {'cpu s':>7} {'peak MB':>8} {head}  values")
    for name, (t, c, m) in results.items():
        print(
            f"{name:12} {t:7.2f} {c:7.2f} {m:8.0f} {t / base_t:14.2f} {c / base_c:13.2f} "
            f"{m / base_m:12.2f}  {check(name)}"
        )
    if "trec_eval" in results:
        t, c, m = results["trec_eval"]
        print(
            f"\ndcglab against trec_eval's C binary: {t / base_t:.1f}x as fast (wall), "
            f"{c / base_c:.1f}x less CPU time, {base_m / m:.2f}x its peak memory"
        )


if __name__ == "__main__":
    main()
