"""Explorers of chapters 5-9: gain reversals, the log base, the ideal's source,
graded versus binary relevance, and user models."""

from __future__ import annotations

from typing import Any

import traitlets as t

from dcglab.book.explorers.base import Explorer, bundle, int_list
from dcglab.formulas.discounts import Discount
from dcglab.formulas.measures import clamp_k, dcg, idcg, ndcg
from dcglab.formulas.reversals import count_reversals
from dcglab.formulas.usermodels import average_precision, err, rbp, reciprocal_rank

#: The explorers show an nDCG whose IDCG is 0 as undefined (``None``).
SKIP = "skip"


class GainReversalExplorer(Explorer):
    """A judged multiset (up to 9 grades from 0 to 3), a cutoff and the gain base ``a``: how many
    pairs of orderings linear gain and ``a**rel - 1`` rank in opposite orders."""

    name = "gain_reversals"
    params = ("grades", "n", "k", "a")
    _esm = bundle("gain_reversals.js")
    grades = int_list([3, 3, 2, 2, 1, 0, 0, 0, 0])
    n = t.Int(6).tag(sync=True)
    k = t.Int(6).tag(sync=True)
    a = t.Float(2.0).tag(sync=True)

    @classmethod
    def compute(cls, state: dict[str, Any]) -> dict[str, float | None]:
        judged = state["grades"][: state["n"]]
        if not any(judged):
            return {"orderings": 1, "pairs": 0, "reversed": 0, "share": 0.0}
        r = count_reversals(
            judged, clamp_k(state["k"], state["n"]), gains=("linear", f"exponential:{state['a']}")
        )
        return {
            "orderings": r.orderings,
            "pairs": r.pairs,
            "reversed": r.reversed,
            "share": r.share,
        }


class LogBaseExplorer(Explorer):
    """A base slider: nDCG with 1/log_b(i+1) stays put while DCG moves; the
    Järvelin-Kekäläinen form changes nDCG."""

    name = "log_base"
    params = ("grades", "k", "gain", "base")
    _esm = bundle("log_base.js")
    grades = int_list([3, 2, 3, 0, 1, 2])
    k = t.Int(6).tag(sync=True)
    gain = t.Unicode("linear").tag(sync=True)
    base = t.Float(2.0).tag(sync=True)

    @classmethod
    def compute(cls, state: dict[str, Any]) -> dict[str, float | None]:
        out: dict[str, float | None] = {}
        for kind in ("log", "jk"):
            d = Discount(kind, base=state["base"])
            args = (state["grades"], state["k"], state["gain"], d)
            out[f"dcg_{kind}"] = dcg(*args)
            out[f"idcg_{kind}"] = idcg(*args)
            out[f"ndcg_{kind}"] = ndcg(
                state["grades"], state["k"], gain=state["gain"], discount=d, zero_idcg=SKIP
            )
        return out


class IdealSourceExplorer(Explorer):
    """Retrieved grades plus judged-but-unretrieved documents: nDCG with the ideal
    from the retrieved list, from the qrels cut at k, and from the qrels uncut."""

    name = "ideal_source"
    params = ("retrieved", "missing", "n_missing", "k")
    _esm = bundle("ideal_source.js")
    retrieved = int_list([3, 2, 0, 1, 0])
    missing = int_list([3, 2, 2, 1, 1])
    n_missing = t.Int(2).tag(sync=True)
    k = t.Int(3).tag(sync=True)

    @classmethod
    def compute(cls, state: dict[str, Any]) -> dict[str, float | None]:
        run, k = state["retrieved"], state["k"]
        judged = list(run) + state["missing"][: state["n_missing"]]
        return {
            "retrieved": ndcg(run, k, ideal="retrieved", zero_idcg=SKIP),
            "qrels_cut": ndcg(run, k, judged=judged, zero_idcg=SKIP),
            "qrels_full": ndcg(run, judged=judged, zero_idcg=SKIP),
        }


class GradedBinaryExplorer(Explorer):
    """Two rankings of six documents, U (``first``) and V (``second``): AP (binary)
    against nDCG@k (graded), k = 6 unless set."""

    name = "graded_binary"
    params = ("first", "second", "k")
    _esm = bundle("graded_binary.js")
    first = int_list([1, 1, 1, 3, 0, 0])
    second = int_list([3, 0, 1, 1, 1, 0])
    k = t.Int(6).tag(sync=True)

    @classmethod
    def compute(cls, state: dict[str, Any]) -> dict[str, float | None]:
        out: dict[str, float | None] = {}
        k = state.get("k", 6)
        for name in ("first", "second"):
            r = state[name]
            out[f"ap_{name}"] = average_precision(r)
            out[f"ndcg_linear_{name}"] = ndcg(r, k, zero_idcg=SKIP)
            out[f"ndcg_exponential_{name}"] = ndcg(r, k, gain="exponential", zero_idcg=SKIP)
        return out


class UserModelExplorer(Explorer):
    """One ranking and the patience p: nDCG, AP, RR, RBP and ERR side by side, with
    the weight each gives to each rank."""

    name = "user_models"
    params = ("grades", "p")
    _esm = bundle("user_models.js")
    grades = int_list([2, 0, 3, 1, 0, 0, 2, 0])
    p = t.Float(0.8).tag(sync=True)

    @classmethod
    def compute(cls, state: dict[str, Any]) -> dict[str, float | None]:
        g, p = state["grades"], state["p"]
        return {
            "ndcg": ndcg(g, zero_idcg=SKIP),
            "ap": average_precision(g),
            "rr": reciprocal_rank(g),
            "rbp": rbp(g, p),
            "err": err(g),
        }
