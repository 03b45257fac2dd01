"""Accessibility and phones, on the built static site (WCAG 2.1 AA).

* axe-core (pinned in package.json, injected from ``node_modules``: the published site
  does not carry it) finds no serious or critical violation on any page, in light or
  in dark mode, once the explorers have rendered.
* The explorers' charts: ``role="img"`` with a name that states numbers; every mark
  (line, point, bar, hatch, cutoff marker) has at least 3:1 against the explorer's
  background and every chart label 4.5:1, in both modes (axe does not look inside SVG).
* Wide tables sit in a labelled, focusable box that scrolls on its own.
* At 390x844 (a phone) no page scrolls sideways, and each explorer's picture (its rank
  strip or charts) stays on screen, above the slider, while its last slider is used, and
  its readouts (the numbers the slider changes) stay on screen below it.
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


PICTURE_IN_VIEW_JS = """
root => {
  const pic = root.querySelector('.dcglab-picture');
  const usable = (e) => !e.disabled && e.offsetParent !== null && !e.closest('[hidden]');
  const sliders = Array.from(root.querySelectorAll('input[type="range"][data-param]'));
  const shown = Boolean(pic && !pic.hidden && pic.offsetParent !== null);
  return {picture: shown, sliders: sliders.filter(usable).length};
}
"""

IN_VIEW_JS = """
root => {
  const pic = root.querySelector('.dcglab-picture');
  const slider = document.activeElement;
  const p = pic.getBoundingClientRect(), s = slider.getBoundingClientRect();
  const r = root.querySelector('.dcglab-readouts').getBoundingClientRect();
  const html = document.documentElement;
  return {picture: [p.top, p.bottom], slider: [s.top, s.bottom], height: innerHeight,
          readouts: [r.top, r.bottom],
          sideways: html.scrollWidth - html.clientWidth, pictureAfterSlider: p.top > s.top + 1,
          scrolled: scrollY};
}
"""


@pytest.mark.parametrize("rel", [p for p in EXPLORER_PAGES if "/quiz_" not in p])
def test_the_picture_stays_in_view_on_a_phone(browser, http_server, site_dir, rel):
    """At 390x844, each explorer's picture (rank strip or charts) stays on screen while
    the last slider after it is focused, scrolled to and moved; nothing scrolls sideways."""
    with new_page(browser, http_server, width=390, height=844) as page:
        open_page(page, rel)
        checked = 0
        for root in explorer_roots(page):
            has = root.evaluate(f"root => ({PICTURE_IN_VIEW_JS})(root)")
            if not (has["picture"] and has["sliders"]):
                continue
            slider = root.locator('input[type="range"][data-param]:visible:enabled').last
            slider.focus()
            slider.scroll_into_view_if_needed()
            page.keyboard.press("ArrowLeft")
            page.wait_for_timeout(300)  # the rank strip's animations end
            out = root.evaluate(f"root => ({IN_VIEW_JS})(root)")
            name = root.get_attribute("data-explorer")
            top, bottom = out["picture"]
            assert out["scrolled"] > 0 or top >= 0, (rel, name, out)
            assert top >= -1 and bottom <= out["height"] + 1, (rel, name, out)
            assert out["slider"][0] >= bottom - 1 and out["slider"][1] <= out["height"] + 1, (
                rel,
                name,
                out,
            )
            # the numbers the slider changes are on the same screen, below it
            r_top, r_bottom = out["readouts"]
            assert r_top >= out["slider"][1] - 1 and r_bottom <= out["height"] + 1, (rel, name, out)
            assert out["sideways"] <= 0, (rel, name, out)
            checked += 1
        assert checked > 0, f"{rel}: no explorer with a picture and a slider"
        assert page.console_errors == []
