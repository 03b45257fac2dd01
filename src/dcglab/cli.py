"""``python -m dcglab QRELS RUN -m ndcg_cut.10``: trec_eval-compatible evaluation from the shell.

Output follows trec_eval (``measure<TAB>qid<TAB>value``, ``all`` for the mean,
measures in trec_eval's order), so scripts written for trec_eval can read it;
``--format csv|json`` is offered too. trec_eval's options ``-m`` (with its
measure syntax), ``-q``, ``-c``, ``-n``, ``-l``, ``-M`` and ``-J`` mean what they
mean there. Bad arguments or files print one line to stderr and exit with status 2.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Callable, Sequence
from functools import partial
from typing import TypeVar

from .batch import IDEALS, NEGATIVE_GRADES, TIES, BatchResult, evaluate, trec_order
from .discounts import Discount
from .measures import ZERO_POLICIES

T = TypeVar("T")

__all__ = ["build_parser", "gain_option", "main", "render"]

CONVENTIONS = """\
conventions (default first; the library that uses each):
  --gain        linear: gain = grade (trec_eval, ranx ndcg, ir_measures, scikit-learn)
                exponential: 2^grade - 1 (ranx ndcg_burges, Burges et al. 2005)
                G=V,G=V,...: an explicit table, every grade listed,
                  e.g. 1=4,2=3,3=2,4=1 for Cranfield
                (-m ndcg.G=V,... is trec_eval's per-measure table: grades
                  not listed keep their grade as gain)
  --discount    log2: 1/log2(i+1) (all of the above); log:B, ln, log10: other bases
                jk:B: Jarvelin-Kekalainen original, no discount before rank B
                rbp:P or geometric:P: P^(i-1); reciprocal: 1/i
  --ideal       judged: ideal from all judged documents, cut at k
                  (trec_eval ndcg_cut, ranx, ir_measures; alias qrels-cut)
                judged-uncut: ideal from all judged documents, never cut
                  (alias qrels)
                retrieved: ideal from the retrieved documents only
                  (scikit-learn ndcg_score, torchmetrics)
  --ties        trec: scores compared as float32, ties broken by docno descending
                  (trec_eval, ir_measures); average: gains averaged over tied
                  scores (scikit-learn; DCG measures only)
  --zero-idcg   zero: a query with no relevant judged document scores 0 (trec_eval)
                one, skip (left out of the mean), error
  --negative-grades
                unjudged: a negative grade is judged-but-unjudged, gain 0, never
                  relevant, dropped by -J (trec_eval); gain: through --gain
                  like any grade (a table may give it a gain)

measures (trec_eval's names and output; default ndcg_cut.10):
  ndcg, ndcg_cut.K[,K...], ndcg.G=V[,G=V...], dcg, dcg_cut.K, nDCG@K,
  map, recip_rank, P.K[,K...], recall.K[,K...] (P@K, R@K, AP, RR too);
  without .K, ndcg_cut, P and recall use trec_eval's cutoffs 5,10,...,1000,
  and a cutoff such as 23.4 counts as 23, as in trec_eval.

differences from trec_eval 10.0:
  - the default measure is ndcg_cut.10 (trec_eval prints its "official" set);
    only the measures above exist, and no runid / num_q lines are printed
  - grades may be fractional and are used as they are (trec_eval truncates
    them to integers); a non-numeric score or grade is an error, not 0
  - gain tables may not give negative gains (trec_eval allows them)
  - the ideal of ndcg.G=V,... is sorted by exact gain; trec_eval truncates
    fractional gain differences when sorting (e.g. gains 1=3.2,2=3.5,3=3.4)
  - ids must be UTF-8
  - --gain, --discount, --ideal, --ties, --zero-idcg and --format are ours
"""


class OneLineParser(argparse.ArgumentParser):
    """argparse that reports a usage error as one line on stderr, exit status 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"dcglab: error: {message}\n")


def gain_option(text: str) -> str | dict[float, float]:
    """The ``--gain`` text as a gain spec: a name, or a full table ``1=4,2=3``.

    Examples
    --------
    >>> gain_option("exponential"), gain_option("0=0,1=1,2=3")
    ('exponential', {0.0: 0.0, 1.0: 1.0, 2.0: 3.0})
    """
    if "=" not in text:
        return text
    table: dict[float, float] = {}
    for item in text.split(","):
        grade, _, value = item.partition("=")
        try:
            table[float(grade)] = float(value)
        except ValueError:
            raise ValueError(f"--gain: expected GRADE=GAIN pairs, got {item!r}") from None
    return table


def argument_type(
    convert: Callable[[str], T], valid: Callable[[T], bool], expected: str, invalid: str
) -> Callable[[str], T]:
    """An argparse ``type``: ``convert`` the text, then require ``valid``; each failure
    is one line naming what was expected (``expected``, or ``invalid`` when it converts)."""

    def parse(text: str) -> T:
        try:
            value = convert(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {expected}, got {text!r}") from None
        if not valid(value):
            raise argparse.ArgumentTypeError(f"expected {invalid}, got {text!r}")
        return value

    return parse


positive_int = argument_type(int, lambda v: v >= 1, "an integer >= 1", "an integer >= 1")
level = argument_type(float, math.isfinite, "a number", "a finite number")


def build_parser() -> argparse.ArgumentParser:
    p = OneLineParser(
        prog="python -m dcglab",
        description="nDCG and trec_eval's binary measures of a TREC run against TREC qrels, "
        "in trec_eval's output format.",
        epilog=CONVENTIONS,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("qrels", help="qrels file: qid iter docno grade")
    p.add_argument("run", help="run file: qid Q0 docno rank score tag [ignored fields]")
    p.add_argument(
        "-m",
        "--measure",
        action="append",
        default=None,
        help="a measure, trec_eval's syntax (repeatable; default ndcg_cut.10); see below",
    )
    p.add_argument("--gain", default="linear", help="linear | exponential | G=V,... ")
    p.add_argument("--discount", default="log2", help="log2 | log:B | jk:B | rbp:P | reciprocal")
    p.add_argument("--ideal", default="judged", choices=IDEALS)
    p.add_argument("--ties", default="trec", choices=TIES)
    p.add_argument("--zero-idcg", default="zero", choices=ZERO_POLICIES)
    p.add_argument("--negative-grades", default="unjudged", choices=NEGATIVE_GRADES)
    p.add_argument("-q", action="store_true", help="also print each query's values (trec_eval -q)")
    p.add_argument(
        "-c",
        action="store_true",
        help="score qrels queries absent from the run as 0 and average over them (trec_eval -c)",
    )
    p.add_argument(
        "-n", "--nosummary", action="store_true", help="print no summary (all) lines (trec_eval -n)"
    )
    p.add_argument(
        "-l",
        "--level_for_rel",
        type=level,
        default=1,
        metavar="L",
        help="the grade from which a document is relevant for map, recip_rank, P and "
        "recall (trec_eval -l; default 1); nDCG ignores it",
    )
    p.add_argument(
        "-M",
        type=positive_int,
        default=None,
        metavar="N",
        help="evaluate only each query's top N documents (trec_eval -M)",
    )
    p.add_argument(
        "-J",
        "--Judged_docs_only",
        action="store_true",
        help="drop unjudged documents before ranking: the condensed list (trec_eval -J)",
    )
    p.add_argument("--format", default="trec", choices=["trec", "csv", "json"])
    p.add_argument(
        "--engine",
        default="python",
        choices=["python", "duckdb", "spark"],
        help="where to compute: this process (default, fastest), DuckDB, or Spark (the active "
        "session or local[*]; needs Java); the engines compute ndcg, ndcg_cut, dcg and dcg_cut",
    )
    return p


def render(result: BatchResult, means: dict[str, float] | None, fmt: str, per_q: bool) -> str:
    """The results in trec_eval's format (each query's lines, then ``all``), or CSV / JSON.

    ``means`` is ``None`` for no summary (trec_eval ``-n``). A query skipped
    under ``--zero-idcg skip`` has no line (JSON: ``null``).
    """
    cols = trec_order(list(result.values))
    table = [result.values[c].tolist() for c in cols]
    if fmt == "json":
        out: dict[str, object] = {}
        if means is not None:
            out["all"] = {c: means[c] for c in cols}
        if per_q:
            out["queries"] = {
                str(q): {c: (None if math.isnan(v[i]) else v[i]) for c, v in zip(cols, table)}
                for i, q in enumerate(result.qids)
            }
        return json.dumps(out, indent=2) + "\n"
    rows = []
    if per_q:
        rows += [
            (c, str(q), v[i])
            for i, q in enumerate(result.qids)
            for c, v in zip(cols, table)
            if not math.isnan(v[i])
        ]
    if means is not None:
        rows += [(c, "all", means[c]) for c in cols]
    if fmt == "csv":
        return "measure,qid,value\n" + "".join(f"{m},{q},{v:.17g}\n" for m, q, v in rows)
    return "".join(f"{m:<22}\t{q}\t{v:6.4f}\n" for m, q, v in rows)


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        compute = evaluate
        if args.engine != "python":
            from .engines import evaluate_files

            compute = partial(evaluate_files, engine=args.engine)
        result = compute(
            args.qrels,
            args.run,
            args.measure or ["ndcg_cut.10"],
            gain=gain_option(args.gain),
            discount=Discount.parse(args.discount),
            ideal=args.ideal,
            ties=args.ties,
            zero_idcg=args.zero_idcg,
            missing="zero" if args.c else "ignore",
            negative_grades=args.negative_grades,
            relevance_level=args.level_for_rel,
            max_docs=args.M,
            judged_only=args.Judged_docs_only,
        )
        means = None if args.nosummary else result.means()
    except (ValueError, OSError) as exc:
        print(f"dcglab: error: {exc}", file=sys.stderr)
        return 2
    sys.stdout.write(render(result, means, args.format, args.q))
    return 0
