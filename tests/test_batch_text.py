"""dcglab.evaluation.batch.text: the fast path's scan of a file's layout and its comment search."""

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dcglab.evaluation.batch.text import fast_layout, has_comment

# A leading, trailing or doubled separator on a line.
EMPTY_FIELD = re.compile(rb"(?:\A|\n)[ \t]|[ \t](?:\n|\Z)|[ \t]{2}")

# Bytes that decide the layout: both separators, newlines, comment marks, CR.
layout_text = st.lists(st.sampled_from([b"a", b"7", b" ", b"\t", b"\n", b"#", b"\r"]), max_size=40)


@pytest.mark.parametrize(
    "data, comment",
    [
        (b"# first line\nq1 0 d1 1\n", True),
        (b"q1 0 d1 1\n#q1 0 d2 1\n", True),
        (b"q1 0 doc#1 1\n", False),  # a hash inside a field
        (b"q1 0 d1 1\n #q1 0 d2 1\n", False),  # a line starting with a space
        (b"q1 0 d1 1 #\n", False),
        (b"", False),
    ],
)
def test_a_comment_is_a_line_starting_with_a_hash(data, comment):
    assert has_comment(data) is comment


@given(layout_text)
def test_has_comment_is_any_line_starting_with_a_hash(parts):
    data = b"".join(parts)
    assert has_comment(data) == any(line.startswith(b"#") for line in data.split(b"\n"))


@given(layout_text, st.sampled_from(["run", "qrels"]), st.integers(1, 9))
def test_the_layout_does_not_depend_on_the_scan_chunk(parts, kind, chunk):
    """Scanning a chunk at a time finds what one scan of the whole file finds,
    even when a doubled separator or a comment straddles two chunks."""
    data = b"".join(parts)
    assert fast_layout(data, kind, chunk) == fast_layout(data, kind, len(data) + 1)


@given(layout_text, st.sampled_from(["run", "qrels"]))
def test_the_layout_follows_its_rules(parts, kind):
    """``None`` exactly for an empty file, CR, both separators, or (a run) an empty
    field; otherwise the one separator and whether a line is a comment."""
    data = b"".join(parts)
    empty_field = kind == "run" and EMPTY_FIELD.search(data) is not None
    general = not data or b"\r" in data or (b" " in data and b"\t" in data) or empty_field
    want = None if general else ((b"\t" if b"\t" in data else b" "), has_comment(data))
    assert fast_layout(data, kind) == want
