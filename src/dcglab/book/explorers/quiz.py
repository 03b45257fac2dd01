"""Self-check quizzes: one explorer per part of the book that asks questions and checks
the reader's answers in the browser, with no kernel.

A quiz is data built here: for each question, its wording, its choices (if any), an
explanation, the section that teaches it, and one *variant* per number set (number set 1
is the book's own numbers; sets 2 and up are drawn by a seeded generator). Each variant
carries an **answer expression**, a small JSON object such as
``{"m": "ndcg", "grades": [3, 0, 2, 1], "k": 4, ...}``, and the expressions of the
numbers its explanation quotes (``parts``).

The front end (``quiz.js``) evaluates every expression with ``measures.js``, the JS twin
of the formulas; :func:`evaluate` evaluates the same expressions with :mod:`dcglab`.
tests/test_quiz.py requires the two to agree within 1e-12 for every question of every
quiz in every number set, and :meth:`QuizExplorer.compute` (the answers of the current
number set) is what the browser tests compare with what the page holds.

Expression kinds (``m``), each a call of one library function:

====================  ==========================================================
``cg``                :func:`dcglab.cg` (``grades``, ``k``)
``weight``            the discount of rank ``rank``: :meth:`dcglab.Discount.weights`
``dcg``, ``idcg``     :func:`dcglab.dcg`, :func:`dcglab.idcg` (``grades``/``judged``, ``k``,
                      ``gain``, ``discount``)
``ndcg``              :func:`dcglab.ndcg` (``judged`` may be ``None``), IDCG = 0 scores 0
``ap``, ``rbp``       :func:`dcglab.usermodels.average_precision`, :func:`~dcglab.usermodels.rbp`
``mean_ndcg``         :func:`dcglab.mean_ndcg` with a ``policy`` for IDCG = 0
``swap``              entry ``(i, j)`` of :func:`dcglab.ltr.swap_deltas`
``compare``           choice index: 0 if ``a`` > ``b``, 1 if ``a`` < ``b``, 2 if they tie
``both``              choice index from two comparisons ``[a1, b1]`` and ``[a2, b2]``
``fixed``             a choice whose answer is a fact, not a computation
====================  ==========================================================
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import cache
from typing import Any

import traitlets as t

from ...discounts import Discount
from ...gains import gain_values
from ...ltr import swap_deltas
from ...measures import cg, dcg, idcg, mean_ndcg, ndcg
from ...usermodels import average_precision, rbp
from .base import Explorer, bundle

Expr = dict[str, Any]
Params = dict[str, Any]

#: Number sets per quiz: set 1 is the book's, sets 2.. are drawn by a seeded generator.
VARIANTS = 10
#: Numeric answers within this absolute distance count as right (three decimals).
TOLERANCE = 0.001
#: Two values closer than this tie in ``compare`` (the same band on both sides).
TIE = 1e-9
LOG2 = {"kind": "log", "base": 2.0}
LOG10 = {"kind": "log", "base": 10.0}
JK3 = {"kind": "jk", "base": 3.0}
CHOICE_ANSWER_KINDS = ("compare", "both", "fixed")


# ------------------------------------------------------------------ evaluation


def _discount(spec: dict[str, Any]) -> Discount:
    return Discount(spec["kind"], base=spec.get("base", 2.0), p=spec.get("p", 0.8))


def _side(a: float, b: float) -> int:
    """0 if ``a`` is larger, 1 if ``b`` is, 2 if they tie within :data:`TIE`."""
    if a > b + TIE:
        return 0
    if a < b - TIE:
        return 1
    return 2


def evaluate(x: Expr) -> float | int:
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
    >>> round(evaluate({"m": "ndcg", "grades": [3, 0, 2, 1], "judged": None, "k": 2,
    ...                 "gain": "linear", "discount": LOG2}), 3)
    0.704
    >>> evaluate({"m": "compare", "a": {"m": "cg", "grades": [3, 1], "k": 2},
    ...           "b": {"m": "cg", "grades": [1, 3], "k": 2}})
    2
    """
    m = x["m"]
    if m == "cg":
        return cg(x["grades"], x["k"])
    if m == "weight":
        return float(_discount(x["discount"]).weights(x["rank"])[-1])
    if m == "dcg":
        return dcg(x["grades"], x["k"], x["gain"], _discount(x["discount"]))
    if m == "idcg":
        return idcg(x["judged"], x["k"], x["gain"], _discount(x["discount"]))
    if m == "ndcg":
        value = ndcg(
            x["grades"],
            x["k"],
            judged=x["judged"],
            gain=x["gain"],
            discount=_discount(x["discount"]),
            zero_idcg="zero",
        )
        return float(value)  # type: ignore[arg-type]
    if m == "ap":
        return average_precision(x["grades"], judged=x["judged"])
    if m == "rbp":
        return rbp(x["grades"], x["p"])
    if m == "mean_ndcg":
        return mean_ndcg(
            x["rankings"],
            x["k"],
            judged=x["judged"],
            zero_idcg=x["policy"],
            gain=x["gain"],
            discount=_discount(x["discount"]),
        )
    if m == "swap":
        d = swap_deltas(x["grades"], x["k"], gain=x["gain"], discount=_discount(x["discount"]))
        return float(d[x["i"] - 1, x["j"] - 1])
    if m == "compare":
        return _side(evaluate(x["a"]), evaluate(x["b"]))
    if m == "both":
        first = _side(evaluate(x["first"][0]), evaluate(x["first"][1]))
        second = _side(evaluate(x["second"][0]), evaluate(x["second"][1]))
        if 2 in (first, second):
            raise ValueError(f"quiz expression {x!r}: a 'both' comparison ties")
        return [[0, 2], [3, 1]][first][second]
    if m == "fixed":
        return int(x["answer"])
    raise ValueError(f"quiz expression kind m={m!r} is unknown")


# ------------------------------------------------------------ how to write numbers


def tup(values: list[int]) -> str:
    """Grades as the book writes a ranking: ``(3, 0, 2)``."""
    return "(" + ", ".join(str(v) for v in values) + ")"


def ranks(hits: list[int]) -> str:
    """Ranks in prose: ``rank 3``, ``ranks 2 and 5``, ``ranks 2, 4 and 5``."""
    if len(hits) == 1:
        return f"rank {hits[0]}"
    return "ranks " + ", ".join(map(str, hits[:-1])) + f" and {hits[-1]}"


def terms(grades: list[int], gain: str = "linear", base: str = "₂") -> str:
    """The DCG sum written out: ``3/log₂2 + 0/log₂3 + ...`` (gains, not computed values)."""
    gains = [int(x) for x in gain_values(grades, gain)]
    return " + ".join(f"{x}/log{base}{i + 2}" for i, x in enumerate(gains))


# ------------------------------------------------------------------ the questions


def sub_multiset(rng: random.Random, judged: list[int], n: int) -> list[int]:
    """``n`` of the judged grades in random order: a run that retrieves only judged documents."""
    picked = rng.sample(judged, n)
    rng.shuffle(picked)
    return picked


class Question:
    """One question: wording and answer expression as functions of a variant's parameters.

    ``draw(rng)`` makes the parameters of number sets 2.. (``fixed`` are set 1's), each
    different from all before it; a question without ``draw`` reads the same in every
    set. ``build(p)`` returns the text, explanation and expressions for parameters ``p``.
    """

    def __init__(
        self,
        qid: str,
        link: tuple[str, str, str],
        build: Callable[[Params], dict[str, Any]],
        fixed: Params,
        draw: Callable[[random.Random], Params] | None = None,
        choices: list[str] | None = None,
    ) -> None:
        self.qid, self.link, self.build, self.fixed = qid, link, build, fixed
        self.draw, self.choices = draw, choices

    def data(self, quiz: str) -> dict[str, Any]:
        """The question as the front end reads it: every number set's variant."""
        params = [self.fixed]
        if self.draw is not None:
            rng = random.Random(f"dcglab-quiz/{quiz}/{self.qid}")
            while len(params) < VARIANTS:  # each number set differs from all before it
                drawn = self.draw(rng)
                if drawn not in params:
                    params.append(drawn)
        doc, anchor, text = self.link
        return {
            "id": self.qid,
            "kind": "choice" if self.choices else "number",
            "choices": self.choices or [],
            "link": {"doc": doc, "anchor": anchor, "text": text},
            "variants": [self.build(p) for p in params],
        }


def _grades(rng: random.Random, n: int, top: int = 3) -> list[int]:
    while True:
        g = [rng.randint(0, top) for _ in range(n)]
        if any(g):
            return g


def _ndcg(grades, k, judged=None, gain="linear", discount=LOG2) -> Expr:
    return {
        "m": "ndcg",
        "grades": grades,
        "judged": judged,
        "k": k,
        "gain": gain,
        "discount": discount,
    }


def _dcg(grades, k, gain="linear", discount=LOG2) -> Expr:
    return {"m": "dcg", "grades": grades, "k": k, "gain": gain, "discount": discount}


def _idcg(judged, k, gain="linear", discount=LOG2) -> Expr:
    return {"m": "idcg", "judged": judged, "k": k, "gain": gain, "discount": discount}


DEFAULTS = "linear gain and the discount d(i) = 1/log₂(i+1)"

# --- part 1: Building nDCG (chapters 1-4) ------------------------------------------


def q_cg(p: Params) -> dict[str, Any]:
    g, k = p["grades"], p["k"]
    return {
        "text": f"A ranking has the grades r = {tup(g)}, top first. What is its cumulative "
        f"gain CG@{k} with linear gain?",
        "why": f"CG@{k} adds the gains of the top {k} results whatever their order: "
        f"{' + '.join(map(str, g[:k]))} = {{answer}}.",
        "expr": {"m": "cg", "grades": g, "k": k},
        "parts": [],
    }


def q_order(p: Params) -> dict[str, Any]:
    a = p["grades"]
    b = a[:3][::-1] + a[3:]
    return {
        "text": f"Ranking A has the grades {tup(a)}; ranking B = {tup(b)} holds the same "
        "documents with the top three in reverse order. How do CG@3 of A and of B compare?",
        "why": "Cumulative gain ignores order: both top threes hold the same documents, so "
        "CG@3 is {p0} for A and {p1} for B. DCG@3, which discounts by rank, would tell "
        "them apart.",
        "expr": {
            "m": "compare",
            "a": {"m": "cg", "grades": a, "k": 3},
            "b": {"m": "cg", "grades": b, "k": 3},
        },
        "parts": [{"m": "cg", "grades": a, "k": 3}, {"m": "cg", "grades": b, "k": 3}],
    }


def q_weight(p: Params) -> dict[str, Any]:
    i = p["rank"]
    return {
        "text": f"With the discount d(i) = 1/log₂(i+1), what weight does rank {i} get?",
        "why": f"d({i}) = 1/log₂({i + 1}) = {{answer}}: a document at rank {i} counts "
        "that fraction of what it would count at rank 1, where d(1) = 1.",
        "expr": {"m": "weight", "rank": i, "discount": LOG2},
        "parts": [],
    }


def q_dcg(p: Params) -> dict[str, Any]:
    g = p["grades"]
    k = len(g)
    return {
        "text": f"What is DCG@{k} of the ranking r = {tup(g)}, with {DEFAULTS}?",
        "why": f"DCG@{k} adds each gain times its rank's discount: {terms(g)} = {{answer}}.",
        "expr": _dcg(g, k),
        "parts": [],
    }


def q_idcg(p: Params) -> dict[str, Any]:
    judged, r, k = p["judged"], p["grades"], p["k"]
    ideal = sorted(judged, reverse=True)
    return {
        "text": f"A query's judged documents have the grades J = {tup(judged)}. A system "
        f"returns r = {tup(r)}. What is IDCG@{k}, with {DEFAULTS}?",
        "why": f"The ideal ranking sorts all judged documents by gain, {tup(ideal)}, whatever "
        f"the system returned; IDCG@{k} is its DCG@{k}: {terms(ideal[:k])} = {{answer}}.",
        "expr": _idcg(judged, k),
        "parts": [],
    }


def q_ndcg(p: Params) -> dict[str, Any]:
    judged, r, k = p["judged"], p["grades"], p["k"]
    return {
        "text": f"The same query (J = {tup(judged)}) and ranking (r = {tup(r)}): what is nDCG@{k}?",
        "why": f"nDCG@{k} = DCG@{k} / IDCG@{k} = {{p0}} / {{p1}} = {{answer}}, where DCG@{k} = "
        f"{terms(r[:k])}.",
        "expr": _ndcg(r, k, judged),
        "parts": [_dcg(r, k), _idcg(judged, k)],
    }


def draw_judged_run(rng: random.Random) -> Params:
    judged = sorted(_grades(rng, 6), reverse=True)
    return {"judged": judged, "grades": sub_multiset(rng, judged, 4), "k": 4}


def q_monotone(p: Params) -> dict[str, Any]:
    g, k = p["grades"], p["k"]
    return {
        "text": f"The ranking r = {tup(g)} holds all of its query's judged documents. Which "
        f"is larger, nDCG@{k} or nDCG@{k + 1}?",
        "why": f"nDCG@{k} = {{p0}} and nDCG@{k + 1} = {{p1}}. Going from k = {k} to {k + 1} "
        "adds a term to DCG and one to IDCG; the ratio rises when the new result's gain is a "
        "larger fraction of the ideal's new gain than the ratio so far, and falls when it is "
        "smaller, so nDCG@k can fall as well as rise.",
        "expr": {"m": "compare", "a": _ndcg(g, k), "b": _ndcg(g, k + 1)},
        "parts": [_ndcg(g, k), _ndcg(g, k + 1)],
    }


def draw_monotone(rng: random.Random) -> Params:
    return {"grades": _grades(rng, 5), "k": rng.randint(1, 4)}


def q_empty(p: Params) -> dict[str, Any]:
    return {
        "text": "A query has judged documents, but none of them is relevant: every grade is "
        "0. What nDCG@10 does trec_eval report for it?",
        "why": "IDCG@10 is 0, so DCG/IDCG is 0/0. trec_eval scores the query 0 and keeps it "
        "in the mean; dcglab makes you choose a policy (zero, one or skip). Whichever you "
        "use, report it with the results.",
        "expr": {"m": "fixed", "answer": 0},
        "parts": [],
    }


BUILDING = [
    Question(
        "cg",
        ("01_cumulative_gain", "cumulative-gain", "Chapter 1, Cumulative gain"),
        q_cg,
        {"grades": [2, 0, 3, 1, 0], "k": 4},
        lambda rng: {"grades": _grades(rng, 5), "k": rng.randint(2, 5)},
    ),
    Question(
        "order",
        (
            "01_cumulative_gain",
            "cumulative-gain-ignores-order",
            "Chapter 1, Cumulative gain ignores order",
        ),
        q_order,
        {"grades": [3, 1, 0, 2]},
        lambda rng: {"grades": _grades(rng, 4)},
        ["A's is larger", "B's is larger", "They are equal"],
    ),
    Question(
        "weight",
        ("02_discounting", "the-logarithmic-discount", "Chapter 2, The logarithmic discount"),
        q_weight,
        {"rank": 5},
        lambda rng: {"rank": rng.randint(2, 15)},
    ),
    Question(
        "dcg",
        (
            "02_discounting",
            "from-cumulative-gain-to-discounted-cumulative-gain",
            "Chapter 2, From cumulative gain to discounted cumulative gain",
        ),
        q_dcg,
        {"grades": [3, 2, 0, 1]},
        lambda rng: {"grades": _grades(rng, 4)},
    ),
    Question(
        "idcg",
        (
            "03_ideal_normalization",
            "the-ideal-ranking-idcg-and-ndcg",
            "Chapter 3, The ideal ranking, IDCG and nDCG",
        ),
        q_idcg,
        {"judged": [3, 3, 2, 1, 0, 0], "grades": [2, 3, 0, 1], "k": 4},
        draw_judged_run,
    ),
    Question(
        "ndcg",
        ("03_ideal_normalization", "a-worked-example", "Chapter 3, A worked example"),
        q_ndcg,
        {"judged": [3, 3, 2, 1, 0, 0], "grades": [2, 3, 0, 1], "k": 4},
        draw_judged_run,
    ),
    Question(
        "monotone",
        ("04_cutoffs", "why-ndcg-k-is-not-monotone", "Chapter 4, Why nDCG@k is not monotone"),
        q_monotone,
        {"grades": [3, 0, 2, 1], "k": 1},
        draw_monotone,
        ["The one at the smaller cutoff", "The one at the larger cutoff", "They are equal"],
    ),
    Question(
        "empty",
        ("04_cutoffs", "queries-with-nothing-relevant", "Chapter 4, Queries with nothing relevant"),
        q_empty,
        {},
        choices=[
            "0, and the query still counts in the mean",
            "1",
            "None: the query is left out of the mean",
        ],
    ),
]


# --- part 2: Choices that change conclusions (chapters 5-9) ---------------------------


def q_exp_dcg(p: Params) -> dict[str, Any]:
    g = p["grades"]
    k = len(g)
    gains = [int(x) for x in gain_values(g, "exponential")]
    return {
        "text": f"With exponential gain g(r) = 2^r − 1 and the discount 1/log₂(i+1), what is "
        f"DCG@{k} of r = {tup(g)}?",
        "why": f"The gains are {tup(gains)}, so DCG@{k} = {terms(g, 'exponential')} = "
        "{answer}. Exponential gain widens the gaps between high grades.",
        "expr": _dcg(g, k, "exponential"),
        "parts": [],
    }


def q_reversal(p: Params) -> dict[str, Any]:
    a, b, judged = p["a"], p["b"], p["judged"]
    k = len(a)
    lin = [_ndcg(a, k, judged), _ndcg(b, k, judged)]
    exp = [_ndcg(a, k, judged, "exponential"), _ndcg(b, k, judged, "exponential")]
    return {
        "text": f"Two systems rank the judged documents of one query (J = {tup(judged)}): "
        f"A = {tup(a)} and B = {tup(b)}. Which has the higher nDCG@{k}, under linear and "
        "under exponential gain?",
        "why": "Linear gain: A {p0}, B {p1}. Exponential gain: A {p2}, B {p3}. Exponential "
        "gain rewards the highest grades near the top most, so the two gains can rank two "
        "systems in opposite orders.",
        "expr": {"m": "both", "first": lin, "second": exp},
        "parts": lin + exp,
    }


def draw_reversal(rng: random.Random) -> Params:
    while True:
        judged = sorted(_grades(rng, 5), reverse=True)
        a, b = sub_multiset(rng, judged, 5), sub_multiset(rng, judged, 5)
        k = 5
        pairs = [
            (evaluate(_ndcg(a, k, judged, g)), evaluate(_ndcg(b, k, judged, g)))
            for g in ("linear", "exponential")
        ]
        if all(abs(x - y) > 1e-3 for x, y in pairs):
            return {"a": a, "b": b, "judged": judged}


def q_base(p: Params) -> dict[str, Any]:
    g = p["grades"]
    k = len(g)
    return {
        "text": f"The ranking r = {tup(g)} holds all judged documents of its query. If the "
        f"discount changes from 1/log₂(i+1) to 1/log₁₀(i+1), what happens to nDCG@{k}?",
        "why": "It stays {p0}: log₁₀(i+1) = log₂(i+1) · log₁₀2, so every weight is multiplied "
        "by the same factor, DCG and IDCG alike, and the factor cancels in the ratio. DCG "
        "itself does change.",
        "expr": {"m": "compare", "a": _ndcg(g, k, None, "linear", LOG10), "b": _ndcg(g, k)},
        "parts": [_ndcg(g, k)],
    }


def q_jk(p: Params) -> dict[str, Any]:
    g = p["grades"]
    k = len(g)
    return {
        "text": "The original Järvelin–Kekäläinen discount with b = 3 leaves ranks i < 3 "
        "undiscounted and divides the gain at rank i ≥ 3 by log₃(i). With linear gain, what "
        f"is DCG@{k} of r = {tup(g)}?",
        "why": f"Ranks 1 and 2 keep their full gain, rank 3 too (log₃3 = 1), and ranks 4 and "
        f"5 are divided by log₃4 and log₃5: DCG@{k} = {{answer}}.",
        "expr": _dcg(g, k, "linear", JK3),
        "parts": [],
    }


def q_judged_ideal(p: Params) -> dict[str, Any]:
    judged, r = p["judged"], p["grades"]
    k = len(r)
    return {
        "text": f"A query's judged documents have the grades J = {tup(judged)}. A system "
        f"returns r = {tup(r)}. With the ideal built from all judged documents, what is "
        f"nDCG@{k} ({DEFAULTS})?",
        "why": f"IDCG@{k} comes from the {k} best judged documents, "
        f"{tup(sorted(judged, reverse=True)[:k])}, not from the retrieved ones: "
        f"DCG@{k} / IDCG@{k} = {{p0}} / {{p1}} = {{answer}}. An ideal built only from the "
        "retrieved grades would reward the system for what it failed to find.",
        "expr": _ndcg(r, k, judged),
        "parts": [_dcg(r, k), _idcg(judged, k)],
    }


def draw_judged_ideal(rng: random.Random) -> Params:
    while True:
        judged = sorted(_grades(rng, 6), reverse=True)
        r = sub_multiset(rng, judged, 3)
        if any(r):
            return {"judged": judged, "grades": r}


def q_unjudged(p: Params) -> dict[str, Any]:
    return {
        "text": "A run's top ten contains three documents that no assessor judged. How do "
        "trec_eval, ranx and ir_measures score them?",
        "why": "They count an unjudged document as grade 0, as if it had been judged not "
        "relevant. The alternative, deleting unjudged documents so that the judged ones "
        "below move up, is the condensed list; measures built for incomplete judgments "
        "(bpref, infAP) are a third answer (chapter 12).",
        "expr": {"m": "fixed", "answer": 0},
        "parts": [],
    }


def q_ap(p: Params) -> dict[str, Any]:
    g = p["grades"]
    hits = [i + 1 for i, x in enumerate(g) if x >= 1]
    return {
        "text": f"The ranking r = {tup(g)} contains every relevant document of its query. "
        "Counting a document as relevant when its grade is at least 1, what is its average "
        "precision?",
        "why": f"The relevant documents sit at {ranks(hits)}; AP averages "
        f"the precision at those ranks over R = {len(hits)}: {{answer}}. The grades "
        "themselves do not enter, only where relevant documents are.",
        "expr": {"m": "ap", "grades": g, "judged": None},
        "parts": [],
    }


def q_rbp(p: Params) -> dict[str, Any]:
    g, patience = p["grades"], p["p"]
    return {
        "text": f"What is rank-biased precision with patience p = {patience} for r = {tup(g)}, "
        "counting grades of at least 1 as relevant?",
        "why": f"RBP = (1 − p) Σ y_i p^(i−1): each relevant rank i adds "
        f"{1 - patience:.1f} · {patience}^(i−1), so RBP = {{answer}}. The reader goes on "
        "from each result with probability p.",
        "expr": {"m": "rbp", "grades": g, "p": patience},
        "parts": [],
    }


CHOICES = [
    Question(
        "exp_dcg",
        (
            "05_gain_choice",
            "what-each-gain-values",
            "Chapter 5, What each gain values",
        ),
        q_exp_dcg,
        {"grades": [2, 3, 1]},
        lambda rng: {"grades": _grades(rng, 3)},
    ),
    Question(
        "reversal",
        (
            "05_gain_choice",
            "two-rankings-that-swap-places",
            "Chapter 5, Two rankings that swap places",
        ),
        q_reversal,
        {"a": [3, 0, 0, 2, 2], "b": [2, 2, 3, 0, 0], "judged": [3, 2, 2, 0, 0]},
        draw_reversal,
        [
            "A under both gains",
            "B under both gains",
            "A under linear gain, B under exponential gain",
            "B under linear gain, A under exponential gain",
        ],
    ),
    Question(
        "base",
        ("06_log_base", "the-base-cancels-in-1-log-b-i-1", "Chapter 6, The base cancels"),
        q_base,
        {"grades": [1, 3, 0, 2]},
        lambda rng: {"grades": _grades(rng, 4)},
        ["It rises", "It falls", "It stays the same"],
    ),
    Question(
        "jk",
        (
            "06_log_base",
            "the-original-jarvelinkekalainen-form",
            "Chapter 6, The original Järvelin–Kekäläinen form",
        ),
        q_jk,
        {"grades": [2, 3, 1, 2, 1]},
        lambda rng: {"grades": _grades(rng, 5)},
    ),
    Question(
        "judged_ideal",
        (
            "07_ideal_pitfalls",
            "which-documents-make-the-ideal",
            "Chapter 7, Which documents make the ideal?",
        ),
        q_judged_ideal,
        {"judged": [3, 2, 2, 1, 0, 0], "grades": [2, 0, 1]},
        draw_judged_ideal,
    ),
    Question(
        "unjudged",
        ("07_ideal_pitfalls", "documents-nobody-judged", "Chapter 7, Documents nobody judged"),
        q_unjudged,
        {},
        choices=[
            "As grade 0, not relevant",
            "As relevant",
            "They delete them, and the documents below move up",
        ],
    ),
    Question(
        "ap",
        (
            "08_graded_binary",
            "what-each-binary-measure-sees",
            "Chapter 8, What each binary measure sees",
        ),
        q_ap,
        {"grades": [0, 2, 0, 1, 3]},
        lambda rng: {"grades": _grades(rng, 5)},
    ),
    Question(
        "rbp",
        (
            "09_user_models",
            "rank-biased-precision-a-reader-with-fixed-patience",
            "Chapter 9, Rank-biased precision",
        ),
        q_rbp,
        {"grades": [1, 0, 2, 0, 1], "p": 0.8},
        lambda rng: {"grades": _grades(rng, 5), "p": rng.choice([0.5, 0.8, 0.9])},
    ),
]


# --- part 3: nDCG at work (chapters 10-11) ---------------------------------------------


def _mean(p: Params, policy: str) -> Expr:
    return {
        "m": "mean_ndcg",
        "rankings": p["rankings"],
        "judged": [None] * len(p["rankings"]),
        "k": 3,
        "policy": policy,
        "gain": "linear",
        "discount": LOG2,
    }


def _queries(p: Params) -> str:
    return "; ".join(f"q{n + 1}: {tup(r)}" for n, r in enumerate(p["rankings"]))


def q_mean_zero(p: Params) -> dict[str, Any]:
    return {
        "text": f"A run answers three queries: {_queries(p)}. Each ranking holds all judged "
        "documents of its query, and q3 has nothing relevant. What is the mean nDCG@3 when a "
        "query with IDCG = 0 scores 0, as in trec_eval?",
        "why": "q1 scores {p0} and q2 {p1}; q3 scores 0 and still counts: "
        "({p0} + {p1} + 0) / 3 = {answer}.",
        "expr": _mean(p, "zero"),
        "parts": [_ndcg(p["rankings"][0], 3), _ndcg(p["rankings"][1], 3)],
    }


def q_mean_skip(p: Params) -> dict[str, Any]:
    return {
        "text": f"The same three queries ({_queries(p)}): what is the mean nDCG@3 when the "
        "query with IDCG = 0 is skipped?",
        "why": "Only q1 ({p0}) and q2 ({p1}) count: ({p0} + {p1}) / 2 = {answer}. Skipping "
        "raises the mean, so report the policy and how many queries were kept.",
        "expr": _mean(p, "skip"),
        "parts": [_ndcg(p["rankings"][0], 3), _ndcg(p["rankings"][1], 3)],
    }


def draw_queries(rng: random.Random) -> Params:
    return {"rankings": [_grades(rng, 4), _grades(rng, 4), [0] * 4]}


def q_choose_k(p: Params) -> dict[str, Any]:
    a, b, judged = p["a"], p["b"], p["judged"]
    first = [_ndcg(a, 1, judged), _ndcg(b, 1, judged)]
    second = [_ndcg(a, 5, judged), _ndcg(b, 5, judged)]
    return {
        "text": f"For one query with judged grades J = {tup(judged)}, system A returns "
        f"{tup(a)} and system B returns {tup(b)}. Which system has the higher nDCG@1, and "
        "which the higher nDCG@5?",
        "why": "nDCG@1: A {p0}, B {p1}. nDCG@5: A {p2}, B {p3}. A small k rewards the "
        "single best result at the top, a larger k rewards good results further down: "
        "choose k for how your users read the list.",
        "expr": {"m": "both", "first": first, "second": second},
        "parts": first + second,
    }


def draw_choose_k(rng: random.Random) -> Params:
    while True:
        judged = sorted(_grades(rng, 8), reverse=True)
        a, b = sub_multiset(rng, judged, 5), sub_multiset(rng, judged, 5)
        pairs = [(evaluate(_ndcg(a, k, judged)), evaluate(_ndcg(b, k, judged))) for k in (1, 5)]
        if all(abs(x - y) > 1e-3 for x, y in pairs):
            return {"a": a, "b": b, "judged": judged}


def q_swap(p: Params) -> dict[str, Any]:
    g, i, j = p["grades"], p["i"], p["j"]
    k = len(g)
    return {
        "text": f"The ranking r = {tup(g)} holds all judged documents of its query. With "
        f"exponential gain g(r) = 2^r − 1, by how much does nDCG@{k} change when the "
        f"documents at ranks {i} and {j} swap places? (Give a negative number for a fall.)",
        "why": f"Only ranks {i} and {j} change: ΔnDCG = (g_j − g_i)(d(i) − d(j)) / IDCG@{k}, "
        f"with IDCG@{k} = {{p0}}, gives {{answer}}. LambdaRank weights every pair with different "
        "grades by the size of this change, misordered or not.",
        "expr": {
            "m": "swap",
            "grades": g,
            "k": k,
            "gain": "exponential",
            "discount": LOG2,
            "i": i,
            "j": j,
        },
        "parts": [_idcg(g, k, "exponential")],
    }


def draw_swap(rng: random.Random) -> Params:
    while True:
        g = _grades(rng, 5)
        i, j = sorted(rng.sample(range(1, 6), 2))
        if g[i - 1] != g[j - 1]:
            return {"grades": g, "i": i, "j": j}


CODES = {1: "1", 2: "2", 3: "3", 4: "4", None: "not in the qrels"}


def q_cranfield(p: Params) -> dict[str, Any]:
    codes = p["codes"]
    grades = [0 if c is None else 5 - c for c in codes]
    shown = ", ".join(CODES[c] for c in codes)
    return {
        "text": "In Cranfield's qrels a lower code means more relevant (1 is a complete "
        "answer, 4 of minimum interest), and chapter 13 uses the grade r = 5 − code with "
        f"linear gain. A system's top three results have the codes: {shown}. What is "
        "DCG@3?",
        "why": f"The grades are {tup(grades)} (a document not in the qrels counts as 0): "
        f"DCG@3 = {terms(grades)} = {{answer}}.",
        "expr": _dcg(grades, 3),
        "parts": [],
    }


def draw_cranfield(rng: random.Random) -> Params:
    while True:
        codes = [rng.choice([1, 2, 3, 4, None]) for _ in range(3)]
        if any(c is not None for c in codes):
            return {"codes": codes}


def q_minus_one(p: Params) -> dict[str, Any]:
    return {
        "text": "Each Cranfield query has one document with the unexplained code −1 (most "
        "likely the paper the question came from). How does trec_eval 10.0 read a negative "
        "grade in the qrels?",
        "why": "As in the pool but unjudged (form_res_rels.c, RELVALUE_UNJUDGED): for nDCG it "
        "gains 0 where it stands, and -J removes it with the other unjudged documents. "
        "Chapter 13 shows that the reading moves every mean, and even the BM25/TF-IDF "
        "comparison.",
        "expr": {"m": "fixed", "answer": 0},
        "parts": [],
    }


def q_paired(p: Params) -> dict[str, Any]:
    return {
        "text": "Two systems are scored on the same 50 queries. What does a paired test "
        "(a paired t-test or a randomization test) work with?",
        "why": "A paired test looks at the per-query differences δ_q = a_q − b_q and asks "
        "how surprising their mean would be if the systems were equally good; the two means "
        "alone cannot tell a consistent small lead from a few lucky queries.",
        "expr": {"m": "fixed", "answer": 1},
        "parts": [],
    }


PRACTICE = [
    Question(
        "mean_zero",
        ("10_practice", "averaging-over-queries", "Chapter 10, Averaging over queries"),
        q_mean_zero,
        {"rankings": [[3, 0, 2, 1], [0, 1, 0, 2], [0, 0, 0, 0]]},
        draw_queries,
    ),
    Question(
        "mean_skip",
        ("04_cutoffs", "queries-with-nothing-relevant", "Chapter 4, Queries with nothing relevant"),
        q_mean_skip,
        {"rankings": [[3, 0, 2, 1], [0, 1, 0, 2], [0, 0, 0, 0]]},
        draw_queries,
    ),
    Question(
        "choose_k",
        ("10_practice", "choosing-k", "Chapter 10, Choosing k"),
        q_choose_k,
        {"a": [3, 0, 0, 0, 0], "b": [2, 2, 1, 0, 0], "judged": [3, 2, 2, 1, 0, 0, 0, 0]},
        draw_choose_k,
        [
            "A at both cutoffs",
            "B at both cutoffs",
            "A at k = 1, B at k = 5",
            "B at k = 1, A at k = 5",
        ],
    ),
    Question(
        "swap",
        ("10_practice", "ndcg-in-learning-to-rank", "Chapter 10, nDCG in learning to rank"),
        q_swap,
        {"grades": [0, 2, 3, 1, 0], "i": 1, "j": 3},
        draw_swap,
    ),
    Question(
        "cranfield",
        ("13_cranfield", "relevance-codes-and-the-mysterious-1", "Chapter 13, Relevance codes"),
        q_cranfield,
        {"codes": [2, None, 1]},
        draw_cranfield,
    ),
    Question(
        "minus_one",
        ("13_cranfield", "what-to-do-with-code-1", "Chapter 13, What to do with code −1"),
        q_minus_one,
        {},
        choices=[
            "As unjudged: gain 0 where it stands, dropped by -J",
            "As the most relevant grade",
            "As judged non-relevant, kept even with -J",
        ],
    ),
    Question(
        "paired",
        ("13_cranfield", "is-bm25-better-than-tf-idf", "Chapter 13, Is BM25 better than TF-IDF?"),
        q_paired,
        {},
        choices=[
            "The two mean nDCG values only",
            "The per-query differences between the two systems",
            "The best query of each system",
        ],
    ),
]

QUIZZES: dict[str, tuple[str, list[Question]]] = {
    "building": ("Self-check: building nDCG", BUILDING),
    "choices": ("Self-check: choices that change conclusions", CHOICES),
    "practice": ("Self-check: nDCG at work", PRACTICE),
}


@cache
def quiz_data(quiz: str) -> dict[str, Any]:
    """Everything the front end needs for one quiz: title, tolerance, questions
    (computed once per quiz; do not modify the result)."""
    if quiz not in QUIZZES:
        raise ValueError(f"quiz must be one of {sorted(QUIZZES)}, got {quiz!r}")
    title, questions = QUIZZES[quiz]
    return {
        "title": title,
        "variants": VARIANTS,
        "tolerance": TOLERANCE,
        "tie": TIE,
        "questions": [q.data(quiz) for q in questions],
    }


class QuizExplorer(Explorer):
    """A self-check quiz: questions answered with a number or a choice, checked in the
    browser by ``measures.js``; a slider picks the number set (1 is the book's)."""

    name = "quiz"
    params = ("quiz", "variant")
    _esm = bundle("quiz.js")
    quiz = t.Unicode("building").tag(sync=True)
    variant = t.Int(1).tag(sync=True)
    content = t.Dict().tag(sync=True)

    def __init__(self, quiz: str = "building", **kwargs: Any) -> None:
        super().__init__(quiz=quiz, content=quiz_data(quiz), **kwargs)

    @t.validate("variant")
    def _check_variant(self, proposal: Any) -> int:
        v = proposal["value"]
        if not 1 <= v <= VARIANTS:
            raise t.TraitError(f"variant must be a number set from 1 to {VARIANTS}, got {v}")
        return v

    @classmethod
    def compute(cls, state: dict[str, Any]) -> dict[str, float | None]:
        """The right answers of the quiz's questions in the number set ``state["variant"]``:
        ``{"q1": ..., "q2": ...}`` (choice answers are option indices)."""
        data = quiz_data(state["quiz"])
        out: dict[str, float | None] = {}
        for n, q in enumerate(data["questions"]):
            variants = q["variants"]
            v = variants[min(state["variant"], len(variants)) - 1]
            out[f"q{n + 1}"] = evaluate(v["expr"])
        return out
