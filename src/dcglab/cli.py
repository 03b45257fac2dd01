"""``python -m dcglab QRELS RUN -m ndcg_cut.10``: trec_eval-compatible nDCG from the shell.

Output follows trec_eval (``measure<TAB>qid<TAB>value``, ``all`` for the mean),
so scripts written for trec_eval can read it; ``--format csv|json`` is offered too.
Bad arguments or files print one line to stderr and exit with status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

import pandas as pd

from .batch import evaluate
from .discounts import Discount

CONVENTIONS = """\
conventions (default first; the library that uses each):
  --gain        linear: gain = grade (trec_eval, ranx ndcg, ir_measures, scikit-learn)
                exponential: 2^grade - 1 (ranx ndcg_burges, Burges et al. 2005)
                G=V,G=V,...: an explicit table, e.g. 1=4,2=3,3=2,4=1 for Cranfield
  --discount    log2: 1/log2(i+1) (all of the above); log:B, ln, log10: other bases
                jk:B: Jarvelin-Kekalainen original, no discount before rank B
                rbp:P or geometric:P: P^(i-1); reciprocal: 1/i
  --ideal       qrels-cut: ideal from all judged documents, cut at k
                  (trec_eval ndcg_cut, ranx, ir_measures)
                qrels: ideal from all judged documents, never cut (trec_eval ndcg)
                retrieved: ideal from the retrieved documents only
                  (scikit-learn ndcg_score, torchmetrics)
  --ties        trec: scores compared as float32, ties broken by docno descending
                  (trec_eval, ir_measures); average: gains averaged over tied
                  scores (scikit-learn)
  --zero-idcg   zero: a query with no relevant judged document scores 0 (trec_eval)
                one, skip (left out of the mean), error
  -c            also score qrels queries missing from the run, as 0 (trec_eval -c)
"""


class OneLineParser(argparse.ArgumentParser):
    """argparse that reports a usage error as one line on stderr, exit status 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"dcglab: error: {message}\n")


def parse_gain(text: str) -> str | dict[float, float]:
    """``linear``, ``exponential`` or a table ``1=4,2=3``."""
    if "=" not in text:
        return text
    table: dict[float, float] = {}
    for item in text.split(","):
        grade, sep, value = item.partition("=")
        try:
            table[float(grade)] = float(value)
        except ValueError:
            raise ValueError(f"--gain: expected GRADE=GAIN pairs, got {item!r}") from None
    return table


def build_parser() -> argparse.ArgumentParser:
    p = OneLineParser(
        prog="python -m dcglab",
        description="nDCG of a TREC run against TREC qrels, in trec_eval's output format.",
        epilog=CONVENTIONS,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("qrels", help="qrels file: qid iter docno grade")
    p.add_argument("run", help="run file: qid Q0 docno rank score tag")
    p.add_argument(
        "-m",
        "--measure",
        action="append",
        default=None,
        help="ndcg, ndcg_cut.K[,K...], nDCG@K, dcg or dcg_cut.K (repeatable; default ndcg_cut.10)",
    )
    p.add_argument("--gain", default="linear", help="linear | exponential | G=V,... ")
    p.add_argument("--discount", default="log2", help="log2 | log:B | jk:B | rbp:P | reciprocal")
    p.add_argument("--ideal", default="qrels-cut", choices=["qrels-cut", "qrels", "retrieved"])
    p.add_argument("--ties", default="trec", choices=["trec", "average"])
    p.add_argument("--zero-idcg", default="zero", choices=["zero", "one", "skip", "error"])
    p.add_argument("-q", action="store_true", help="also print each query's values")
    p.add_argument(
        "-c", action="store_true", help="score qrels queries absent from the run as empty rankings"
    )
    p.add_argument("--format", default="trec", choices=["trec", "csv", "json"])
    return p


def trec_order(names: Sequence[str]) -> list[str]:
    """trec_eval's order: ``ndcg`` before ``ndcg_cut_K``, cutoffs ascending, no repeats.

    Examples
    --------
    >>> trec_order(["ndcg_cut_10", "ndcg", "ndcg_cut_5", "ndcg"])
    ['ndcg', 'ndcg_cut_5', 'ndcg_cut_10']
    """

    def key(name: str) -> tuple[bool, str, int]:
        base, _, k = name.partition("_cut_")
        return (base == "dcg", base, int(k) if k else 0)

    return sorted(dict.fromkeys(names), key=key)


def render(per_query: pd.DataFrame, means: pd.Series, fmt: str, per_q: bool) -> str:
    """The results in trec_eval's format, or as CSV / JSON."""
    cols = trec_order(list(per_query.columns))
    if fmt == "json":
        out = {"all": {c: float(means[c]) for c in cols}}
        if per_q:
            out["queries"] = {
                str(q): {c: (None if pd.isna(v) else float(v)) for c, v in row.items()}
                for q, row in per_query[cols].iterrows()
            }
        return json.dumps(out, indent=2) + "\n"
    rows = []
    if per_q:
        rows += [
            (c, str(q), row[c])
            for q, row in per_query[cols].iterrows()
            for c in cols
            if not pd.isna(row[c])
        ]
    rows += [(c, "all", means[c]) for c in cols]
    if fmt == "csv":
        return "measure,qid,value\n" + "".join(f"{m},{q},{v:.17g}\n" for m, q, v in rows)
    return "".join(f"{m:<22}\t{q}\t{v:6.4f}\n" for m, q, v in rows)


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        result = evaluate(
            args.qrels,
            args.run,
            args.measure or ["ndcg_cut.10"],
            gain=parse_gain(args.gain),
            discount=Discount.parse(args.discount),
            ideal=args.ideal,
            ties=args.ties,
            zero_idcg=args.zero_idcg,
            missing="zero" if args.c else "ignore",
        )
    except (ValueError, OSError) as exc:
        print(f"dcglab: error: {exc}", file=sys.stderr)
        return 2
    sys.stdout.write(render(result.per_query, result.mean(), args.format, args.q))
    return 0
