"""ERR@k and RBP, named as ir_measures names them, against the code ir_measures 0.4.3 runs.

ir_measures computes ``ERR@k`` with gdeval.pl (which it bundles and runs with perl),
``RBP(rel=L)`` with cwl_eval (its default pipeline) and graded ``RBP`` with
trectools (its trectools provider, which the default pipeline leaves out). The
workloads have graded qrels with negative labels (-2, -1) and grades up to gdeval's
maximum 4, scores that tie often, qrels queries missing from the run and a run query
missing from the qrels; every qrels query is compared (ir_measures scores a missing
one 0, as ``-c`` does).

Two facts about the reference code shape the workloads, each read in its source:

- cwl_eval keeps the run's order for tied scores (``RunConverter.as_sorted_namedtuple_iter``
  sorts by score only), and trectools cuts at ``k`` in the run's order
  (``get_rbp``: ``head(depth)``), so the run is handed to them in trec_eval's order
  (score, then docno, descending), the order dcglab ranks in; dcglab gets it shuffled.
- trectools groups tied scores across query boundaries (``get_rbp`` shifts the score
  column of the whole run), so each query's scores are drawn from a range of its own;
  and ir_measures' trectools provider binds its RBP function late (a closure in a
  loop), so it is asked for one RBP measure at a time.
"""

from __future__ import annotations

import logging
import pkgutil
import re
import shutil
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dcglab.evaluation.batch import evaluate
from dcglab.evaluation.batch.user_models import FAMILIES as USER_FAMILIES
from dcglab.evaluation.measure_families import FAMILIES
from dcglab.evaluation.presets import IR_MEASURES, TREC_EVAL
from dcglab.formulas.usermodels import err, rbp

ERR_NAMES = ["ERR@1", "ERR@3", "ERR@10", "ERR@20"]
RBP_REL = ["RBP(rel=1)", "RBP(rel=2,p=0.5)", "RBP(rel=3,p=0.95)", "RBP(rel=1,p=0.999)",
           "RBP(rel=0,p=0.7)"]  # fmt: skip
RBP_GRADED = ["RBP", "RBP(p=0.5)", "RBP(p=0.9)@3", "RBP(p=0.999)@5"]
GDEVAL_DEPTH = 1000  # longer than any generated ranking: ERR@1000 is ERR


@pytest.fixture(scope="module")
def ir(require):
    """ir_measures, with cwl_eval's warnings about the grade range silenced."""
    module = require("ir_measures")
    require("cwl")
    require("trectools")
    if shutil.which("perl") is None:
        pytest.skip("perl is not installed (gdeval.pl, ir_measures' ERR, needs it)")
    logging.getLogger("ir_measures.cwl_eval").disabled = True
    return module


@st.composite
def workloads(draw) -> tuple[pd.DataFrame, pd.DataFrame]:
    """qrels with grades -2..4 and a run (shuffled) whose scores tie often."""
    qrels, run = [], []
    for q in range(1, draw(st.integers(1, 5)) + 1):
        docs = [f"d{i:02d}" for i in range(draw(st.integers(2, 14)))]
        judged = draw(st.lists(st.sampled_from(docs), min_size=1, unique=True))
        grades = draw(st.lists(st.sampled_from([-2, -1, 0, 0, 1, 2, 3, 4]),
                               min_size=len(judged), max_size=len(judged)))  # fmt: skip
        qrels += [(str(q), d, g) for d, g in zip(judged, grades)]
        if q > 1 and draw(st.booleans()) and draw(st.booleans()):
            continue  # a qrels query missing from the run
        retrieved = draw(st.lists(st.sampled_from(docs), min_size=1, unique=True))
        scores = draw(st.lists(st.sampled_from([2.0, 1.0, 0.5, 0.25]), min_size=len(retrieved),
                               max_size=len(retrieved)))  # fmt: skip
        run += [(str(q), d, 10.0 * q + s) for d, s in zip(retrieved, scores)]
    if draw(st.booleans()):
        run.append(("99", "d00", 1.0))  # a run query without qrels: left out by both
    order = draw(st.permutations(range(len(run))))
    return (
        pd.DataFrame(qrels, columns=["qid", "docno", "grade"]),
        pd.DataFrame([run[i] for i in order], columns=["qid", "docno", "score"]),
    )


def trec_order(run: pd.DataFrame) -> pd.DataFrame:
    """The run by query, then as trec_eval ranks: score, then docno, descending."""
    ranked = run.sort_values(["score", "docno"], ascending=False)
    return ranked.sort_values("qid", kind="stable").reset_index(drop=True)


def as_ir(qrels: pd.DataFrame, run: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """ir_measures' column names; the run in trec_eval's order (module docstring)."""
    q = qrels.rename(columns={"qid": "query_id", "docno": "doc_id", "grade": "relevance"})
    r = trec_order(run).rename(columns={"qid": "query_id", "docno": "doc_id"})
    return q, r


def theirs(ir, qrels, run, names, provider=None) -> dict[tuple[str, str], float]:
    """ir_measures' value of each (name, qid): its default pipeline, or one provider
    asked for one measure at a time."""
    q, r = as_ir(qrels, run)
    out: dict[tuple[str, str], float] = {}
    for group in [names] if provider is None else [[n] for n in names]:
        measures = {ir.parse_measure(n): n for n in group}
        calc = (provider or ir).iter_calc(list(measures), q, r)
        out |= {(measures[m.measure], m.query_id): float(m.value) for m in calc}
    return out


def gdeval(qrels: pd.DataFrame, run: pd.DataFrame, k: int, folder) -> dict[str, float]:
    """ERR@k of each query from gdeval.pl as ir_measures bundles it, with its two
    ``%.5f`` widened to ``%.17g`` so that its own sums can be compared at full precision."""
    script = pkgutil.get_data("ir_measures", "bin/gdeval.pl").decode()
    assert script.count("%.5f,%.5f") == 1
    (folder / "gdeval.pl").write_text(script.replace("%.5f,%.5f", "%.17g,%.17g"))
    (folder / "qrels").write_text("".join(f"{q} 0 {d} {g}\n" for q, d, g in qrels.values))
    (folder / "run").write_text("".join(f"{q} Q0 {d} 0 {s!r} run\n" for q, d, s in run.values))
    out = subprocess.run(
        ["perl", str(folder / "gdeval.pl"), str(folder / "qrels"), str(folder / "run"), str(k)],
        capture_output=True, text=True, check=True, timeout=60,
    ).stdout  # fmt: skip
    return {line.split(",")[1]: float(line.split(",")[3]) for line in out.splitlines()[1:]}


def ours(qrels, run, names, conventions=IR_MEASURES) -> pd.DataFrame:
    return evaluate(qrels, run, names, conventions=conventions, missing="zero").per_query


def assert_close(got: pd.DataFrame, want: dict[tuple[str, str], float], names, tol):
    """Every qrels query of every measure: ours and theirs, within ``tol``."""
    for name in names:
        qids = {qid for n, qid in want if n == name}
        assert qids == set(got.index), name
        for qid in qids:
            assert abs(got.loc[qid, name] - want[name, qid]) <= tol, (name, qid)


pytestmark = pytest.mark.filterwarnings("ignore:The inplace keyword:Warning")  # trectools'
EXAMPLES = dict(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))


@settings(**EXAMPLES)
@given(data=workloads())
def test_err_equals_gdeval_at_full_precision(ir, tmp_path_factory, data):
    qrels, run = data
    folder = tmp_path_factory.mktemp("gdeval")
    names = [*ERR_NAMES, "ERR"]
    for conventions in (IR_MEASURES, TREC_EVAL):  # the same numbers under both
        got = ours(qrels, run, names, conventions)
        for name in names:
            want = gdeval(qrels, run, int(name.partition("@")[2] or GDEVAL_DEPTH), folder)
            for qid in got.index:  # gdeval prints only queries with a grade above 0
                assert got.loc[qid, name] == pytest.approx(want.get(qid, 0.0), abs=1e-12)


@settings(**EXAMPLES)
@given(data=workloads())
def test_err_equals_ir_measures(ir, data):
    """ir_measures prints gdeval's 5 decimals: equal within half of their last place."""
    qrels, run = data
    assert_close(ours(qrels, run, ERR_NAMES), theirs(ir, qrels, run, ERR_NAMES), ERR_NAMES,
                 5e-6 + 1e-12)  # fmt: skip


@settings(**EXAMPLES)
@given(data=workloads())
def test_binary_rbp_equals_ir_measures_cwl_eval(ir, data):
    qrels, run = data
    assert_close(ours(qrels, run, RBP_REL), theirs(ir, qrels, run, RBP_REL), RBP_REL, 1e-12)


@settings(**EXAMPLES)
@given(data=workloads())
def test_graded_rbp_equals_ir_measures_trectools(ir, data):
    qrels, run = data
    want = theirs(ir, qrels, run, RBP_GRADED, provider=ir.trectools)
    assert_close(ours(qrels, run, RBP_GRADED), want, RBP_GRADED, 1e-12)


def _ranked_grades(qrels: pd.DataFrame, run: pd.DataFrame, qid: str) -> np.ndarray:
    """A query's grades in trec_eval's order, unjudged 0, negative grades 0 (unjudged)."""
    grade = dict(zip(qrels.docno[qrels.qid == qid], qrels.grade[qrels.qid == qid]))
    docs = trec_order(run[run.qid == qid]).docno
    return np.array([max(grade.get(d, 0), 0) for d in docs], dtype=float)


@settings(**EXAMPLES)
@given(data=workloads())
def test_default_is_the_single_list_formulas(data):
    """Under trec_eval's conventions each query's ERR and RBP are those of the
    single-list API (:mod:`dcglab.formulas.usermodels`) on its ranked grades: ERR
    with gdeval's maximum grade 4, RBP as Moffat and Zobel define it, graded RBP with
    the grade as gain, and no tie averaging."""
    qrels, run = data
    names = ["ERR@3", "ERR", "RBP(rel=2,p=0.999)", "RBP(p=0.5)@4"]
    got = ours(qrels, run, names, TREC_EVAL)
    for qid in got.index:
        g = _ranked_grades(qrels, run, qid)
        if len(g) == 0:
            g = np.zeros(1)  # -c: a ranking of one unjudged document
        want = [err(g[:3], 4), err(g, 4), rbp(g, 0.999, threshold=2)]
        want.append(sum(0.5 * 0.5**i * x for i, x in enumerate(g[:4])))
        assert got.loc[qid, names].tolist() == pytest.approx(want, abs=1e-12), qid


def test_err_and_rbp_are_the_user_model_kernels():
    assert [f.name for f in FAMILIES if f.kernel == "user"] == list(USER_FAMILIES)


README_QRELS = pd.DataFrame(
    {"qid": "1", "docno": ["a", "b", "c", "d", "e", "f"], "grade": [-1, 1, 0, 1, 1, 0]}
)
README_RUN = pd.DataFrame(
    {"qid": "1", "docno": ["a", "b", "c", "f", "d", "e"], "score": [1.0, 1.0, 0.5, 0.4, 0.3, 0.2]}
)


@pytest.mark.parametrize(
    ("name", "trec_eval", "ir_measures", "provider"),
    [
        # one relevant document at ranks 1, 5 and 6; cwl_eval divides by 1 - 0.999**1000
        ("RBP(rel=1,p=0.999)", 0.0029910160, 0.0047303406, None),
        # b (1) and a (-1) tie at ranks 1 and 2: b's weight is 0.5, or their mean 0.375
        ("RBP(p=0.5)", 0.546875, 0.421875, "trectools"),
        ("ERR@3", 0.0625, 0.0625, None),  # b stops 1/16 of users at rank 1
    ],
)
def test_the_readme_rows(ir, name, trec_eval, ir_measures, provider):
    """The README's rows for ERR and RBP: worked out by hand, and ir_measures' value.

    Ranked as trec_eval ranks: b (1), a (-1), c (0), f (0), d (1), e (1)."""
    plain = ours(README_QRELS, README_RUN, [name], TREC_EVAL).loc["1", name]
    compat = ours(README_QRELS, README_RUN, [name]).loc["1", name]
    assert (plain, compat) == pytest.approx((trec_eval, ir_measures), abs=1e-10)
    want = theirs(ir, README_QRELS, README_RUN, [name], provider and getattr(ir, provider))
    assert compat == pytest.approx(want[name, "1"], abs=5e-6 if name.startswith("ERR") else 1e-12)


@pytest.mark.parametrize("p", ["0", "1", "-0.2", "1.5", "'x'", "True", "1e999"])
def test_rbp_p_outside_0_1_is_one_error_naming_the_measure(p):
    name = f"RBP(p={p})@10"
    message = re.escape(f"measure {name!r}: p (RBP's persistence) must be a number between 0 and 1")
    with pytest.raises(ValueError, match=message):
        evaluate(README_QRELS, README_RUN, ["ndcg", name], conventions=TREC_EVAL)


@pytest.mark.parametrize(
    ("name", "options", "message"),
    [
        ("ERR(rel=2)@10", {}, "measure 'ERR(rel=2)@10': ERR takes cutoff; got rel="),
        ("RBP(q=0.5)", {}, "measure 'RBP(q=0.5)': RBP takes cutoff, p, rel; got q="),
        ("ERR@0", {}, "measure 'ERR@0': every cutoff must be >= 1"),
        ("RBP", {"ties": "average"}, "ties='average' applies to DCG measures only"),
    ],
)
def test_other_bad_names_and_conventions(name, options, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        evaluate(README_QRELS, README_RUN, [name], conventions=TREC_EVAL, **options)


def test_err_refuses_grades_it_cannot_read(tmp_path):
    """A grade above gdeval's 4 (gdeval stops on it), and a negative grade read as a
    grade (``negative_grades="gain"``, the library's default): the file, line, measure
    and grade."""
    qrels = tmp_path / "qrels"
    qrels.write_text("1 0 a 1\n1 0 b 5\n1 0 c -1\n")
    run = tmp_path / "run"
    run.write_text("1 Q0 a 1 2.0 r\n1 Q0 b 2 1.0 r\n")
    with pytest.raises(ValueError, match=re.escape(f"{qrels}:2: measure 'ERR@10': grade 5 is")):
        evaluate(qrels, run, ["ERR@10"], conventions=TREC_EVAL)
    qrels.write_text("1 0 a 1\n1 0 b 4\n1 0 c -1\n")
    assert evaluate(qrels, run, ["ERR@10"], conventions=TREC_EVAL).per_query.iloc[0, 0] > 0
    with pytest.raises(ValueError, match=re.escape(f"{qrels}:3: measure 'ERR': grade -1 is")):
        evaluate(qrels, run, ["ERR"], gain={-1: 0, 1: 1, 4: 4})  # the gain takes -1, ERR not


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "dcglab", *args], capture_output=True, text=True, timeout=120
    )


def test_the_command_line_prints_them_and_lists_them(tmp_path):
    qrels, run = tmp_path / "qrels", tmp_path / "run"
    qrels.write_text("".join(f"1 0 {d} {g}\n" for d, g in README_QRELS[["docno", "grade"]].values))
    run.write_text("".join(f"1 Q0 {d} 0 {s} r\n" for d, s in README_RUN[["docno", "score"]].values))
    names = ["ERR@3", "RBP(p=0.5)", "RBP(rel=1,p=0.999)"]
    for flags, values in (([], ("0.0625", "0.5469", "0.0030")),
                          (["--ir-measures"], ("0.0625", "0.4219", "0.0047"))):  # fmt: skip
        proc = _cli(str(qrels), str(run), "-q", *flags, *[a for n in names for a in ("-m", n)])
        assert proc.returncode == 0, proc.stderr
        want = [f"{n:<22}\t{q}\t{v}" for q in ("1", "all") for n, v in zip(names, values)]
        assert proc.stdout.splitlines() == want
    proc = _cli(str(qrels), str(run), "-m", "RBP(p=1)")
    assert (proc.returncode, proc.stdout) == (2, "")
    assert len(proc.stderr.strip().splitlines()) == 1 and "p (RBP's persistence)" in proc.stderr
    assert "Traceback" not in proc.stderr
    helped = _cli("--help").stdout
    assert "ERR@20" in helped and "RBP(rel=1,p=0.9)" in helped


def test_cwl_eval_reads_1000_ranks(ir):
    """Relevant documents at ranks 1, 1000 and 1001: cwl_eval reads the first 1,000;
    by default RBP reads the whole ranking."""
    docs = [f"d{i:04d}" for i in range(1100)]
    qrels = pd.DataFrame({"qid": "1", "docno": [docs[0], docs[999], docs[1000]], "grade": 1})
    run = pd.DataFrame({"qid": "1", "docno": docs, "score": -np.arange(1100.0)})
    names = ["RBP(rel=1,p=0.999)", "RBP(rel=1,p=0.5)@1000"]
    want = theirs(ir, qrels, run, names[:1])
    uncut = theirs(ir, qrels, run, ["RBP(rel=1,p=0.5)"])  # cwl_eval takes no cutoff
    want[names[1], "1"] = uncut["RBP(rel=1,p=0.5)", "1"]  # and reads 1,000 ranks anyway
    assert_close(ours(qrels, run, names), want, names, 1e-12)
    plain = ours(qrels, run, names[:1], TREC_EVAL).iloc[0, 0]
    assert plain == pytest.approx(0.001 * (1 + 0.999**999 + 0.999**1000), abs=1e-15)
