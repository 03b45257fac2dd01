"""Time the batch evaluator, DuckDB and Spark (local) on 10M and 100M run rows: rows per
second, peak memory, and whether each path's values equal the first path's.

The seeded workload is written as Parquet (outside the repository, by default
under /tmp): each query retrieves 1,000 documents with heavily tied scores, and
has 100 judgments, half of them on retrieved documents. Each path runs in its own
process; its peak memory is the largest resident size of that process and its
children (Spark's JVM), sampled every 0.2 s. Run it under ``nice``:

    nice -n 15 .venv/bin/python benchmarks/engines.py --rows 10M --rows 100M:duckdb

``--rows N[:path,path]`` picks the sizes and, optionally, the paths for that size
(``batch``, ``duckdb``, ``spark``). DuckDB runs with a memory limit and a spill
folder, so the 100M-row run works out of core.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

DOCS_PER_QUERY = 1_000
JUDGED_PER_QUERY = 100
MEASURES = ["official", "ndcg_cut.10", "ndcg", "map_cut.10", "success.1,10"]
"""trec_eval's official set and more: every family the engines compute but Judged."""
PATHS = ("batch", "duckdb", "spark")


def rows_arg(text: str) -> tuple[int, tuple[str, ...]]:
    size, _, paths = text.partition(":")
    scale = {"M": 1_000_000, "K": 1_000}.get(size[-1:].upper(), 1)
    n = int(float(size[:-1]) * scale) if scale > 1 else int(size)
    chosen = tuple(paths.split(",")) if paths else PATHS
    bad = set(chosen) - set(PATHS)
    if bad:
        raise argparse.ArgumentTypeError(f"--rows: unknown path(s) {sorted(bad)}")
    return n, chosen


def generate(folder: Path, n_rows: int) -> tuple[Path, Path]:
    """Seeded run and qrels as Parquet (DuckDB writes them; nothing passes through Python).

    Scores are multiples of 0.01 in [0, 10), so about 10 documents share each
    score within a query; docnos are unique within a query.
    """
    import duckdb

    n_queries = n_rows // DOCS_PER_QUERY
    run = folder / f"run_{n_rows}.parquet"
    qrels = folder / f"qrels_{n_rows}.parquet"
    if run.exists() and qrels.exists():
        return qrels, run
    con = duckdb.connect(config={"memory_limit": "4GB", "temp_directory": str(folder / "spill")})
    docno = f"'d' || CAST((j * 7 + q) % {DOCS_PER_QUERY} + (q % 50) * {DOCS_PER_QUERY} AS VARCHAR)"
    con.sql(
        f"""COPY (
          SELECT 'q' || CAST(q AS VARCHAR) AS qid, {docno} AS docno,
                 CAST(hash(q, j, 11) % 1000 AS DOUBLE) / 100 AS score
          FROM (SELECT i // {DOCS_PER_QUERY} AS q, i % {DOCS_PER_QUERY} AS j
                FROM range({n_queries * DOCS_PER_QUERY}) AS t(i))
        ) TO '{run}' (FORMAT parquet, ROW_GROUP_SIZE 1000000)"""
    )
    # Half the judgments on retrieved documents (ranks j = 13 k mod 1000), half on others.
    half = JUDGED_PER_QUERY // 2
    retrieved = f"'d' || CAST(((k * 13 % {DOCS_PER_QUERY}) * 7 + q) % {DOCS_PER_QUERY}"
    retrieved += f" + (q % 50) * {DOCS_PER_QUERY} AS VARCHAR)"
    con.sql(
        f"""COPY (
          SELECT 'q' || CAST(q AS VARCHAR) AS qid,
                 CASE WHEN k < {half} THEN {retrieved} ELSE 'u' || CAST(k AS VARCHAR) END
                   AS docno,
                 CAST(hash(q, k, 5) % 4 AS INTEGER) AS grade
          FROM (SELECT i // {JUDGED_PER_QUERY} AS q, i % {JUDGED_PER_QUERY} AS k
                FROM range({n_queries * JUDGED_PER_QUERY}) AS t(i))
        ) TO '{qrels}' (FORMAT parquet)"""
    )
    con.close()
    return qrels, run


def worker(path: str, qrels: str, run: str, out: str, spill: str) -> None:
    """One timed evaluation in this process; per-query values saved for comparison."""
    t0 = time.perf_counter()
    if path == "batch":
        import duckdb

        from dcglab.evaluation.batch import evaluate

        q = duckdb.sql(f"SELECT * FROM read_parquet('{qrels}')").df()
        r = duckdb.sql(f"SELECT * FROM read_parquet('{run}')").df()
        t_read = time.perf_counter() - t0
        res = evaluate(q, r, MEASURES, zero_idcg="zero")
    elif path == "duckdb":
        from dcglab.evaluation.engines import evaluate

        t_read = 0.0
        config = {"memory_limit": "4GB", "temp_directory": spill, "threads": 2}
        res = evaluate(qrels, run, MEASURES, zero_idcg="zero", config=config)
    else:
        from dcglab.evaluation.engines import evaluate, spark_session

        spark = spark_session("local[2]", memory="8g", partitions=16)
        spark.sparkContext.setLogLevel("ERROR")
        t_read = time.perf_counter() - t0  # session start-up
        res = evaluate(qrels, run, MEASURES, engine="spark", spark=spark, zero_idcg="zero")
    total = time.perf_counter() - t0
    res.per_query.to_csv(out + ".csv")
    with open(out + ".json", "w") as fh:
        json.dump({"total": total, "first": t_read, "queries": len(res.per_query)}, fh)


def measure(path: str, qrels: Path, run: Path, folder: Path) -> dict:
    """Run one path in a child process and sample its memory (tree RSS) until it ends."""
    import psutil

    out = str(folder / f"{path}_{run.stem}")
    cmd = [sys.executable, __file__, "--worker", path, str(qrels), str(run), out]
    cmd.append(str(folder / "spill"))
    child = subprocess.Popen(cmd)
    proc, peak = psutil.Process(child.pid), 0
    while child.poll() is None:
        try:
            tree = [proc, *proc.children(recursive=True)]
            peak = max(peak, sum(p.memory_info().rss for p in tree if p.is_running()))
        except psutil.Error:
            pass
        time.sleep(0.2)
    if child.returncode != 0:
        return {"path": path, "error": f"exit status {child.returncode}"}
    with open(out + ".json") as fh:
        info = json.load(fh)
    return {"path": path, "peak_gb": peak / 1e9, "out": out, **info}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", action="append", type=rows_arg, help="e.g. 10M or 100M:duckdb")
    parser.add_argument("--folder", default="/tmp/dcglab_engines_bench")
    parser.add_argument("--worker", nargs=5, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        worker(*args.worker)
        return
    import numpy as np
    import pandas as pd

    folder = Path(args.folder)
    (folder / "spill").mkdir(parents=True, exist_ok=True)
    print(f"machine: {os.cpu_count()} cores; measures {', '.join(MEASURES)}; zero_idcg=zero")
    for n_rows, paths in args.rows or [rows_arg("10M")]:
        t0 = time.perf_counter()
        qrels, run = generate(folder, n_rows)
        gen = time.perf_counter() - t0
        print(
            f"\n{n_rows:,} run rows ({n_rows // DOCS_PER_QUERY:,} queries x {DOCS_PER_QUERY:,}),"
            f" {n_rows // DOCS_PER_QUERY * JUDGED_PER_QUERY:,} judgments;"
            f" Parquet {run.stat().st_size / 1e6:,.0f} MB + {qrels.stat().st_size / 1e6:,.0f} MB"
            f" (written in {gen:.1f} s)"
        )
        print(f"{'path':<8}{'total s':>10}{'rows/s':>12}{'of which':>26}{'peak GB':>10}  values")
        results = [measure(p, qrels, run, folder) for p in paths]
        ref = None
        for r in results:
            if "error" in r:
                print(f"{r['path']:<8}  failed: {r['error']}")
                continue
            values = pd.read_csv(r["out"] + ".csv", index_col=0, dtype={"qid": str})
            if ref is None:
                ref, agree = values, f"reference ({r['path']})"
            else:
                a, b = values.to_numpy(), ref.reindex(values.index).to_numpy()
                same = np.array_equal(a, b, equal_nan=True)
                diff = np.nanmax(np.abs(a - b))
                agree = (
                    f"{'equal to' if same else f'max |diff| {diff:.1e} vs'} {results[0]['path']}"
                )
            first = {"batch": "Parquet to pandas", "spark": "Spark start-up"}.get(r["path"])
            note = f"{r['first']:.1f} s {first}" if first else ""
            rate = f"{n_rows / r['total']:,.0f}"
            print(
                f"{r['path']:<8}{r['total']:>10.1f}{rate:>12}{note:>26}{r['peak_gb']:>10.2f}"
                f"  {agree}"
            )
            print(f"{'':<8}mean ndcg_cut_10 {values['ndcg_cut_10'].mean():.6f}, {len(values):,} q")


if __name__ == "__main__":
    main()
