"""`dcglab compare` (dcglab.cli.compare): the library's result; errors one line and exit 2."""

import json
import subprocess
import sys

import pytest
from workloads import COMPARE_QUERIES, compare_run, compare_workload, write_qrels, write_run

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
