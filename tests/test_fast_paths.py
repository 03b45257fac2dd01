"""The benchmark's workload takes the fast paths, measured by which code runs, not by time.

``benchmarks/cli.py`` writes the workload the README's speed figures come from. A
small copy of it (same generator, fewer queries) must be read by the compiled
tokenizer straight into its columns (no second pass to move rows together), lay
each query's documents out by reshaping (no scatter) in the file's order of
queries (no copy into byte order) and match documents by hash (no exact string
join). A refactor that falls onto a slower path fails here even on a machine
too busy to time anything.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from spies import spy
from workloads import benchmark_workload

from dcglab.cli import main
from dcglab.evaluation import batch
from dcglab.evaluation.batch import codes, preparation, tokens


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
    parts = spy(monkeypatch, tokens, "_read_part")
    moved = spy(monkeypatch, tokens, "_one_numbering")
    exact = spy(monkeypatch, preparation, "exact_match")
    groupings = recorded_groupings(monkeypatch)
    args = ["-q", "-m", "ndcg_cut.10", "-m", "ndcg", "-m", "map"]
    assert main([*args, str(workload / "qrels.txt"), str(workload / "run.txt")]) == 0
    assert capsys.readouterr().out.count("\tq") > 40  # per-query lines were printed

    assert len(parts) == 2 and all(bad == -1 for _, bad, _ in parts)
    assert len(moved) == 2, "a file was not read into its columns"
    assert exact == [], "documents matched by an exact string join, not by hash"
    run_rows = groupings[0]
    assert run_rows.flat is None, "the run's rows were scattered, not reshaped"
    assert run_rows.rows is None, "the run's rows were copied into byte order of the qids"


def test_the_spies_see_the_slow_paths_when_they_are_taken(workload, tmp_path, monkeypatch):
    """The same checks fail where they should: a run whose lines are not grouped
    by query is scattered, and a docno repeated in another query's hash is matched
    exactly when the hashes are made to collide."""
    lines = (workload / "run.txt").read_text().splitlines(keepends=True)
    lines[0] = lines[0].replace(" Q0 ", "  Q0 ", 1)
    run = tmp_path / "run.txt"
    run.write_text("".join(lines[1::2] + lines[::2]))  # each query's lines in two places
    groupings = recorded_groupings(monkeypatch)
    res = batch.evaluate(workload / "qrels.txt", run, measures=["ndcg_cut.10"])
    assert len(res.qids) == 40
    assert groupings[0].flat is not None
    exact = spy(monkeypatch, preparation, "exact_match")
    monkeypatch.setattr(preparation, "match_rows", lambda *args: None)
    again = batch.evaluate(workload / "qrels.txt", run, measures=["ndcg_cut.10"])
    assert len(exact) == 1 and again.per_query.equals(res.per_query)
