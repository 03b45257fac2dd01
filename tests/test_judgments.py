"""Unit and property tests of dcglab.collections.judgments: grades of a ranked list of document
ids."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dcglab.collections.judgments import run_grades

QRELS = {"a": 3, "b": 0, "c": 2}


def test_unjudged_documents_are_zero_by_default():
    assert run_grades(["b", "x", "c", "y", "a"], QRELS) == [0, 0, 2, 0, 3]


def test_condensing_removes_unjudged_and_moves_the_rest_up():
    # x and y were never judged: c moves from rank 3 to rank 2, a from 5 to 3
    assert run_grades(["b", "x", "c", "y", "a"], QRELS, unjudged="condense") == [0, 2, 3]


@pytest.mark.parametrize(
    ("docs", "unjudged", "message"),
    [
        ([], "zero", "docs is empty"),
        (["a", "c", "a"], "zero", r"more than once: \['a'\]"),
        (["a"], "drop", "unjudged must be 'zero' or 'condense', got 'drop'"),
    ],
)
def test_bad_input_names_the_argument(docs, unjudged, message):
    with pytest.raises(ValueError, match=message):
        run_grades(docs, QRELS, unjudged=unjudged)


docnos = st.lists(st.sampled_from("abcdefgh"), min_size=1, max_size=8, unique=True)
judgments = st.dictionaries(st.sampled_from("abcdefgh"), st.integers(0, 4))


@given(docnos, judgments)
def test_the_condensed_list_is_the_zero_list_without_the_unjudged(docs, qrels):
    zero = run_grades(docs, qrels)
    kept = [g for d, g in zip(docs, zero) if d in qrels]
    assert run_grades(docs, qrels, unjudged="condense") == kept
    assert len(zero) == len(docs) and all(
        zero[i] == 0 for i, d in enumerate(docs) if d not in qrels
    )
