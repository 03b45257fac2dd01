"""Accessibility and phones, on the built static site (WCAG 2.1 AA).

* axe-core (pinned in package.json, injected from ``node_modules``: the published site
  does not carry it) finds no serious or critical violation on any page, in light or
  in dark mode, once the explorers have rendered.
* The explorers' charts: ``role="img"`` with a name that states numbers; every mark
  (line, point, bar, hatch, cutoff marker) has at least 3:1 against the explorer's
  background and every chart label 4.5:1, in both modes (axe does not look inside SVG).
* Wide tables sit in a labelled, focusable box that scrolls on its own.
* At 390x844 (a phone) no page scrolls sideways. In every explorer, each slider and
  select, used by a reader who has scrolled into the explorer, is the topmost element at
  its own centre (nothing covers it), does not move while it is used, and the readouts
  it changes are on screen, below the page's header; the dock they sit in takes at most
  a third of the screen.
* At 390x844 and at 1280x900, after a prediction's chip or the first slider, select or
  stepper of an explorer is used, a figure the change redrew is at least half in view
  (on a phone: above the dock).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from sitekit import EXPLORER_PAGES, PAGES, explorer_roots, new_page, open_page, settle

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
import vendor_assets  # noqa: E402

AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
MODES = ["light", "dark"]


# The value of a select's first usable option other than ``was`` (``was`` if there is none).
OTHER_OPTION_JS = (
    "(e, was) => Array.from(e.options).find((o) => !o.disabled && !o.hidden"
    " && o.value !== was)?.value ?? was"
)


@pytest.fixture(scope="module")
def axe_script(skip_or_fail) -> Path:
    """axe-core's ``axe.min.js`` at its pinned version, from ``node_modules``."""
    try:
        return vendor_assets.node_module("axe-core") / "axe.min.js"
    except FileNotFoundError as err:
        skip_or_fail(str(err))
        raise  # not reached: skip_or_fail raises


def axe_violations(page, axe_script: Path) -> list[str]:
    """Serious and critical axe-core violations of the page, one line per rule."""
    page.add_script_tag(path=str(axe_script))
    result = page.evaluate(
        "tags => axe.run(document, {runOnly: {type: 'tag', values: tags}})", AXE_TAGS
    )
    return [
        f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes'][:3]]}"
        for v in result["violations"]
        if v["impact"] in ("serious", "critical")
    ]


@pytest.mark.slow
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("rel", PAGES)
def test_axe_finds_no_serious_violation(browser, http_server, axe_script, rel, mode):
    with new_page(browser, http_server, mode=mode) as page:
        open_page(page, rel)
        settle(page)
        assert page.evaluate("document.documentElement.dataset.theme") == mode
        assert axe_violations(page, axe_script) == []


# Contrast of chart marks, computed in the page from the rendered colours.
CHART_CONTRAST_JS = """
root => {
  const rgb = (c) => {
    const m = c.match(/rgba?\\(([^)]+)\\)/);
    if (!m) return null;
    const v = m[1].split(/[ ,\\/]+/).filter(Boolean).map(Number);
    return v.length > 3 && v[3] === 0 ? null : v.slice(0, 3);
  };
  const lum = ([r, g, b]) => {
    const f = (x) => { x /= 255; return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const ratio = (a, b) => {
    const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
    return (x + 0.05) / (y + 0.05);
  };
  const bg = rgb(getComputedStyle(root).backgroundColor);
  const low = [];
  for (const svg of root.querySelectorAll('svg.dcglab-chart')) {
    for (const e of svg.querySelectorAll('polyline, circle, path, rect, line, text')) {
      const cs = getComputedStyle(e);
      const paint = e.tagName === 'text' ? cs.fill
        : ['polyline', 'line'].includes(e.tagName) || cs.fill === 'none' ? cs.stroke : cs.fill;
      const c = rgb(paint);
      if (!c || Number(cs.fillOpacity) < 1 && !['polyline', 'line'].includes(e.tagName)) continue;
      const need = e.tagName === 'text' ? 4.5 : 3;
      const r = ratio(c, bg);
      if (r < need) low.push(`${e.tagName} ${paint} on ${bg}: ${r.toFixed(2)}`);
    }
  }
  return {bg, low};
}
"""


@pytest.mark.parametrize("mode", MODES)
def test_charts_are_named_and_their_marks_contrast(browser, http_server, site_dir, mode):
    charts = 0
    with new_page(browser, http_server, mode=mode) as page:
        for rel in EXPLORER_PAGES:
            open_page(page, rel)
            for root in explorer_roots(page):
                name = root.get_attribute("data-explorer")
                for svg in root.locator("svg").all():
                    charts += 1
                    # a picture, or a group of marks that are themselves sliders (chapter 11's bars)
                    role = svg.get_attribute("role")
                    sliders = svg.locator('[role="slider"]').count()
                    assert role == "img" or (role == "group" and sliders > 0), (name, role)
                    label = svg.get_attribute("aria-label") or ""
                    assert any(ch.isdigit() for ch in label), (name, label)
                    assert svg.get_attribute("width") is None, f"{name}: fixed chart width"
                    assert svg.get_attribute("viewBox"), name
                out = root.evaluate(f"root => ({CHART_CONTRAST_JS})(root)")
                assert out["low"] == [], (rel, name, out["low"][:5])
                for table in root.locator("table").all():
                    box = table.locator("xpath=..")
                    assert box.get_attribute("role") == "region", name
                    assert box.get_attribute("aria-label"), name
                    assert box.get_attribute("tabindex") == "0", name
    assert charts > 0


@pytest.mark.parametrize("rel", PAGES)
def test_no_sideways_scroll_on_a_phone(browser, http_server, site_dir, rel):
    with new_page(browser, http_server, width=390, height=844) as page:
        open_page(page, rel)
        settle(page)
        wide = page.evaluate(
            """() => {
              const w = document.documentElement.clientWidth;
              return {scroll: document.documentElement.scrollWidth, width: w,
                      culprits: Array.from(document.querySelectorAll('body *'))
                        .filter((e) => e.getBoundingClientRect().right > w + 1
                                       && e.offsetParent !== null
                                       && !e.closest('.dcglab-scroll, pre, .MathJax, mjx-container'
                                                     + ', .table-wrapper, .bd-sidebar-primary'
                                                     + ', .bd-sidebar-secondary'))
                        .slice(0, 5).map((e) => e.tagName + '.' + e.className)};
            }"""
        )
        assert wide["scroll"] <= wide["width"], wide


#: The sliders and selects of an explorer that a reader can use now (open disclosures
#: first), each marked with its index in ``data-used``.
USABLE_JS = """
root => {
  root.querySelectorAll('details.dcglab-group').forEach((d) => { d.open = true; });
  const all = root.querySelectorAll('.dcglab-control input[type="range"], .dcglab-control select');
  const usable = Array.from(all)
    .filter((e) => !e.disabled && e.offsetParent !== null && !e.closest('[hidden]'));
  usable.forEach((e, i) => e.setAttribute('data-used', String(i)));
  return usable.length;
}
"""

#: Where control ``i`` is, what is at its centre, and where the readouts are.
AT_CONTROL_JS = """
(root, i) => {
  const e = root.querySelector(`[data-used="${i}"]`);
  if (e.offsetParent === null) return null;
  const r = e.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  const out = root.querySelector('.dcglab-readouts').getBoundingClientRect();
  const header = document.querySelector('.bd-header-article');
  const html = document.documentElement;
  return {param: e.dataset.param, top: r.top, bottom: r.bottom, height: innerHeight,
          covered: hit === e ? null : hit ? `${hit.tagName}.${hit.className}` : 'nothing',
          readouts: [out.top, out.bottom],
          header: header && getComputedStyle(header).position === 'sticky'
            ? header.getBoundingClientRect().bottom : 0,
          sideways: html.scrollWidth - html.clientWidth};
}
"""


@pytest.mark.parametrize("rel", [p for p in EXPLORER_PAGES if "/quiz_" not in p])
def test_controls_are_never_covered_on_a_phone(browser, http_server, site_dir, rel):
    """At 390x844, for each slider and select of each explorer: the reader has scrolled
    300 px into the explorer and then uses the control (focus, a key or another option,
    and back). Afterwards the control is the topmost element at its centre, it has not
    moved while used, and the readouts it changes are on screen."""
    with new_page(browser, http_server, width=390, height=844) as page:
        open_page(page, rel)
        checked = 0
        for root in explorer_roots(page):
            name = root.get_attribute("data-explorer")
            for i in range(root.evaluate(f"root => ({USABLE_JS})(root)")):
                root.evaluate(
                    "r => window.scrollTo(0, r.getBoundingClientRect().top + scrollY + 300)"
                )
                control = root.locator(f'[data-used="{i}"]')
                if not control.is_visible():  # hidden by the state an earlier control set
                    continue
                control.focus()
                page.wait_for_timeout(100)
                at = root.evaluate(AT_CONTROL_JS, i)
                if control.evaluate("e => e.tagName") == "SELECT":
                    was = control.input_value()
                    other = control.evaluate(OTHER_OPTION_JS, was)
                    control.select_option(other)
                    page.wait_for_timeout(150)
                    used = root.evaluate(AT_CONTROL_JS, i)
                    control.select_option(was)
                else:
                    page.keyboard.press("ArrowLeft")
                    page.keyboard.press("ArrowRight")
                    page.keyboard.press("ArrowRight")
                    page.wait_for_timeout(150)
                    used = root.evaluate(AT_CONTROL_JS, i)
                    page.keyboard.press("ArrowLeft")
                page.wait_for_timeout(100)
                where = (rel, name, at, used)
                assert used is not None, where
                assert used["covered"] is None, where
                assert abs(used["top"] - at["top"]) <= 1, where
                assert used["header"] - 1 <= used["top"], where
                assert used["bottom"] <= used["height"] + 1, where
                top, bottom = used["readouts"]
                assert top >= used["header"] - 1 and bottom <= used["height"] + 1, where
                assert used["sideways"] <= 0, where
                checked += 1
        assert checked > 0, f"{rel}: no explorer with a slider or a select"
        assert page.console_errors == []


DOCK_JS = """root => {
  const parts = [':scope > .dcglab-controls', ':scope > .dcglab-readouts']
    .map((q) => root.querySelector(q));
  const text = [...root.querySelectorAll(
      ':scope > .dcglab-readouts *, :scope > .dcglab-controls *')]
    .filter((e) => e.tagName !== 'SUB' && e.getClientRects().length
      && [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim()));
  const targets = [...parts[0].querySelectorAll('input, select, button')]
    .filter((e) => e.getClientRects().length);
  return {height: parts.reduce((a, e) => a + e.getBoundingClientRect().height, 0),
          font: Math.min(...text.map((e) => parseFloat(getComputedStyle(e).fontSize))),
          target: Math.min(...targets.map((e) => e.getBoundingClientRect().height))};
}"""


@pytest.mark.parametrize("rel", [p for p in EXPLORER_PAGES if "/quiz_" not in p])
def test_the_phone_dock_leaves_the_screen_to_the_picture(browser, http_server, site_dir, rel):
    """At 390x844 each explorer's dock (its readouts on its controls, stuck to the
    screen's bottom) takes at most a third of the screen, with text of 12 px or more
    (subscripts aside) and targets of 24 px or more (WCAG 2.5.8)."""
    with new_page(browser, http_server, width=390, height=844) as page:
        open_page(page, rel)
        for root in explorer_roots(page):
            dock = root.evaluate(DOCK_JS)
            where = (rel, root.get_attribute("data-explorer"), dock)
            assert dock["height"] <= 844 / 3, where
            assert dock["font"] >= 12, where
            assert dock["target"] >= 24, where


#: Start watching the explorer's picture and output for what a change redraws.
WATCH_JS = """
root => {
  const seen = [];
  const obs = new MutationObserver((ms) => { for (const m of ms) seen.push(m.target); });
  for (const part of root.querySelectorAll(':scope > .dcglab-rank, :scope > .dcglab-output'))
    obs.observe(part, {subtree: true, childList: true, attributes: true, characterData: true});
  window.__dcglabWatch = {obs, seen};
}
"""

#: The figures (a strip, the totals, a chart, a table) whose content the change redrew,
#: each with the share of it in view between the page's sticky header and the top of a
#: sticky dock (else the screen's foot). A verdict that redraws nothing is about the
#: picture's first figure.
CHANGED_JS = """
(root, chip) => {
  const w = window.__dcglabWatch;
  w.obs.takeRecords().forEach((m) => w.seen.push(m.target));
  w.obs.disconnect();
  const FIG = '.dcglab-strip-row, .dcglab-totals, .dcglab-figure, .dcglab-scroll, table, svg';
  const figs = [];
  for (let t of w.seen) {
    if (t.nodeType !== 1) t = t.parentElement;
    if (!t || t.closest('.dcglab-key, .dcglab-help, .dcglab-detail, .dcglab-sr')) continue;
    const f = t.closest(FIG);
    // what a closed disclosure holds is laid out, unseen
    const drawn = f && root.contains(f) && f.getBoundingClientRect().height > 0
      && !f.closest('details:not([open])');
    if (drawn && !figs.includes(f)) figs.push(f);
  }
  if (!figs.length && chip) {
    const first = root.querySelector('.dcglab-picture').querySelector(FIG);
    if (first) figs.push(first);
  }
  const header = document.querySelector('.bd-header-article');
  const top = header && getComputedStyle(header).position === 'sticky'
    ? header.getBoundingClientRect().bottom : 0;
  let bottom = innerHeight;
  for (const d of root.querySelectorAll(':scope > .dcglab-readouts, :scope > .dcglab-controls')) {
    const r = d.getBoundingClientRect();
    if (getComputedStyle(d).position === 'sticky' && r.height > 0) bottom = Math.min(bottom, r.top);
  }
  return figs.map((f) => {
    const r = f.getBoundingClientRect();
    const seen = Math.max(0, Math.min(r.bottom, bottom) - Math.max(r.top, top));
    return {fig: `${f.tagName}.${f.getAttribute('class')}`, chart: !f.closest('.dcglab-rank'),
            top: Math.round(r.top),
            bottom: Math.round(r.bottom), band: [Math.round(top), Math.round(bottom)],
            share: seen / Math.min(r.height, bottom - top)};
  });
}
"""

#: The first usable control of each kind: a prediction's chip, a slider (by keys, and by
#: a touch), a select, a stepper.
FIRST_OF_KIND = [
    ("chip", ".dcglab-predict-choices .dcglab-chip"),
    ("range", ':scope > .dcglab-controls input[type="range"]'),
    ("tap", ':scope > .dcglab-controls input[type="range"]'),
    ("select", ":scope > .dcglab-controls select"),
    ("stepper", ":scope > .dcglab-controls .dcglab-stepper button"),
]


def touch_tap(page, x: float, y: float) -> None:
    """A finger's tap at (x, y) through Chromium's touch input (which, like a real
    tap on a slider, sets its value without focusing it)."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 1})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def pointer_on_range(page, control, how: str) -> None:
    """Set a slider with a mouse click or a touch tap ("mouse", "touch") near the end
    of its track away from its value."""
    at = control.evaluate("e => (e.value - e.min) / Math.max(1, e.max - e.min)")
    box = control.bounding_box()
    x = box["x"] + box["width"] * (0.1 if at > 0.5 else 0.9)
    y = box["y"] + box["height"] / 2
    if how == "mouse":
        page.mouse.click(x, y)
    else:
        touch_tap(page, x, y)


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("rel", [p for p in EXPLORER_PAGES if "/quiz_" not in p])
def test_a_change_shows_the_figure_it_changes(browser, http_server, site_dir, rel, width):
    """At 390x844 and 1280x900 a reader starts with the explorer's title near the top of
    the screen and uses the first chip of its prediction, and its first slider, select and
    stepper. After each, a figure that the change redrew (a strip, the totals, a chart, a
    table; for a verdict that redraws nothing, the picture's first figure) is at least half
    in view: below the page's header and, on a phone, above the dock."""
    height = 844 if width < 500 else 900
    with new_page(browser, http_server, width=width, height=height) as page:
        open_page(page, rel)
        checked = 0
        for root in explorer_roots(page):
            name = root.get_attribute("data-explorer")
            for kind, selector in FIRST_OF_KIND:
                usable = [
                    e for e in root.locator(selector).all() if e.is_visible() and e.is_enabled()
                ]
                if not usable:
                    continue
                control = usable[0]
                root.evaluate(
                    "r => window.scrollTo(0, r.getBoundingClientRect().top + scrollY - 60)"
                )
                page.wait_for_timeout(150)
                root.evaluate(WATCH_JS)
                if kind in ("chip", "stepper"):
                    control.click()
                elif kind == "tap":
                    if width > 500:  # a wide screen's sliders are used with a mouse or keys
                        continue
                    pointer_on_range(page, control, "touch")
                elif kind == "range":
                    was = control.input_value()
                    control.focus()
                    page.keyboard.press("ArrowRight")
                    if control.input_value() == was:
                        page.keyboard.press("ArrowLeft")
                else:
                    control.focus()
                    was = control.input_value()
                    other = control.evaluate(OTHER_OPTION_JS, was)
                    control.select_option(other)
                page.wait_for_timeout(900)  # a smooth scroll ends
                figures = root.evaluate(CHANGED_JS, kind == "chip")
                if not figures:  # the change redrew no figure (e.g. only a table's readout)
                    continue
                where = (rel, width, name, kind, figures)
                assert max(f["share"] for f in figures) >= 0.5, where
                # on a phone, a docked control that redraws a chart (or a table) as well as
                # the rank strip shows the chart: the strip only marks the new value
                charts = [f for f in figures if f["chart"]]
                if width < 500 and kind != "chip" and charts:
                    assert max(f["share"] for f in charts) >= 0.5, where
                checked += 1
        assert checked > 0, rel
        assert page.console_errors == []


def predict_then_point(page, rel: str, how: str):
    """Open ``rel``, answer its first prediction, then set the first docked slider with
    ``how`` ("mouse" or "touch"); return the explorer's root."""
    open_page(page, rel)
    root = explorer_roots(page)[0]
    root.locator(".dcglab-predict-choices .dcglab-chip").first.click()
    page.wait_for_timeout(400)
    control = root.locator(':scope > .dcglab-controls input[type="range"]').first
    control.scroll_into_view_if_needed()
    was = control.input_value()
    pointer_on_range(page, control, how)
    page.wait_for_timeout(600)
    assert control.input_value() != was, (rel, how)
    return root


@pytest.mark.parametrize("how", ["mouse", "touch"])
@pytest.mark.parametrize("rel", ["chapters/04_cutoffs.html", "chapters/08_graded_binary.html"])
def test_a_pointer_change_folds_the_predict_box(browser, http_server, site_dir, rel, how):
    """At 390x844, after a prediction, a slider set by a mouse click or a touch tap (which
    leaves the focus on the chip) folds the prediction to "Predict again", as the keys do:
    its toggle has its name, is collapsed and is a real target."""
    with new_page(browser, http_server, width=390, height=844) as page:
        root = predict_then_point(page, rel, how)
        state = root.locator(".dcglab-predict-toggle").evaluate(
            "e => ({name: e.textContent.trim(), hidden: e.hidden,"
            " expanded: e.getAttribute('aria-expanded'),"
            " folded: e.closest('.dcglab-predict').hasAttribute('data-folded'),"
            " height: e.getBoundingClientRect().height})"
        )
        where = (rel, how, state)
        assert not state["hidden"] and state["name"].startswith("Predict again"), where
        assert state["expanded"] == "false" and state["folded"], where
        assert state["height"] >= 24, where
        assert page.console_errors == []


@pytest.mark.parametrize("rel", ["chapters/04_cutoffs.html", "chapters/08_graded_binary.html"])
def test_the_predict_toggle_is_never_shown_without_its_name(browser, http_server, site_dir, rel):
    """At 1280x900, after a prediction and a mouse click on a slider, the predict box's
    toggle is either hidden from everyone or has its name."""
    with new_page(browser, http_server, width=1280, height=900) as page:
        root = predict_then_point(page, rel, "mouse")
        state = root.locator(".dcglab-predict-toggle").evaluate(
            "e => ({name: e.textContent.trim(), shown: getComputedStyle(e).display !== 'none'"
            " && !e.hidden})"
        )
        assert not state["shown"] or state["name"], (rel, state)


def test_a_key_that_cannot_set_a_fixed_grade_says_why(page, site_dir):
    """Chapter 10's systems' cards have the judges' grades: a digit, ↑ or ↓ on a card
    changes nothing and says so in the live line, with the key that does reorder."""
    open_page(page, "chapters/10_practice.html")
    root = next(r for r in explorer_roots(page) if r.get_attribute("data-explorer") == "choose_k")
    live = root.locator(":scope > .dcglab-readouts")
    card = root.locator(".dcglab-strip.dcglab-editable button.dcglab-card").first
    for key in ("3", "ArrowDown", "ArrowUp"):
        card.focus()
        name = card.get_attribute("aria-label") or card.text_content()
        page.keyboard.press(key)
        page.wait_for_timeout(100)
        assert "Grades are fixed here" in live.text_content(), (key, live.text_content())
        assert "Shift+←/→ reorders" in live.text_content(), key
        assert (card.get_attribute("aria-label") or card.text_content()) == name, key
        page.keyboard.press("Shift+ArrowRight")
        page.wait_for_timeout(100)
        assert "Grades are fixed here" not in live.text_content(), key
        page.keyboard.press("Shift+ArrowLeft")
    assert page.console_errors == []
