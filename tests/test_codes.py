"""The integer codes behind the batch evaluator: tie-breaking ranks, hash matching
and their exact fallbacks. Each fast path is compared with a plain Python
version, and each fallback is forced (small blocks, colliding hashes)."""

import subprocess
import sys

import numpy as np
import pandas as pd
import polars as pl
import pytest

import dcglab.blocks as blocks
import dcglab.codes as codes
import dcglab.preparation as preparation
from dcglab.batch import evaluate
from dcglab.codes import match_in_rows, trec_ranking

DOCNOS = ["b", "a", "ab", "aa", "é", "", "Z", "a\x7f", "zz", "doc10", "doc9", "€", "doc#1"]


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
    got = trec_ranking(scores, rows, pl.Series(docno))
    np.testing.assert_array_equal(got, python_ranking(scores, rows, docno))


def test_trec_ranking_without_ties_orders_by_score():
    scores = np.array([[3.0, 1.0, 2.0]])
    ranking = trec_ranking(scores, np.array([[0, 1, 2]]), pl.Series(["x", "y", "z"]))
    assert ranking.tolist() == [[0, 2, 1]]


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


def workload():
    rng = np.random.default_rng(3)
    run = pd.DataFrame(
        [(f"q{q}", d, float(rng.integers(0, 3))) for q in range(6) for d in DOCNOS],
        columns=["qid", "docno", "score"],
    )
    qrels = pd.DataFrame(
        [
            (f"q{q}", d, int(rng.integers(1, 4)))
            for q in range(6)
            for d in [*DOCNOS[::2], "judged only"]
        ],
        columns=["qid", "docno", "grade"],
    )
    return qrels, run


def fake_docno_hash(table):
    """A stand-in for ``polars.Series.hash``: ``table``'s value for a Series of
    docnos, the real hash for anything else (query ids). Its calls are recorded."""
    real_hash = pl.Series.hash

    def fake(self, seed=0):
        if self.dtype != pl.String or not set(self.to_list()) <= set(table):
            return real_hash(self, seed=seed)
        fake.calls.append(seed)
        return pl.Series([table[v] for v in self.to_list()], dtype=pl.UInt64)

    fake.calls = []
    return fake


@pytest.mark.parametrize("collide", ["everything", "one run-qrels pair"])
def test_hash_collisions_fall_back_to_the_strings(monkeypatch, collide):
    """Colliding docno hashes must not change a single value: every collision is
    either seen as repeated hashes or caught when the strings are compared."""
    qrels, run = workload()
    want = evaluate(qrels, run, ["ndcg", "ndcg_cut.3", "P.5"], zero_idcg="zero").per_query
    names = [*DOCNOS, "judged only"]
    table = {d: np.uint64(i + 1) << np.uint64(40) for i, d in enumerate(names)}
    if collide == "everything":
        table = dict.fromkeys(names, np.uint64(1))
    else:  # retrieved "a" (unjudged) and "judged only" (not retrieved) share a hash
        table["a"] = table["judged only"]
    fake = fake_docno_hash(table)
    monkeypatch.setattr(pl.Series, "hash", fake)
    exact = []
    spy = lambda *a: exact.append(1) or codes.exact_match(*a)  # noqa: E731
    monkeypatch.setattr(preparation, "exact_match", spy)
    got = evaluate(qrels, run, ["ndcg", "ndcg_cut.3", "P.5"], zero_idcg="zero").per_query
    assert fake.calls and exact, "the collision path was not taken"
    pd.testing.assert_frame_equal(got, want)


def test_a_repeated_docno_is_still_an_error_when_hashes_collide(monkeypatch):
    qrels, run = workload()
    run = pd.concat([run, run.iloc[[3]]])
    constant = dict.fromkeys([*DOCNOS, "judged only"], np.uint64(1))
    monkeypatch.setattr(pl.Series, "hash", fake_docno_hash(constant))
    with pytest.raises(ValueError, match=r"run lists \(q0, aa\) more than once"):
        evaluate(qrels, run)


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
    """The command line sets polars' allocator before polars is first imported
    (dcglab.__main__), so ``import dcglab`` must not import it."""
    code = "import sys, dcglab; assert 'polars' not in sys.modules; dcglab.evaluate"
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.parametrize("order", ["sorted", "shuffled", "repeated", "empty"])
@pytest.mark.parametrize("n_chunks", [1, 2, 7])
def test_gather_across_chunks_is_polars_gather(order, n_chunks):
    rng = np.random.default_rng(n_chunks)
    parts = [pl.Series([f"d{i}-{j}" for j in range(rng.integers(1, 30))]) for i in range(n_chunks)]
    values = pl.concat(parts, rechunk=False)
    assert values.n_chunks() == n_chunks
    rows = {
        "sorted": np.sort(rng.choice(len(values), len(values) // 2, replace=False)),
        "shuffled": rng.permutation(len(values)),
        "repeated": rng.integers(0, len(values), 3 * len(values)),
        "empty": np.zeros(0, dtype=np.int64),
    }[order]
    assert codes.gather(values, rows).to_list() == values.gather(rows).to_list()
