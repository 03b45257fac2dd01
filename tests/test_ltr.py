"""Unit and property tests of dcglab.formulas.ltr: the change in nDCG when two documents swap."""

import math

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from strategies import gains, grades, has_relevant

from dcglab import ndcg
from dcglab.formulas.ltr import swap_deltas


def swapped(g, i, j):
    out = list(g)
    out[i], out[j] = out[j], out[i]
    return out


def test_swap_to_the_ideal_order_by_hand():
    # [0, 3], linear gain: DCG = 3 / log2(3), IDCG = 3; swapping gives the ideal, nDCG 1
    d = swap_deltas([0, 3], gain="linear")
    assert d[0, 1] == pytest.approx(1 - 1 / math.log2(3), abs=1e-15)
    assert d[1, 0] == d[0, 1] and d[0, 0] == d[1, 1] == 0.0


def test_exponential_gain_is_the_default():
    # [1, 2]: gains 1 and 3; swapping changes DCG by (3 - 1)(1 - 1/log2 3)
    ideal = 3 + 1 / math.log2(3)
    assert swap_deltas([1, 2])[0, 1] == pytest.approx(2 * (1 - 1 / math.log2(3)) / ideal)


def test_ranks_beyond_the_cutoff_weigh_nothing():
    d = swap_deltas([3, 0, 2, 1], k=2, gain="linear")
    assert d[2, 3] == 0.0  # both below the cutoff: nDCG@2 cannot change
    ideal = 3 + 2 / math.log2(3)
    assert d[0, 2] == pytest.approx((2 - 3) * 1 / ideal)  # rank 3 has weight 0


def test_a_ranking_with_nothing_relevant_is_refused():
    with pytest.raises(ValueError, match="IDCG is 0"):
        swap_deltas([0, 0, 0])


@given(grades, gains, st.integers(1, 15))
def test_each_entry_is_the_change_in_ndcg_of_that_swap(g, gain, k):
    assume(has_relevant(g))
    d = swap_deltas(g, k, gain=gain)
    before = ndcg(g, k, gain=gain)
    for i in range(len(g)):
        for j in range(len(g)):
            after = ndcg(swapped(g, i, j), k, gain=gain)
            assert d[i, j] == pytest.approx(after - before, abs=1e-12)
    assert np.array_equal(d, d.T)


def test_judged_grades_set_the_ideal():
    judged = [3, 3, 1, 0]
    d = swap_deltas([1, 3], 2, gain="linear", judged=judged)
    after, before = (
        ndcg([3, 1], 2, judged=judged, gain="linear"),
        ndcg([1, 3], 2, judged=judged, gain="linear"),
    )
    assert d[0, 1] == pytest.approx(after - before, abs=1e-15)


def test_without_a_cutoff_the_ideal_holds_every_judged_grade():
    """As in ndcg: with k omitted the ideal is uncut, so judged grades beyond the
    ranking's length still count in IDCG."""
    judged = [3, 3, 2, 1, 0]
    d = swap_deltas([1, 3], gain="linear", judged=judged)
    after = ndcg([3, 1], judged=judged, gain="linear")
    before = ndcg([1, 3], judged=judged, gain="linear")
    assert d[0, 1] == pytest.approx(after - before, abs=1e-15)
