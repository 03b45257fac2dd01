"""The published site, served as GitHub Pages serves it (scripts/site_server.py): under
the sub-path of the book's public URL (``/dcglab/``), gzip, ``404.html`` for a missing
URL. Build the site first (``make book``, or ``make publish``).

* The published tree holds only the book: no source map, no test library, no theme
  template fragment, no ``.buildinfo``; ``.nojekyll`` is there; no file names a local
  address; and every file is used: named by a page (or by a stylesheet or script a
  page loads), or requested when Chromium loads the pages.
* Every link of every page resolves under the sub-path, its ``#fragment`` included.
* A missing URL, at any depth, gets the book-styled 404 page, whose assets load.
* Every page has a description, Open Graph tags, a canonical URL and the favicon; the
  front page's title is the book's title once.
* Every chapter made from a notebook says once how to run it, and offers Binder and
  Colab launch buttons for its notebook in the repository.
* Bytes, not time: a chapter's gzip transfer and its render-blocking bytes stay under
  budgets set from the Lighthouse benchmark (benchmarks/lighthouse.py).
* The reader's settings: the colour mode follows the system, the explorers sit on the
  page's background in both modes, one search field, and the first explorer control is
  at most 15 tab stops from the top of the page (through "Skip to the explorer").
* A notebook offered for download leaves out the hidden cells no later cell needs.
* A notebook downloaded from the site runs in a fresh environment after the one install
  command its page gives (slow: it installs from the package registry).
"""

from __future__ import annotations

import gzip
import html
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pytest
import yaml
from sitekit import CHAPTERS, EXPLORER_PAGES, PAGES

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
import first_paint  # noqa: E402
import site_server  # noqa: E402

CONFIG = yaml.safe_load((ROOT / "_config.yml").read_text())
PUBLIC_URL = CONFIG["html"]["baseurl"]
REPOSITORY = CONFIG["repository"]["url"]
BOOK_TITLE = CONFIG["title"]
EXTRA_PAGES = ["search.html", "genindex.html"]
LOCAL_ADDRESS = re.compile(rb"127\.0\.0\.1|localhost")
TEXT_SUFFIXES = {".html", ".js", ".css", ".json", ".svg", ".txt", ".md", ".ipynb", ".map"}

#: Budgets per chapter, in KiB, set from benchmarks/results/lighthouse.txt (about 15 %
#: above the largest chapter, 343 KiB, and the one stylesheet, 69 KiB): everything a
#: chapter loads, gzip-compressed as the host sends it, and what of it blocks the
#: first paint.
CHAPTER_TRANSFER_KIB = 400
RENDER_BLOCKING_KIB = 80
MAX_TAB_STOPS = 15


def transfer_size(path: Path) -> int:
    """Bytes the host sends for a file: gzip level 6 for text, as is otherwise."""
    data = path.read_bytes()
    return len(gzip.compress(data, 6)) if path.suffix in TEXT_SUFFIXES else len(data)


# --- the crawl ------------------------------------------------------------------

COLLECT_JS = """() => ({
  links: Array.from(document.querySelectorAll('a[href]'), (a) => a.href),
  ids: Array.from(document.querySelectorAll('[id]'), (e) => e.id),
})"""


@pytest.fixture(scope="module")
def published(site_dir):
    """The site served under its public URL's sub-path; yields the book's URL."""
    with site_server.serve(site_dir) as url:
        yield url


@pytest.fixture(scope="module")
def crawl(browser, published, site_dir):
    """Every page loaded in Chromium under the sub-path: per page its links, its ids,
    the URLs it requested and those that failed."""
    out = {}
    context = browser.new_context()
    for rel in PAGES + EXTRA_PAGES:
        page = context.new_page()
        requested, failed = [], []
        page.on("requestfinished", lambda r, got=requested: got.append(r.url))
        page.on(
            "response",
            lambda r, bad=failed: r.status >= 400 and bad.append(f"{r.status} {r.url}"),
        )
        page.on("requestfailed", lambda r, bad=failed: bad.append(f"failed {r.url}"))
        page.goto(published + rel, wait_until="load")
        page.wait_for_load_state("networkidle")
        if (site_dir / rel).read_text().count("widget-view+json"):
            page.wait_for_function("() => document.querySelectorAll('.dcglab-explorer').length > 0")
        out[rel] = {**page.evaluate(COLLECT_JS), "requested": requested, "failed": failed}
        page.close()
    context.close()
    return out


def site_file(site_dir: Path, published: str, url: str) -> Path | None:
    """The file of the site a URL under the sub-path names (None: another address)."""
    if not url.startswith(published):
        return None
    rel = urlsplit(url).path[len(urlsplit(published).path) :] or "index.html"
    return site_dir / rel


# --- what is published ---------------------------------------------------------------


def test_only_the_book_is_published(site_dir):
    files = [p for p in site_dir.rglob("*") if p.is_file()]
    names = [p.relative_to(site_dir).as_posix() for p in files]
    assert (site_dir / ".nojekyll").is_file(), "GitHub Pages would drop the _ folders"
    assert (site_dir / "404.html").is_file()
    extra = [
        n
        for n in names
        if n.endswith(".map")
        or "axe" in n
        or "webpack-macros" in n
        or n in (".buildinfo", "objects.inv", "_print.html")
        or n.startswith("_static/locales/")
    ]
    assert extra == []
    local = [n for n, p in zip(names, files, strict=True) if LOCAL_ADDRESS.search(p.read_bytes())]
    assert local == [], "files naming a local address"


CSS_URL = re.compile(r'url\(\s*[\'"]?([^\'")]+)|@import\s+[\'"]([^\'"]+)')
LICENSE_NOTE = re.compile(r"license information please see ([\w.-]+)")


def test_every_published_file_is_used(site_dir, published, crawl):
    """Each file is a page, or a page links to it, or Chromium requested it while
    loading the pages, or a stylesheet that was loaded names it (a font of an icon
    set), or a script that was loaded names it as its licence."""
    used = {site_dir / rel for rel in PAGES + EXTRA_PAGES} | {site_dir / "404.html"}
    loaded = set()
    for got in crawl.values():
        for url in got["links"] + got["requested"]:
            path = site_file(site_dir, published, url.split("#")[0].split("?")[0])
            if path is not None:
                used.add(path)
                if url in got["requested"]:
                    loaded.add(path)
    for path in loaded:
        if path.suffix in (".css", ".js") and path.is_file():
            text = path.read_text(errors="replace")
            names = ["".join(m) for m in CSS_URL.findall(text)] if path.suffix == ".css" else []
            names += LICENSE_NOTE.findall(text)
            used |= {(path.parent / n.split("?")[0].split("#")[0]) for n in names}
    used = {p.resolve() for p in used}
    unused = sorted(
        p.relative_to(site_dir).as_posix()
        for p in site_dir.rglob("*")
        if p.is_file() and p.resolve() not in used and p.name != ".nojekyll"
    )
    assert unused == []


# --- links, 404 -------------------------------------------------------------------------


def test_every_page_loads_under_the_sub_path(crawl):
    failed = {rel: got["failed"] for rel, got in crawl.items() if got["failed"]}
    assert failed == {}


def test_every_link_resolves(site_dir, published, crawl):
    """Each link inside the book names a file that is there and, with a fragment, an id
    of that page (an explorer's state link, ``#dcglab.<name>=<state>``, is not an id)."""
    ids = {published + rel: set(got["ids"]) for rel, got in crawl.items()}
    bad, checked = [], 0
    for rel, got in crawl.items():
        for link in got["links"]:
            target, _, fragment = link.partition("#")
            path = site_file(site_dir, published, target)
            if path is None:
                continue
            checked += 1
            if not path.is_file():
                bad.append(f"{rel}: {link} (no file)")
            elif fragment and not fragment.startswith("dcglab.") and target in ids:
                if html.unescape(fragment) not in ids[target]:
                    bad.append(f"{rel}: {link} (no such id)")
    assert checked > 500 and bad == []


@pytest.mark.parametrize("missing", ["no-such-page.html", "chapters/gone/deeper/page.html"])
def test_a_missing_page_gets_the_book_404(browser, published, missing):
    with pytest.raises(urllib.error.HTTPError) as err:
        urllib.request.urlopen(published + missing)
    assert err.value.code == 404
    page = browser.new_page()
    failed = []
    page.on("response", lambda r: failed.append(r.url) if r.status >= 400 else None)
    page.goto(published + missing, wait_until="networkidle")
    assert page.locator("#page-not-found h1").inner_text().startswith("Page not found")
    assert page.title().startswith("Page not found")
    # the book's look (its stylesheets loaded) and a way home under the sub-path
    assert failed == [published + missing]
    rules = page.evaluate("[...document.styleSheets].reduce((n, s) => n + s.cssRules.length, 0)")
    assert rules >= 1000, rules  # the theme's rules, not a bare page
    home = page.get_by_role("link", name="the book's first page")
    assert home.evaluate("a => a.href") == published + "index.html"
    assert page.locator("nav.bd-docs-nav a").count() >= len(PAGES) - 1
    page.close()


# --- metadata --------------------------------------------------------------------------

META = re.compile(r'<meta (?:name|property)="([^"]+)" content="([^"]*)"')


@pytest.mark.parametrize("rel", PAGES)
def test_every_page_has_its_metadata(site_dir, rel):
    text = (site_dir / rel).read_text()
    meta = {k: html.unescape(v) for k, v in META.findall(text)}
    url = PUBLIC_URL + rel
    assert len(meta.get("description", "")) >= 50
    assert meta["og:description"] == meta["description"]
    assert meta["og:title"] and meta["og:site_name"] == BOOK_TITLE
    assert meta["og:url"] == url
    assert f'<link rel="canonical" href="{url}" />' in text
    assert re.search(r'<link rel="icon" href="[^"]*_static/dcglab\.svg"', text)
    title = html.unescape(re.search(r"<title>(.*?)</title>", text, re.S).group(1))
    if rel == "index.html":
        assert title == BOOK_TITLE
    else:
        assert title.endswith(BOOK_TITLE) and title.count(BOOK_TITLE) == 1


def test_page_titles_and_descriptions_are_distinct(site_dir):
    titles, descriptions = [], []
    for rel in PAGES:
        text = (site_dir / rel).read_text()
        titles.append(re.search(r"<title>(.*?)</title>", text, re.S).group(1))
        descriptions.append(dict(META.findall(text))["description"])
    assert len(set(titles)) == len(PAGES)
    assert len(set(descriptions)) == len(PAGES)


NOTEBOOK_PAGES = [rel for rel in CHAPTERS if (ROOT / rel.replace(".html", ".ipynb")).is_file()]


@pytest.mark.parametrize("rel", NOTEBOOK_PAGES)
def test_a_chapter_says_how_to_run_it(site_dir, published, rel):
    text = (site_dir / rel).read_text()
    notes = re.findall(r'<p class="dcglab-run">(.*?)</p>', text, re.S)
    assert len(notes) == 1
    download = re.search(r'<a href="([^"]+)" download>', notes[0]).group(1)
    assert urllib.request.urlopen(urljoin(published + rel, download)).status == 200
    command = html.unescape(re.search(r"<code>(.*?)</code>", notes[0]).group(1))
    assert command == f'pip install jupyterlab "dcglab[book] @ git+{REPOSITORY}"'
    notebook = rel.removesuffix(".html") + ".ipynb"
    owner_repo = urlsplit(REPOSITORY).path.strip("/")
    assert f"https://mybinder.org/v2/gh/{owner_repo}/main?urlpath=" in html.unescape(text)
    assert f"colab.research.google.com/github/{owner_repo}/blob/main/{notebook}" in text


@pytest.mark.parametrize("rel", NOTEBOOK_PAGES)
def test_a_downloaded_notebook_leaves_out_the_hidden_cells(site_dir, rel):
    """The notebook offered for download holds the repository notebook's cells without
    the ``remove-cell`` ones that no later cell needs (scripts/published_notebooks.py)."""
    import published_notebooks

    source = json.loads((ROOT / rel.replace(".html", ".ipynb")).read_text(encoding="utf-8"))
    copy = site_dir / "_sources" / rel.replace(".html", ".ipynb")
    downloaded = json.loads(copy.read_text(encoding="utf-8"))
    expected = published_notebooks.published(source)
    assert [c["source"] for c in downloaded["cells"]] == [c["source"] for c in expected["cells"]]


# --- bytes ------------------------------------------------------------------------------


def render_blocking(site_dir: Path, rel: str) -> int:
    """Transfer bytes of what the page's ``<head>`` makes the browser fetch before it
    paints (:func:`first_paint.blocking_paths`)."""
    page = site_dir / rel
    return sum(
        transfer_size(page.parent / url) for url in first_paint.blocking_paths(page.read_text())
    )


@pytest.mark.parametrize("rel", CHAPTERS)
def test_a_chapter_stays_within_its_byte_budgets(site_dir, published, crawl, rel):
    files = {site_dir / rel} | {
        site_file(site_dir, published, url.split("?")[0]) for url in crawl[rel]["requested"]
    }
    transfer = sum(transfer_size(p) for p in files if p is not None and p.is_file())
    blocking = render_blocking(site_dir, rel)
    assert transfer <= CHAPTER_TRANSFER_KIB * 1024, f"{rel}: {transfer / 1024:.0f} KiB"
    assert blocking <= RENDER_BLOCKING_KIB * 1024, f"{rel}: {blocking / 1024:.0f} KiB"


# --- the reader's settings ----------------------------------------------------------------


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_colour_mode_follows_the_system(browser, published, scheme):
    context = browser.new_context(color_scheme=scheme)
    page = context.new_page()
    page.goto(published + EXPLORER_PAGES[0], wait_until="networkidle")
    page.wait_for_selector(".dcglab-explorer")
    look = page.evaluate(
        """() => {
          const bg = (e) => getComputedStyle(e).backgroundColor;
          const area = document.querySelector('.widget-subarea');
          return {theme: document.documentElement.dataset.theme,
                  mode: document.documentElement.dataset.mode,
                  page: bg(document.body),
                  explorer: bg(document.querySelector('.dcglab-explorer')),
                  area: bg(area), padding: getComputedStyle(area).paddingTop};
        }"""
    )
    context.close()
    assert look["mode"] == "auto" and look["theme"] == scheme, look
    assert look["explorer"] == look["page"], look
    assert look["area"] == "rgba(0, 0, 0, 0)" and look["padding"] == "0px", look


@pytest.mark.parametrize("width", [1280, 390])
def test_one_search_field(browser, published, width):
    page = browser.new_page(viewport={"width": width, "height": 900})
    page.goto(published + CHAPTERS[0], wait_until="networkidle")
    fields = page.locator(".search-button-field:visible, .search-button:visible").count()
    page.close()
    assert fields == 1


TAB_JS = """() => {
  const e = document.activeElement;
  return {text: (e.textContent || '').trim(), inExplorer: Boolean(e.closest('.dcglab-explorer'))};
}"""


@pytest.mark.parametrize("rel", EXPLORER_PAGES)
def test_the_first_explorer_control_is_a_few_tab_stops_away(browser, published, rel):
    """From the top of the page: Tab to "Skip to the explorer", Enter, Tab into the
    explorer; at most 15 key presses of Tab in all."""
    page = browser.new_page()
    page.goto(published + rel, wait_until="networkidle")
    page.wait_for_selector(".dcglab-explorer button, .dcglab-explorer input")
    stops, skipped = 0, False
    while stops < 60:
        page.keyboard.press("Tab")
        stops += 1
        now = page.evaluate(TAB_JS)
        if now["inExplorer"]:
            break
        if now["text"] == "Skip to the explorer" and not skipped:
            page.keyboard.press("Enter")
            skipped = True
    page.close()
    assert skipped and now["inExplorer"], (rel, stops, now)
    assert stops <= MAX_TAB_STOPS, (rel, stops)


# --- run it yourself ----------------------------------------------------------------------------

DOWNLOADED = "chapters/01_cumulative_gain.ipynb"


@pytest.mark.slow
@pytest.mark.timeout(3600)
def test_a_downloaded_chapter_runs_after_the_install_command(site_dir, published, tmp_path):
    """A fresh virtual environment, the page's install command (the repository's git URL
    swapped for a copy of this checkout's package), then the notebook as the site serves it, run by
    nbconvert (the registries are reached through pip)."""
    rel = DOWNLOADED.replace(".ipynb", ".html")
    note = re.search(r'<p class="dcglab-run">(.*?)</p>', (site_dir / rel).read_text(), re.S)
    command = html.unescape(re.search(r"<code>(.*?)</code>", note.group(1)).group(1))
    download = re.search(r'<a href="([^"]+)" download>', note.group(1)).group(1)
    notebook = tmp_path / "chapter.ipynb"
    notebook.write_bytes(urllib.request.urlopen(urljoin(published + rel, download)).read())
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = venv / "bin" / "python"
    # a copy of the package's sources, so that pip's build leaves nothing in the checkout
    source = tmp_path / "dcglab"
    ignored = shutil.ignore_patterns("__pycache__", "*.so")  # pip compiles its own
    shutil.copytree(ROOT / "src", source / "src", ignore=ignored)
    for name in ("pyproject.toml", "setup.py"):
        shutil.copy2(ROOT / name, source / name)
    args = [a.replace(f"git+{REPOSITORY}", source.as_uri()) for a in shlex.split(command)[2:]]
    env = {k: v for k, v in os.environ.items() if k != "VIRTUAL_ENV"}
    subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", *args], check=True, env=env, timeout=1800
    )
    jupyter = venv / "bin" / "jupyter"
    run = subprocess.run(
        [str(jupyter), "nbconvert", "--to", "notebook", "--execute", str(notebook),
         "--output", str(tmp_path / "ran.ipynb"), "--ExecutePreprocessor.timeout=600"],
        capture_output=True, text=True, env={**env, "PATH": f"{venv / 'bin'}:{env['PATH']}"},
        cwd=tmp_path, timeout=1200,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr[-3000:]
