"""The command line (:mod:`dcglab.cli.evaluate`): trec_eval's options checked against
pytrec_eval (trec_eval 9's code) on seeded random runs with ties, unjudged documents
and grades -1..3; output formats, one-line errors, the help."""

import csv
import io
import json
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
from workloads import as_dicts, file_workload, tie_workload

from dcglab.cli import main
from dcglab.evaluation.batch import evaluate

MEASURES = ["map", "recip_rank", "P.1,5,10", "recall.5,10", "ndcg", "ndcg_cut.5,10"]
NAMES = {"map", "recip_rank", "P_1", "P_5", "P_10", "recall_5", "recall_10", "ndcg"}
NAMES |= {"ndcg_cut_5", "ndcg_cut_10"}


@pytest.fixture
def workload(tmp_path):
    """Files and dicts (:func:`workloads.file_workload`)."""
    return file_workload(tmp_path)


def parse(out: str) -> dict[str, dict[str, float]]:
    values: dict[str, dict[str, float]] = {}
    for line in out.splitlines():
        name, qid, value = line.split("\t")
        values.setdefault(qid.strip(), {})[name.strip()] = float(value)
    return values


def ours(capsys, qpath, rpath, *options) -> dict[str, dict[str, float]]:
    args = [str(qpath), str(rpath), "-q", "--format", "csv"]
    for m in MEASURES:
        args += ["-m", m]
    assert main([*args, *options]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    return {row.pop("qid"): {k: float(v) for k, v in row.items()} for row in rows}


@pytest.mark.parametrize(
    ("options", "kwargs"),
    [
        ([], {}),
        (["-l", "2"], {"relevance_level": 2}),
        (["-l3"], {"relevance_level": 3}),
        (["-J"], {"judged_docs_only_flag": True}),
        (["-J", "-l2"], {"judged_docs_only_flag": True, "relevance_level": 2}),
    ],
)
def test_options_agree_with_pytrec_eval(capsys, workload, options, kwargs, require):
    pytrec_eval = require("pytrec_eval")
    qpath, rpath, qrels, run = workload
    theirs = pytrec_eval.RelevanceEvaluator(qrels, NAMES, **kwargs).evaluate(run)
    mine = ours(capsys, qpath, rpath, *options)
    assert set(mine) - {"all"} == set(theirs)
    for q, row in theirs.items():
        for name in NAMES:
            assert mine[q][name] == pytest.approx(row[name], abs=1e-12), (q, name)
    for name in NAMES:
        assert mine["all"][name] == pytest.approx(np.mean([r[name] for r in theirs.values()]))


def trec_top(run: dict[str, dict[str, float]], m: int) -> dict[str, dict[str, float]]:
    """Each query's first ``m`` documents in trec_eval's order, written independently:
    score descending, then docno descending (byte order)."""

    def key(item):
        return (item[1], item[0].encode())

    return {q: dict(sorted(docs.items(), key=key, reverse=True)[:m]) for q, docs in run.items()}


@pytest.mark.parametrize("m", [1, 3, 7])
def test_M_keeps_the_top_documents_in_trec_order(capsys, workload, m, require):
    pytrec_eval = require("pytrec_eval")
    qpath, rpath, qrels, run = workload
    theirs = pytrec_eval.RelevanceEvaluator(qrels, NAMES).evaluate(trec_top(run, m))
    mine = ours(capsys, qpath, rpath, "-M", str(m))
    for q, row in theirs.items():
        for name in NAMES:
            assert mine[q][name] == pytest.approx(row[name], abs=1e-12), (q, name, m)


def test_n_prints_no_summary_and_q_prints_queries(capsys, workload):
    qpath, rpath, _, _ = workload
    assert main([str(qpath), str(rpath), "-n", "-q", "-m", "map"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 25 and all("\tall\t" not in line for line in lines)
    assert main([str(qpath), str(rpath), "-m", "map"]) == 0
    assert [line.split("\t")[1] for line in capsys.readouterr().out.splitlines()] == ["all"]
    assert main([str(qpath), str(rpath), "-n", "--format", "json", "-m", "map"]) == 0
    assert json.loads(capsys.readouterr().out) == []


def test_csv_and_json_hold_the_same_rows(capsys, workload):
    """One row per query and one column per measure, then the row ``all``; the same
    numbers as text in both, counts as integers; pandas reads both flat."""

    qpath, rpath, _, _ = workload
    args = [str(qpath), str(rpath), "-q", "-m", "official", "-m", "nDCG@10"]
    assert main([*args, "--format", "csv"]) == 0
    text = capsys.readouterr().out
    assert main([*args, "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    table = list(csv.DictReader(io.StringIO(text)))
    assert [r["qid"] for r in table] == [r["qid"] for r in rows] and rows[-1]["qid"] == "all"
    for got, want in zip(table, rows):
        assert all(got[k] == ("" if v is None else str(v)) for k, v in want.items())
    assert rows[-1]["runid"] == "t" and isinstance(rows[-1]["num_ret"], int)
    frame = pd.read_json(io.StringIO(json.dumps(rows)))
    assert frame.shape == (26, len(rows[-1])) and "nDCG@10" in frame.columns
    assert "gm_map" not in rows[0] and "num_q" not in rows[0]  # summary-only measures


def test_help_shows_defaults_and_examples(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    text = capsys.readouterr().out
    assert "(default: zero)" in text and "default: official" in text
    assert "-J with -M" in text
    last = text.rstrip().split("\n\n")[-1]  # the help ends with its examples
    assert last.startswith("examples:") and "dcglab qrels.txt run.txt" in last


def test_version(capsys):
    from dcglab import __version__

    with pytest.raises(SystemExit):
        main(["--version"])
    assert capsys.readouterr().out.strip().endswith(__version__)


def test_ir_measures_names_label_the_output(capsys, workload):
    qpath, rpath, _, _ = workload
    assert main([str(qpath), str(rpath), "-m", "RR@10", "-m", "P(rel=2)@10", "-m", "map"]) == 0
    names = [line.split("\t")[0].strip() for line in capsys.readouterr().out.splitlines()]
    assert names == ["map", "RR@10", "P(rel=2)@10"]


def test_output_is_in_trec_eval_order(capsys, workload):
    """Per query: map, recip_rank, P, recall, ndcg, ndcg_cut, cutoffs ascending,
    whatever the order on the command line."""
    qpath, rpath, _, _ = workload
    args = ["-m", "ndcg_cut.10,5", "-m", "P.10,1", "-m", "ndcg", "-m", "recip_rank", "-m", "map"]
    assert main([str(qpath), str(rpath), *args]) == 0
    names = [line.split("\t")[0].strip() for line in capsys.readouterr().out.splitlines()]
    assert names == ["map", "recip_rank", "P_1", "P_10", "ndcg", "ndcg_cut_5", "ndcg_cut_10"]


@pytest.mark.parametrize(("alias", "name"), [("qrels-cut", "judged"), ("qrels", "judged-uncut")])
def test_old_ideal_names_are_aliases(workload, alias, name):
    qpath, rpath, _, _ = workload
    kw = {"zero_idcg": "zero", "negative_grades": "unjudged"}
    a = evaluate(qpath, rpath, ["ndcg_cut.3"], ideal=alias, **kw).per_query
    b = evaluate(qpath, rpath, ["ndcg_cut.3"], ideal=name, **kw).per_query
    assert a.equals(b)
    other = "judged-uncut" if name == "judged" else "judged"
    assert not a.equals(evaluate(qpath, rpath, ["ndcg_cut.3"], ideal=other, **kw).per_query)


def test_measure_gain_table_applies_to_that_measure_only(capsys, workload):
    """``ndcg.1=5`` changes grade 1's gain for that measure; ``ndcg`` keeps linear gain
    (with ``--corrected``, which keeps both), and the unlisted grades 2 and 3 keep
    their grade as gain."""
    qpath, rpath, _, _ = workload
    assert main([str(qpath), str(rpath), "-q", "-m", "ndcg.1=5", "-m", "ndcg"]) == 0
    first = parse(capsys.readouterr().out)  # as trec_eval: the first parameters given count
    assert all(set(row) == {"ndcg_1=5"} for row in first.values())
    args = [str(qpath), str(rpath), "-q", "--corrected", "-m", "ndcg.1=5", "-m", "ndcg"]
    assert main(args) == 0
    out = parse(capsys.readouterr().out)
    table = {0: 0, 1: 5, 2: 2, 3: 3, -1: 0}
    full = evaluate(qpath, rpath, ["ndcg"], gain=table, zero_idcg="zero").per_query["ndcg"]
    plain = evaluate(
        qpath, rpath, ["ndcg"], zero_idcg="zero", negative_grades="unjudged"
    ).per_query["ndcg"]
    for q in full.index:
        assert out[q]["ndcg_1=5"] == pytest.approx(round(full[q], 4), abs=1e-9)
        assert out[q]["ndcg"] == pytest.approx(round(plain[q], 4), abs=1e-9)
    assert any(round(full[q], 4) != round(plain[q], 4) for q in full.index)


@pytest.fixture
def files(tmp_path):
    qrels, run = tie_workload(5, n_queries=12)
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
        (["QRELS", "RUN", "--gain", "1=x"], "expected GRADE=GAIN"),
        (["QRELS", "RUN", "--discount", "rbp:2"], "p (patience) must lie"),
        (["QRELS", "RUN", "--ties", "random"], "--ties must be one of"),
        (["QRELS", "BADRUN"], ":1: a run line has 6 fields"),
        (["QRELS"], "the following arguments are required"),
        (["QRELS", "RUN", "-Z", "zmeans"], "-Z (z-scores) is trec_eval's"),
        (["QRELS", "RUN", "-R", "prefs"], "-R (other qrels formats) is trec_eval's"),
        (["QRELS", "RUN", "-D", "1"], "-D (debug output) is trec_eval's"),
        (["QRELS", "RUN", "-l", "1e30"], "-l must be an integer >= 0"),
        (["QRELS", "RUN", "-N", "x"], "-N/--Number_docs_in_coll: expected an integer >= 0"),
        (["QRELS", "RUN", "-N", "9", "-m", "utility.1,-1,0,1"], "-N with a utility"),
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


@pytest.mark.parametrize("measures", [["-m", "all_trec"], ["-m", "utility.1,-1,0,0", "-m", "P.5"]])
def test_N_is_accepted_as_trec_eval_accepts_it(
    capsys, trec_eval_binary, trec_eval_test_files, measures
):
    """``-N`` changes nothing that dcglab computes (utility's fourth weight is refused
    with it), so a trec_eval script that passes it prints the binary's bytes."""
    args = ["-q", "-N", "1400", *measures, str(trec_eval_test_files / "qrels.test"),
            str(trec_eval_test_files / "results.test")]  # fmt: skip
    theirs = subprocess.run([str(trec_eval_binary), *args], capture_output=True, text=True)
    assert theirs.returncode == 0, theirs.stderr
    assert main(args) == 0
    assert capsys.readouterr().out == theirs.stdout
