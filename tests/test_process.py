"""Both entry points set the process up the same way (:mod:`dcglab.cli.process`).

A small driver starts each entry point in a fresh interpreter, as the
``dcglab`` console script (its entry point, loaded from the installed metadata)
and as ``python -m dcglab``. It records every ``mallopt`` call made through
ctypes and, with an audit hook, the jemalloc configuration in the environment
at the moment polars is first imported (by the DuckDB engine only); the two
records must be equal and complete.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

DRIVER = r"""
import ctypes, json, os, sys
seen = {"mallopt": [], "jemalloc_at_polars_import": None, "polars_imported": False}

class Recording(ctypes.CDLL):
    def __getattr__(self, name):
        function = super().__getattr__(name)
        if name != "mallopt":
            return function
        def call(*args):
            seen["mallopt"].append(list(args))
            return function(*args)
        setattr(self, name, call)  # as ctypes caches the function itself
        return call

def hook(event, args):
    if event == "import" and args[0] == "polars" and not seen["polars_imported"]:
        seen["polars_imported"] = True
        seen["jemalloc_at_polars_import"] = os.environ.get("_RJEM_MALLOC_CONF")

ctypes.CDLL = Recording
sys.addaudithook(hook)
report, how, *argv = sys.argv[1:]
sys.argv = ["dcglab", *argv]
quick_exit = os._exit

def record_then_exit(code):  # the program ends with os._exit: record first
    with open(report, "w") as out:
        json.dump(seen, out)
    quick_exit(code)

os._exit = record_then_exit
if how == "console":
    from importlib.metadata import entry_points
    (script,) = entry_points(group="console_scripts", name="dcglab")
    script.load()()
else:
    import runpy
    runpy.run_module("dcglab", run_name="__main__", alter_sys=True)
"""


def start(how: str, tmp_path, files, *options: str) -> dict:
    report = tmp_path / f"{how}.json"
    env = {"PATH": "/usr/bin:/bin"}  # no _RJEM_MALLOC_CONF inherited from the test's process
    done = subprocess.run(
        [sys.executable, "-c", DRIVER, str(report), how, *options, "-m", "ndcg_cut.1", *files],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("ndcg_cut_1"), done.stdout
    return json.loads(report.read_text())


@pytest.mark.slow
def test_console_script_and_python_m_set_up_the_process_alike(tmp_path):
    qrels, run = tmp_path / "qrels", tmp_path / "run"
    qrels.write_text("q1 0 a 2\nq1 0 b 0\n")
    run.write_text("q1 Q0 a 1 0.7 t\nq1 Q0 b 2 0.7000000001 t\n")
    # the batch evaluator: the allocator set up, polars never loaded
    console = start("console", tmp_path, [str(qrels), str(run)])
    module = start("module", tmp_path, [str(qrels), str(run)])
    assert console == module
    assert not console["polars_imported"]
    assert console["mallopt"] == [[-3, 1 << 30], [-1, (1 << 31) - 1]]
    # the DuckDB engine loads polars: its allocator is configured before that
    console = start("console", tmp_path, [str(qrels), str(run)], "--engine", "duckdb")
    module = start("module", tmp_path, [str(qrels), str(run)], "--engine", "duckdb")
    assert console == module
    assert console["polars_imported"]
    assert console["jemalloc_at_polars_import"] == "dirty_decay_ms:0,muzzy_decay_ms:0"
    assert console["mallopt"] == [[-3, 1 << 30], [-1, (1 << 31) - 1]]


def test_calling_main_with_arguments_leaves_the_process_alone(tmp_path, monkeypatch):
    """A library user (or a test) calling ``main([...])`` keeps its own allocator."""
    import dcglab.cli.process
    from dcglab.cli import main

    called = []
    monkeypatch.setattr(dcglab.cli.process, "setup", lambda: called.append(True))
    qrels, run = tmp_path / "qrels", tmp_path / "run"
    qrels.write_text("q1 0 a 1\n")
    run.write_text("q1 Q0 a 1 1 t\n")
    assert main(["-m", "ndcg_cut.1", str(qrels), str(run)]) == 0
    assert called == []
