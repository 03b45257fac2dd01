"""Question banks: one YAML file per quiz in ``dcglab/book/quizzes/``, loaded,
validated and computed by dcglab (:func:`load_bank`), and the data the page reads
(:func:`quiz_data`). A malformed bank raises :class:`BankError` naming the file, question
and field."""

from __future__ import annotations

import json
import re
from functools import cache
from importlib.resources import files
from typing import Any
from urllib.parse import quote

import yaml

from dcglab.book.explorers.base import REGISTRY
from dcglab.book.explorers.quiz.expressions import (
    CHOICE_ANSWER_KINDS,
    TIE,
    Expr,
    evaluate_expression,
)
from dcglab.book.explorers.quiz.mistakes import MISTAKES
from dcglab.book.explorers.quiz.wording import RUNTIME, Inputs, fill, resolve

#: Numeric answers within this absolute distance count as right (three decimals).
TOLERANCE = 0.001
KINDS = ("arithmetic", "conceptual")
BANKS = files("dcglab.book").joinpath("quizzes")


class BankError(ValueError):
    """A malformed question bank: the message names the file, question and field."""


QUESTION_KEYS = {
    "required": {"id", "kind", "taught_in", "prompt", "answer", "explanation", "numbers"},
    "optional": {"choices", "quotes", "mistakes", "explorer"},
}


def _need(cond: bool, where: str, message: str) -> None:
    if not cond:
        raise BankError(f"{where}: {message}")


def _explorer_state(spec: Any, inputs: Inputs, where: str) -> dict[str, Any]:
    """An explorer's state patch, lists padded with grade 0 to the explorer's length;
    refused unless every key is a parameter of the explorer with a value of its type.
    An optional 'note' says how the explorer shows the question's numbers; a padded list
    adds a sentence that says which documents the explorer adds with grade 0."""
    _need(
        isinstance(spec, dict)
        and {"doc", "name", "state"} <= set(spec) <= {"doc", "name", "state", "note"},
        where,
        "must have 'doc' (the chapter that shows it), 'name' and 'state' (and may have 'note')",
    )
    name = spec["name"]
    _need(name in REGISTRY and name != "quiz", where, f"name {name!r} is not an explorer")
    cls = REGISTRY[name]
    traits = cls.class_traits()  # defaults read from the class: no widget is made
    default = {p: traits[p].default() for p in cls.params}
    state = resolve(spec["state"], inputs)
    out: dict[str, Any] = {}
    added = ""
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
            if len(value) < len(base):
                first, last = len(value) + 1, len(base)
                which = f"documents {first}–{last} have" if first < last else f"document {last} has"
                added = f"The explorer holds {last} documents: {which} grade 0 there."
            value = list(value) + [0] * (len(base) - len(value))
        else:
            ok = type(value) is type(base) or (isinstance(base, float) and type(value) is int)
            _need(ok, f"{where}.state.{key}", f"needs a {type(base).__name__}, got {value!r}")
            value = type(base)(value)
        out[key] = value
    made: dict[str, Any] = {"doc": spec["doc"], "name": name, "state": out}
    notes = [_filled(str(spec["note"]), inputs, f"{where}.note")] if "note" in spec else []
    if added:
        notes.append(added)
    if notes:
        made["note"] = " ".join(notes)
    return made


def link_hash(explore: dict[str, Any]) -> str:
    """The URL hash that loads a state into a chapter's explorer (ui_mount.js's stateFromHash):
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
            value = evaluate_expression(wrong)
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
        answer = evaluate_expression(expr)
        quoted = [evaluate_expression(p) for p in parts]
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
