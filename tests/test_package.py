"""The package as a user installs it: a wheel built from the checkout, installed without
extras into a clean virtual environment, pulls only the evaluator's dependencies, and
its ``dcglab`` prints what the trec_eval 10.0 binary prints on trec_eval's own test files.

The dependencies come from the package registry, pinned by ``constraints.txt`` (pip's
cache makes a second run quick). Without the registry the test skips (fails under CI).
A second test guards the start-up: a one-query run imports neither pandas nor scipy.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest

import dcglab

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
CORE = {"dcglab", "numpy", "pandas", "scipy", "tqdm"}
"""dcglab and what ``pip install dcglab`` asks for (pyproject.toml's dependencies)."""
EXTRAS_ONLY = {
    "matplotlib", "anywidget", "ipywidgets", "traitlets", "pooch", "snowballstemmer", "pyyaml",
    "scikit-learn", "duckdb", "pyspark", "jupyter-book", "ipykernel", "myst-nb", "polars",
}  # fmt: skip
"""Packages of the ``book``, ``duckdb`` and ``spark`` extras (and the book's tools)."""
CASES = [
    ["-q"],
    ["-q", "-m", "ndcg", "-m", "ndcg_cut.5,10", "-m", "map_cut", "-m", "recall", "-m", "success"],
    ["-q", "-c", "-M100"],
    ["-q", "-l2", "-m", "official", "-m", "ndcg"],
]
"""trec_eval options run on trec_eval's test files by both tools."""
FILES = {
    ("qrels.test", "results.test"): [0, 1],
    ("qrels.test", "results.trunc"): [2],
    ("qrels.rel_level", "results.test"): [3],
    ("qrels.comment.test", "results.comment.test"): [1],
}
"""(qrels, run) → the :data:`CASES` run on them."""


def _run(*args: object, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([str(a) for a in args], capture_output=True, text=True, **kwargs)


@pytest.fixture(scope="module")
def installed(tmp_path_factory, skip_or_fail) -> Path:
    """The ``bin`` folder of a fresh virtual environment holding the wheel, no extras."""
    tmp = tmp_path_factory.mktemp("package")
    tree = tmp / "tree"  # a copy, so that the build leaves nothing in the checkout
    ignored = shutil.ignore_patterns("__pycache__", "*.so")  # the wheel compiles its own
    shutil.copytree(ROOT / "src", tree / "src", ignore=ignored)
    shutil.copy(ROOT / "pyproject.toml", tree)
    shutil.copy(ROOT / "setup.py", tree)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    built = _run(sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                 "--quiet", "--wheel-dir", tmp / "dist", tree, env=env)  # fmt: skip
    assert built.returncode == 0, built.stderr[-2000:]
    (wheel,) = (tmp / "dist").glob("dcglab-*.whl")
    venv.create(tmp / "venv", with_pip=True)
    bin_ = tmp / "venv" / "bin"
    done = _run(bin_ / "python", "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                "-c", ROOT / "constraints.txt", wheel, env=env)  # fmt: skip
    if done.returncode != 0:
        skip_or_fail(f"pip could not install the wheel's dependencies: {done.stderr[-600:]}")
    return bin_


def test_the_wheel_installs_only_the_evaluators_dependencies(installed):
    listed = _run(installed / "python", "-m", "pip", "list", "--format", "json", check=True)
    names = {p["name"].lower().replace("_", "-") for p in json.loads(listed.stdout)}
    assert CORE <= names
    assert not names & EXTRAS_ONLY, sorted(names & EXTRAS_ONLY)
    code = "import importlib.metadata as m; print('\\n'.join(m.requires('dcglab')))"
    wanted = _run(installed / "python", "-c", code, check=True).stdout.split("\n")
    core = [r for r in wanted if r and "extra ==" not in r]
    assert sorted(re.split(r"[<>=!~ ;]", r)[0] for r in core) == sorted(CORE - {"dcglab"})
    assert all(">=" in r for r in core), core  # each with a lower bound
    extras = {r.split("extra == ")[1].strip("'\"") for r in wanted if "extra ==" in r}
    assert extras == {"book", "duckdb", "spark"}


def test_the_console_script_names_itself(installed):
    assert _run(installed / "dcglab", "--version", check=True).stdout == (
        f"dcglab {dcglab.__version__}\n"
    )
    usage = _run(installed / "dcglab", "--help", check=True).stdout
    assert usage.startswith("usage: dcglab ") and "dcglab compare" in usage
    bad = _run(installed / "dcglab", "qrels")
    assert bad.returncode == 2 and bad.stderr.startswith("dcglab: error: ")


def test_the_installed_command_prints_what_trec_eval_prints(
    installed, trec_eval_binary, trec_eval_test_files
):
    compared = 0
    for (qrels, run), which in FILES.items():
        files = [trec_eval_test_files / qrels, trec_eval_test_files / run]
        for args in (CASES[i] for i in which):
            theirs = _run(trec_eval_binary, *args, *files)
            ours = _run(installed / "dcglab", *args, *files)
            assert theirs.returncode == 0, theirs.stderr
            assert (ours.returncode, ours.stdout) == (0, theirs.stdout), (args, qrels, run)
            compared += len(theirs.stdout.splitlines())
    assert compared > 1000


def test_compare_and_evaluate_work_without_extras(installed, trec_eval_test_files):
    qrels, run, trunc = (
        trec_eval_test_files / name for name in ("qrels.test", "results.test", "results.trunc")
    )
    out = _run(installed / "dcglab", "compare", qrels, run, trunc, "-m", "map", "--resamples",
               "200", "--format", "markdown")  # fmt: skip
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("| run | map |")
    code = (
        "import sys, dcglab\n"
        "from dcglab.evaluation.presets import TREC_EVAL\n"
        "r = dcglab.evaluate(sys.argv[1], sys.argv[2], ['map'], conventions=TREC_EVAL)\n"
        "print(f\"{r.means()['map']:.4f}\")\n"
    )
    value = _run(installed / "python", "-c", code, qrels, run, check=True).stdout.strip()
    expected = next(line for line in out.stdout.splitlines() if line.startswith("| results.test"))
    assert value in expected


def test_a_one_query_run_imports_neither_pandas_nor_scipy(tmp_path):
    """The command line's start-up: what a small run loads (numpy and the compiled
    reader) and nothing else heavy; polars, pandas, scipy and the engines only when
    asked for."""
    (tmp_path / "q").write_text("q1 0 d1 1\n")
    (tmp_path / "r").write_text("q1 Q0 d1 1 0.5 t\n")
    code = (
        "import sys\n"
        "from dcglab.cli import main\n"
        "assert main(sys.argv[1:]) == 0\n"
        "heavy = ('polars', 'pandas', 'scipy', 'matplotlib', 'duckdb', 'pyspark', 'tqdm',"
        " 'pyarrow')\n"
        "print(' '.join(m for m in heavy if m in sys.modules))\n"
    )
    done = _run(sys.executable, "-c", code, tmp_path / "q", tmp_path / "r", "-m", "ndcg_cut.10")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == ""
