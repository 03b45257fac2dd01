"""Common mistakes of the number questions: each a rule that rewrites the answer
expression into the expression whose value the mistake gives (``None`` if the rule does
not apply to that answer)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dcglab.book.explorers.quiz.expressions import Expr
from dcglab.book.explorers.quiz.wording import Inputs


def _set(**changes: Any) -> Callable[[Expr, Inputs], Expr | None]:
    return lambda x, _inputs: {**x, **changes}


def _k_minus_1(x: Expr, _inputs: Inputs) -> Expr | None:
    return {**x, "k": x["k"] - 1} if x.get("k", 0) > 1 else None


def _ideal_from_retrieved(x: Expr, inputs: Inputs) -> Expr | None:
    if x["m"] == "ndcg":
        return {**x, "judged": None}
    if x["m"] == "idcg":
        return {**x, "judged": inputs["grades"]}
    return None


def _unsorted_ideal(x: Expr, inputs: Inputs) -> Expr | None:
    return {
        "m": "dcg",
        **{k: v for k, v in x.items() if k not in ("m", "judged")},
        "grades": inputs["grades"],
    }


def _codes_as_grades(x: Expr, inputs: Inputs) -> Expr | None:
    return {**x, "grades": [0 if c is None else c for c in inputs["codes"]]}


def _no_discount(x: Expr, _inputs: Inputs) -> Expr | None:
    if x.get("gain") != "linear":
        return None
    return {"m": "cg", "grades": x["grades"], "k": x["k"]}


#: Named rules that give the value a common mistake produces, as a changed expression.
MISTAKES: dict[str, Callable[[Expr, Inputs], Expr | None]] = {
    "k_minus_1": _k_minus_1,  # one rank too few, e.g. CG@3 for CG@4
    "whole_list": lambda x, _i: {**x, "k": len(x["grades"])},  # the cutoff ignored
    "exponential_gain": _set(gain="exponential"),  # 2^r - 1 where r was asked
    "linear_gain": _set(gain="linear"),  # r where 2^r - 1 was asked
    "log2_i_discount": _set(discount={"kind": "jk", "base": 2.0}),  # 1/log2(i), d(1) = 1
    "log2_discount": _set(discount={"kind": "log", "base": 2.0}),  # the modern discount
    "no_discount": _no_discount,  # CG: the discount left out
    "ideal_from_retrieved": _ideal_from_retrieved,  # ideal of the run's own documents
    "run_as_ideal": _unsorted_ideal,  # the run's DCG for the ideal's
    "dcg_not_ndcg": lambda x, _i: {**x, "m": "dcg"} if x["m"] == "ndcg" else None,
    "skip_policy": _set(policy="skip"),  # IDCG = 0 queries left out of the mean
    "zero_policy": _set(policy="zero"),  # IDCG = 0 queries kept with 0
    "codes_as_grades": _codes_as_grades,  # Cranfield codes read as grades
}
