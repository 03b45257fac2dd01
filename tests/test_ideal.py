"""Unit and property tests of dcglab.formulas.ideal: the ideal order and where its grades come
from."""

import math

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from strategies import gains, grades, has_relevant

import dcglab
from dcglab import dcg, gain_values, ideal_order, ndcg

LOG2_3 = math.log2(3)


def test_ideal_sorted_by_gain_not_grade():
    cranfield = {1: 4, 2: 3, 3: 2, 4: 1}
    # grade 1 is the best under 5 - grade, so ranking it first is ideal
    assert ndcg([1, 2, 4], gain=cranfield) == 1.0
    assert ndcg([4, 2, 1], gain=cranfield) < 1.0


def test_ideal_from_judged_versus_retrieved():
    judged = [3, 3, 2, 1, 0, 0]
    assert ndcg([1, 0], 2, judged=judged) == pytest.approx(1 / (3 + 3 / LOG2_3))
    assert ndcg([1, 0], 2, judged=judged, ideal="retrieved") == 1.0


def test_fractional_gains_sort_the_ideal_exactly():
    """trec_eval's gain_init.c compares gain levels after truncating their difference
    to int, so with gains 1=3.2, 2=3.5, 3=3.4 it keeps the ideal in grade order
    3, 2, 1 and reports 0.9861 for the ranking 1, 2, 3 (pytrec_eval cannot take
    custom gains, so this is a hand-derived check). The correct ideal is 2, 3, 1."""
    gains = {1: 3.2, 2: 3.5, 3: 3.4}
    assert dcglab.ideal_order([1, 2, 3], gains).tolist() == [2, 3, 1]
    correct = ndcg([1, 2, 3], gain=gains)
    assert round(correct, 4) == 0.9811
    truncated = dcg([1, 2, 3], gain=gains) / dcg([3, 2, 1], gain=gains)
    assert round(truncated, 4) == 0.9861  # trec_eval's value, reproduced by hand


@given(grades, st.integers(1, 15))
def test_ideal_from_retrieved_never_lower(g, k):
    """Adding judged-but-unretrieved documents can only lower nDCG."""
    judged = list(g) + [3]
    assume(has_relevant(g))
    assert ndcg(g, k, judged=judged) <= ndcg(g, k, judged=judged, ideal="retrieved") + 1e-12


@given(grades, gains)
def test_ideal_order_is_non_increasing_in_gain(g, gain):
    assert np.all(np.diff(gain_values(ideal_order(g, gain), gain)) <= 0)
