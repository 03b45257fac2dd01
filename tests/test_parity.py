"""Parity over the three paths of the command line: the default in-process
evaluator, DuckDB and Spark (``--engine python|duckdb|spark``).

Each test runs the same case on every path and compares the output byte for
byte with the trec_eval 10.0 binary's, or, for the options trec_eval lacks,
with the default path's: trec_eval's own test files under every option and
combination (``-c -J -M -l``, ``-J -M``), a file with every reading twist, bad
ids in DataFrames, negative grades under ``-J``, the float32 option, ``max_docs``
of every type, the two cases the engines once got wrong (``-J`` applied before
``-M``; ``-J`` keeping negative grades), a measure family DuckDB does not
compute (one line naming the engine and the measure), and Spark's JVM kept off
stderr while it prints every measure of ``all_trec``.

Spark's cases are the few that cover its reader and its SQL dialect: a Spark
query costs a second, not milliseconds. Without Java they skip, except under
CI=true, where they must run.
"""

import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from oracle import Case, dcglab, trec_eval

from dcglab.evaluation import measure_names
from dcglab.evaluation.batch import evaluate as batch_evaluate
from dcglab.evaluation.engines import ENGINES, evaluate
from dcglab.evaluation.measure_families import FAMILIES, FAMILY, Family

pytest.importorskip("duckdb")

PATHS = ["python", "duckdb", pytest.param("spark", marks=pytest.mark.slow)]
"""The three paths, named by the command line's ``--engine``."""


# ------------------------------------------------------------------- fixtures


@pytest.fixture
def path(request):
    """A path of the command line; Spark's needs the session started."""
    if request.param == "spark":
        request.getfixturevalue("spark")
    return request.param


@pytest.fixture
def files(trec_eval_test_files):
    return trec_eval_test_files


def run_path(path: str, case: Case, binary: Path | None = None):
    """The command line's output on ``case`` by ``path``, and trec_eval's if a binary is given."""
    with tempfile.TemporaryDirectory() as tmp:
        ours = dcglab(case, Path(tmp), ("--engine", path))
        theirs = trec_eval(binary, case, Path(tmp)) if binary else None
    return ours, theirs


def assert_trec_eval(path: str, case: Case, binary: Path) -> str:
    ours, theirs = run_path(path, case, binary)
    assert theirs.status == 0, theirs.stderr
    assert ours.status == 0, ours.stderr
    assert ours.stdout == theirs.stdout
    return ours.stdout


# ------------------------------------------------------- parity over the paths

OPTION_SETS = [
    (),
    ("-c",),
    ("-J",),
    ("-M5",),
    ("-J", "-M5"),
    ("-c", "-J", "-M5", "-l2"),
    ("-q", "-c", "-J", "-M12"),
]
DCG_MEASURES = ("ndcg", "ndcg_cut.1,3,10")
EVERY = (
    *("num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref", "recip_rank"),
    *("P", "recall.5,10", "ndcg", "ndcg_cut.1,3,10", "map_cut.5,100", "success", "ndcg.1=2,2=5"),
)
"""Every trec_eval family the command line shares with trec_eval 10.0 but
``iprec_at_recall`` (under ``-J`` trec_eval prints -nan for a query left with no
document, see tests/test_batch_binary.py); ``official`` adds it without ``-J``."""


@pytest.mark.parametrize("path", PATHS[:2], indirect=True)
def test_trec_eval_test_files_under_every_option(path, files, trec_eval_binary):
    """trec_eval's own test files, every option and combination, as the binary prints
    (Spark's run of them is the ``python -m dcglab`` test below)."""
    for options in OPTION_SETS:
        for run in ("results.test", "results.trunc"):
            case = Case(
                qrels=(files / "qrels.test").read_text(),
                run=(files / run).read_text(),
                options=("-c", *options) if run == "results.trunc" else options,
                measures=EVERY if "-J" in options else ("official", *EVERY),
            )
            assert_trec_eval(path, case, trec_eval_binary)


@pytest.mark.parametrize("path", PATHS, indirect=True)
def test_comment_lines_and_long_docnos(path, files, trec_eval_binary):
    """trec_eval's comment test files: '#' lines in the qrels, '#' inside docnos."""
    case = Case(
        qrels=(files / "qrels.comment.test").read_text(),
        run=(files / "results.comment.test").read_text(),
        options=("-q",),
        measures=("ndcg", "ndcg_cut.5,10"),
    )
    assert_trec_eval(path, case, trec_eval_binary)


MESSY = Case(
    qrels="# judged\nq1 0 a 2\nq1\t0\tb  1\n  q1 0 c 0\nq2 0 a -1\nq2 0 b 3\nq10 0 z 1\n",
    run=(
        "# a run with every reading twist\n"
        "q1 Q0 a 1 0.5 tag extra fields\n"
        "\n"
        "q1\tQ0\tb\t2\t0.5\ttag\n"
        "q1  Q0  c  3  1e-1  tag\n"
        "   \n"
        "q2 Q0 a 1 2.0E0 tag\n"
        "q2 Q0 b 2 -0.0 tag\n"
        "q2 Q0 c 3 0.0 tag\n"
        "q10 Q0 y 1 0.7000000001 t\n"
        "q10 Q0 z 2 0.7 t\n"
        "#\n"
    ),
    options=("-q",),
    measures=DCG_MEASURES,
)
"""Tabs, runs of spaces, leading blanks, blank and '#' lines, extra run fields,
scientific notation, -0.0 tied with 0.0, float32-close scores, a negative grade."""


@pytest.mark.parametrize("path", PATHS, indirect=True)
def test_every_reading_twist_is_read_as_trec_eval_reads_it(path, trec_eval_binary):
    """The reading rules are dcglab.evaluation.batch.reader's on every path (Spark once refused
    this file)."""
    sets = [("-q",), ("-q", "-J"), ("-q", "-c", "-J", "-M2", "-l2")]
    for options in sets if path != "spark" else sets[-1:]:
        case = Case(MESSY.qrels, MESSY.run, options, MESSY.measures)
        assert_trec_eval(path, case, trec_eval_binary)


# The two cases the engines once got wrong, as two queries under -q -J -M3.
# m, -J after -M: m's top 3 hold one judged document (rank 3); two more judged
# ones come below. trec_eval 10.0 cuts to the top 3, then keeps the judged:
# nDCG@3 is the ratio for one relevant document at rank 1 over an ideal of three.
# n, -J drops a negative grade (in the pool, unjudged in trec_eval 10.0): the
# relevant document moves from rank 2 to rank 1, and nDCG becomes 1.
JUDGED_ONLY = Case(
    qrels="m 0 j1 1\nm 0 j2 1\nm 0 j3 1\nn 0 a -1\nn 0 b 1\n",
    run="".join(
        f"m Q0 {d} {i} {10 - i} t\n" for i, d in enumerate(["u1", "u2", "j1", "j2", "j3"], 1)
    )
    + "n Q0 a 1 2 t\nn Q0 b 2 1 t\n",
    options=("-q", "-J", "-M3"),
    measures=("ndcg", "ndcg_cut.1,3"),
)


@pytest.mark.parametrize("path", PATHS, indirect=True)
def test_regression_judged_only_after_max_docs_and_without_negative_grades(path, trec_eval_binary):
    """Once the engines dropped unjudged documents before cutting at M (0.7434 for
    trec_eval's 0.4359 on a Cranfield run), and kept a negative-grade document
    under -J (0.6309, not 1)."""
    out = assert_trec_eval(path, JUDGED_ONLY, trec_eval_binary)
    assert "ndcg_cut_3            \tm\t0.4693\n" in out  # 1 / (1 + 1/log2(3) + 1/2)
    assert "ndcg                  \tn\t1.0000\n" in out


CLOSE = Case(
    qrels="q1 0 b 2\nq1 0 a 0\n",
    run="q1 Q0 b 1 0.7 t\nq1 Q0 a 2 0.7000000001 t\n",
    options=("-q",),
    measures=("ndcg_cut.1",),
)


@pytest.mark.parametrize("path", PATHS, indirect=True)
def test_scores_are_doubles_unless_float32_is_asked_for(path, trec_eval_binary):
    """trec_eval 10.0 ranks the grade-0 document first (nDCG@1 = 0); float32 ties the
    two scores and breaks the tie by docno, as trec_eval 9 and pytrec_eval (1)."""
    assert "\tq1\t0.0000" in assert_trec_eval(path, CLOSE, trec_eval_binary)
    float32 = Case(CLOSE.qrels, CLOSE.run, ("--score-precision", "float32", "-q"), CLOSE.measures)
    ours, _ = run_path(path, float32)
    assert ours.status == 0 and "\tq1\t1.0000" in ours.stdout


def frames_with(column: str, bad: object) -> tuple[pd.DataFrame, pd.DataFrame]:
    qrels = pd.DataFrame({"qid": ["q1", "q1"], "docno": ["a", "b"], "grade": [1, 0]})
    run = pd.DataFrame({"qid": ["q1", "q1"], "docno": ["a", "b"], "score": [2.0, 1.0]})
    run[column] = run[column].astype(object)
    run.loc[1, column] = bad
    return qrels, run


def evaluate_on(path: str, qrels, run, measures=("ndcg",), **kw):
    if path == "python":
        return batch_evaluate(qrels, run, list(measures), **kw)
    return evaluate(qrels, run, list(measures), engine=path, **kw)


@pytest.mark.parametrize("path", PATHS, indirect=True)
@pytest.mark.parametrize(
    "column, bad, needle",
    [
        ("qid", None, "qid of row 1 is None"),
        ("docno", None, "docno of row 1 is None"),
        ("docno", 3.5, "docno of row 1 is 3.5"),
        ("score", "x", "score of row 1 is 'x', not a number"),
        ("score", np.nan, "score of row 1 is nan, not a number"),
    ],
)
def test_bad_ids_and_values_in_a_dataframe(path, column, bad, needle):
    """A None id is refused naming the column and the row (Spark once read it as 'None')."""
    qrels, run = frames_with(column, bad)
    with pytest.raises(ValueError, match=needle):
        evaluate_on(path, qrels, run)


@pytest.mark.parametrize(
    "path",
    PATHS,
    indirect=True,
)
def test_max_docs_follows_one_rule(path):
    """Whole numbers of any type are accepted, anything else is the same error (Spark:
    the refusals only, before any query; its values go through DuckDB's check)."""
    qrels, run = frames_with("score", 1.0)
    for bad in (-1, 2.5, True, "3"):
        with pytest.raises(ValueError, match="max_docs must be an integer >= 0"):
            evaluate_on(path, qrels, run, ["ndcg_cut.2"], max_docs=bad)
    if path == "spark":
        return
    base = evaluate_on(path, qrels, run, ["ndcg_cut.2"], max_docs=1).values
    for same in (np.int64(1), 1.0):
        got = evaluate_on(path, qrels, run, ["ndcg_cut.2"], max_docs=same).values
        assert got["ndcg_cut_2"].tolist() == base["ndcg_cut_2"].tolist()


@pytest.mark.parametrize("engine", [e for e in ENGINES if e != "spark"])
def test_a_measure_the_engines_lack_is_one_line_naming_engine_and_measure(
    engine, files, monkeypatch
):
    """A family DuckDB does not compute (here one added to the tables for the
    test) is refused before the engine starts. Spark runs the default path
    itself, so it computes every family (the ``python -m dcglab`` test below)."""
    fake = Family("fake_measure", "a family only the default path computes")
    monkeypatch.setitem(FAMILY, "fake_measure", fake)
    monkeypatch.setattr(measure_names, "FAMILIES", (*FAMILIES, fake))
    case = Case(
        qrels=(files / "qrels.test").read_text(),
        run=(files / "results.trunc").read_text(),
        options=("-c",),
        measures=("ndcg", "map", "fake_measure", "P.5"),
    )
    ours, _ = run_path(engine, case)
    assert ours.status == 2 and ours.stdout == ""
    (line,) = ours.stderr.splitlines()
    assert f"engine {engine!r} does not compute fake_measure: the default path does" in line


def test_dcglab_python_m_with_spark_keeps_the_jvm_off_stderr(files, spark, trec_eval_binary):
    """A real ``python -m dcglab --engine spark`` on trec_eval's test files with
    ``-q -c -J -M12`` and every measure of ``all_trec`` (Spark computes every
    measure, DuckDB's refused ones too): trec_eval's lines, nothing on stderr."""
    case = Case(
        qrels=(files / "qrels.test").read_text(),
        run=(files / "results.trunc").read_text(),
        options=("-q", "-c", "-J", "-M12"),
        measures=("all_trec", *DCG_MEASURES),
    )
    with tempfile.TemporaryDirectory() as tmp:
        argv = case.argv(Path(tmp))
        done = subprocess.run(
            [sys.executable, "-m", "dcglab", "--engine", "spark", *argv],
            capture_output=True,
            text=True,
            timeout=600,
        )
        theirs = trec_eval(trec_eval_binary, case, Path(tmp))
    assert done.returncode == 0, done.stderr
    assert done.stdout == theirs.stdout
    assert done.stderr == ""


test_dcglab_python_m_with_spark_keeps_the_jvm_off_stderr = pytest.mark.slow(
    test_dcglab_python_m_with_spark_keeps_the_jvm_off_stderr
)


GRADED = MESSY.qrels.replace("q2 0 a -1", "q2 0 a 0") + "q10 0 y 2.5\n"
"""MESSY's qrels without a negative grade (a formula gain refuses it), with a fractional one."""
OWN_OPTIONS = [
    (GRADED, ("--gain", "exponential", "-q")),
    (MESSY.qrels, ("--discount", "jk:3", "--ideal", "retrieved", "-q")),
    (MESSY.qrels, ("--ideal", "judged-uncut", "--zero-idcg", "skip", "-q")),
    (MESSY.qrels, ("--ties", "average", "-M2", "-q")),
    (MESSY.qrels, ("--negative-grades", "unjudged", "-J", "--format", "csv", "-q")),
    (GRADED, ("--fractional-grades", "truncate", "-c", "--format", "json", "-q")),
]
"""dcglab's options that trec_eval lacks (the default path is the reference), with
the qrels each applies to."""


@pytest.mark.parametrize("path", PATHS[1:], indirect=True)
def test_options_trec_eval_lacks_print_as_the_default_path(path):
    """The engines print what the default path prints, byte for byte."""
    for qrels, options in OWN_OPTIONS if path != "spark" else OWN_OPTIONS[4:5]:
        case = Case(qrels, MESSY.run, options, MESSY.measures)
        default, _ = run_path("python", case)
        ours, _ = run_path(path, case)
        assert default.status == 0, (options, default.stderr)
        assert (ours.status, ours.stdout, ours.stderr) == (0, default.stdout, ""), options
