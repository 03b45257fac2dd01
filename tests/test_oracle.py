"""dcglab's command line against the real trec_eval 10.0 binary, on generated cases.

Each case (tests/oracle.py) is run through both tools. Where trec_eval prints
results, dcglab must print the same bytes; where trec_eval refuses the input
(a non-zero exit), dcglab must refuse it too, with one line on stderr and exit
status 2, unless the README lists the case as a leniency
(``oracle.leniency``). The cases are drawn by hypothesis; a failure shrinks to
a small qrels/run pair and names the first differing line.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st
from oracle import (
    Case,
    agree,
    cases,
    dcglab,
    dcglab_subprocess,
    trec_eval,
)

MANY = settings(
    max_examples=600,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def check(binary: Path, case: Case, run=dcglab) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        agree(run(case, folder), trec_eval(binary, case, folder), case)


# Scores equal as float32 but not as double: trec_eval 10.0 ranks the grade-0
# document first, so nDCG@1 is 0 (trec_eval 9 and pytrec_eval tie them and
# order by docno, giving 1).
CLOSE = Case(
    qrels="q1 0 a 2\nq1 0 b 0\n",
    run="q1 Q0 a 1 0.7 t\nq1 Q0 b 2 0.7000000001 t\n",
    options=("-q",),
    measures=("ndcg_cut.1", "recip_rank", "map"),
)

# AP is 71/160 = 0.44375 exactly; summed left to right in double (as trec_eval
# does) it prints 0.4438, summed pairwise it can print 0.4437.
AP_ORDER = Case(
    qrels="".join(f"q 0 r{i} 1\n" for i in range(8)),
    run="".join(
        f"q Q0 {d} {i} {100 - i} t\n"
        for i, d in enumerate(["n0", "r0", "r1", "r2", "r3", "r4", "n1", "n2", "n3"])
    ),
    options=("-q",),
    measures=("map",),
)


@MANY
@given(case=cases())
@example(case=CLOSE)
@example(case=AP_ORDER)
def test_command_line_is_trec_eval(case: Case, trec_eval_binary: Path) -> None:
    check(trec_eval_binary, case)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=cases())
@pytest.mark.slow
def test_python_m_dcglab_is_trec_eval(case: Case, trec_eval_binary: Path) -> None:
    """A few cases through a real ``python -m dcglab`` process, as a user runs it."""
    check(trec_eval_binary, case, dcglab_subprocess)


def test_close_scores_are_not_tied(trec_eval_binary: Path) -> None:
    """The documented case, spelled out: trec_eval 10.0 prints nDCG@1 = 0."""
    with tempfile.TemporaryDirectory() as tmp:
        theirs = trec_eval(trec_eval_binary, CLOSE, Path(tmp))
        ours = dcglab(CLOSE, Path(tmp))
    assert "ndcg_cut_1            \tq1\t0.0000" in theirs.stdout
    assert ours.stdout == theirs.stdout


def test_a_mean_of_negative_zeros_is_zero(trec_eval_binary: Path) -> None:
    """set_F with beta -1 is -0.0 for a query whose recall is below its precision;
    trec_eval's mean starts its sum at 0.0, so it prints 0.0000, not -0.0000."""
    case = Case(
        qrels="q1 0 a 1\nq1 0 b 1\nq1 0 c 1\n",
        run="q1 Q0 a 1 2.0 t\n",
        options=("-q",),
        measures=("set_F.-1",),
    )
    with tempfile.TemporaryDirectory() as tmp:
        theirs = trec_eval(trec_eval_binary, case, Path(tmp))
        ours = dcglab(case, Path(tmp))
    assert "\tq1\t-0.0000" in theirs.stdout and "\tall\t0.0000" in theirs.stdout
    assert ours.stdout == theirs.stdout


def test_a_missing_query_is_refused_without_c(trec_eval_binary: Path) -> None:
    """trec_eval 10.0 exits with status 4 when a qrels query has no run lines."""
    case = Case(qrels="q1 0 a 1\nq2 0 b 1\n", run="q1 Q0 a 1 1.0 t\n", measures=("map",))
    with tempfile.TemporaryDirectory() as tmp:
        theirs = trec_eval(trec_eval_binary, case, Path(tmp))
        ours = dcglab(case, Path(tmp))
    assert theirs.status == 4
    assert ours.status == 2 and "q2" in ours.stderr and "-c" in ours.stderr


@st.composite
def float32_ties(draw) -> tuple[dict, dict]:
    """qrels and run dicts whose scores tie as float32 but not as double."""
    qrels: dict[str, dict[str, int]] = {}
    run: dict[str, dict[str, float]] = {}
    for q in draw(
        st.lists(st.sampled_from(["q1", "q2", "q10"]), min_size=1, max_size=3, unique=True)
    ):
        n = draw(st.integers(2, 8))
        docs = [f"d{i}" for i in range(n)]
        qrels[q] = {d: draw(st.integers(0, 3)) for d in docs}
        assume(any(qrels[q].values()))
        steps = draw(st.lists(st.integers(-3, 3), min_size=n, max_size=n))
        run[q] = {d: 0.7 + s * 1e-10 for d, s in zip(docs, steps)}
    return qrels, run


@settings(max_examples=100, deadline=None)
@given(data=float32_ties())
def test_float32_precision_is_pytrec_eval(data, references) -> None:
    """``score_precision="float32"`` reproduces trec_eval 9 (pytrec_eval) per query."""
    import pandas as pd

    from dcglab.evaluation.batch import evaluate

    qrels, run = data
    q = pd.DataFrame(
        [(qid, d, g) for qid, docs in qrels.items() for d, g in docs.items()],
        columns=["qid", "docno", "grade"],
    )
    r = pd.DataFrame(
        [(qid, d, s) for qid, docs in run.items() for d, s in docs.items()],
        columns=["qid", "docno", "score"],
    )
    ours = evaluate(q, r, ["ndcg", "ndcg_cut.3", "map", "recip_rank"], score_precision="float32")
    theirs = references.trec_eval(qrels, run, {"ndcg", "ndcg_cut.3", "map", "recip_rank"})
    for col, name in [("ndcg", "ndcg"), ("ndcg_cut_3", "ndcg_cut_3"), ("map", "map")]:
        for qid in qrels:
            got = float(ours.per_query.loc[qid, col])
            assert got == pytest.approx(theirs[qid][name], abs=1e-12), (qid, col)


@pytest.mark.parametrize(
    ("qrels", "theirs_fails"),
    [
        ("q 0 a 1\nq 0 b 0\n# the last line\n", lambda s: s < 0),  # reads past the end
        ("q 0 a 1\n# one\n# two\nq 0 b 0\n", lambda s: s > 0),  # refuses "# two"
    ],
    ids=["trailing comment", "consecutive comments"],
)
def test_qrels_comments_are_a_listed_leniency(trec_eval_binary: Path, qrels, theirs_fails):
    """The README lists both: dcglab reads the comments as comments."""
    case = Case(qrels=qrels, run="q Q0 a 1 1 t\nq Q0 b 2 0.5 t\n", measures=("map",))
    with tempfile.TemporaryDirectory() as tmp:
        theirs = trec_eval(trec_eval_binary, case, Path(tmp))
        ours = dcglab(case, Path(tmp))
    assert theirs_fails(theirs.status), theirs
    assert ours.status == 0 and ours.stdout == "map                   \tall\t1.0000\n"
