"""Unit tests of gains, discounts and measures against hand-derived values."""

import math

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from strategies import gains, grades, has_relevant

from dcglab import cg, dcg, idcg, ideal_order, mean_ndcg, ndcg, ndcg_curve
from dcglab.book.article import EXAMPLE

LOG2_3 = math.log2(3)


def test_worked_example_by_hand():
    # 3 + 2/log2(3) + 3/2 + 0 + 1/log2(6) + 2/log2(7)
    expected = 3 + 2 / LOG2_3 + 1.5 + 1 / math.log2(6) + 2 / math.log2(7)
    assert dcg(EXAMPLE, 6) == pytest.approx(expected, abs=1e-15)
    ideal = 3 + 3 / LOG2_3 + 1 + 2 / math.log2(5) + 1 / math.log2(6)
    assert idcg(EXAMPLE, 6) == pytest.approx(ideal, abs=1e-15)
    assert ndcg(EXAMPLE, 6) == pytest.approx(expected / ideal, abs=1e-15)


def test_cg_ignores_order_and_dcg_does_not():
    assert cg([3, 0, 0], 3) == cg([0, 0, 3], 3) == 3
    assert dcg([3, 0, 0], 3) > dcg([0, 0, 3], 3)


def test_cutoff_beyond_list_adds_nothing():
    assert dcg([3, 2], 10) == dcg([3, 2], 2)
    # The ideal keeps growing past the retrieved list when more is judged.
    assert ndcg([3], 2, judged=[3, 3]) == pytest.approx(3 / (3 + 3 / LOG2_3))


def test_curve_matches_pointwise():
    table = ndcg_curve(EXAMPLE, gain="exponential")
    for k in range(1, 7):
        assert table["nDCG"][k - 1] == pytest.approx(ndcg(EXAMPLE, k, gain="exponential"))
        assert table["DCG"][k - 1] == pytest.approx(dcg(EXAMPLE, k, gain="exponential"))


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: dcg([]), "grades is empty"),
        (lambda: dcg([1, float("nan")]), "NaN"),
        (lambda: dcg([1, -1]), "grades must be >= 0"),
        (lambda: dcg([1, -1], gain="exponential"), "grades must be >= 0"),
        (lambda: dcg([[1, 2]]), "one-dimensional"),
        (lambda: dcg(["a"]), "grades must be numbers"),
        (lambda: dcg([1], k=0), "k must be an integer >= 1"),
        (lambda: dcg([1], k=1.5), "k must be an integer >= 1"),
        (lambda: dcg([1], k=True), "k must be an integer >= 1"),
        # values that overflow or are not numbers: an error naming argument and value
        (lambda: ndcg([1e308] * 3), "grades: DCG is inf, not a finite number"),
        (lambda: ndcg([1100, 0], gain="exponential"), "grade 1100 has gain inf"),
        (lambda: ndcg([3, 2], gain="exponential:inf"), "gain='exponential:inf'"),
        (lambda: ndcg([3, 2], gain="exponential:abc"), "gain='exponential:abc'"),
        (lambda: ndcg([1, 0], gain={1: "a", 0: 0}), "gain mapping: the gains must be numbers"),
        (lambda: ndcg([1, 0], gain={"x": 1, 0: 0}), "gain mapping: the grades must be"),
        (lambda: mean_ndcg([[1, 0], [1]], weights=["a", 1]), "weights must be numbers"),
        (lambda: mean_ndcg([[1, 0], [1]], weights=[float("inf"), 1]), "weights must be finite"),
        (lambda: ndcg([10**400, 1]), "grades holds a number too large for a float"),
        (lambda: ndcg(["3", "2", "1"]), "grades must be numbers, not strings"),
        (lambda: ndcg([1, 0], judged=["1", "0"]), "judged must be numbers, not strings"),
        # the ideal must hold every retrieved document of positive gain, whatever its grade
        (lambda: ndcg([-1, -1], judged=[-1, 0], gain={-1: 5, 0: 0}), "more documents of grade"),
        (lambda: ndcg([1, 0], judged=[float("nan")], ideal="retrieved"), "judged contains NaN"),
        (lambda: ndcg([3], judged=[]), "judged is empty"),
        (lambda: ndcg([3, 3], judged=[3, 1]), "more documents of grade"),
        (lambda: ndcg([1], ideal="best"), "ideal must be one of"),
        (lambda: ndcg([1], zero_idcg="nan"), "zero_idcg must be one of"),
    ],
)
def test_bad_input_names_the_argument(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_ndcg_with_a_gain_table_for_negative_codes_stays_within_one():
    """A table may give a negative code a positive gain; the ideal then holds it."""
    value = ndcg([-1, 0], judged=[-1, 0, -1], gain={-1: 5, 0: 0})
    assert value == pytest.approx(5 / (5 + 5 / math.log2(3)), abs=1e-15)
    assert 0 <= value <= 1


@given(grades, gains, st.integers(1, 15))
def test_ndcg_in_unit_interval(g, gain, k):
    value = ndcg(g, k, gain=gain, zero_idcg="zero")
    assert 0.0 <= value <= 1.0 + 1e-12


@given(grades, gains, st.integers(1, 15))
def test_ndcg_is_one_exactly_for_ideal_order(g, gain, k):
    assume(has_relevant(g))
    assert ndcg(ideal_order(g, gain), k, gain=gain) == 1.0


@given(grades, gains, st.integers(1, 15))
def test_ndcg_below_one_when_order_is_worse(g, gain, k):
    best = ideal_order(g, gain)
    worse = best[::-1]
    assume(dcg(worse, k, gain) < dcg(best, k, gain) - 1e-9)  # implies a relevant grade
    assert ndcg(worse, k, gain=gain) < 1.0


@given(grades, gains, st.integers(1, 15), st.data())
def test_moving_a_higher_grade_up_never_lowers_dcg(g, gain, k, data):
    assume(len(g) >= 2)
    i = data.draw(st.integers(0, len(g) - 2))
    j = data.draw(st.integers(i + 1, len(g) - 1))
    assume(g[j] > g[i])
    swapped = list(g)
    swapped[i], swapped[j] = swapped[j], swapped[i]
    assert dcg(swapped, k, gain) >= dcg(g, k, gain) - 1e-12


@given(grades, gains, st.integers(1, 15))
def test_dcg_never_decreases_with_k(g, gain, k):
    assert dcg(g, k + 1, gain) >= dcg(g, k, gain)


@given(st.lists(st.integers(0, 3), min_size=1, max_size=8), st.permutations(range(8)))
def test_ndcg_invariant_to_permuting_unreached_ranks(g, perm):
    assume(has_relevant(g))
    k = max(1, len(g) // 2)
    tail = [g[i] for i in perm if i < len(g) and i >= k]
    assert ndcg(g, k) == ndcg(list(g[:k]) + tail, k)
