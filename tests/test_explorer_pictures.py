"""The explorers' pictures show what their text says, on the built site.

* Chapter 4: the bracket at the highlighted k on the DCG chart has the outline of
  IDCG@k and the filled part of DCG@k, so its filled share is nDCG@k; the nDCG chart
  rings the dot at the same k in the same colour, and no two legend entries of a chart
  share a swatch. Moving k moves both.
* Chapter 7: the three ideals (from the retrieved documents, from every judged document
  cut at k, uncut) are three strips with the missed documents marked in the two judged
  ones; the missed documents are cards added and removed by two buttons (one slider
  only, k), and adding or removing one never moves the k slider; Reset sits on the
  title's row on a wide screen. At 1280 px and at 390 px.
* Chapter 9: "Pin this state" keeps the per-rank contributions of a state, drawn as
  outlined bars beside the current ones on the same axis (each state's bars add up to
  its score, AP and RR included), with the change of each measure since the pin.
* Chapter 10 swaps: dashed lines after row k and column k, as in the chapter's figure;
  pointing at or focusing a cell shows (g_j - g_i)(d(i) - d(j)) / IDCG@k with its
  numbers, which this test computes from the definitions.
* Grade sliders (chapters 1 and 8) show tick marks (a datalist) and the labels 0 1 2 3
  under the thumb positions.
* Details on demand: a rank-strip card's numbers show in the details line under the
  strips (over no text) on hover and keyboard focus;
  the chapter 2 chart shows the four weights of the inspected rank, of the rank pointed
  at while the pointer moves (the state unchanged), and a click inspects that rank.
"""

from __future__ import annotations

import json
import math

import pytest
from sitekit import explorer_roots, new_page, open_page, python_mismatches

from dcglab.book.explorers import REGISTRY


def root_named(page, rel: str, name: str):
    open_page(page, rel)
    roots = [r for r in explorer_roots(page) if r.get_attribute("data-explorer") == name]
    assert len(roots) == 1, f"{rel}: {len(roots)} explorers named {name}"
    return roots[0]


def shown(root) -> tuple[dict, dict]:
    """The explorer's state and results, checked against dcglab."""
    state = json.loads(root.get_attribute("data-state"))
    result = json.loads(root.get_attribute("data-result"))
    assert python_mismatches(root.get_attribute("data-explorer"), state, result) == []
    return state, result


RATIO_JS = """
root => {
  const [left, right] = root.querySelectorAll("figure.dcglab-figure");
  const whole = left.querySelector("rect.dcglab-ratio-whole");
  const part = left.querySelector("rect.dcglab-ratio-part");
  const ring = right.querySelector("circle.dcglab-focus");
  const ticks = (fig) => Array.from(fig.querySelectorAll("svg > text"))
    .filter((t) => /^\\d+$/.test(t.textContent) && t.getAttribute("text-anchor") === "middle")
    .map((t) => [Number(t.textContent), Number(t.getAttribute("x"))]);
  const swatches = (fig) => Array.from(fig.querySelectorAll(".dcglab-legend .dcglab-swatch"))
    .map((s) => s.className + " " + getComputedStyle(s).getPropertyValue("--dcglab-swatch").trim());
  return {
    whole: whole && Number(whole.getAttribute("height")),
    part: part && Number(part.getAttribute("height")),
    bracketX: whole && Number(whole.getAttribute("x")) + Number(whole.getAttribute("width")) / 2,
    ringX: ring && Number(ring.getAttribute("cx")),
    bracketColour: whole && getComputedStyle(whole).stroke,
    ringColour: ring && getComputedStyle(ring).stroke,
    leftTicks: ticks(left), rightTicks: ticks(right),
    leftSwatches: swatches(left), rightSwatches: swatches(right),
  };
}
"""


@pytest.mark.parametrize("move", [False, True])
def test_cutoffs_bracket_at_k_is_the_ringed_ndcg(page, site_dir, move):
    root = root_named(page, "chapters/04_cutoffs.html", "cutoffs")
    if move:
        root.locator('input[type="range"]').first.focus()
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowRight")
    state, result = shown(root)
    got = root.evaluate(RATIO_JS)
    assert got["whole"] and got["part"] is not None, "no bracket at k on the DCG chart"
    assert got["part"] / got["whole"] == pytest.approx(result["ndcg_linear"], abs=1e-6)
    assert got["ringX"] is not None, "no ringed dot at k on the nDCG chart"
    # both sit at the tick of k on their own chart
    assert dict(got["leftTicks"])[state["k"]] == pytest.approx(got["bracketX"], abs=0.01)
    assert dict(got["rightTicks"])[state["k"]] == pytest.approx(got["ringX"], abs=0.01)
    assert got["bracketColour"] == got["ringColour"]
    for swatches in (got["leftSwatches"], got["rightSwatches"]):
        assert len(set(swatches)) == len(swatches), f"two legend entries look alike: {swatches}"
    assert page.console_errors == []


def box_y(locator) -> float:
    """The top of an element, from the top of its explorer (the page may scroll)."""
    return locator.evaluate(
        "e => e.getBoundingClientRect().top"
        " - e.closest('.dcglab-explorer').getBoundingClientRect().top"
    )


@pytest.mark.parametrize("width", [1280, 390])
def test_ideal_source_draws_the_three_ideals_with_few_controls(
    browser, http_server, site_dir, width
):
    with new_page(browser, http_server, width=width) as page:
        check_ideal_source(page, wide=width > 700)


def screen_y(locator) -> float:
    """The top of an element on the screen (where a finger on it is)."""
    return locator.evaluate("e => e.getBoundingClientRect().top")


def check_ideal_source(page, wide: bool) -> None:
    root = root_named(page, "chapters/07_ideal_pitfalls.html", "ideal_source")
    # a wide screen: the slider keeps its place in the explorer; a phone: the controls
    # stick to the screen's bottom, so the slider keeps its place on the screen while
    # the reader, scrolled into the explorer, uses them
    if not wide:
        root.evaluate("r => window.scrollTo(0, r.getBoundingClientRect().top + scrollY + 300)")
    where = box_y if wide else screen_y
    assert root.locator('input[type="range"]').count() == 1, "one slider (k); documents are cards"
    ideals = root.locator(".dcglab-strip-ideal")
    assert ideals.count() == 3, "one strip per source of the ideal"
    slider = root.locator('input[type="range"]')
    add = root.locator('button[data-param="n_missing"][data-step="1"]')
    less = root.locator('button[data-param="n_missing"][data-step="-1"]')
    reset = root.locator("button.dcglab-reset")
    title = root.locator(".dcglab-title")
    k_at = where(slider)
    while True:
        state, _ = shown(root)
        n = state["n_missing"]
        # the missed documents: their own editable strip, and marked in the two judged ideals
        assert root.locator(".dcglab-editable").nth(1).locator(".dcglab-card").count() == n
        for i in (1, 2):
            assert ideals.nth(i).locator(".dcglab-missed").count() == n
        assert ideals.nth(0).locator(".dcglab-missed").count() == 0
        assert where(slider) == pytest.approx(k_at, abs=0.5), "the k slider moved"
        if add.is_disabled():
            break
        add.click()
        assert shown(root)[0]["n_missing"] == n + 1
    assert n == len(state["missing"])
    # a missed document's grade is set on its card
    card = root.locator(".dcglab-editable").nth(1).locator("button.dcglab-card").nth(0)
    card.focus()
    page.keyboard.press("0")
    state, _ = shown(root)
    assert state["missing"][0] == 0
    while not less.is_disabled():
        less.click()
        assert where(slider) == pytest.approx(k_at, abs=0.5), "the k slider moved"
    assert shown(root)[0]["n_missing"] == 0
    if wide:  # Reset sits on the title's row (on a phone, under it)
        assert abs(box_y(reset) - box_y(title)) < title.bounding_box()["height"]
    reset.click()
    assert shown(root)[0]["n_missing"] == REGISTRY["ideal_source"]().n_missing
    assert page.console_errors == []


BARS_JS = """
root => Array.from(root.querySelectorAll(".dcglab-output figure.dcglab-figure")).map((fig) => {
  const sum = (cls) => Array.from(fig.querySelectorAll(`rect.${cls}`))
    .reduce((a, r) => a + Number(r.getAttribute("height")), 0);
  return { title: fig.querySelector("svg > text[font-weight]").textContent,
           now: sum("dcglab-now"), pinned: sum("dcglab-pinned"),
           count: fig.querySelectorAll("rect.dcglab-pinned").length };
})
"""
KEY_COLOURS_JS = """
root => {
  const colour = (e) => getComputedStyle(e).backgroundColor;
  const none = "rgba(0, 0, 0, 0)";
  return {
    fills: [...new Set(Array.from(root.querySelectorAll('.dcglab-strip-row .dcglab-card'))
      .filter((c) => !c.classList.contains('dcglab-zero'))
      .map((c) => colour(c.querySelector('.dcglab-fill'))))]
      .filter((c) => c !== none),
    marks: Array.from(root.querySelectorAll('.dcglab-key-fill'))
      .filter((e) => getComputedStyle(e).visibility !== 'hidden').map(colour),
    // the bar's parts (gain outline, gain x discount, hatch) keyed in one colour
    parts: Array.from(root.querySelectorAll('.dcglab-key-outline'),
      (e) => getComputedStyle(e).borderTopColor),
  };
}
"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize(
    ("rel", "name"),
    [
        ("chapters/01_cumulative_gain.html", "cumulative_gain"),
        ("chapters/03_ideal_normalization.html", "ndcg"),
        ("chapters/04_cutoffs.html", "cutoffs"),
        ("chapters/05_gain_choice.html", "gain_reversals"),
        ("chapters/07_ideal_pitfalls.html", "ideal_source"),
    ],
)
def test_the_strip_legend_has_a_mark_in_each_colour_it_draws(page, site_dir, rel, name, scheme):
    """The strips' legend is built from the marks drawn: every colour of the strips'
    filled bars (the ranking's, the ideal's, ordering X's and Y's, chapter 7's missed
    documents) has a filled mark of that colour in the legend, and every filled mark of
    the legend has a bar of its colour (or keys a bar's part beside the part's outline
    mark of its colour), in light and dark."""
    page.emulate_media(color_scheme=scheme)
    root = root_named(page, rel, name)
    colours = root.evaluate(KEY_COLOURS_JS)
    assert len(colours["fills"]) >= 2, colours
    for fill in colours["fills"]:
        assert fill in colours["marks"], (name, scheme, colours)
    # a filled mark is a bar's colour, or the fill of the parts' key (outline, fill, hatch)
    for mark in colours["marks"]:
        assert mark in colours["fills"] or mark in colours["parts"], (name, scheme, colours)
    assert page.console_errors == []


MEASURE_KEYS = ["ndcg", "ap", "rr", "rbp", "err"]


def test_user_models_pin_draws_the_pinned_bars_beside_the_current(page, site_dir):
    root = root_named(page, "chapters/09_user_models.html", "user_models")
    before, was = shown(root)
    assert root.evaluate(BARS_JS)[0]["count"] == 0
    root.locator("button.dcglab-pin").click()
    # the grade-3 document goes to the bottom of the list
    root.locator("button.dcglab-card").nth(before["grades"].index(3)).focus()
    page.keyboard.press("Shift+End")
    after, now = shown(root)
    assert after["grades"] != before["grades"]
    charts = root.evaluate(BARS_JS)
    assert len(charts) == len(MEASURE_KEYS)
    # RBP's panel first: the patience p changes it and no other
    drawn = ["rbp"] + [key for key in MEASURE_KEYS if key != "rbp"]
    for key, c in zip(drawn, charts, strict=True):
        assert c["count"] == len(before["grades"]), c
        # one scale for both: the bars of each state add up to its score
        if now[key] and was[key]:
            assert c["pinned"] / c["now"] == pytest.approx(was[key] / now[key], rel=1e-6), key
        assert f"(pinned: {was[key]:.3f})" in c["title"], c["title"]
    text = root.locator(".dcglab-output > p").first.text_content()
    for name, key in zip(["nDCG", "AP", "RR", "RBP", "ERR"], MEASURE_KEYS, strict=True):
        d = now[key] - was[key]
        sign = "" if abs(d) < 5e-4 else "+" if d > 0 else "−"
        assert f"{name} {sign}{abs(d):.3f}" in text, text
    root.locator("button.dcglab-unpin").click()
    assert all(c["count"] == 0 for c in root.evaluate(BARS_JS))
    assert page.console_errors == []


SWAP_LINES_JS = """
root => {
  const dashed = (e, side) => getComputedStyle(e)[`border${side}Style`] === "dashed";
  const rows = Array.from(root.querySelectorAll(".dcglab-table tbody tr"));
  return {
    cols: Array.from(root.querySelectorAll(".dcglab-table tr")).map(
      (tr) => Array.from(tr.children).map((c) => dashed(c, "Right"))),
    rows: rows.map((tr) => dashed(tr.children[1], "Bottom")),
  };
}
"""


def swap_formula(grades: list[int], k: int, gain: str, i: int, j: int) -> str:
    """The swap formula of ranks i < j with its numbers, computed here from the definitions."""
    n = len(grades)
    g = [2**x - 1 if gain == "exponential" else x for x in grades]
    d = [1 / math.log2(r + 1) if r <= k else 0.0 for r in range(1, n + 1)]
    idcg = sum(a * b for a, b in zip(sorted(g, reverse=True), d, strict=True))
    value = (g[j - 1] - g[i - 1]) * (d[i - 1] - d[j - 1]) / idcg

    def num(x):
        return str(int(x)) if float(x).is_integer() else f"{x:.3f}"

    sign = "+" if value > 0 else "−" if value < 0 else ""
    return (
        f"({num(g[j - 1])} − {num(g[i - 1])})({num(d[i - 1])} − {num(d[j - 1])}) / {idcg:.3f}"
        f" = {sign}{abs(value):.3f}"
    )


def test_swaps_cutoff_lines_and_cell_formula(page, site_dir):
    root = root_named(page, "chapters/10_practice.html", "swaps")
    for step in range(2):
        state, _ = shown(root)
        n, k = len(state["grades"]), state["k"]
        lines = root.evaluate(SWAP_LINES_JS)
        # a dashed line after column k (every row) and after row k, and nowhere else
        assert all(row[c] == (c == k) for row in lines["cols"] for c in range(n + 1)), lines
        assert lines["rows"] == [r == k for r in range(1, n + 1)], lines
        if step == 0:
            root.locator('input[type="range"]').first.focus()
            page.keyboard.press("ArrowLeft")
    detail = root.locator(".dcglab-swap-detail")
    cells = root.locator("button.dcglab-cell")
    pairs = [(i, j) for i in range(1, n + 1) for j in range(i + 1, n + 1)]
    for index in (0, 5, len(pairs) - 1):
        i, j = pairs[index]
        cells.nth(index).focus()  # keyboard focus
        text = detail.text_content()
        assert text.startswith(f"Ranks {i} and {j}: "), text
        assert swap_formula(state["grades"], k, state["gain"], i, j) in text, text
        assert text.split(" = ")[-1].rstrip(".,").split(",")[0] == cells.nth(index).text_content()
    i, j = pairs[2]
    cells.nth(2).hover()  # the pointer
    assert detail.text_content().startswith(f"Ranks {i} and {j}: ")
    assert cells.nth(2).get_attribute("aria-describedby") == detail.get_attribute("id")
    assert page.console_errors == []


SWAP_COLOURS_JS = """
root => {
  // a computed colour ("rgb(…)", or "color(srgb r g b)" from color-mix) as 0..255 channels
  const rgb = (c) => {
    const m = /color\\(srgb ([\\d.e-]+) ([\\d.e-]+) ([\\d.e-]+)/.exec(c);
    if (m) return m.slice(1, 4).map((x) => 255 * Number(x));
    return c.match(/[\\d.]+/g).slice(0, 3).map(Number);
  };
  const bg = rgb(getComputedStyle(root).backgroundColor);
  return Array.from(root.querySelectorAll("button.dcglab-cell"), (b) => {
    const cs = getComputedStyle(b);
    return { text: b.textContent, fg: rgb(cs.color), cell: rgb(cs.backgroundColor), page: bg,
             transparent: /rgba\\(0, 0, 0, 0\\)/.test(cs.backgroundColor) };
  });
}
"""


def _luminance(rgb: list[float]) -> float:
    def lin(c: float) -> float:
        c /= 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (lin(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _contrast(a: list[float], b: list[float]) -> float:
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


SERIES = [f"--dcglab-c{i}" for i in range(5)] + ["--dcglab-n0", "--dcglab-n1", "--dcglab-muted"]


@pytest.mark.parametrize("mode", ["light", "dark"])
def test_swap_cells_keep_their_text_readable_in_colours_no_series_uses(
    browser, http_server, site_dir, mode
):
    """Chapter 10's swap matrix: every tinted cell's text keeps WCAG AA contrast (4.5:1)
    on its tint, in light and dark mode; raising and lowering cells differ in hue, and
    neither colour is one a chart series uses."""
    with new_page(browser, http_server, mode=mode) as page:
        root = root_named(page, "chapters/10_practice.html", "swaps")
        cells = root.evaluate(SWAP_COLOURS_JS)
        tinted = [c for c in cells if not c["transparent"]]
        signs = {c["text"][0] for c in tinted}
        assert {"+", "−"} <= signs, signs
        for c in tinted:
            assert _contrast(c["fg"], c["cell"]) >= 4.5, (mode, c)
        colours = root.evaluate(
            "(r, names) => names.map((n) =>"
            " getComputedStyle(r).getPropertyValue(n).trim().toLowerCase())",
            SERIES + ["--dcglab-up", "--dcglab-down"],
        )
        up, down = colours[-2:]
        assert up and down and up != down
        assert not {up, down} & set(colours[:-2]), colours
        assert page.console_errors == []


def detail_of(root) -> str:
    """The text of the rank strip's details line."""
    return root.locator(".dcglab-detail").text_content()


def test_rank_strip_details_on_hover_and_keyboard_focus(page, site_dir):
    """A card's numbers go to the details line under the strips (never over text), on
    hover and on keyboard focus."""
    root = root_named(page, "chapters/03_ideal_normalization.html", "ndcg")
    state, _ = shown(root)
    cards = root.locator(".dcglab-strip.dcglab-editable button.dcglab-card")
    idle = detail_of(root)
    assert not idle.startswith("Your ranking"), "details shown before they are asked for"
    cards.nth(1).hover()
    g = state["grades"][1]
    text = detail_of(root)
    assert "Rank 2: grade " + str(g) + ", gain " in text, text
    gain = 2**g - 1 if state.get("gain") == "exponential" else g
    assert f"discounted gain {gain / math.log2(3):.3f}" in text, text
    page.mouse.move(0, 0)
    assert detail_of(root) == idle
    cards.nth(2).focus()
    page.keyboard.press("ArrowLeft")  # keyboard focus: focus-visible
    assert cards.nth(1).evaluate("c => c === document.activeElement")
    assert "Rank 2: grade" in detail_of(root), "no details on keyboard focus"
    # the details line lies below every strip: it covers no text
    boxes = root.evaluate(
        """r => { const d = r.querySelector('.dcglab-detail').getBoundingClientRect();
          return Array.from(r.querySelectorAll('.dcglab-strip-row'),
                            (e) => e.getBoundingClientRect().bottom <= d.top + 0.5); }"""
    )
    assert boxes and all(boxes), boxes
    assert page.console_errors == []


CHART_TIP_JS = """
([root, at]) => {
  const g = root.querySelector(".dcglab-chart-tip");
  return g && { x: Number(g.getAttribute("data-x")),
                lines: Array.from(g.querySelectorAll("text"), (t) => t.textContent) };
}
"""


def test_discount_chart_tip_follows_pointer_and_slider(page, site_dir):
    root = root_named(page, "chapters/02_discounting.html", "discounts")
    state, _ = shown(root)
    tip = root.evaluate(f"root => ({CHART_TIP_JS})([root])")
    assert tip is not None, "no details box on the discount chart"
    assert tip["x"] == state["rank"]
    area = root.locator("rect.dcglab-chart-pick")
    area.scroll_into_view_if_needed()
    b = area.bounding_box()
    want = 4
    # the pointer at rank 4: the plot runs from rank 1 (left edge) to rank n (right edge)
    x = b["x"] + b["width"] * (want - 1) / (state["n"] - 1)
    page.mouse.move(x, b["y"] + b["height"] / 2)
    tip = root.evaluate(f"root => ({CHART_TIP_JS})([root])")
    assert tip["x"] == want
    assert shown(root)[0]["rank"] == state["rank"], "pointing changed the state"
    expected = REGISTRY["discounts"].compute({**state, "rank": want})
    assert tip["lines"][0] == f"rank {want}, relative to rank 1"
    # the tip names the curves as the legend does
    subscript = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")
    base = str(state["base"]).removesuffix(".0").translate(subscript)
    assert tip["lines"][1] == f"1/log{base}(i + 1): {expected['log_relative']:.3f}"
    assert tip["lines"][4] == f"1/i: {1 / want:.3f}"
    page.mouse.click(x, b["y"] + b["height"] / 2)
    assert shown(root)[0]["rank"] == want
    page.mouse.move(0, 0)
    # the keyboard: the inspect-rank slider moves the box
    root.locator('input[data-param="rank"]').focus()
    page.keyboard.press("ArrowRight")
    tip = root.evaluate(f"root => ({CHART_TIP_JS})([root])")
    assert tip["x"] == want + 1 == shown(root)[0]["rank"]
    # after the chart is drawn again, pointing still moves the box the page shows
    back = 3
    page.mouse.move(b["x"] + b["width"] * (back - 1) / (state["n"] - 1), b["y"] + b["height"] / 2)
    tip = root.evaluate(f"root => ({CHART_TIP_JS})([root])")
    assert tip["x"] == back
    assert tip["lines"][4] == f"1/i: {1 / back:.3f}"
    assert page.console_errors == []


GRADE_SLIDERS_JS = """
root => Array.from(root.querySelectorAll('input[type="range"]'))
  .filter((i) => /\\.\\d+$/.test(i.dataset.param) && i.closest(".dcglab-control"))
  .map((i) => {
    const b = i.getBoundingClientRect();
    const labels = Array.from(i.parentElement.querySelectorAll(".dcglab-ticks > span"), (s) => {
      const r = s.getBoundingClientRect();
      return [s.textContent, r.left + r.width / 2 - b.left, r.width > 0 && r.height > 0];
    });
    return { param: i.dataset.param, max: Number(i.max), width: b.width,
             options: i.list ? Array.from(i.list.options, (o) => o.value) : [], labels };
  })
"""
THUMB_PX = 16  # Chromium's range thumb: its centre runs from 8 px to width - 8 px


@pytest.mark.parametrize(
    "rel", ["chapters/01_cumulative_gain.html", "chapters/08_graded_binary.html"]
)
def test_grade_sliders_show_ticks_and_labels(page, site_dir, rel):
    open_page(page, rel)
    checked = 0
    for root in explorer_roots(page):
        for s in root.evaluate(GRADE_SLIDERS_JS):
            if s["width"] == 0:  # hidden (e.g. a closed disclosure)
                continue
            grades = [str(g) for g in range(s["max"] + 1)]
            assert s["options"] == grades, s
            assert [t for t, _, _ in s["labels"]] == grades, s
            assert all(seen for _, _, seen in s["labels"]), s
            step = (s["width"] - THUMB_PX) / s["max"]
            for g, (_, x, _) in enumerate(s["labels"]):
                assert x == pytest.approx(THUMB_PX / 2 + g * step, abs=2), (s["param"], g, x)
            checked += 1
    assert checked > 0, f"{rel}: no grade slider seen"
    assert page.console_errors == []


#: Each prediction chip: its text, whether pressed, its colours, weight and mark (::after).
CHIPS_JS = """
r => {
  const rgb = (s) => s.match(/[\\d.]+/g).slice(0, 4).map(Number);
  return Array.from(r.querySelectorAll('.dcglab-predict-choices .dcglab-chip')).map((c) => {
    const s = getComputedStyle(c), a = getComputedStyle(c, '::after');
    return {text: c.textContent, pressed: c.getAttribute('aria-pressed') === 'true',
            fg: rgb(s.color), bg: rgb(s.backgroundColor), border: rgb(s.borderTopColor),
            weight: Number(s.fontWeight), mark: a.content,
            page: rgb(getComputedStyle(r).backgroundColor)};
  });
}
"""


@pytest.mark.parametrize("mode", ["light", "dark"])
def test_the_picked_chip_is_marked_right_or_wrong(browser, http_server, site_dir, mode):
    """Chapter 1's prediction, each chip picked in turn: the pick is filled and bold with
    its text at AA contrast (4.5:1) on the fill, and carries the verdict's mark (✓ or ✗);
    where it is wrong, the answer's chip carries a ✓ and an outline at 3:1 on the page;
    no other chip is marked. In light and dark."""
    with new_page(browser, http_server, mode=mode) as page:
        root = root_named(page, "chapters/01_cumulative_gain.html", "cumulative_gain")
        verdicts = set()
        for i in range(root.locator(".dcglab-predict-choices .dcglab-chip").count()):
            root.locator(".dcglab-predict-choices .dcglab-chip").nth(i).click()
            verdict = root.locator(".dcglab-predict-verdict").get_attribute("data-verdict")
            verdicts.add(verdict)
            chips = root.evaluate(CHIPS_JS)
            pick = chips[i]
            where = (mode, i, verdict, chips)
            assert pick["pressed"] and pick["bg"][3:] != [0], where
            assert _contrast(pick["fg"][:3], pick["bg"][:3]) >= 4.5, where
            assert pick["weight"] >= 700, where
            assert ("✓" if verdict == "right" else "✗") in pick["mark"], where
            answers = [c for j, c in enumerate(chips) if j != i and "✓" in c["mark"]]
            assert len(answers) == (0 if verdict == "right" else 1), where
            for c in answers:
                assert _contrast(c["border"][:3], c["page"][:3]) >= 3, where
            others = [c for j, c in enumerate(chips) if j != i and c not in answers]
            assert all(not c["pressed"] and c["mark"] in ("none", "normal") for c in others)
        assert verdicts == {"right", "wrong"}, verdicts
        assert page.console_errors == []
