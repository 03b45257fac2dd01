"""Reversal counting against brute force, and the article's 180 / 16,110 / 1,002."""

import itertools

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from dcglab import ndcg
from dcglab.formulas.reversals import (
    comparable_pairs,
    count_reversals,
    discordant_pairs,
    ndcg_of_orderings,
    orderings,
    strict_inversions,
)


def brute_discordant(a, b):
    return sum(
        1 for i, j in itertools.combinations(range(len(a)), 2) if (a[i] - a[j]) * (b[i] - b[j]) < 0
    )


def test_article_enumeration():
    r = count_reversals([3, 2, 3, 0, 1, 2], 6)
    assert (r.orderings, r.pairs, r.reversed) == (180, 16110, 1002)
    assert round(100 * r.share, 1) == 6.2


@pytest.mark.parametrize("judged", [[3, 2, 3, 0, 1, 2], [2, 1, 1, 0], [3, 3, 0], [1, 2, 3, 0, 0]])
@pytest.mark.parametrize("k", [1, 2, 3, 6])
def test_count_matches_brute_force_over_permutations(judged, k):
    distinct = sorted(set(itertools.permutations(judged)))
    assert orderings(judged).tolist() == [list(map(float, p)) for p in distinct]
    lin = [ndcg(p, k) for p in distinct]
    exp = [ndcg(p, k, gain="exponential") for p in distinct]
    brute = brute_discordant(np.round(lin, 12), np.round(exp, 12))
    assert count_reversals(judged, k).reversed == brute


@pytest.mark.parametrize("judged", [[3, 2, 3, 0, 1, 2], [2, 1, 1, 0], [1, 2, 3, 0, 0]])
@pytest.mark.parametrize("k", [1, 2, 3, 6])
def test_comparable_pairs_match_brute_force_over_permutations(judged, k):
    """Pairs tied under neither gain, counted pair by pair with dcglab.ndcg."""
    distinct = sorted(set(itertools.permutations(judged)))
    lin = np.round([ndcg(p, k) for p in distinct], 12)
    exp = np.round([ndcg(p, k, gain="exponential") for p in distinct], 12)
    pairs = itertools.combinations(range(len(distinct)), 2)
    brute = sum(1 for i, j in pairs if lin[i] != lin[j] and exp[i] != exp[j])
    assert comparable_pairs(judged, k) == brute


@given(st.lists(st.integers(0, 6), max_size=60), st.data())
def test_discordant_pairs_equals_brute_force(a, data):
    b = data.draw(st.lists(st.integers(0, 6), min_size=len(a), max_size=len(a)))
    a, b = np.array(a, float), np.array(b, float)
    assert discordant_pairs(a, b) == brute_discordant(a, b)
    assert strict_inversions(b) == sum(
        1 for i, j in itertools.combinations(range(len(b)), 2) if b[i] > b[j]
    )


def test_ndcg_of_orderings_matches_ndcg():
    rows = orderings([3, 2, 3, 0, 1, 2])
    fast = ndcg_of_orderings(rows, 4, "exponential")
    assert fast == pytest.approx([ndcg(r, 4, gain="exponential") for r in rows], abs=1e-12)


def test_all_zero_multiset_is_an_error():
    with pytest.raises(ValueError, match="IDCG is 0"):
        count_reversals([0, 0, 0], 2)


def test_nine_documents_without_enumerating_nine_factorial_pairs():
    r = count_reversals(list(range(9)), 9)
    assert r.orderings == 362_880
    assert r.pairs == 362_880 * 362_879 // 2
    assert 0 < r.reversed < r.pairs
