"""Nothing lost: every class of bad input either works (and agrees with pytrec_eval)
or raises a ``ValueError`` that names the argument, the value and, for files, the
file and line; on the command line, one line on stderr and exit status 2.
"""

import math
import subprocess
import sys

import numpy as np
import pandas as pd
import polars as pl
import pytest

from dcglab.cli import main
from dcglab.evaluation.batch import evaluate, measure_specs
from dcglab.evaluation.batch.reader import read_qrels, read_run
from dcglab.evaluation.batch.tokens import read_text

QRELS = "q1 0 d1 3\nq1 0 d2 1\nq1 0 d3 0\nq2 0 d4 2\nq2 0 d5 1\n"
RUN = (
    "q1 Q0 d1 1 0.9 t\nq1 Q0 d3 2 0.8 t\nq1 Q0 d2 3 0.8 t\nq1 Q0 d9 4 0.1 t\n"
    "q2 Q0 d5 1 2.0 t\nq2 Q0 d4 2 1.0 t\n"
)


@pytest.fixture
def write(tmp_path):
    def _write(name: str, text: str | bytes):
        path = tmp_path / name
        (path.write_bytes if isinstance(text, bytes) else path.write_text)(text)
        return path

    return _write


def cli(*args) -> subprocess.CompletedProcess:
    """``python -m dcglab`` in a fresh process."""
    return subprocess.run(
        [sys.executable, "-m", "dcglab", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=120,
    )


def assert_one_line_error(proc: subprocess.CompletedProcess, *needles: str) -> None:
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    for needle in needles:
        assert needle in lines[0], (needle, lines[0])


def pytrec(pytrec_eval, qrels_text: str, run_text: str, measures: set[str]) -> dict:
    j, r = {}, {}
    for line in qrels_text.splitlines():
        q, _, d, g = line.split()
        j.setdefault(q, {})[d] = int(g)
    for line in run_text.splitlines():
        f = line.split()
        r.setdefault(f[0], {})[f[2]] = float(f[4])
    return pytrec_eval.RelevanceEvaluator(j, measures).evaluate(r)


# ------------------------------------------------------------------ gains that overflow


@pytest.mark.parametrize(
    ("grade", "gain", "shown", "line"),
    [
        ("1100", "exponential", "grade 1100", 4),
        ("2000", "exponential:2", "grade 2000", 4),
    ],
)
def test_an_infinite_gain_is_an_error_naming_gain_grade_file_and_line(
    write, grade, gain, shown, line
):
    qrels = write("qrels.txt", QRELS.replace("q2 0 d4 2", f"q2 0 d4 {grade}"))
    proc = cli(qrels, write("run.txt", RUN), "--gain", gain, "-m", "ndcg")
    assert_one_line_error(proc, f"--gain {gain}", shown, f"{qrels}:{line}:")


@pytest.mark.parametrize(
    ("gain", "needle"),
    [
        ({0: 0, 1: 1, 2: 2, 3: 3}, "no entry for grade(s) [2.5]"),
        ({0: 0, 1: 1, 2: 2, 3: 3, 2.5: -1}, "grade 2.5 has gain -1"),
        ("exponential:1e124", "grade 2.5 has gain inf"),
    ],
)
def test_a_fractional_grade_without_a_gain_names_its_line(write, gain, needle):
    qrels = write("qrels.txt", QRELS.replace("q2 0 d4 2", "q2 0 d4 2.5"))
    with pytest.raises(ValueError) as err:
        evaluate(qrels, write("run.txt", RUN), measures=["ndcg"], gain=gain)
    assert str(err.value).startswith(f"{qrels}:4: ") and needle in str(err.value)


def test_an_infinite_exponential_base_is_refused_before_any_grade(write):
    proc = cli(write("q", QRELS), write("r", RUN), "--gain", "exponential:inf", "-m", "ndcg")
    assert_one_line_error(proc, "--gain 'exponential:inf'", "base must be a finite number > 1")


def test_a_gain_table_with_an_infinite_value_is_an_error(write):
    proc = cli(write("q", QRELS), write("r", RUN), "--gain", "0=0,1=1,2=1e309,3=3")
    assert_one_line_error(proc, "gain mapping", "finite")


def test_overflowing_dcg_sum_is_an_error_not_nan():
    """Each gain finite, their sum not: no NaN reaches per_query."""
    qrels = pd.DataFrame({"qid": "q", "docno": ["a", "b"], "grade": [1.0, 2.0]})
    run = pd.DataFrame({"qid": "q", "docno": ["a", "b"], "score": [2.0, 1.0]})
    with pytest.raises(ValueError, match="not a finite number"):
        evaluate(qrels, run, ["dcg"], gain={1.0: 1e308, 2.0: 1.7e308})


@pytest.mark.parametrize(
    ("gain", "needle"),
    [
        ("exponential:abc", "gain 'exponential:abc': the exponential base"),
        ("exponential:1", "gain 'exponential:1': the exponential base"),
        ("cubic", "gain must be 'linear', 'exponential', 'exponential:A' (A > 1) or a mapping"),
        ({0: 0, 1: "x", 2: 2, 3: 3}, "gain="),
        ({0: 0, 1: float("nan"), 2: 2, 3: 3}, "gain mapping"),
        ({0: 0, 1: 1}, "grade"),  # grades 2 and 3 missing from a full table
    ],
)
def test_bad_gain_specs_name_the_argument(gain, needle):
    qrels = pd.DataFrame({"qid": "q", "docno": list("abcd"), "grade": [0, 1, 2, 3]})
    run = pd.DataFrame({"qid": "q", "docno": list("abcd"), "score": [4.0, 3.0, 2.0, 1.0]})
    with pytest.raises(ValueError, match="gain") as err:
        evaluate(qrels, run, ["ndcg"], gain=gain)
    assert needle in str(err.value)


# ------------------------------------------------------------- means over no query


def test_a_mean_over_zero_queries_is_an_error(write):
    qrels = pd.DataFrame({"qid": ["q1", "q2"], "docno": ["a", "b"], "grade": [0, 0]})
    run = pd.DataFrame({"qid": ["q1", "q2"], "docno": ["a", "b"], "score": [1.0, 1.0]})
    res = evaluate(qrels, run, ["ndcg", "ndcg_cut.3"], zero_idcg="skip")
    assert res.per_query.isna().all().all()  # skip: the only NaN allowed
    with pytest.raises(ValueError, match="every query was skipped"):
        res.mean()
    with pytest.raises(ValueError, match="sum to 0"):
        res.weighted_mean({"q1": 1.0})
    q = write("q.txt", "q1 0 a 0\n")
    r = write("r.txt", "q1 Q0 a 1 1 t\n")
    assert_one_line_error(
        cli(q, r, "--zero-idcg", "skip", "-m", "ndcg_cut.10"), "every query was skipped"
    )


def test_no_nan_unless_skip():
    qrels = pd.DataFrame({"qid": ["q1", "q1", "q2"], "docno": ["a", "b", "c"], "grade": [2, 0, 0]})
    run = pd.DataFrame({"qid": ["q1", "q2"], "docno": ["a", "c"], "score": [1.0, 1.0]})
    for policy in ("zero", "one"):
        res = evaluate(qrels, run, ["ndcg", "ndcg_cut.5", "map", "P.5"], zero_idcg=policy)
        assert not res.per_query.isna().any().any()
    with pytest.raises(ValueError, match="IDCG is 0 for 1 queries"):
        evaluate(qrels, run, ["ndcg"], zero_idcg="error")


# ---------------------------------------------------------- gains, not grades


def test_the_ideal_compares_gains_not_grades():
    """A table that gives grade 0 more gain than grade 2: nDCG stays within [0, 1]
    and the best ordering (by gain) scores exactly 1."""
    qrels = pd.DataFrame({"qid": "q", "docno": list("abc"), "grade": [0, 1, 2]})
    table = {0: 5.0, 1: 1.0, 2: 0.0}
    best = pd.DataFrame({"qid": "q", "docno": list("abc"), "score": [3.0, 2.0, 1.0]})
    worst = best.assign(score=[1.0, 2.0, 3.0])
    for ideal in ("judged", "judged-uncut", "retrieved"):
        top = evaluate(qrels, best, ["ndcg", "ndcg_cut.2"], gain=table, ideal=ideal).per_query
        low = evaluate(qrels, worst, ["ndcg", "ndcg_cut.2"], gain=table, ideal=ideal).per_query
        assert np.allclose(top.to_numpy(), 1.0)
        assert ((low.to_numpy() >= 0) & (low.to_numpy() < 1)).all()


# -------------------------------------------------------------- DataFrame ids


@pytest.mark.parametrize(
    ("column", "values", "needle"),
    [
        ("qid", ["q1", None, "q1"], "qid of row 1 is None"),
        ("qid", ["q1", float("nan"), "q1"], "qid of row 1 is nan"),
        ("docno", ["a", 7, "c"], "docno of row 1 is 7 (int)"),
        ("docno", ["a", "b", 2.5], "docno of row 2 is 2.5"),
        ("docno", ["a", b"b", "c"], "docno of row 1"),
        ("score", [1.0, "high", 0.5], "score of row 1 is 'high'"),
        ("score", [1.0, np.nan, 0.5], "score of row 1 is nan"),
        ("score", [1.0, None, 0.5], "score of row 1 is None"),
    ],
)
def test_every_dataframe_id_and_value_is_checked(column, values, needle):
    run = pd.DataFrame({"qid": ["q1"] * 3, "docno": ["a", "b", "c"], "score": [1.0, 0.7, 0.5]})
    run[column] = pd.Series(values, dtype=object)
    qrels = pd.DataFrame({"qid": ["q1"], "docno": ["a"], "grade": [1]})
    with pytest.raises(ValueError) as err:
        evaluate(qrels, run, ["ndcg"])
    assert needle in str(err.value) and "run DataFrame" in str(err.value)


def test_integer_ids_work_and_equal_their_strings():
    qrels = pd.DataFrame({"qid": [1, 1, 2], "docno": [10, 11, 12], "grade": [1, 2, 1]})
    run = pd.DataFrame({"qid": [1, 1, 2], "docno": [11, 10, 12], "score": [1.0, 0.5, 0.2]})
    as_int = evaluate(qrels, run, ["ndcg"]).per_query
    as_str = evaluate(
        qrels.astype({"qid": str, "docno": str}), run.astype({"qid": str, "docno": str}), ["ndcg"]
    ).per_query
    pd.testing.assert_frame_equal(as_int, as_str)
    pl_run = pl.DataFrame({"qid": [1, 1, 2], "docno": [11, 10, 12], "score": [1.0, 0.5, 0.2]})
    pd.testing.assert_frame_equal(evaluate(qrels, pl_run, ["ndcg"]).per_query, as_str)


@pytest.mark.parametrize(
    ("frame", "needle"),
    [
        (pd.DataFrame({"qid": [], "docno": [], "score": []}), "run DataFrame is empty"),
        (pd.DataFrame({"qid": ["q"], "doc": ["a"], "score": [1.0]}), "missing ['docno']"),
        (pl.DataFrame({"qid": ["q", None], "docno": ["a", "b"], "score": [1.0, 2.0]}), "null"),
        (pl.DataFrame({"qid": [1.5], "docno": ["a"], "score": [1.0]}), "strings or integers"),
    ],
)
def test_empty_or_incomplete_frames(frame, needle):
    qrels = pd.DataFrame({"qid": ["q"], "docno": ["a"], "grade": [1]})
    with pytest.raises(ValueError, match="run DataFrame") as err:
        evaluate(qrels, frame, ["ndcg"])
    assert needle in str(err.value)


def test_sources_of_the_wrong_type():
    with pytest.raises(ValueError, match="qrels must be a file path, '-', a DataFrame, .* got int"):
        evaluate(42, "run.txt", ["ndcg"])


# ------------------------------------------------------------------ field counts


def test_a_qrels_line_with_an_extra_field_is_an_error(write):
    qrels = write("qrels.txt", "".join(f"{line} x\n" for line in QRELS.splitlines()))
    with pytest.raises(ValueError, match=r"qrels.txt:1: a qrels line has 4 fields .* got 5"):
        read_qrels(qrels)
    assert_one_line_error(cli(qrels, write("run.txt", RUN)), "qrels.txt:1", "got 5")


def test_extra_run_fields_are_ignored_as_trec_eval_does(write, require):
    """Every line with one or several extra fields: read as the first six."""
    plain = write("run.txt", RUN)
    extra = write("extra.txt", "".join(f"{line} more junk\n" for line in RUN.splitlines()))
    one = write("one.txt", "".join(f"{line} x\n" for line in RUN.splitlines()))
    qrels = write("qrels.txt", QRELS)
    want = evaluate(qrels, plain, ["ndcg", "P.2"], zero_idcg="zero").per_query
    for path in (extra, one):
        got = evaluate(qrels, path, ["ndcg", "P.2"], zero_idcg="zero").per_query
        pd.testing.assert_frame_equal(got, want)
    theirs = pytrec(require("pytrec_eval"), QRELS, RUN, {"ndcg", "P_2"})
    for q, row in want.iterrows():
        assert row["ndcg"] == pytest.approx(theirs[q]["ndcg"], abs=1e-12)
        assert row["P_2"] == pytest.approx(theirs[q]["P_2"], abs=1e-12)


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("q1 Q0 d1 1 2.5 tag\nq1 Q0 d2 2 tag\n", ":2: a run line has 6 fields"),
        # five fields, one doubled space: an empty Q0 or rank must not pass unseen
        ("q1 Q0 d1 1 2.5 tag\nq1  d2 2 2.0 tag\n", ":2: a run line has 6 fields"),
        ("q1 Q0 d1 1 2.5 tag\nq1 Q0 d2  2.0 tag\n", ":2: a run line has 6 fields"),
        ("q1 Q0 d1 1 2.5 tag\nq1 Q0 d2 2 high tag\n", ":2: score 'high' is not a number"),
        ("q1 Q0 d1 1 nan tag\n", ":1: score 'nan' is NaN"),
        ("# only a comment\n", "has no data line"),
        ("", "has no data line"),
        ("q1 Q0 d1 1 2.5 tag\n\n\n# c\nq1  Q0 d2 2\n", ":5: a run line has 6 fields"),
        ("q1 Q0 d1 1 2.5 t\nq1 Q0 d1 2 2.0 t\n", ":2: run lists (q1, d1) more than once"),
    ],
)
def test_malformed_run_lines_name_file_and_line(write, text, needle):
    run = write("run.txt", text)
    with pytest.raises(ValueError) as err:
        evaluate(write("qrels.txt", QRELS), run, ["ndcg"])
    assert needle in str(err.value) and "run.txt" in str(err.value)
    # -c: the qrels' q2 may lack run lines, so only the malformed line is at fault
    assert_one_line_error(cli(write("qrels2.txt", QRELS), run, "-c"), needle.split(": ", 1)[-1])


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("q1 0 d1 3\nq1 0 d2 x\n", ":2: grade 'x' is not a number"),
        ("q1 0 d1 3\nq1 0 d2\n", ":2: a qrels line has 4 fields"),
        ("q1 0 d1 3\n# note\nq1 0 d1 2\n", ":3: qrels lists (q1, d1) more than once"),
    ],
)
def test_malformed_qrels_lines_name_file_and_line(write, text, needle):
    with pytest.raises(ValueError) as err:
        evaluate(write("qrels.txt", text), write("run.txt", RUN), ["ndcg"])
    assert needle in str(err.value)


# -------------------------------------------------------------- bytes and whitespace


@pytest.mark.parametrize("where", [1, 3, 6])
def test_a_bad_byte_names_its_line(write, where):
    lines = RUN.encode().splitlines(keepends=True)
    lines[where - 1] = lines[where - 1].replace(b"d", b"d\xff", 1)
    run = write("run.txt", b"".join(lines))
    with pytest.raises(ValueError, match=rf"run.txt:{where}: byte 0xff at column \d+ is not UTF-8"):
        read_run(run)


WHITESPACE = {
    "tabs": lambda t: t.replace(" ", "\t"),
    "runs of spaces": lambda t: t.replace(" ", "   "),
    "mixed": lambda t: t.replace(" Q0 ", "\tQ0  ").replace(" 0 ", " \t 0\t"),
    "CRLF": lambda t: t.replace("\n", "\r\n"),
    "BOM": lambda t: "\ufeff" + t,
    "leading and trailing": lambda t: "".join(f"  {line} \t\n" for line in t.splitlines()),
    "blank lines and comments": lambda t: "# made by hand\n\n" + t.replace("\n", "\n\n"),
    "no final newline": lambda t: t.rstrip("\n"),
    "vertical tab and form feed": lambda t: t.replace(" ", "\x0b", 2).replace(" ", "\x0c", 1),
}


@pytest.mark.parametrize("style", sorted(WHITESPACE))
def test_any_whitespace_reads_the_same(write, style):
    change = WHITESPACE[style]
    want = evaluate(write("q0", QRELS), write("r0", RUN), ["ndcg", "map"], zero_idcg="zero")
    q, r = write("q1", change(QRELS)), write("r1", change(RUN))
    got = evaluate(q, r, ["ndcg", "map"], zero_idcg="zero")
    pd.testing.assert_frame_equal(got.per_query, want.per_query)
    assert read_run(r).equals(read_run(write("r2", RUN)))


@pytest.mark.parametrize("style", sorted(WHITESPACE))
@pytest.mark.parametrize("parts", [2, 3, 7])
def test_every_whitespace_style_reads_the_same_in_parts(style, parts):
    """Cut into parts at line ends (some holding only comments or blank lines),
    the tokenizer gives the table it gives in one piece."""
    text = WHITESPACE[style](RUN).encode()
    start = 3 if text.startswith(b"\xef\xbb\xbf") else 0
    whole, cut = read_text(text, "run", start, 1), read_text(text, "run", start, parts)
    assert whole.docno.to_list() == cut.docno.to_list() == [x.split()[2] for x in RUN.splitlines()]
    assert whole.value.tolist() == cut.value.tolist()
    assert [whole.qids[c] for c in whole.qid_code] == [cut.qids[c] for c in cut.qid_code]


@pytest.mark.parametrize("at", [7, 100, 4095, 4096, 8191])
def test_a_doubled_separator_at_any_offset_reads_the_same(write, at):
    first = f"q0 Q0 {'x' * (at - 6)} 1 0.5 t\n"  # its third separator is byte ``at``
    rest = "q1 Q0 d1 1 0.5 t\n" * (2 * 8192 // 17 + 2)
    assert first[at] == " "
    doubled = first[: at + 1] + " " + first[at + 1 :] + rest
    assert read_run(write("g", first + rest)).equals(read_run(write("h", doubled)))


def test_general_path_agrees_with_pytrec_eval(write, require):
    messy = WHITESPACE["mixed"](RUN)
    res = evaluate(write("q", QRELS), write("r", messy), ["ndcg", "ndcg_cut.2"], zero_idcg="zero")
    theirs = pytrec(require("pytrec_eval"), QRELS, RUN, {"ndcg", "ndcg_cut_2"})
    for q, row in res.per_query.iterrows():
        assert row["ndcg"] == pytest.approx(theirs[q]["ndcg"], abs=1e-12)
        assert row["ndcg_cut_2"] == pytest.approx(theirs[q]["ndcg_cut_2"], abs=1e-12)


# ---------------------------------------------------------------- arguments


@pytest.mark.parametrize(
    ("measures", "needle"),
    [
        ("ndcg_cut.10", "measures must be a list of measure names, got 'ndcg_cut.10'"),
        (["ndcg_cut.0"], "every cutoff must be >= 1"),
        (["P.0"], "every cutoff must be >= 1"),
        (["bogus"], "unknown measure 'bogus'"),
        (["ndcg.x=3"], "integer grade"),
        (["ndcg.1=abc"], "got '1=abc'"),
        (["ndcg.1=inf"], "not finite"),
        ([], "measures is empty"),
        ([10], "each measure is a name (str), got 10"),
        (None, "measures must be a list"),
    ],
)
def test_bad_measures_name_the_argument(measures, needle):
    with pytest.raises(ValueError) as err:
        measure_specs(measures)
    assert needle in str(err.value)


@pytest.mark.parametrize(
    ("kwargs", "needle"),
    [
        ({"ideal": "best"}, "ideal must be one of"),
        ({"ties": "random"}, "ties must be one of"),
        ({"zero_idcg": "nan"}, "zero_idcg must be one of"),
        ({"missing": "drop"}, "missing must be one of"),
        ({"negative_grades": "zero"}, "negative_grades must be one of"),
        ({"relevance_level": "abc"}, "relevance_level must be an integer >= 0"),
        ({"relevance_level": math.nan}, "relevance_level must be an integer >= 0"),
        ({"relevance_level": 1.5}, "got 1.5"),
        ({"max_docs": -1}, "max_docs must be an integer >= 0, got -1"),
        ({"max_docs": 2.5}, "max_docs must be an integer >= 0, got 2.5"),
        ({"discount": "rbp:2"}, "discount 'rbp:2': "),
        ({"ties": "average", "zero_idcg": "zero"}, "DCG measures only"),
    ],
)
def test_bad_options_name_the_argument(kwargs, needle):
    qrels = pd.DataFrame({"qid": "q", "docno": ["a"], "grade": [1]})
    run = pd.DataFrame({"qid": "q", "docno": ["a"], "score": [1.0]})
    measures = ["map"] if kwargs.get("ties") == "average" else ["ndcg"]
    with pytest.raises(ValueError) as err:
        evaluate(qrels, run, measures, **kwargs)
    assert needle in str(err.value)


@pytest.mark.parametrize(
    ("weights", "needle"),
    [
        ({"q1": "heavy"}, "the weight of query 'q1' is 'heavy'"),
        ({"q1": -1.0}, "the weight of query 'q1' is -1.0"),
        ({"q1": math.nan}, "the weight of query 'q1' is nan"),
        ({"q1": math.inf}, "the weight of query 'q1' is inf"),
        ([1.0, 2.0], "weights must be a mapping"),
    ],
)
def test_bad_weights_name_query_and_value(weights, needle):
    qrels = pd.DataFrame({"qid": ["q1", "q2"], "docno": ["a", "b"], "grade": [1, 1]})
    run = pd.DataFrame({"qid": ["q1", "q2"], "docno": ["a", "b"], "score": [1.0, 1.0]})
    res = evaluate(qrels, run, ["ndcg"])
    with pytest.raises(ValueError) as err:
        res.weighted_mean(weights)
    assert needle in str(err.value)


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["-M", "-1"], "-M must be an integer >= 0, got -1"),
        (["-Mten"], "-M must be an integer >= 0, got 'ten'"),
        (["-l", "abc"], "-l must be an integer >= 0 (trec_eval reads -l as an integer"),
        (["-l", "nan"], "must be an integer >= 0"),
        (["-l", "1.5"], "trec_eval reads -l as an integer"),
        (["-l", "-1"], "trec_eval reads -l as an integer"),
        (["-m", "bogus"], "unknown measure 'bogus'"),
        (["-m", "P.5,5"], "a cutoff is given twice"),
        (["-m", "qrels_jg"], "does not compute"),
        (["-m", "utility.1,2"], "utility takes 4 weights"),
        (["-m", "rbp.p=2"], "p must be between 0 and 1"),
        (["-m", "P.5", "--ties", "average"], "DCG measures only"),
        (["--gain", "1=x"], "--gain '1=x': expected GRADE=GAIN pairs, got '1=x'"),
        (["--ideal", "best"], "--ideal must be one of"),
        (["--negative-grades", "zero"], "--negative-grades must be one of"),
        (["--gain", "linear", "--negative-grades", "gain"], "grades must be >= 0"),
    ],
)
def test_cli_bad_arguments_one_line_exit_2(write, args, needle):
    qrels = write("qrels.txt", QRELS.replace("q1 0 d3 0", "q1 0 d3 -1"))
    assert_one_line_error(cli(qrels, write("run.txt", RUN), *args), needle)


def test_cli_in_process_returns_2(write, capsys):
    assert main([str(write("q", "q1 0 a 1\n")), str(write("r", "q1 Q0 a 1 x t\n"))]) == 2
    err = capsys.readouterr().err
    assert err.startswith("dcglab: error: ") and ":1: score 'x' is not a number" in err


@pytest.mark.parametrize("k", ["abc", "5", math.inf, math.nan, 2.5, 0, -1, True, [3]])
def test_single_query_cutoffs_name_k(k):
    from dcglab import ndcg

    with pytest.raises(ValueError, match=r"k must be an integer >= 1, got "):
        ndcg([3, 2, 1], k)
