"""Explorers of chapters 1-4: cumulative gain, discounts, nDCG and cutoffs."""

from __future__ import annotations

from typing import Any

import traitlets as t

from dcglab.book import article
from dcglab.book.explorers.base import Explorer, bundle, int_list
from dcglab.formulas.discounts import Discount
from dcglab.formulas.measures import cg, curves, dcg, ndcg_ratio

EXAMPLE = list(article.EXAMPLE)


class CumulativeGainExplorer(Explorer):
    """Six grade sliders and a cutoff: graded CG@k, binary CG@k and DCG@k."""

    name = "cumulative_gain"
    params = ("grades", "k")
    _esm = bundle("cumulative_gain.js")
    grades = int_list([3, 0, 0, 2, 1, 0])
    k = t.Int(3).tag(sync=True)

    @classmethod
    def compute(cls, state: dict[str, Any]) -> dict[str, float | None]:
        grades, k = state["grades"], state["k"]
        return {
            "cg": cg(grades, k),
            "cg_binary": cg([1 if g > 0 else 0 for g in grades], k),
            "dcg": dcg(grades, k),
        }


class DiscountExplorer(Explorer):
    """Sliders for the base b and patience p redraw four discount curves, shown as
    weights or as weights relative to rank 1 (``view``)."""

    name = "discounts"
    params = ("base", "p", "n", "rank", "view")
    _esm = bundle("discounts.js")
    base = t.Float(2.0).tag(sync=True)
    p = t.Float(0.8).tag(sync=True)
    n = t.Int(20).tag(sync=True)
    rank = t.Int(10).tag(sync=True)
    view = t.Unicode("relative to rank 1").tag(sync=True)

    @classmethod
    def compute(cls, state: dict[str, Any]) -> dict[str, float | None]:
        r = state["rank"]
        log = Discount("log", base=state["base"]).weights(r)
        return {
            "log": float(log[-1]),
            "log_relative": float(log[-1] / log[0]),
            "jk": float(Discount("jk", base=state["base"]).weights(r)[-1]),
            "geometric": float(Discount("geometric", p=state["p"]).weights(r)[-1]),
            "reciprocal": float(Discount("reciprocal").weights(r)[-1]),
        }


class NdcgExplorer(Explorer):
    """Grades, cutoff, gain and log base: the per-rank table and DCG, IDCG, nDCG."""

    name = "ndcg"
    params = ("grades", "k", "gain", "base")
    _esm = bundle("ndcg.js")
    grades = int_list(EXAMPLE)
    k = t.Int(6).tag(sync=True)
    gain = t.Unicode("linear").tag(sync=True)
    base = t.Float(2.0).tag(sync=True)

    @classmethod
    def compute(cls, state: dict[str, Any]) -> dict[str, float | None]:
        k = state["k"]
        d, i = curves(
            state["grades"],
            gain=state["gain"],
            discount=Discount("log", base=state["base"]),
            kmax=k,
        )
        return {"dcg": float(d[-1]), "idcg": float(i[-1]), "ndcg": ndcg_ratio(d[-1], i[-1], "skip")}


class CutoffExplorer(Explorer):
    """Grades and a highlighted cutoff: DCG against the ideal and nDCG@k for both gains."""

    name = "cutoffs"
    params = ("grades", "k")
    _esm = bundle("cutoffs.js")
    grades = int_list(EXAMPLE)
    k = t.Int(2).tag(sync=True)

    @classmethod
    def compute(cls, state: dict[str, Any]) -> dict[str, float | None]:
        grades, k = state["grades"], state["k"]
        lin_d, lin_i = curves(grades, gain="linear")
        exp_d, exp_i = curves(grades, gain="exponential")
        lin = [ndcg_ratio(d, i, "skip") for d, i in zip(lin_d, lin_i)]
        drops = sum(1 for a, b in zip(lin, lin[1:]) if a is not None and b is not None and b < a)
        return {
            "dcg": float(lin_d[k - 1]),
            "idcg": float(lin_i[k - 1]),
            "ndcg_linear": lin[k - 1],
            "ndcg_exponential": ndcg_ratio(exp_d[k - 1], exp_i[k - 1], "skip"),
            "drops": drops,
        }
