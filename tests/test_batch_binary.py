"""dcglab.evaluation.batch.binary: the binary measures by hand, in trec_eval's summation order,
against
ir_measures where only ir_measures has the measure, and against the trec_eval 10.0
binary on Cranfield runs."""

import random
import subprocess
from pathlib import Path

import numpy as np
import pytest

from dcglab.cli import main
from dcglab.evaluation.batch import evaluate
from dcglab.evaluation.batch.binary import Ranking, binary_measure, summary

CRANFIELD = Path(__file__).resolve().parents[2] / "shared" / "data" / "cranfield"


def ranking(flags: str, judged: str | None = None, n_rel: int = 0, n_nonrel: int = 0) -> Ranking:
    """One query from strings: ``r`` relevant, ``n`` judged non-relevant, ``.`` unjudged."""
    rel = np.array([[c == "r" for c in flags]])
    jud = np.array([[c != "." for c in (judged or flags)]])
    return Ranking(rel, jud, np.array([len(flags)]), np.array([n_rel]), np.array([n_nonrel]))


def value(family: str, k, r: Ranking) -> float:
    return float(binary_measure(family, k, r)[0])


def test_bpref_by_hand():
    """R = 2 relevant, N = 3 judged non-relevant: ranks n r . r n.
    First r has 1 non-relevant above: 1 - 1/min(3, 2); second also 1: sum 1, / R = 0.5."""
    r = ranking("nr.rn", n_rel=2, n_nonrel=3)
    assert value("bpref", None, r) == 0.5
    assert value("bpref", None, ranking("rrnn", n_rel=3, n_nonrel=2)) == pytest.approx(2 / 3)


def test_judged_counts_judged_documents_of_the_top_k():
    r = ranking("rn.r.", n_rel=2, n_nonrel=1)
    assert value("Judged", 2, r) == 1.0
    assert value("Judged", 5, r) == 0.6
    assert value("Judged", 10, r) == 0.6  # fewer than k retrieved: the share of those
    assert value("Judged", None, r) == 0.6


def test_cutoff_measures():
    r = ranking("nnrnr", n_rel=4)
    assert value("recip_rank", None, r) == 1 / 3
    assert value("recip_rank", 2, r) == 0.0  # RR@2: no relevant document in the top 2
    assert value("success", 2, r) == 0.0 and value("success", 3, r) == 1.0
    assert value("map_cut", 3, r) == pytest.approx((1 / 3) / 4)
    assert value("map", None, r) == pytest.approx((1 / 3 + 2 / 5) / 4)
    assert value("Rprec", None, r) == 0.25  # one relevant in the top R = 4
    assert value("num_rel_ret", None, r) == 2.0


def test_iprec_at_recall_is_the_best_precision_at_or_below():
    """R = 4: recall 0.5 is found at rank 5 (2/5), but rank 6 has 3/6 = 0.5."""
    r = ranking("nnrnrr", n_rel=4)
    assert value("iprec_at_recall", 0.5, r) == 0.5
    assert value("iprec_at_recall", 0.0, r) == 0.5
    assert value("iprec_at_recall", 1.0, r) == 0.0  # the fourth is never found
    # 0.125 * 4 = 0.5 rounds up to 1 (C's lround), not to even (0)
    assert value("iprec_at_recall", 0.125, ranking("nrr", n_rel=4)) == pytest.approx(2 / 3)


def test_ap_is_summed_left_to_right():
    """The sum order matters: a pairwise sum of the same terms differs in the last bit."""
    rng = random.Random(3)
    for _ in range(200):
        flags = "".join(rng.choice("rn") for _ in range(rng.randint(20, 300)))
        r = ranking(flags, n_rel=flags.count("r") + 3)
        left_to_right = 0.0
        found = 0
        for i, c in enumerate(flags):
            if c == "r":
                found += 1
                left_to_right += found / (i + 1)
        assert value("map", None, r) == left_to_right / r.n_rel[0]  # exact, not approx


def test_ap_prints_as_trec_eval_where_pairwise_sums_differ(tmp_path, capsys, trec_eval_binary):
    """Runs whose AP is a tie at the fourth decimal in exact arithmetic (such as 71/160
    = 0.44375) print as the binary prints them."""
    rng = random.Random(7)
    qrels, run = [], []
    for q in range(300):
        n = rng.randint(5, 60)
        for d in range(n):
            grade = int(rng.random() < 0.3)
            qrels.append(f"q{q} 0 d{d} {grade}")
            run.append(f"q{q} Q0 d{d} {d + 1} {n - d} t")
    (tmp_path / "qrels").write_text("\n".join(qrels) + "\n")
    (tmp_path / "run").write_text("\n".join(run) + "\n")
    args = ["-q", "-m", "map", "-m", "map_cut.10", "-m", "bpref", "-m", "gm_map"]
    files = [str(tmp_path / "qrels"), str(tmp_path / "run")]
    want = subprocess.run([trec_eval_binary, *args, *files], capture_output=True, text=True)
    assert main([*args, *files]) == 0
    assert capsys.readouterr().out == want.stdout


def test_summaries():
    v = np.array([0.5, 0.0, 0.25])
    assert summary("num_ret", v, 0.25) == 0.75
    assert summary("num_q", v, 0.25) == 3.0
    assert summary("map", v, 0.25) == 0.25
    logs = np.log([0.5, 0.00001, 0.25])
    assert summary("gm_map", v, 0.25) == pytest.approx(np.exp(logs.sum() / 3), rel=1e-15)


@pytest.fixture(scope="module")
def cranfield(tmp_path_factory, skip_or_fail):
    """The Cranfield qrels (as published) and a term-overlap run, as TREC files."""
    if not (CRANFIELD / "cranqrel").is_file():
        skip_or_fail(f"Cranfield is not in {CRANFIELD}")
    folder = tmp_path_factory.mktemp("cranfield")
    rows = [line.split() for line in (CRANFIELD / "cranqrel").read_text().splitlines()]
    qrels = folder / "qrels"
    qrels.write_text("".join(f"{q} 0 {d} {5 - int(g) if int(g) > 0 else 0}\n" for q, d, g in rows))
    rng = random.Random(11)
    docs = sorted({d for _, d, _ in rows}, key=int)
    lines = []
    for q in sorted({q for q, _, _ in rows}, key=int):
        for rank, d in enumerate(rng.sample(docs, 120), 1):
            lines.append(f"{q} Q0 {d} {rank} {rng.choice([1.0, 0.5, 0.25, rng.random()])!r} bm25")
    run = folder / "run"
    run.write_text("\n".join(lines) + "\n")
    return qrels, run


OPTIONS = [[], ["-q"], ["-q", "-l3"], ["-q", "-J"], ["-q", "-M20"], ["-q", "-c", "-J", "-M30"]]


@pytest.mark.parametrize("options", OPTIONS, ids=" ".join)
def test_official_and_practitioner_measures_on_cranfield(
    cranfield, options, capsys, trec_eval_binary
):
    qrels, run = cranfield
    names = ["all_trec", "recall.10,100", "P.5", "P.7"]
    args = [*options, *(a for n in names for a in ("-m", n)), str(qrels), str(run)]
    want = subprocess.run([trec_eval_binary, *args], capture_output=True, text=True)
    assert want.returncode == 0, want.stderr
    assert main(args) == 0
    assert capsys.readouterr().out == want.stdout


def ir_measures_values(qrels: Path, run: Path, names: list[str]) -> dict[str, dict[str, float]]:
    import ir_measures

    measures = [ir_measures.parse_measure(n) for n in names]
    out: dict[str, dict[str, float]] = {}
    for m in ir_measures.iter_calc(
        measures, ir_measures.read_trec_qrels(str(qrels)), ir_measures.read_trec_run(str(run))
    ):
        out.setdefault(str(m.measure), {})[m.query_id] = m.value
    return out


IR_ONLY = ["RR@10", "Judged@10", "Judged@50", "P(rel=2)@10", "AP@100", "Success@5", "R@50"]


def test_ir_measures_names_equal_ir_measures(cranfield, tmp_path):
    """Measures trec_eval 10.0 lacks (RR@10, Judged@k, per-measure rel) against
    ir_measures itself, on untied scores (ir_measures breaks ties its own way)."""
    qrels, tied = cranfield
    run = tmp_path / "run"
    lines = tied.read_text().splitlines()
    run.write_text(
        "".join(f"{ln.rsplit(' ', 2)[0]} {1000 - i} bm25\n" for i, ln in enumerate(lines))
    )
    ours = evaluate(qrels, run, IR_ONLY, negative_grades="unjudged").per_query
    theirs = ir_measures_values(qrels, run, IR_ONLY)
    for name in IR_ONLY:
        assert set(theirs[name]) == set(ours.index), name
        for q, v in theirs[name].items():
            assert ours.loc[q, name] == pytest.approx(v, abs=1e-12), (name, q)
