"""trec_eval 10.0's own test files through ``python -m dcglab``.

The inputs and expected outputs live in ``../shared/reference/trec_eval_test/``
(never copied into the repository). For each expected output, the command that
made it (see SOURCE.md there) is run with our CLI restricted to the measures we
implement, and every line of those measures must be equal, in the same order:
queries in trec_eval's order, each query's measures in trec_eval's order, then
the ``all`` lines. The tests skip when the folder is absent, except under
CI=true, where they fail.
"""

import re
import subprocess
import sys
from pathlib import Path

import pytest

from dcglab.cli import main

FILES = Path(__file__).resolve().parents[2] / "shared" / "reference" / "trec_eval_test"
OURS = re.compile(
    r"^(runid|num_q|num_ret|num_rel|num_rel_ret|map|gm_map|Rprec|bpref|recip_rank"
    r"|iprec_at_recall_[\d.]+|P_\d+|recall_\d+|ndcg|ndcg_cut_\d+|map_cut_\d+|success_\d+"
    r"|ndcg_1=3,2=9,4=4\.5)\s"
)
OFFICIAL = re.compile(
    r"^(runid|num_q|num_ret|num_rel|num_rel_ret|map|gm_map|Rprec|bpref|recip_rank"
    r"|iprec_at_recall_[\d.]+|P_\d+)\s"
)
OLD = ["-m", "map", "-m", "recip_rank", "-m", "P", "-m", "recall", "-m", "ndcg", "-m", "ndcg_cut"]
ALL = ["-m", "official", "-m", "recall", "-m", "ndcg", "-m", "ndcg_cut", "-m", "map_cut"]
ALL += ["-m", "success"]

CASES = {
    # expected file: (our arguments, qrels, run); trec_eval's own command in SOURCE.md
    "out.test.aq": (["-q", *ALL], "qrels.test", "results.test"),
    "out.test.aqc": (["-q", "-c", *ALL], "qrels.test", "results.trunc"),
    "out.test.aqcM": (["-q", "-c", "-M100", *ALL], "qrels.test", "results.trunc"),
    "out.test.aql": (["-q", "-l2", *ALL], "qrels.rel_level", "results.test"),
    "out.test.meas_params": (
        ["-q", "-m", "P.5,7,3", "-m", "recall.20,2000", "-mndcg.1=3,2=9,4=4.5"]
        + ["-mndcg_cut.10,20,23.4", "-miprec_at_recall..10,.20,.25,.75,.50", "-msuccess.2,5,20"],
        "qrels.test",
        "results.test",
    ),
    "out.comment.ndcg": (
        ["-q", "-m", "ndcg", "-m", "ndcg_cut.5,10"],
        "qrels.comment.test",
        "results.comment.test",
    ),
}


@pytest.fixture(scope="module")
def folder(skip_or_fail):
    if not FILES.is_dir():
        skip_or_fail(f"trec_eval's test files are not in {FILES}")
    return FILES


def expected_lines(path: Path, ours: re.Pattern = OURS) -> list[str]:
    return [line for line in path.read_text().splitlines() if ours.match(line)]


def run_cli(capsys, args) -> list[str]:
    assert main([str(a) for a in args]) == 0
    return capsys.readouterr().out.splitlines()


@pytest.mark.parametrize("expected", sorted(CASES))
def test_every_line_of_our_measures_equals_trec_eval(folder, capsys, expected):
    args, qrels, run = CASES[expected]
    want = expected_lines(folder / expected)
    assert len(want) >= 20, "the filter kept too few lines to be a test"
    got = run_cli(capsys, [*args, folder / qrels, folder / run])
    assert got == want


def test_the_cases_cover_every_measure_family(folder):
    """Each family the issue names appears in the expected lines compared."""
    names = {line.split()[0] for e in CASES for line in expected_lines(folder / e)}
    for family in ("map", "recip_rank", "P_5", "recall_20", "ndcg", "ndcg_cut_10", "ndcg_cut_23"):
        assert family in names
    for family in ("runid", "num_q", "num_rel_ret", "gm_map", "Rprec", "bpref", "map_cut_5"):
        assert family in names
    assert "success_20" in names and "iprec_at_recall_0.25" in names
    assert "ndcg_1=3,2=9,4=4.5" in names


def test_comment_lines_change_nothing(folder, capsys):
    plain = run_cli(capsys, ["-q", *ALL, folder / "qrels.test", folder / "results.test"])
    commented = run_cli(
        capsys, ["-q", *ALL, folder / "qrels.test.with-comments", folder / "results.test"]
    )
    assert commented == plain == expected_lines(folder / "out.test.aq")


def test_c_adds_qrels_queries_missing_from_the_run(folder, capsys):
    """results.trunc lacks query 302: without -c it is refused (trec_eval exits 4),
    with -c it scores 0."""
    files = [str(folder / "qrels.test"), str(folder / "results.trunc")]
    assert main(["-q", "-m", "map", *files]) == 2
    assert "query 302" in capsys.readouterr().err
    with_c = run_cli(capsys, ["-q", "-c", "-m", "map", *files])
    assert [line.split()[1] for line in with_c] == ["301", "302", "303", "all"]
    assert with_c[1].split()[2] == "0.0000"


def test_negative_grades_count_as_judged_nonrelevant(folder, capsys, tmp_path):
    """qrels.rel_level has grade -1; trec_eval reads it as judged but not relevant:
    the same values as with those grades set to 0, except under -J, where the
    documents are dropped as unjudged."""
    rel = folder / "qrels.rel_level"
    neg = run_cli(capsys, ["-q", *OLD, rel, folder / "results.test"])
    zeroed = tmp_path / "qrels.zeroed"
    zeroed.write_text(re.sub(r" -1$", " 0", rel.read_text(), flags=re.M))
    assert zeroed.read_text() != rel.read_text()
    assert run_cli(capsys, ["-q", *OLD, zeroed, folder / "results.test"]) == neg
    j_neg = run_cli(capsys, ["-q", "-J", "-m", "ndcg", rel, folder / "results.test"])
    j_zero = run_cli(capsys, ["-q", "-J", "-m", "ndcg", zeroed, folder / "results.test"])
    assert j_neg != j_zero


def test_the_module_entry_point_prints_the_same(folder):
    """``python -m dcglab`` (a fresh process) prints exactly the expected lines."""
    args, qrels, run = CASES["out.test.aqcM"]
    proc = subprocess.run(
        [sys.executable, "-m", "dcglab", *args, str(folder / qrels), str(folder / run)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == expected_lines(folder / "out.test.aqcM")


@pytest.mark.parametrize("expected", ["out.test.aq", "out.test.aqc", "out.test.aqcM"])
def test_the_default_output_is_trec_evals_official_set(folder, capsys, expected):
    """No -m: the official set, line for line (runid, num_q, counts as integers ...)."""
    args, qrels, run = CASES[expected]
    options = [a for a in args if a.startswith("-") and a != "-m" and a not in ALL]
    got = run_cli(capsys, [*options, folder / qrels, folder / run])
    assert got == expected_lines(folder / expected, OFFICIAL)


def test_without_q_only_the_summary_is_printed(folder, capsys, trec_eval_binary):
    files = [str(folder / "qrels.test"), str(folder / "results.test")]
    want = subprocess.run([trec_eval_binary, *files], capture_output=True, text=True)
    assert main(files) == 0
    assert capsys.readouterr().out == want.stdout
