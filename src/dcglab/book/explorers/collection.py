"""Explorer of chapter 11: nDCG on the Cranfield collection, recomputed in the browser.

The data are each model's top-100 documents per query, as qrels codes (1..4 judged,
-1 judged non-relevant, 0 unjudged) written one character each
(:func:`dcglab.book.cranfield_payload.encode_codes`), every query's judged codes and the gain
tables, so the JavaScript can recompute mean nDCG@k for any k up to 100.
"""

from __future__ import annotations

from typing import Any

import traitlets as t

from dcglab.book.cranfield_payload import decode_codes
from dcglab.book.explorers.base import Explorer, bundle
from dcglab.collections.cranfield import MODELS, direction_changes
from dcglab.formulas.measures import ndcg


def _per_query(data: dict[str, Any], model: str, k: int, gain: str) -> dict[int, float]:
    """Query number (from 1) -> nDCG@k, as :func:`dcglab.collections.cranfield.ndcg_by_query`
    returns."""
    table = {int(code): value for code, value in data["gains"][gain].items()}
    return {
        q: float(ndcg(decode_codes(codes), k, judged=decode_codes(judged), gain=table))  # type: ignore[arg-type]
        for q, (codes, judged) in enumerate(zip(data["runs"][model], data["judged"]), start=1)
    }


class CranfieldExplorer(Explorer):
    """Cutoff and gain sliders over precomputed Cranfield rankings (see
    :func:`dcglab.book.cranfield_payload.explorer_data`)."""

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
        main = {m: _per_query(data, m, k, state["gain"]) for m in MODELS}
        out: dict[str, float | None] = {m: sum(v.values()) / len(v) for m, v in main.items()}
        versus = tuple(_per_query(data, m, k, state["versus"]) for m in ("bm25", "tfidf"))
        changes = direction_changes((main["bm25"], main["tfidf"]), versus)
        out["changes"] = len(changes.strict)
        return out
