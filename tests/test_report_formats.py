"""dcglab.statistics.report_formats: a comparison as text, Markdown, LaTeX, CSV and JSON."""

import csv
import dataclasses
import io
import json
import re

import numpy as np
import pandas as pd
import pytest
from workloads import compare_workload

from dcglab.statistics.comparison import FORMATS, compare
from dcglab.statistics.report_formats import LATEX_SPECIAL, render


@pytest.fixture(scope="module")
def comparison():
    qrels, runs = compare_workload()
    return compare(qrels, runs, ["ndcg_cut.10"], n_resamples=300)


def test_formats(comparison):
    c = comparison
    text = {f: c.format(f) for f in FORMATS}
    assert str(c) == text["text"]
    assert "bm25" in text["text"] and "95% CI (bootstrap)" in text["text"]
    assert text["markdown"].splitlines()[1] == "|---|---|"
    assert r"\toprule" in text["latex"] and r"ndcg\_cut\_10" in text["latex"]
    rows = list(csv.DictReader(io.StringIO(text["csv"])))
    assert len(rows) == 3
    for row, ref in zip(rows, c.pairs.to_dict("records")):
        assert float(row["p_t"]) == pytest.approx(ref["p_t"], rel=1e-11)
    data = json.loads(text["json"])
    assert data["settings"]["seed"] == 0 and len(data["settings"]["query_ids"]) == 25
    assert data["pairs"][0]["difference"] == pytest.approx(c.pairs["difference"][0], rel=1e-11)
    assert pd.read_json(io.StringIO(json.dumps(data["pairs"]))).shape == (3, len(c.pairs.columns))
    with pytest.raises(ValueError, match="fmt must be one of"):
        c.format("html")


def _cells(line: str, sep: str, escaped: str) -> int:
    """The number of cells of a table line: separators not written escaped."""
    return line.replace(escaped, "").count(sep)


def test_markdown_and_latex_rows_have_as_many_cells_as_their_header(comparison):
    md = render(comparison, "markdown").split("\n\n")[:2]
    for table in md:
        lines = table.splitlines()
        assert {_cells(line, "|", r"\|") for line in lines} == {_cells(lines[0], "|", r"\|")}
    tables = render(comparison, "latex").split(r"\begin{tabular}")[1:]
    assert len(tables) == 2
    for table, n in zip(tables, (len(comparison.means), len(comparison.pairs))):
        rows = [line for line in table.splitlines() if line.endswith(r"\\")]
        assert len(rows) == n + 1  # the header and one row each
        assert len({_cells(line, "&", r"\&") for line in rows}) == 1


@pytest.mark.parametrize("digits", [2, 4, 6])
def test_the_means_are_shown_with_the_digits_asked_for(comparison, digits):
    """The text table's means are the comparison's means rounded to ``digits`` decimals."""
    lines = render(comparison, "text", digits).split("\n\n")[0].splitlines()[2:]
    for line, (run, row) in zip(lines, comparison.means.iterrows()):
        shown = line.split()
        assert shown[0] == run
        assert shown[1:] == [f"{v:.{digits}f}" for v in row]
        assert all(len(s.split(".")[1]) == digits for s in shown[1:])


def test_latex_escapes_every_special_character(comparison):
    """A run name made of every special character comes out with each one escaped."""
    name = "".join(LATEX_SPECIAL)
    means = comparison.means.rename(index={comparison.means.index[0]: name})
    tex = render(dataclasses.replace(comparison, means=means), "latex")
    row = next(line for line in tex.splitlines() if line.startswith(r"\textbackslash"))
    assert row.startswith("".join(LATEX_SPECIAL.values()) + " & ")


def graded_run(qrels: pd.DataFrame, sign: float, seed: int) -> pd.DataFrame:
    """A run that ranks the judged documents by grade (``sign`` 1) or against it (-1),
    ties broken at random."""
    noise = np.random.default_rng(seed).random(len(qrels))
    return qrels.assign(score=sign * qrels["grade"] + noise)[["qid", "docno", "score"]]


@pytest.fixture(scope="module")
def marked():
    """Every pair, and against ``bm25`` as baseline: ``bm25`` and its ``copy`` tie on
    every query; ``ideal`` (by grade) and ``weak`` (against it) differ from both."""
    qrels, runs = compare_workload()
    runs = {"bm25": runs["bm25"], "copy": runs["bm25"].copy(),
            "ideal": graded_run(qrels, 1, 1), "weak": graded_run(qrels, -1, 2)}  # fmt: skip
    every = compare(qrels, runs, ["ndcg_cut.10", "map"], n_resamples=300)
    return every, compare(qrels, runs, ["ndcg_cut.10", "map"], baseline="bm25", n_resamples=300)


def _pair_cells(table: str) -> list[list[str]]:
    """The body rows of a Markdown pairs table, split into cells."""
    lines = table.split("\n\n")[1].splitlines()[2:]
    return [[x.strip() for x in line.strip("|").split(" | ")] for line in lines]


def test_a_tied_pair_shows_a_dash_and_a_note(marked):
    c, _ = marked
    tied = (c.pairs["run_a"] == "bm25") & (c.pairs["run_b"] == "copy")
    rows = _pair_cells(c.format("markdown"))
    for row, is_tied in zip(rows, tied):
        assert (row[6] == "—" and row[7] == "—") == is_tied, row
        assert row[8] != "—" and row[9] != "—"
    for fmt, dash in (("text", "—"), ("markdown", "—"), ("latex", "---")):
        text = c.format(fmt)
        assert text.count(dash) >= 2 * int(tied.sum())
        assert "every query has the same difference" in text
    csv_rows = list(csv.DictReader(io.StringIO(c.format("csv"))))
    assert [r["p_t"] == "" for r in csv_rows] == tied.tolist()
    pairs = json.loads(c.format("json"))["pairs"]
    assert [p["d_z"] is None and p["p_t_holm"] is None for p in pairs] == tied.tolist()


def test_no_note_on_undefined_values_where_there_are_none(comparison):
    assert "—" not in comparison.format("markdown") and "same difference" not in str(comparison)


@pytest.mark.parametrize("test", ["t", "randomization", "tukey"])
def test_daggers_mark_the_corrected_p_values(marked, test):
    """A difference has a dagger exactly where its corrected p-value is at most alpha;
    with a baseline, so does each run's mean against the baseline (never the baseline's)."""
    column = {"t": "p_t_holm", "randomization": "p_rand_holm", "tukey": "p_tukey"}[test]
    for c in marked:
        significant = (c.pairs[column] <= 0.05).tolist()
        assert any(significant) and not all(significant)  # both kinds of cell are tested
        md = c.format("markdown", test=test)
        marks = [row[3].endswith("<sup>†</sup>") for row in _pair_cells(md)]
        assert marks == significant
        tex_rows = [line for line in c.format("latex", test=test).splitlines() if " & " in line]
        assert sum(r"$^{\dagger}$" in line for line in tex_rows) >= sum(significant)
    baseline = marked[1]
    means = baseline.format("markdown", test=test).split("\n\n")[0].splitlines()[2:]
    for line, run in zip(means, baseline.means.index):
        cells = [x.strip() for x in line.strip("|").split(" | ")][1:]
        for cell, measure in zip(cells, baseline.means.columns):
            pair = baseline.pairs.query("measure == @measure and run_a == @run")
            expected = run != "bm25" and bool(pair[column].item() <= 0.05)
            assert cell.endswith("<sup>†</sup>") == expected, (run, measure, cell)
    assert "† p ≤ 0.05 against bm25" in baseline.format("text", test=test)
    legend = [line for line in baseline.format("latex", test=test).splitlines()
              if line.startswith(r"\par")]  # fmt: skip
    assert any(r"$^{\dagger}$ p $\leq$ 0.05 against bm25" in line for line in legend), legend
    assert not any(line.startswith("%") for line in baseline.format("latex").splitlines())


def test_the_highest_mean_of_each_measure_is_bold(marked):
    c, _ = marked
    md = c.format("markdown").split("\n\n")[0].splitlines()[2:]
    tex = [line for line in c.format("latex").splitlines() if line.startswith(tuple(c.means.index))]
    for line, tex_line, (_, row) in zip(md, tex, c.means.iterrows()):
        cells = [x.strip() for x in line.strip("|").split(" | ")][1:]
        for cell, tex_cell, measure in zip(cells, tex_line.split(" & ")[1:], c.means.columns):
            best = f"{row[measure]:.4f}" == f"{c.means[measure].max():.4f}"
            assert cell.startswith("**") == best and tex_cell.startswith(r"\textbf") == best


def test_p_values_have_one_format(marked):
    shown = re.compile(r"^(\d\.\d{3}|< 0\.001|—)$")
    for c in marked:
        for row in _pair_cells(c.format("markdown")):
            assert all(shown.match(p) for p in row[7:]), row
    assert {x for row in _pair_cells(marked[0].format("markdown")) for x in row[7:]} & {"< 0.001"}
