"""dcglab.evaluation.engines.spark_adapter: temporary views and queries on one SparkSession
(the session-wide ``spark`` fixture of conftest.py: one JVM for every module)."""

from types import SimpleNamespace

import polars as pl
import pytest

from dcglab.evaluation.engines.adapter import EngineError, projected
from dcglab.evaluation.engines.spark_adapter import SparkAdapter
from dcglab.evaluation.options import Conventions
from dcglab.evaluation.presets import TREC_EVAL

pytestmark = pytest.mark.slow

FRAME = pl.DataFrame({"qid": ["q1", "q2"], "docno": ["a", "b"], "score": [2.0, 1.0]})
QRELS = pl.DataFrame({"qid": ["q1", "q2"], "docno": ["a", "c"], "grade": [1, 2]})


def test_a_frame_becomes_a_view_that_is_dropped_on_close(spark):
    db = SparkAdapter(spark)
    db.frame_view(FRAME, "dcglab_test_v")
    assert db.columns("dcglab_test_v") == {"qid": "string", "docno": "string", "score": "double"}
    assert db.sql("SELECT qid, score FROM dcglab_test_v ORDER BY qid") == [("q1", 2.0), ("q2", 1.0)]
    folder = db.folder
    assert folder is not None and folder.exists()
    db.close()
    assert not folder.exists()
    assert not spark.catalog.tableExists("dcglab_test_v")


def test_a_spark_dataframe_is_viewed_in_its_session(spark):
    frame = spark.createDataFrame(FRAME.rows(), "qid STRING, docno STRING, score DOUBLE")
    db = SparkAdapter()
    assert not db.native_view(FRAME, "dcglab_test_p")
    assert db.native_view(frame, "dcglab_test_s") and db.session is spark
    assert db.sql("SELECT COUNT(*) FROM dcglab_test_s") == [(2,)]
    db.close()
    assert not spark.catalog.tableExists("dcglab_test_s")


def test_a_parquet_file_is_read_by_spark(spark, tmp_path):
    FRAME.write_parquet(tmp_path / "run.parquet")
    db = SparkAdapter(spark)
    db.parquet_view(tmp_path / "run.parquet", "dcglab_test_pq")
    assert db.sql("SELECT qid FROM dcglab_test_pq ORDER BY qid") == [("q1",), ("q2",)]
    db.close()


class ClusterSession:
    """The ``spark`` session as seen on a cluster: its master is not local."""

    def __init__(self, session):
        self.session = session
        self.sparkContext = SimpleNamespace(master="spark://cluster:7077")
        self.catalog = session.catalog

    def __getattr__(self, name):
        return getattr(self.session, name)


def test_on_a_cluster_a_frame_is_sent_with_its_spark_types(spark):
    """Executors cannot see a local folder: the frame's rows go with ``createDataFrame``."""
    db = SparkAdapter(ClusterSession(spark))
    db.frame_view(FRAME.with_columns(rank=pl.Series([1, 2])), "dcglab_test_c")
    assert db.folder is None
    want = {"qid": "string", "docno": "string", "score": "double", "rank": "bigint"}
    assert db.columns("dcglab_test_c") == want
    assert db.sql("SELECT qid, rank FROM dcglab_test_c ORDER BY qid") == [("q1", 1), ("q2", 2)]
    db.close()
    assert not spark.catalog.tableExists("dcglab_test_c")


def test_an_engine_error_is_one_line_naming_the_engine(spark):
    with pytest.raises(EngineError, match=r"^spark: [^\n]*$"):
        SparkAdapter(spark).sql("SELECT * FROM dcglab_no_such_table")


def test_the_plan_shuffles_each_table_once_by_bucket_and_joins_nothing(spark, tmp_path):
    """The Spark evaluation's executed plan: the run and the qrels each scanned once
    and shuffled once, by their bucket of queries; no join; one cogroup of the
    buckets in Python workers, which returns one row per query."""
    db = SparkAdapter(spark)
    for name, frame in (("run", FRAME), ("qrels", QRELS)):
        frame.write_parquet(tmp_path / f"{name}.parquet")
        db.parquet_view(tmp_path / f"{name}.parquet", f"dcglab_test_{name}")
    c = Conventions.of(TREC_EVAL, missing="zero")
    frame = db.bucketed(
        projected(db, "dcglab_test_qrels", "qrels"),
        projected(db, "dcglab_test_run", "run"),
        ["official", "ndcg_cut.10"],
        c,
        ("qrels", "run"),
    )
    assert sorted(frame.toPandas()["qid"]) == ["q1", "q2"]
    plan = frame._jdf.queryExecution().executedPlan().toString()
    final = plan.split("== Initial Plan ==")[0]
    n = spark.conf.get("spark.sql.shuffle.partitions")
    assert final.count("Exchange hashpartitioning(bucket") == 2
    assert final.count("Exchange") == 2
    assert final.count("FileScan parquet") == 2
    assert "Join" not in final
    assert final.count("FlatMapCoGroupsInArrow") == 1
    assert final.count("pmod(hash(qid") == 2 and f", {n})" in final
    db.close()
