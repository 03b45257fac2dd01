"""dcglab.evaluation.engines.duckdb_adapter: views and queries on one DuckDB connection."""

import pandas as pd
import polars as pl
import pytest

from dcglab.evaluation.engines.adapter import EngineError

duckdb = pytest.importorskip("duckdb")
from dcglab.evaluation.engines.duckdb_adapter import DuckDBAdapter  # noqa: E402

FRAME = pl.DataFrame({"qid": ["q1", "q2"], "docno": ["a", "b"], "score": [2.0, 1.0]})


def test_a_frame_becomes_a_view_that_is_dropped_on_close():
    db = DuckDBAdapter()
    db.frame_view(FRAME, "v")
    assert db.columns("v") == {"qid": "VARCHAR", "docno": "VARCHAR", "score": "DOUBLE"}
    assert db.sql("SELECT qid, score FROM v ORDER BY qid") == [("q1", 2.0), ("q2", 1.0)]
    folder = db.folder
    assert folder is not None and any(folder.iterdir())
    db.close()
    assert not folder.exists()
    with pytest.raises(EngineError, match="^duckdb: Catalog Error"):
        db.sql("SELECT * FROM v")


def test_a_parquet_folder_is_every_parquet_file_beneath_it(tmp_path):
    (tmp_path / "part").mkdir()
    FRAME[:1].write_parquet(tmp_path / "a.parquet")
    FRAME[1:].write_parquet(tmp_path / "part" / "b.parquet")
    db = DuckDBAdapter()
    db.parquet_view(tmp_path, "v")
    assert db.sql("SELECT qid FROM v ORDER BY qid") == [("q1",), ("q2",)]
    db.close()


def test_a_relation_is_viewed_on_its_own_connection():
    con = duckdb.connect()
    rel = con.sql("SELECT 'q1' AS qid, 'a' AS docno, 1.0 AS score")
    db = DuckDBAdapter()
    assert not db.native_view(pd.DataFrame(FRAME.to_dict(as_series=False)), "p")
    assert db.native_view(rel, "r")
    assert db.sql("SELECT qid FROM r") == [("q1",)]
    db.close()
    assert con.sql("SELECT COUNT(*) FROM duckdb_views() WHERE NOT internal").fetchall() == [(0,)]


def test_an_engine_error_is_one_line_naming_the_engine():
    with pytest.raises(EngineError, match=r"^duckdb: Parser Error: [^\n]*$"):
        DuckDBAdapter().sql("SELEC 1")
