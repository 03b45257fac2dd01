"""``dcglab compare QRELS RUN1 RUN2 ... -m ndcg_cut.10``: a system comparison from the shell.

Prints :func:`dcglab.statistics.comparison.compare` as a terminal table (default), Markdown,
LaTeX, CSV or JSON. Runs are named by their file names or by ``--name``;
``--baseline`` compares each run with one of them. The evaluation options mean
what they mean for ``dcglab QRELS RUN`` and have the same defaults (trec_eval's
conventions). Bad arguments or files print one line to stderr and exit with status 2.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Sequence

from dcglab.statistics.comparison import FORMATS, MISSING, TESTS

__all__ = ["build_parser", "main"]

EPILOG = """\
missing queries (--missing, default zero):
  zero       every qrels query counts; a run with nothing for it scores 0 (trec_eval -c)
  intersect  only the queries every run scores (the dropped ones are counted)
  error      refuse runs whose queries differ

statistics per measure and pair of runs A, B over the n shared queries
(every pair, or with --baseline each other run A against the baseline B):
  mean A - B with Student's t and percentile bootstrap confidence intervals;
  d_z = mean difference / sd of the differences (Cohen); the paired t-test and
  the paired randomization test (sign flips; exact for n <= 20), Holm-adjusted
  over the pairs of the measure; the randomised Tukey HSD over all runs.
  Two runs that tie on every query have no t statistic and no d_z: the tables
  show "—" there, with a note; the other pairs and measures are unaffected.

tables: a dagger (†) marks a difference (with --baseline, also a run's mean)
  whose --test p-value is at most --alpha; markdown and latex set the highest
  mean of each measure in bold; p-values below 0.001 print as "< 0.001".

examples:
  dcglab compare qrels.txt bm25.run tfidf.run -m ndcg_cut.10 -m map --format latex
  dcglab compare qrels.txt bm25.run rm3.run t5.run --name BM25 --name RM3 --name T5 \\
      --baseline BM25 -m ndcg_cut.10 -m map --format markdown
"""


def build_parser() -> argparse.ArgumentParser:
    from dcglab.cli.common import OneLineParser, positive_int
    from dcglab.evaluation.options import IDEALS, NEGATIVE_GRADES, TIES, ZERO_POLICIES

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
    p.add_argument("--name", action="append", default=None,
                   help="a run's name in the tables, once per run in the order of the runs "
                   "(default: the file names)")  # fmt: skip
    p.add_argument("--baseline", default=None, metavar="RUN",
                   help="compare each other run with this one (a --name, or a run file as "
                   "given) instead of every pair of runs")  # fmt: skip
    p.add_argument("--missing", default="zero", choices=MISSING, help="see below (default zero)")
    p.add_argument("--format", default="text", choices=FORMATS, help="output (default text)")
    p.add_argument("--test", default="t", choices=TESTS,
                   help="the test whose corrected p-value the dagger marks: t (paired t-test, "
                   "Holm), randomization (Holm) or tukey (default t)")  # fmt: skip
    p.add_argument("--alpha", type=_confidence, default=0.05,
                   help="the significance level the dagger marks (default 0.05)")  # fmt: skip
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
    from dcglab.cli.evaluate import build_parser as evaluation_parser

    return vars(evaluation_parser().parse_args(["QRELS", "RUN"]))


def _named_runs(args: argparse.Namespace) -> dict[str, str]:
    """``{name: run file}`` from ``--name`` (or the file names) and the run files;
    ``ValueError`` for a wrong number of names or two runs of one name."""
    runs = args.runs
    names = args.name if args.name is not None else [os.path.basename(r) for r in runs]
    if len(names) != len(runs):
        raise ValueError(f"--name: give one name per run: {len(runs)} runs, {len(names)} names")
    for i, name in enumerate(names):
        if name in names[:i]:
            hint = "give them other names" if args.name else "name each run with --name"
            raise ValueError(f"two runs are named {name!r}: {hint}")
    return dict(zip(names, runs))


def _baseline(args: argparse.Namespace, named: dict[str, str]) -> str | None:
    """The baseline's name: ``--baseline`` is a run's name, or one of the run files."""
    given = args.baseline
    if given is None or given in named:
        return given
    files = {run: name for name, run in named.items()}
    if given in files:
        return files[given]
    raise ValueError(f"--baseline {given!r} is none of the runs ({', '.join(named)})")


def _confidence(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"expected a number between 0 and 1, got {text!r}")
    return value


def main(argv: Sequence[str] | None = None) -> int:
    from dcglab.evaluation.options import gain_text
    from dcglab.evaluation.presets import option_spelling
    from dcglab.formulas.discounts import Discount
    from dcglab.statistics.comparison import compare

    args = build_parser().parse_args(argv)
    if len(args.runs) < 2:
        print("dcglab compare: error: need at least two run files", file=sys.stderr)
        return 2
    try:
        named = _named_runs(args)
        result = compare(
            args.qrels,
            named,
            args.measure or ["ndcg_cut.10"],
            baseline=_baseline(args, named),
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
        message = option_spelling(message)
        print(f"dcglab compare: error: {message}", file=sys.stderr)
        return 2
    sys.stdout.write(result.format(args.format, alpha=args.alpha, test=args.test) + "\n")
    return 0
