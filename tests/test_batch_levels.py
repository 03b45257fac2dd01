"""dcglab.evaluation.batch.levels: each grade level's gain, then 0 for unjudged documents."""

import numpy as np
import pytest
from hypothesis import given
from strategies import gains, grades

from dcglab.evaluation.batch.levels import complete_gains, gain_table, level_gains
from dcglab.evaluation.batch.reader import read_table
from dcglab.formulas.gains import GainError

FORMULA = {"linear": lambda r: r, "exponential": lambda r: 2.0**r - 1}


@given(grades, gains)
def test_each_level_has_its_gain_and_unjudged_documents_gain_zero(given_grades, gain):
    levels = np.unique(np.array(given_grades, dtype=float))
    got = level_gains(levels, gain, "gain")
    assert len(got) == len(levels) + 1 and got[-1] == 0.0
    assert got[:-1].tolist() == [FORMULA[gain](r) for r in levels.tolist()]


def test_negative_grades_read_as_unjudged_gain_zero():
    levels = np.array([-2.0, -1.0, 0.0, 2.0])
    assert level_gains(levels, "linear", "unjudged").tolist() == [0.0, 0.0, 0.0, 2.0, 0.0]
    table = {-2.0: 1.0, -1.0: 0.5, 0.0: 0.0, 2.0: 3.0}
    assert level_gains(levels, table, "gain").tolist() == [1.0, 0.5, 0.0, 3.0, 0.0]
    assert level_gains(levels, table, "unjudged").tolist() == [0.0, 0.0, 0.0, 3.0, 0.0]
    assert level_gains(levels[:2], "exponential", "unjudged").tolist() == [0.0, 0.0, 0.0]


def test_a_negative_grade_without_a_gain_points_to_negative_grades():
    with pytest.raises(ValueError, match=r"grades \[-1.0, 1.0\]\); negative_grades='unjudged'"):
        level_gains(np.array([-1.0, 1.0]), "exponential", "gain")


def test_a_gain_that_overflows_names_its_grade():
    with pytest.raises(GainError, match="grade 1100 has gain inf, not a finite number") as raised:
        level_gains(np.array([1.0, 1100.0]), "exponential", "gain")
    assert raised.value.grade == 1100.0


@pytest.mark.parametrize(
    "negative_grades, want",
    [
        ("unjudged", {0.0: 0.0, 1.0: 3.0, 2.0: 9.0, 3.0: 3.0}),
        ("gain", {-1.0: -1.0, 0.0: 0.0, 1.0: 3.0, 2.0: 9.0, 3.0: 3.0}),
    ],
)
def test_a_partial_table_gives_each_unlisted_grade_itself(negative_grades, want):
    """trec_eval's ``ndcg.1=3,2=9``: grades 0 and 3 keep their own value as gain."""
    levels = np.array([-1.0, 0.0, 1.0, 2.0, 3.0])
    assert complete_gains({1: 3, 2: 9}, levels, negative_grades) == want


def test_gain_table_names_the_qrels_line_of_the_grade(tmp_path):
    path = tmp_path / "qrels"
    path.write_text("q1 0 d1 1\nq1 0 d2 1100\n")
    q = read_table(path, "qrels")
    with pytest.raises(ValueError, match=rf"^{path}:2: gain='exponential': grade 1100 has gain"):
        gain_table(np.array([1.0, 1100.0]), "exponential", "gain", np.array([0, 1]), q)
    with pytest.raises(ValueError, match=rf"^{path}: gain='exponential': grades must be >= 0"):
        gain_table(np.array([-1.0, 1.0]), "exponential", "gain", np.array([0, 1]), q)
