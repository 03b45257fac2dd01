"""Time the batch evaluator, DuckDB and Spark (local) on 10M and 100M run rows: rows per
second, peak memory, and whether each path's values equal the batch path's.

The seeded workload is written as Parquet (outside the repository, by default
under /tmp): each query retrieves 1,000 documents with heavily tied scores, and
has 100 judgments, half of them on retrieved documents. Each path runs in its own
process; its peak memory is the largest resident size of that process and its
children (Spark's JVM and Python workers), sampled every 0.2 s. The load average
(1 minute) is printed before and after each path: on a shared machine it says
how much of the machine the path had. Run it under ``nice``:

    nice -n 15 .venv/bin/python benchmarks/engines.py --rows 10M --rows 100M

``--rows N[:path,path]`` picks the sizes and, optionally, the paths for that size
(``batch``, ``duckdb``, ``spark``). The batch path holds everything in memory
(about 3.5 GB per 10M rows); above ``--batch-chunk`` rows (default 10M) it
evaluates the queries in chunks of that many rows, one after the other in one
process, and joins the per-query rows (each query's values depend on its own rows
only; the summary is computed once over all queries). DuckDB runs with a memory
limit and a spill folder, so the 100M-row run works out of core. Spark runs
``local[2]`` with one bucket of queries per million rows.
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
    spill = str(folder / "spill")
    con = duckdb.connect(config={"memory_limit": "4GB", "temp_directory": spill})
    con.sql("SET enable_progress_bar = false")
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


def _batch(qrels: str, run: str, n_rows: int, chunk: int):
    """The batch path, in chunks of about ``chunk`` run rows (whole queries); the
    seconds spent reading Parquet into pandas."""
    import duckdb
    import numpy as np

    from dcglab.evaluation.batch import evaluate
    from dcglab.evaluation.batch.result import BatchResult

    n_queries = n_rows // DOCS_PER_QUERY
    per_chunk = max(1, chunk // DOCS_PER_QUERY)
    parts, t_read = [], 0.0
    for first in range(0, n_queries, per_chunk):
        t0 = time.perf_counter()
        where = f"WHERE CAST(substr(qid, 2) AS BIGINT) BETWEEN {first} AND {first + per_chunk - 1}"
        where = where if per_chunk < n_queries else ""
        q = duckdb.sql(f"SELECT * FROM read_parquet('{qrels}') {where}").df()
        r = duckdb.sql(f"SELECT * FROM read_parquet('{run}') {where}").df()
        t_read += time.perf_counter() - t0
        parts.append(evaluate(q, r, MEASURES, zero_idcg="zero"))
        del q, r
    if len(parts) == 1:
        return parts[0], t_read
    qids = np.concatenate([p.qids for p in parts])
    order = sorted(range(len(qids)), key=lambda i: str(qids[i]).encode())
    values = {n: np.concatenate([p.values[n] for p in parts])[order] for n in parts[0].values}
    return BatchResult(qids[order], values, parts[0].measures), t_read


def worker(path: str, qrels: str, run: str, out: str, spill: str, n_rows: str, chunk: str) -> None:
    """One timed evaluation in this process; per-query values saved for comparison."""
    t0 = time.perf_counter()
    if path == "batch":
        res, t_read = _batch(qrels, run, int(n_rows), int(chunk))
    elif path == "duckdb":
        from dcglab.evaluation.engines import evaluate

        t_read = 0.0
        config = {
            "memory_limit": "4GB",
            "temp_directory": spill,
            "threads": 2,
            "preserve_insertion_order": False,
        }
        res = evaluate(qrels, run, MEASURES, zero_idcg="zero", config=config)
    else:
        from dcglab.evaluation.engines import evaluate, spark_session

        buckets = max(16, int(n_rows) // 1_000_000)
        spark = spark_session("local[2]", memory="4g", partitions=buckets)
        spark.sparkContext.setLogLevel("ERROR")
        t_read = time.perf_counter() - t0  # session start-up
        res = evaluate(qrels, run, MEASURES, engine="spark", spark=spark, zero_idcg="zero")
    total = time.perf_counter() - t0
    means = res.means()
    res.per_query.to_csv(out + ".csv")
    with open(out + ".json", "w") as fh:
        info = {"total": total, "first": t_read, "queries": len(res.per_query)}
        json.dump({**info, "means": means}, fh)


def measure(path: str, qrels: Path, run: Path, folder: Path, n_rows: int, chunk: int) -> dict:
    """Run one path in a child process and sample its memory (tree RSS) until it ends;
    the load average (1 minute) before and after."""
    import psutil

    out = str(folder / f"{path}_{run.stem}")
    cmd = [sys.executable, __file__, "--worker", path, str(qrels), str(run), out]
    cmd += [str(folder / "spill"), str(n_rows), str(chunk)]
    load = os.getloadavg()[0]
    child = subprocess.Popen(cmd)
    proc, peak = psutil.Process(child.pid), 0
    while child.poll() is None:
        try:
            tree = [proc, *proc.children(recursive=True)]
            peak = max(peak, sum(p.memory_info().rss for p in tree if p.is_running()))
        except psutil.Error:
            pass
        time.sleep(0.2)
    load = f"{load:.1f}-{os.getloadavg()[0]:.1f}"
    if child.returncode != 0:
        return {"path": path, "error": f"exit status {child.returncode}", "load": load}
    with open(out + ".json") as fh:
        info = json.load(fh)
    return {"path": path, "peak_gb": peak / 1e9, "out": out, "load": load, **info}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", action="append", type=rows_arg, help="e.g. 10M or 100M:duckdb")
    parser.add_argument("--folder", default="/tmp/dcglab_engines_bench")
    parser.add_argument("--batch-chunk", type=int, default=10_000_000)
    parser.add_argument("--worker", nargs=7, help=argparse.SUPPRESS)
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
        print(
            f"{'path':<8}{'total s':>10}{'rows/s':>12}{'of which':>37}{'peak GB':>10}"
            f"{'load':>11}  values"
        )
        results = [measure(p, qrels, run, folder, n_rows, args.batch_chunk) for p in paths]
        ref = None
        for r in results:
            if "error" in r:
                print(f"{r['path']:<8}  failed: {r['error']} (load {r['load']})")
                continue
            values = pd.read_csv(r["out"] + ".csv", index_col=0, dtype={"qid": str})
            if ref is None:
                ref, ref_means, agree = values, r["means"], f"reference ({r['path']})"
            else:
                a, b = values.to_numpy(), ref.reindex(values.index).to_numpy()
                same = values.index.equals(ref.index) and np.array_equal(a, b, equal_nan=True)
                same = same and r["means"] == ref_means
                diff = np.nanmax(np.abs(a - b))
                agree = (
                    f"{'equal to' if same else f'max |diff| {diff:.1e} vs'} {results[0]['path']}"
                )
            first = {"batch": "Parquet to pandas", "spark": "Spark start-up"}.get(r["path"])
            if r["path"] == "batch" and n_rows > args.batch_chunk:
                first += f", {-(-n_rows // args.batch_chunk)} chunks"
            note = f"{r['first']:.1f} s {first}" if first else ""
            rate = f"{n_rows / r['total']:,.0f}"
            print(
                f"{r['path']:<8}{r['total']:>10.1f}{rate:>12}{note:>37}{r['peak_gb']:>10.2f}"
                f"{r['load']:>11}  {agree}"
            )
            print(f"{'':<8}mean ndcg_cut_10 {r['means']['ndcg_cut_10']:.6f}, {len(values):,} q")


if __name__ == "__main__":
    main()
