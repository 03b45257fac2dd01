"""What chapter 11's Cranfield explorer embeds: each model's rankings as qrels codes.

Each model's top documents per query become a string of qrels codes, one
character each (:func:`encode_codes`), so that the page stays small and the
browser can recompute mean nDCG@k for any k up to the depth kept.
"""

from __future__ import annotations

from collections.abc import Sequence

from dcglab.collections.cranfield import (
    MODELS,
    UNJUDGED,
    Collection,
    Config,
    Index,
    gain_mapping,
    rank,
)

CODE_CHARS = {-1: "-", 0: "0", 1: "1", 2: "2", 3: "3", 4: "4"}
"""One character per qrels code (``-`` for −1, ``0`` for unjudged)."""


def encode_codes(codes: Sequence[int]) -> str:
    """A list of qrels codes as a string, one character each (``-`` for −1).

    Examples
    --------
    >>> encode_codes([1, 0, -1, 4])
    '10-4'
    """
    return "".join(CODE_CHARS[c] for c in codes)


def decode_codes(text: str) -> list[int]:
    """The inverse of :func:`encode_codes`.

    Examples
    --------
    >>> decode_codes("10-4")
    [1, 0, -1, 4]
    """
    return [-1 if ch == "-" else int(ch) for ch in text]


def explorer_data(
    collection: Collection, config: Config | None = None, top: int = 100
) -> dict[str, object]:
    """The data of :class:`dcglab.book.explorers.CranfieldExplorer`.

    Per model, the qrels codes of each query's top ``top`` documents (0 for
    unjudged) and each query's judged codes, both as :func:`encode_codes`
    strings, and the gain tables of :func:`dcglab.collections.cranfield.gain_mapping`
    (graded, binary, exponential), keyed by strings for JSON.
    """
    index = Index.build(collection, config)
    runs = {}
    for m in MODELS:
        ranking = rank(index, m, top=top)
        runs[m] = [
            encode_codes([collection.qrels.get(q, {}).get(d, UNJUDGED) for d in ranking.get(q, [])])
            or encode_codes([UNJUDGED])
            for q in collection.query_ids
        ]
    gains = {name: gain_mapping(name) for name in ("graded", "binary", "exponential")}
    return {
        "runs": runs,
        "judged": [
            encode_codes(collection.qrels.get(q, {}).values()) for q in collection.query_ids
        ],
        "gains": {n: {str(c): float(v) for c, v in table.items()} for n, table in gains.items()},
    }
