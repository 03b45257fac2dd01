"""The integer codes behind the batch evaluator: tie-breaking ranks, hash matching
and their exact fallbacks. Each fast path is compared with a plain Python
version, and each fallback is forced (small blocks, colliding hashes)."""

import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st
from workloads import DOCNOS

import dcglab.evaluation.batch.blocks as blocks
from dcglab.evaluation.batch import evaluate
from dcglab.evaluation.batch.codes import lexicographic_codes, trec_ranking
from dcglab.evaluation.batch.tokens import Strings


def python_ranking(scores, rows, docno):
    """Each row's columns by (score, docno bytes), descending, then its padding
    columns, in plain Python (Python compares floats as C compares doubles:
    -0.0 equals 0.0)."""
    out = []
    for i in range(scores.shape[0]):
        valid = [j for j in range(scores.shape[1]) if rows[i, j] >= 0]
        valid.sort(key=lambda j: (float(scores[i, j]), docno[rows[i, j]].encode()), reverse=True)
        out.append(valid + [j for j in range(scores.shape[1]) if rows[i, j] < 0])
    return np.array(out)


@pytest.mark.parametrize("block", [1, 3, 50, blocks.BLOCK])
def test_trec_ranking_breaks_ties_by_docno_bytes(monkeypatch, block):
    """Heavy ties, -0.0 against 0.0, scores equal as float32 or one unit in the
    last place apart (equal in the bits the packed key keeps), non-ASCII and
    prefix docnos, padding, and blocks of rows of every size (ties are
    collected across blocks)."""
    monkeypatch.setattr(blocks, "BLOCK", block)
    rng = np.random.default_rng(7)
    n, w = 40, len(DOCNOS)
    scores = rng.integers(-2, 3, (n, w)) / 2
    scores[scores == 0] = rng.choice([0.0, -0.0], int((scores == 0).sum()))
    scores[:, 0] += 1e-9 * rng.integers(0, 2, n)  # equal once rounded to float32
    up = rng.random(n) < 0.5
    scores[up, 1] = np.nextafter(scores[up, 2], np.inf)  # one ulp above a neighbour
    docno = [DOCNOS[j] for _ in range(n) for j in rng.permutation(w)]
    rows = np.arange(n * w).reshape(n, w)
    rows[rng.random((n, w)) < 0.2] = -1  # padding (its docno is never looked at)
    got = trec_ranking(scores, rows, Strings.of(docno))
    np.testing.assert_array_equal(got, python_ranking(scores, rows, docno))


def test_trec_ranking_without_ties_orders_by_score():
    scores = np.array([[3.0, 1.0, 2.0]])
    ranking = trec_ranking(scores, np.array([[0, 1, 2]]), Strings.of(["x", "y", "z"]))
    assert ranking.tolist() == [[0, 2, 1]]


def test_a_hash_in_a_docno_is_data_not_a_comment(tmp_path):
    """The reader looks for comment lines only when a line starts with '#'."""
    qrels = tmp_path / "qrels"
    qrels.write_text("q1 0 doc#1 2\nq1 0 d2 1\n")
    run = tmp_path / "run"
    run.write_text("q1 Q0 d2 1 2.0 t\nq1 Q0 doc#1 2 1.0 t\n")
    frame = pd.DataFrame({"qid": ["q1", "q1"], "docno": ["d2", "doc#1"], "score": [2.0, 1.0]})
    want = evaluate(pd.read_csv(qrels, sep=" ", names=["qid", "i", "docno", "grade"]), frame)
    pd.testing.assert_frame_equal(evaluate(qrels, run).per_query, want.per_query)
    run.write_text("# a comment\n" + run.read_text())
    pd.testing.assert_frame_equal(evaluate(qrels, run).per_query, want.per_query)


def test_importing_dcglab_does_not_import_polars():
    """Neither ``import dcglab`` nor the evaluator imports polars or pandas: the
    command line starts faster without them."""
    code = (
        "import sys, dcglab; dcglab.evaluate; from dcglab.evaluation.batch import prepare;"
        "assert not {'polars', 'pandas'} & set(sys.modules), sys.modules.keys()"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


finite_doubles = st.floats(allow_nan=False, allow_infinity=False, width=64)


@given(finite_doubles, finite_doubles)
def test_sortable_bits_order_is_the_order_of_doubles(a, b):
    """Integer keys compare as C compares doubles: -0.0 equals 0.0, and values one
    unit in the last place apart stay apart."""
    from dcglab.evaluation.batch.codes import sortable_bits

    ka, kb = sortable_bits(np.array([a, b]))
    assert (ka < kb) == (a < b) and (ka == kb) == (a == b)


@given(st.lists(finite_doubles, min_size=1, max_size=40))
def test_trec_ranking_sorts_doubles_then_docnos(values):
    """A row's ranking is the order of (score, docno bytes), descending, whatever
    the scores: near-ties within the packed key's column bits included."""
    from dcglab.evaluation.batch.codes import trec_ranking

    with np.errstate(over="ignore"):  # the largest double's neighbour is inf: kept
        near = [np.nextafter(v, np.inf) for v in values]  # each score's neighbour, 1 ulp up
    scores = np.array([values + near])
    docnos = [f"d{i % 7}{i}" for i in range(scores.shape[1])]
    rows = np.arange(scores.shape[1])[None, :]
    got = trec_ranking(scores, rows, Strings.of(docnos))[0]
    expected = sorted(
        range(len(docnos)), key=lambda j: (scores[0, j], docnos[j].encode()), reverse=True
    )
    assert got.tolist() == expected


def test_lexicographic_codes_follow_byte_order():
    words = ["b", "a", "ab", "a", "aaaaaaaaaaaaaaaaaab", "aaaaaaaaaaaaaaaaaaa", "é", ""]
    values = words * 3000
    codes, distinct = lexicographic_codes(values)
    order = sorted(set(words), key=lambda w: w.encode())
    assert [order[c] for c in codes[: len(words)]] == words
    assert distinct == order
    for ids in ([f"d{i}" for i in range(20000)], [f"clueweb09-en{i:012d}" for i in range(20000)]):
        arr = np.array(ids[::-1], dtype=object)
        assert (np.argsort(lexicographic_codes(ids[::-1])[0]) == np.argsort(arr)).all()
