"""The evaluation as SQL on real engines: DuckDB in-process, Spark in local mode.

Each engine's per-query values must equal the batch evaluator's (itself tested
against trec_eval) within 1e-12, on seeded runs with heavy score ties (also ties
that appear only in float32, and -0.0), judged documents that were not
retrieved, queries with nothing relevant, and trec_eval's -c. Spark needs Java:
without it the Spark tests skip, except under CI=true, where they must run.
"""

import os
import shutil
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from dcglab.batch import evaluate as batch_evaluate
from dcglab.cli import main as cli_main
from dcglab.engines import evaluate, evaluate_files, evaluation_sql, local_spark

duckdb = pytest.importorskip("duckdb")

TOL = 1e-12
MEASURES = ["ndcg", "ndcg_cut.1,3,10,100", "dcg_cut.5"]
CONVENTIONS = [
    {"zero_idcg": "zero"},
    {"zero_idcg": "zero", "missing": "zero"},
    {"zero_idcg": "skip", "ideal": "qrels"},
    {"zero_idcg": "one", "ideal": "retrieved", "missing": "zero"},
    {"zero_idcg": "zero", "ties": "average"},
    {"zero_idcg": "zero", "gain": "exponential", "discount": "jk:3"},
    {"zero_idcg": "skip", "gain": {-1: 0, 0: 0, 1: 4, 2: 1.5, 3: 2.5}, "discount": "rbp:0.7"},
    {"zero_idcg": "zero", "discount": "reciprocal", "missing": "zero"},
    {"zero_idcg": "zero", "discount": "ln"},
    {"zero_idcg": "zero", "ideal": "judged-uncut", "max_docs": 7},
    {"zero_idcg": "zero", "judged_only": True, "ideal": "retrieved"},
    {"zero_idcg": "zero", "negative_grades": "unjudged", "gain": "exponential", "missing": "zero"},
]


def workload(seed, n_queries=40):
    """Heavy ties, -0.0, float32-only ties, unretrieved judged documents, queries
    with nothing relevant, qrels-only and run-only queries, grade -1."""
    rng = np.random.default_rng(seed)
    run, qrels = [], []
    for q in range(n_queries):
        qid = f"q{q}"  # q10 sorts before q2: byte order matters
        docs = rng.choice(60, size=int(rng.integers(1, 30)), replace=False)
        for d in docs:
            score = float(rng.integers(-3, 4)) / 2
            if score == 0:
                score = float(rng.choice([-0.0, 0.0]))  # must tie: trec_eval ties them
            else:
                score += float(rng.integers(0, 2)) * 1e-9  # equal once rounded to float32
            run.append((qid, f"d{d}", score))
        judged = np.concatenate([docs[: len(docs) // 2], 100 + rng.choice(20, 4, replace=False)])
        top = 0 if q % 7 == 0 else 4  # every 7th query has nothing relevant
        for d in judged:
            qrels.append((qid, f"d{d}", int(rng.integers(-1, top)) if top else 0))
    qrels.append(("only_qrels", "d1", 2))
    run.append(("only_run", "d1", 1.0))
    return (
        pd.DataFrame(qrels, columns=["qid", "docno", "grade"]),
        pd.DataFrame(run, columns=["qid", "docno", "score"]),
    )


def batch(qrels, run, measures=MEASURES, **kw):
    """The reference: dcglab.batch, whose grades must be >= 0 for formula gains."""
    return batch_evaluate(qrels, run, measures, **kw).per_query


def clip(qrels, kw):
    """Formula gains reject grade -1: give those conventions grades >= 0 (unless
    negative grades are read as unjudged, trec_eval's way)."""
    if isinstance(kw.get("gain", "linear"), str) and kw.get("negative_grades") != "unjudged":
        return qrels.assign(grade=qrels["grade"].clip(lower=0))
    return qrels


def assert_same(ours: pd.DataFrame, ref: pd.DataFrame) -> None:
    assert list(ours.index) == list(ref.index)
    assert list(ours.columns) == list(ref.columns)
    a, b = ours.to_numpy(dtype=float), ref.to_numpy(dtype=float)
    assert np.array_equal(np.isnan(a), np.isnan(b))
    assert np.nanmax(np.abs(a - b)) <= TOL


@pytest.fixture(scope="module")
def data():
    return workload(7)


@pytest.mark.parametrize(
    "kw", CONVENTIONS, ids=lambda kw: ",".join(f"{k}={v}" for k, v in kw.items())
)
def test_duckdb_equals_batch(data, kw):
    qrels, run = data
    qrels = clip(qrels, kw)
    ref = batch(qrels, run, **kw)
    assert_same(evaluate(qrels, run, MEASURES, **kw).per_query, ref)


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


def test_duckdb_reads_files_and_relations(data, tmp_path):
    qrels, run = data
    qrels = clip(qrels, {})
    ref = batch(qrels, run, zero_idcg="zero")
    qrels_txt, run_txt = tmp_path / "qrels.txt", tmp_path / "run.txt"
    qrels.assign(it="0")[["qid", "it", "docno", "grade"]].to_csv(
        qrels_txt, sep=" ", header=False, index=False
    )
    lines = [f"{q} Q0 {d} {i} {s!r} tag" for i, (q, d, s) in enumerate(run.itertuples(index=False))]
    run_txt.write_text("\n".join(lines) + "\n")
    assert_same(evaluate(qrels_txt, run_txt, MEASURES, zero_idcg="zero").per_query, ref)
    tabbed = tmp_path / "run_tabs.txt"  # any whitespace: the general reader takes over
    tabbed.write_text("\n".join(x.replace(" ", "\t  ", 1) for x in lines) + "\n")
    assert_same(evaluate(qrels_txt, tabbed, MEASURES, zero_idcg="zero").per_query, ref)
    con = duckdb.connect()
    run_pq, qrels_pq = tmp_path / "run.parquet", tmp_path / "qrels.parquet"
    con.from_df(run).write_parquet(str(run_pq))
    con.from_df(qrels).write_parquet(str(qrels_pq))
    assert_same(evaluate(qrels_pq, run_pq, MEASURES, zero_idcg="zero").per_query, ref)
    rels = con.read_parquet(str(qrels_pq)), con.read_parquet(str(run_pq))
    assert_same(evaluate(*rels, MEASURES, zero_idcg="zero").per_query, ref)
    assert con.sql("SELECT COUNT(*) FROM duckdb_views() WHERE NOT internal").fetchall() == [(0,)]


def test_command_line_entry_point(data, tmp_path):
    """evaluate_files takes batch.evaluate's keywords, so the CLI can call either."""
    qrels, run = data
    qrels_txt, run_txt = tmp_path / "qrels", tmp_path / "run"
    qrels_txt.write_text("".join(f"{q} 0 {d} {g}\n" for q, d, g in qrels.itertuples(index=False)))
    run_txt.write_text(
        "".join(f"{q} Q0 {d} 1 {s!r} t\n" for q, d, s in run.itertuples(index=False))
    )
    kw = {"zero_idcg": "zero", "negative_grades": "unjudged", "missing": "zero", "max_docs": 20}
    ours = evaluate_files(qrels_txt, run_txt, MEASURES, engine="duckdb", relevance_level=2, **kw)
    assert_same(ours.per_query, batch(qrels, run, **kw))
    with pytest.raises(ValueError, match="engine must be one of"):
        evaluate_files(qrels_txt, run_txt, MEASURES, engine="python")


def test_cli_engine_option_prints_what_the_default_path_prints(data, tmp_path, capsys):
    """`python -m dcglab --engine duckdb` prints trec_eval's lines byte for byte like the
    in-process default; a measure the engines lack is one error line and status 2."""
    qrels, run = data
    qrels_txt, run_txt = tmp_path / "qrels", tmp_path / "run"
    qrels_txt.write_text("".join(f"{q} 0 {d} {g}\n" for q, d, g in qrels.itertuples(index=False)))
    run_txt.write_text(
        "".join(f"{q} Q0 {d} 1 {s!r} t\n" for q, d, s in run.itertuples(index=False))
    )
    args = [str(qrels_txt), str(run_txt), "-q", "-c", "-m", "ndcg", "-m", "ndcg_cut.3,10"]
    printed = {}
    for engine in ("python", "duckdb"):
        assert cli_main([*args, "--engine", engine]) == 0
        printed[engine] = capsys.readouterr().out
    assert printed["duckdb"] == printed["python"]
    assert printed["python"].count("\tall\t") == 3
    assert cli_main([str(qrels_txt), str(run_txt), "-m", "map", "--engine", "duckdb"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "map" in err


@pytest.mark.parametrize(
    "change, match",
    [
        (lambda q, r: (pd.concat([q, q.iloc[:1]]), r), "qrels lists .* more than once"),
        (
            lambda q, r: (q, pd.concat([r, r.iloc[:1].assign(score=9.0)])),
            "run lists .* more than once",
        ),
        (lambda q, r: (q, r.assign(score=r["score"].where(r.index != 3, np.nan))), "non-finite"),
        (lambda q, r: (q, r.assign(score=r["score"].where(r.index != 3, np.inf))), "non-finite"),
        (lambda q, r: (q, r.rename(columns={"score": "sim"})), r"missing \['score'\]"),
        (lambda q, r: (q, r.assign(qid="x" + r["qid"])), "no query is in both"),
        (lambda q, r: (q.assign(grade=q["grade"] - 2), r), "grades must be >= 0"),
    ],
)
def test_bad_input_is_a_value_error(data, change, match):
    qrels, run = change(clip(data[0], {}), data[1])
    with pytest.raises(ValueError, match=match):
        evaluate(qrels, run, ["ndcg"], zero_idcg="zero")


def test_zero_idcg_error_names_queries(data):
    qrels, run = data
    with pytest.raises(ValueError, match="ndcg_cut_10: IDCG is 0 for .* queries .*q0"):
        evaluate(clip(qrels, {}), run, ["ndcg_cut.10"])


def test_conventions_checked(data):
    for kw, match in [
        ({"engine": "oracle"}, "engine must be one of"),
        ({"ideal": "judged-ish"}, "ideal must be one of"),
        ({"missing": "maybe"}, "missing must be one of"),
        ({"negative_grades": "drop"}, "negative_grades must be one of"),
        ({"max_docs": 0}, "max_docs must be an integer >= 1"),
    ]:
        with pytest.raises(ValueError, match=match):
            evaluate(*data, ["ndcg"], **kw)


def test_only_dcg_measures(data):
    with pytest.raises(ValueError, match="the SQL engines compute ndcg"):
        evaluate(*data, ["ndcg", "map"], zero_idcg="zero")


def test_sql_is_shared_and_divides_nothing():
    """One text for every engine; integer division and the gain formula are absent."""
    text = evaluation_sql(["ndcg_cut.10", "ndcg"], ideal="judged")
    assert "ORDER BY score32 DESC, docno DESC" in text
    assert "/ LN(CAST(rnk + 1 AS DOUBLE))" in text
    assert "POWER" not in text and "NULLIF" not in text


@pytest.mark.slow
def test_import_dcglab_needs_no_engine():
    code = (
        "import sys, dcglab, dcglab.engines; "
        "print(sorted({'duckdb', 'pyspark'} & set(sys.modules)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


# ----------------------------------------------------------------------------- Spark


@pytest.fixture(scope="module")
def spark(skip_or_fail, require):
    if not (shutil.which("java") or os.environ.get("JAVA_HOME")):
        skip_or_fail("no Java runtime: install Debian's openjdk-17-jre-headless to run Spark")
    require("pyspark")
    session = local_spark("local[2]", memory="1g", partitions=2)
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


@pytest.mark.slow
def test_spark_equals_batch(spark, data, tmp_path):
    """Spark DataFrames under -c; a Parquet run and a tab-separated TREC qrels file
    under averaged ties, the ideal from the retrieved documents and -M."""
    qrels, run = data
    qrels = clip(qrels, {})
    schema = "qid STRING, docno STRING, grade INT"
    sq = spark.createDataFrame(list(qrels.itertuples(index=False)), schema)
    sr = spark.createDataFrame(
        list(run.itertuples(index=False)), "qid STRING, docno STRING, score DOUBLE"
    )
    kw = {"zero_idcg": "zero", "missing": "zero"}
    ours = evaluate(sq, sr, MEASURES, engine="spark", **kw).per_query
    assert_same(ours, batch(qrels, run, **kw))
    run_pq = tmp_path / "run.parquet"
    sr.write.parquet(str(run_pq))
    qrels_txt = tmp_path / "qrels.txt"
    qrels_txt.write_text("".join(f"{q}\t0  {d} {g}\n" for q, d, g in qrels.itertuples(index=False)))
    kw = {"zero_idcg": "one", "ties": "average", "ideal": "retrieved", "max_docs": 12}
    ours = evaluate(qrels_txt, run_pq, MEASURES, engine="spark", spark=spark, **kw)
    assert_same(ours.per_query, batch(qrels, run, **kw))


def trec_lists(qrels, run, order_labels_by, docno_descending=True):
    """MLlib's input: (ranking, relevant docs, their grades) per evaluated query,
    ranked by float32 score, ties broken by docno (descending: trec_eval)."""
    ranked = run.assign(s32=run["score"].astype(np.float32) + np.float32(0.0))
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
    binary = ours(gain={0: 0, 1: 1, 2: 1, 3: 1})
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


def test_engine_gains_are_the_batch_evaluators():
    """The engines take their gain table from batch's level_gains: negative grades as
    unjudged gain 0, and a gain that overflows is an error naming the grade, not a NaN."""
    from dcglab.engines import gains_of

    grades = np.array([-1.0, 0.0, 1.0, 2.0])
    assert gains_of(grades, "exponential", "unjudged").tolist() == [0.0, 0.0, 1.0, 3.0]
    with pytest.raises(ValueError, match="grade 1100 has gain inf"):
        gains_of(np.array([1100.0]), "exponential")
