"""Explorers of chapter 10: choosing the cutoff, and LambdaRank's swap weights."""

from __future__ import annotations

from typing import Any

import numpy as np
import traitlets as t

from dcglab.book.explorers.base import Explorer, bundle, int_list
from dcglab.formulas.ltr import swap_deltas
from dcglab.formulas.measures import mean_ndcg, ndcg

#: Five queries, two systems, and each query's judged grades (query 5 has nothing
#: relevant). A puts one excellent document first; B spreads good ones over the top
#: three, so A wins at k = 1, 2 and B from k = 3 on.
SYSTEM_A = [[3, 0, 0, 0, 0, 0], [3, 0, 0, 1, 0, 0], [2, 0, 0, 0, 1, 0], [3, 0, 0, 0, 0, 1], [0] * 6]
SYSTEM_B = [[2, 2, 1, 0, 0, 0], [1, 3, 2, 0, 0, 0], [0, 2, 1, 1, 0, 0], [1, 3, 1, 0, 0, 0], [0] * 6]
JUDGED = [[3, 2, 2, 1, 0, 0], [3, 2, 1, 1, 0, 0], [2, 1, 1, 1, 0], [3, 1, 1, 1], [0, 0, 0]]


def _lists(default: list[list[int]]) -> t.List:
    return t.List(t.List(t.Int()), default_value=default).tag(sync=True)


class CutoffChoiceExplorer(Explorer):
    """A cutoff slider over a multi-query example: mean nDCG@k of two systems, whose
    rankings of one query at a time the reader reorders."""

    name = "choose_k"
    params = ("system_a", "system_b", "judged", "k", "zero_idcg", "query")
    _esm = bundle("choose_k.js")
    system_a = _lists(SYSTEM_A)
    system_b = _lists(SYSTEM_B)
    judged = _lists(JUDGED)
    k = t.Int(1).tag(sync=True)
    zero_idcg = t.Unicode("zero").tag(sync=True)
    #: the query whose two rankings the explorer shows (from 1); the results do not depend on it
    query = t.Int(1).tag(sync=True)

    @classmethod
    def compute(cls, state: dict[str, Any]) -> dict[str, float | None]:
        out: dict[str, float | None] = {}
        for name in ("system_a", "system_b"):
            key = "mean_a" if name == "system_a" else "mean_b"
            try:
                out[key] = mean_ndcg(
                    state[name], state["k"], judged=state["judged"], zero_idcg=state["zero_idcg"]
                )
            except ValueError:  # every query skipped
                out[key] = None
        return out


class SwapExplorer(Explorer):
    """Grades, cutoff and gain: ΔnDCG for every pair swap, as LambdaRank weighs them."""

    name = "swaps"
    params = ("grades", "k", "gain")
    _esm = bundle("swaps.js")
    grades = int_list([2, 0, 3, 1, 0, 2, 0, 1])
    k = t.Int(5).tag(sync=True)
    gain = t.Unicode("exponential").tag(sync=True)

    @classmethod
    def compute(cls, state: dict[str, Any]) -> dict[str, float | None]:
        """The best swap (ranks from 1; ``None`` when no swap raises nDCG), its gain, the
        sum of ``|ΔnDCG|`` over pairs and nDCG@k itself."""
        grades, k, gain = state["grades"], state["k"], state["gain"]
        now = ndcg(grades, k, gain=gain, zero_idcg="skip")
        if not any(grades):
            return {"max_delta": 0.0, "best_i": None, "best_j": None, "total": 0.0, "ndcg": now}
        d = swap_deltas(grades, k, gain=gain)
        upper = np.triu(d, 1)
        i, j = np.unravel_index(np.argmax(upper), upper.shape)
        best = float(upper[i, j])
        return {
            "max_delta": max(best, 0.0),
            "best_i": int(i) + 1 if best > 0 else None,
            "best_j": int(j) + 1 if best > 0 else None,
            "total": float(np.abs(upper).sum()),
            "ndcg": now,
        }
