"""Self-check quizzes: a loader and validator for the question banks, and the explorer
that asks their questions and checks the reader's answers in the browser, with no kernel.

A bank is one YAML file per quiz in ``dcglab/book/quizzes/`` (``building.yaml``, ...),
written without Python (README, "Quiz bank"). Each question has an ``id``, a ``kind``
(``arithmetic`` or ``conceptual``), the section that teaches it (``taught_in``), a
``prompt`` and an ``explanation``, an ``answer`` *expression*, optional ``choices`` (each
with the ``feedback`` a reader who picks it when it is wrong gets), optional ``mistakes``
(named rules, :data:`MISTAKES`, that turn the answer expression into the value a common
mistake gives, with feedback), an optional ``explorer`` state for a "load into the
explorer" link, and its ``numbers``: one set of inputs per number set (set 1 is the
book's, and carries the answer ``key`` an instructor expects).

Templates. In prompts, explanations and feedback, ``{name}`` is an input, written as the
book writes it (a list of grades as ``(3, 0, 2)``), and ``{name|filter|filter:arg}`` passes
it through :data:`FILTERS`. In expressions, a string ``"$name|filter"`` is the raw value.
``{answer}``, ``{p0}``, ``{p1}``, ... (the values of the ``quotes`` expressions) and, in a
mistake's feedback, ``{value}`` are filled in by the page with the numbers it computes.

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
``match``             choice index of the one ``options`` expression equal to ``value``
``fixed``             a choice whose answer is a fact, not a computation
====================  ==========================================================

The front end (``quiz.js``) evaluates every expression with ``measures.js``;
:func:`evaluate` evaluates the same expressions with :mod:`dcglab`, and
tests/test_quiz.py requires the two to agree within 1e-12.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable
from functools import cache
from importlib.resources import files
from typing import Any
from urllib.parse import quote

import traitlets as t
import yaml

from ...discounts import Discount
from ...gains import gain_values
from ...ltr import swap_deltas
from ...measures import cg, dcg, idcg, mean_ndcg, ndcg
from ...usermodels import average_precision, rbp
from .base import REGISTRY, Explorer, bundle

Expr = dict[str, Any]
Inputs = dict[str, Any]

#: Numeric answers within this absolute distance count as right (three decimals).
TOLERANCE = 0.001
#: Two values closer than this tie in ``compare`` and ``match``.
TIE = 1e-9
CHOICE_ANSWER_KINDS = ("compare", "both", "match", "fixed")
KINDS = ("arithmetic", "conceptual")
#: Placeholders the page fills in; inputs may not use these names.
RUNTIME = re.compile(r"^(answer|value|p\d+)$")
BANKS = files("dcglab.book").joinpath("quizzes")


class BankError(ValueError):
    """A malformed question bank: the message names the file, question and field."""


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
    >>> LOG2 = {"kind": "log", "base": 2.0}
    >>> round(evaluate({"m": "ndcg", "grades": [3, 0, 2, 1], "judged": None, "k": 2,
    ...                 "gain": "linear", "discount": LOG2}), 3)
    0.704
    >>> evaluate({"m": "compare", "a": {"m": "cg", "grades": [3, 1], "k": 2},
    ...           "b": {"m": "cg", "grades": [1, 3], "k": 2}})
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
    first = _side(evaluate(x["first"][0]), evaluate(x["first"][1]))
    second = _side(evaluate(x["second"][0]), evaluate(x["second"][1]))
    if 2 in (first, second):
        raise ValueError(f"quiz expression {x!r}: a 'both' comparison ties")
    return [[0, 2], [3, 1]][first][second]


def _match(x: Expr) -> int:
    """The one option whose value equals the target's (within :data:`TIE`)."""
    target = evaluate(x["value"])
    hits = [i for i, o in enumerate(x["options"]) if _side(evaluate(o), target) == 2]
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
    "mean_ndcg": _mean_ndcg,
    "swap": _swap,
    "compare": lambda x: _side(evaluate(x["a"]), evaluate(x["b"])),
    "both": _both,
    "match": _match,
    "fixed": lambda x: int(x["answer"]),
}


# ----------------------------------------------------- filters of the templates


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


def rest(run: list[int], judged: list[int]) -> list[int]:
    """The run followed by the judged documents it did not retrieve (best first)."""
    left = Counter(judged) - Counter(run)
    return list(run) + sorted(left.elements(), reverse=True)


CODES = {1: "1", 2: "2", 3: "3", 4: "4", None: "not in the qrels"}

#: Filters a template applies with ``{name|filter}`` or ``{name|filter:arg}``; ``arg`` is a
#: whole number or the name of another input.
FILTERS: dict[str, Callable[..., Any]] = {
    "len": len,
    "plus": lambda x, n: x + n,
    "minus": lambda x, n: x - n,
    "complement": lambda x: round(1 - x, 12),
    "head": lambda g, n: list(g[: len(n) if isinstance(n, list) else n]),
    "item": lambda xs, n: xs[n],
    "reverse_head": lambda g, n: list(g[:n][::-1]) + list(g[n:]),
    "ideal": lambda g: sorted(g, reverse=True),
    "rest": rest,
    "exp_gains": lambda g: [int(x) for x in gain_values(g, "exponential")],
    "hits": lambda g: [i + 1 for i, x in enumerate(g) if x >= 1],
    "sum_terms": lambda g: " + ".join(map(str, g)),
    "terms": terms,
    "exp_terms": lambda g: terms(g, "exponential"),
    "ranks": ranks,
    "cranfield_grades": lambda codes: [0 if c is None else 5 - c for c in codes],
    "codes": lambda codes: ", ".join(CODES[c] for c in codes),
    "queries": lambda rs: "; ".join(f"q{n + 1}: {tup(r)}" for n, r in enumerate(rs)),
}

FIELD = re.compile(r"\{([A-Za-z_]\w*)((?:\|\w+(?::\w+)?)*)\}")


def _apply(name: str, chain: str, inputs: Inputs) -> Any:
    """The input ``name`` passed through the filters of ``chain`` (``|f|g:arg``)."""
    if name not in inputs:
        raise KeyError(f"the placeholder {name!r} is not an input ({sorted(inputs)})")
    value = inputs[name]
    for step in filter(None, chain.split("|")):
        fname, _, arg = step.partition(":")
        if fname not in FILTERS:
            raise KeyError(f"the filter {fname!r} is unknown ({sorted(FILTERS)})")
        if not arg:
            value = FILTERS[fname](value)
        else:
            value = FILTERS[fname](value, int(arg) if arg.isdigit() else inputs[arg])
    return value


def _written(value: Any) -> str:
    if isinstance(value, list) and all(isinstance(v, int) for v in value):
        return tup(value)
    return str(value)


def fill(template: str, inputs: Inputs) -> str:
    """A template with its input placeholders written out; the page's own placeholders
    (``{answer}``, ``{value}``, ``{p0}``, ...) are left for the page.

    >>> fill("CG@{k} of {grades} is {answer}", {"grades": [3, 0], "k": 2})
    'CG@2 of (3, 0) is {answer}'
    """

    def one(m: re.Match[str]) -> str:
        if RUNTIME.match(m.group(1)) and not m.group(2):
            return m.group(0)
        return _written(_apply(m.group(1), m.group(2), inputs))

    return FIELD.sub(one, template)


def resolve(x: Any, inputs: Inputs) -> Any:
    """An expression (or explorer state) with its ``"$name|filter"`` strings replaced by
    the values they name."""
    if isinstance(x, dict):
        return {k: resolve(v, inputs) for k, v in x.items()}
    if isinstance(x, list):
        return [resolve(v, inputs) for v in x]
    if isinstance(x, str) and x.startswith("$"):
        name, _, chain = x[1:].partition("|")
        return _apply(name, "|" + chain if chain else "", inputs)
    return x


# ------------------------------------------------------------- common mistakes


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


# ------------------------------------------------------------ loading a bank

QUESTION_KEYS = {
    "required": {"id", "kind", "taught_in", "prompt", "answer", "explanation", "numbers"},
    "optional": {"choices", "quotes", "mistakes", "explorer"},
}


def _need(cond: bool, where: str, message: str) -> None:
    if not cond:
        raise BankError(f"{where}: {message}")


def _show(x: float) -> str:
    """A number as the page shows it: whole numbers plainly, others to three decimals."""
    r = round(x)
    return str(r) if abs(x - r) < 1e-9 else f"{x:.3f}"


def render(template: str, answer: float, quotes: list[float], value: float | None = None) -> str:
    """A template with the page's placeholders filled in (what quiz.js's ``explain`` does)."""
    out = re.sub(r"\{p(\d+)\}", lambda m: _show(quotes[int(m.group(1))]), template)
    out = out.replace("{answer}", _show(answer))
    return out.replace("{value}", _show(value)) if value is not None else out


def _explorer_state(spec: Any, inputs: Inputs, where: str) -> dict[str, Any]:
    """An explorer's state patch, lists padded with grade 0 to the explorer's length;
    refused unless every key is a parameter of the explorer with a value of its type."""
    _need(
        isinstance(spec, dict) and set(spec) == {"doc", "name", "state"},
        where,
        "must have 'doc' (the chapter that shows it), 'name' and 'state'",
    )
    name = spec["name"]
    _need(name in REGISTRY and name != "quiz", where, f"name {name!r} is not an explorer")
    cls = REGISTRY[name]
    traits = cls.class_traits()  # defaults read from the class: no widget is made
    default = {p: traits[p].default() for p in cls.params}
    state = resolve(spec["state"], inputs)
    out: dict[str, Any] = {}
    for key, value in state.items():
        _need(key in cls.params, f"{where}.state", f"{key!r} is not a parameter of {name}")
        base = default[key]
        if isinstance(base, list):
            ok = isinstance(value, list) and len(value) <= len(base)
            _need(
                ok and all(isinstance(g, int) and 0 <= g <= 9 for g in value),
                f"{where}.state.{key}",
                f"needs at most {len(base)} grades 0-9, got {value!r}",
            )
            value = list(value) + [0] * (len(base) - len(value))
        else:
            ok = type(value) is type(base) or (isinstance(base, float) and type(value) is int)
            _need(ok, f"{where}.state.{key}", f"needs a {type(base).__name__}, got {value!r}")
            value = type(base)(value)
        out[key] = value
    return {"doc": spec["doc"], "name": name, "state": out}


def link_hash(explore: dict[str, Any]) -> str:
    """The URL hash that loads a state into a chapter's explorer (ui.js's stateFromHash):
    ``dcglab.<name>=<urlencoded JSON>``."""
    text = json.dumps(explore["state"], separators=(",", ":"))
    return f"dcglab.{explore['name']}={quote(text, safe='')}"


def _filled(template: str, inputs: Inputs, where: str) -> str:
    """:func:`fill`, with an unknown placeholder or filter reported as a bank error."""
    try:
        return fill(template, inputs)
    except (KeyError, ValueError, TypeError, IndexError) as err:
        reason = err.args[0] if isinstance(err, KeyError) and err.args else err
        raise BankError(f"{where}: {reason}") from err


def _choice_feedback(
    q: dict[str, Any], expr: Expr, answer: float | int, inputs: Inputs, where: str
) -> list[str]:
    """The feedback of each choice, checked: every wrong one names its mistake."""
    _need(
        expr["m"] in CHOICE_ANSWER_KINDS,
        f"{where}.answer",
        f"a choice question needs one of {CHOICE_ANSWER_KINDS}, got {expr['m']!r}",
    )
    _need(0 <= answer < len(q["choices"]), f"{where}.answer", f"option {answer} is absent")
    feedback = []
    for j, c in enumerate(q["choices"]):
        _need(
            j == answer or bool(c.get("feedback")),
            f"{where}.choices[{j}]",
            "a wrong choice needs feedback naming its mistake",
        )
        feedback.append(_filled(c.get("feedback", ""), inputs, f"{where}.choices[{j}]"))
    return feedback


def _mistakes(
    q: dict[str, Any], expr: Expr, answer: float | int, why: str, inputs: Inputs, where: str
) -> list[dict[str, Any]]:
    """The known mistakes of a number question, each with its value's expression;
    a mistake whose value is within two tolerances of the answer or of an earlier
    mistake is dropped (the page could not tell them apart)."""
    _need(
        expr["m"] not in CHOICE_ANSWER_KINDS,
        f"{where}.answer",
        f"a number question cannot use {expr['m']!r}",
    )
    _need("{answer}" in why, f"{where}.explanation", "must quote {answer}")
    seen, mistakes = [answer], []
    for n, mk in enumerate(q.get("mistakes", [])):
        at = f"{where}.mistakes[{n}]"
        _need(
            isinstance(mk, dict) and set(mk) == {"rule", "feedback"},
            at,
            "needs 'rule' and 'feedback'",
        )
        _need(mk["rule"] in MISTAKES, at, f"rule {mk['rule']!r} is not one of {sorted(MISTAKES)}")
        wrong = MISTAKES[mk["rule"]](expr, inputs)
        if wrong is None:
            continue
        try:
            value = evaluate(wrong)
        except (KeyError, ValueError, TypeError) as err:
            raise BankError(f"{at}: rule {mk['rule']!r} does not fit this answer: {err}") from err
        if all(abs(value - s) > 2 * TOLERANCE for s in seen):  # tells mistakes apart
            seen.append(value)
            mistakes.append(
                {
                    "rule": mk["rule"],
                    "expr": wrong,
                    "feedback": _filled(mk["feedback"], inputs, at),
                }
            )
    return mistakes


def _variant(q: dict[str, Any], inputs: Inputs, where: str) -> dict[str, Any]:
    """One number set of a question, as the page reads it, checked against dcglab."""
    inputs = {k: v for k, v in inputs.items() if k != "key"}
    _need(
        not any(RUNTIME.match(k) for k in inputs),
        where,
        "inputs may not be named answer, value or p0, p1, ...",
    )
    try:
        text = fill(q["prompt"], inputs)
        why = fill(q["explanation"], inputs)
        expr = resolve(q["answer"], inputs)
        parts = [resolve(p, inputs) for p in q.get("quotes", [])]
        answer = evaluate(expr)
        quoted = [evaluate(p) for p in parts]
    except (KeyError, ValueError, TypeError, IndexError) as err:
        reason = err.args[0] if isinstance(err, KeyError) and err.args else err
        raise BankError(f"{where}: {reason}") from err
    templates = [("prompt", q["prompt"]), ("explanation", q["explanation"])]
    templates += [
        (f"choices[{j}]", c.get("feedback", "")) for j, c in enumerate(q.get("choices", []))
    ]
    templates += [
        (f"mistakes[{j}]", m.get("feedback", "") if isinstance(m, dict) else "")
        for j, m in enumerate(q.get("mistakes", []))
    ]
    for field, template in templates:
        for i in re.findall(r"\{p(\d+)\}", str(template)):
            _need(int(i) < len(parts), f"{where}.{field}", f"{{p{i}}} has no quote")
    out: dict[str, Any] = {"text": text, "why": why, "expr": expr, "parts": parts}
    if "choices" in q:
        out["feedback"] = _choice_feedback(q, expr, answer, inputs, where)
    else:
        out["mistakes"] = _mistakes(q, expr, answer, why, inputs, where)
    if "explorer" in q:
        out["explore"] = _explorer_state(q["explorer"], inputs, f"{where}.explorer")
        out["explore"]["hash"] = link_hash(out["explore"])
    out["answer"], out["quoted"] = answer, quoted
    return out


def _check_key(q: dict[str, Any], variant: dict[str, Any], key: Any, where: str) -> None:
    """The instructor's answer key of a number set must be what dcglab computes."""
    answer = variant["answer"]
    if "choices" in q:
        right = q["choices"][answer]["text"]
        _need(key == right, f"{where}.key", f"is {key!r}, but dcglab gives {right!r}")
    else:
        ok = isinstance(key, int | float) and abs(key - answer) <= TOLERANCE
        _need(ok, f"{where}.key", f"is {key!r}, but dcglab gives {answer:.6f}")


def _question(q: Any, n_sets: int, where: str) -> dict[str, Any]:
    _need(isinstance(q, dict), where, "must be a mapping")
    missing = QUESTION_KEYS["required"] - set(q)
    unknown = set(q) - QUESTION_KEYS["required"] - QUESTION_KEYS["optional"]
    _need(not missing, where, f"lacks {sorted(missing)}")
    _need(not unknown, where, f"has unknown fields {sorted(unknown)}")
    where = f"{where} (id {q['id']!r})"
    _need(q["kind"] in KINDS, f"{where}.kind", f"must be one of {KINDS}, got {q['kind']!r}")
    link = q["taught_in"]
    _need(
        isinstance(link, dict) and set(link) == {"doc", "anchor", "text"},
        f"{where}.taught_in",
        "needs doc, anchor and text",
    )
    if "choices" in q:
        ok = isinstance(q["choices"], list) and len(q["choices"]) >= 2
        _need(
            ok and all(isinstance(c, dict) and "text" in c for c in q["choices"]),
            f"{where}.choices",
            "needs two or more entries with a 'text'",
        )
        _need(
            "mistakes" not in q,
            f"{where}.mistakes",
            "a choice question gives feedback per choice instead",
        )
    numbers = q["numbers"]
    _need(
        isinstance(numbers, list) and len(numbers) in (1, n_sets),
        f"{where}.numbers",
        f"needs 1 or {n_sets} number sets",
    )
    _need(all(isinstance(s, dict) for s in numbers), f"{where}.numbers", "sets are mappings")
    plain = [
        json.dumps({k: v for k, v in s.items() if k != "key"}, sort_keys=True) for s in numbers
    ]
    _need(len(set(plain)) == len(plain), f"{where}.numbers", "two number sets are the same")
    _need("key" in numbers[0], f"{where}.numbers[0]", "set 1 needs the answer 'key'")
    variants = []
    for s, inputs in enumerate(numbers):
        at = f"{where}.numbers[{s}]"
        v = _variant(q, inputs, at)
        if "key" in inputs:
            _check_key(q, v, inputs["key"], at)
        variants.append(v)
    return {
        "id": q["id"],
        "kind": q["kind"],
        "form": "choice" if "choices" in q else "number",
        "choices": [c["text"] for c in q.get("choices", [])],
        "link": dict(link),
        "variants": variants,
    }


@cache
def load_bank(quiz: str) -> dict[str, Any]:
    """A validated question bank with every number set computed by dcglab.

    Raises :class:`BankError` naming the file, question id and field of any defect.
    Variants carry ``answer`` and ``quoted`` (dcglab's values) besides what the page reads.
    """
    path = BANKS.joinpath(f"{quiz}.yaml")
    where = f"quizzes/{quiz}.yaml"
    if not path.is_file():
        raise ValueError(f"quiz must be one of {quiz_names()}, got {quiz!r}")
    try:
        bank = yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as err:
        raise BankError(f"{where}: not valid YAML: {err}") from err
    _need(
        isinstance(bank, dict) and {"title", "number_sets", "questions"} <= set(bank),
        where,
        "needs title, number_sets and questions",
    )
    n_sets = bank["number_sets"]
    _need(isinstance(n_sets, int) and n_sets >= 1, f"{where}.number_sets", "a whole number ≥ 1")
    questions = [
        _question(q, n_sets, f"{where}: question {i + 1}") for i, q in enumerate(bank["questions"])
    ]
    ids = [q["id"] for q in questions]
    _need(len(set(ids)) == len(ids), where, f"question ids repeat: {ids}")
    return {"title": bank["title"], "variants": n_sets, "questions": questions}


def quiz_names() -> list[str]:
    """The quizzes, one per bank file."""
    return sorted(p.name.removesuffix(".yaml") for p in BANKS.iterdir() if p.name.endswith(".yaml"))


PAGE_ONLY = ("answer", "quoted")


@cache
def quiz_data(quiz: str) -> dict[str, Any]:
    """Everything the front end needs for one quiz: title, tolerance, questions with the
    expressions it evaluates (computed once per quiz; do not modify the result)."""
    bank = load_bank(quiz)
    questions = [
        {
            **q,
            "variants": [{k: v for k, v in x.items() if k not in PAGE_ONLY} for x in q["variants"]],
        }
        for q in bank["questions"]
    ]
    return {
        "title": bank["title"],
        "variants": bank["variants"],
        "tolerance": TOLERANCE,
        "tie": TIE,
        "questions": questions,
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
        v, top = proposal["value"], quiz_data(self.quiz)["variants"]
        if not 1 <= v <= top:
            raise t.TraitError(f"variant must be a number set from 1 to {top}, got {v}")
        return v

    @classmethod
    def compute(cls, state: dict[str, Any]) -> dict[str, float | None]:
        """The right answers of the quiz's questions in the number set ``state["variant"]``:
        ``{"q1": ..., "q2": ...}`` (choice answers are option indices)."""
        out: dict[str, float | None] = {}
        for n, q in enumerate(load_bank(state["quiz"])["questions"]):
            variants = q["variants"]
            out[f"q{n + 1}"] = variants[min(state["variant"], len(variants)) - 1]["answer"]
        return out
