"""The notebooks' one-call report of a number: what is glued is what is printed."""

from __future__ import annotations

import pandas as pd
import pytest

from dcglab.book import report


@pytest.fixture
def glued(monkeypatch: pytest.MonkeyPatch) -> dict[str, object]:
    """The values the report functions glue, by name, instead of myst_nb's store."""
    store: dict[str, object] = {}
    monkeypatch.setattr(report, "glue", lambda name, value: store.__setitem__(name, value))
    return store


def test_show_glues_the_value_and_prints_it_rounded(glued, capsys) -> None:
    report.show("ch_x", 2 / 3, "x")
    assert glued == {"ch_x": 2 / 3}
    assert capsys.readouterr().out == "x = 0.667\n"


def test_show_all_glues_each_value_and_prints_one_line(glued, capsys) -> None:
    report.show_all([("a", "A", 0.25), ("b", "B", 3)], digits=2)
    assert glued == {"a": 0.25, "b": 3}
    assert capsys.readouterr().out == "A = 0.25, B = 3\n"


def test_show_table_glues_every_cell_under_its_row_and_column(glued, capsys) -> None:
    table = pd.DataFrame({"k": [1, 2], "DCG": [1.0, 1.5], "nDCG": [0.5, 0.75]})
    report.show_table(table, "t_{column}{row}", "k")
    assert glued == {"t_dcg1": 1.0, "t_ndcg1": 0.5, "t_dcg2": 1.5, "t_ndcg2": 0.75}
    assert capsys.readouterr().out.splitlines()[1].split() == ["1", "1.000", "0.500"]


def test_show_table_names_columns_as_asked(glued, capsys) -> None:
    table = pd.DataFrame({"rank": [2], "1/log2(i+1)": [0.63]})
    report.show_table(table, "w{row}_{column}", "rank", columns={"1/log2(i+1)": "log"})
    assert glued == {"w2_log": 0.63}
    assert "1/log2(i+1)" in capsys.readouterr().out


def test_format_table_prints_reals_as_the_prose_does() -> None:
    table = pd.DataFrame({"doc": [1400, 7], "change": [-0.0, -0.25]})
    lines = report.format_table(table, digits=2).splitlines()
    assert [line.split() for line in lines[1:]] == [["1400", "0.00"], ["7", "-0.25"]]
    assert report.shown(-0.0, 2) == report.decimals(-0.0, 2) == "0.00"


def test_expected_names_glue_numbers_shown_by_label_only(glued, capsys) -> None:
    report.expect(["p", "q", "t_1", "t_2"])
    report.show_all([("P", 0.5), ("Q", 2)])
    report.show_table(pd.DataFrame({"k": [1, 2], "nDCG": [1.0, 0.5]}), key="k")
    assert glued == {"p": 0.5, "q": 2, "t_1": 1.0, "t_2": 0.5}
    assert capsys.readouterr().out.splitlines()[0] == "P = 0.500, Q = 2"
    report.expect([])


def test_without_expected_names_the_numbers_are_only_printed(glued, capsys) -> None:
    report.show_all([("P", 0.5)])
    assert glued == {} and capsys.readouterr().out == "P = 0.500\n"


def test_names_announced_but_not_shown_are_an_error(glued) -> None:
    report.expect(["a", "b"])
    report.show_all([("A", 1.0)])
    with pytest.raises(ValueError, match=r"\['b'\]"):
        report.expect([])
    assert glued == {"a": 1.0}
