"""Answer expressions of the quizzes and their values computed by dcglab.

An expression is a mapping whose ``m`` names a kind (the table in
:mod:`dcglab.book.explorers.quiz`); :func:`evaluate_expression` computes it with the
library function of that kind. ``quiz.js`` computes the same expressions with
``measures.js``, and tests/test_quiz.py requires the two to agree within 1e-12.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dcglab.formulas.discounts import Discount
from dcglab.formulas.ltr import swap_deltas
from dcglab.formulas.measures import cg, dcg, idcg, mean_ndcg, ndcg
from dcglab.formulas.usermodels import average_precision, err, rbp

Expr = dict[str, Any]

#: Two values closer than this tie in ``compare`` and ``match``.
TIE = 1e-9
#: Expression kinds whose value is the index of the right choice.
CHOICE_ANSWER_KINDS = ("compare", "both", "match", "fixed")


def _discount(spec: dict[str, Any]) -> Discount:
    return Discount(spec["kind"], base=spec.get("base", 2.0), p=spec.get("p", 0.8))


def _side(a: float, b: float) -> int:
    """0 if ``a`` is larger, 1 if ``b`` is, 2 if they tie within :data:`TIE`."""
    if a > b + TIE:
        return 0
    if a < b - TIE:
        return 1
    return 2


def evaluate_expression(x: Expr) -> float | int:
    """The value of an answer expression, computed by dcglab.

    Parameters
    ----------
    x : dict
        An expression (see the module docstring); ``x["m"]`` names its kind.

    Returns
    -------
    float or int
        A number, or for the choice kinds the index of the right option.

    Examples
    --------
    >>> LOG2 = {"kind": "log", "base": 2.0}
    >>> x = {"m": "ndcg", "grades": [3, 0, 2, 1], "judged": None, "k": 2,
    ...      "gain": "linear", "discount": LOG2}
    >>> round(evaluate_expression(x), 3)
    0.704
    >>> evaluate_expression({"m": "compare", "a": {"m": "cg", "grades": [3, 1], "k": 2},
    ...                      "b": {"m": "cg", "grades": [1, 3], "k": 2}})
    2
    """
    op = OPERATIONS.get(x["m"])
    if op is None:
        raise ValueError(f"quiz expression kind m={x['m']!r} is unknown")
    return op(x)


def _ndcg(x: Expr) -> float:
    d = _discount(x["discount"])
    value = ndcg(
        x["grades"], x["k"], judged=x["judged"], gain=x["gain"], discount=d, zero_idcg="zero"
    )
    return float(value)  # type: ignore[arg-type]


def _mean_ndcg(x: Expr) -> float:
    return mean_ndcg(
        x["rankings"],
        x["k"],
        judged=x["judged"],
        zero_idcg=x["policy"],
        gain=x["gain"],
        discount=_discount(x["discount"]),
    )


def _swap(x: Expr) -> float:
    d = swap_deltas(x["grades"], x["k"], gain=x["gain"], discount=_discount(x["discount"]))
    return float(d[x["i"] - 1, x["j"] - 1])


def _both(x: Expr) -> int:
    """Which of four options: the two comparisons' winners (a tie is an error)."""
    first = _side(evaluate_expression(x["first"][0]), evaluate_expression(x["first"][1]))
    second = _side(evaluate_expression(x["second"][0]), evaluate_expression(x["second"][1]))
    if 2 in (first, second):
        raise ValueError(f"quiz expression {x!r}: a 'both' comparison ties")
    return [[0, 2], [3, 1]][first][second]


def _match(x: Expr) -> int:
    """The one option whose value equals the target's (within :data:`TIE`)."""
    target = evaluate_expression(x["value"])
    hits = [i for i, o in enumerate(x["options"]) if _side(evaluate_expression(o), target) == 2]
    if len(hits) != 1:
        raise ValueError(f"quiz expression {x!r}: {len(hits)} options match, not one")
    return hits[0]


#: Each expression kind (``x["m"]``) and the dcglab call that computes it.
OPERATIONS: dict[str, Callable[[Expr], float | int]] = {
    "cg": lambda x: cg(x["grades"], x["k"]),
    "weight": lambda x: float(_discount(x["discount"]).weights(x["rank"])[-1]),
    "dcg": lambda x: dcg(x["grades"], x["k"], x["gain"], _discount(x["discount"])),
    "idcg": lambda x: idcg(x["judged"], x["k"], x["gain"], _discount(x["discount"])),
    "ndcg": _ndcg,
    "ap": lambda x: average_precision(x["grades"], judged=x["judged"]),
    "rbp": lambda x: rbp(x["grades"], x["p"]),
    "err": lambda x: err(x["grades"], x.get("max_grade", 3)),
    "mean_ndcg": _mean_ndcg,
    "swap": _swap,
    "compare": lambda x: _side(evaluate_expression(x["a"]), evaluate_expression(x["b"])),
    "both": _both,
    "match": _match,
    "fixed": lambda x: int(x["answer"]),
}
