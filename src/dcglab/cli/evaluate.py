"""``python -m dcglab QRELS RUN -m ndcg_cut.10``: trec_eval-compatible evaluation from the shell.

Output follows trec_eval (``measure<TAB>qid<TAB>value``, ``all`` for the mean,
measures in trec_eval's order), so scripts written for trec_eval can read it;
``--format csv|json`` is offered too. trec_eval's options ``-m`` (with its
measure syntax), ``-q``, ``-c``, ``-n``, ``-l``, ``-M`` and ``-J`` mean what they
mean there. Bad arguments or files print one line to stderr and exit with status 2.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Callable, Sequence
from functools import partial
from typing import TypeVar

from .. import __version__, process
from ..measure_families import FAMILIES
from ..measure_names import measure_specs
from ..options import OPTIONS, Conventions, OptionError
from ..presets import TREC_EVAL, option_spelling
from .output import render

T = TypeVar("T")
NUM_REL_C = "NumRel(rel=1)"  # what trec_eval -c sums for the summary num_rel

__all__ = ["build_parser", "entry", "main", "render"]

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
  --ties        trec: equal scores ordered by docno descending (trec_eval,
                  ir_measures); average: gains averaged over tied scores
                  (scikit-learn; DCG measures only)
  --score-precision
                double: scores compared as read (trec_eval 10.0); float32:
                  rounded to float32 first, so closer scores tie (trec_eval 9.x,
                  pytrec_eval, ir_measures)
  --zero-idcg   zero: a query with no relevant judged document scores 0 (trec_eval)
                one, skip (left out of the mean), error
  --negative-grades
                unjudged: a negative grade is judged-but-unjudged, gain 0, never
                  relevant, dropped by -J (trec_eval); gain: through --gain
                  like any grade (a table may give it a gain)

measures (default: official, trec_eval's default set, printed as trec_eval does):
  trec_eval's names, output under trec_eval's names and in its order:
    official = runid num_q num_ret num_rel num_rel_ret map gm_map Rprec bpref
      recip_rank iprec_at_recall P
    map_cut.K, success.K, recall.K, P.K (K may be a list: P.5,10),
    iprec_at_recall.X (X a list of recall points), ndcg, ndcg_cut.K,
    ndcg.G=V[,G=V...] (a gain table for that measure), dcg, dcg_cut.K;
    without .K the cutoffs are trec_eval's (5,10,...,1000; success: 1,5,10);
    23.4 counts as 23 and a cutoff given twice is refused, as in trec_eval
  ir_measures' names, output under the name as written:
    nDCG@10, nDCG(dcg='exp-log2')@10, nDCG(gains={0:0,1:1,2:3})@10, P@10,
    P(rel=2)@10, R@1000, AP, AP@100, RR, RR@10 (MRR@10), Rprec, Bpref,
    Success@5, Judged@10 (share of the top 10 that is judged), IPrec@0.1,
    NumQ, NumRet, NumRel, NumRet(rel=1); rel= sets that measure's relevance
    level (otherwise -l)

-J with -M: -M N keeps each query's top N documents first; -J then drops the
  unjudged ones among them (as trec_eval: -J -M 10 evaluates the judged part
  of the top 10, not the top 10 judged documents)

differences from trec_eval 10.0:
  - trec_eval's sets all_trec, set, prefs and qrels_jg are refused (dcglab
    does not compute all their measures); a parameter given to a measure
    without parameters (map.5) is refused (trec_eval ignores it); two cutoff
    lists for one measure are merged (-m P.5 -m P.10; trec_eval keeps P.5)
  - iprec_at_recall of a query left with no document (-J, or -c -J for a
    query missing from the run) is 0; trec_eval prints -nan
  - -l takes an integer >= 0 (trec_eval reads 1.5 as 1 and lets a negative
    level count unjudged documents as relevant)
  - a query whose judgments are all negative is evaluated as one without
    relevant documents (trec_eval stops with "Can't calculate measure",
    status 4, or crashes when the query is not the qrels' first)
  - a non-numeric score or grade is an error (trec_eval reads it as 0);
    a grade in exponent notation (1e2) is read as a number (trec_eval: 1)
  - gain tables may not give negative gains (trec_eval allows them)
  - the ideal of ndcg.G=V,... is sorted by exact gain; trec_eval truncates
    fractional gain differences when sorting (e.g. gains 1=3.2,2=3.5,3=3.4)
  - ids must be UTF-8
  - --gain, --discount, --ideal, --ties, --zero-idcg, --negative-grades,
    --fractional-grades, --score-precision and --format are ours

examples:
  dcglab qrels.txt run.txt                     trec_eval's default output
  dcglab qrels.txt run.txt -q -m ndcg_cut.10   nDCG@10 per query and mean
  dcglab qrels.txt run.txt -m nDCG@10 -m RR@10 -m "P(rel=2)@10" -m Judged@10
  zcat run.gz | dcglab qrels.txt - -m map      a run from standard input
  dcglab qrels.txt <(zcat run.gz) -m map       a pipe (.gz, .bz2, .xz are read too)
  dcglab qrels.txt run.txt -q --format csv > per_query.csv
"""


FORMATS = ("trec", "csv", "json")
FORMAT_HELP = (
    "trec: trec_eval's lines; csv: a header qid,MEASURE,..., one row per query (-q), then "
    "the row 'all' (not with -n); json: the same rows as a list of objects "
    "(pandas.read_json loads it flat); numbers as Python prints them, counts as integers"
)


class OneLineParser(argparse.ArgumentParser):
    """argparse that reports a usage error as one line on stderr, exit status 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"dcglab: error: {message}\n")


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


class HelpFormatter(argparse.RawDescriptionHelpFormatter, argparse.ArgumentDefaultsHelpFormatter):
    """The epilog as written, and each option's default beside it (flags and options
    without a default value say what their absence means in their own help)."""

    def _get_help_string(self, action: argparse.Action) -> str:
        if action.default in (None, False):
            return action.help or ""
        return super()._get_help_string(action) or ""


def build_parser() -> argparse.ArgumentParser:
    p = OneLineParser(
        prog="python -m dcglab",
        description="nDCG and trec_eval's binary measures of a TREC run against TREC qrels, "
        "in trec_eval's output format.",
        epilog=CONVENTIONS,
        formatter_class=HelpFormatter,
    )
    p.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    p.add_argument("qrels", help="qrels file: qid iter docno grade")
    p.add_argument("run", help="run file: qid Q0 docno rank score tag [ignored fields]")
    p.add_argument(
        "-m",
        "--measure",
        action="append",
        default=None,
        help="a measure or set, trec_eval's or ir_measures' name (repeatable; default: "
        "official, trec_eval's default set); see below",
    )
    option(p, "gain", help="linear | exponential | G=V,... ")
    option(p, "discount", help="log2 | log:B | jk:B | rbp:P | reciprocal")
    option(p, "ideal", help="where IDCG comes from")
    option(p, "ties", help="how equal scores are ranked")
    option(p, "zero_idcg", help="the nDCG of a query with IDCG 0")
    option(p, "negative_grades", help="what a negative qrels grade means")
    option(
        p,
        "fractional_grades",
        help="truncate grades toward zero as trec_eval reads them (2.5 is 2, -0.5 is 0; "
        "the default) or keep them as they are",
    )
    option(
        p,
        "score_precision",
        help="compare scores as doubles (trec_eval 10.0, the default) or rounded to "
        "float32 (reproduces trec_eval 9.x, pytrec_eval and ir_measures)",
    )
    p.add_argument("-q", action="store_true", help="also print each query's values (trec_eval -q)")
    p.add_argument(
        "-c",
        action="store_true",
        help="score qrels queries absent from the run as 0 and average over them (trec_eval -c)",
    )
    p.add_argument(
        "-n", "--nosummary", action="store_true", help="print no summary (all) lines (trec_eval -n)"
    )
    option(
        p,
        "relevance_level",
        "--level_for_rel",
        metavar="L",
        help="the grade from which a document is relevant for the binary measures (map, "
        "bpref, P, ...; trec_eval -l), an integer >= 0; nDCG ignores it, rel= of an "
        "ir_measures name overrides it",
    )
    option(
        p,
        "max_docs",
        metavar="N",
        help="evaluate only each query's top N documents (trec_eval -M)",
    )
    p.add_argument(
        "-J",
        "--Judged_docs_only",
        action="store_true",
        help="drop unjudged documents before ranking: the condensed list (trec_eval -J)",
    )
    p.add_argument("--format", default="trec", choices=FORMATS, help=FORMAT_HELP)
    p.add_argument("--engine", default="python", choices=["python", "duckdb", "spark"], help=(
        "where to compute: this process (default, fastest), DuckDB, or Spark (the active "
        "session or local[*]; needs Java); the engines compute "
        + ", ".join(f.name for f in FAMILIES if "duckdb" in f.paths and "spark" in f.paths)
    ))  # fmt: skip
    return p


def option(p: argparse.ArgumentParser, name: str, *more: str, **kwargs: str) -> None:
    """Add the option ``name`` of :data:`dcglab.options.OPTIONS` under its flag (and
    ``more`` spellings), with trec_eval's default (:data:`dcglab.presets.TREC_EVAL`);
    its value is checked when :func:`conventions` builds the conventions."""
    o = OPTIONS[name]
    default = TREC_EVAL.get(name, o.default)
    metavar = "{" + ",".join((*o.choices, *o.aliases)) + "}" if o.choices else None
    kwargs = {"metavar": metavar, **kwargs} if metavar else kwargs
    p.add_argument(o.flag, *more, dest=name, default=default, **kwargs)


def conventions(args: argparse.Namespace) -> Conventions:
    """The conventions of the parsed arguments: each option's text read by its
    ``from_text`` and checked by :data:`dcglab.options.OPTIONS`; ``-c`` is
    ``missing="zero"``, ``-J`` is ``judged_only``."""
    given: dict[str, object] = {"judged_only": args.Judged_docs_only}
    given["missing"] = "zero" if args.c else TREC_EVAL["missing"]
    for name, o in OPTIONS.items():
        if o.flag is not None:
            value = getattr(args, name)
            given[name] = o.from_text(value) if isinstance(value, str) else value
    return Conventions(**given)


def entry() -> None:
    """The program, as both entry points run it: :func:`main`, then an immediate exit.

    The interpreter's own shutdown (finalising modules and the evaluator's
    hundreds of megabytes of arrays) takes about a sixth of a second on a large
    run and changes nothing the user sees, so once the output is flushed the
    process ends at once (``os._exit``). With Spark loaded, the normal exit runs
    instead, so that pyspark's exit handler stops its Java process.
    """
    code = main()
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BrokenPipeError:  # the reader left (``dcglab ... | head``): nothing to flush to
        code = code or 1
    if "pyspark" in sys.modules:
        sys.exit(code)
    os._exit(code)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line on ``argv``; without it, as the program: both entry points
    call ``main()``, which sets the process up (:func:`dcglab.process.setup`) first."""
    if argv is None:
        process.setup()
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["compare"]:  # dcglab compare QRELS RUN1 RUN2 ...: see dcglab.compare_cli
        from ..compare_cli import main as compare_main

        return compare_main(argv[1:])
    args = build_parser().parse_args(argv)
    try:
        c = conventions(args)
    except OptionError as exc:
        print(f"dcglab: error: {exc.spelled(OPTIONS[exc.name].flag or exc.name)}", file=sys.stderr)
        return 2
    try:
        from .inputs import buffered, run_tag
        from .scoring import evaluate  # here: polars must load after process.setup()

        names = args.measure or ["official"]
        specs = measure_specs(names, runid=True)
        bar = progress(args.qrels, args.run)
        qrels, run = buffered(args.qrels), buffered(args.run)
        wants_runid = not args.nosummary and any(m.record.kernel == "tag" for m in specs)
        runid = run_tag(run) if wants_runid else None
        quirk = args.c and c.relevance_level != 1 and any(m.name == "num_rel" for m in specs)
        # computed but not printed: trec_eval -c's summary num_rel; a value when only runid is asked
        hidden = [NUM_REL_C] * quirk + ["NumQ"] * all(m.record.kernel == "tag" for m in specs)
        compute = evaluate
        if args.engine != "python":
            from ..engines import evaluate_files

            compute = partial(evaluate_files, engine=args.engine)
        result = compute(qrels, run, [*names, *hidden], conventions=c)
        bar.update()
        extra = {name: result.values[name] for name in hidden}
        result = result.select(n for n in result.values if n not in extra)
        means = None if args.nosummary else result.means()
        if quirk and means is not None:  # trec_eval -c counts every grade > 0, whatever -l
            means["num_rel"] = float(extra[NUM_REL_C].sum())
    except (ValueError, OSError) as exc:
        print(f"dcglab: error: {option_spelling(str(exc))}", file=sys.stderr)
        return 2
    text = render(result, means, args.format, args.q, runid)
    bar.update()
    bar.close()
    sys.stdout.write(text)
    return 0


class _Silent:
    """No progress bar: stderr is not a terminal, or the input is small."""

    def update(self) -> None:
        pass

    def close(self) -> None:
        pass


LARGE = 64 << 20
"""Inputs from this size (bytes, qrels and run together) show a progress bar."""


def progress(*paths: str) -> object:
    """A tqdm bar on stderr (two steps: evaluated, written) when stderr is a terminal
    and the input files are large; an object that does nothing otherwise."""
    if not sys.stderr.isatty():
        return _Silent()
    size = 0
    for p in paths:
        with contextlib.suppress(OSError):
            size += os.stat(p).st_size if p != "-" else 0
    if size < LARGE:
        return _Silent()
    from tqdm import tqdm

    return tqdm(total=2, desc="dcglab: evaluating, then writing", unit="step", file=sys.stderr)
