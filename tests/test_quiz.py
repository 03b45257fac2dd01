"""The self-check quizzes (dcglab.book.explorers.quiz, quiz.js).

* The answers the browser computes (quiz.js's ``solve``, through measures.js) equal
  dcglab's (``quiz.evaluate``) within 1e-12 for every question of every quiz in every
  number set, and so do the numbers the explanations quote.
* The quiz data is sound: 5-8 questions per quiz, explanations quote only numbers that
  are computed, choice answers name an option, number sets 2.. really change the
  numbers, links point to chapters of the table of contents.
* On the built static site (no kernel), each quiz page takes a right and a wrong answer
  to a numeric and to a choice question and says so, in the question's feedback and in
  the explorer's one polite live region; "New numbers" moves to a number set whose
  answers are dcglab's; a 390-px phone screen needs no sideways scroll; every link
  target exists on the site.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

from dcglab.book.explorers import REGISTRY
from dcglab.book.explorers.base import bundle
from dcglab.book.explorers.quiz import (
    CHOICE_ANSWER_KINDS,
    QUIZZES,
    TOLERANCE,
    VARIANTS,
    QuizExplorer,
    evaluate,
    quiz_data,
)

ROOT = Path(__file__).resolve().parents[1]
TOL = 1e-12
PAGES = {
    "chapters/quiz_1_building.html": "building",
    "chapters/quiz_2_choices.html": "choices",
    "chapters/quiz_3_practice.html": "practice",
}


def variant(question: dict, number_set: int) -> dict:
    """The variant a question shows in a number set (as quiz.js's variantOf)."""
    variants = question["variants"]
    return variants[min(number_set, len(variants)) - 1]


# --------------------------------------------------------------- the data itself


def test_quizzes_are_registered_and_sized():
    assert REGISTRY["quiz"] is QuizExplorer
    assert set(QUIZZES) == set(PAGES.values())
    for quiz in QUIZZES:
        assert 5 <= len(quiz_data(quiz)["questions"]) <= 8, quiz


@pytest.mark.parametrize("quiz", sorted(QUIZZES))
def test_explanations_quote_computed_numbers_only(quiz):
    for q in quiz_data(quiz)["questions"]:
        for number_set in range(1, VARIANTS + 1):
            v = variant(q, number_set)
            quoted = [int(i) for i in re.findall(r"\{p(\d+)\}", v["why"])]
            assert all(i < len(v["parts"]) for i in quoted), (q["id"], v["why"])
            left = re.sub(r"\{answer\}|\{p\d+\}", "", v["why"] + v["text"])
            assert "{" not in left and "}" not in left, (q["id"], left)
            answer = evaluate(v["expr"])
            if q["kind"] == "choice":
                assert v["expr"]["m"] in CHOICE_ANSWER_KINDS
                assert isinstance(answer, int) and 0 <= answer < len(q["choices"]), q["id"]
            else:
                assert v["expr"]["m"] not in CHOICE_ANSWER_KINDS
                assert "{answer}" in v["why"], q["id"]


@pytest.mark.parametrize("quiz", sorted(QUIZZES))
def test_number_sets_change_the_numbers(quiz):
    """A drawn question reads differently in every number set; questions of fact read
    the same everywhere."""
    drawn = 0
    for q in quiz_data(quiz)["questions"]:
        texts = [variant(q, s)["text"] for s in range(1, VARIANTS + 1)]
        if len(q["variants"]) == 1:
            assert q["variants"][0]["expr"]["m"] == "fixed", q["id"]
            continue
        assert len(q["variants"]) == VARIANTS
        drawn += 1
        assert len(set(texts)) == VARIANTS, (q["id"], texts)
    assert drawn >= 4


def test_answers_change_between_number_sets():
    for quiz in QUIZZES:
        answers = [
            json.dumps(QuizExplorer.compute({"quiz": quiz, "variant": s}))
            for s in range(1, VARIANTS + 1)
        ]
        assert len(set(answers)) == VARIANTS, quiz


def test_links_point_to_chapters_of_the_toc():
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))
    files = {c["file"] for part in toc["parts"] for c in part["chapters"]}
    for page in PAGES:
        assert page.removesuffix(".html") in files, f"{page} is not in _toc.yml"
    for quiz in QUIZZES:
        for q in quiz_data(quiz)["questions"]:
            assert f"chapters/{q['link']['doc']}" in files, (quiz, q["id"], q["link"])
            assert q["link"]["anchor"] and q["link"]["text"], (quiz, q["id"])


def test_bad_quiz_and_number_set_are_refused():
    with pytest.raises(ValueError, match="quiz must be one of"):
        QuizExplorer("nonsense")
    with pytest.raises(Exception, match="variant must be a number set from 1 to"):
        QuizExplorer("building", variant=VARIANTS + 1)
    with pytest.raises(ValueError, match="quiz expression kind"):
        evaluate({"m": "median"})


def test_saved_widget_state_holds_the_current_questions():
    """The site renders each quiz from the widget state saved in its notebook: that state
    must hold today's questions (re-execute the notebook after changing quiz.py)."""
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


@pytest.mark.parametrize("quiz", sorted(QUIZZES))
def test_js_answers_equal_python(quiz_js, quiz):
    data = quiz_data(quiz)
    checked = 0
    for number_set in range(1, VARIANTS + 1):
        js = quiz_js.evaluate("([d, v]) => window.quiz.solve(d, v)", [data, number_set])
        assert len(js) == len(data["questions"])
        for q, got in zip(data["questions"], js):
            v = variant(q, number_set)
            want = [evaluate(v["expr"])] + [evaluate(p) for p in v["parts"]]
            have = [got["answer"]] + got["parts"]
            assert len(have) == len(want), (quiz, q["id"], number_set)
            for j, (h, w) in enumerate(zip(have, want)):
                if q["kind"] == "choice" and j == 0:  # an option index
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
    numeric = next(i for i, q in enumerate(questions) if q["kind"] == "number") + 1
    choice = next(i for i, q in enumerate(questions) if q["kind"] == "choice") + 1

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


def test_quiz_links_exist_on_the_site(site_dir):
    for quiz in QUIZZES:
        for q in quiz_data(quiz)["questions"]:
            target = site_dir / "chapters" / f"{q['link']['doc']}.html"
            assert target.is_file(), target
            html = target.read_text(encoding="utf-8")
            assert f'id="{q["link"]["anchor"]}"' in html, (quiz, q["id"], q["link"])


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
