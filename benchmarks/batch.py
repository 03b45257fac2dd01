"""Benchmark dcglab's batch evaluator against pytrec_eval, ranx, ir_measures and scikit-learn.

Run: .venv/bin/python benchmarks/batch.py [--queries 10000] [--docs 1000]

A seeded synthetic workload: Q queries × D retrieved documents with scores rounded
to 4 decimals (so some exact ties), about 100 judged documents per query graded
0-3, half of them retrieved. Every library gets the same data as pandas
DataFrames; "prepare" is the time to turn them into the library's input
structures, "compute" the time of the evaluation call itself. Ratios are the
peer's time over dcglab's (above 1: dcglab is faster). Values are checked
against dcglab under the convention each library follows.

scikit-learn needs dense matrices and is timed on a smaller workload (its
convention: ideal from the retrieved items, tied scores averaged).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np
import pandas as pd

from dcglab.evaluation.batch import compute, prepare


def workload(n_queries: int, n_docs: int, seed: int = 20261130, pool: int = 1_000_000):
    """Run and qrels DataFrames (qid, docno, score / grade) over a collection of
    ``2 * pool`` documents (judged-but-unretrieved ones come from the second half)."""
    rng = np.random.default_rng(seed)
    qids = np.array([f"q{i}" for i in range(n_queries)], dtype=object)
    # distinct documents per query: a random offset into a shuffled pool
    perm = rng.permutation(pool)
    starts = rng.integers(0, pool - n_docs, n_queries)
    docs = perm[starts[:, None] + np.arange(n_docs)]
    names = np.array([f"doc{i:07d}" for i in range(2 * pool)], dtype=object)  # 10 bytes
    run = pd.DataFrame(
        {
            "qid": np.repeat(qids, n_docs),
            "docno": names[docs.ravel()],
            "score": np.round(rng.normal(size=n_queries * n_docs), 4),
        }
    )
    judged = np.concatenate(
        [docs[:, : n_docs // 20], pool + rng.integers(0, pool, (n_queries, n_docs // 20))], axis=1
    )
    qrels = pd.DataFrame(
        {
            "qid": np.repeat(qids, judged.shape[1]),
            "docno": names[judged.ravel()],
            "grade": rng.integers(0, 4, judged.size),
        }
    ).drop_duplicates(["qid", "docno"])
    return run, qrels


def timed(f: Callable[[], object]) -> tuple[object, float]:
    t = time.perf_counter()
    out = f()
    return out, time.perf_counter() - t


def to_dicts(run: pd.DataFrame, qrels: pd.DataFrame):
    r: dict[str, dict[str, float]] = {}
    for q, d, s in zip(run["qid"], run["docno"], run["score"]):
        r.setdefault(q, {})[d] = s
    j: dict[str, dict[str, int]] = {}
    for q, d, g in zip(qrels["qid"], qrels["docno"], qrels["grade"]):
        j.setdefault(q, {})[d] = int(g)
    return r, j


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--queries", type=int, default=10_000)
    ap.add_argument("--docs", type=int, default=1_000)
    ap.add_argument("--sklearn-queries", type=int, default=1_000)
    args = ap.parse_args()

    run, qrels = workload(args.queries, args.docs)
    print(
        f"workload: {args.queries:,} queries x {args.docs:,} docs = {len(run):,} run rows, "
        f"{len(qrels):,} judgments"
    )
    rows = []

    prep, t_prep = timed(lambda: prepare(qrels, run))
    ours = {}
    for measure in ("ndcg_cut.10", "ndcg"):
        res, t = timed(lambda m=measure: compute(prep, [m], zero_idcg="zero"))
        ours[measure] = res.per_query.iloc[:, 0]
        rows.append(("dcglab", measure, t_prep, t, "reference"))

    def agree(name, measure, values: dict[str, float], tol=1e-12):
        mine = ours[measure]
        diff = np.abs(mine - pd.Series(values).reindex(mine.index)).max()
        return f"max |diff| {diff:.1e}" + (" ok" if diff <= tol else " DIFFERENT")

    try:
        import pytrec_eval

        (r, j), t_prep = timed(lambda: to_dicts(run, qrels))
        for measure, name in (("ndcg_cut.10", "ndcg_cut_10"), ("ndcg", "ndcg")):
            ev, t_build = timed(lambda n=name: pytrec_eval.RelevanceEvaluator(j, {n}))
            res, t = timed(lambda ev=ev: ev.evaluate(r))
            vals = {q: v[name] for q, v in res.items()}
            rows.append(("pytrec_eval", measure, t_prep + t_build, t, agree("", measure, vals)))
    except ImportError:
        print("pytrec_eval not installed")

    try:
        import ranx

        def ranx_prep():
            ids = {"qid": object, "docno": object}  # ranx requires object columns
            return (
                ranx.Qrels.from_df(
                    qrels.astype({**ids, "grade": int}),
                    q_id_col="qid",
                    doc_id_col="docno",
                    score_col="grade",
                ),
                ranx.Run.from_df(
                    run.astype(ids), q_id_col="qid", doc_id_col="docno", score_col="score"
                ),
            )

        (rq, rr), t_prep = timed(ranx_prep)
        ranx.evaluate(rq, rr, "ndcg@10")  # compile numba outside the timing
        for measure, name in (("ndcg_cut.10", "ndcg@10"), ("ndcg", "ndcg")):
            res, t = timed(lambda n=name: ranx.evaluate(rq, rr, n, return_mean=False))
            vals = dict(zip(rr.keys(), res))
            diff = np.abs(ours[measure] - pd.Series(vals).reindex(ours[measure].index))
            note = (
                f"{int((diff > 1e-12).sum()):,} of {len(diff):,} queries differ "
                "(ranx breaks score ties differently)"
            )
            rows.append(("ranx", measure, t_prep, t, note))
    except ImportError:
        print("ranx not installed")

    try:
        import ir_measures

        irq = qrels.rename(columns={"qid": "query_id", "docno": "doc_id", "grade": "relevance"})
        irr = run.rename(columns={"qid": "query_id", "docno": "doc_id"})
        for measure, m in (("ndcg_cut.10", ir_measures.nDCG @ 10), ("ndcg", ir_measures.nDCG)):
            res, t = timed(lambda m=m: list(ir_measures.iter_calc([m], irq, irr)))
            vals = {x.query_id: x.value for x in res}
            rows.append(("ir_measures", measure, 0.0, t, agree("", measure, vals)))
    except ImportError:
        print("ir_measures not installed")

    print(
        f"\n{'library':12} {'measure':12} {'prepare s':>10} {'compute s':>10} {'total s':>9} "
        f"{'x dcglab (compute)':>19} {'x dcglab (total)':>17}  values"
    )
    base = {m: (p, c) for lib, m, p, c, _ in rows if lib == "dcglab"}
    for lib, m, p, c, note in rows:
        bp, bc = base[m]
        print(
            f"{lib:12} {m:12} {p:10.3f} {c:10.3f} {p + c:9.3f} {c / bc:19.1f} "
            f"{(p + c) / (bp + bc):17.1f}  {note}"
        )

    try:
        from sklearn.metrics import ndcg_score

        small = run[run["qid"].isin(set(run["qid"].unique()[: args.sklearn_queries]))]
        sq = qrels[qrels["qid"].isin(set(small["qid"]))]
        p_small, t_prep = timed(lambda: prepare(sq, small))
        ours_s, t_ours = timed(
            lambda: compute(
                p_small, ["ndcg_cut.10"], ideal="retrieved", ties="average", zero_idcg="zero"
            )
        )

        def sk_prep():
            grades = small.merge(sq, on=["qid", "docno"], how="left")["grade"].fillna(0)
            return (
                grades.to_numpy().reshape(-1, args.docs),
                small["score"].to_numpy().reshape(-1, args.docs),
            )

        (yt, ys), t_skprep = timed(sk_prep)
        per, t_sk = timed(
            lambda: [ndcg_score(yt[i : i + 1], ys[i : i + 1], k=10) for i in range(len(yt))]
        )
        qorder = small["qid"].unique()
        diff = np.abs(ours_s.per_query["ndcg_cut_10"].reindex(qorder).to_numpy() - np.array(per))
        print(f"\nscikit-learn on {len(yt):,} queries (ideal from retrieved, ties averaged):")
        print(f"  dcglab  prepare {t_prep:.3f} s, compute {t_ours:.3f} s")
        print(
            f"  sklearn prepare {t_skprep:.3f} s, compute {t_sk:.3f} s "
            f"(x{t_sk / t_ours:.1f} compute, x{(t_skprep + t_sk) / (t_prep + t_ours):.1f} total)"
            f"; max |diff| {diff.max():.1e}"
        )
    except ImportError:
        print("scikit-learn not installed")


if __name__ == "__main__":
    main()
