"""dcglab.evaluation.batch.output: trec_eval's lines, and the same values as CSV and JSON."""

import csv
import io
import json
import math

import numpy as np
import pytest

from dcglab.evaluation.batch.output import render
from dcglab.evaluation.batch.result import BatchResult
from dcglab.evaluation.measure_names import measure_specs


@pytest.fixture
def result():
    """Two queries, the second skipped by ``ndcg_cut_5`` (NaN: IDCG 0 under
    ``zero_idcg="skip"``), a count and a summary-only measure."""
    measures = {m.name: m for m in measure_specs(["ndcg_cut.5", "num_ret", "gm_map"])}
    values = {
        "ndcg_cut_5": np.array([0.4, math.nan]),
        "num_ret": np.array([3.0, 12.0]),
        "gm_map": np.array([0.25, 0.5]),
    }
    return BatchResult(np.array(["q1", "q2"]), values, measures)


def line(name, qid, text):
    """trec_eval's line: the name padded to 22 characters, then tab-separated fields."""
    return name + " " * (22 - len(name)) + "\t" + qid + "\t" + text + "\n"


def test_trec_lines_per_query_then_all(result):
    means = {"ndcg_cut_5": 0.4, "num_ret": 15.0, "gm_map": 0.35355339}
    want = [
        line("num_ret", "q1", "3"),
        line("ndcg_cut_5", "q1", "0.4000"),
        line("num_ret", "q2", "12"),  # q2 has no ndcg_cut_5 line: it was skipped
        line("runid", "all", "tag"),
        line("num_ret", "all", "15"),
        line("gm_map", "all", "0.3536"),  # summary-only: no per-query line
        line("ndcg_cut_5", "all", "0.4000"),
    ]
    assert render(result, means, "trec", True, "tag") == "".join(want)


def test_no_summary_and_no_queries(result):
    means = result.means()
    assert "\tall\t" not in render(result, None, "trec", True)
    assert render(result, means, "trec", False).splitlines()[0].split("\t")[1] == "all"
    assert render(result, None, "trec", False) == ""


def test_csv_and_json_hold_the_same_rows(result):
    means = result.means()
    rows = json.loads(render(result, means, "json", True, "tag"))
    table = list(csv.DictReader(io.StringIO(render(result, means, "csv", True, "tag"))))
    assert [r["qid"] for r in rows] == [r["qid"] for r in table] == ["q1", "q2", "all"]
    assert rows[1]["ndcg_cut_5"] is None and table[1]["ndcg_cut_5"] == ""  # a skipped query
    assert "gm_map" not in rows[0] and table[0]["gm_map"] == ""
    assert rows[2]["runid"] == table[2]["runid"] == "tag"
    assert rows[0]["num_ret"] == 3 and isinstance(rows[0]["num_ret"], int)
    for got, text in zip(rows, table):  # a CSV field is the text JSON writes
        for name, value in got.items():
            want = "" if value is None else value if isinstance(value, str) else repr(value)
            assert text[name] == want, name
    assert rows[2]["ndcg_cut_5"] == means["ndcg_cut_5"] and rows[2]["gm_map"] == means["gm_map"]


def test_a_nan_outside_dcg_is_trec_evals_minus_nan():
    """trec_eval prints C's ``-nan`` (``iprec_at_recall`` of an empty ranking), per
    query and in the mean, which it adds into the sum."""
    measures = {m.name: m for m in measure_specs(["iprec_at_recall.0"])}
    values = {"iprec_at_recall_0.00": np.array([0.5, math.nan])}
    result = BatchResult(np.array(["q1", "q2"]), values, measures)
    means = result.means()
    assert math.isnan(means["iprec_at_recall_0.00"])
    assert render(result, means, "trec", True) == "".join(
        [
            line("iprec_at_recall_0.00", "q1", "0.5000"),
            line("iprec_at_recall_0.00", "q2", "  -nan"),
            line("iprec_at_recall_0.00", "all", "  -nan"),
        ]
    )
