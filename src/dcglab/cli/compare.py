"""``dcglab compare QRELS RUN1 RUN2 ... -m ndcg_cut.10``: a system comparison from the shell.

Prints :func:`dcglab.comparison.compare` as a terminal table (default), Markdown,
LaTeX, CSV or JSON. The evaluation options mean what they mean for
``dcglab QRELS RUN`` and have the same defaults (trec_eval's conventions). Bad
arguments or files print one line to stderr and exit with status 2.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence

from .comparison import FORMATS, MISSING

__all__ = ["build_parser", "main"]

EPILOG = """\
missing queries (--missing, default zero):
  zero       every qrels query counts; a run with nothing for it scores 0 (trec_eval -c)
  intersect  only the queries every run scores (the dropped ones are counted)
  error      refuse runs whose queries differ

statistics per measure and pair of runs A, B over the n shared queries:
  mean A - B with Student's t and percentile bootstrap confidence intervals;
  d_z = mean difference / sd of the differences (Cohen); the paired t-test and
  the paired randomization test (sign flips; exact for n <= 20), Holm-adjusted
  over the pairs of the measure; the randomised Tukey HSD over all runs.

example:
  dcglab compare qrels.txt bm25.run tfidf.run -m ndcg_cut.10 -m map --format latex
"""


def build_parser() -> argparse.ArgumentParser:
    from .batch.cli import OneLineParser, positive_int
    from .options import IDEALS, NEGATIVE_GRADES, TIES, ZERO_POLICIES

    defaults = _evaluation_defaults()

    class Parser(OneLineParser):
        def error(self, message: str) -> None:  # type: ignore[override]
            self.exit(2, f"{self.prog}: error: {message}\n")

    p = Parser(
        prog="dcglab compare",
        description="Compare runs on the same qrels: means, paired differences with "
        "confidence intervals, effect sizes and significance tests.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("qrels", help="qrels file: qid iter docno grade")
    p.add_argument("runs", nargs="+", metavar="RUN", help="two or more run files")
    p.add_argument("-m", "--measure", action="append", default=None,
                   help="a measure (repeatable; default ndcg_cut.10)")  # fmt: skip
    p.add_argument("--missing", default="zero", choices=MISSING, help="see below (default zero)")
    p.add_argument("--format", default="text", choices=FORMATS, help="output (default text)")
    p.add_argument("--confidence", type=_confidence, default=0.95,
                   help="coverage of the confidence intervals (default 0.95)")  # fmt: skip
    p.add_argument("--resamples", type=positive_int, default=10_000,
                   help="bootstrap, randomization and Tukey resamples (default 10000)")  # fmt: skip
    p.add_argument("--seed", type=int, default=0, help="seed of every random draw (default 0)")
    p.add_argument("--gain", default=defaults["gain"], help="as for dcglab QRELS RUN")
    p.add_argument("--discount", default=defaults["discount"], help="as for dcglab QRELS RUN")
    p.add_argument("--ideal", default=defaults["ideal"], choices=IDEALS)
    p.add_argument("--ties", default=defaults["ties"], choices=TIES)
    p.add_argument("--zero-idcg", default=defaults["zero_idcg"], choices=ZERO_POLICIES)
    p.add_argument("--negative-grades", default=defaults["negative_grades"],
                   choices=NEGATIVE_GRADES)  # fmt: skip
    return p


def _evaluation_defaults() -> dict[str, object]:
    """The defaults of ``dcglab QRELS RUN``, so both commands share them."""
    from .batch.cli import build_parser as evaluation_parser

    return vars(evaluation_parser().parse_args(["QRELS", "RUN"]))


def _confidence(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"expected a number between 0 and 1, got {text!r}")
    return value


def main(argv: Sequence[str] | None = None) -> int:
    from .comparison import compare
    from .discounts import Discount
    from .options import gain_text

    args = build_parser().parse_args(argv)
    if len(args.runs) < 2:
        print("dcglab compare: error: need at least two run files", file=sys.stderr)
        return 2
    try:
        result = compare(
            args.qrels,
            args.runs,
            args.measure or ["ndcg_cut.10"],
            missing=args.missing,
            confidence=args.confidence,
            n_resamples=args.resamples,
            seed=args.seed,
            gain=gain_text(args.gain),
            discount=Discount.parse(args.discount),
            ideal=args.ideal,
            ties=args.ties,
            zero_idcg=args.zero_idcg,
            negative_grades=args.negative_grades,
        )
    except (ValueError, OSError) as exc:
        message = " ".join(str(exc).split())
        message = re.sub(r"missing='(\w+)'", r"--missing \1", message)  # the CLI's spelling
        print(f"dcglab compare: error: {message}", file=sys.stderr)
        return 2
    sys.stdout.write(result.format(args.format) + "\n")
    return 0
