"""The evaluation as SQL on real engines: DuckDB in-process, Spark in local mode.

The engines' library API against :func:`dcglab.evaluation.batch.evaluate`, per query
(to 1e-12 under averaged ties, else bit for bit), on seeded runs with heavy ties, -0.0,
queries with nothing relevant and every convention, for every measure family. The
command line's parity over the three paths is tests/test_parity.py, against the
trec_eval binary tests/test_oracle_engines.py, and Spark on a standalone cluster of
separate processes tests/test_engines_cluster.py.

Spark needs Java: without it the Spark tests skip, except under CI=true, where
they must run. They are few (a Spark query costs seconds, not milliseconds).
"""

import subprocess
import sys

import numpy as np
import pandas as pd
import polars as pl
import pytest
from workloads import edge_workload

from dcglab.evaluation.batch import evaluate as batch_evaluate
from dcglab.evaluation.engines import COMPUTED, evaluate, evaluate_files, gains_of
from dcglab.evaluation.measure_families import FAMILIES

duckdb = pytest.importorskip("duckdb")

TOL = 1e-12
MEASURES = ["ndcg", "ndcg_cut.1,3,10,100", "dcg_cut.5"]


# ----------------------------------------------- the library API against batch

CONVENTIONS = [
    {"zero_idcg": "zero"},
    {"zero_idcg": "zero", "missing": "zero"},
    {"zero_idcg": "zero", "score_precision": "float32"},
    {"zero_idcg": "skip", "ideal": "qrels"},
    {"zero_idcg": "one", "ideal": "retrieved", "missing": "zero"},
    {"zero_idcg": "zero", "ties": "average"},
    {"zero_idcg": "zero", "gain": "exponential", "discount": "jk:3"},
    {
        "zero_idcg": "skip",
        "gain": {-1: 0, 0: 0, 1: 4, 2: 1.5, 2.5: 2, 3: 2.5},
        "discount": "rbp:0.7",
    },
    {"zero_idcg": "zero", "discount": "reciprocal", "missing": "zero"},
    {"zero_idcg": "zero", "discount": "ln"},
    {"zero_idcg": "zero", "ideal": "judged-uncut", "max_docs": 7},
    {"zero_idcg": "zero", "judged_only": True, "ideal": "retrieved"},
    {"zero_idcg": "zero", "judged_only": True, "max_docs": 5, "negative_grades": "unjudged"},
    {"zero_idcg": "zero", "negative_grades": "unjudged", "gain": "exponential", "missing": "zero"},
    {"zero_idcg": "zero", "fractional_grades": "truncate", "negative_grades": "unjudged"},
]


def batch(qrels, run, measures=MEASURES, **kw):
    """The reference: dcglab.evaluation.batch, whose grades must be >= 0 for formula gains."""
    return batch_evaluate(qrels, run, measures, **kw).per_query


def clip(qrels, kw):
    """Formula gains reject grade -1: give those conventions grades >= 0 (unless
    negative grades are read as unjudged, trec_eval's way)."""
    if isinstance(kw.get("gain", "linear"), str) and kw.get("negative_grades") != "unjudged":
        return qrels.assign(grade=qrels["grade"].clip(lower=0))
    return qrels


def assert_same(ours: pd.DataFrame, ref: pd.DataFrame, tol: float = TOL) -> None:
    assert list(ours.index) == list(ref.index)
    assert list(ours.columns) == list(ref.columns)
    a, b = ours.to_numpy(dtype=float), ref.to_numpy(dtype=float)
    assert np.array_equal(np.isnan(a), np.isnan(b))
    assert np.nanmax(np.abs(a - b)) <= tol


@pytest.fixture(scope="module")
def data():
    return edge_workload(7)


@pytest.mark.parametrize(
    "kw", CONVENTIONS, ids=lambda kw: ",".join(f"{k}={v}" for k, v in kw.items())
)
def test_duckdb_equals_batch(data, kw):
    qrels, run = data
    qrels = clip(qrels, kw)
    ref = batch(qrels, run, **kw)
    assert_same(evaluate(qrels, run, MEASURES, **kw).per_query, ref)


EVERY_FAMILY = [
    "official",
    "map_cut.2,5",
    "success.1,3",
    "recall.3",
    "Judged@5",
    "Judged",
    "P(rel=2)@3",
    "RR@3",
    "NumRel(rel=2)",
    "ndcg.1=3,2=9",
    "nDCG(dcg='exp-log2')@5",
    "ndcg_cut.3",
    "dcg",
]
"""trec_eval's official set and every other family, with per-measure levels and gains."""


TREC_TIES = [kw for kw in CONVENTIONS if kw.get("ties") != "average"]
"""The conventions under which binary measures are defined (ties broken by docno)."""


@pytest.mark.parametrize(
    "kw",
    [{**kw, "relevance_level": 1 + i % 2} for i, kw in enumerate(TREC_TIES)],
    ids=lambda kw: ",".join(f"{k}={v}" for k, v in kw.items()),
)
def test_every_family_is_bit_for_bit_the_batch_evaluators(data, kw):
    """Binary measures, counts and per-measure gains and levels, at relevance levels
    1 and 2 in turn: the same values, not within 1e-12."""
    qrels, run = data
    if kw.get("negative_grades") != "unjudged":  # ndcg.1=3,2=9 gives grade -1 gain -1
        qrels = qrels.assign(grade=qrels["grade"].clip(lower=0))
    ours = evaluate(qrels, run, EVERY_FAMILY, **kw).per_query
    assert_same(ours, batch(qrels, run, EVERY_FAMILY, **kw), 0.0)


def test_trec_conventions_are_bit_for_bit_the_batch_evaluators(data):
    """Same arithmetic, same order of the sums: not within 1e-12, equal."""
    qrels, run = data
    kw = {"zero_idcg": "zero", "negative_grades": "unjudged", "missing": "zero"}
    kw |= {"judged_only": True, "max_docs": 9}
    assert_same(evaluate(qrels, run, MEASURES, **kw).per_query, batch(qrels, run, **kw), 0.0)


def test_workload_exercises_the_hard_cases(data):
    """The data really has what the tests claim: ties only float32 sees, -0.0, IDCG = 0."""
    qrels, run = data
    s32 = run["score"].astype(np.float32)
    assert run.assign(s=s32).duplicated(["qid", "s"]).sum() > run.duplicated(["qid", "score"]).sum()
    zero = run["score"] == 0
    assert (np.signbit(run["score"]) & zero).any() and (~np.signbit(run["score"]) & zero).any()
    ref = batch(clip(qrels, {}), run, ["ndcg"], zero_idcg="skip")
    assert ref["ndcg"].isna().sum() >= 5
    merged = qrels.merge(run, on=["qid", "docno"], how="left", indicator=True)
    assert (merged["_merge"] == "left_only").sum() > 100
    assert (qrels["grade"] == 2.5).any() and (qrels["grade"] < 0).any()


def test_duckdb_reads_files_parquet_and_relations(data, tmp_path):
    qrels, run = data
    qrels = clip(qrels, {})
    ref = batch(qrels, run, zero_idcg="zero")
    qrels_txt, run_txt = tmp_path / "qrels.txt", tmp_path / "run.txt"
    qrels_txt.write_text("".join(f"{q} 0 {d} {g!r}\n" for q, d, g in qrels.itertuples(False)))
    lines = [f"{q} Q0 {d} {i} {s!r} tag" for i, (q, d, s) in enumerate(run.itertuples(False))]
    run_txt.write_text("\n".join(lines) + "\n")
    assert_same(evaluate(qrels_txt, run_txt, MEASURES, zero_idcg="zero").per_query, ref)
    run_pq, qrels_pq = tmp_path / "run.parquet", tmp_path / "qrels.parquet"
    pl.DataFrame({c: run[c].tolist() for c in run.columns}).write_parquet(run_pq)
    pl.DataFrame({c: qrels[c].tolist() for c in qrels.columns}).write_parquet(qrels_pq)
    con = duckdb.connect()
    assert_same(evaluate(qrels_pq, run_pq, MEASURES, zero_idcg="zero").per_query, ref)
    rels = con.read_parquet(str(qrels_pq)), con.read_parquet(str(run_pq))
    assert_same(evaluate(*rels, MEASURES, zero_idcg="zero").per_query, ref)
    assert con.sql("SELECT COUNT(*) FROM duckdb_views() WHERE NOT internal").fetchall() == [(0,)]


def test_command_line_entry_point_takes_batch_keywords(data, tmp_path):
    """evaluate_files takes batch.evaluate's keywords, so the CLI can call either."""
    qrels, run = data
    qrels_txt, run_txt = tmp_path / "qrels", tmp_path / "run"
    qrels_txt.write_text("".join(f"{q} 0 {d} {g}\n" for q, d, g in qrels.itertuples(False)))
    run_txt.write_text("".join(f"{q} Q0 {d} 1 {s!r} t\n" for q, d, s in run.itertuples(False)))
    kw = {"zero_idcg": "zero", "negative_grades": "unjudged", "missing": "zero", "max_docs": 20}
    kw |= {"fractional_grades": "truncate", "score_precision": "float32", "relevance_level": 2}
    ours = evaluate_files(qrels_txt, run_txt, [*MEASURES, "official"], engine="duckdb", **kw)
    assert_same(ours.per_query, batch(qrels_txt, run_txt, [*MEASURES, "official"], **kw))
    with pytest.raises(ValueError, match="engine must be one of"):
        evaluate_files(qrels_txt, run_txt, MEASURES, engine="python")
    with pytest.raises(ValueError, match="query only_qrels of the qrels .* has no line in the run"):
        evaluate_files(qrels_txt, run_txt, MEASURES, engine="duckdb", missing="error")


@pytest.mark.parametrize(
    "change, match",
    [
        (lambda q, r: (pd.concat([q, q.iloc[:1]]), r), "qrels lists .* more than once"),
        (lambda q, r: (q, pd.concat([r, r.iloc[:1].assign(score=9.0)])), "run lists .* more"),
        (lambda q, r: (q, r.assign(score=r["score"].where(r.index != 3, np.nan))), "number"),
        (lambda q, r: (q, r.rename(columns={"score": "sim"})), r"missing \['score'\]"),
        (lambda q, r: (q, r.assign(qid="x" + r["qid"])), "no query is in both"),
        (lambda q, r: (q.assign(grade=q["grade"] - 2), r), "grades must be >= 0"),
    ],
)
def test_bad_input_is_the_same_error_on_both_paths(data, change, match):
    qrels, run = change(clip(data[0], {}), data[1])
    with pytest.raises(ValueError, match=match) as raised:
        evaluate(qrels, run, ["ndcg"], zero_idcg="zero")
    with pytest.raises(ValueError) as reference:
        batch_evaluate(qrels, run, ["ndcg"], zero_idcg="zero")
    assert str(raised.value) == str(reference.value)


@pytest.mark.slow
def test_import_dcglab_needs_no_engine():
    code = (
        "import sys, dcglab, dcglab.evaluation.engines; "
        "print(sorted({'duckdb', 'pyspark'} & set(sys.modules)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_engine_gains_are_the_batch_evaluators():
    """The engines take their gain table from batch's level_gains: negative grades as
    unjudged gain 0, and a gain that overflows is an error naming the grade, not a NaN."""
    grades = np.array([-1.0, 0.0, 1.0, 2.0])
    assert gains_of(grades, "exponential", "unjudged").tolist() == [0.0, 0.0, 1.0, 3.0]
    with pytest.raises(ValueError, match="grade 1100 has gain inf"):
        gains_of(np.array([1100.0]), "exponential")


# ----------------------------------------------------------------------------- Spark


@pytest.mark.slow
def test_spark_equals_batch(spark, data, tmp_path):
    """Spark DataFrames under -c; a Parquet run and a tab-separated TREC qrels file
    under averaged ties, the ideal from the retrieved documents and -M."""
    qrels, run = data
    qrels = clip(qrels, {})
    sq = spark.createDataFrame(
        list(qrels.itertuples(index=False)), "qid STRING, docno STRING, grade DOUBLE"
    )
    sr = spark.createDataFrame(
        list(run.itertuples(index=False)), "qid STRING, docno STRING, score DOUBLE"
    )
    kw = {"zero_idcg": "zero", "missing": "zero", "judged_only": True, "max_docs": 9}
    ours = evaluate(sq, sr, MEASURES, engine="spark", **kw).per_query
    assert_same(ours, batch(qrels, run, **kw), 0.0)
    run_pq = tmp_path / "run.parquet"
    sr.write.parquet(str(run_pq))
    qrels_txt = tmp_path / "qrels.txt"
    qrels_txt.write_text("".join(f"{q}\t0  {d} {g}\n" for q, d, g in qrels.itertuples(False)))
    kw = {"zero_idcg": "one", "ties": "average", "ideal": "retrieved", "max_docs": 12}
    ours = evaluate(qrels_txt, run_pq, MEASURES, engine="spark", spark=spark, **kw)
    assert_same(ours.per_query, batch(qrels, run, **kw))
    bad = spark.createDataFrame([("q1", None, 1.0)], "qid STRING, docno STRING, score DOUBLE")
    with pytest.raises(ValueError, match=r"run: docno is missing \(null\) in 1 row"):
        evaluate(sq, bad, ["ndcg"], engine="spark", zero_idcg="zero")


def trec_lists(qrels, run, order_labels_by, docno_descending=True):
    """MLlib's input: (ranking, relevant docs, their grades) per evaluated query,
    ranked by score, ties broken by docno (descending: trec_eval)."""
    ranked = run.assign(s32=run["score"] + 0.0)
    ranked = ranked.sort_values(
        ["qid", "s32", "docno"], ascending=[True, False, not docno_descending]
    )
    rows = []
    for qid, judged in qrels.groupby("qid"):
        if qid not in set(run["qid"]):
            continue
        rel = judged[judged["grade"] > 0].sort_values(order_labels_by, ascending=False)
        pred = ranked.loc[ranked["qid"] == qid, "docno"].tolist()
        rows.append((pred, rel["docno"].tolist(), rel["grade"].astype(float).tolist()))
    return rows


def scala_ranking_metrics(spark, rows):
    """Spark's Scala ``RankingMetrics`` on (ranking, labels, grades) triples, through
    ``RankingMetrics.of``: the graded form (Spark >= 3.4) that PySpark does not reach."""
    from py4j.java_collections import ListConverter

    sc = spark.sparkContext
    client = sc._gateway._gateway_client

    def java(values):
        return ListConverter().convert(list(values), client)

    triples = [
        sc._jvm.scala.Tuple3(java(p), java(lab), java(map(float, rel))) for p, lab, rel in rows
    ]
    rdd = sc._jsc.parallelize(java(triples), 2)
    return sc._jvm.org.apache.spark.mllib.evaluation.RankingMetrics.of(rdd)


@pytest.mark.slow
def test_spark_mllib_ndcg_differs_where_its_definition_does(spark, data):
    """Spark 4.3's ``RankingMetrics.ndcgAt`` (mllib/evaluation/RankingMetrics.scala):
    the ranking is taken as given (ties are the caller's business); with grades
    (Scala, Spark >= 3.4) the gain is 2^rel - 1 and the ideal is the labels *in the
    order given*, not sorted; without grades every label is relevant (binary).
    PySpark's ``RankingMetrics`` passes only rankings and labels to Scala, so from
    Python it is binary even when grades are given. Queries without relevant
    documents score 0, and only the mean comes back."""
    from pyspark.mllib.evaluation import RankingMetrics

    qrels, run = data
    qrels = clip(qrels, {})
    sc = spark.sparkContext

    def ours(**kw):
        return float(evaluate(qrels, run, ["ndcg_cut.10"], zero_idcg="zero", **kw).mean().iloc[0])

    def scala(rows, k=10):
        return scala_ranking_metrics(spark, rows).ndcgAt(k)

    graded = trec_lists(qrels, run, order_labels_by="grade")
    exponential, linear = ours(gain="exponential"), ours()
    binary = ours(gain={0: 0, 1: 1, 2: 1, 2.5: 1, 3: 1})
    # Graded, labels sorted best first: nDCG@10 with gain 2^rel - 1, not trec_eval's rel.
    assert abs(scala(graded) - exponential) <= TOL
    assert abs(scala(graded) - linear) > 1e-3
    # PySpark drops the grades: binary nDCG, whether or not grades are passed.
    assert abs(RankingMetrics(sc.parallelize(graded, 2)).ndcgAt(10) - binary) <= TOL
    assert abs(binary - exponential) > 1e-3
    # Labels in another order (here by docno): the ideal is not sorted, IDCG too small.
    assert scala(trec_lists(qrels, run, order_labels_by="docno")) - exponential > 1e-3
    assert scala([(["a", "b"], ["b", "a"], [1.0, 3.0])], k=2) > 1.0  # nDCG above 1
    # Ties are the caller's business: another tie-break gives another value.
    other_ties = trec_lists(qrels, run, order_labels_by="grade", docno_descending=False)
    assert abs(scala(other_ties) - exponential) > 1e-4


def _one_name(family) -> str:
    """A measure name of ``family`` in trec_eval's syntax (ir_measures' for Judged)."""
    if not family.trec:
        return f"{family.name}@5"
    return {"cutoffs": f"{family.name}.3", "points": f"{family.name}.0.5"}.get(
        family.params, family.name
    )


@pytest.mark.parametrize("family", [f for f in FAMILIES if f.kernel != "tag"], ids=lambda f: f.name)
def test_each_family_is_computed_as_batch_or_refused(data, family):
    """The engines decide (:data:`dcglab.evaluation.engines.measures.COMPUTED`): DuckDB
    computes a family listed there with the default path's values, and refuses any
    other (a family added to the tables later too) naming the engine and the measure."""
    qrels, run = clip(data[0], {}), data[1]
    name = _one_name(family)
    if family.name in COMPUTED:
        ours = evaluate(qrels, run, [name], zero_idcg="zero").per_query
        assert_same(ours, batch(qrels, run, [name], zero_idcg="zero"), 0.0)
    else:
        with pytest.raises(ValueError, match=f"engine 'duckdb' does not compute {name}:"):
            evaluate(qrels, run, [name], zero_idcg="zero")
