"""dcglab.evaluation.engines.adapter: the engine-neutral checks of Parquet files and engine
tables."""

import pytest

from dcglab.evaluation.engines import evaluate
from dcglab.evaluation.engines.adapter import is_parquet

duckdb = pytest.importorskip("duckdb")


def test_engine_tables_are_checked_like_the_readers_input(tmp_path):
    """Parquet and relations are checked in SQL: missing ids name the column and a row,
    repeated pairs and non-finite scores are refused, ids must be text or integers."""
    con = duckdb.connect()
    qrels = con.sql("SELECT 'q1' AS qid, 'a' AS docno, 1 AS grade")
    for select, needle in [
        ("SELECT 'q1' AS qid, NULL::VARCHAR AS docno, 1.0 AS score", r"docno is missing \(null"),
        ("SELECT NULL::VARCHAR AS qid, 'a' AS docno, 1.0 AS score", r"run: qid is missing"),
        ("SELECT 'q1' AS qid, 'a' AS docno, 'nan'::DOUBLE AS score", "score is not a number"),
        (
            "SELECT * FROM (VALUES ('q1', 'a', 1.0), ('q1', 'a', 2.0)) t(qid, docno, score)",
            r"run lists \(q1, a\) more than once",
        ),
        ("SELECT 'q1' AS qid, 1.5 AS docno, 1.0 AS score", "docno must hold strings or integers"),
        ("SELECT 'q1' AS qid, 'a' AS docno, 1.0 AS sim", r"missing \['score'\]"),
    ]:
        with pytest.raises(ValueError, match=needle):
            evaluate(qrels, con.sql(select), ["ndcg"], zero_idcg="zero")


@pytest.mark.parametrize(
    "name, parquet",
    [("run.parquet", True), ("run.PQ", True), ("run.pq", True), ("run.txt", False),
     ("run", False), ("run.parquet.gz", False)],
)  # fmt: skip
def test_parquet_is_a_folder_or_a_parquet_suffix(tmp_path, name, parquet):
    assert is_parquet(tmp_path / name) is parquet
    (tmp_path / name).mkdir()
    assert is_parquet(tmp_path / name)


def test_a_missing_parquet_file_is_named(tmp_path):
    missing = tmp_path / "qrels.parquet"
    with pytest.raises(ValueError, match=f"qrels file not found: {missing}"):
        evaluate(missing, tmp_path / "run.parquet", ["ndcg"])


def test_an_empty_engine_table_is_refused():
    con = duckdb.connect()
    qrels = con.sql("SELECT 'q1' AS qid, 'a' AS docno, 1 AS grade")
    empty = con.sql("SELECT 'q1' AS qid, 'a' AS docno, 1.0 AS score WHERE false")
    with pytest.raises(ValueError, match="run is empty: it needs at least one row"):
        evaluate(qrels, empty, ["ndcg"])


def test_relevance_is_taken_for_grade():
    """A qrels table with ``relevance`` instead of ``grade`` gives the same values."""
    con = duckdb.connect()
    run = con.sql("SELECT * FROM (VALUES ('q1', 'a', 2.0), ('q1', 'b', 1.0)) t(qid, docno, score)")
    rows = "VALUES ('q1', 'a', 0), ('q1', 'b', 2)"
    graded = con.sql(f"SELECT * FROM ({rows}) t(qid, docno, grade)")
    relevance = con.sql(f"SELECT * FROM ({rows}) t(qid, docno, relevance)")
    want = evaluate(graded, run, ["ndcg"]).per_query
    assert want.iloc[0, 0] < 1  # the ideal order differs, so the grades are read
    assert evaluate(relevance, run, ["ndcg"]).per_query.equals(want)
