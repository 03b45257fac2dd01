"""Start-up and small runs, whole processes: ``dcglab`` beside trec_eval and ir_measures.

Run: nice -n 10 .venv/bin/python benchmarks/startup.py [--rounds 15] [--warmup 2]
     (set TREC_EVAL=/path/to/trec_eval to use a built binary; otherwise trec_eval
     10.0 is built from ../shared/reference/trec_eval-10.0 into a temporary folder)

Two workloads from :func:`cli.write_workload` (the seeded workload of
``benchmarks/cli.py``): one query of 1,000 documents (1,000 run lines) and 50
queries of 1,000 (50,000 run lines). Each tool prints nDCG@10 of every query
and the mean: ``dcglab -q -m ndcg_cut.10`` (the console script, as a user runs
it), the same arguments to the trec_eval binary, and ir_measures' command line
(``ir_measures -q QRELS RUN nDCG@10``). The tools run in turns (dcglab,
trec_eval, ir_measures, dcglab, ...) after ``--warmup`` uncounted rounds, so
that Python's bytecode caches are written and the files are in the page cache,
as a user's second run finds them (``PYTHONDONTWRITEBYTECODE`` is removed from
the children's environment for that). Each figure is the minimum, median and
maximum over ``--rounds`` rounds; the ratio to dcglab is taken round by round
(so a drift of the machine's speed cancels) and its median shown. Wall time
and CPU time (user + system, all threads) and peak memory are measured as in
``benchmarks/cli.py``.

Checks: dcglab prints trec_eval's output byte for byte; ir_measures' values
equal an untimed ``dcglab --score-precision float32`` run's (ir_measures
compares scores as float32) to 1e-12.

A last section shows where dcglab's start-up goes: ``python -X importtime`` of
a one-query run, split into numpy, dcglab's own modules and the rest (and says
whether polars or pandas, which it must not load, were imported).
"""

from __future__ import annotations

import argparse
import csv
import io
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
from cli import timed, write_workload

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
WORKLOADS = {"one query": (1, 1_000), "50 queries": (50, 1_000)}
"""Label: (queries, documents per query)."""


def trec_eval_binary(folder: Path) -> Path:
    """``$TREC_EVAL``, or trec_eval 10.0 built from the reference source into ``folder``."""
    if os.environ.get("TREC_EVAL"):
        return Path(os.environ["TREC_EVAL"])
    sys.path.insert(0, str(ROOT / "tests"))
    from oracle import build_trec_eval

    return build_trec_eval(folder)


def spread(values: list[float], fmt: str = "{:.3f}") -> str:
    """``min / median / max`` of ``values``."""
    lo, mid, hi = np.min(values), np.median(values), np.max(values)
    return " / ".join(fmt.format(v) for v in (lo, mid, hi))


def ir_measures_values(path: Path) -> dict[str, float]:
    """``query -> nDCG@10`` from ir_measures' per-query TSV (``query measure value``)."""
    rows = (line.split("\t") for line in path.read_text().splitlines() if line.strip())
    return {q: float(v) for q, m, v in rows if q != "all"}


def dcglab_values(command: list[str]) -> dict[str, float]:
    """``query -> nDCG@10`` from ``dcglab --format csv`` (``command`` without it)."""
    out = subprocess.run([*command, "--format", "csv"], capture_output=True, text=True, check=True)
    return {row["qid"]: float(row["ndcg_cut_10"]) for row in csv.DictReader(io.StringIO(out.stdout))
            if row["qid"] != "all"}  # fmt: skip


def run_workload(label: str, folder: Path, binary: Path, args: argparse.Namespace) -> None:
    qrels, run = folder / "qrels.txt", folder / "run.txt"
    files = [str(qrels), str(run)]
    tools = {
        "dcglab": [str(BIN / "dcglab"), "-q", "-m", "ndcg_cut.10", *files],
        "trec_eval": [str(binary), "-q", "-m", "ndcg_cut.10", *files],
        "ir_measures": [str(BIN / "ir_measures"), "-q", "-p", "17", *files, "nDCG@10"],
    }
    seen: dict[str, list[tuple[float, float, float]]] = {name: [] for name in tools}
    for round_ in range(args.warmup + args.rounds):
        for name, command in tools.items():
            figures = timed(command, folder / f"{name}.out")
            if round_ >= args.warmup:
                seen[name].append(figures)
    n_lines = sum(1 for _ in open(run, "rb"))
    print(f"\n{label}: {n_lines:,} run lines, {sum(1 for _ in open(qrels, 'rb')):,} judgments; "
          f"{args.rounds} rounds after {args.warmup} warm-up rounds")  # fmt: skip
    print("  tool          wall s (min / median / max)   cpu s (min / median / max)   peak MB  "
          "wall ratio to dcglab (median)")  # fmt: skip
    base = [w for w, _, _ in seen["dcglab"]]
    for name, rows in seen.items():
        walls, cpus, peaks = zip(*rows)
        ratio = np.median([w / b for w, b in zip(walls, base)])
        print(f"  {name:12}  {spread(list(walls)):27}   {spread(list(cpus)):26}   "
              f"{np.median(peaks):7.0f}  {ratio:.2f}")  # fmt: skip
    same = (folder / "dcglab.out").read_bytes() == (folder / "trec_eval.out").read_bytes()
    float32 = dcglab_values([*tools["dcglab"], "--score-precision", "float32"])
    theirs = ir_measures_values(folder / "ir_measures.out")
    diff = (
        max(abs(theirs[q] - float32[q]) for q in float32) if set(theirs) == set(float32) else None
    )
    print(f"  dcglab's output and trec_eval's: {'IDENTICAL' if same else 'DIFFERENT'}; "
          f"ir_measures against dcglab --score-precision float32: "
          + ("query sets DIFFER" if diff is None else f"max |diff| {diff:.1e}"
             + (" ok" if diff <= 1e-12 else " DIFFERENT")))  # fmt: skip


def import_profile(folder: Path, top: int) -> None:
    """Where a one-query dcglab run's imports go (``-X importtime``): numpy (with what
    it imports), dcglab's own modules (their own time), and the rest; polars and
    pandas are named if they were imported."""
    files = [str(folder / "qrels.txt"), str(folder / "run.txt")]
    command = [sys.executable, "-X", "importtime", "-m", "dcglab", "-m", "ndcg_cut.10", *files]
    err = subprocess.run(command, capture_output=True, text=True, check=True).stderr
    rows = []  # (own µs, cumulative µs, depth, module)
    for line in err.splitlines():
        if line.startswith("import time:") and "cumulative" not in line:
            own, total, name = line[len("import time:") :].split("|")
            depth = (len(name) - len(name.lstrip()) - 1) // 2
            rows.append((int(own), int(total), depth, name.strip()))
    everything = sum(total for _, total, depth, _ in rows if depth == 0)
    heavy = {name: total for _, total, _, name in rows if name in ("numpy", "polars", "pandas")}
    ours = [(own, name) for own, _, _, name in rows if name.startswith("dcglab")]
    print("\nwhere a one-query run's imports go (python -X importtime, one run):")
    for name, total in heavy.items():
        print(f"  {total / 1000:7.1f} ms  {name}, with the modules it imports")
    for name in sorted({"polars", "pandas"} - set(heavy)):
        print(f"  {name}: not imported")
    print(f"  {sum(own for own, _ in ours) / 1000:7.1f} ms  dcglab's {len(ours)} modules "
          "(their own time)")  # fmt: skip
    rest = everything - sum(heavy.values()) - sum(own for own, _ in ours)
    print(f"  {rest / 1000:7.1f} ms  the rest (the standard library: argparse, pathlib, ...)")
    largest = ", ".join(f"{n} {own / 1000:.1f} ms" for own, n in sorted(ours, reverse=True)[:top])
    print(f"  {everything / 1000:7.1f} ms  all imports; dcglab's largest: {largest}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=15, help="counted rounds of every tool")
    ap.add_argument("--warmup", type=int, default=2, help="uncounted rounds first")
    ap.add_argument("--top", type=int, default=5, help="dcglab modules listed in the profile")
    args = ap.parse_args()
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)  # the children write and use .pyc files
    root = Path(tempfile.mkdtemp(prefix="dcglab-startup-"))
    binary = trec_eval_binary(root / "build")
    for label, (n_queries, n_docs) in WORKLOADS.items():
        folder = root / label.replace(" ", "-")
        folder.mkdir()
        write_workload(folder, n_queries, n_docs)
        run_workload(label, folder, binary, args)
    import_profile(root / "one-query", args.top)


if __name__ == "__main__":
    main()
