"""Quiz feedback is true for the number set it is shown with, and the quizzes cover the book.

A choice question whose answer is computed (``compare``, ``both``, ``match``) shows a
wrong choice's feedback with the numbers of the current number set. The feedback may
claim things that hold for one set and not for another ("the winner does not change"),
so each sentence is rendered as the page renders it (:func:`render`) for every set and
every wrong choice, and its claims are checked against what dcglab computes:

* ``A x, B y`` after a label (``nDCG@k``, ``linear``, ``exponential``): x and y are the
  values of the quoted expressions with that label for rankings A and B;
* ``nDCG@k = x``: x is the quoted nDCG at that cutoff;
* ``x, not y``: the two numbers differ;
* "does not (always) change", "do not (always) disagree": the two comparisons of a
  ``both`` question have the same winner in this set; "the winner changes", "the gains
  disagree": they do not;
* every decimal shown is a computed one.

Each wrong choice of a question whose answer differs between sets must make at least one
checked claim, so that no such feedback goes unchecked.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
import yaml

from dcglab.book.explorers.quiz import load_bank, quiz_names, render
from dcglab.book.explorers.quiz.bank import BANKS

ROOT = Path(__file__).resolve().parents[1]
COMPUTED = ("compare", "both", "match")
NUM = r"(-?\d+(?:\.\d+)?)"
SAME = re.compile(r"\b(?:does|do) not (?:always )?(?:change|disagree)\b")
DIFFERENT = re.compile(r"\b(?:winner|verdict) changes\b|\b(?:gains|cutoffs) disagree\b")
PAIR = re.compile(rf"\bA {NUM}, B {NUM}")
AT_K = re.compile(rf"\bnDCG@(\d+) = {NUM}")
NOT = re.compile(rf"{NUM}, not {NUM}")
DECIMAL = re.compile(r"(?<![\w@.])-?\d+\.\d+")
LABEL = re.compile(r"nDCG@(\d+)|\b(linear|exponential)\b")


def shown(x: float) -> str:
    """A number as the page shows it (quiz.js's ``show``)."""
    r = round(x)
    return str(r) if abs(x - r) < 1e-9 else f"{x:.3f}"


def raw_numbers(quiz: str) -> dict[str, list[dict]]:
    bank = yaml.safe_load(BANKS.joinpath(f"{quiz}.yaml").read_text(encoding="utf-8"))
    return {q["id"]: q["numbers"] for q in bank["questions"]}


def _quote_for(variant: dict, inputs: dict, side: str, label: tuple[str | None, str | None]):
    """The quoted value for ranking ``side`` ('a' or 'b') under a label (k or gain)."""
    k, gain = label
    for part, value in zip(variant["parts"], variant["quoted"], strict=True):
        if part.get("grades") != inputs.get(side):
            continue
        if (k is None or part.get("k") == int(k)) and (gain is None or part.get("gain") == gain):
            return value
    return None


def false_claims(variant: dict, inputs: dict, chosen: int, kind: str) -> tuple[list[str], int]:
    """The false claims in the feedback of choice ``chosen`` for one number set, and how
    many claims were checked."""
    text = render(variant["feedback"][chosen], variant["answer"], variant["quoted"])
    computed = {shown(x) for x in [*variant["quoted"], variant["answer"]]}
    false, checked = [], 0
    for number in DECIMAL.findall(text):
        if number not in computed:
            false.append(f"{number} is not a computed number: {text!r}")
    for clause in re.split(r"[;.](?:\s|$)", text):
        found = LABEL.search(clause)
        label = (found.group(1), found.group(2)) if found else (None, None)
        for a, b in PAIR.findall(clause):
            checked += 1
            want = [_quote_for(variant, inputs, s, label) for s in ("a", "b")]
            if None in want or [shown(w) for w in want] != [a, b]:
                false.append(f"'A {a}, B {b}' is not {label} of A and B: {text!r}")
        for k, x in AT_K.findall(clause):
            checked += 1
            want = _quote_for(variant, {"a": inputs.get("grades")}, "a", (k, None))
            if want is None or shown(want) != x:
                false.append(f"nDCG@{k} is not {x}: {text!r}")
        for x, y in NOT.findall(clause):
            checked += 1
            if x == y:
                false.append(f"'{x}, not {y}' compares a number with itself: {text!r}")
        if kind == "both":
            same_winner = variant["answer"] in (0, 1)
            if SAME.search(clause):
                checked += 1
                if not same_winner:
                    false.append(f"says the winner stays, but it changes here: {text!r}")
            if DIFFERENT.search(clause):
                checked += 1
                if same_winner:
                    false.append(f"says the winner changes, but it stays here: {text!r}")
    return false, checked


def computed_choice_questions():
    for quiz in quiz_names():
        numbers = raw_numbers(quiz)
        for q in load_bank(quiz)["questions"]:
            kind = q["variants"][0]["expr"]["m"]
            if q["form"] == "choice" and kind in COMPUTED:
                yield quiz, q, kind, numbers[q["id"]]


def test_there_are_computed_choice_questions_to_check():
    assert {kind for _, _, kind, _ in computed_choice_questions()} == set(COMPUTED)


@pytest.mark.parametrize("quiz", quiz_names())
def test_every_feedback_is_true_for_its_number_set(quiz):
    problems = []
    for name, q, kind, numbers in computed_choice_questions():
        if name != quiz:
            continue
        varies = len({v["answer"] for v in q["variants"]}) > 1
        for s, (variant, inputs) in enumerate(zip(q["variants"], numbers, strict=True), 1):
            for chosen in range(len(q["choices"])):
                if chosen == variant["answer"]:
                    continue
                false, checked = false_claims(variant, inputs, chosen, kind)
                problems += [f"{q['id']} set {s} choice {chosen + 1}: {f}" for f in false]
                if varies and not checked:
                    problems.append(f"{q['id']} set {s} choice {chosen + 1}: no checked claim")
    assert problems == []


def test_the_check_catches_a_false_sentence_and_a_mislabelled_number():
    """The sentence the review found false on set 1 of choose_k, and numbers quoted under
    the wrong cutoff, are both reported."""
    q = next(q for quiz, q, _, _ in computed_choice_questions() if q["id"] == "choose_k")
    inputs = raw_numbers("practice")["choose_k"][0]
    variant = dict(q["variants"][0])
    assert variant["answer"] == 2  # A at k = 1, B at k = 5: the winner changes
    old = "The winner does not always change with k: nDCG@1 gives A {p0}, B {p1}."
    variant["feedback"] = [old] * 4
    false, _ = false_claims(variant, inputs, 3, "both")
    assert any("winner stays" in f for f in false)
    variant["feedback"] = ["nDCG@1 gives A {p2}, B {p3}."] * 4
    false, _ = false_claims(variant, inputs, 3, "both")
    assert any("is not ('1', None)" in f for f in false)


def test_every_chapter_is_taught_by_at_least_two_questions():
    toc = (ROOT / "_toc.yml").read_text(encoding="utf-8")
    chapters = sorted(set(re.findall(r"chapters/(\d\d_\w+)", toc)))
    questions = [q for quiz in quiz_names() for q in load_bank(quiz)["questions"]]
    taught = Counter(q["link"]["doc"] for q in questions)
    assert chapters and {c: taught[c] for c in chapters if taught[c] < 2} == {}
