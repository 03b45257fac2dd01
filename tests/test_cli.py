"""trec_eval's options on the command line, checked against pytrec_eval (trec_eval 9's
code) on seeded random runs with ties, unjudged documents and grades -1..3."""

import csv
import io
import json

import numpy as np
import pytest

from dcglab.batch import evaluate
from dcglab.cli import main

MEASURES = ["map", "recip_rank", "P.1,5,10", "recall.5,10", "ndcg", "ndcg_cut.5,10"]
NAMES = {"map", "recip_rank", "P_1", "P_5", "P_10", "recall_5", "recall_10", "ndcg"}
NAMES |= {"ndcg_cut_5", "ndcg_cut_10"}


@pytest.fixture
def workload(tmp_path):
    """Files and dicts: 25 queries, up to 30 documents each, scores with many ties."""
    rng = np.random.default_rng(10)
    qrels, run = {}, {}
    qlines, rlines = [], []
    for q in range(25):
        qid = f"q{q:02d}"
        docs = rng.choice(60, size=int(rng.integers(3, 30)), replace=False)
        for d in docs:
            score = float(rng.integers(0, 6)) / 4
            run.setdefault(qid, {})[f"d{d}"] = score
            rlines.append(f"{qid} Q0 d{d} 0 {score} t")
        judged = np.concatenate([docs[: len(docs) // 2], 60 + rng.choice(20, 4, replace=False)])
        for d in judged:
            g = int(rng.integers(-1, 4))
            qrels.setdefault(qid, {})[f"d{d}"] = g
            qlines.append(f"{qid} 0 d{d} {g}")
    qpath, rpath = tmp_path / "qrels", tmp_path / "run"
    qpath.write_text("\n".join(qlines) + "\n")
    rpath.write_text("\n".join(rlines) + "\n")
    return qpath, rpath, qrels, run


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
    import pandas as pd

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
    """``ndcg.1=5`` changes grade 1's gain for that measure; ``ndcg`` keeps linear gain,
    and the unlisted grades 2 and 3 keep their grade as gain."""
    qpath, rpath, _, _ = workload
    assert main([str(qpath), str(rpath), "-q", "-m", "ndcg.1=5", "-m", "ndcg"]) == 0
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
