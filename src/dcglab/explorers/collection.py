"""Explorer of chapter 11: nDCG on the Cranfield collection, recomputed in the browser.

The data are each model's top-100 documents per query, as qrels codes (1..4 judged,
-1 judged non-relevant, 0 unjudged) written one character each
(:func:`dcglab.cranfield.encode_codes`), every query's judged codes and the gain
tables, so the JavaScript can recompute mean nDCG@k for any k up to 100.
"""

from __future__ import annotations

from typing import Any

import traitlets as t

from ..cranfield import decode_codes
from ..measures import ndcg
from .base import Explorer, bundle

MODELS = ("bim", "tfidf", "bm25")


def _per_query(data: dict[str, Any], model: str, k: int, gain: str) -> list[float]:
    table = {int(code): value for code, value in data["gains"][gain].items()}
    return [
        float(ndcg(decode_codes(codes), k, judged=decode_codes(judged), gain=table))  # type: ignore[arg-type]
        for codes, judged in zip(data["runs"][model], data["judged"])
    ]


def _sign(x: float) -> int:
    return 0 if abs(x) <= 1e-12 else (1 if x > 0 else -1)


class CranfieldExplorer(Explorer):
    """Cutoff and gain sliders over precomputed Cranfield rankings (see
    :func:`dcglab.cranfield.explorer_data`)."""

    name = "cranfield"
    params = ("data", "k", "gain", "versus")
    _esm = bundle("cranfield.js")
    data = t.Dict().tag(sync=True)
    k = t.Int(10).tag(sync=True)
    gain = t.Unicode("graded").tag(sync=True)
    versus = t.Unicode("binary").tag(sync=True)

    def __repr__(self) -> str:
        """Leave the embedded data out of the text form."""
        return f"CranfieldExplorer(k={self.k}, gain={self.gain!r}, versus={self.versus!r})"

    @classmethod
    def compute(cls, state: dict[str, Any]) -> dict[str, float | None]:
        data, k = state["data"], state["k"]
        out: dict[str, float | None] = {}
        for m in MODELS:
            v = _per_query(data, m, k, state["gain"])
            out[m] = sum(v) / len(v)
        a1, b1 = (_per_query(data, m, k, state["gain"]) for m in ("bm25", "tfidf"))
        a2, b2 = (_per_query(data, m, k, state["versus"]) for m in ("bm25", "tfidf"))
        out["changes"] = sum(
            1 for q in range(len(a1)) if _sign(a1[q] - b1[q]) * _sign(a2[q] - b2[q]) < 0
        )
        return out
