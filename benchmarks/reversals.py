"""Time the reversal count (dcglab.formulas.reversals) for judged multisets of up to 9 documents.

Run: .venv/bin/python benchmarks/reversals.py

For each multiset it prints the number of distinguishable orderings and pairs,
the reversed pairs between linear and exponential gain at nDCG@n, and the time of
each step. The 9-distinct-grade case has 362,880 orderings and about 6.6e10
pairs: checking pairs one by one would be hopeless; the merge-sort count is not.
"""

import time

from dcglab.formulas.reversals import discordant_pairs, ndcg_of_orderings, orderings

CASES = {
    "article's six documents": [3, 2, 3, 0, 1, 2],
    "nine documents, grades 0-3": [3, 3, 2, 2, 1, 1, 0, 0, 0],
    "nine distinct grades": list(range(9)),
}


def main() -> None:
    print(
        f"{'multiset':30} {'orderings':>10} {'pairs':>14} {'reversed':>13} "
        f"{'orderings s':>11} {'scores s':>9} {'count s':>8}"
    )
    for name, judged in CASES.items():
        t0 = time.perf_counter()
        rows = orderings(judged)
        t1 = time.perf_counter()
        a = ndcg_of_orderings(rows, len(judged), "linear")
        b = ndcg_of_orderings(rows, len(judged), "exponential")
        t2 = time.perf_counter()
        reversed_ = discordant_pairs(a, b)
        t3 = time.perf_counter()
        n = len(rows)
        print(
            f"{name:30} {n:>10,} {n * (n - 1) // 2:>14,} {reversed_:>13,} "
            f"{t1 - t0:>11.3f} {t2 - t1:>9.3f} {t3 - t2:>8.3f}"
        )


if __name__ == "__main__":
    main()
