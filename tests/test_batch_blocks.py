"""dcglab.evaluation.batch.blocks: the padded row layout, row blocks and taking strings."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import dcglab.evaluation.batch.blocks as blocks
import dcglab.evaluation.batch.codes as codes
from dcglab.evaluation.batch.tokens import Strings, read_text


@pytest.mark.parametrize("order", ["sorted", "shuffled", "repeated", "empty"])
@pytest.mark.parametrize("n_parts", [1, 2, 7])
def test_taking_strings_is_taking_list_items(order, n_parts):
    rng = np.random.default_rng(n_parts)
    docnos = [f"d{i}-{j}" for i in range(n_parts) for j in range(rng.integers(1, 30))]
    text = "".join(f"q Q0 {d} 1 1 t\n" for d in docnos).encode()
    values = read_text(text, "run", parts=n_parts).docno
    rows = {
        "sorted": np.sort(rng.choice(len(values), len(values) // 2, replace=False)),
        "shuffled": rng.permutation(len(values)),
        "repeated": rng.integers(0, len(values), 3 * len(values)),
        "empty": np.zeros(0, dtype=np.int64),
    }[order]
    taken = values.take(rows)
    assert taken.to_list() == [docnos[i] for i in rows]
    assert np.array_equal(taken.hash, Strings.of(taken.to_list()).hash)


@given(st.integers(0, 60), st.integers(0, 9), st.sampled_from([1, 4, 7, 64]))
def test_row_blocks_cover_every_row_once_about_a_block_each(n, w, block):
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(blocks, "BLOCK", block)
        got = blocks.row_blocks((n, w))
    rows = [i for s in got for i in range(s.start, s.stop)]
    assert rows == list(range(n))
    step = max(1, block // max(w, 1))
    assert all(0 < s.stop - s.start <= step for s in got)


@pytest.mark.parametrize("block", [1, 5, blocks.BLOCK])
def test_take_in_rows_is_take_along_axis(monkeypatch, block):
    monkeypatch.setattr(blocks, "BLOCK", block)
    rng = np.random.default_rng(block)
    values = rng.random((13, 6))
    columns = rng.integers(0, 6, (13, 4))
    got = blocks.take_in_rows(values, columns)
    assert got.tolist() == np.take_along_axis(values, columns, axis=1).tolist()


@pytest.mark.parametrize(
    "ids, length",
    [
        (["q1", "q1", "q2", "q2", "q0", "q0"], 2),
        (["q1", "q2", "q3"], 1),
        (["q1", "q1", "q2"], None),  # unequal blocks
        (["q1", "q2", "q1", "q2"], None),  # equal lengths, but q1 is two blocks
        ([], None),
    ],
)
def test_equal_blocks_is_the_common_length_of_one_block_per_id(ids, length):
    assert blocks.equal_blocks(codes.lexicographic_codes(ids)[0]) == length
