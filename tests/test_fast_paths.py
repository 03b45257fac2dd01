"""The benchmark's workload takes the fast paths, measured by which code runs, not by time.

``benchmarks/cli.py`` writes the workload the README's speed figures come from. A
small copy of it (same generator, fewer queries) must go through the polars reader
(not the general, line-by-line one), lay each query's documents out by reshaping
(no scatter) in the file's order of queries (no copy into byte order), match
documents by hash (no exact string join) and code the run's query ids block by
block. A refactor that falls onto a slower path fails here even on a machine
too busy to time anything.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from spies import spy
from workloads import benchmark_workload

from dcglab.cli import main
from dcglab.evaluation import batch
from dcglab.evaluation.batch import codes, preparation, reader, text


@pytest.fixture(scope="module")
def workload(tmp_path_factory) -> Path:
    return benchmark_workload(tmp_path_factory.mktemp("bench"), n_queries=40, n_docs=300)


def recorded_groupings(monkeypatch) -> list[codes.Grouping]:
    """Every :class:`dcglab.evaluation.batch.codes.Grouping` made from now on, in order."""
    groupings: list[codes.Grouping] = []
    real_init = codes.Grouping.__init__

    def record(self, *args, **kwargs):
        real_init(self, *args, **kwargs)
        groupings.append(self)

    monkeypatch.setattr(codes.Grouping, "__init__", record)
    return groupings


def test_the_benchmark_workload_takes_every_fast_path(workload, monkeypatch, capsys):
    general = spy(monkeypatch, reader, "_general")
    fast_reads = spy(monkeypatch, text, "_polars")
    exact = spy(monkeypatch, preparation, "exact_match")
    sorted_codes = spy(monkeypatch, codes, "_sorted_factorize")
    groupings = recorded_groupings(monkeypatch)
    args = ["-q", "-m", "ndcg_cut.10", "-m", "ndcg", "-m", "map"]
    assert main([*args, str(workload / "qrels.txt"), str(workload / "run.txt")]) == 0
    assert capsys.readouterr().out.count("\tq") > 40  # per-query lines were printed

    assert general == [], "a file fell onto the general (line by line) reader"
    assert len(fast_reads) == 2 and all(df is not None for df in fast_reads)
    assert exact == [], "documents matched by an exact string join, not by hash"
    assert sorted_codes == [], "ids coded through the categorical fallback"
    run_rows = groupings[0]
    assert run_rows.flat is None, "the run's rows were scattered, not reshaped"
    assert run_rows.rows is None, "the run's rows were copied into byte order of the qids"


def test_the_spies_see_the_slow_paths_when_they_are_taken(workload, tmp_path, monkeypatch):
    """The same checks fail where they should: a run with doubled spaces reads
    through the general path, and a run whose lines are not grouped by query is
    scattered."""
    lines = (workload / "run.txt").read_text().splitlines(keepends=True)
    lines[0] = lines[0].replace(" Q0 ", "  Q0 ", 1)
    run = tmp_path / "run.txt"
    run.write_text("".join(lines[1::2] + lines[::2]))  # each query's lines in two places
    general = spy(monkeypatch, reader, "_general")
    groupings = recorded_groupings(monkeypatch)
    res = batch.evaluate(workload / "qrels.txt", run, measures=["ndcg_cut.10"])
    assert len(res.qids) == 40
    assert len(general) == 1 and general[0] is not None
    assert groupings[0].flat is not None
