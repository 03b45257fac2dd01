"""dcglab.statistics.paired_scores: per-query differences, paired by query id or by position."""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from dcglab.statistics.paired_scores import paired_differences

scores = st.lists(st.floats(0, 1), min_size=2, max_size=20)


def test_the_difference_of_each_query():
    assert paired_differences([0.75, 0.5, 0.0], [0.25, 0.5, 1.0]).tolist() == [0.5, 0.0, -1.0]


@given(scores, st.randoms())
def test_series_are_paired_by_id_whatever_their_order(a, rnd):
    ids = [f"q{i}" for i in range(len(a))]
    b = [1 - x for x in a]
    sa, sb = pd.Series(a, index=ids), pd.Series(b, index=ids)
    order = ids[:]
    rnd.shuffle(order)
    want = [sa[q] - sb[q] for q in sorted(ids)]
    assert paired_differences(sa, sb.loc[order]).tolist() == want
    assert paired_differences(dict(sa.loc[order]), dict(sb)).tolist() == want


def test_plain_sequences_are_paired_by_position():
    a, b = np.array([0.25, 0.5]), (0.5, 0.25)
    assert paired_differences(a, b).tolist() == [-0.25, 0.25]


@pytest.mark.parametrize(
    "a, b, message",
    [
        (pd.Series([0.1, 0.2], index=["q1", "q1"]), pd.Series([0.1, 0.2], index=["q1", "q2"]),
         "query ids must be unique, got 'q1' twice"),
        ({"q1": 0.1, "q2": 0.2}, {"q1": 0.1, "q3": 0.2},
         r"1 only in a \['q2'\], 1 only in b \['q3'\]"),
        ({"q1": 0.1, "q2": 0.2}, [0.1, 0.2], "a is indexed by query id and the other is not"),
        ([0.1, 0.2, 0.3], [0.1, 0.2], r"shapes \(3,\) and \(2,\)"),
        ([0.1], [0.2], "at least 2 queries, got 1"),
        ([0.1, float("-inf")], [0.1, 0.2], r"a\[1\] must be a finite score, got -inf$"),
    ],
)  # fmt: skip
def test_unpaired_input_is_refused_with_its_reason(a, b, message):
    with pytest.raises(ValueError, match=message):
        paired_differences(a, b)
