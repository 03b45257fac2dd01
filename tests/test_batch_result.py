"""dcglab.evaluation.batch.result: the per-query values and trec_eval's means."""

import math
from functools import reduce
from operator import add

import numpy as np
import pytest

from dcglab.evaluation.batch.result import BatchResult
from dcglab.evaluation.measure_names import measure_specs


def test_the_mean_adds_queries_left_to_right():
    """trec_eval adds each query's value to a double in query order, then divides;
    numpy's pairwise sum differs in the last bit on these values."""
    v = np.random.default_rng(3).random(1000) / 3
    assert np.sum(v) != reduce(add, v)  # the orders differ here, so the test can fail
    got = BatchResult(np.arange(1000), {"m": v}).means()["m"]
    assert got == reduce(add, v) / 1000


@pytest.fixture
def result():
    """Three queries; q2 skipped by ``ndcg`` (NaN); a count, a geometric mean, a plain column."""
    measures = {m.name: m for m in measure_specs(["ndcg", "num_ret", "gm_map"])}
    values = {
        "extra": np.array([1.0, 2.0, 6.0]),
        "ndcg": np.array([0.5, math.nan, 0.25]),
        "num_ret": np.array([3.0, 4.0, 5.0]),
        "gm_map": np.array([0.5, 0.0, 0.125]),
    }
    return BatchResult(np.array(["q1", "q2", "q3"]), values, measures)


def test_the_summary_of_each_kind_of_measure(result):
    """Means leave skipped queries out, counts are summed and ``gm_map`` is
    :math:`\\exp(\\frac{1}{|Q|}\\sum_q \\ln \\max(AP_q, 10^{-5}))`."""
    got = result.means()
    assert got["ndcg"] == (0.5 + 0.25) / 2
    assert got["num_ret"] == 12.0
    assert got["extra"] == 3.0
    assert got["gm_map"] == pytest.approx((0.5 * 1e-5 * 0.125) ** (1 / 3), rel=1e-14)
    assert result.mean().to_dict() == got


def test_a_measure_with_every_query_skipped_has_no_mean():
    res = BatchResult(np.array(["q1"]), {"ndcg": np.array([math.nan])})
    with pytest.raises(ValueError, match="ndcg: every query was skipped"):
        res.means()


def test_the_weighted_mean_is_sum_w_v_over_sum_w(result):
    """Queries without a weight weigh 0; a skipped query is left out, weight and all."""
    got = result.weighted_mean({"q1": 3, "q2": 5.0, "q3": 1})
    assert got["extra"] == pytest.approx((3 * 1 + 5 * 2 + 1 * 6) / 9)
    assert got["ndcg"] == pytest.approx((3 * 0.5 + 1 * 0.25) / 4)
    assert result.weighted_mean({"q3": 2})["extra"] == 6.0


@pytest.mark.parametrize("weights", [{"q1": -1}, {"q1": math.inf}, {"q1": True}, [1, 2]])
def test_weights_are_finite_non_negative_numbers_in_a_mapping(result, weights):
    with pytest.raises(ValueError, match="weights"):
        result.weighted_mean(weights)


def test_the_order_is_trec_evals_then_the_rest_as_given(result):
    assert result.ordered() == ["num_ret", "gm_map", "ndcg", "extra"]
    part = result.select(["extra", "ndcg"])
    assert part.ordered() == ["ndcg", "extra"] and set(part.measures) == {"ndcg"}
    assert part.per_query.columns.tolist() == ["extra", "ndcg"]
    assert part.per_query.index.tolist() == ["q1", "q2", "q3"]
