"""Browser tests of the built static site (``_build/html``).

The site must work with no kernel and no network: every page loads with no
request leaving 127.0.0.1 and no console error, math is typeset by the
vendored MathJax, and the saved widget state renders through the vendored
html-manager. Build the site first (``make book``); these tests do not build.

Fixtures for more browser tests (explorers):

* ``site_dir``: the built site; skipped when missing (a failure under CI=true).
* ``http_server``: base URL of a threaded static server on 127.0.0.1.
* ``browser`` (from tests/conftest.py, shared with the JS-twin tests: one
  Playwright instance per session): Debian's /usr/bin/chromium; skipped when
  missing (a failure under CI=true).
* ``page``: a fresh page whose requests to any host other than 127.0.0.1 are
  aborted and recorded in ``page.external_requests``; console errors and
  uncaught exceptions are recorded in ``page.console_errors``.
* ``explorer_roots(page)``: waits until the explorers (elements with class
  ``dcglab-explorer``, which every explorer adds to its root element) have
  rendered and returns their locators.
"""

from __future__ import annotations

import functools
import json
import os
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
SITE = ROOT / "_build" / "html"
IN_CI = os.environ.get("CI") == "true"
LOCAL_HOSTS = {"127.0.0.1"}
TIMEOUT_MS = 20_000


def _skip_or_fail(reason: str) -> None:
    """Skip locally; under CI=true the browser tests must run, so fail."""
    if IN_CI:
        pytest.fail(f"{reason} (CI=true: browser tests must run)")
    pytest.skip(reason)


def _pages() -> list[str]:
    """index.html, every chapter in _toc.yml, and every chapters/*.html built."""
    pages = {"index.html"}
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    for entry in toc.get("chapters", []) + [
        c for part in toc.get("parts", []) for c in part.get("chapters", [])
    ]:
        if entry.get("file", "").startswith("chapters/"):
            pages.add(entry["file"] + ".html")
    pages.update(p.relative_to(SITE).as_posix() for p in SITE.glob("chapters/*.html"))
    return sorted(pages)


PAGES = _pages()
CHAPTERS = [p for p in PAGES if p.startswith("chapters/")]


# --- fixtures -----------------------------------------------------------------


@pytest.fixture(scope="session")
def site_dir() -> Path:
    if not (SITE / "index.html").is_file():
        _skip_or_fail(f"no built site at {SITE}; run `make book` first")
    return SITE


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 - signature from base class
        pass


@pytest.fixture(scope="session")
def http_server(site_dir: Path):
    """Serve the site on 127.0.0.1 at a free port; yields the base URL."""
    handler = functools.partial(_QuietHandler, directory=str(site_dir))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def page(browser, http_server):
    """A page that blocks and records every request leaving 127.0.0.1."""
    context = browser.new_context()
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.base_url = http_server
    page.external_requests = []
    page.console_errors = []

    def route(route):
        url = route.request.url
        if url.startswith(("data:", "blob:")) or urlsplit(url).hostname in LOCAL_HOSTS:
            route.continue_()
        else:
            page.external_requests.append(url)
            route.abort()

    context.route("**/*", route)
    page.on(
        "console",
        lambda msg: (
            page.console_errors.append(f"{msg.text} @ {msg.location}")
            if msg.type == "error"
            else None
        ),
    )
    page.on("pageerror", lambda err: page.console_errors.append(f"uncaught: {err}"))
    try:
        yield page
    finally:
        context.close()


# --- helpers ------------------------------------------------------------------


def open_page(page, rel: str) -> None:
    """Load a site page and let its scripts settle."""
    page.goto(page.base_url + rel, wait_until="load")
    page.wait_for_load_state("networkidle")


def typeset_math(page) -> int:
    """Wait for MathJax to finish; return the number of typeset formulas."""
    page.wait_for_function("() => window.MathJax && MathJax.startup && MathJax.startup.promise")
    return page.evaluate(
        "() => MathJax.startup.promise.then("
        "() => document.querySelectorAll('mjx-container').length)"
    )


def rendered_widgets(page) -> tuple[int, int]:
    """Wait for html-manager to render every saved widget view.

    Returns (views in the page, views rendered). A view counts as rendered
    when html-manager has put a non-empty ``.widget-subarea`` in its place.
    """
    views = page.locator('script[type="application/vnd.jupyter.widget-view+json"]').count()
    if views:
        page.wait_for_function(
            "n => Array.from(document.querySelectorAll('.widget-subarea'))"
            ".filter(e => e.childElementCount > 0).length >= n",
            arg=views,
        )
    done = page.evaluate(
        "() => Array.from(document.querySelectorAll('.widget-subarea'))"
        ".filter(e => e.childElementCount > 0).length"
    )
    return views, done


def explorer_roots(page, minimum: int = 1, timeout: int = TIMEOUT_MS) -> list:
    """Wait until at least ``minimum`` explorers have rendered; return their locators.

    Every explorer's front end adds the class ``dcglab-explorer`` to its root
    element and fills it; an empty root does not count.
    """
    page.wait_for_function(
        "n => Array.from(document.querySelectorAll('.dcglab-explorer'))"
        ".filter(e => e.childElementCount > 0).length >= n",
        arg=minimum,
        timeout=timeout,
    )
    roots = page.locator(".dcglab-explorer")
    return [roots.nth(i) for i in range(roots.count())]


# --- tests --------------------------------------------------------------------


def test_site_is_self_contained(site_dir):
    """The build vendored its assets (no CDN fallback) -- required under CI."""
    import json

    info_file = site_dir / "_static" / "dcglab-vendor" / "vendor.json"
    assert info_file.is_file(), "site built without scripts/vendor_assets.py"
    info = json.loads(info_file.read_text())
    if info["mode"] != "local":
        _skip_or_fail("site was built in CDN-fallback mode (node_modules missing)")


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
    open_page(page, rel)
    assert typeset_math(page) > 0, "no mjx-container: MathJax did not typeset"
    assert page.locator("mjx-merror").count() == 0, "MathJax reported a TeX error"
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
    for out in root.locator("output[data-out]").all():
        key = out.get_attribute("data-out")
        value = expected[key]
        text = out.inner_text()
        if value is None:
            assert text.startswith("undefined"), (name, key, text)
        elif isinstance(value, int):
            assert text == str(value), (name, key, text)
        else:
            assert text == f"{value:.3f}", (name, key, text)
    return shown


@pytest.mark.parametrize("rel", CHAPTERS)
def test_every_explorer_responds(page, site_dir, rel):
    """Move every slider of every explorer; the output changes to dcglab's values."""
    open_page(page, rel)
    roots = explorer_roots(page)
    assert roots, f"{rel} has no explorer"
    for root in roots:
        before = _check_against_python(root)
        controls = root.locator("[data-param]").all()
        assert controls, "explorer without controls"
        changed_output = False
        for control in controls:
            old_state = root.get_attribute("data-state")
            value = _new_value(control)
            _set(control, value)
            page.wait_for_function(
                "([e, s]) => e.getAttribute('data-state') !== s",
                arg=[root.element_handle(), old_state],
            )
            param = control.get_attribute("data-param")
            state = json.loads(root.get_attribute("data-state"))
            name, _, idx = param.partition(".")
            got = state[name][int(idx)] if idx else state[name]
            assert str(got) == value or float(got) == float(value), (param, got, value)
            after = _check_against_python(root)
            changed_output |= after != before
        name = root.get_attribute("data-explorer")
        assert changed_output, f"no slider of {name} changed its output"
    assert page.external_requests == []
    assert page.console_errors == []
