"""The batch evaluator, the TREC readers and the command line.

Agreement with each reference library is checked under that library's own
convention, on seeded random runs with ties and grades 0-3, within 1e-12.
"""

import json
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
from spies import spy

from dcglab.batch import evaluate, prepare
from dcglab.cli import main
from dcglab.codes import lexicographic_codes
from dcglab.trec import read_qrels, read_run

TOL = 1e-12


def random_workload(seed, n_queries=60, tie_levels=6, float32_ties=False):
    """A run with many exact score ties (and -0.0), half the judged docs unretrieved."""
    rng = np.random.default_rng(seed)
    run, qrels = [], []
    for q in range(n_queries):
        qid = f"q{q:03d}"
        docs = rng.choice(80, size=int(rng.integers(1, 40)), replace=False)
        for d in docs:
            score = float(rng.integers(-tie_levels, tie_levels)) / 2 or -0.0
            if float32_ties:
                score += float(rng.integers(0, 2)) * 1e-9  # equal once rounded to float32
            run.append((qid, f"doc{d}", score))
        judged = np.concatenate([docs[: len(docs) // 2], 100 + rng.choice(50, 5, replace=False)])
        for d in judged:
            qrels.append((qid, f"doc{d}", int(rng.integers(0, 4))))
    return (
        pd.DataFrame(run, columns=["qid", "docno", "score"]),
        pd.DataFrame(qrels, columns=["qid", "docno", "grade"]),
    )


def as_dicts(run, qrels):
    r, j = {}, {}
    for q, d, s in run.itertuples(index=False):
        r.setdefault(q, {})[d] = s
    for q, d, g in qrels.itertuples(index=False):
        j.setdefault(q, {})[d] = int(g)
    return r, j


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("float32_ties", [False, True])
def test_trec_eval_ndcg_and_ndcg_cut(seed, float32_ties, references):
    """pytrec_eval (trec_eval 9.x inside) rounds scores to float32: so does
    ``score_precision="float32"``."""
    run, qrels = random_workload(seed, float32_ties=float32_ties)
    r, j = as_dicts(run, qrels)
    names = {"ndcg", "ndcg_cut_1", "ndcg_cut_5", "ndcg_cut_10", "ndcg_cut_100"}
    theirs = references.trec_eval(j, r, names)
    ours = evaluate(
        qrels, run, ["ndcg", "ndcg_cut.1,5,10,100"], zero_idcg="zero", score_precision="float32"
    ).per_query
    assert sorted(theirs) == list(ours.index)
    for q, row in ours.iterrows():
        for name in names:
            assert row[name] == pytest.approx(theirs[q][name], abs=TOL), (q, name)


def test_ir_measures_ndcg_at_k(references):
    run, qrels = random_workload(7)
    r, j = as_dicts(run, qrels)
    ours = evaluate(qrels, run, ["nDCG@5", "ndcg"], zero_idcg="zero").per_query
    theirs = references.ir_measures(j, r, ["nDCG@5", "nDCG"])
    for name, col in (("nDCG@5", "nDCG@5"), ("nDCG", "ndcg")):
        assert sorted(theirs[name]) == list(ours.index)
        for q, value in theirs[name].items():
            assert ours.loc[q, col] == pytest.approx(value, abs=TOL)


@pytest.mark.slow  # ranx compiles its measures with numba on first use
def test_ranx_ndcg_and_ndcg_burges_without_ties(references):
    """ranx breaks score ties its own way, so it is compared on untied scores."""
    run, qrels = random_workload(8)
    run["score"] = np.random.default_rng(8).permutation(len(run)).astype(float)
    r, j = as_dicts(run, qrels)
    theirs = references.ranx(j, r, ["ndcg@5", "ndcg", "ndcg_burges@5", "ndcg_burges"])
    for gain, name in (("linear", "ndcg"), ("exponential", "ndcg_burges")):
        ours = evaluate(qrels, run, ["ndcg_cut.5", "ndcg"], gain=gain, zero_idcg="zero")
        for ours_col, metric in (("ndcg_cut_5", f"{name}@5"), ("ndcg", name)):
            for q, v in ours.per_query[ours_col].items():
                assert v == pytest.approx(theirs[metric][q], abs=TOL), (metric, q)


def test_scikit_learn_ideal_from_items_and_tie_averaging(references):
    run, qrels = random_workload(9, tie_levels=2)
    ours = evaluate(
        qrels,
        run,
        ["ndcg_cut.3", "ndcg", "dcg_cut.3", "dcg"],
        ideal="retrieved",
        ties="average",
        zero_idcg="skip",
    ).per_query
    grades = run.merge(qrels, on=["qid", "docno"], how="left").fillna({"grade": 0})
    for q, g in grades.groupby("qid"):
        truth, score = g["grade"].to_numpy(), g["score"].to_numpy()
        if len(g) < 2:
            continue  # scikit-learn refuses a single document
        sk = references.sklearn
        assert ours.loc[q, "dcg_cut_3"] == pytest.approx(sk("dcg", truth, score, 3), abs=TOL)
        assert ours.loc[q, "dcg"] == pytest.approx(sk("dcg", truth, score), abs=TOL)
        if truth.sum() > 0:
            assert ours.loc[q, "ndcg_cut_3"] == pytest.approx(sk("ndcg", truth, score, 3), abs=TOL)
            assert ours.loc[q, "ndcg"] == pytest.approx(sk("ndcg", truth, score), abs=TOL)
        else:
            assert np.isnan(ours.loc[q, "ndcg"])


def test_batch_agrees_with_single_query_measures():
    run, qrels = random_workload(11)
    run["score"] = np.arange(len(run), 0, -1, dtype=float)  # distinct, in file order
    res = evaluate(
        qrels,
        run,
        ["ndcg_cut.4"],
        gain="exponential",
        discount="jk:3",
        ideal="qrels",
        zero_idcg="one",
    ).per_query
    judged = qrels.groupby("qid")
    for q, g in run.groupby("qid"):
        j = dict(zip(judged.get_group(q)["docno"], judged.get_group(q)["grade"]))
        grades = [j.get(d, 0) for d in g["docno"]]
        # ideal="qrels": DCG cut at 4, IDCG over every judged document
        from dcglab import dcg, idcg

        i = idcg(list(j.values()), gain="exponential", discount="jk:3")
        want = dcg(grades, 4, "exponential", "jk:3") / i if i > 0 else 1.0
        assert res.loc[q, "ndcg_cut_4"] == pytest.approx(want, abs=TOL)


def test_missing_queries_and_trec_c():
    qrels = pd.DataFrame({"qid": ["a", "b"], "docno": ["d1", "d2"], "grade": [1, 2]})
    run = pd.DataFrame({"qid": ["a", "z"], "docno": ["d1", "d9"], "score": [1.0, 1.0]})
    assert list(evaluate(qrels, run).per_query.index) == ["a"]
    full = evaluate(qrels, run, missing="zero").per_query["ndcg_cut_10"]
    assert full.to_dict() == {"a": 1.0, "b": 0.0}


def test_zero_idcg_policies_and_means():
    qrels = pd.DataFrame({"qid": ["a", "b", "b"], "docno": ["d1", "d2", "d3"], "grade": [2, 0, 0]})
    run = pd.DataFrame(
        {"qid": ["a", "a", "b"], "docno": ["d0", "d1", "d2"], "score": [2.0, 1.0, 1.0]}
    )
    with pytest.raises(ValueError, match="IDCG is 0 for 1 queries"):
        evaluate(qrels, run)
    a = 1 / np.log2(3)
    for policy, mean in (("zero", a / 2), ("one", (a + 1) / 2), ("skip", a)):
        res = evaluate(qrels, run, ["ndcg"], zero_idcg=policy)
        assert res.mean()["ndcg"] == pytest.approx(mean)
    res = evaluate(qrels, run, ["ndcg"], zero_idcg="zero")
    assert res.weighted_mean({"a": 3, "b": 1})["ndcg"] == pytest.approx(3 * a / 4)
    with pytest.raises(ValueError, match="non-negative"):
        res.weighted_mean({"a": -1})


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"measures": ["no_such_measure"]}, "unknown measure"),
        ({"measures": ["ndcg_cut.0"]}, "cutoff must be >= 1"),
        ({"measures": []}, "measures is empty"),
        ({"ideal": "best"}, "ideal must be one of"),
        ({"ties": "random"}, "ties must be one of"),
        ({"missing": "drop"}, "missing must be"),
        ({"discount": "log:1"}, "base must be greater than 1"),
        ({"gain": "quadratic"}, "gain must be"),
    ],
)
def test_bad_arguments(kwargs, message):
    qrels = pd.DataFrame({"qid": ["a"], "docno": ["d1"], "grade": [1]})
    run = pd.DataFrame({"qid": ["a"], "docno": ["d1"], "score": [1.0]})
    with pytest.raises(ValueError, match=message):
        evaluate(qrels, run, **kwargs)


def test_duplicates_are_errors():
    qrels = pd.DataFrame({"qid": ["a"], "docno": ["d1"], "grade": [1]})
    run = pd.DataFrame({"qid": ["a", "a"], "docno": ["d1", "d1"], "score": [1.0, 2.0]})
    with pytest.raises(ValueError, match=r"run lists \(a, d1\) more than once"):
        evaluate(qrels, run)
    with pytest.raises(ValueError, match=r"qrels lists \(a, d1\) more than once"):
        evaluate(pd.concat([qrels, qrels]), run.iloc[:1])


def test_negative_grades_need_a_mapping():
    qrels = pd.DataFrame({"qid": ["a", "a"], "docno": ["d1", "d2"], "grade": [1, -1]})
    run = pd.DataFrame({"qid": ["a"], "docno": ["d2"], "score": [1.0]})
    with pytest.raises(ValueError, match="use a gain mapping"):
        evaluate(qrels, run)
    res = evaluate(qrels, run, gain={1: 4, -1: 0})
    assert res.per_query["ndcg_cut_10"].iloc[0] == 0.0


def test_lexicographic_codes_follow_byte_order():
    words = ["b", "a", "ab", "a", "aaaaaaaaaaaaaaaaaab", "aaaaaaaaaaaaaaaaaaa", "é", ""]
    values = np.array(words * 3000, dtype=object)  # many distinct -> packed-word path
    codes, distinct = lexicographic_codes(values)
    order = sorted(set(words), key=lambda w: w.encode())
    assert [order[c] for c in codes[: len(words)]] == words
    assert distinct.to_list() == order
    for ids in ([f"d{i}" for i in range(20000)], [f"clueweb09-en{i:012d}" for i in range(20000)]):
        arr = np.array(ids[::-1], dtype=object)  # one 64-bit word, then several
        assert (np.argsort(lexicographic_codes(arr)[0]) == np.argsort(arr)).all()


# ---- readers ----------------------------------------------------------------------


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


# ---- command line ------------------------------------------------------------------


@pytest.fixture
def files(tmp_path):
    run, qrels = random_workload(5, n_queries=12)
    qpath, rpath = tmp_path / "qrels", tmp_path / "run"
    qrels.assign(it=0)[["qid", "it", "docno", "grade"]].to_csv(
        qpath, sep=" ", header=False, index=False
    )
    ranked = run.assign(Q0="Q0", rank=1, tag="t")[["qid", "Q0", "docno", "rank", "score", "tag"]]
    ranked.to_csv(rpath, sep="\t", header=False, index=False)
    return qpath, rpath, run, qrels


def test_cli_output_matches_trec_eval_format(files, capsys, references):
    qpath, rpath, run, qrels = files
    assert main([str(qpath), str(rpath), "-m", "ndcg_cut.10", "-q"]) == 0
    out = capsys.readouterr().out
    r, j = as_dicts(run, qrels)
    theirs = references.trec_eval(j, r, {"ndcg_cut_10"})
    # trec_eval prints "%-22s\t%s\t%6.4f\n": each query in qid order, then the mean
    want = "".join(
        f"{'ndcg_cut_10':<22}\t{q}\t{theirs[q]['ndcg_cut_10']:6.4f}\n" for q in sorted(theirs)
    )
    want += (
        f"{'ndcg_cut_10':<22}\tall\t{np.mean([v['ndcg_cut_10'] for v in theirs.values()]):6.4f}\n"
    )
    assert out == want


def test_cli_formats(files, capsys):
    qpath, rpath, _, _ = files
    assert (
        main([str(qpath), str(rpath), "-m", "ndcg", "-m", "ndcg_cut.5", "--format", "json", "-q"])
        == 0
    )
    records = json.loads(capsys.readouterr().out)
    assert [set(r) for r in records] == [{"qid", "ndcg", "ndcg_cut_5"}] * 13
    assert [r["qid"] for r in records][-1] == "all"
    options = ["--gain", "0=0,1=1,2=3,3=7", "--discount", "jk:2", "--ties", "average"]
    args = [str(qpath), str(rpath), "-m", "ndcg_cut.10", "--format", "csv", *options]
    assert main([*args, "--ideal", "retrieved"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "qid,ndcg_cut_10" and lines[1].startswith("all,")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["MISSING", "RUN"], "qrels file not found"),
        (["QRELS", "RUN", "-m", "no_such_measure"], "unknown measure"),
        (["QRELS", "RUN", "--gain", "1=x"], "--gain: expected GRADE=GAIN"),
        (["QRELS", "RUN", "--discount", "rbp:2"], "p (patience) must lie"),
        (["QRELS", "RUN", "--ties", "random"], "invalid choice"),
        (["QRELS", "BADRUN"], ":1: a run line has 6 fields"),
        (["QRELS"], "the following arguments are required"),
    ],
)
def test_cli_bad_input_one_line_exit_2(files, tmp_path, args, message):
    qpath, rpath, _, _ = files
    bad = tmp_path / "badrun"
    bad.write_text("q1 Q0 d1 1\n")
    names = {"QRELS": str(qpath), "RUN": str(rpath), "BADRUN": str(bad)}
    proc = subprocess.run(
        [sys.executable, "-m", "dcglab", *[names.get(a, a) for a in args]],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr
    assert message in proc.stderr
    assert "Traceback" not in proc.stderr


def test_cli_help_documents_every_convention():
    proc = subprocess.run(
        [sys.executable, "-m", "dcglab", "--help"], capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0
    for word in (
        "--gain",
        "--discount",
        "--ideal",
        "--ties",
        "--zero-idcg",
        "-c",
        "trec_eval",
        "scikit-learn",
        "ranx",
        "ir_measures",
        "jk:B",
    ):
        assert word in proc.stdout


def test_prepare_then_compute_reuses_the_work():
    run, qrels = random_workload(12)
    p = prepare(qrels, run)
    from dcglab.batch import compute

    a = compute(p, ["ndcg_cut.5"], zero_idcg="zero").per_query
    b = evaluate(qrels, run, ["ndcg_cut.5"], zero_idcg="zero").per_query
    pd.testing.assert_frame_equal(a, b)


@pytest.mark.parametrize("layout", ["sorted", "reversed", "shuffled"])
def test_grouping_layouts_give_the_same_result(layout):
    """Equal-length lists in qid order, in another order, or interleaved."""
    rng = np.random.default_rng(21)
    rows = [
        (f"q{q}", f"d{d}", float(rng.integers(0, 3)))
        for q in range(30)
        for d in rng.choice(50, 8, replace=False)
    ]
    run = pd.DataFrame(rows, columns=["qid", "docno", "score"])
    qrels = pd.DataFrame(
        [(f"q{q}", f"d{d}", int(rng.integers(0, 4))) for q in range(30) for d in range(0, 50, 3)],
        columns=["qid", "docno", "grade"],
    )
    measures = ["ndcg", "ndcg_cut.3", "map", "P.5", "recip_rank"]
    expected = evaluate(qrels, run, measures, zero_idcg="zero").per_query
    if layout == "reversed":
        run = pd.concat([g for _, g in run.groupby("qid", sort=False)][::-1])
    elif layout == "shuffled":
        run = run.sample(frac=1, random_state=3)
    got = evaluate(qrels, run, measures, zero_idcg="zero").per_query
    pd.testing.assert_frame_equal(expected, got, rtol=0, atol=TOL)
    assert got.index.tolist() == sorted(got.index, key=str.encode)


def test_rows_in_the_run_files_order_report_the_first_query_in_byte_order():
    """A run whose query blocks are not in byte order is laid out in its own
    order; results and errors still come in byte order of the query ids."""
    qrels = pd.DataFrame({"qid": ["q2", "q10", "q1"], "docno": ["d"] * 3, "grade": [0, 0, 1]})
    run = pd.DataFrame({"qid": ["q2", "q10", "q1"], "docno": ["d"] * 3, "score": [1.0] * 3})
    p = prepare(qrels, run)
    assert p.byte_order is not None and p.qids.tolist() == ["q2", "q10", "q1"]
    with pytest.raises(ValueError, match="q10"):
        evaluate(qrels, run)  # q10 and q2 have IDCG 0; q10 comes first in byte order
    res = evaluate(qrels, run, ["ndcg", "P.1"], zero_idcg="zero").per_query
    assert res.index.tolist() == ["q1", "q10", "q2"]
    assert res["ndcg"].tolist() == [1.0, 0.0, 0.0]


# ---- trec_eval 10.0's conventions --------------------------------------------------


def test_negative_grades_message_names_the_option_that_accepts_them():
    qrels = pd.DataFrame({"qid": ["a", "a"], "docno": ["d1", "d2"], "grade": [1, -1]})
    run = pd.DataFrame({"qid": ["a"], "docno": ["d2"], "score": [1.0]})
    with pytest.raises(ValueError, match="negative_grades='unjudged'"):
        evaluate(qrels, run)
    res = evaluate(qrels, run, ["ndcg", "P.1"], negative_grades="unjudged", judged_only=True)
    assert res.per_query.iloc[0].tolist() == [0.0, 0.0]  # d2 dropped by -J: nothing left


def test_missing_error_names_the_first_query_and_the_options():
    qrels = pd.DataFrame({"qid": ["q3", "q1", "q2"], "docno": ["d"] * 3, "grade": [1, 1, 1]})
    run = pd.DataFrame({"qid": ["q1"], "docno": ["d"], "score": [1.0]})
    with pytest.raises(ValueError, match=r"query q2 of the qrels .* -c \(missing='zero'\)"):
        evaluate(qrels, run, missing="error")
    assert evaluate(qrels, run, missing="ignore").per_query.index.tolist() == ["q1"]
    assert evaluate(qrels, run, missing="zero").per_query.index.tolist() == ["q1", "q2", "q3"]


def test_fractional_grades_truncate_toward_zero_as_atol():
    """2.5 is 2, 1.9 is 1, -0.5 is 0 (judged, not relevant), -1.5 is -1 (unjudged)."""
    docs = ["d1", "d2", "d3", "d4"]
    run = pd.DataFrame({"qid": ["a"] * 4, "docno": docs, "score": [4.0, 3.0, 2.0, 1.0]})
    fractional = pd.DataFrame({"qid": ["a"] * 4, "docno": docs, "grade": [-1.5, -0.5, 1.9, 2.5]})
    integer = fractional.assign(grade=[-1, 0, 1, 2])
    kw = {"negative_grades": "unjudged", "judged_only": True}
    measures = ["ndcg", "ndcg_cut.2", "P.1", "map"]
    truncated = evaluate(fractional, run, measures, fractional_grades="truncate", **kw)
    assert truncated.per_query.equals(evaluate(integer, run, measures, **kw).per_query)
    kept = evaluate(fractional, run, measures, **kw).per_query
    assert not kept.equals(truncated.per_query)


@pytest.mark.parametrize(("precision", "expected"), [("double", 0.0), ("float32", 1.0)])
def test_score_precision(precision, expected):
    """0.7000000001 ranks above 0.7 as doubles; as float32 they tie, and the tie
    goes to the larger docno, "b"."""
    qrels = pd.DataFrame({"qid": ["q"] * 2, "docno": ["a", "b"], "grade": [0, 2]})
    run = pd.DataFrame({"qid": ["q"] * 2, "docno": ["a", "b"], "score": [0.7000000001, 0.7]})
    res = evaluate(qrels, run, ["ndcg_cut.1"], score_precision=precision)
    assert res.per_query["ndcg_cut_1"].iloc[0] == expected


def test_score_precision_is_checked():
    with pytest.raises(ValueError, match=r"score_precision must be one of \('double', 'float32'\)"):
        evaluate(pd.DataFrame(), pd.DataFrame(), score_precision="float64")


def test_the_mean_adds_queries_left_to_right():
    """trec_eval adds each query's value to a double in query order, then divides;
    numpy's pairwise sum differs in the last bit on these values."""
    from functools import reduce
    from operator import add

    from dcglab.result import BatchResult

    v = np.random.default_rng(3).random(1000) / 3
    assert np.sum(v) != reduce(add, v)  # the orders differ here, so the test can fail
    got = BatchResult(np.arange(1000), {"m": v}).means()["m"]
    assert got == reduce(add, v) / 1000


def _many_digit_workload(folder, seed=5, n_queries=120):
    """Sigmoid probabilities written with 17 digits, near-ties one unit in the
    last place apart, exact ties and -0.0, wide lists (up to 300 documents),
    grades -2..3; written as TREC files."""
    rng = np.random.default_rng(seed)
    qlines, rlines = [], []
    for q in range(n_queries):
        n = int(rng.integers(1, 300))
        x = rng.normal(size=n)
        p = 1 / (1 + np.exp(-x))
        near = rng.random(n) < 0.2
        p[near] = np.nextafter(np.roll(p, 1)[near], np.inf)
        p[rng.random(n) < 0.1] = 0.5
        p[rng.random(n) < 0.02] = -0.0
        for i, s in enumerate(p):
            rlines.append(f"q{q} Q0 d{i:03d} {i + 1} {float(s)!r} run")
        for i in rng.choice(n + 20, size=min(n + 20, 40), replace=False):
            qlines.append(f"q{q} 0 d{i:03d} {int(rng.integers(-2, 4))}")
    qpath, rpath = folder / "qrels", folder / "run"
    qpath.write_text("\n".join(qlines) + "\n")
    rpath.write_text("\n".join(rlines) + "\n")
    return qpath, rpath


@pytest.mark.parametrize("options", [["-q"], ["-q", "-J"], ["-q", "-M", "50", "-l", "2"]])
def test_wide_runs_with_double_scores_are_trec_eval(tmp_path, capsys, trec_eval_binary, options):
    """Byte-identical to the trec_eval 10.0 binary on runs wider than the
    oracle's cases, whose near-ties fall within the packed key's column bits."""
    qpath, rpath = _many_digit_workload(tmp_path)
    args = [
        *options,
        "-m",
        "ndcg",
        "-m",
        "ndcg_cut.1,5,10,100",
        "-m",
        "map",
        str(qpath),
        str(rpath),
    ]
    theirs = subprocess.run([str(trec_eval_binary), *args], capture_output=True, text=True)
    assert theirs.returncode == 0, theirs.stderr
    assert main(args) == 0
    assert capsys.readouterr().out == theirs.stdout


@pytest.mark.parametrize("layout", ["all", "extra run query", "query missing from the run"])
def test_the_early_ranking_of_equal_blocks_gives_the_same_result(layout, monkeypatch):
    """A run held as equal query blocks is ranked before its queries are coded;
    placed in the layout (run queries without qrels left out, qrels queries
    without run lines as empty rows), it gives what ranking the layout gives."""
    import dcglab.preparation as preparation

    rng = np.random.default_rng(5)
    queries = [f"q{i}" for i in (3, 1, 20, 2)]
    run = pd.DataFrame(
        [(q, f"d{d}", float(rng.integers(0, 4))) for q in queries for d in rng.permutation(9)],
        columns=["qid", "docno", "score"],
    )
    judged = queries[:-1] if layout == "extra run query" else queries
    judged = judged + ["q0"] if layout == "query missing from the run" else judged
    qrels = pd.DataFrame(
        [(q, f"d{d}", int(rng.integers(0, 3))) for q in judged for d in range(0, 12, 2)],
        columns=["qid", "docno", "grade"],
    )
    measures = ["ndcg", "ndcg_cut.3", "map", "P.2", "num_ret"]
    options = {"zero_idcg": "zero", "missing": "zero", "max_docs": 7, "judged_only": True}
    early = spy(monkeypatch, preparation, "trec_ranking")
    got = evaluate(qrels, run, measures, **options).per_query
    assert len(early) == 1 and early[0].shape == (4, 9), "the early ranking was not used"
    monkeypatch.setattr(preparation, "equal_blocks", lambda ids: None)
    expected = evaluate(qrels, run, measures, **options).per_query
    assert len(early) == 2 and early[1].shape[1] == 9
    pd.testing.assert_frame_equal(got, expected, rtol=0, atol=0)
