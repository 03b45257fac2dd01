"""Unit tests of dcglab.formulas.kernels: cutoffs, prefix-sum curves and the nDCG ratio with its
IDCG = 0 policies."""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from dcglab import idcg, ndcg, ndcg_curve
from dcglab.book.article import EXAMPLE
from dcglab.formulas.kernels import at_cutoff, check_k, clamp_k, dcg_curve, ideal_curve, ndcg_ratio


@pytest.mark.parametrize(("policy", "expected"), [("zero", 0.0), ("one", 1.0), ("skip", None)])
def test_zero_idcg_policies(policy, expected):
    assert ndcg([0, 0], zero_idcg=policy) == expected
    assert ndcg_curve([0, 0], zero_idcg=policy)["nDCG"].tolist() == [expected, expected]


def test_zero_idcg_default_is_an_error():
    with pytest.raises(ValueError, match="IDCG is 0"):
        ndcg([0, 0])


@pytest.mark.parametrize(("policy", "fill"), [("zero", 0.0), ("one", 1.0)])
def test_ndcg_ratio_on_scalars_and_arrays(policy, fill):
    assert ndcg_ratio(1.5, 2.0, policy) == 0.75
    assert ndcg_ratio(0.0, 0.0, policy) == fill
    got = ndcg_ratio(np.array([1.5, 0.0, 2.0]), np.array([2.0, 0.0, 2.0]), policy)
    assert got.tolist() == [0.75, fill, 1.0]
    assert ndcg_ratio(np.array([1.0, 3.0]), 4.0, policy).tolist() == [0.25, 0.75]


def test_ndcg_ratio_skip_and_error():
    assert ndcg_ratio(0.0, 0.0, "skip") is None
    skipped = ndcg_ratio(np.array([1.0, 0.0]), np.array([2.0, 0.0]), "skip")
    assert skipped[0] == 0.5 and np.isnan(skipped[1])
    with pytest.raises(ValueError, match="IDCG is 0 .no judged document"):
        ndcg_ratio(0.0, 0.0)
    with pytest.raises(ValueError, match=r"ndcg_cut_5: IDCG is 0 for 2 queries \(e.g. b, c\)"):
        ndcg_ratio(
            np.zeros(3), np.array([1.0, 0.0, 0.0]), queries=["a", "b", "c"], measure="ndcg_cut_5"
        )
    with pytest.raises(ValueError, match="zero_idcg must be one of"):
        ndcg_ratio(1.0, 2.0, "nan")


def test_clamp_k_and_ideal_curve():
    assert [clamp_k(k, 4) for k in (1, 4, 5, 100)] == [1, 4, 4, 4]
    curve = ideal_curve(EXAMPLE, "exponential")
    assert len(curve) == len(EXAMPLE)
    # by hand: the ideal order 3,3,2,2,1,0 has exponential gains 7,7,3,3,1,0
    w = 1 / np.log2(np.arange(2, 8))
    assert curve == pytest.approx(np.cumsum(np.array([7, 7, 3, 3, 1, 0]) * w), abs=1e-12)
    assert [idcg(EXAMPLE, k, "exponential") for k in range(1, 7)] == curve.tolist()


def test_dcg_curve_is_the_prefix_sum_of_discounted_gains_by_hand():
    # gains 3, 2, 3 with weights 1, 1/log2(3), 1/2
    curve = dcg_curve(np.array([3.0, 2.0, 3.0]))
    assert curve.tolist() == pytest.approx([3, 3 + 2 / math.log2(3), 4.5 + 2 / math.log2(3)])
    assert dcg_curve(np.array([1.0, 1.0]), "reciprocal").tolist() == [1.0, 1.5]


@given(st.lists(st.floats(0, 100), min_size=1, max_size=20), st.integers(1, 30))
def test_at_cutoff_reads_the_curve_and_stops_at_its_end(g, k):
    curve = dcg_curve(np.array(g))
    assert np.all(np.diff(curve) >= 0)  # non-negative gains: DCG never falls with k
    assert at_cutoff(curve, k) == curve[min(k, len(g)) - 1]


def test_a_sum_that_overflows_is_refused():
    with pytest.raises(ValueError, match="grades: DCG is inf, not a finite number"):
        dcg_curve(np.array([1e308, 1e308, 1e308]))  # 1e308 (1 + 0.63 + 0.5) > 1.8e308


@pytest.mark.parametrize("k", [0, -1, 1.5, True, "3", float("inf"), float("nan")])
def test_check_k_refuses_what_is_not_a_cutoff(k):
    with pytest.raises(ValueError, match="k must be an integer >= 1"):
        check_k(k, 5)


def test_check_k_defaults_to_the_whole_list():
    assert check_k(None, 5) == 5 and check_k(np.int64(3), 5) == 3 and check_k(7.0, 5) == 7
