"""Property tests (hypothesis) of the measures' defining properties.

Preconditions are stated with ``assume``, so an example that does not meet them is
discarded and replaced rather than passing without a check (hypothesis fails a test
whose examples are almost all discarded). The settings profile is in ``conftest.py``.
"""

import math

import numpy as np
from hypothesis import assume, given
from hypothesis import strategies as st

from dcglab import Discount, dcg, gain_values, ideal_order, ndcg

grades = st.lists(st.integers(0, 4), min_size=1, max_size=12)
gains = st.sampled_from(["linear", "exponential"])
bases = st.floats(1.1, 100, allow_nan=False)


def has_relevant(g):
    return any(x > 0 for x in g)


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


@given(grades, st.integers(1, 15))
def test_ideal_from_retrieved_never_lower(g, k):
    """Adding judged-but-unretrieved documents can only lower nDCG."""
    judged = list(g) + [3]
    assume(has_relevant(g))
    assert ndcg(g, k, judged=judged) <= ndcg(g, k, judged=judged, ideal="retrieved") + 1e-12


@given(st.lists(st.integers(0, 3), min_size=1, max_size=8), st.permutations(range(8)))
def test_ndcg_invariant_to_permuting_unreached_ranks(g, perm):
    assume(has_relevant(g))
    k = max(1, len(g) // 2)
    tail = [g[i] for i in perm if i < len(g) and i >= k]
    assert ndcg(g, k) == ndcg(list(g[:k]) + tail, k)


@given(grades, gains)
def test_ideal_order_is_non_increasing_in_gain(g, gain):
    assert np.all(np.diff(gain_values(ideal_order(g, gain), gain)) <= 0)


finite_doubles = st.floats(allow_nan=False, allow_infinity=False, width=64)


@given(finite_doubles, finite_doubles)
def test_sortable_bits_order_is_the_order_of_doubles(a, b):
    """Integer keys compare as C compares doubles: -0.0 equals 0.0, and values one
    unit in the last place apart stay apart."""
    from dcglab.codes import sortable_bits

    ka, kb = sortable_bits(np.array([a, b]))
    assert (ka < kb) == (a < b) and (ka == kb) == (a == b)


@given(st.lists(finite_doubles, min_size=1, max_size=40))
def test_trec_ranking_sorts_doubles_then_docnos(values):
    """A row's ranking is the order of (score, docno bytes), descending, whatever
    the scores: near-ties within the packed key's column bits included."""
    import polars as pl

    from dcglab.codes import trec_ranking

    with np.errstate(over="ignore"):  # the largest double's neighbour is inf: kept
        near = [np.nextafter(v, np.inf) for v in values]  # each score's neighbour, 1 ulp up
    scores = np.array([values + near])
    docnos = [f"d{i % 7}{i}" for i in range(scores.shape[1])]
    rows = np.arange(scores.shape[1])[None, :]
    got = trec_ranking(scores, rows, pl.Series(docnos))[0]
    expected = sorted(
        range(len(docnos)), key=lambda j: (scores[0, j], docnos[j].encode()), reverse=True
    )
    assert got.tolist() == expected
