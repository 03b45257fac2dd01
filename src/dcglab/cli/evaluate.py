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
from collections.abc import Sequence
from functools import partial

from dcglab import __version__
from dcglab.cli.common import HelpFormatter, OneLineParser, non_negative_int
from dcglab.evaluation.batch.output import render
from dcglab.evaluation.engines.measures import COMPUTED
from dcglab.evaluation.measure_families import FAMILIES
from dcglab.evaluation.measure_names import measure_specs, trec_choice
from dcglab.evaluation.options import OPTIONS, Conventions, OptionError
from dcglab.evaluation.presets import IR_MEASURES, TREC_EVAL, option_spelling

NUM_REL_C = "NumRel(rel=1)"  # what trec_eval -c sums for the summary num_rel

__all__ = ["build_parser", "main", "render"]

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
    all_trec = official and every other measure of trec_eval 10.0's all_trec;
    set = runid num_q num_ret num_rel num_rel_ret utility set_P set_recall
      set_relative_P set_map set_F
    map_cut.K, success.K, recall.K, P.K, relative_P.K, unj.K (K may be a
    list: P.5,10), iprec_at_recall.X, Rprec_mult.X (lists of recall points,
    multiples of R), ndcg, ndcg_cut.K, ndcg.G=V[,G=V...] (a gain table for
    that measure; also G, ndcg_rel, Rndcg, rbp), rbp.p=0.8, rbp_resid.p=0.8,
    infAP, gm_bpref, binG, set_P, set_recall, set_relative_P, set_map,
    set_F.B, utility.W1,W2,W3,W4, 11pt_avg.X,..., num_nonrel_judged_ret,
    relstring.N (-q only), dcg, dcg_cut.K;
    without .K the cutoffs are trec_eval's (5,10,...,1000; success: 1,5,10;
    unj: 5,10,20); 23.4 counts as 23 and a cutoff given twice is refused, as
    in trec_eval; of several lists for one measure the first counts (-m P.5
    -m P.10 is P.5), as in trec_eval
  ir_measures' names, output under the name as written:
    nDCG@10, nDCG(dcg='exp-log2')@10, nDCG(gains={0:0,1:1,2:3})@10, P@10,
    P(rel=2)@10, R@1000, AP, AP@100, RR, RR@10 (MRR@10), Rprec, Bpref,
    Success@5, Judged@10 (share of the top 10 that is judged), IPrec@0.1,
    NumQ, NumRet, NumRel, NumRet(rel=1), ERR@20 (expected reciprocal rank,
    grades 0 to 4 as gdeval reads them), RBP, RBP(p=0.9)@100 (rank-biased
    precision, graded: the gain of each grade), RBP(rel=1,p=0.9) (binary);
    rel= sets that measure's relevance level (otherwise -l); RBP's p
    (default 0.8) lies between 0 and 1; RBP is not trec_eval's rbp

-J with -M: -M N keeps each query's top N documents first; -J then drops the
  unjudged ones among them (as trec_eval: -J -M 10 evaluates the judged part
  of the top 10, not the top 10 judged documents)

--corrected: trec_eval's own numbers are printed by default, also where its
  code gives a number a careful reader would call wrong; --corrected prints
  the corrected ones instead, which differ only here:
  - ndcg.G=V,... (and G, ndcg_rel, Rndcg with a gain table): trec_eval sorts
    the ideal's gains comparing (int)(g1 - g2), so gains less than 1 apart
    tie and keep the table's order (ndcg.1=0.5 on binary qrels gives 0);
    corrected: the ideal is sorted by exact gain
  - iprec_at_recall and 11pt_avg of a query left with no document (-J, -M 0)
    divide 0 by 0 and print -nan (and so does the mean); corrected: 0
  - several parameter lists for one measure: trec_eval uses the first (-m
    P.5 -m P.10 prints P_5; -m ndcg -m ndcg.1=2 prints ndcg_1=2 only);
    corrected: cutoff lists are merged and each gain table is its own measure

--ir-measures: the measures named in ir_measures' syntax give ir_measures
  0.4's numbers (scores compared as float32, as pytrec_eval does); without it
  they give trec_eval 10.0's. They differ for:
  - Judged@k: every qrels entry is judged, a negative grade too (trec_eval:
    a negative grade is in the pool but unjudged); tied scores by docno
    ascending
  - IPrec@x: the rank of x*R found is (long)(x*R + 0.9), as trec_eval 9
    (trec_eval 10 rounds: lround(x*R))
  - RR@k: tied scores ordered by docno ascending (ir_measures' msmarco
    provider; trec_eval: descending); RR without a cutoff is unchanged
  - RBP(rel=L): cwl_eval's, the ranking cut or padded to 1000 documents and
    the weights divided by 1 - p^1000 so that they sum to 1 there; a
    negative grade counts as 0 (so with rel=0 it is relevant); cwl_eval keeps
    tied scores in the file's order, dcglab orders them by docno descending
  - RBP without rel: trectools', each group of tied scores in the top k
    shares the mean of its weights
  ERR@k gives gdeval's numbers with or without it

differences from trec_eval 10.0:
  - trec_eval's sets prefs, all_prefs and qrels_jg are refused (dcglab does
    not compute their measures); a parameter given to a measure without
    parameters (map.5) is refused (trec_eval ignores it)
  - rbp rescales each query's gains to [0, 1] by their minimum and maximum
    when they leave it; trec_eval reads that minimum and maximum
    uninitialised (m_rbp.c), so its rbp with grades above 1 can change with
    the other measures asked for (-m ndcg -m rbp)
  - -l takes an integer >= 0 (trec_eval reads 1.5 as 1 and lets a negative
    level count unjudged documents as relevant)
  - a query whose judgments are all negative is evaluated as one without
    relevant documents (trec_eval stops with "Can't calculate measure",
    status 4, or crashes when the query is not the qrels' first)
  - a score or grade that is not a decimal number is an error (trec_eval
    reads a score with C's atof, so "abc" is 0 and 0x1p2 is 4); a grade in
    exponent notation (1e2) is read as a number (trec_eval: 1)
  - trec_eval's -N (collection size) is accepted, but refused with a utility
    whose fourth weight is not 0, the one measure that reads it; -D (debug),
    -R and -T (other file formats) and -Z (z-scores) are refused
  - gain tables may not give negative gains (trec_eval allows them)
  - ids must be UTF-8; a UTF-8 byte-order mark at the start of a file is
    skipped (trec_eval keeps it as part of the first line's qid)
  - --gain, --discount, --ideal, --ties, --zero-idcg, --negative-grades,
    --fractional-grades, --score-precision, --ignore-missing and --format
    are ours

examples:
  dcglab qrels.txt run.txt                     trec_eval's default output
  dcglab qrels.txt run.txt -q -m ndcg_cut.10   nDCG@10 per query and mean
  dcglab qrels.txt run.txt -m nDCG@10 -m RR@10 -m "P(rel=2)@10" -m Judged@10
  zcat run.gz | dcglab qrels.txt - -m map      a run from standard input
  dcglab qrels.txt <(zcat run.gz) -m map       a pipe (.gz, .bz2, .xz are read too,
                                               as files, pipes or standard input)
  dcglab qrels.txt run.txt -q --format csv > per_query.csv
  dcglab compare qrels.txt bm25.run rm3.run -m ndcg_cut.10 --format latex
                                               compare runs (dcglab compare --help)
"""


FORMATS = ("trec", "csv", "json")
FORMAT_HELP = (
    "trec: trec_eval's lines; csv: a header qid,MEASURE,..., one row per query (-q), then "
    "the row 'all' (not with -n); json: the same rows as a list of objects "
    "(pandas.read_json loads it flat); numbers as Python prints them, counts as integers"
)


def build_parser() -> argparse.ArgumentParser:
    p = OneLineParser(
        prog="dcglab",
        description="nDCG and trec_eval's binary measures of a TREC run against TREC qrels, "
        "in trec_eval's output format.\n\nTo compare runs (means, paired differences, "
        "significance tests, tables for a paper):\n  dcglab compare QRELS RUN1 RUN2 ... "
        "(see dcglab compare --help)",
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
    absent = p.add_mutually_exclusive_group()  # qrels queries absent from the run
    absent.add_argument(
        "-c",
        action="store_true",
        help="score qrels queries absent from the run as 0 and average over them (trec_eval -c)",
    )
    absent.add_argument(
        "--ignore-missing",
        action="store_true",
        help="leave qrels queries absent from the run out, as trec_eval 9.x and pytrec_eval "
        "do (without it or -c, such a query is an error, as in trec_eval 10.0)",
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
    p.add_argument(
        "--corrected",
        action="store_true",
        help="print corrected values where trec_eval 10.0's own code gives a number a careful "
        "reader would call wrong (default: trec_eval's numbers); see below",
    )
    p.add_argument(
        "--ir-measures",
        action="store_true",
        help="measures named in ir_measures' syntax (RR@10, Judged@10, IPrec@0.1...) give "
        "ir_measures 0.4's numbers; implies --score-precision float32; see below",
    )
    p.add_argument("--format", default="trec", choices=FORMATS, help=FORMAT_HELP)
    p.add_argument("--engine", default="python", choices=["python", "duckdb", "spark"], help=(
        "where to compute: this process (default, fastest), DuckDB, or Spark (--spark-master, "
        "else the active session or local[*]; needs Java); Spark computes every measure "
        "(each task runs the default path on its queries), DuckDB every measure but "
        + ", ".join(f.name for f in FAMILIES if f.name not in COMPUTED and f.kernel != "tag")
    ))  # fmt: skip
    p.add_argument(
        "-N",
        "--Number_docs_in_coll",
        type=non_negative_int,
        default=0,
        metavar="N",
        help="the collection size, read only by utility's fourth weight (trec_eval -N); see below",
    )
    for flag, what in TREC_EVAL_ONLY.items():
        p.add_argument(flag, nargs=1, action=_Refused, help=argparse.SUPPRESS, dest=what)
    p.add_argument(
        "--spark-master",
        metavar="URL",
        default=None,
        help="with --engine spark: the cluster to run on, e.g. spark://host:7077 "
        "(default: the environment variable DCGLAB_SPARK_MASTER, else local)",
    )
    return p


TREC_EVAL_ONLY = {
    "-D": "debug output",
    "-R": "other qrels formats",
    "-T": "other results formats",
    "-Z": "z-scores",
}
"""trec_eval's options that dcglab refuses, with what they give in trec_eval."""


class _Refused(argparse.Action):
    """An option of trec_eval that dcglab does not offer: one line naming it."""

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        parser.error(f"{option_string} ({self.dest}) is trec_eval's; dcglab does not offer it")


def option(p: argparse.ArgumentParser, name: str, *more: str, **kwargs: str) -> None:
    """Add the option ``name`` of :data:`dcglab.evaluation.options.OPTIONS` under its flag (and
    ``more`` spellings), with trec_eval's default (:data:`dcglab.evaluation.presets.TREC_EVAL`);
    its value is checked when :func:`conventions` builds the conventions."""
    o = OPTIONS[name]
    default = TREC_EVAL.get(name, o.default)
    metavar = "{" + ",".join((*o.choices, *o.aliases)) + "}" if o.choices else None
    kwargs = {"metavar": metavar, **kwargs} if metavar else kwargs
    p.add_argument(o.flag, *more, dest=name, default=default, **kwargs)


def conventions(args: argparse.Namespace) -> Conventions:
    """The conventions of the parsed arguments: each option's text read by its
    ``from_text`` and checked by :data:`dcglab.evaluation.options.OPTIONS`; ``-c`` is
    ``missing="zero"``, ``-J`` is ``judged_only``."""
    given: dict[str, object] = {
        "judged_only": args.Judged_docs_only,
        "corrected": args.corrected,
        "ir_measures": args.ir_measures,
    }
    given["missing"] = (
        "zero" if args.c else "ignore" if args.ignore_missing else TREC_EVAL["missing"]
    )
    for name, o in OPTIONS.items():
        if o.flag is not None:
            value = getattr(args, name)
            given[name] = o.from_text(value) if isinstance(value, str) else value
    if args.ir_measures:
        given["score_precision"] = IR_MEASURES["score_precision"]
    return Conventions(**given)


def main(argv: Sequence[str]) -> int:
    """Evaluate as ``dcglab ARGV`` does: print the result, or one error line; the exit status."""
    argv = list(argv)
    args = build_parser().parse_args(argv)
    try:
        c = conventions(args)
    except OptionError as exc:
        print(f"dcglab: error: {exc.spelled(OPTIONS[exc.name].flag or exc.name)}", file=sys.stderr)
        return 2
    try:
        from dcglab.evaluation.batch.inputs import buffered, run_tag
        from dcglab.evaluation.batch.scoring import evaluate  # here: after process.setup()

        names = args.measure or ["official"]
        names = names if args.corrected else trec_choice(names)
        specs = measure_specs(names, runid=True)
        if args.Number_docs_in_coll and any(
            m.record.name == "utility" and m.args and m.args[3] != 0 for m in specs
        ):
            raise ValueError("-N with a utility whose fourth weight is not 0 is not supported")
        bar = progress(args.qrels, args.run)
        qrels, run = buffered(args.qrels, "qrels"), buffered(args.run, "run")
        wants_runid = not args.nosummary and any(m.record.kernel == "tag" for m in specs)
        runid = run_tag(run) if wants_runid else None
        quirk = args.c and c.relevance_level != 1 and any(m.name == "num_rel" for m in specs)
        # computed but not printed: trec_eval -c's summary num_rel; a value when only runid is asked
        hidden = [NUM_REL_C] * quirk + ["NumQ"] * all(m.record.kernel == "tag" for m in specs)
        compute = evaluate
        if args.engine != "python":
            from dcglab.evaluation.engines import evaluate_files

            compute = partial(evaluate_files, engine=args.engine, spark_master=args.spark_master)
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
