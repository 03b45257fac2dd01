"""Unit tests of dcglab.collections.cranfield.evaluation: nDCG of rankings, code -1, direction
changes."""

from __future__ import annotations

import math

import numpy as np
import pytest
from cranfield_kit import collection, tiny

from dcglab.book.article import ARTICLE_TABLE
from dcglab.collections import cranfield as cf


@pytest.fixture(scope="module")
def col(skip_or_fail) -> cf.Collection:
    return collection(skip_or_fail)


LOG2_3 = math.log2(3)


def test_ndcg_by_query_by_hand():
    col = tiny()
    ranking = {1: [1, 2, 4]}  # codes 2, -1, unjudged; judged codes 2, -1, 1
    graded = cf.ndcg_by_query(col, ranking, k=10, gain="graded")[1]
    assert graded == pytest.approx(3 / (4 + 3 / LOG2_3))
    binary = cf.ndcg_by_query(col, ranking, k=10, gain="binary")[1]
    assert binary == pytest.approx(1 / (1 + 1 / LOG2_3))
    as_relevant = cf.ndcg_by_query(col, ranking, gain={**cf.BINARY, -1: 1})[1]
    assert as_relevant == pytest.approx((1 + 1 / LOG2_3) / (1 + 1 / LOG2_3 + 0.5))


def test_readings_of_minus_one_drop_what_they_say():
    col = tiny()
    ranking = {1: [1, 2, 4]}  # codes 2, -1, unjudged
    assert cf.read_minus_one(col, ranking, "non-relevant") == {1: [1, 2, 4]}
    assert cf.read_minus_one(col, ranking, "removed") == {1: [1, 4]}
    assert cf.read_minus_one(col, ranking, "-J") == {1: [1]}
    with pytest.raises(ValueError, match="reading must be one of"):
        cf.read_minus_one(col, ranking, "ignored")


def test_relevant_in_top_counts_codes_one_to_four():
    col = tiny()
    assert cf.relevant_in_top(col, {1: [2, 1, 4]}, k=1) == 0  # code -1 is not relevant
    assert cf.relevant_in_top(col, {1: [2, 1, 4]}, k=3) == 1


def test_ndcg_by_model_and_gain_flips_agree_with_their_parts():
    col = tiny()
    runs = {"bm25": {1: [1, 2, 4]}, "tfidf": {1: [4, 2, 1]}}
    values = cf.ndcg_by_model(col, runs, k=3)
    assert set(values) == {(m, g) for m in runs for g in ("graded", "binary")}
    assert values["tfidf", "binary"] == cf.ndcg_by_query(col, runs["tfidf"], 3, "binary")
    graded = (values["bm25", "graded"], values["tfidf", "graded"])
    binary = (values["bm25", "binary"], values["tfidf", "binary"])
    assert cf.gain_flips(values) == cf.direction_changes(graded, binary)


def test_direction_changes_strict_and_lenient():
    graded = ({1: 0.5, 2: 0.5, 3: 0.2, 4: 0.1}, {1: 0.4, 2: 0.5, 3: 0.2, 4: 0.3})
    binary = ({1: 0.3, 2: 0.6, 3: 0.2, 4: 0.1}, {1: 0.4, 2: 0.5, 3: 0.2, 4: 0.2})
    changes = cf.direction_changes(graded, binary)
    assert changes.strict == (1,)  # +0.1 graded, -0.1 binary
    assert changes.lenient == (1, 2)  # query 2: a tie graded, A ahead binary


@pytest.mark.slow  # indexes and ranks the whole collection
def test_minus_one_documents_are_the_best_matches(col):
    """The one -1 document per query is ranked near the top: most likely its source paper."""
    index = cf.Index.build(col)
    ranking = cf.rank(index, "bm25", top=None)
    minus_one = [(q, d) for q, j in col.qrels.items() for d, c in j.items() if c == -1]
    ranks = [ranking[q].index(d) + 1 if d in ranking[q] else 1401 for q, d in minus_one]
    assert np.median(ranks) <= 2 and np.mean(np.array(ranks) <= 10) > 0.7
    # counting it relevant (graded like code 1) lifts every mean far above the article's
    for m in cf.MODELS:
        ranking = cf.rank(index, m)
        for g, gain in (("graded", {**cf.GRADED, -1: 4}), ("binary", {**cf.BINARY, -1: 1})):
            lifted = cf.mean(cf.ndcg_by_query(col, ranking, 10, gain))
            assert 0.38 <= lifted <= 0.52
            assert lifted - ARTICLE_TABLE[m][g] > 0.09
