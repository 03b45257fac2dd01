"""Fixtures and helpers of the browser tests of the built static site (``_build/html``).

The fixtures (in tests/conftest.py) use these:

* ``site_dir``: the built site (``_build/html``, or the folder ``DCGLAB_SITE`` names);
  skipped when missing (a failure under CI=true).
* ``http_server``: base URL of the site served on 127.0.0.1 (``serve_folder``).
* ``page``: a fresh 1280x900 light-mode page of the site (:func:`new_page`).

Helpers:

* ``live_lab(root, name, cells)``: a JupyterLab server on 127.0.0.1 serving one new
  notebook ``name`` made of ``cells`` in folder ``root``; yields the notebook's URL.
* ``open_lab(browser, url)``: a page showing that notebook with its kernel connected
  (requests off 127.0.0.1 aborted); ``run_cell(page, i)`` and ``cell_output(page, i)``.

* ``twin_page(browser, script, exports)``: a blank page running ``script`` with
  ``exports`` on ``window.twin`` (the JS twin tests).
* ``new_page(browser, base_url, width=..., height=..., mode=...)``: a page whose
  requests to any host other than 127.0.0.1 are aborted and recorded in
  ``page.external_requests``; console errors and uncaught exceptions are recorded
  in ``page.console_errors``.
* ``explorer_roots(page)``: waits until the explorers (elements with class
  ``dcglab-explorer``, which every explorer adds to its root element) have
  rendered and returns their locators.
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import nbformat
import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
#: The built site; DCGLAB_SITE names another folder (e.g. a copy whose saved widget state
#: carries the current front-end files).
SITE = Path(os.environ.get("DCGLAB_SITE", ROOT / "_build" / "html"))
LOCAL_HOSTS = {"127.0.0.1"}
TIMEOUT_MS = 20_000


def _toc_files() -> list[str]:
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    entries = toc.get("chapters", []) + [
        c for part in toc.get("parts", []) for c in part.get("chapters", [])
    ]
    return [e["file"] for e in entries if "file" in e]


def _pages() -> list[str]:
    """index.html, every file in _toc.yml, and every chapters/*.html built."""
    pages = {"index.html"} | {f + ".html" for f in _toc_files()}
    pages.update(p.relative_to(SITE).as_posix() for p in SITE.glob("chapters/*.html"))
    return sorted(pages)


PAGES = _pages()
CHAPTERS = [p for p in PAGES if p.startswith("chapters/")]
#: Pages whose saved widget state holds views: every one of them is an explorer.
EXPLORER_PAGES = [
    p for p in PAGES if (SITE / p).is_file() and "widget-view+json" in (SITE / p).read_text()
]


# --- pages ------------------------------------------------------------------


@contextlib.contextmanager
def twin_page(browser, script: str, exports: str):
    """A blank page that runs ``script`` (ES module text) and puts ``exports`` (a
    JS object literal of its functions) on ``window.twin``, for the JS twin tests."""
    page = browser.new_page()
    page.set_content("<html><body></body></html>")
    page.add_script_tag(type="module", content=f"{script}\nwindow.twin = {exports};")
    page.wait_for_function("window.twin !== undefined")
    try:
        yield page
    finally:
        page.close()


@contextlib.contextmanager
def new_page(browser, base_url: str, width: int = 1280, height: int = 900, mode: str = "light"):
    """A page of the site (``mode``: the theme's "light" or "dark") that blocks and
    records every request leaving 127.0.0.1 and records console errors."""
    context = browser.new_context(viewport={"width": width, "height": height})
    # pydata-sphinx-theme reads the colour mode from localStorage before drawing
    context.add_init_script(f"localStorage.setItem('mode', '{mode}');")
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.base_url = base_url
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


def settle(page) -> None:
    """Open a page's saved widgets and wait for them, as a reader would see it."""
    views, _ = rendered_widgets(page)
    if views:
        explorer_roots(page)


# --- explorer controls ----------------------------------------------------------

#: JavaScript run in the page on one explorer root (``[root, seed, states]``). From the
#: current state and from ``states`` seeded random states (each control in turn set to a
#: random legal value, and each card of a rank strip that takes grades given a random
#: grade 0..3 by its digit key, so dependent ranges and hidden sliders apply), every
#: visible, enabled slider is moved to its minimum and to its maximum and every card set
#: to grade 0 and 3 (those that differ from its value); each move must change the
#: explorer's results, its drawing, its rank strip or its live region. The state is
#: restored after each move. Returns ``{dead, states, restored, reset}``: the dead
#: moves, the random states with their results (for the Python check), whether every
#: restore came back to the same state, and whether Reset returned to the initial state.
CONTROL_CHECK_JS = """
([root, seed, count]) => {
  let a = seed >>> 0;
  const rand = () => {  // mulberry32
    a = (a + 0x6D2B79F5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const controls = () => Array.from(root.querySelectorAll('[data-param]'));
  const usable = (e) =>
    !e.disabled && !e.closest('.dcglab-control').hidden && e.offsetParent !== null;
  const sliders = () => controls().filter((e) => e.type === 'range' && usable(e));
  const set = (e, v) => {
    e.value = String(v);
    e.dispatchEvent(new Event(e.tagName === 'SELECT' ? 'change' : 'input', {bubbles: true}));
  };
  const strip = () => (root.querySelector('.dcglab-rank') || {innerHTML: ''}).innerHTML;
  const look = () => [root.getAttribute('data-result'),
                      root.querySelector('.dcglab-output').innerHTML, strip(),
                      root.querySelector('.dcglab-readouts').textContent].join('\\u0000');
  // the rank strip's cards: a digit key sets a card's grade (0..3)
  const cards = () => Array.from(root.querySelectorAll(
    '.dcglab-strip:not(.dcglab-moves-only) button.dcglab-card'));
  const press = (e, key) => e.dispatchEvent(new KeyboardEvent('keydown', {key, bubbles: true}));
  const gradeOf = (e) => parseInt(e.querySelector('.dcglab-card-grade').textContent, 10);
  const values = () => controls().map((e) => e.value);
  const restore = (saved) => controls().forEach((e, i) => {
    if (e.value !== saved[i]) set(e, saved[i]);
  });
  const initial = root.getAttribute('data-state');
  const dead = [], states = [];
  let restored = true;
  for (let round = 0; round <= count; round++) {
    if (round > 0) {
      for (const e of controls()) {
        if (!usable(e) || e.tagName === 'BUTTON') continue;
        if (e.tagName === 'SELECT') set(e, e.options[Math.floor(rand() * e.options.length)].value);
        else {
          const lo = Number(e.min), hi = Number(e.max), step = Number(e.step);
          const n = Math.round((hi - lo) / step);
          set(e, +(lo + step * Math.floor(rand() * (n + 1))).toFixed(6));
        }
      }
    }
    if (round > 0) for (const c of cards()) press(c, String(Math.floor(rand() * 4)));
    const state = root.getAttribute('data-state');
    states.push([state, root.getAttribute('data-result')]);
    cards().forEach((c, i) => {
      const cur = gradeOf(c);
      for (const target of [0, 3]) {
        if (target === cur) continue;
        const before = look();
        press(cards()[i], String(target));
        if (look() === before) dead.push(`card ${i + 1} -> grade ${target} from ${state}`);
        press(cards()[i], String(cur));
        restored = restored && root.getAttribute('data-state') === state;
      }
    });
    for (const e of sliders()) {
      const cur = Number(e.value);
      for (const target of [Number(e.min), Number(e.max)]) {
        if (target === cur) continue;
        const saved = values(), before = look();
        set(e, target);
        if (look() === before) dead.push(`${e.dataset.param} -> ${target} from ${state}`);
        restore(saved);
        restored = restored && root.getAttribute('data-state') === state;
      }
    }
  }
  const button = root.querySelector('button.dcglab-reset');
  button.click();
  const reset = root.getAttribute('data-state') === initial && button.disabled;
  return {dead, states, restored, reset};
}
"""


RESULT_TOL = 1e-9


def python_mismatches(name: str, state: dict, shown: dict) -> list[str]:
    """Where the results an explorer shows differ from ``Explorer.compute(state)``."""
    from dcglab.book.explorers import REGISTRY

    expected = REGISTRY[name].compute(state)
    if shown.keys() != expected.keys():
        return [f"{name}: keys {sorted(shown)} != {sorted(expected)}"]
    bad = []
    for key, value in expected.items():
        got = shown[key]
        if value is None or got is None:
            if value is not got:
                bad.append(f"{name}.{key}: shown {got}, dcglab {value} at {state}")
        elif abs(got - value) > RESULT_TOL:
            bad.append(f"{name}.{key}: shown {got}, dcglab {value} at {state}")
    return bad


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def live_lab(root: Path, name: str, cells: list[str]) -> Iterator[str]:
    """JupyterLab on 127.0.0.1 with one notebook ``name`` of code ``cells`` in ``root``
    (its own config and runtime folders, no token); yields the notebook's URL and
    stops the server afterwards. Fails the test if Lab does not answer in 120 s."""
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells])
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    nbformat.write(nb, root / name)
    port = free_port()
    env = {
        **os.environ,
        "JUPYTER_CONFIG_DIR": str(root / "config"),
        "JUPYTER_RUNTIME_DIR": str(root / "runtime"),
    }
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "jupyterlab",
            "--no-browser",
            "--allow-root",
            f"--port={port}",
            "--ServerApp.ip=127.0.0.1",
            "--IdentityProvider.token=",
            "--ServerApp.password=",
            f"--ServerApp.root_dir={root}",
            "--LabApp.expose_app_in_browser=True",
            "--LabApp.news_url=None",
            "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.time() + 120
        while time.time() < deadline:
            try:
                urllib.request.urlopen(f"{url}/api/status", timeout=2)
                break
            except OSError:
                time.sleep(0.5)
        else:
            pytest.fail("JupyterLab did not start within 120 s")
        yield f"{url}/lab/tree/{name}"
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()


def open_lab(browser, url: str):
    """A page with the notebook at ``url`` open in JupyterLab and its kernel connected;
    nothing may leave the machine (Lab needs only its own server)."""
    page = browser.new_page()
    page.set_default_timeout(120_000)
    page.route(
        "**/*",
        lambda r: (
            r.continue_()
            if r.request.url.startswith(("http://127.0.0.1", "data:", "blob:"))
            else r.abort()
        ),
    )
    page.goto(url)
    page.wait_for_function(
        "window.jupyterapp && window.jupyterapp.shell.currentWidget"
        " && window.jupyterapp.shell.currentWidget.sessionContext"
        " && window.jupyterapp.shell.currentWidget.sessionContext.session"
        " && window.jupyterapp.shell.currentWidget.sessionContext.session"
        ".kernel.connectionStatus === 'connected'"
    )
    return page


def run_cell(page, index: int) -> None:
    page.evaluate(
        """async (i) => {
            const panel = window.jupyterapp.shell.currentWidget;
            panel.content.activeCellIndex = i;
            await window.jupyterapp.commands.execute('notebook:run-cell');
        }""",
        index,
    )


def cell_output(page, index: int) -> str:
    return page.evaluate(
        """(i) => {
            const cell = window.jupyterapp.shell.currentWidget.content.widgets[i];
            return cell.outputArea.node.innerText;
        }""",
        index,
    )
