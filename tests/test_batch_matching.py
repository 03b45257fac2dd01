"""dcglab.evaluation.batch.matching: (query, docno) pairs matched by hash, with the exact string
match whenever hashes repeat or collide."""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st
from workloads import DOCNOS, docno_workload

import dcglab.evaluation.batch.codes as codes
import dcglab.evaluation.batch.preparation as preparation
from dcglab.evaluation.batch import evaluate
from dcglab.evaluation.batch.matching import (
    exact_match,
    first_repeat,
    match_in_rows,
    may_repeat,
    pair_keys,
)
from dcglab.evaluation.batch.tokens import Strings


def hashes(values):
    """One query's docno hashes; real ones differ in their high bits too."""
    return np.array(values, dtype=np.uint64)[None, :] << np.uint64(40)


def test_match_in_rows_pairs_equal_hashes():
    r_index, q_index = np.array([[0, 1, 2]]), np.array([[0, 1, -1]])
    found = match_in_rows(hashes([5, 9, 7]), r_index, hashes([7, 5, 1]), q_index)
    assert found.tolist() == [1, -1, 0]  # the padded qrels hash 1 matches nothing


@pytest.mark.parametrize(
    "run, qrels",
    [([5, 5, 7], [7, 1]), ([5, 9, 7], [7, 7]), ([5, 9, 7], [5, 5])],
    ids=["run-run", "qrels-qrels", "three"],
)
def test_match_in_rows_gives_up_on_repeated_hashes(run, qrels):
    """Two equal hashes that are not one run and one qrels document: the caller
    must decide exactly (a repeated docno, or a collision)."""
    assert (
        match_in_rows(hashes(run), np.array([[0, 1, 2]]), hashes(qrels), np.array([[0, 1]])) is None
    )


def fake_docno_hash(table):
    """A stand-in for :attr:`Strings.hash`: ``table``'s value for docnos that are
    all in it, the real hash otherwise. Its calls are recorded."""
    real_hash = Strings.hash

    def fake(self):
        values = self.to_list()
        if not set(values) <= set(table):
            return real_hash.fget(self)
        fake.calls.append(len(values))
        return np.array([table[v] for v in values], dtype=np.uint64)

    fake.calls = []
    return fake


@pytest.mark.parametrize("collide", ["everything", "one run-qrels pair"])
def test_hash_collisions_fall_back_to_the_strings(monkeypatch, collide):
    """Colliding docno hashes must not change a single value: every collision is
    either seen as repeated hashes or caught when the strings are compared."""
    qrels, run = docno_workload(DOCNOS)
    want = evaluate(qrels, run, ["ndcg", "ndcg_cut.3", "P.5"], zero_idcg="zero").per_query
    names = [*DOCNOS, "judged only"]
    table = {d: np.uint64(i + 1) << np.uint64(40) for i, d in enumerate(names)}
    if collide == "everything":
        table = dict.fromkeys(names, np.uint64(1))
    else:  # retrieved "a" (unjudged) and "judged only" (not retrieved) share a hash
        table["a"] = table["judged only"]
    fake = fake_docno_hash(table)
    monkeypatch.setattr(Strings, "hash", property(fake))
    exact = []
    spy = lambda *a: exact.append(1) or codes.exact_match(*a)  # noqa: E731
    monkeypatch.setattr(preparation, "exact_match", spy)
    got = evaluate(qrels, run, ["ndcg", "ndcg_cut.3", "P.5"], zero_idcg="zero").per_query
    assert fake.calls and exact, "the collision path was not taken"
    pd.testing.assert_frame_equal(got, want)


def test_a_repeated_docno_is_still_an_error_when_hashes_collide(monkeypatch):
    qrels, run = docno_workload(DOCNOS)
    run = pd.concat([run, run.iloc[[3]]])
    constant = dict.fromkeys([*DOCNOS, "judged only"], np.uint64(1))
    monkeypatch.setattr(Strings, "hash", property(fake_docno_hash(constant)))
    with pytest.raises(ValueError, match=r"run lists \(q0, aa\) more than once"):
        evaluate(qrels, run)


pairs = st.lists(st.tuples(st.integers(0, 3), st.sampled_from(DOCNOS)), max_size=30)


@given(pairs)
def test_first_repeat_is_the_first_row_seen_before(rows):
    seen, want = set(), None
    for i, pair in enumerate(rows):
        if pair in seen:
            want = i
            break
        seen.add(pair)
    query = np.array([q for q, _ in rows], dtype=np.int64)
    docno = Strings.of([d for _, d in rows])
    assert first_repeat(query, docno) == want
    keys = pair_keys(query, docno)
    assert len(set(keys.tolist())) == len(set(rows))  # equal pairs, equal keys; no collision
    assert may_repeat(keys) == (want is not None)


@given(st.lists(st.sampled_from(DOCNOS), unique=True), pairs)
def test_exact_match_is_the_row_of_the_same_pair_or_minus_one(judged, run):
    qrels = [(q, d) for q in range(4) for d in judged[q::2]]
    row = {pair: i for i, pair in enumerate(qrels)}
    got = exact_match(
        np.array([q for q, _ in qrels], dtype=np.int64),
        Strings.of([d for _, d in qrels]),
        np.array([q for q, _ in run], dtype=np.int64),
        Strings.of([d for _, d in run]),
    )
    assert got.tolist() == [row.get(pair, -1) for pair in run]
