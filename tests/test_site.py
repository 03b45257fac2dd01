"""Browser tests of the built static site (``_build/html``).

The site must work with no kernel and no network: every page loads with no
request leaving 127.0.0.1 and no console error, its formulas were typeset when
the book was built (no page runs MathJax), and the saved widget state renders
through ``site_js/widgets.js``. Build the site first (``make book``); these tests
do not build. Publishing (sub-path, links, 404, metadata, what is published, bytes,
keyboard): tests/test_publish.py.
Fixtures and helpers: tests/sitekit.py. Accessibility and phones:
tests/test_a11y.py; the explorers' controls: tests/test_explorer_controls.py.
"""

from __future__ import annotations

import json
import re

import pytest
from sitekit import CHAPTERS, EXPLORER_PAGES, PAGES, explorer_roots, open_page, rendered_widgets

#: What a page loads: scripts and linked files (not its canonical address)
ASSET = re.compile(
    r'<script\b[^>]*\bsrc="([^"]+)"|<link\b(?![^>]*rel="canonical")[^>]*\bhref="([^"]+)"'
)


# --- tests --------------------------------------------------------------------


def test_site_is_self_contained(site_dir, skip_or_fail):
    """No page loads a script or stylesheet from another host (the CDN fallback of a
    build without npm's assets does) -- required under CI."""
    remote = sorted(
        {
            url
            for rel in PAGES
            for pair in ASSET.findall((site_dir / rel).read_text())
            for url in pair
            if url.startswith(("http:", "https:", "//"))
        }
    )
    if remote:
        skip_or_fail(f"site built in CDN-fallback mode (node_modules missing): {remote[:3]}")


@pytest.mark.parametrize("rel", PAGES)
def test_page_loads_offline(page, site_dir, rel):
    if not (site_dir / rel).is_file():
        pytest.fail(f"{rel} is in _toc.yml but was not built")
    open_page(page, rel)
    views, done = rendered_widgets(page)
    assert page.external_requests == [], "requests left 127.0.0.1"
    assert page.console_errors == []
    assert done == views, f"{done} of {views} widget views rendered"


@pytest.mark.parametrize("rel", CHAPTERS)
def test_chapter_math_is_typeset(page, site_dir, rel):
    """The build typeset every formula to SVG: no TeX is left, no formula reports an
    error, each has its MathML for screen readers, and no page loads MathJax."""
    open_page(page, rel)
    math = page.evaluate(
        """() => ({
          formulas: document.querySelectorAll('mjx-container > svg').length,
          spoken: document.querySelectorAll('mjx-container > mjx-assistive-mml > math').length,
          errors: document.querySelectorAll('[data-mjx-error], [data-mml-node="merror"]').length,
          tex: Array.from(document.querySelectorAll('.math'))
                 .filter((e) => /\\\\[(\\[]/.test(e.textContent)).length,
          mathjax: typeof window.MathJax,
        })"""
    )
    assert math["formulas"] > 0 and math["spoken"] == math["formulas"], math
    assert math["errors"] == 0 and math["tex"] == 0, math
    assert math["mathjax"] == "undefined", math
    assert page.external_requests == []


# --- explorers ------------------------------------------------------------------

RESPOND_TOL = 1e-9


def _new_value(control) -> str:
    """A different legal value for a range input or a select."""
    tag = control.evaluate("e => e.tagName")
    if tag == "SELECT":
        options = control.evaluate("e => Array.from(e.options).map(o => o.value)")
        current = control.input_value()
        return next(o for o in options if o != current)
    lo, hi, step, cur = (
        float(control.get_attribute(a) if a != "value" else control.input_value())
        for a in ("min", "max", "step", "value")
    )
    new = cur - step if cur - step >= lo else cur + step
    assert lo <= new <= hi
    return f"{new:g}"


def _set(control, value: str) -> None:
    control.evaluate(
        """(e, v) => { e.value = v;
            e.dispatchEvent(new Event(e.tagName === 'SELECT' ? 'change' : 'input',
                                      {bubbles: true})); }""",
        value,
    )


def _signed(v: float) -> str:
    """A signed change, three decimals, a true minus sign: +0.076, −0.151, 0.000."""
    r = round(v, 3)
    return ("+" if r > 0 else "−" if r < 0 else "") + f"{abs(r):.3f}"


def _whole(v: float) -> str:
    """A whole-number quantity (CG of integer grades, linear gain): 3, not 3.000."""
    assert float(v).is_integer(), v
    return f"{int(v):,}"


READOUT_FORMATS = {
    ("cumulative_gain", "cg"): _whole,
    ("cumulative_gain", "cg_binary"): _whole,
    ("gain_reversals", "share"): lambda v: f"{100 * v:.1f}%",
    ("paired_test", "mean"): _signed,
    ("pool", "pooled_per_query"): lambda v: f"{v:.1f}",
}
"""Readouts of a quantity with a format of its own (a whole-number CG, a share in per
cent, a signed mean difference, a mean count with one decimal); every other score has
three decimals. The value is dcglab's either way."""


def _check_against_python(root) -> dict:
    """The explorer's shown results equal dcglab's for the state it reports."""
    from dcglab.book.explorers import REGISTRY

    name = root.get_attribute("data-explorer")
    state = json.loads(root.get_attribute("data-state"))
    shown = json.loads(root.get_attribute("data-result"))
    expected = REGISTRY[name].compute(state)
    assert shown.keys() == expected.keys(), name
    for key, value in expected.items():
        if value is None:
            assert shown[key] is None, (name, key)
        else:
            assert shown[key] == pytest.approx(value, abs=RESPOND_TOL), (name, key, state)
    for out in root.locator("[data-out]").all():
        key = out.get_attribute("data-out")
        value = expected[key]
        text = out.inner_text()
        if value is None:
            assert text.startswith("undefined"), (name, key, text)
        elif (name, key) in READOUT_FORMATS:
            assert text == READOUT_FORMATS[name, key](value), (name, key, text)
        elif isinstance(value, int):  # counts are grouped by thousands: 16,110
            assert text == f"{value:,}", (name, key, text)
        else:
            assert text == f"{value:.3f}", (name, key, text)
    return shown


@pytest.mark.parametrize("rel", EXPLORER_PAGES)
def test_every_explorer_responds(page, site_dir, rel):
    """Move every slider of every explorer and press each count's buttons; the output
    changes to dcglab's values."""
    open_page(page, rel)
    roots = explorer_roots(page)
    assert roots, f"{rel} has no explorer"
    for root in roots:
        before = _check_against_python(root)
        # sliders folded in a disclosure (the grades beside their cards) are opened, as a
        # reader would
        root.evaluate("r => r.querySelectorAll('details').forEach((d) => { d.open = true; })")
        # hidden and disabled controls cannot matter (test_explorer_controls.py checks that)
        controls = [
            c for c in root.locator("[data-param]").all() if c.is_visible() and c.is_enabled()
        ]
        assert controls, "explorer without controls"
        changed_output = False
        for control in controls:
            old_state = root.get_attribute("data-state")
            param = control.get_attribute("data-param")
            name, _, idx = param.partition(".")
            stepper = control.evaluate("e => e.tagName") == "BUTTON"
            if stepper:  # a count's button: one step of data-step
                if not control.is_enabled():
                    continue
                value = str(json.loads(old_state)[name] + int(control.get_attribute("data-step")))
                control.click()
            else:
                value = _new_value(control)
                _set(control, value)
            page.wait_for_function(
                "([e, s]) => e.getAttribute('data-state') !== s",
                arg=[root.element_handle(), old_state],
            )
            state = json.loads(root.get_attribute("data-state"))
            got = state[name][int(idx)] if idx else state[name]
            assert str(got) == value or float(got) == float(value), (param, got, value)
            after = _check_against_python(root)
            changed_output |= after != before
        name = root.get_attribute("data-explorer")
        assert changed_output, f"no slider of {name} changed its output"
    assert page.external_requests == []
    assert page.console_errors == []
