"""ir_measures' names give ir_measures' numbers under the ``IR_MEASURES`` preset.

Graded qrels with negative labels (TREC Web's -2 and -1) and runs with heavily
tied scores are drawn at random; every measure below, named as ir_measures names
it, must equal ir_measures 0.4 per query. Without the preset the same names
keep trec_eval 10.0's numbers (``test_oracle.py``), and the three that differ
are shown to differ on a small case.
"""

from __future__ import annotations

import ir_measures
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dcglab.evaluation.batch import evaluate
from dcglab.evaluation.presets import IR_MEASURES, TREC_EVAL

NAMES = [
    "Judged@3",
    "Judged@10",
    "IPrec@0.1",
    "IPrec@0.3",
    "IPrec@0.5",
    "RR@3",
    "RR@10",
    "RR(rel=2)@10",
    "RR",
    "nDCG@10",
    "nDCG",
    "AP",
    "AP@5",
    "P@5",
    "P(rel=2)@5",
    "R@10",
    "Rprec",
    "Bpref",
    "Success@3",
    "NumRel",
    "NumRet(rel=1)",
]


@st.composite
def workloads(draw) -> tuple[pd.DataFrame, pd.DataFrame]:
    """qrels with grades -2..3 and a run whose scores tie often."""
    qrels, run = [], []
    for q in range(draw(st.integers(1, 5))):
        docs = [f"d{i:02d}" for i in range(draw(st.integers(2, 14)))]
        judged = draw(st.lists(st.sampled_from(docs), min_size=1, unique=True))
        grades = draw(st.lists(st.sampled_from([-2, -1, 0, 0, 1, 2, 3]), min_size=len(judged),
                               max_size=len(judged)))  # fmt: skip
        if max(grades) < 1:
            grades[0] = 2  # a relevant document, so that every measure is defined
        qrels += [(f"q{q}", d, g) for d, g in zip(judged, grades)]
        retrieved = draw(st.lists(st.sampled_from(docs), min_size=1, unique=True))
        scores = draw(st.lists(st.sampled_from([1.0, 0.5, 0.25, 2.0]), min_size=len(retrieved),
                               max_size=len(retrieved)))  # fmt: skip
        run += [(f"q{q}", d, s) for d, s in zip(retrieved, scores)]
    return (
        pd.DataFrame(qrels, columns=["qid", "docno", "grade"]),
        pd.DataFrame(run, columns=["qid", "docno", "score"]),
    )


def theirs(
    qrels: pd.DataFrame, run: pd.DataFrame, names: list[str] = NAMES
) -> dict[tuple[str, str], float]:
    q = qrels.rename(columns={"qid": "query_id", "docno": "doc_id", "grade": "relevance"})
    r = run.rename(columns={"qid": "query_id", "docno": "doc_id"})
    measures = [ir_measures.parse_measure(n) for n in names]
    return {(str(m.measure), m.query_id): m.value for m in ir_measures.iter_calc(measures, q, r)}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=workloads())
def test_ir_measures_preset_equals_ir_measures(data):
    qrels, run = data
    want = theirs(qrels, run)
    ours = evaluate(qrels, run, NAMES, **IR_MEASURES).per_query
    for name in NAMES:
        key = str(ir_measures.parse_measure(name))
        for qid in ours.index:
            if (key, qid) in want:
                assert ours.loc[qid, name] == pytest.approx(want[key, qid], abs=1e-9), (name, qid)


@pytest.mark.parametrize(
    ("name", "trec_eval", "ir"),
    [
        ("Judged@2", 0.5, 1.0),  # a's -1 is judged for ir_measures, unjudged for trec_eval
        ("RR@1", 1.0, 0.0),  # a and b tie: trec_eval ranks b first, ir_measures a
        ("IPrec@0.4", 1.0, 0.5),  # R = 3: lround(1.2) = 1 relevant, (long)(1.2 + 0.9) = 2
    ],
)
def test_the_names_that_differ(name, trec_eval, ir):
    """The README's table: each name whose number depends on the preset, by hand.

    Ranked as trec_eval ranks: b (1), a (-1), c (0), f (0), d (1), e (1)."""
    qrels = pd.DataFrame(
        {"qid": "q", "docno": ["a", "b", "c", "d", "e", "f"], "grade": [-1, 1, 0, 1, 1, 0]}
    )
    run = pd.DataFrame(
        {
            "qid": "q",
            "docno": ["a", "b", "c", "f", "d", "e"],
            "score": [1.0, 1.0, 0.5, 0.4, 0.3, 0.2],
        }
    )
    plain = evaluate(qrels, run, [name], **TREC_EVAL).per_query.loc["q", name]
    compat = evaluate(qrels, run, [name], **IR_MEASURES).per_query.loc["q", name]
    assert (plain, compat) == pytest.approx((trec_eval, ir))
    want = theirs(qrels, run, [name])[str(ir_measures.parse_measure(name)), "q"]
    assert compat == pytest.approx(want)
