"""dcglab.evaluation.batch.tokens: the compiled tokenizer, its numbers, hashes and strings."""

import math
import struct

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from dcglab.evaluation.batch.reader import NUMBER
from dcglab.evaluation.batch.tokens import Bad, Strings, read_text, sort_ties

# Bytes that decide how a line splits: separators of every kind, newlines, comment marks.
text_bytes = st.lists(
    st.sampled_from([b"a", b"7", b" ", b"\t", b"\n", b"#", b"\r", b"\x0b", b"\x0c", b"."]),
    max_size=60,
)


def fields_of(text: bytes, kind: str) -> list[list[bytes]] | None:
    """The data lines' fields as Python's ``bytes.split`` (C's isspace) finds
    them, or ``None`` when a data line is malformed (the tokenizer's rules)."""
    n = 4 if kind == "qrels" else 6
    rows = []
    for line in text.split(b"\n"):
        fields = line.split()
        if not fields or fields[0].startswith(b"#"):
            continue
        if (kind == "qrels" and len(fields) != 4) or (kind == "run" and len(fields) < 6):
            return None
        if NUMBER.fullmatch(fields[n - 2 if kind == "run" else 3]) is None:
            return None
        rows.append(fields)
    return rows


@given(text_bytes, st.sampled_from(["run", "qrels"]), st.integers(1, 5))
def test_the_tokenizer_splits_as_isspace_does_in_any_number_of_parts(parts, kind, n_parts):
    text = b"".join(parts)
    want = fields_of(text, kind)
    got = read_text(text, kind, parts=n_parts)
    if want is None:
        assert isinstance(got, Bad)
        return
    assert not isinstance(got, Bad)
    value = 4 if kind == "run" else 3
    assert [[got.qids[c].encode()] for c in got.qid_code.tolist()] == [[f[0]] for f in want]
    assert [d.encode() for d in got.docno.to_list()] == [f[2] for f in want]
    assert got.value.tolist() == [float(f[value]) for f in want]


def test_the_first_bad_line_is_found_in_any_part():
    good = b"q1 Q0 d1 1 0.5 t\n" * 50
    for at in (0, 7, 30, 49):
        lines = good.split(b"\n")
        lines[at] = b"q1 Q0 d1 1 x t"
        text = b"\n".join(lines)
        for n_parts in (1, 2, 3):
            assert read_text(text, "run", parts=n_parts) == Bad(17 * at)


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_numbers_are_read_to_the_double_strtod_gives(x):
    """Every float's shortest repr, and its 17-digit and 15-digit forms, read bit for
    bit as Python's correctly rounded ``float`` (the same as C's ``strtod``)."""
    for form in (repr(x), f"{x:.17g}", f"{x:.15g}", f"{x:.6e}", f"{x:.20f}"):
        text = f"q Q0 d 1 {form} t\n".encode()
        got = read_text(text, "run").value[0]
        assert struct.pack("<d", got) == struct.pack("<d", float(form)), form


@given(st.integers(0, 10**19 - 1), st.integers(-30, 30))
def test_decimals_near_halfway_read_exactly(mantissa, exp):
    form = f"{mantissa}e{exp}"
    got = read_text(f"q Q0 d 1 {form} t\n".encode(), "run").value[0]
    assert struct.pack("<d", got) == struct.pack("<d", float(form))


@pytest.mark.parametrize(
    "form", ["1.", ".5", "-0", "+3", "INF", "-Infinity", "nan", "1e400", "-1e-400", "4.9e-324",
             "0.30000000000000004", "9007199254740993", "123456789012345678901234567890"],
)  # fmt: skip
def test_number_forms(form):
    got = read_text(f"q Q0 d 1 {form} t\n".encode(), "run").value[0]
    want = float(form)
    assert struct.pack("<d", got) == struct.pack("<d", want) or (
        math.isnan(got) and math.isnan(want)
    )


@pytest.mark.parametrize(
    "form", ["0x10", "1_0", "1e", "e5", "--1", "1.2.3", "nan(1)", "infx", "", "+"]
)
def test_not_numbers(form):
    assert NUMBER.fullmatch(form.encode()) is None
    if form:
        assert read_text(f"q Q0 d 1 {form} t\n".encode(), "run") == Bad(0)


@pytest.mark.parametrize(
    "line",
    [
        b"q Q0 d\xff 1 0.5 t",
        b"q Q0 d 1 0.5 t\x00",
        b"q Q0 \xed\xa0\x80 1 1 t",
        b"q\xc0\xaf Q0 d 1 1 t",
    ],
)
def test_bad_bytes_stop_the_tokenizer(line):
    assert read_text(b"q Q0 a 1 1 t\n" + line + b"\n", "run") == Bad(13)


def test_utf8_ids_and_long_docnos():
    long = "é" * 40 + "x" * 100
    t = read_text(f"q1 Q0 {long} 1 2 t\nqé Q0 d 2 1 t\n".encode(), "run")
    assert t.docno.to_list() == [long, "d"] and t.qids == ["q1", "qé"]


@given(st.lists(st.text(max_size=30).filter(lambda s: "\x00" not in s), min_size=1, max_size=30))
def test_the_hash_of_a_string_does_not_depend_on_where_it_lies(values):
    """Hashes are of the bytes alone: the tokenizer's, recomputed, and those of the
    same strings joined in another text agree, and equal strings compare equal."""
    words = [v.split()[0] for v in values if v.split() and not v.split()[0].startswith("#")]
    assume(words)
    text = "".join(f"q Q0 {w} 1 1 t\n" for w in words).encode()
    t = read_text(text, "run")
    again = Strings.of(words)
    assert np.array_equal(t.docno.hash, again.hash)
    recomputed = Strings(t.docno.text, t.docno.start, t.docno.length)
    assert np.array_equal(recomputed.hash, again.hash)
    assert t.docno.equals(again)
    for i, w in enumerate(words):
        for j, v in enumerate(words):
            assert (again.hash[i] == again.hash[j]) == (w == v)


def test_equal_compares_every_byte():
    a = Strings.of(["abcdefghij", "x", ""])
    assert a.equals(Strings.of(["abcdefghij", "x", ""]))
    assert not a.equals(Strings.of(["abcdefghiJ", "x", ""]))
    assert not a.equals(Strings.of(["abcdefghij", "x", "\t"]))
    assert not a.equals(Strings.of(["abcdefghij", "x"]))


@given(st.lists(st.tuples(st.integers(0, 3), st.text(min_size=1, max_size=5)), max_size=30))
def test_ties_sort_by_key_then_bytes_descending(rows):
    """Within each group: key descending, then docno bytes descending (``strcmp``)."""
    docno = Strings.of([d for _, d in rows])
    key = np.array([k for k, _ in rows], dtype=np.uint64)
    bounds = np.array([0, len(rows) // 2, len(rows)])
    order = sort_ties(docno, key, bounds)
    for lo, hi in zip(bounds[:-1], bounds[1:]):
        want = sorted(range(lo, hi), key=lambda i: (rows[i][0], rows[i][1].encode()), reverse=True)
        got = order[lo:hi].tolist()
        assert [rows[i] for i in got] == [rows[i] for i in want]
