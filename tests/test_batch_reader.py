"""The TREC reader (:mod:`dcglab.evaluation.batch.reader`): any whitespace; malformed lines named
by file and line."""

import pandas as pd
import pytest

from dcglab.evaluation.batch.reader import read_qrels, read_run

TOL = 1e-12


def test_readers_accept_any_whitespace(tmp_path):
    qrels = tmp_path / "qrels"
    qrels.write_text("q1 0 d1 3\nq1\t0\td2   1\n  q2 0 d3 2\n")
    run = tmp_path / "run"
    run.write_text("q1 Q0 d1 1 2.5 tag\nq1\tQ0 d2\t2 1e-3 tag\n")
    assert read_qrels(qrels)["grade"].tolist() == [3, 1, 2]
    assert read_run(run)["score"].tolist() == [2.5, 0.001]
    numeric = pd.DataFrame({"qid": [1], "docno": [7], "score": [1.0]})
    assert read_run(numeric)["qid"].tolist() == ["1"]


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("q1 Q0 d1 1 2.5 tag\nq1 Q0 d2 2 tag\n", ":2: a run line has 6 fields"),
        ("q1 Q0 d1 1 2.5 tag\nq1 Q0 d2 2 high tag\n", ":2: score 'high' is not a number"),
        ("q1 Q0 d1 1 nan tag\n", ":1: score 'nan' is NaN"),
        ("q1 Q0 d1 1 2.5 tag\n\nq1 Q0 d2 2 x tag\n", ":3: score 'x' is not a number"),
    ],
)
def test_malformed_run_lines_name_file_and_line(tmp_path, text, where):
    run = tmp_path / "run.txt"
    run.write_text(text)
    with pytest.raises(ValueError, match=where) as err:
        read_run(run)
    assert "run.txt" in str(err.value)


def test_malformed_qrels_line(tmp_path):
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("q1 0 d1 3\nq1 0 d2 x\n")
    with pytest.raises(ValueError, match=r"qrels.txt:2: grade 'x' is not a number"):
        read_qrels(qrels)


def test_every_kind_of_string_column_gives_the_same_table():
    """Object arrays, Arrow-backed strings (sliced too: their buffers start
    elsewhere) and polars frames reach the same columns: query codes in order of
    first appearance, docno bytes and hashes."""
    import numpy as np
    import polars as pl
    import pyarrow as pa

    from dcglab.evaluation.batch.reader import run_table

    qid = ["q2", "q10", "q2", "é", "q10"] * 3
    docno = ["d1", "d22", "d3", "dé", "" + "x" * 30] * 3
    score = [float(i) for i in range(len(qid))]
    plain = pd.DataFrame({"qid": pd.Series(qid, dtype=object), "docno": docno, "score": score})
    arrow = pd.DataFrame(
        {
            "qid": pd.arrays.ArrowExtensionArray(pa.array(["skip", *qid])[1:]),
            "docno": pd.Series(docno, dtype="string[pyarrow]"),
            "score": score,
        }
    )
    tables = [run_table(f) for f in (plain, arrow, pl.from_pandas(plain))]
    for t in tables:
        assert t.qids == ["q2", "q10", "é"]
        assert [t.qid(i) for i in range(len(qid))] == qid
        assert t.docno.to_list() == docno
        assert np.array_equal(t.docno.hash, tables[0].docno.hash)
