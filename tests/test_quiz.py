"""The self-check quizzes: the question banks (dcglab/book/quizzes/*.yaml), their loader
(dcglab.book.explorers.quiz) and the page (quiz.js).

* Every answer key in a bank is what dcglab computes from the question's inputs, and the
  answers, quoted numbers and mistake values the browser computes (quiz.js's ``solve``,
  through measures.js) equal dcglab's within 1e-12 in every number set.
* The banks are sound: 5-12 questions per quiz with conceptual and arithmetic ones, every
  wrong choice and every known numeric mistake has feedback, explanations quote only
  computed numbers, number sets change the numbers, links point to chapters of the table
  of contents, and each "load into the explorer" link carries a state that explorer
  accepts. A malformed bank is refused with the file, question id and field named.
* On the built static site (no kernel), each quiz page takes a right and a wrong answer
  to a numeric and to a choice question and says so, naming the mistake a known wrong
  value or choice matches; "New numbers" moves to a number set whose answers are dcglab's;
  a link loads its numbers into the chapter's explorer, and shows only once its question
  is answered (the explorer gives the answer away); a 390-px phone screen needs no
  sideways scroll; every link target exists on the site.
"""

from __future__ import annotations

import json
import re
import textwrap
from pathlib import Path
from urllib.parse import unquote

import pytest
import yaml

import dcglab
from dcglab.book.explorers import REGISTRY
from dcglab.book.explorers.base import bundle
from dcglab.book.explorers.quiz import (
    CHOICE_ANSWER_KINDS,
    TOLERANCE,
    BankError,
    QuizExplorer,
    evaluate_expression,
    load_bank,
    quiz_data,
    quiz_names,
    render,
    resolve,
)
from dcglab.book.explorers.quiz import bank as bankmod

ROOT = Path(__file__).resolve().parents[1]
BANKS = ROOT / "src" / "dcglab" / "book" / "quizzes"
TOL = 1e-12
PAGES = {
    "chapters/quiz_1_building.html": "building",
    "chapters/quiz_2_choices.html": "choices",
    "chapters/quiz_3_practice.html": "practice",
}
VARIANTS = 10


def variant(question: dict, number_set: int) -> dict:
    """The variant a question shows in a number set (as quiz.js's variantOf)."""
    variants = question["variants"]
    return variants[min(number_set, len(variants)) - 1]


def raw_bank(quiz: str) -> dict:
    return yaml.safe_load((BANKS / f"{quiz}.yaml").read_text(encoding="utf-8"))


# --------------------------------------------------------------- the banks themselves


def test_quizzes_are_registered_and_sized():
    assert REGISTRY["quiz"] is QuizExplorer
    assert quiz_names() == sorted(PAGES.values())
    for quiz in quiz_names():
        questions = quiz_data(quiz)["questions"]
        assert 5 <= len(questions) <= 12, quiz
        kinds = [q["kind"] for q in questions]
        assert kinds.count("conceptual") >= 3 and kinds.count("arithmetic") >= 3, (quiz, kinds)
        assert quiz_data(quiz)["variants"] == VARIANTS


@pytest.mark.parametrize("quiz", sorted(PAGES.values()))
def test_answer_keys_are_what_dcglab_computes(quiz):
    """Each key an instructor wrote in the bank equals dcglab's value for the question's
    inputs (number set 1 always has one), computed here from the raw file."""
    keyed = 0
    for q in raw_bank(quiz)["questions"]:
        for inputs in q["numbers"]:
            if "key" not in inputs:
                continue
            got = evaluate_expression(resolve(q["answer"], inputs))
            if "choices" in q:
                assert q["choices"][got]["text"] == inputs["key"], (quiz, q["id"])
            else:
                assert abs(got - inputs["key"]) <= TOLERANCE, (quiz, q["id"], got, inputs["key"])
            keyed += 1
        assert "key" in q["numbers"][0], (quiz, q["id"])
    assert keyed >= len(raw_bank(quiz)["questions"])


def test_book_numbers_by_hand():
    """A few of number set 1's answers, spelled out with the library's own calls."""
    answers = QuizExplorer.compute({"quiz": "building", "variant": 1})
    ids = [q["id"] for q in quiz_data("building")["questions"]]
    assert answers[f"q{ids.index('cg') + 1}"] == dcglab.cg([2, 0, 3, 1, 0], 4) == 6
    ndcg = dcglab.ndcg([2, 3, 0, 1], 4, judged=[3, 3, 2, 1, 0, 0])
    assert abs(answers[f"q{ids.index('ndcg') + 1}"] - ndcg) <= TOL


@pytest.mark.parametrize("quiz", sorted(PAGES.values()))
def test_explanations_quote_computed_numbers_only(quiz):
    for q in quiz_data(quiz)["questions"]:
        for v in q["variants"]:
            templates = [v["text"], v["why"]] + v.get("feedback", [])
            templates += [m["feedback"] for m in v.get("mistakes", [])]
            for template in templates:
                quoted = [int(i) for i in re.findall(r"\{p(\d+)\}", template)]
                assert all(i < len(v["parts"]) for i in quoted), (q["id"], template)
                left = re.sub(r"\{answer\}|\{p\d+\}|\{value\}", "", template)
                assert "{" not in left and "}" not in left, (q["id"], left)
            answer = evaluate_expression(v["expr"])
            if q["form"] == "choice":
                assert v["expr"]["m"] in CHOICE_ANSWER_KINDS
                assert isinstance(answer, int) and 0 <= answer < len(q["choices"]), q["id"]
                wrong = [fb for j, fb in enumerate(v["feedback"]) if j != answer]
                assert all(fb.strip() for fb in wrong), (q["id"], "a wrong choice lacks feedback")
            else:
                assert v["expr"]["m"] not in CHOICE_ANSWER_KINDS
                assert "{answer}" in v["why"], q["id"]
                assert all("{value}" in m["feedback"] for m in v["mistakes"]), q["id"]


@pytest.mark.parametrize("quiz", sorted(PAGES.values()))
def test_mistakes_are_told_apart_from_the_answer(quiz):
    """A known mistake's value is never within the tolerance of the right answer (else a
    right answer would be called a mistake) nor of another mistake."""
    for q in quiz_data(quiz)["questions"]:
        for v in q["variants"]:
            values = [evaluate_expression(v["expr"])] + [
                evaluate_expression(m["expr"]) for m in v.get("mistakes", [])
            ]
            for i, a in enumerate(values):
                assert all(abs(a - b) > 2 * TOLERANCE for b in values[i + 1 :]), (q["id"], values)


def test_mistake_rules_give_the_mistakes_they_name():
    """The rules, checked against direct dcglab calls on number set 1 of the banks."""
    qs = {q["id"]: q for quiz in quiz_names() for q in quiz_data(quiz)["questions"]}

    def mistake(qid: str, rule: str) -> float:
        v = qs[qid]["variants"][0]
        return next(evaluate_expression(m["expr"]) for m in v["mistakes"] if m["rule"] == rule)

    assert mistake("cg", "k_minus_1") == dcglab.cg([2, 0, 3, 1, 0], 3) == 5  # CG@3 for CG@4
    exp = dcglab.dcg([3, 2, 0, 1], 4, "exponential")
    assert abs(mistake("dcg", "exponential_gain") - exp) <= TOL
    retrieved = dcglab.ndcg([2, 3, 0, 1], 4)  # the ideal from the retrieved grades only
    assert abs(mistake("ndcg", "ideal_from_retrieved") - retrieved) <= TOL
    skip = dcglab.mean_ndcg([[3, 0, 2, 1], [0, 1, 0, 2], [0, 0, 0, 0]], 3, zero_idcg="skip")
    assert abs(mistake("mean_zero", "skip_policy") - skip) <= TOL


@pytest.mark.parametrize("quiz", sorted(PAGES.values()))
def test_number_sets_change_the_numbers(quiz):
    """A question with number sets reads differently in every set; a question with one
    set reads the same everywhere."""
    drawn = 0
    for q in quiz_data(quiz)["questions"]:
        if len(q["variants"]) == 1:
            continue
        assert len(q["variants"]) == VARIANTS
        drawn += 1
        texts = [variant(q, s)["text"] for s in range(1, VARIANTS + 1)]
        assert len(set(texts)) == VARIANTS, (q["id"], texts)
    assert drawn >= 4


def test_answers_change_between_number_sets():
    for quiz in quiz_names():
        answers = [
            json.dumps(QuizExplorer.compute({"quiz": quiz, "variant": s}))
            for s in range(1, VARIANTS + 1)
        ]
        assert len(set(answers)) == VARIANTS, quiz


def _toc_files() -> set[str]:
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))
    return {c["file"] for part in toc["parts"] for c in part["chapters"]}


def test_links_point_to_chapters_of_the_toc():
    files = _toc_files()
    for page in PAGES:
        assert page.removesuffix(".html") in files, f"{page} is not in _toc.yml"
    for quiz in quiz_names():
        for q in quiz_data(quiz)["questions"]:
            assert f"chapters/{q['link']['doc']}" in files, (quiz, q["id"], q["link"])
            assert q["link"]["anchor"] and q["link"]["text"], (quiz, q["id"])


def explore_links() -> list[tuple[str, str, dict]]:
    return [
        (quiz, q["id"], v["explore"])
        for quiz in quiz_names()
        for q in quiz_data(quiz)["questions"]
        for v in q["variants"]
        if "explore" in v
    ]


def test_explorer_links_carry_a_state_the_explorer_accepts():
    """Each "load into the explorer" link names a registered explorer shown in its
    chapter, and its state (decoded from the URL hash) has only that explorer's
    parameters, each of the type and list length of the explorer's own."""
    links = explore_links()
    assert len({(quiz, qid) for quiz, qid, _ in links}) >= 8
    files = _toc_files()
    for _quiz, qid, explore in links:
        name, state = explore["name"], explore["state"]
        cls = REGISTRY[name]
        prefix = f"dcglab.{name}="
        assert explore["hash"].startswith(prefix), (qid, explore["hash"])
        assert json.loads(unquote(explore["hash"].removeprefix(prefix))) == state
        default = cls().state()
        for key, value in state.items():
            assert key in cls.params, (qid, name, key)
            assert type(value) is type(default[key]), (qid, name, key, value)
            if isinstance(value, list):
                assert len(value) == len(default[key]), (qid, name, key, value)
        cls(**state)  # the explorer's own trait validation accepts the state
        cls.compute({**default, **state})
        assert f"chapters/{explore['doc']}" in files, (qid, explore["doc"])
        source = (ROOT / "chapters" / f"{explore['doc']}.ipynb").read_text(encoding="utf-8")
        assert f"{cls.__name__}(" in source, (qid, f"{explore['doc']} shows no {cls.__name__}")


def test_a_padded_link_says_which_documents_the_explorer_adds():
    """A question with fewer grades than its explorer holds loads them padded with grade 0,
    and its link's note says which documents that adds (quiz 1's first question: five
    grades, so document 6); wherever a note names added documents, the loaded list ends
    with them, at grade 0."""
    added = re.compile(r"documents? (\d+)(?:–(\d+))? ha(?:s|ve) grade 0 there")
    first = raw_bank("building")["questions"][0]
    for number_set, numbers in enumerate(first["numbers"], start=1):
        note = variant(quiz_data("building")["questions"][0], number_set)["explore"]["note"]
        assert f"document {len(numbers['grades']) + 1} has grade 0" in note, (number_set, note)
    for _quiz, qid, explore in explore_links():
        m = added.search(explore.get("note", ""))
        lists = [v for v in explore["state"].values() if isinstance(v, list)]
        if m is None:
            continue
        start, end = int(m[1]), int(m[2] or m[1])
        assert any(len(v) == end and not any(v[start - 1 :]) for v in lists), (qid, explore)


def test_bad_quiz_and_number_set_are_refused():
    with pytest.raises(ValueError, match="quiz must be one of"):
        QuizExplorer("nonsense")
    with pytest.raises(Exception, match="variant must be a number set from 1 to"):
        QuizExplorer("building", variant=VARIANTS + 1)
    with pytest.raises(ValueError, match="quiz expression kind"):
        evaluate_expression({"m": "median"})


GOOD = """
title: A test bank
number_sets: 1
questions:
  - id: cg
    kind: arithmetic
    taught_in: {doc: 01_cumulative_gain, anchor: cumulative-gain, text: "Chapter 1"}
    prompt: "CG@{k} of {grades}?"
    answer: {m: cg, grades: $grades, k: $k}
    explanation: "It is {answer}."
    mistakes:
      - {rule: k_minus_1, feedback: "{value} is CG@{k|minus:1}."}
    numbers:
      - {grades: [2, 1, 3], k: 2, key: 3}
"""

BROKEN = [
    ("kind: arithmetic", "kind: tricky", "question 1 (id 'cg').kind: must be one of"),
    ("key: 3}", "key: 4}", "question 1 (id 'cg').numbers[0].key: is 4, but dcglab gives 3"),
    ("rule: k_minus_1", "rule: off_by_two", "question 1 (id 'cg').numbers[0].mistakes[0]: rule"),
    ("CG@{k} of", "CG@{kk} of", "question 1 (id 'cg').numbers[0]: the placeholder 'kk'"),
    ("    explanation:", "    explain:", "question 1: lacks ['explanation']"),
    ("It is {answer}.", "It is {answer} of {p0}.", "numbers[0].explanation: {p0} has no quote"),
    ("CG@{k|minus:1}.", "CG@{k|halve}.", "numbers[0].mistakes[0]: the filter 'halve' is unknown"),
    ("{grades: [2, 1, 3], k: 2, key: 3}", "{grades: [2, 1, 3], k: 2}", "numbers[0]: set 1 needs"),
    (
        "    numbers:",
        "    explorer: {doc: 01_cumulative_gain, name: cumulative_gain, state: {kay: 2}}\n"
        "    numbers:",
        "numbers[0].explorer.state: 'kay' is not a parameter of cumulative_gain",
    ),
]


@pytest.fixture
def bank_dir(tmp_path, monkeypatch):
    """The loader reading banks from a temporary folder."""
    monkeypatch.setattr(bankmod, "BANKS", tmp_path)
    load_bank.cache_clear()
    yield tmp_path
    load_bank.cache_clear()


def test_a_good_test_bank_loads(bank_dir):
    (bank_dir / "mine.yaml").write_text(textwrap.dedent(GOOD), encoding="utf-8")
    q = load_bank("mine")["questions"][0]
    assert q["variants"][0]["answer"] == 3 and q["variants"][0]["mistakes"][0]["feedback"] == (
        "{value} is CG@1."
    )


def test_loading_a_bank_makes_no_widgets(bank_dir):
    """Checking an explorer link reads the explorer's defaults from its class: a widget
    made while loading would be saved into the quiz notebook's widget state."""
    from ipywidgets.widgets.widget import _instances

    bank = textwrap.dedent(GOOD).replace(
        "    numbers:",
        "    explorer: {doc: 01_cumulative_gain, name: cumulative_gain, state: {k: 2}}\n"
        "    numbers:",
    )
    (bank_dir / "mine.yaml").write_text(bank, encoding="utf-8")
    before = len(_instances)
    assert load_bank("mine")["questions"][0]["variants"][0]["explore"]["state"] == {"k": 2}
    assert len(_instances) == before


@pytest.mark.parametrize(("old", "new", "message"), BROKEN)
def test_a_malformed_bank_names_file_question_and_field(bank_dir, old, new, message):
    assert old in GOOD
    (bank_dir / "mine.yaml").write_text(textwrap.dedent(GOOD.replace(old, new)), encoding="utf-8")
    with pytest.raises(BankError) as err:
        load_bank("mine")
    assert str(err.value).startswith("quizzes/mine.yaml: question 1"), str(err.value)
    assert message in str(err.value), str(err.value)


def test_a_wrong_choice_without_feedback_is_refused(bank_dir):
    bank = textwrap.dedent(GOOD).replace(
        '    mistakes:\n      - {rule: k_minus_1, feedback: "{value} is CG@{k|minus:1}."}\n', ""
    )
    bank = bank.replace(
        "answer: {m: cg, grades: $grades, k: $k}",
        "answer: {m: fixed, answer: 0}\n    choices:\n      - {text: right}\n      - {text: wrong}",
    ).replace("key: 3}", "key: right}")
    (bank_dir / "mine.yaml").write_text(bank, encoding="utf-8")
    with pytest.raises(
        BankError, match=r"mine.yaml: question 1 \(id 'cg'\).*choices\[1\]: a wrong"
    ):
        load_bank("mine")


def test_saved_widget_state_holds_the_current_questions():
    """The site renders each quiz from the widget state saved in its notebook: that state
    must hold today's questions (re-execute the notebook after changing a bank)."""
    for page, quiz in PAGES.items():
        path = ROOT / page.replace(".html", ".ipynb")
        nb = json.loads(path.read_text(encoding="utf-8"))
        models = nb["metadata"]["widgets"]["application/vnd.jupyter.widget-state+json"]["state"]
        saved = [m["state"] for m in models.values() if m["state"].get("_esm") == QuizExplorer._esm]
        assert len(saved) == 1, f"{path.name}: {len(saved)} quiz explorers with current code"
        assert saved[0]["quiz"] == quiz and saved[0]["variant"] == 1
        assert saved[0]["content"] == quiz_data(quiz), (
            f"{path.name}: stale questions; run /tmp/team/execute.sh or `make execute`"
        )


# ------------------------------------------------------ JS answers against dcglab


@pytest.fixture(scope="module")
def quiz_js(browser):
    """A page that imported the quiz explorer's shipped bundle (measures.js + ui.js +
    quiz.js) as a module; ``window.quiz`` is its default export."""
    page = browser.new_page()
    page.set_content("<html><body></body></html>")
    page.evaluate(
        """async (src) => {
          const url = URL.createObjectURL(new Blob([src], {type: 'text/javascript'}));
          window.quiz = (await import(url)).default;
        }""",
        bundle("quiz.js"),
    )
    assert page.evaluate("typeof window.quiz.solve") == "function"
    yield page
    page.close()


@pytest.mark.parametrize("quiz", sorted(PAGES.values()))
def test_js_answers_equal_python(quiz_js, quiz):
    data = quiz_data(quiz)
    checked = 0
    for number_set in range(1, VARIANTS + 1):
        js = quiz_js.evaluate("([d, v]) => window.quiz.solve(d, v)", [data, number_set])
        assert len(js) == len(data["questions"])
        for q, got in zip(data["questions"], js):
            v = variant(q, number_set)
            mistakes = [evaluate_expression(m["expr"]) for m in v.get("mistakes", [])]
            want = (
                [evaluate_expression(v["expr"])]
                + [evaluate_expression(p) for p in v["parts"]]
                + mistakes
            )
            have = [got["answer"]] + got["parts"] + got["mistakes"]
            assert len(have) == len(want), (quiz, q["id"], number_set)
            for j, (h, w) in enumerate(zip(have, want)):
                if q["form"] == "choice" and j == 0:  # an option index
                    assert h == w, (quiz, q["id"], number_set, h, w)
                else:
                    assert abs(h - w) <= TOL, (quiz, q["id"], number_set, h, w)
                checked += 1
    assert checked >= VARIANTS * len(data["questions"])


# ----------------------------------------------------------- the built static site


def _quiz_root(page, rel: str):
    from sitekit import explorer_roots, open_page

    open_page(page, rel)
    explorer_roots(page)
    root = page.locator('.dcglab-explorer[data-explorer="quiz"]')
    assert root.count() == 1, f"{rel}: {root.count()} quiz explorers"
    return root.first


def _answers_shown_are_dcglabs(root) -> dict:
    state = json.loads(root.get_attribute("data-state"))
    shown = json.loads(root.get_attribute("data-result"))
    expected = QuizExplorer.compute(state)
    assert shown.keys() == expected.keys()
    for key, value in expected.items():
        assert abs(shown[key] - value) <= TOL, (state, key, shown[key], value)
    return state


def _feedback(root, n: int) -> str:
    return root.locator(".dcglab-quiz-q").nth(n - 1).locator(".dcglab-quiz-feedback").inner_text()


@pytest.mark.parametrize("rel", sorted(PAGES))
def test_quiz_page_checks_answers(page, site_dir, rel):
    if not (site_dir / rel).is_file():
        pytest.fail(f"{rel} was not built (is it in _toc.yml?)")
    root = _quiz_root(page, rel)
    quiz = PAGES[rel]
    state = _answers_shown_are_dcglabs(root)
    assert state == {"quiz": quiz, "variant": 1}
    questions = quiz_data(quiz)["questions"]
    live = root.locator("[aria-live]")
    assert live.count() == 1 and live.get_attribute("aria-live") == "polite"
    numeric = next(i for i, q in enumerate(questions) if q["variants"][0].get("mistakes")) + 1
    choice = next(i for i, q in enumerate(questions) if q["form"] == "choice") + 1
    bank = load_bank(quiz)["questions"]

    def answer(number_set: int) -> float:
        return QuizExplorer.compute({"quiz": quiz, "variant": number_set})[f"q{numeric}"]

    field = root.get_by_label(f"Answer to question {numeric}", exact=True)
    for typed, verdict in [
        (f"{answer(1):.3f}", "✓ Right"),
        (f"{answer(1) + 0.01:.3f}", "✗ Not right"),
        (f"{answer(1) + 0.9 * TOLERANCE:.4f}", "✓ Right"),  # within the stated tolerance
        (f"{answer(1) - 3 * TOLERANCE:.4f}", "✗ Not right"),
        ("abc", "Type a number"),
    ]:
        field.fill(typed)
        field.press("Enter")  # the keyboard submits the question's form
        assert _feedback(root, numeric).startswith(verdict), (typed, _feedback(root, numeric))
        assert live.inner_text().startswith(f"Question {numeric}: {verdict}"), live.inner_text()

    # A value a known mistake gives: the feedback names that mistake.
    v1 = bank[numeric - 1]["variants"][0]
    mistake = v1["mistakes"][0]
    value = evaluate_expression(mistake["expr"])
    field.fill(f"{value:.3f}")
    field.press("Enter")
    named = render(mistake["feedback"], v1["answer"], v1["quoted"], value)
    assert _feedback(root, numeric) == f"✗ Not right: {named} Try again, or press Show answer."

    right = QuizExplorer.compute({"quiz": quiz, "variant": 1})[f"q{choice}"]
    options = questions[choice - 1]["choices"]
    item = root.locator(".dcglab-quiz-q").nth(choice - 1)
    check = root.get_by_role("button", name=f"Check question {choice}", exact=True)
    wrong = next(i for i in range(len(options)) if i != right)
    for pick, verdict in [(wrong, "✗ Not right"), (right, "✓ Right")]:
        radio = item.get_by_role("radio", name=options[pick], exact=True)
        radio.check()
        if pick == wrong:
            radio.press("Enter")  # the keyboard checks a choice too
        else:
            check.click()
        assert _feedback(root, choice).startswith(verdict), _feedback(root, choice)
        assert live.inner_text().startswith(f"Question {choice}: {verdict}")
        if pick == wrong:
            # the wrong choice's own feedback: first its way to the answer with the numbers
            # held back, then (a second wrong try) with the page's numbers
            vc = bank[choice - 1]["variants"][0]
            named = render(vc["feedback"][wrong], vc["answer"], vc["quoted"])
            hint = re.sub(r"[−-]?\d+\.\d+", "…", named)
            assert named and hint in _feedback(root, choice), _feedback(root, choice)
            if hint != named:
                assert named not in _feedback(root, choice), "the first try gave the numbers away"
                check.click()
                assert named in _feedback(root, choice), _feedback(root, choice)
    assert "1 of" in live.inner_text() or "2 of" in live.inner_text()

    # New numbers: the next number set, whose answers are dcglab's too.
    root.get_by_role("button", name="New numbers").click()
    page.wait_for_function(
        "e => JSON.parse(e.getAttribute('data-state')).variant === 2", arg=root.element_handle()
    )
    assert _answers_shown_are_dcglabs(root)["variant"] == 2
    assert live.inner_text().startswith("Number set 2")
    assert _feedback(root, numeric) == "", "old feedback survived new numbers"
    field = root.get_by_label(f"Answer to question {numeric}", exact=True)
    field.fill(f"{answer(2):.3f}")
    field.press("Enter")
    assert _feedback(root, numeric).startswith("✓ Right")
    root.get_by_role("button", name="Reset").click()
    assert json.loads(root.get_attribute("data-state"))["variant"] == 1
    assert page.external_requests == []
    assert page.console_errors == []


@pytest.mark.parametrize("rel", sorted(PAGES))
def test_quiz_fits_a_phone(browser, http_server, site_dir, rel):
    from sitekit import new_page

    with new_page(browser, http_server, width=390, height=844) as phone:
        root = _quiz_root(phone, rel)
        wide = phone.evaluate(
            "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert wide <= 0, f"{rel}: {wide}px of sideways scroll at 390 px"
        box = root.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390


def _first_link_per_explorer() -> list[tuple[str, int, dict]]:
    """(quiz page, question number, explore) for the first number-set-1 link to each
    explorer."""
    seen, out = set(), []
    for rel, quiz in sorted(PAGES.items()):
        for n, q in enumerate(quiz_data(quiz)["questions"]):
            explore = q["variants"][0].get("explore")
            if explore and explore["name"] not in seen:
                seen.add(explore["name"])
                out.append((rel, n + 1, explore))
    return out


@pytest.mark.parametrize(
    ("rel", "number", "explore"),
    _first_link_per_explorer(),
    ids=lambda x: x["name"] if isinstance(x, dict) else str(x),
)
def test_load_into_the_explorer_link_sets_its_state(page, rel, number, explore):
    """Following a question's "load into the explorer" link opens the chapter with the
    question's numbers in its explorer (the state travels in the URL hash)."""
    from sitekit import explorer_roots

    root = _quiz_root(page, rel)
    link = root.locator(f'a[aria-label="Load into the explorer: question {number}"]')
    assert link.count() == 1
    # the explorer shows the answer: its link waits until the question is answered
    assert not link.is_visible(), "the explorer link shows before the question is answered"
    root.get_by_role("button", name=f"Show answer to question {number}", exact=True).click()
    assert link.is_visible()
    link.click()
    page.wait_for_url(f"**/{explore['doc']}.html#*")
    explorer_roots(page)
    target = page.locator(f'.dcglab-explorer[data-explorer="{explore["name"]}"]').first
    page.wait_for_function(
        "([e, want]) => Object.entries(want).every(([k, v]) =>"
        " JSON.stringify(JSON.parse(e.getAttribute('data-state'))[k]) === JSON.stringify(v))",
        arg=[target.element_handle(), explore["state"]],
    )
    shown = json.loads(target.get_attribute("data-state"))
    assert {k: shown[k] for k in explore["state"]} == explore["state"]
    assert page.console_errors == []


def test_quiz_links_exist_on_the_site(site_dir):
    for quiz in quiz_names():
        for q in quiz_data(quiz)["questions"]:
            target = site_dir / "chapters" / f"{q['link']['doc']}.html"
            assert target.is_file(), target
            html = target.read_text(encoding="utf-8")
            assert f'id="{q["link"]["anchor"]}"' in html, (quiz, q["id"], q["link"])
            for v in q["variants"]:
                if "explore" in v:
                    assert (site_dir / "chapters" / f"{v['explore']['doc']}.html").is_file()


# ------------------------------------------------------------- live JupyterLab

LIVE_CELLS = [
    'from dcglab.book.explorers import QuizExplorer\nquiz = QuizExplorer("practice")\nquiz',
    "print(f\"variant={quiz.variant} q1={quiz.results()['q1']:.6f}\")",
    "quiz.variant = 5",
]


@pytest.fixture(scope="module")
def quiz_lab(tmp_path_factory, browser):
    """The URL of a notebook that shows the practice quiz, in live JupyterLab."""
    from sitekit import live_lab

    with live_lab(tmp_path_factory.mktemp("quiz_lab"), "quiz.ipynb", LIVE_CELLS) as url:
        yield url


@pytest.mark.slow
def test_quiz_works_in_live_jupyterlab(browser, quiz_lab):
    """In a live kernel the number set syncs both ways, and answers are checked."""
    from sitekit import cell_output, open_lab, run_cell

    page = open_lab(browser, quiz_lab)
    run_cell(page, 0)
    root = page.locator('.dcglab-explorer[data-explorer="quiz"]')
    root.wait_for()
    assert _answers_shown_are_dcglabs(root) == {"quiz": "practice", "variant": 1}
    href = root.locator(".dcglab-quiz-link a").first.get_attribute("href")
    assert href.split("#")[0].endswith(".ipynb"), href  # links open the chapter notebooks

    # JS -> Python: "New numbers" in the page, then ask the kernel.
    root.get_by_role("button", name="New numbers").click()
    page.wait_for_function(
        "e => JSON.parse(e.getAttribute('data-state')).variant === 2", arg=root.element_handle()
    )
    run_cell(page, 1)
    page.wait_for_function(
        "i => window.jupyterapp.shell.currentWidget.content.widgets[i]"
        ".outputArea.node.innerText.includes('variant=')",
        arg=1,
    )
    q1 = QuizExplorer.compute({"quiz": "practice", "variant": 2})["q1"]
    assert cell_output(page, 1).strip() == f"variant=2 q1={q1:.6f}"

    # Python -> JS: the kernel picks number set 5; the page redraws and checks answers.
    run_cell(page, 2)
    page.wait_for_function(
        "e => JSON.parse(e.getAttribute('data-state')).variant === 5", arg=root.element_handle()
    )
    assert _answers_shown_are_dcglabs(root)["variant"] == 5
    field = root.get_by_label("Answer to question 1", exact=True)
    field.fill(f"{QuizExplorer.compute({'quiz': 'practice', 'variant': 5})['q1']:.3f}")
    field.press("Enter")  # JupyterLab must not take the key for its own shortcuts
    assert _feedback(root, 1).startswith("✓ Right")
    assert root.locator("[aria-live]").inner_text().startswith("Question 1: ✓ Right")
    page.close()


#: One expression of every arithmetic kind (quiz.js must compute each kind the banks may
#: use, not only the kinds they use today).
LOG2 = {"kind": "log", "base": 2.0}
EVERY_KIND = [
    {"m": "cg", "grades": [2, 0, 3, 1], "k": 3},
    {"m": "weight", "rank": 4, "discount": LOG2},
    {"m": "dcg", "grades": [2, 0, 3, 1], "k": 4, "gain": "exponential", "discount": LOG2},
    {"m": "idcg", "judged": [3, 2, 1, 0], "k": 3, "gain": "linear", "discount": LOG2},
    {
        "m": "ndcg",
        "grades": [2, 0, 3],
        "judged": [3, 2, 2, 1],
        "k": 3,
        "gain": "linear",
        "discount": LOG2,
    },
    {"m": "ap", "grades": [1, 0, 2, 0], "judged": [2, 1, 1]},
    {"m": "rbp", "grades": [3, 0, 1, 2], "p": 0.8},
    {"m": "err", "grades": [1, 3, 0, 2]},
    {"m": "err", "grades": [1, 2, 0, 4], "max_grade": 4},
    {
        "m": "mean_ndcg",
        "rankings": [[3, 0], [0, 0]],
        "judged": [[3, 1], [0]],
        "k": 2,
        "gain": "linear",
        "discount": LOG2,
        "policy": "skip",
    },
    {
        "m": "swap",
        "grades": [0, 2, 3, 1],
        "k": 3,
        "gain": "exponential",
        "discount": LOG2,
        "i": 1,
        "j": 3,
    },
]


def test_every_arithmetic_kind_agrees_in_js(quiz_js):
    """Each expression kind of OPERATIONS that gives a number, computed by quiz.js."""
    from dcglab.book.explorers.quiz.expressions import OPERATIONS

    numeric = set(OPERATIONS) - set(CHOICE_ANSWER_KINDS)
    assert {x["m"] for x in EVERY_KIND} == numeric
    data = {
        "tie": 1e-9,
        "questions": [{"variants": [{"expr": x, "parts": [], "mistakes": []}]} for x in EVERY_KIND],
    }
    js = quiz_js.evaluate("(d) => window.quiz.solve(d, 1)", data)
    for x, got in zip(EVERY_KIND, js):
        assert abs(got["answer"] - evaluate_expression(x)) <= TOL, (x, got)
