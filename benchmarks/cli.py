"""End to end from files: ``python -m dcglab`` against trec_eval, pytrec_eval, ir_measures, ranx.

Run: nice -n 10 .venv/bin/python benchmarks/cli.py [--sizes 100,1000,5000] [--docs 1000]
     [--repeat 3] (set TREC_EVAL=/path/to/trec_eval to include trec_eval's C binary)

For each size (Q queries x D documents; by default 100k, 1M and 5M run lines)
writes a seeded TREC workload: double-precision scores written with 17
significant digits (sigmoid probabilities), a tenth of them rounded to two
decimals so that some tie, about 100 judged documents per query graded 0-3,
half of them retrieved. Each tool runs as a fresh process that reads the two
files and prints nDCG@10 and nDCG for every query; the launcher records wall
time, CPU time (user + system over all threads, which a busy machine disturbs
less) and peak memory (the child's maximum resident set size). dcglab and
trec_eval run in turns, ``--repeat`` rounds at every size, and each round's
ratio trec_eval / dcglab is printed, then the median and the range over the
rounds (a shared machine is noisy: every round is shown). The slow Python
peers run ``--peer-repeat`` rounds at the largest size only.

Checks: dcglab prints trec_eval's output byte for byte (both in trec_eval's
format). pytrec_eval and ir_measures compare scores as float32 (trec_eval 9.x),
so they are checked against an untimed ``dcglab --score-precision float32`` run
to 1e-12; ranx breaks score ties its own way (the number of queries that differ
is shown). A last line times start-up alone: one query with one document.
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
            "s": 1 / (1 + np.exp(-rng.normal(size=n_queries * n_docs))),
        }
    )
    tie = rng.random(len(run)) < 0.1
    run = run.with_columns(s=pl.when(pl.Series(tie)).then(pl.col("s").round(2)).otherwise("s"))
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


def run_tools(tools: dict[str, list[str]], folder: Path, rounds: dict[str, int]):
    """Run the tools in turns (so each sees the same noisy machine); every round's
    (wall, cpu, peak MB) per tool."""
    seen: dict[str, list[tuple[float, float, float]]] = {name: [] for name in tools}
    for round_ in range(max(rounds.values())):
        for name, command in tools.items():
            if round_ < rounds[name]:
                seen[name].append(timed(command, folder / f"{name}.out"))
    return seen


def check_peer(name: str, folder: Path, reference: Path) -> str:
    """A Python peer's per-query values against dcglab's (CSV, full precision)."""
    ours = pl.read_csv(reference, schema_overrides={"qid": pl.String}).filter(
        pl.col("qid") != "all"
    )
    mine = {q: (a, b) for q, a, b in ours.select("qid", "ndcg_cut_10", "ndcg").iter_rows()}
    theirs = json.loads((folder / f"{name}.json").read_text())
    if set(theirs) != set(mine):
        return f"query sets DIFFER ({len(theirs)} against {len(mine)})"
    diff = np.array([[abs(theirs[q][i] - mine[q][i]) for i in range(2)] for q in mine])
    if name == "ranx":
        n = int((diff.max(axis=1) > 1e-12).sum())
        return f"{n:,} of {len(mine):,} queries differ (ranx breaks score ties its own way)"
    ok = " ok" if diff.max() <= 1e-12 else " DIFFERENT"
    return f"max |diff| {diff.max():.1e} against dcglab --score-precision float32{ok}"


def median(values: list[float]) -> float:
    return float(np.median(values))


def report_size(label: str, seen: dict, folder: Path) -> None:
    """Each round, then per tool the median (min-max) and the ratios to dcglab."""
    for name, rows in seen.items():
        for i, (wall, cpu, mem) in enumerate(rows, 1):
            print(f"  round {i} {name:12} {wall:7.2f} s  cpu {cpu:7.2f} s  {mem:6.0f} MB")
    if "trec_eval" in seen:
        pairs = list(zip(seen["trec_eval"], seen["dcglab"]))
        wall = [t[0] / d[0] for t, d in pairs]
        cpu = [t[1] / d[1] for t, d in pairs]
        mem = [d[2] / t[2] for t, d in pairs]
        same = (folder / "dcglab.out").read_bytes() == (folder / "trec_eval.out").read_bytes()
        print(
            f"  {label}: dcglab {median(wall):.2f}x as fast as trec_eval (wall; rounds "
            f"{', '.join(f'{x:.2f}' for x in wall)}), {median(cpu):.2f}x less CPU, "
            f"{median(mem):.2f}x its peak memory (rounds {', '.join(f'{x:.2f}' for x in mem)}); "
            f"output {'IDENTICAL' if same else 'DIFFERENT'}"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="100,1000,5000", help="numbers of queries, comma-separated")
    ap.add_argument("--docs", type=int, default=1_000)
    ap.add_argument("--repeat", type=int, default=3, help="rounds of dcglab and trec_eval")
    ap.add_argument("--peer-repeat", type=int, default=1, help="rounds of each Python peer")
    ap.add_argument("--skip", action="append", default=[], help="a peer to leave out")
    ap.add_argument("--folder", type=Path, default=None, help="where to write the workloads")
    ap.add_argument(
        "-m",
        "--measure",
        action="append",
        default=None,
        help="a measure for dcglab and trec_eval (repeatable; e.g. all_trec); the Python "
        "peers compute nDCG only and are left out (default: ndcg_cut.10 and ndcg)",
    )
    args = ap.parse_args()
    measures = args.measure or ["ndcg_cut.10", "ndcg"]

    root = args.folder or Path(tempfile.mkdtemp(prefix="dcglab-bench-"))
    sizes = [int(x) for x in args.sizes.split(",")]
    for n_queries in sizes:
        folder = root / f"q{n_queries}"
        folder.mkdir(parents=True, exist_ok=True)
        write_workload(folder, n_queries, args.docs)
        qrels, run = folder / "qrels.txt", folder / "run.txt"
        n_lines = sum(1 for _ in open(run, "rb"))
        print(
            f"\nworkload: {n_queries:,} queries x {args.docs:,} docs = {n_lines:,} run lines "
            f"({run.stat().st_size / 1e6:.0f} MB), {sum(1 for _ in open(qrels, 'rb')):,} "
            "judgments; double scores with 17 digits, a tenth rounded to 2 decimals (ties)"
        )
        trec_args = ["-q", *(a for m in measures for a in ("-m", m)), str(qrels), str(run)]
        tools = {"dcglab": [sys.executable, "-m", "dcglab", *trec_args]}
        if os.environ.get("TREC_EVAL"):
            tools["trec_eval"] = [os.environ["TREC_EVAL"], *trec_args]
        rounds = {name: args.repeat for name in tools}
        if n_queries == max(sizes) and args.measure is None:
            for name, code in PEERS.items():
                if name not in args.skip:
                    out = str(folder / f"{name}.json")
                    tools[name] = [sys.executable, "-c", code, str(qrels), str(run), out]
                    rounds[name] = args.peer_repeat
        seen = run_tools(tools, folder, rounds)
        report_size(f"{n_lines:,} lines", seen, folder)
        if len(tools) > 2:
            reference = folder / "float32.csv"
            command = [sys.executable, "-m", "dcglab", "--score-precision", "float32"]
            with open(reference, "w") as out:
                subprocess.run([*command, "--format", "csv", *trec_args], stdout=out, check=True)
            base = median([w for w, _, _ in seen["dcglab"]])
            for name in tools:
                if name not in ("dcglab", "trec_eval"):
                    wall, cpu, mem = seen[name][0]
                    print(
                        f"  {name:12} {wall:7.2f} s ({wall / base:.1f}x dcglab's median wall), "
                        f"{mem:5.0f} MB; {check_peer(name, folder, reference)}"
                    )

    folder = root / "startup"
    folder.mkdir(exist_ok=True)
    (folder / "qrels.txt").write_text("q1 0 d1 1\n")
    (folder / "run.txt").write_text("q1 Q0 d1 1 0.5 t\n")
    trec_args = ["-m", "ndcg_cut.10", str(folder / "qrels.txt"), str(folder / "run.txt")]
    tools = {"dcglab": [sys.executable, "-m", "dcglab", *trec_args]}
    if os.environ.get("TREC_EVAL"):
        tools["trec_eval"] = [os.environ["TREC_EVAL"], *trec_args]
    seen = run_tools(tools, folder, {name: args.repeat for name in tools})
    print("\nstart-up (1 query, 1 document):")
    for name, rows in seen.items():
        walls = [w for w, _, _ in rows]
        mems = [m for _, _, m in rows]
        print(
            f"  {name:12} {median(walls):6.2f} s (rounds {', '.join(f'{w:.2f}' for w in walls)}), "
            f"{median(mems):5.0f} MB"
        )


if __name__ == "__main__":
    main()
