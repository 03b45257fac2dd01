"""Unit and property tests of dcglab.formulas.discounts: weights by hand, and how a base acts on
DCG."""

import math

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from strategies import bases, gains, grades, has_relevant

from dcglab import Discount, dcg, log_discount, ndcg

LOG2_3 = math.log2(3)


def test_discounts_by_hand():
    assert Discount.parse("log2").weights(3).tolist() == pytest.approx([1, 1 / LOG2_3, 0.5])
    assert Discount.parse("jk:2").weights(4).tolist() == pytest.approx([1, 1, 1 / LOG2_3, 0.5])
    # With b = 10 the first nine ranks are undiscounted and rank 10 divides by 1.
    assert Discount.parse("jk:10").weights(10).tolist() == pytest.approx([1.0] * 10)
    assert Discount.parse("rbp:0.5").weights(3).tolist() == [1, 0.5, 0.25]
    assert Discount.parse("reciprocal").weights(2).tolist() == [1, 0.5]
    assert Discount.parse("ln").weights(1)[0] == pytest.approx(1 / math.log(2))


@given(grades, gains, st.integers(1, 15), bases)
def test_base_cancels_for_log_form(g, gain, k, base):
    assume(has_relevant(g))
    a = ndcg(g, k, gain=gain, discount=Discount("log", base=2))
    b = ndcg(g, k, gain=gain, discount=Discount("log", base=base))
    assert math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-12)


@given(grades, gains, bases)
def test_dcg_scales_by_ln_ratio_under_a_base_change(g, gain, base):
    a = dcg(g, gain=gain, discount=Discount("log", base=2))
    b = dcg(g, gain=gain, discount=Discount("log", base=base))
    assert math.isclose(b, a * math.log(base) / math.log(2), rel_tol=1e-12, abs_tol=1e-12)


def test_base_does_not_cancel_for_jk_form():
    g = [3, 2, 3, 0, 1, 2]
    two = ndcg(g, 6, discount=Discount("jk", base=2))
    ten = ndcg(g, 6, discount=Discount("jk", base=10))
    assert not math.isclose(two, ten)
    assert ten == 1.0  # every ordering scores 1 when no rank up to 6 is discounted


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: Discount("log", base=1), "base must be greater than 1"),
        (lambda: Discount("log", base=0), "base must be greater than 1"),
        (lambda: Discount("log", base=-2), "base must be greater than 1"),
        (lambda: Discount("jk", base=float("nan")), "base must be greater than 1"),
        (lambda: Discount("geometric", p=1), r"p \(patience\)"),
        (lambda: Discount("geometric", p=0), r"p \(patience\)"),
        (lambda: Discount("cosine"), "discount kind"),
        (lambda: Discount.parse("jk:x"), "discount 'jk:x'"),
        (lambda: Discount.parse("log3"), "discount must be"),
        (lambda: log_discount(0), "n .number of ranks."),
    ],
)
def test_bad_discount_names_the_argument(call, message):
    with pytest.raises(ValueError, match=message):
        call()
