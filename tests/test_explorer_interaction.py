"""Direct manipulation, predict-then-reveal and the state in the URL, on the built site.

* Rank strip (chapter 3): a card dragged with the mouse lands at the rank it is dropped
  on, in one move; the keyboard moves a card (Shift + ← →) and sets its grade (digits),
  focus stays on the moved card, and each change is announced in the live region; a
  click near the top of a bar sets the top grade. After each change the shown results
  equal ``Explorer.compute`` of the new state.
* One tab stop per strip, on every explorer page: a strip's cards are one stop (the card
  last focused); ← → go from card to card without changing anything; Tab leaves the strip.
* Chapter 10, choosing k: either system's ranking of the shown query is reordered by its
  cards (grades stay the judges'), another query is shown by its slider, the chart draws
  both systems under all three IDCG = 0 rules, and on a phone the per-query table fits.
* Predict, then reveal: every explorer that asks for a prediction reveals nothing
  before a choice, then a verdict (✓ or ✗) whose right answer is dcglab's. The verdict
  goes as soon as the explorer shows another state (a move, a preset). The question is
  about the state shown (the reader's own, or one loaded from a link, where it fits; else
  a button restarts the worked example), and "Back to your ranking" undoes a choice's move.
* URL state: ``#dcglab.<name>=<JSON>`` loads a state, at load and when a link in the
  page is followed (the explorer scrolls into view and says so); the explorer's own
  "Link to this state" reproduces its state; a malformed state in the address is ignored.
  A quiz's "Load into the explorer" opens the chapter scrolled to the explorer, focused,
  in the state it names.
* Chapter 11: each query's bar is a slider (arrow keys, Page Up/Down, a pointer drag);
  the randomization chart's red share of its bars is the p-value. Chapter 6: a weight
  above 1 is drawn (the part of a bar above its gain) and named in the key. Chapter 13:
  queries at one place are one circle whose counts add up to every query.
* Tables on a phone (390 px): the columns a lesson compares come first and are in view
  (chapter 3: rank, grade, gain and the two discounted gains; chapter 12: each run's
  complete and pooled nDCG and their change); a table that scrolls sideways says so.
"""

from __future__ import annotations

import json
import math
import re
from urllib.parse import quote, unquote

import pytest
from sitekit import EXPLORER_PAGES, SITE, explorer_roots, new_page, open_page, python_mismatches

from dcglab.book.explorers import REGISTRY

NDCG_PAGE = "chapters/03_ideal_normalization.html"


def moved(values: list, src: int, dst: int) -> list:
    out = list(values)
    out.insert(dst, out.pop(src))
    return out


def state_of(root) -> dict:
    return json.loads(root.get_attribute("data-state"))


def assert_matches_python(root) -> None:
    name = root.get_attribute("data-explorer")
    shown = json.loads(root.get_attribute("data-result"))
    assert python_mismatches(name, state_of(root), shown) == []


def ndcg_root(page):
    open_page(page, NDCG_PAGE)
    roots = [r for r in explorer_roots(page) if r.get_attribute("data-explorer") == "ndcg"]
    assert len(roots) == 1
    return roots[0]


def test_drag_moves_a_card_in_one_move(page, site_dir):
    root = ndcg_root(page)
    start = state_of(root)["grades"]
    cards = root.locator("button.dcglab-card")
    root.locator(".dcglab-rank").scroll_into_view_if_needed()
    first, target = cards.nth(0).bounding_box(), cards.nth(3).bounding_box()
    page.mouse.move(first["x"] + first["width"] / 2, first["y"] + first["height"] / 2)
    page.mouse.down()
    page.mouse.move(first["x"] + first["width"], first["y"] + first["height"] / 2, steps=3)
    page.mouse.move(target["x"] + target["width"] / 2, target["y"] + target["height"] / 2, steps=5)
    page.mouse.up()
    assert state_of(root)["grades"] == moved(start, 0, 3)
    said = root.locator(".dcglab-said").text_content()
    assert said == f"Moved the grade-{start[0]} document from rank 1 to rank 4."
    assert_matches_python(root)
    assert page.console_errors == []


def test_keyboard_moves_a_card_and_sets_its_grade(page, site_dir):
    root = ndcg_root(page)
    start = state_of(root)["grades"]
    root.locator("button.dcglab-card").nth(2).focus()
    page.keyboard.press("Shift+ArrowLeft")
    assert state_of(root)["grades"] == moved(start, 2, 1)
    focused = page.evaluate("document.activeElement.querySelector('.dcglab-sr').textContent")
    assert focused.startswith(f", rank 2: grade {start[2]}"), focused
    assert "from rank 3 to rank 2" in root.locator(".dcglab-said").text_content()
    page.keyboard.press("0")
    want = moved(start, 2, 1)
    want[1] = 0
    assert state_of(root)["grades"] == want
    assert root.locator(".dcglab-said").text_content() == "Rank 2 now has grade 0."
    page.keyboard.press("ArrowUp")
    want[1] = 1
    assert state_of(root)["grades"] == want
    assert_matches_python(root)
    # at the top grade ↑ changes nothing and says so
    page.keyboard.press("3")
    page.keyboard.press("ArrowUp")
    want[1] = 3
    assert state_of(root)["grades"] == want
    assert root.locator(".dcglab-said").text_content() == "Rank 2 already has the top grade, 3."
    root.locator("button.dcglab-reset").click()
    assert state_of(root)["grades"] == start
    # Reset disables itself; focus goes to the explorer, not to the page body
    assert page.evaluate("document.activeElement.classList.contains('dcglab-explorer')")


def test_click_at_a_height_sets_the_grade(page, site_dir):
    root = ndcg_root(page)
    start = state_of(root)["grades"]
    rank = start.index(0)  # a grade-0 document: clicking near the top makes it a 3
    root.locator(".dcglab-rank").scroll_into_view_if_needed()
    area = root.locator("button.dcglab-card").nth(rank).locator(".dcglab-bar-area").bounding_box()
    page.mouse.click(area["x"] + area["width"] / 2, area["y"] + 10)
    want = list(start)
    want[rank] = 3
    assert state_of(root)["grades"] == want
    assert_matches_python(root)


PREDICTED = {
    "ndcg": (lambda s: {**s, "grades": moved(s["grades"], 2, 1)}, "ndcg"),
    "paired_test": (lambda s: {**s, "n": max(2, -(-s["n"] // 2))}, "p_t"),
    "pool": (lambda s: {**s, "rule": "condensed" if s["rule"] == "zero" else "zero"}, "change_out"),
}
"""Explorer -> (the state change its question makes, the result the question names)."""


@pytest.mark.parametrize("rel", [p for p in EXPLORER_PAGES if "/quiz_" not in p])
def test_predict_then_reveal(page, site_dir, rel):
    open_page(page, rel)
    asked = 0
    for root in explorer_roots(page):
        box = root.locator(".dcglab-predict")
        if box.count() == 0:
            continue
        asked += 1
        name = root.get_attribute("data-explorer")
        verdict = box.locator(".dcglab-predict-verdict")
        assert verdict.text_content() == "", f"{name}: the answer shows before a prediction"
        before = state_of(root)
        choices = box.locator("button")
        choices.nth(0).click()
        text = verdict.text_content()
        assert text.startswith(("✓ Right.", "✗ Not quite: ")), (name, text)
        # short: the mechanism and its numbers in at most 35 words; a value that did not
        # change "stays" (never "went from 3 to 3")
        assert len(text.split()) <= 35, (name, len(text.split()), text)
        assert not re.search(r"from (\S+) to \1(?!\.?\d)", text), (name, text)
        after = state_of(root)
        assert_matches_python(root)
        # the right answer agrees with dcglab: for up / down / the same, compare the
        # result the question names before and after
        if name in PREDICTED:
            change, key = PREDICTED[name]
            assert after == change(before), name
            a = REGISTRY[name].compute(before)[key]
            b = REGISTRY[name].compute(after)[key]
            right = "up" if b > a + 1e-12 else "down" if b < a - 1e-12 else "the same"
            assert (choices.nth(0).text_content() == right) == text.startswith("✓"), text
    assert asked > 0, f"{rel}: no explorer asks for a prediction"
    assert page.console_errors == []


def test_state_in_the_url(page, site_dir):
    want = {"grades": [0, 1, 2, 3, 3, 2], "k": 4}
    page.goto(page.base_url + NDCG_PAGE + "#dcglab.ndcg=" + quote(json.dumps(want)))
    page.wait_for_load_state("networkidle")
    root = [r for r in explorer_roots(page) if r.get_attribute("data-explorer") == "ndcg"][0]
    page.wait_for_function(
        "e => JSON.parse(e.getAttribute('data-state')).k === 4", arg=root.element_handle()
    )
    state = state_of(root)
    assert {p: state[p] for p in want} == want
    assert_matches_python(root)
    # the explorer's own link reproduces its state
    root.locator("button.dcglab-card").nth(0).focus()
    page.keyboard.press("Shift+ArrowRight")
    moved_state = state_of(root)
    href = root.locator("a.dcglab-link").get_attribute("href")
    page.goto(page.base_url + NDCG_PAGE + href)
    page.reload()
    page.wait_for_load_state("networkidle")
    root = [r for r in explorer_roots(page) if r.get_attribute("data-explorer") == "ndcg"][0]
    page.wait_for_function(
        "([e, s]) => e.getAttribute('data-state') === s",
        arg=[root.element_handle(), json.dumps(moved_state, separators=(",", ":"))],
    )
    assert page.console_errors == []


def test_malformed_url_state_is_ignored(page, site_dir):
    bad = quote(json.dumps({"grades": "3,2", "k": "four"}))
    page.goto(page.base_url + NDCG_PAGE + "#dcglab.ndcg=" + bad + "&dcglab.ndcg={broken")
    page.wait_for_load_state("networkidle")
    root = [r for r in explorer_roots(page) if r.get_attribute("data-explorer") == "ndcg"][0]
    state = state_of(root)
    assert state["grades"] == REGISTRY["ndcg"]().grades and state["k"] == REGISTRY["ndcg"]().k
    assert page.console_errors == []


def test_a_link_in_the_page_loads_its_state(page, site_dir):
    want = {"grades": [3, 0, 0, 2, 1, 0], "k": 2}
    root = ndcg_root(page)
    # a link like the ones the exercises carry, at the top of the page's text
    page.evaluate(
        """href => {
            const a = document.createElement("a");
            a.id = "test-load-link";
            a.href = href;
            a.textContent = "load this state";
            document.querySelector("article.bd-article h1").after(a);
        }""",
        "#dcglab.ndcg=" + quote(json.dumps(want)),
    )
    page.evaluate("window.scrollTo(0, 0)")
    page.locator("#test-load-link").click()
    page.wait_for_function(
        "e => JSON.parse(e.getAttribute('data-state')).k === 2", arg=root.element_handle()
    )
    state = state_of(root)
    assert {p: state[p] for p in want} == want
    assert root.locator(".dcglab-said").text_content() == "Loaded the state in the link."
    assert_matches_python(root)
    # the explorer is scrolled into view and has the focus
    page.wait_for_function(
        "e => { const y = e.getBoundingClientRect().top; return y >= 0 && y < innerHeight / 2; }",
        arg=root.element_handle(),
    )
    assert page.evaluate("document.activeElement.classList.contains('dcglab-explorer')")
    # the same link followed again, after a change, loads its state again
    root.locator("button.dcglab-card").nth(0).focus()
    page.keyboard.press("Shift+ArrowRight")
    assert state_of(root)["grades"] != want["grades"]
    page.locator("#test-load-link").click()
    page.wait_for_function(
        "([e, g]) => JSON.stringify(JSON.parse(e.getAttribute('data-state')).grades) === g",
        arg=[root.element_handle(), json.dumps(want["grades"], separators=(",", ":"))],
    )
    assert page.console_errors == []


LINKED_PAGES = [p for p in EXPLORER_PAGES if 'href="#dcglab.' in (SITE / p).read_text()]
"""Pages whose text links to a state of one of their explorers."""


@pytest.mark.parametrize("rel", LINKED_PAGES)
def test_every_link_in_the_text_loads_its_explorer(page, site_dir, rel):
    open_page(page, rel)
    roots = {r.get_attribute("data-explorer"): r for r in explorer_roots(page)}
    links = page.locator('a[href^="#dcglab."]:not(.dcglab-link)')
    for i in range(links.count()):
        href = links.nth(i).get_attribute("href")
        name, _, encoded = href[len("#dcglab.") :].partition("=")
        assert name in roots, f"{rel}: {href} names no explorer on its page"
        patch = json.loads(unquote(encoded))
        # a link inside a closed dropdown (an exercise's solution): open it as a reader would
        links.nth(i).evaluate(
            "a => { for (let d = a.closest('details'); d; d = d.parentElement.closest('details'))"
            " d.open = true; }"
        )
        link = links.nth(i)
        if not link.is_visible():  # a solution's toggle (sphinx-togglebutton)
            link.locator(
                "xpath=ancestor::div[contains(@class, 'dropdown')][1]"
                "/*[contains(@class, 'admonition-title')]"
            ).click()
        link.click()
        root = roots[name]
        page.wait_for_function(
            "([e, p]) => { const s = JSON.parse(e.getAttribute('data-state')); return Object"
            ".entries(p).every(([k, v]) => JSON.stringify(s[k]) === JSON.stringify(v)); }",
            arg=[root.element_handle(), patch],
        )
        assert_matches_python(root)
    assert page.console_errors == []


#: The leading columns of the tables whose lesson is a comparison, by explorer.
COMPARED_FIRST = {
    "ndcg": ["rank", "grade", "gain", "gain × discount", "ideal gain × discount"],
    "pool": ["run", "complete nDCG@", "pooled nDCG@", "change"],
}

TABLES_JS = """root => {
  root.querySelectorAll('details').forEach((d) => { d.open = true; });
  return new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(
    Array.from(root.querySelectorAll('.dcglab-scroll')).map((box) => {
      const b = box.getBoundingClientRect();
      return {
        overflows: box.scrollWidth > box.clientWidth + 1,
        marked: box.hasAttribute('data-overflow'),
        cue: getComputedStyle(box, '::before').content,
        heads: Array.from(box.querySelectorAll('thead th'), (th) => {
          const r = th.getBoundingClientRect();
          return [th.textContent, r.left >= b.left - 0.5 && r.right <= b.right + 0.5];
        }),
      };
    })))));
}"""


def test_tables_put_the_compared_columns_first_on_a_phone(browser, http_server, site_dir):
    seen = set()
    with new_page(browser, http_server, width=390, height=844) as page:
        for rel in EXPLORER_PAGES:
            open_page(page, rel)
            for root in explorer_roots(page):
                name = root.get_attribute("data-explorer")
                for box in root.evaluate(TABLES_JS):
                    assert box["marked"] == box["overflows"], (name, box)
                    if box["overflows"]:
                        assert "sideways" in box["cue"], (name, box["cue"])
                    assert box["heads"][0][1], f"{name}: the first column is out of view"
                    if name in COMPARED_FIRST:
                        want = COMPARED_FIRST[name]
                        heads = box["heads"][: len(want)]
                        assert [h.startswith(w) for (h, _), w in zip(heads, want)] == [True] * len(
                            want
                        ), (name, heads)
                        assert all(shown for _, shown in heads), (name, heads)
                        seen.add(name)
    assert seen == set(COMPARED_FIRST)


def test_a_reveal_never_describes_a_state_no_longer_shown(page, site_dir):
    """The verdict of a prediction goes as soon as the explorer shows another state; it
    stays reachable as one collapsed line labelled as being about an earlier state."""
    root = ndcg_root(page)
    verdict = root.locator(".dcglab-predict-verdict")
    root.locator(".dcglab-predict button").nth(0).click()
    said = verdict.text_content()
    assert said.startswith(("✓ Right.", "✗ Not quite: "))
    root.locator("button.dcglab-card").nth(0).focus()
    page.keyboard.press("0")  # rank 1 (grade 3 after the reveal's move) gets grade 0
    text = verdict.text_content()
    assert not text.startswith(("✓", "✗")), text
    assert verdict.get_attribute("data-verdict") == "stale"
    last = verdict.locator("details.dcglab-predict-last")
    assert last.get_attribute("open") is None
    summary = last.locator("summary")
    assert summary.text_content() == "Your last prediction (earlier state)"
    assert not last.locator("p").is_visible()
    summary.click()
    assert last.locator("p").text_content() == f"For that earlier state: {said}"
    # a choice pressed again answers again, about the state now shown
    root.locator(".dcglab-predict button").nth(1).click()
    assert verdict.text_content().startswith(("✓ Right.", "✗ Not quite: "))
    root.locator(".dcglab-presets button").last.click()  # a preset: another state
    assert not verdict.text_content().startswith(("✓", "✗"))
    assert page.console_errors == []


PREDICT_BAND_JS = """
box => {
  const kids = [...box.children].filter((e) => e.getClientRects().length);
  const last = Math.max(...kids.map((e) => e.getBoundingClientRect().bottom));
  return box.getBoundingClientRect().bottom - last;
}
"""


@pytest.mark.parametrize("width", [1280, 390])
def test_the_predict_box_has_no_empty_band_after_a_change(browser, http_server, site_dir, width):
    """After a verdict and a change of the explorer, the predict box is as tall as what it
    shows: no band kept from the longer verdict under its last line (chapters 2, 4, 5, 10)."""
    pages = ["02_discounting", "04_cutoffs", "05_gain_choice", "10_practice"]
    with new_page(browser, http_server, width=width, height=900) as page:
        for name in pages:
            open_page(page, f"chapters/{name}.html")
            root = explorer_roots(page)[0]
            box = root.locator(".dcglab-predict")
            if not box.locator(".dcglab-predict-choices").is_visible():
                box.locator(".dcglab-restart").click()
            box.locator(".dcglab-predict-choices button").first.click()
            tall = box.bounding_box()["height"]
            slider = root.locator("input[type=range]").first
            slider.focus()
            for key in ("ArrowRight", "ArrowLeft", "ArrowLeft"):
                page.keyboard.press(key)
            assert box.locator(".dcglab-predict-verdict").get_attribute("data-verdict") == "stale"
            assert box.bounding_box()["height"] < tall, name
            assert box.evaluate(PREDICT_BAND_JS) <= 6, (name, box.evaluate(PREDICT_BAND_JS))
        assert page.console_errors == []


GHOSTS_JS = """
root => [...root.querySelectorAll('.dcglab-ghost')].filter((g) => !g.hidden).map((g) => {
  const a = g.parentElement, r = a.getBoundingClientRect(), b = g.getBoundingClientRect();
  const top = a.classList.contains('dcglab-stack') ? r.bottom - 96 : r.top;
  return { where: a.className, top, bottom: r.bottom, ghost: [b.top, b.bottom] };
})
"""


@pytest.mark.parametrize("width", [1280, 390])
def test_ghosts_stay_inside_their_bar_area(browser, http_server, site_dir, width):
    """Chapter 4: every "before your last change" mark lies inside its bar or stack area
    (never over the grade labels or the strip above the totals) while k falls from 6 to 1
    and rises again."""
    with new_page(browser, http_server, width=width, height=900) as page:
        open_page(page, "chapters/04_cutoffs.html")
        root = explorer_roots(page)[0]
        slider = root.locator("input[type=range]").first
        slider.focus()
        page.keyboard.press("End")
        seen = 0
        for key in ["ArrowLeft"] * 5 + ["ArrowRight"] * 5:
            page.keyboard.press(key)
            for x in root.evaluate(GHOSTS_JS):
                seen += 1
                assert x["top"] - 1 <= x["ghost"][0] and x["ghost"][1] <= x["bottom"] + 1, (key, x)
        assert seen > 0
        assert page.console_errors == []


def test_a_choice_asks_about_the_state_shown_and_can_be_undone(page, site_dir):
    """A prediction never discards the reader's state unannounced. After the reader's own
    change the question is about the state shown and a choice makes its move there;
    "Back to your ranking" undoes that in one step. A state loaded from a link gets its
    own question too. Where the question does not fit (chapter 10's choosing k after a
    card moved), the choices wait behind a button that says it restarts the example."""
    root = ndcg_root(page)
    root.locator("button.dcglab-card").nth(2).focus()
    page.keyboard.press("1")
    mine = state_of(root)
    question = root.locator(".dcglab-predict-q").text_content()
    assert f"the grade-{mine['grades'][2]} document at rank 3" in question, question
    root.locator(".dcglab-predict-choices button").nth(0).click()
    assert state_of(root) == {**mine, "grades": moved(mine["grades"], 2, 1)}
    assert root.locator(".dcglab-predict-verdict").text_content().startswith(("✓", "✗"))
    assert_matches_python(root)
    back = root.locator("button.dcglab-back")
    assert back.text_content() == "Back to your ranking"
    back.click()
    assert state_of(root) == mine
    assert not back.is_visible()
    assert root.locator(".dcglab-predict-verdict").text_content() == ""
    # a state from a link: the question names its cutoff, a choice moves its cards
    loaded = {"grades": [2, 0, 3, 1, 0, 0], "k": 4}
    page.goto(
        page.base_url
        + "chapters/01_cumulative_gain.html#dcglab.cumulative_gain="
        + quote(json.dumps(loaded))
    )
    page.wait_for_load_state("networkidle")
    root = [
        r for r in explorer_roots(page) if r.get_attribute("data-explorer") == "cumulative_gain"
    ][0]
    page.wait_for_function(
        "e => JSON.parse(e.getAttribute('data-state')).k === 4", arg=root.element_handle()
    )
    assert "Does CG@4 go up" in root.locator(".dcglab-predict-q").text_content()
    root.locator(".dcglab-predict-choices button").nth(0).click()
    assert state_of(root) == {"grades": [3, 0, 2, 1, 0, 0], "k": 4}
    root.locator("button.dcglab-back").click()
    assert state_of(root) == loaded
    # chapter 10: the question is the worked example's; a button restarts it, with an undo
    open_page(page, "chapters/10_practice.html")
    root = [r for r in explorer_roots(page) if r.get_attribute("data-explorer") == "choose_k"][0]
    start = state_of(root)
    root.locator("button.dcglab-card").nth(0).focus()
    page.keyboard.press("Shift+ArrowRight")
    mine = state_of(root)
    assert not root.locator(".dcglab-predict-choices").is_visible()
    restart = root.locator("button.dcglab-restart")
    assert "restarts the example" in restart.text_content()
    restart.click()
    assert state_of(root) == start
    root.locator(".dcglab-predict-choices button").nth(0).click()
    assert root.locator(".dcglab-predict-verdict").text_content().startswith(("✓", "✗"))
    root.locator("button.dcglab-back").click()
    assert state_of(root) == mine
    assert page.console_errors == []


QUIZ_PAGE = "chapters/quiz_1_building.html"


def test_a_quiz_link_lands_on_the_explorer_in_its_state(page, site_dir):
    """ "Load into the explorer" on a quiz opens the chapter scrolled to the explorer, in
    the state the link names, with the explorer focused."""
    open_page(page, QUIZ_PAGE)
    page.get_by_role("button", name="Show answer to question 1", exact=True).click()
    link = page.locator("a", has_text="Load into the explorer").first
    href = link.get_attribute("href")
    target, _, fragment = href.partition("#")
    name, _, encoded = fragment[len("dcglab.") :].partition("=")
    want = json.loads(unquote(encoded))
    link.click()
    page.wait_for_load_state("networkidle")
    root = [r for r in explorer_roots(page) if r.get_attribute("data-explorer") == name][0]
    page.wait_for_function(
        "([e, p]) => { const s = JSON.parse(e.getAttribute('data-state')); return Object"
        ".entries(p).every(([k, v]) => JSON.stringify(s[k]) === JSON.stringify(v)); }",
        arg=[root.element_handle(), want],
    )
    page.wait_for_timeout(3000)  # the page settles (MathJax, other widgets)
    top = root.evaluate("e => e.getBoundingClientRect().top")
    assert 0 <= top < page.viewport_size["height"] / 2, top
    assert page.evaluate("document.activeElement.classList.contains('dcglab-explorer')")
    assert_matches_python(root)
    assert page.console_errors == []


PAIRED_PAGE = "chapters/11_comparing_systems.html"


def test_paired_test_bars_are_dragged_and_moved_by_keys(page, site_dir):
    """Chapter 11: each query's bar is a slider that the keyboard moves and the pointer
    drags; the randomization chart's red share is the p-value shown."""
    open_page(page, PAIRED_PAGE)
    root = [r for r in explorer_roots(page) if r.get_attribute("data-explorer") == "paired_test"][0]
    start = state_of(root)
    bars = root.locator(".dcglab-drag")
    assert bars.count() == start["n"]
    assert bars.nth(3).get_attribute("role") == "slider"
    bars.nth(3).focus()
    page.keyboard.press("ArrowUp")
    want = list(start["deltas"])
    want[3] += 1
    assert state_of(root)["deltas"] == want
    assert root.locator(".dcglab-said").text_content() == f"Query 4: A − B = +{want[3] / 100:.3f}."
    page.keyboard.press("PageDown")
    want[3] -= 10
    assert state_of(root)["deltas"] == want
    assert bars.nth(3).get_attribute("aria-valuenow") == str(want[3] / 100)
    # a drag to the top of query 1's column sets its largest difference
    bars.nth(0).scroll_into_view_if_needed()
    box = bars.nth(0).bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + 20, steps=4)
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] - 40, steps=2)
    page.mouse.up()
    want[0] = 50
    assert state_of(root)["deltas"] == want
    assert_matches_python(root)
    # p as an area: the red bars' share of all bars is the randomization p-value
    result = json.loads(root.get_attribute("data-result"))
    share = root.evaluate(
        """r => { const sum = (c) => Array.from(r.querySelectorAll(c),
                    (e) => Number(e.getAttribute('height'))).reduce((a, b) => a + b, 0);
                  return sum('rect.dcglab-far') / sum('rect.dcglab-all'); }"""
    )
    assert share == pytest.approx(result["p_rand"], abs=1e-9)
    assert page.console_errors == []


RANDOMIZATION_DOTS_JS = """
r => ({ all: r.querySelectorAll('circle.dcglab-all').length,
        far: r.querySelectorAll('circle.dcglab-far').length,
        bars: r.querySelectorAll('rect.dcglab-all').length })
"""


def test_randomization_draws_one_dot_per_sign_pattern_when_few(page, site_dir):
    """Chapter 11: with n queries there are 2^n sign patterns; up to 64 (n <= 6) the
    randomization chart draws one dot for each, and the red dots' share is the p-value;
    above 64 it draws bars."""
    open_page(page, PAIRED_PAGE)
    root = [r for r in explorer_roots(page) if r.get_attribute("data-explorer") == "paired_test"][0]
    slider = root.locator("input[type=range]").first
    slider.focus()
    page.keyboard.press("Home")
    for n in range(2, 9):
        page.wait_for_function(
            "([e, n]) => JSON.parse(e.getAttribute('data-state')).n === n",
            arg=[root.element_handle(), n],
        )
        marks = root.evaluate(RANDOMIZATION_DOTS_JS)
        p_rand = json.loads(root.get_attribute("data-result"))["p_rand"]
        if 2**n <= 64:
            assert marks["bars"] == 0 and marks["all"] + marks["far"] == 2**n, (n, marks)
            assert marks["far"] / 2**n == pytest.approx(p_rand, abs=1e-12), (n, marks)
        else:
            assert marks["all"] + marks["far"] == 0 and marks["bars"] > 0, (n, marks)
        page.keyboard.press("ArrowRight")
    assert page.console_errors == []


BAR_LABELS_JS = """
root => Array.from(root.querySelectorAll("text.dcglab-bar-value"), (t) => {
  const b = t.getBoundingClientRect();
  return { query: Number(t.dataset.query), text: t.textContent,
           box: [b.left, b.top, b.right, b.bottom] };
})
"""


BAR_BODIES_JS = """
root => Array.from(root.querySelectorAll("rect.dcglab-bar-body"), (r) => {
  const b = r.getBoundingClientRect();
  return { query: Number(r.dataset.query), box: [b.left, b.top, b.right, b.bottom] };
})
"""


@pytest.mark.parametrize("width", [1280, 390])
def test_paired_test_labels_every_bar_without_overlap(browser, http_server, site_dir, width):
    """Chapter 11: every query's bar carries its value, no two value labels overlap, and
    the bar just moved keeps its label beside its end. Checked on the example and on
    states where neighbours sit at about the same height."""

    def check(root, deltas, edited=None):
        # labels and bars measured in one step (the page may be scrolling)
        labels, bodies = root.evaluate(f"r => [({BAR_LABELS_JS})(r), ({BAR_BODIES_JS})(r)]")
        n = state_of(root)["n"]
        assert sorted(x["query"] for x in labels) == list(range(n)), labels
        for x in labels:
            v = deltas[x["query"]] / 100
            assert x["text"] == ("+" if v > 0 else "−" if v < 0 else "") + f"{abs(v):.3f}", x
        for i, a in enumerate(labels):
            for b in labels[i + 1 :]:
                (a0, a1, a2, a3), (b0, b1, b2, b3) = a["box"], b["box"]
                assert not (a0 < b2 and b0 < a2 and a1 < b3 and b1 < a3), (width, a, b)
        # nor does a label touch another query's bar (but the bar edited last keeps its
        # label by its end)
        for a in labels:
            if a["query"] == edited:
                continue
            for b in bodies:
                if b["query"] != a["query"]:
                    (a0, a1, a2, a3), (b0, b1, b2, b3) = a["box"], b["box"]
                    assert not (a0 < b2 and b0 < a2 and a1 < b3 and b1 < a3), (width, a, b)

    with new_page(browser, http_server, width=width, height=900) as page:
        open_page(page, PAIRED_PAGE)
        roots = explorer_roots(page)
        root = [r for r in roots if r.get_attribute("data-explorer") == "paired_test"][0]
        start = state_of(root)
        check(root, start["deltas"])
        # the last state's neighbours sit at about the same height as the bar moved below
        states = (
            [12, 5, -8, -10, 3, 9, -4, 15],
            [50, 49, 50, -50, -49, -50, 0, 1],
            [3, 5, 4, 3, 5, 4, 3, 5],
        )
        for deltas in states:
            page.evaluate(
                "s => { location.hash = 'dcglab.paired_test='"
                " + encodeURIComponent(JSON.stringify(s)); }",
                {"deltas": deltas, "n": len(deltas)},
            )
            page.wait_for_function(
                "([e, d]) => JSON.stringify(JSON.parse(e.getAttribute('data-state')).deltas)"
                " === JSON.stringify(d)",
                arg=[root.element_handle(), deltas],
            )
            check(root, deltas)
        # the bar moved last keeps its label right above its end, whatever its neighbours
        bars = root.locator(".dcglab-drag")
        bars.nth(1).focus()
        page.keyboard.press("ArrowUp")
        deltas = state_of(root)["deltas"]
        # the labels are drawn for the new value before they are measured
        page.wait_for_function(
            "([e, t]) => e.querySelector('text.dcglab-bar-value[data-query=\"1\"]')"
            ".textContent === t",
            arg=[root.element_handle(), f"+{deltas[1] / 100:.3f}"],
        )
        check(root, deltas, edited=1)
        # the label and the handle measured in one step (the page may be scrolling)
        handle, bottom = bars.nth(1).evaluate(
            "(e, v) => { const svg = e.ownerSVGElement, b = svg.getBoundingClientRect();"
            " const vb = svg.viewBox.baseVal;"
            " const t = svg.querySelector('text.dcglab-bar-value[data-query=\"1\"]');"
            " return [b.top + (b.height / vb.height)"
            " * (24 + ((50 - v) / 100) * (vb.height - 24 - 34)),"
            " t.getBoundingClientRect().bottom]; }",
            deltas[1],
        )
        assert 0 <= handle - bottom <= 12, (handle, bottom)
        assert page.console_errors == []


CARD_TEXT_JS = """
root => [...root.querySelectorAll('.dcglab-card-grade, .dcglab-card-rank')].map((e) => {
  const r = document.createRange();
  r.selectNodeContents(e);
  const b = r.getBoundingClientRect();
  return { text: e.textContent, box: [b.left, b.top, b.right, b.bottom] };
}).filter((x) => x.box[2] > x.box[0])
"""


@pytest.mark.parametrize("width", [1280, 390])
def test_gain_labels_under_the_cards_never_overlap(browser, http_server, site_dir, width):
    """Chapter 5: the grade and gain labels under the cards (text boxes, not the boxes of
    their cards) do not overlap at the extreme states: nine documents, top grades, and gain
    bases from 1.1 to 10 (labels up to 999 and 969)."""
    with new_page(browser, http_server, width=width, height=900) as page:
        open_page(page, "chapters/05_gain_choice.html")
        root = [
            r for r in explorer_roots(page) if r.get_attribute("data-explorer") == "gain_reversals"
        ][0]
        start = state_of(root)
        for a in (1.1, 1.5, 2, 3.9, 9.9, 10):
            for grades in (start["grades"], [3, 2, 3, 1, 3, 2, 3, 0, 3]):
                want = dict(start, n=9, k=9, a=a, grades=grades)
                page.evaluate(
                    "s => { location.hash = 'dcglab.gain_reversals='"
                    " + encodeURIComponent(JSON.stringify(s)); }",
                    want,
                )
                page.wait_for_function(
                    "([e, s]) => JSON.stringify(JSON.parse(e.getAttribute('data-state')))"
                    " === JSON.stringify(s)",
                    arg=[root.element_handle(), want],
                )
                page.evaluate(
                    "() => new Promise((r) =>"
                    " requestAnimationFrame(() => requestAnimationFrame(r)))"
                )
                boxes = root.evaluate(CARD_TEXT_JS)
                assert len(boxes) >= 4 * 9 * 2, (a, len(boxes))
                assert a < 9 or any(x["text"].endswith(("999", "969")) for x in boxes), boxes
                for i, x in enumerate(boxes):
                    for y in boxes[i + 1 :]:
                        (a0, a1, a2, a3), (b0, b1, b2, b3) = x["box"], y["box"]
                        assert not (
                            a0 < b2 - 0.5 and b0 < a2 - 0.5 and a1 < b3 - 0.5 and b1 < a3 - 0.5
                        ), (
                            width,
                            a,
                            x,
                            y,
                        )
        assert page.console_errors == []


def test_graded_binary_prediction_names_both_preferences(page, site_dir):
    """Chapter 8: each choice commits to AP's preferred ranking and to nDCG's, and the
    verdict judges the pair against dcglab's AP and nDCG."""
    open_page(page, "chapters/08_graded_binary.html")
    roots = explorer_roots(page)
    root = [r for r in roots if r.get_attribute("data-explorer") == "graded_binary"][0]
    box = root.locator(".dcglab-predict")
    choices = box.locator(".dcglab-predict-choices button")
    names = [choices.nth(i).text_content() for i in range(choices.count())]
    pairs = [f"AP {a}, nDCG {b}" for a in "UV" for b in "UV"]
    assert names == [*pairs, "a tie in either"], names
    state = state_of(root)
    result = REGISTRY["graded_binary"].compute(state)

    def pick(a, b):
        return "U" if a > b + 1e-12 else "V" if b > a + 1e-12 else "tie"

    ap = pick(result["ap_first"], result["ap_second"])
    nd = pick(result["ndcg_linear_first"] or 0, result["ndcg_linear_second"] or 0)
    right = "a tie in either" if "tie" in (ap, nd) else f"AP {ap}, nDCG {nd}"
    for name in names:
        choices.nth(names.index(name)).click()
        assert box.get_attribute("data-answered") == name
        text = box.locator(".dcglab-predict-verdict").text_content()
        want = "✓ Right." if name == right else f"✗ Not quite: {right}."
        assert text.startswith(want), (name, text)
    assert page.console_errors == []


def test_a_weight_above_1_shows_on_the_bars(page, site_dir):
    """Chapter 6: at b = 10 the first weights exceed 1; those bars are marked and their
    part above the gain is drawn, and the key names it. At b = 2 nothing is."""
    rel = "chapters/06_log_base.html"
    for base, over in ((10, True), (2, False)):
        patch = {"base": base, "k": 3}
        page.goto(page.base_url + rel + "#dcglab.log_base=" + quote(json.dumps(patch)))
        page.wait_for_load_state("networkidle")
        root = next(
            r for r in explorer_roots(page) if r.get_attribute("data-explorer") == "log_base"
        )
        page.wait_for_function(
            "([e, b]) => JSON.parse(e.getAttribute('data-state')).base === b",
            arg=[root.element_handle(), base],
        )
        marked = root.evaluate(
            """r => Array.from(r.querySelectorAll('.dcglab-card.dcglab-over'),
                  (c) => c.querySelector('.dcglab-extra').getBoundingClientRect().height)"""
        )
        key = root.locator(".dcglab-key").text_content()
        if over:
            assert marked and min(marked) > 0, marked
            assert "added by a weight above 1" in key
        else:
            assert marked == [] and "weight above 1" not in key
    assert page.console_errors == []


def test_cranfield_scatter_counts_every_query(page, site_dir):
    """Chapter 13: queries at one place are one circle that says how many; the counts
    add up to the number of queries, at k = 1 as at k = 10."""
    open_page(page, "chapters/13_cranfield.html")
    root = [r for r in explorer_roots(page) if r.get_attribute("data-explorer") == "cranfield"][0]
    queries = root.evaluate("r => JSON.parse(r.getAttribute('data-state')).data.judged.length")
    for k in (10, 1):
        root.locator('input[data-param="k"]').evaluate(
            "(e, v) => { e.value = String(v);"
            " e.dispatchEvent(new Event('input', {bubbles: true})); }",
            k,
        )
        counts = root.evaluate(
            """r => Array.from(r.querySelectorAll('svg circle title'), (t) => {
                  const m = /^(\\d+) queries/.exec(t.textContent);
                  return m ? Number(m[1]) : 1; })"""
        )
        assert sum(counts) == queries, (k, sum(counts), queries)
        if k == 1:
            assert len(counts) < 40 and max(counts) > 20, counts
    assert page.console_errors == []


#: The first scatter's circles ({x, y, r, out: r and half a ring's stroke} in px), its
#: square's label boxes, and whether the square (a dashed polyline) comes after every
#: circle in the drawing.
SCATTER_JS = r"""svg => {
  // a ring's outer edge: its radius and half its stroke
  const circles = Array.from(svg.querySelectorAll('circle'), (c) => {
    const style = c.getAttribute('style') || '';
    const width = +(style.match(/stroke-width: ([\d.]+)/) || [0, 0])[1];
    const r = +c.getAttribute('r'), ring = /fill: none/.test(style) ? width / 2 : 0;
    return { x: +c.getAttribute('cx'), y: +c.getAttribute('cy'), r, out: r + ring };
  });
  const labels = Array.from(svg.querySelectorAll('.dcglab-chart-label'), (t) => {
    const b = t.getBBox();
    return { text: t.textContent, box: [b.x, b.y, b.x + b.width, b.y + b.height] };
  });
  const all = Array.from(svg.querySelectorAll('*'));
  const square = all.filter((e) => e.tagName === 'polyline'
    && /dasharray: 3,2/.test(e.getAttribute('style')));
  const lastCircle = Math.max(...all.map((e, i) => (e.tagName === 'circle' ? i : -1)));
  const onTop = square.length > 0 && square.every((e) => all.indexOf(e) > lastCircle);
  return { circles, labels, squareOnTop: onTop };
}"""


@pytest.mark.parametrize(("width", "mode"), [(1280, "light"), (390, "dark")])
def test_cranfield_circles_keep_clear_of_each_other_and_the_centre(
    browser, http_server, site_dir, width, mode
):
    """Chapter 13 at k = 10 and k = 1: in both scatters at least 2 px of background show
    between any two circles' rings; in the first, the dashed centre square is drawn over the
    circles, and inside it the number of its queries (the second scatter's queries) is
    written where no circle reaches."""
    with new_page(browser, http_server, width=width, height=900, mode=mode) as page:
        open_page(page, "chapters/13_cranfield.html")
        root = [r for r in explorer_roots(page) if r.get_attribute("data-explorer") == "cranfield"][
            0
        ]
        for k in (10, 1):
            root.locator('input[data-param="k"]').evaluate(
                "(e, v) => { e.value = String(v);"
                " e.dispatchEvent(new Event('input', {bubbles: true})); }",
                k,
            )
            charts = root.locator("svg.dcglab-chart")
            first, centre = charts.nth(2).evaluate(SCATTER_JS), charts.nth(3).evaluate(SCATTER_JS)
            for scatter in (first, centre):
                dots = scatter["circles"]
                for i, a in enumerate(dots):
                    for b in dots[i + 1 :]:
                        gap = math.hypot(a["x"] - b["x"], a["y"] - b["y"]) - a["out"] - b["out"]
                        assert gap >= 2 - 0.01, (k, a, b)
            assert first["squareOnTop"], k
            inside = sum(
                int(n)
                for n in re.findall(
                    r"\((\d+) queries\)", charts.nth(3).locator("xpath=..").inner_text()
                )
            )
            assert [x["text"] for x in first["labels"]] == [str(inside), "queries"], first
            for label in first["labels"]:
                x0, y0, x1, y1 = label["box"]
                for c in first["circles"]:
                    nx, ny = min(max(c["x"], x0), x1), min(max(c["y"], y0), y1)
                    assert math.hypot(c["x"] - nx, c["y"] - ny) >= c["r"], (k, label, c)
        assert page.console_errors == []


def test_a_percent_axis_keeps_whole_ticks_when_nothing_reverses(page, site_dir):
    """Chapter 5: where no pair of orderings reverses at any a, the percent axis keeps
    whole-number ticks (0 to 10, not 0.00 to 1.00) and the chart says so."""
    open_page(page, "chapters/05_gain_choice.html")
    root = [
        r for r in explorer_roots(page) if r.get_attribute("data-explorer") == "gain_reversals"
    ][0]
    start = state_of(root)
    grades = [3, 3, 3, 3, 3, 2, 2, 3] + start["grades"][8:]
    want = dict(start, grades=grades, n=8, a=4.2)
    page.evaluate(
        "s => { location.hash = 'dcglab.gain_reversals='"
        " + encodeURIComponent(JSON.stringify(s)); }",
        want,
    )
    chart = root.locator("svg.dcglab-chart").last
    # the curve is counted while the page is idle; the note comes once it is whole
    chart.locator("text", has_text="no reversals at any a").wait_for()
    assert json.loads(root.get_attribute("data-result"))["reversed"] == 0
    ticks = chart.evaluate(
        "s => Array.from(s.querySelectorAll('text[text-anchor=end]'), (t) => t.textContent)"
    )
    assert ticks and all(re.fullmatch(r"\d+", t) for t in ticks), ticks
    assert int(ticks[-1]) >= 5, ticks
    assert page.console_errors == []


@pytest.mark.parametrize("width", [1280, 390])
def test_uneven_x_ticks_keep_apart(browser, http_server, site_dir, width):
    """Chapter 2 with 22 ranks, rank 12 inspected: the ticks 1, 5, 10, 12, 20, 22 are
    unevenly spaced, so no two labels written are closer than a tenth of the axis (20
    would crowd 22, 10 would crowd 12 on a phone); the ends and the inspected rank stay."""
    with new_page(browser, http_server, width=width, height=900) as page:
        open_page(page, "chapters/02_discounting.html")
        root = [r for r in explorer_roots(page) if r.get_attribute("data-explorer") == "discounts"][
            0
        ]
        want = dict(state_of(root), n=22, rank=12)
        page.evaluate(
            "s => { location.hash = 'dcglab.discounts=' + encodeURIComponent(JSON.stringify(s)); }",
            want,
        )
        page.wait_for_function(
            "e => JSON.parse(e.getAttribute('data-state')).n === 22", arg=root.element_handle()
        )
        labels = root.locator("svg.dcglab-chart").first.evaluate(
            r"""s => { const axis = s.querySelectorAll('line.dcglab-axis')[0];
                  const [a, b] = [+axis.getAttribute('x1'), +axis.getAttribute('x2')];
                  return { axis: b - a, ticks: Array.from(s.querySelectorAll('text'))
                    .filter((t) => /^\d+$/.test(t.textContent)
                      && t.getAttribute('text-anchor') === 'middle')
                    .map((t) => [Number(t.textContent), +t.getAttribute('x')]) }; }"""
        )
        ticks = sorted(labels["ticks"])
        assert {1, 12, 22} <= {t for t, _ in ticks}, ticks
        for (_, a), (_, b) in zip(ticks, ticks[1:]):
            assert b - a >= 0.1 * labels["axis"] - 0.01, (width, ticks, labels["axis"])
        assert page.console_errors == []


#: For each editable strip of an explorer, how many of its cards are in the tab order.
TAB_ORDER_JS = """root => Array.from(
  root.querySelectorAll('.dcglab-strip.dcglab-editable'),
  (strip) => Array.from(strip.querySelectorAll('button.dcglab-card'))
    .filter((c) => c.tabIndex >= 0).length)"""


@pytest.mark.parametrize("rel", EXPLORER_PAGES)
def test_one_tab_stop_per_strip(page, site_dir, rel):
    open_page(page, rel)
    for root in explorer_roots(page):
        stops = root.evaluate(TAB_ORDER_JS)
        assert all(n == 1 for n in stops), (root.get_attribute("data-explorer"), stops)
    assert page.console_errors == []


def test_arrows_go_from_card_to_card_and_tab_leaves_the_strip(page, site_dir):
    root = ndcg_root(page)
    start = state_of(root)
    cards = root.locator(".dcglab-strip.dcglab-editable").first.locator("button.dcglab-card")
    focused = "c => c === document.activeElement"
    cards.nth(0).focus()
    for key, at in (
        ("ArrowRight", 1),
        ("ArrowRight", 2),
        ("End", cards.count() - 1),
        ("Home", 0),
        ("ArrowLeft", 0),
    ):
        page.keyboard.press(key)
        assert cards.nth(at).evaluate(focused), (key, at)
    assert state_of(root) == start  # moving the focus changes nothing
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Tab")
    assert page.evaluate(
        "() => !document.activeElement.closest('.dcglab-strip.dcglab-editable')"
    ), "Tab stayed in the strip"
    page.keyboard.press("Shift+Tab")  # back to the card last focused, the only stop
    assert cards.nth(1).evaluate(focused)
    page.keyboard.press("Shift+ArrowRight")
    assert state_of(root)["grades"] == moved(start["grades"], 1, 2)
    assert cards.nth(2).evaluate(focused), "the focus left the moved card"
    assert page.console_errors == []


def test_choose_k_systems_are_reordered_and_all_rules_drawn(page, site_dir):
    open_page(page, "chapters/10_practice.html")
    root = next(r for r in explorer_roots(page) if r.get_attribute("data-explorer") == "choose_k")
    start = state_of(root)
    strips = root.locator(".dcglab-strip.dcglab-editable")
    assert strips.count() == 2
    # B's first card of query 1 moves down one rank; a digit does not change a grade
    strips.nth(1).locator("button.dcglab-card").nth(0).focus()
    page.keyboard.press("Shift+ArrowRight")
    now = state_of(root)
    assert now["system_b"][0] == moved(start["system_b"][0], 0, 1)
    assert now["system_b"][1:] == start["system_b"][1:] and now["system_a"] == start["system_a"]
    page.keyboard.press("3")
    assert state_of(root) == now
    assert_matches_python(root)
    # another query: its two rankings are the strips, and a move changes that query only
    root.locator('input[data-param="query"]').evaluate(
        "e => { e.value = '2'; e.dispatchEvent(new Event('input', {bubbles: true})); }"
    )
    grades = strips.nth(0).locator(".dcglab-card-grade").all_text_contents()
    assert [int(g) for g in grades] == start["system_a"][1]
    # other documents, not a change of these: no "before your last change" ghost
    ghosts = root.evaluate(
        "r => Array.from(r.querySelectorAll('.dcglab-ghost')).filter((g) => !g.hidden).length"
    )
    assert ghosts == 0, ghosts
    strips.nth(0).locator("button.dcglab-card").nth(0).focus()
    page.keyboard.press("Shift+End")
    after = state_of(root)
    assert after["system_a"][1] == moved(start["system_a"][1], 0, 5)
    assert after["system_a"][0] == start["system_a"][0]
    assert_matches_python(root)
    # two systems under three rules: six lines, the chosen rule's two drawn bold
    widths = root.evaluate(
        """r => Array.from(r.querySelectorAll('svg polyline'),
                           (l) => parseFloat(l.style.strokeWidth))"""
    )
    assert len(widths) == 6 and sorted(widths)[-2:] == [3, 3], widths
    assert page.console_errors == []


def test_choose_k_table_fits_a_phone(browser, http_server, site_dir):
    with new_page(browser, http_server, width=390, height=844) as phone:
        open_page(phone, "chapters/10_practice.html")
        root = next(
            r for r in explorer_roots(phone) if r.get_attribute("data-explorer") == "choose_k"
        )
        box = root.locator(".dcglab-output .dcglab-table").evaluate(
            "t => [t.scrollWidth, t.parentElement.clientWidth]"
        )
        assert box[0] <= box[1], f"the table needs {box[0]} px in a {box[1]} px box"


def test_tip_dots_that_would_overlap_sit_side_by_side(browser, http_server, site_dir):
    """Chapter 2 at rank 10 (base 2, relative weights): 1/log2(11) = 0.289 and
    Järvelin–Kekäläinen's 1/log2(10) = 0.301 are 2 px apart on the chart, so their tip dots
    sit side by side: no dot covers another, at the inspected rank and while pointing."""
    with new_page(browser, http_server, width=1280, height=900) as page:
        open_page(page, "chapters/02_discounting.html")
        root = [r for r in explorer_roots(page) if r.get_attribute("data-explorer") == "discounts"][
            0
        ]
        want = dict(state_of(root), base=2, rank=10, n=max(10, state_of(root)["n"]))
        want["view"] = "relative to rank 1"
        page.evaluate(
            "s => { location.hash = 'dcglab.discounts=' + encodeURIComponent(JSON.stringify(s)); }",
            want,
        )
        page.wait_for_function(
            "e => JSON.parse(e.getAttribute('data-state')).rank === 10", arg=root.element_handle()
        )
        svg = root.locator("svg.dcglab-chart").first
        dots_js = """s => Array.from(s.querySelectorAll('.dcglab-tip-dots circle'))
          .filter((c) => c.getAttribute('visibility') !== 'hidden')
          .map((c) => [+c.getAttribute('cx'), +c.getAttribute('cy'), +c.getAttribute('r')])"""

        def assert_apart(dots):
            assert len(dots) == 4, dots
            for i, (x, y, r) in enumerate(dots):
                for u, v, q in dots[i + 1 :]:
                    assert math.hypot(x - u, y - v) >= r + q - 0.01, dots

        assert_apart(svg.evaluate(dots_js))
        # pointing at rank 10 writes the dots in place (the same rule)
        guide = svg.locator(".dcglab-chart-tip line").first
        box, view = svg.bounding_box(), svg.evaluate("s => s.viewBox.baseVal.width")
        x = box["x"] + float(guide.get_attribute("x1")) * box["width"] / view
        svg.locator(".dcglab-chart-pick").dispatch_event(
            "pointermove", {"clientX": x, "clientY": box["y"] + box["height"] / 2}
        )
        assert svg.locator(".dcglab-chart-tip").get_attribute("data-x") == "10"
        assert_apart(svg.evaluate(dots_js))
        assert page.console_errors == []


#: What of chapter 8's readouts shows (is wider than a clipped 1 px) and on screen.
DOCK_JS = """root => {
  const live = root.querySelector(':scope > .dcglab-readouts');
  return { dock: parseFloat(getComputedStyle(root).getPropertyValue('--dcglab-dock-h')),
           shown: Array.from(live.querySelectorAll('.dcglab-readout')).filter((e) => {
             const b = e.getBoundingClientRect();
             return b.width > 2 && b.top >= 0 && b.bottom <= innerHeight;
           }).map((e) => e.innerText) };
}"""


def test_graded_binary_docks_its_numbers_on_a_phone(browser, http_server, site_dir):
    """Chapter 8 on a phone: its table is under the dock, so the dock itself shows nDCG@k
    (linear) of U and V, as Python computes them, for every k the slider sets (AP too),
    and stays within a third of the screen."""
    with new_page(browser, http_server, width=390, height=844) as page:
        open_page(page, "chapters/08_graded_binary.html")
        root = [
            r for r in explorer_roots(page) if r.get_attribute("data-explorer") == "graded_binary"
        ][0]
        slider = root.locator('input[data-param="k"]')
        slider.scroll_into_view_if_needed()
        seen = set()
        for k in range(1, len(state_of(root)["first"]) + 1):
            slider.evaluate(
                "(e, v) => { e.value = String(v);"
                " e.dispatchEvent(new Event('input', {bubbles: true})); }",
                k,
            )
            page.wait_for_function(
                "([e, k]) => JSON.parse(e.getAttribute('data-state')).k === k",
                arg=[root.element_handle(), k],
            )
            want = REGISTRY["graded_binary"].compute(state_of(root))
            got = root.evaluate(DOCK_JS)
            assert got["dock"] <= 844 / 3, got
            line = " ".join(got["shown"])
            for key, name in (("ndcg_linear_first", f"nDCG@{k} lin U"), ("ap_first", "AP U")):
                value = want[key]
                text = "undefined" if value is None else f"{value:.3f}"
                assert f"{name} {text}" in line, (k, line)
            assert f"lin V {want['ndcg_linear_second']:.3f}" in line, (k, line)
            seen.add(line)
        assert len(seen) > 1, seen
        assert page.console_errors == []


def test_pool_table_fits_a_phone(browser, http_server, site_dir):
    """Chapter 12 at 390 px: the table of runs fits without scrolling sideways, and a
    run's name breaks only between its words."""
    with new_page(browser, http_server, width=390, height=844) as page:
        open_page(page, "chapters/12_incomplete_judgments.html")
        root = [r for r in explorer_roots(page) if r.get_attribute("data-explorer") == "pool"][0]
        box = root.locator(".dcglab-scroll").first
        box.scroll_into_view_if_needed()
        got = box.evaluate(
            """b => ({ sw: b.scrollWidth, cw: b.clientWidth,
                 names: Array.from(b.querySelectorAll('tbody td:first-child'), (td) => {
                   const r = document.createRange(); r.selectNodeContents(td);
                   return [td.textContent, new Set(Array.from(r.getClientRects(),
                     (x) => Math.round(x.top))).size]; }) })"""
        )
        assert got["sw"] <= got["cw"] + 1, got
        for name, lines in got["names"]:
            assert lines <= len(name.split(" ")), got
        assert page.console_errors == []
