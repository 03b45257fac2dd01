"""`dcglab compare` (dcglab.cli.compare): the library's result; errors one line and exit 2."""

import json
import subprocess
import sys

import pytest
from workloads import COMPARE_QUERIES, compare_run, compare_workload, write_qrels, write_run

import dcglab
from dcglab.statistics.comparison import compare


@pytest.fixture(scope="module")
def three():
    return compare_workload()


def cli(*args):
    return subprocess.run([sys.executable, "-m", "dcglab", "compare", *map(str, args)],
                          capture_output=True, text=True, check=False)  # fmt: skip


def test_cli_prints_the_library_result(three, tmp_path):
    qrels, runs = three
    write_qrels(tmp_path / "qrels", qrels)
    for name, frame in runs.items():
        write_run(tmp_path / name, frame)
    files = [tmp_path / n for n in runs]
    out = cli(tmp_path / "qrels", *files, "-m", "ndcg_cut.10", "--format", "json",
              "--resamples", "300", "--seed", "2")  # fmt: skip
    assert out.returncode == 0, out.stderr
    lib = compare(qrels, runs, ["ndcg_cut.10"], n_resamples=300, seed=2,
                  zero_idcg="zero", negative_grades="unjudged")  # fmt: skip
    assert json.loads(out.stdout)["pairs"] == json.loads(lib.format("json"))["pairs"]
    assert cli(tmp_path / "qrels", *files, "--format", "latex").stdout.startswith(r"\begin")


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["missing.run"], "run file not found"),
        (["--missing", "drop"], "--missing: invalid choice"),
        (["--confidence", "95"], "--confidence: expected a number between 0 and 1"),
        (["--resamples", "0"], "--resamples"),
    ],
)
def test_cli_bad_input_is_one_line_and_status_2(three, tmp_path, extra, message):
    qrels, runs = three
    write_qrels(tmp_path / "qrels", qrels)
    write_run(tmp_path / "a.run", runs["bm25"])
    args = [tmp_path / "qrels", tmp_path / "a.run"]
    if not extra[0].startswith("--"):
        args.append(tmp_path / extra.pop(0))
    else:
        write_run(tmp_path / "b.run", runs["bim"])
        args.append(tmp_path / "b.run")
    out = cli(*args, *extra)
    assert out.returncode == 2 and out.stdout == ""
    assert len(out.stderr.strip().splitlines()) == 1 and message in out.stderr


def test_cli_needs_two_runs(tmp_path):
    out = cli(tmp_path / "qrels", tmp_path / "a.run")
    assert out.returncode == 2 and "at least two run files" in out.stderr


def test_cli_names_the_missing_rule_as_the_cli_spells_it(three, tmp_path):
    qrels, runs = three
    write_qrels(tmp_path / "qrels", qrels)
    write_run(tmp_path / "a.run", runs["bm25"])
    write_run(tmp_path / "b.run", compare_run(4, 0.2, COMPARE_QUERIES[:-2]))
    out = cli(tmp_path / "qrels", tmp_path / "a.run", tmp_path / "b.run", "--missing", "error")
    assert out.returncode == 2 and len(out.stderr.strip().splitlines()) == 1
    assert out.stderr.startswith("dcglab compare: error: 2 queries are not scored by every run")
    assert "--missing intersect" in out.stderr and "missing='" not in out.stderr
    bad = cli(tmp_path / "qrels", tmp_path / "a.run", tmp_path / "b.run", "--format", "xml")
    assert bad.returncode == 2 and bad.stderr.startswith("dcglab compare: error: argument --format")


def test_names_and_a_baseline_label_the_tables(three, tmp_path):
    """--name labels the runs in order; --baseline (a name, or a run file as given)
    compares each other run with it: the library's result under those names."""
    qrels, runs = three
    write_qrels(tmp_path / "qrels", qrels)
    files = []
    for i, frame in enumerate(runs.values()):
        files.append(tmp_path / f"run{i}" / "run.txt")  # one file name for every run
        files[-1].parent.mkdir()
        write_run(files[-1], frame)
    names = ["BM25", "TF-IDF", "BIM"]
    flags = [arg for n in names for arg in ("--name", n)]
    common = [tmp_path / "qrels", *files, *flags, "--format", "json", "--resamples", "200"]
    lib = compare(qrels, dict(zip(names, runs.values())), baseline="BIM", n_resamples=200,
                  zero_idcg="zero", negative_grades="unjudged")  # fmt: skip
    for baseline in ("BIM", files[2]):
        out = cli(*common, "--baseline", baseline)
        assert out.returncode == 0, out.stderr
        assert json.loads(out.stdout)["pairs"] == json.loads(lib.format("json"))["pairs"]
    pairs = json.loads(out.stdout)["pairs"]
    assert [(p["run_a"], p["run_b"]) for p in pairs] == [("BM25", "BIM"), ("TF-IDF", "BIM")]
    for extra, message in (
        ([], "two runs are named 'run.txt': name each run with --name"),
        (["--name", "A"], "--name: give one name per run: 3 runs, 1 names"),
        (
            [*flags, "--baseline", "BM26"],
            "--baseline 'BM26' is none of the runs (BM25, TF-IDF, BIM)",
        ),
    ):
        bad = cli(tmp_path / "qrels", *files, *extra)
        assert bad.returncode == 2 and bad.stdout == ""
        assert bad.stderr.strip() == f"dcglab compare: error: {message}"


def test_runs_that_tie_on_every_query_do_not_stop_the_table(three, tmp_path):
    """A run and its copy: the table is printed, their t-test shown as a dash with a note."""
    qrels, runs = three
    write_qrels(tmp_path / "qrels", qrels)
    write_run(tmp_path / "a.run", runs["bm25"])
    write_run(tmp_path / "copy.run", runs["bm25"])
    write_run(tmp_path / "b.run", runs["bim"])
    files = [tmp_path / n for n in ("a.run", "copy.run", "b.run")]
    out = cli(tmp_path / "qrels", *files, "-m", "ndcg_cut.10", "-m", "map", "--resamples", "200",
              "--format", "markdown")  # fmt: skip
    assert out.returncode == 0, out.stderr
    rows = [line for line in out.stdout.splitlines() if line.startswith("| ndcg_cut_10 | a.run")]
    assert rows[0].split(" | ")[6:8] == ["—", "—"] and "—" not in rows[1]
    assert "every query has the same difference" in out.stdout


def test_the_main_help_names_compare_and_the_program_is_dcglab():
    done = subprocess.run([sys.executable, "-m", "dcglab", "--help"], capture_output=True,
                          text=True, check=True)  # fmt: skip
    assert (
        done.stdout.startswith("usage: dcglab ") and "dcglab compare QRELS RUN1 RUN2" in done.stdout
    )
    version = subprocess.run([sys.executable, "-m", "dcglab", "--version"], capture_output=True,
                             text=True, check=True)  # fmt: skip
    assert version.stdout.strip() == f"dcglab {dcglab.__version__}"
