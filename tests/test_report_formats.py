"""dcglab.statistics.report_formats: a comparison as text, Markdown, LaTeX, CSV and JSON."""

import csv
import dataclasses
import io
import json

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
