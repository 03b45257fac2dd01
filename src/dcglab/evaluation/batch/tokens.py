"""Strings as places in a text, and TREC text read into numpy columns.

The byte work is compiled (``_trec.c``): :func:`read_text` splits a file into
lines and fields as trec_eval 10.0 does (any whitespace; ``#`` comment lines and
blank lines skipped), parses each grade or score to the double ``strtod`` gives
(trec_eval's ``atof``), codes the query ids in order of first appearance and
hashes the docnos (:func:`docno_hashes` is that hash). It reads a large text in
parts on two threads (the compiled code releases the GIL).

A docno column is a :class:`Strings`: the text it was read from and, for each
row, where its bytes start, how many there are, and their hash.
"""

from __future__ import annotations

import mmap
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from dcglab.evaluation.batch import _trec

__all__ = ["Bad", "Strings", "Tokens", "docno_hashes", "first_codes", "read_text"]

Text = bytes | mmap.mmap


class Strings:
    """Byte strings, each a place in a text: ``text[start[i]:start[i] + length[i]]``
    (UTF-8, no NUL byte). ``hash`` holds their 64-bit hashes (:func:`docno_hashes`),
    computed on first use when not given."""

    __slots__ = ("_hash", "length", "start", "text")

    def __init__(
        self, text: Text, start: np.ndarray, length: np.ndarray, hash: np.ndarray | None = None
    ) -> None:
        self.text = text
        self.start = start
        self.length = length
        self._hash = hash

    @classmethod
    def of(cls, values: Iterable[str]) -> Strings:
        """The strings of an iterable of ``str``, encoded as UTF-8 (ASCII text in
        one piece).

        Examples
        --------
        >>> Strings.of(["b", "é"]).to_list()
        ['b', 'é']
        """
        values = values if isinstance(values, (list, tuple)) else list(values)
        joined = "".join(values)
        if joined.isascii():
            return cls.joined(joined.encode("ascii"), np.fromiter(map(len, values), np.int64))
        encoded = [v.encode("utf-8") for v in values]
        return cls.joined(b"".join(encoded), np.fromiter(map(len, encoded), np.int64))

    @classmethod
    def joined(cls, text: bytes, length: np.ndarray) -> Strings:
        """Strings held one after the other in ``text``, ``length`` bytes each."""
        start = np.zeros(len(length), dtype=np.int64)
        np.cumsum(length[:-1], out=start[1:])
        return cls(text, start, np.asarray(length, dtype=np.int32))

    def __len__(self) -> int:
        return len(self.start)

    @property
    def hash(self) -> np.ndarray:
        """The 64-bit hash of each string (the tokenizer's docno hash)."""
        if self._hash is None:
            self._hash = np.empty(len(self), dtype=np.uint64)
            _trec.hashes(self.text, self.start, self.length, self._hash)
        return self._hash

    def raw(self, i: int) -> bytes:
        """The bytes of string ``i``."""
        at = int(self.start[i])
        return bytes(self.text[at : at + int(self.length[i])])

    def __getitem__(self, i: int) -> str:
        return self.raw(i).decode("utf-8")

    def to_list(self) -> list[str]:
        """Every string, decoded."""
        return [self[i] for i in range(len(self))]

    def take(self, rows: np.ndarray) -> Strings:
        """The strings at ``rows``.

        Examples
        --------
        >>> Strings.of(["a", "b", "c"]).take(np.array([2, 0])).to_list()
        ['c', 'a']
        """
        return Strings(
            self.text,
            self.start[rows],
            self.length[rows],
            None if self._hash is None else self._hash[rows],
        )

    def equals(self, other: Strings) -> bool:
        """Whether string ``i`` equals ``other``'s string ``i`` for every ``i``.

        Examples
        --------
        >>> Strings.of(["a", "bc"]).equals(Strings.of(["a", "bc"]))
        True
        """
        return _trec.equal(
            self.text, self.start, self.length, other.text, other.start, other.length
        )


def first_codes(strings: Strings) -> tuple[np.ndarray, list[str]]:
    """Each string's code in order of first appearance (as the tokenizer codes
    query ids) and the distinct strings in code order.

    Examples
    --------
    >>> codes, distinct = first_codes(Strings.of(["q2", "q1", "q2"]))
    >>> codes.tolist(), distinct
    ([0, 1, 0], ['q2', 'q1'])
    """
    codes = np.empty(len(strings), dtype=np.int32)
    starts, lengths = _trec.code_strings(strings.text, strings.start, strings.length, codes)
    return codes, _decoded(strings.text, starts, lengths)


def _decoded(text: Text, starts: bytes, lengths: bytes) -> list[str]:
    """The strings at the places the compiled code lists (int64 starts and lengths)."""
    begin, length = np.frombuffer(starts, np.int64), np.frombuffer(lengths, np.int64)
    return [bytes(text[s : s + n]).decode("utf-8") for s, n in zip(begin.tolist(), length.tolist())]


def docno_hashes(docno: Strings) -> np.ndarray:
    """A 64-bit hash of each docno: the one the matching of documents uses."""
    return docno.hash


@dataclass(frozen=True)
class Tokens:
    """The columns of a TREC text: each row's query code (``qid_code``, into
    ``qids``, the distinct query ids in order of first appearance), docno and
    value (grade or score)."""

    qid_code: np.ndarray
    qids: list[str]
    docno: Strings
    value: np.ndarray


@dataclass(frozen=True)
class Bad:
    """Where a text stopped being TREC text: the byte offset of the first line
    that is not a well-formed data line."""

    offset: int


PART = 1 << 22
"""Texts longer than this are read in two parts on two threads."""


def _cuts(text: Text, start: int, parts: int) -> list[int]:
    """Offsets cutting ``text[start:]`` into ``parts`` pieces at line ends."""
    n = len(text)
    cuts = [start]
    for k in range(1, parts):
        at = text.find(b"\n", max(start + (n - start) * k // parts, cuts[-1]))
        cuts.append(n if at < 0 else at + 1)
    cuts.append(n)
    return cuts


def _capacity(text: Text, lo: int, hi: int) -> int:
    """The most data lines ``text[lo:hi]`` can hold: its lines."""
    return _trec.count_lines(text, lo, hi) + (hi > lo and text[hi - 1 : hi] != b"\n")


def _read_part(text: Text, lo: int, hi: int, fields: int, columns: tuple, at: int):
    """Read ``text[lo:hi]`` into the ``columns`` from row ``at`` on: the rows
    read, the first bad line's offset (or -1) and the part's distinct qids."""
    rows, bad, q_start, q_len = _trec.tokenize(text, lo, hi, fields, *(c[at:] for c in columns))
    return rows, bad, _decoded(text, q_start, q_len)


def _one_numbering(code: np.ndarray, parts: Sequence, places: Sequence[int]) -> list[str]:
    """The parts' query codes (each part numbered from 0, in ``code`` from row
    ``places[k]`` on) made one numbering, in place; the distinct qids."""
    names: dict[str, int] = {}
    for (rows, _, qids), at in zip(parts, places):
        remap = np.array([names.setdefault(q, len(names)) for q in qids], dtype=np.int32)
        if not np.array_equal(remap, np.arange(len(qids))):
            code[at : at + rows] = remap[code[at : at + rows]]
    return list(names)


def read_text(text: Text, kind: str, start: int = 0, parts: int | None = None) -> Tokens | Bad:
    """The TREC text ``text[start:]`` of a qrels (``kind="qrels"``: exactly 4
    fields a data line) or a run (at least 6; fields after the sixth are
    ignored) as :class:`Tokens`, or the first malformed line as :class:`Bad`.
    The text is read in ``parts`` pieces cut at line ends, each on its own
    thread (``None``: two when it is longer than :data:`PART`).

    Examples
    --------
    >>> t = read_text(b"q2 Q0 d1 1 0.5 x\\n# note\\nq1 Q0 d2 2 -inf x\\n", "run")
    >>> t.qids, t.qid_code.tolist(), t.docno.to_list(), t.value.tolist()
    (['q2', 'q1'], [0, 1], ['d1', 'd2'], [0.5, -inf])
    >>> read_text(b"q1 0 d1\\n", "qrels")
    Bad(offset=0)
    """
    fields = 4 if kind == "qrels" else 6
    if parts is None:
        parts = 2 if len(text) - start > PART else 1
    cuts = _cuts(text, start, parts)
    spans = list(zip(cuts[:-1], cuts[1:]))
    with ThreadPoolExecutor(len(spans)) as pool:
        capacity = list(pool.map(lambda span: _capacity(text, *span), spans))
        n = sum(capacity)
        columns = (
            np.empty(n, dtype=np.int32),  # query code
            np.empty(n, dtype=np.int64),  # docno start
            np.empty(n, dtype=np.int32),  # docno length
            np.empty(n, dtype=np.uint64),  # docno hash
            np.empty(n, dtype=np.float64),  # value
        )
        places = np.r_[0, np.cumsum(capacity)[:-1]].astype(np.int64).tolist()
        done = list(
            pool.map(lambda k: _read_part(text, *spans[k], fields, columns, places[k]),
                     range(len(spans)))
        )  # fmt: skip
    for _, bad, _ in done:
        if bad >= 0:
            return Bad(bad)
    qids = _one_numbering(columns[0], done, places)
    rows = [p[0] for p in done]
    if rows != capacity:  # comment or blank lines: move the parts together
        keep = np.concatenate([np.arange(at, at + r) for at, r in zip(places, rows)])
        columns = tuple(c[keep] for c in columns)
    code, begin, length, hashes, value = columns
    return Tokens(code, qids, Strings(text, begin, length, hashes), value)


def sort_ties(docno: Strings, key: np.ndarray, bounds: np.ndarray) -> np.ndarray:
    """The order of ``docno`` (with its ``key``) in which each group
    ``bounds[g]:bounds[g + 1]`` is sorted by key, then by docno bytes
    (``strcmp``), both descending.

    Examples
    --------
    >>> d = Strings.of(["a", "c", "b", "z"])
    >>> sort_ties(d, np.array([1, 1, 1, 0], dtype=np.uint64), np.array([0, 3, 4])).tolist()
    [1, 2, 0, 3]
    """
    order = np.arange(len(docno), dtype=np.int64)
    _trec.sort_ties(
        docno.text,
        docno.start,
        docno.length,
        np.ascontiguousarray(key, dtype=np.uint64),
        np.ascontiguousarray(bounds, dtype=np.int64),
        order,
    )
    return order


def lines_before(text: Text, offset: int) -> int:
    """The number of line ends before ``offset``: its line number, less one."""
    return _trec.count_lines(text, 0, offset)
