"""Local Sphinx extension for the dcglab book (``sphinx.local_extensions``).

1. Assets and formulas. On every build, refill ``_vendor/`` (see ``vendor_assets.py``).
   The formulas are typeset to SVG when the book is built (``typeset_math.cjs``, with
   mathjax-full from npm), so no page loads MathJax; a TeX error is a build warning.
   When npm's assets are missing, MathJax typesets them in the reader's browser,
   loaded from the public CDN at the pinned version (``mathjax_path`` is swapped).
2. Scripts. Drop duplicated inline ``<script>`` tags (Sphinx 7.4 re-adds every body-only
   script registered after ``Builder.init()``, so pages declared the same ``const``
   twice); load every script file with ``defer`` except ``documentation_options.js``
   (the inline scripts after it use it at once), so no script blocks the first paint;
   leave out sphinx-thebe's scripts when Thebe is off. The saved widget state moves
   from ``<head>`` to the end of the page, so the text comes first; explorers are drawn
   from it by ``site_js/widgets.js``, which draws anywidgets only: a page that shows any
   other widget is a build warning (an error under ``-W``).
3. Accessibility fixes to markup the book does not write itself (WCAG 2.1 AA, checked
   with axe-core by tests/test_a11y.py):

   * MyST-NB's hidden-code toggle: ``<summary aria-label="Toggle hidden content">``
     names the control differently from its visible text ("Show code cell source");
     the label goes, so the visible text is the name (2.5.3 label in name).
   * sphinxcontrib-bibtex's citation list: ``role="list"`` whose entries carry the
     deprecated ``doc-biblioentry`` role, so the list had no list items; entries
     become ``role="listitem"``.
   * every table of a page (Markdown tables, pandas outputs) sits in a labelled,
     focusable box that scrolls sideways on its own, so that no page scrolls
     sideways on a phone (WCAG 1.4.10 reflow; 2.1.1 keyboard for the scroll).
   * the first explorer of a page is the target of the skip link "Skip to the
     explorer" (``_templates/layout.html``), so a keyboard reaches it in a few steps.
   * the theme's search field and colour-mode buttons: overridden in ``_templates/``.
   * ``site_js/dcglab_site.css`` (link contrast in exercise boxes, explorers on the
     page's background in both modes, phones) is added to every page.
4. Publishing (the public URL is ``html.baseurl`` and the repository ``repository.url``
   in ``_config.yml``, each set there once):

   * every chapter made from a notebook says, under its title, how to run it: the
     notebook's download link and one install command built from the repository URL;
   * every page gets a description (its first paragraph) and Open Graph tags (the
     front page's title is the book's title once: ``_templates/layout.html``);
   * ``404.html``, in the book's look, with its links absolute under the public URL's
     path, so that it works at any depth of a sub-path (a static host serves it for
     every missing URL);
   * one stylesheet and no blocking script before a page's text, and icon fonts cut to
     the icons pages use (``first_paint.py``);
   * ``.nojekyll``, so that GitHub Pages serves the folders that start with ``_``;
   * the notebooks offered for download (``_sources/``) leave out the cells tagged
     ``remove-cell`` that no later cell needs (``published_notebooks.py``);
   * the published tree holds only what pages use: source maps, the theme's template
     fragments, ``.buildinfo``, ``objects.inv``, translation catalogues and every other
     file under ``_static/`` that no page, stylesheet or script names are removed.
"""

from __future__ import annotations

import html
import os
import re
import shutil
from pathlib import Path
from urllib.parse import urlsplit

import first_paint
import published_notebooks
import vendor_assets
from docutils import nodes
from sphinx.builders.html._assets import _JavaScript
from sphinx.util import logging

logger = logging.getLogger(__name__)

WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
WIDGET_VIEW = '<script type="application/vnd.jupyter.widget-view+json">'
#: Scripts that inline scripts after them use at once: never deferred.
BLOCKING_OK = ("documentation_options.js",)
THEBE = ("sphinx-thebe.js", "sphinx-thebe.css")


def _on_config_inited(app, config) -> None:
    app.dcglab_math = vendor_assets.vendor(log=logger.info)
    if app.dcglab_math == "build":
        app.add_css_file(vendor_assets.PREFIX + vendor_assets.MATH_CSS)
    else:
        # Sphinx reads mathjax_path per page, after this.
        config.mathjax_path = vendor_assets.cdn_url(config.mathjax_path)


# --- scripts ---------------------------------------------------------------------


def _thebe_on(app) -> bool:
    return bool((app.config.html_theme_options.get("launch_buttons") or {}).get("thebe"))


def _client_mathjax(app, filename: str, body: str) -> bool:
    """Whether a script is MathJax or its configuration (left out when the build
    typesets the formulas)."""
    return getattr(app, "dcglab_math", "") == "build" and (
        filename.split("?")[0].endswith(app.config.mathjax_path)
        or body.startswith("window.MathJax")
    )


def _scripts(app, pagename, templatename, context, doctree) -> None:
    """Dedupe, defer and trim the page's scripts; move the widget state to the body."""
    scripts = context.get("script_files")
    if not scripts:
        return
    seen, unique, state = set(), [], None
    for js in scripts:
        filename = os.fspath(getattr(js, "filename", js) or "")
        attrs = dict(getattr(js, "attributes", {}) or {})
        if attrs.get("type") == WIDGET_STATE:
            state = attrs.get("body")
            continue
        if _client_mathjax(app, filename, attrs.get("body", "")):
            continue
        if not _thebe_on(app) and (
            filename.endswith(THEBE) or "THEBE_JS_URL" in attrs.get("body", "")
        ):
            continue
        key = (filename, tuple(sorted((k, str(v)) for k, v in attrs.items())))
        if key in seen:
            continue
        seen.add(key)
        if filename and not filename.endswith(BLOCKING_OK) and not {"async", "defer"} & set(attrs):
            attrs["defer"] = "defer"
            js = _JavaScript(filename, priority=getattr(js, "priority", 500), **attrs)
        unique.append(js)
    scripts[:] = unique
    css = context.get("css_files")
    if css and not _thebe_on(app):
        css[:] = [c for c in css if not os.fspath(getattr(c, "filename", c)).endswith(THEBE)]
    if state is not None and isinstance(context.get("body"), str):
        for problem in check_views(pagename, context["body"], state):
            logger.warning(problem)
        body = mark_first_explorer(context["body"], state)
        context["dcglab_explorer"] = SKIP_TARGET in body
        context["body"] = body + f'\n<script type="{WIDGET_STATE}">{state}</script>\n'


VIEW_MODEL = re.compile(re.escape(WIDGET_VIEW) + r'\{"model_id": "([0-9a-f]+)"')
STATE_MODEL = re.compile(r'"([0-9a-f]{32})": \{"model_module": "([^"]+)"')


def check_views(pagename: str, body: str, state: str) -> list[str]:
    """Views in ``body`` whose model in the saved ``state`` is not an anywidget
    (``widgets.js`` draws only those)."""
    modules = dict(STATE_MODEL.findall(state))
    return [
        f"{pagename}: widget view {m} is a {modules.get(m, 'missing')} model; the static"
        " site draws anywidgets only (site_js/widgets.js)"
        for m in VIEW_MODEL.findall(body)
        if modules.get(m) != "anywidget"
    ]


# --- markup ------------------------------------------------------------------------

#: (markup written by an extension, its accessible replacement)
BODY_FIXES = (
    ('<summary aria-label="Toggle hidden content">', "<summary>"),
    ('role="doc-biblioentry"', 'role="listitem"'),
)


TABLE = re.compile(r"<table\b.*?</table>", re.S)
CAPTION = re.compile(r"<caption\b[^>]*>(.*?)</caption>", re.S)
TAG = re.compile(r"<[^>]+>")
OUTPUT_VIEW = re.compile(
    r'<div class="cell_output docutils container">(?=\s*'
    + re.escape(WIDGET_VIEW)
    + r'\{"model_id": "([0-9a-f]+)")'
)
SKIP_TARGET = '<div class="cell_output docutils container" id="dcglab-explorer" tabindex="-1">'


def mark_first_explorer(body: str, state: str) -> str:
    """Make the output of the page's first explorer (an anywidget's view) the target of
    the skip link "Skip to the explorer"."""
    explorers = {m for m, module in STATE_MODEL.findall(state) if module == "anywidget"}
    for m in OUTPUT_VIEW.finditer(body):
        if m.group(1) in explorers:
            return body[: m.start()] + SKIP_TARGET + body[m.end() :]
    return body


def scroll_tables(body: str) -> str:
    """Wrap each table in ``<div class="dcglab-table-scroll" role="region" tabindex="0">``,
    named by its caption or by its number on the page."""
    count = 0

    def wrap(match: re.Match) -> str:
        nonlocal count
        count += 1
        caption = CAPTION.search(match.group(0))
        text = " ".join(html.unescape(TAG.sub("", caption.group(1))).split()) if caption else ""
        label = html.escape(text or f"Table {count}", quote=True)
        return (
            f'<div class="dcglab-table-scroll" role="region" aria-label="{label}" tabindex="0">'
            f"{match.group(0)}</div>"
        )

    return TABLE.sub(wrap, body)


def fix_markup(body: str) -> str:
    """Apply :data:`BODY_FIXES` and :func:`scroll_tables` to a page body."""
    for old, new in BODY_FIXES:
        body = body.replace(old, new)
    return scroll_tables(body)


def install_command(repository_url: str) -> str:
    """The one command that installs what a chapter's notebook needs."""
    if repository_url:
        return f'pip install jupyterlab "dcglab[book] @ git+{repository_url.rstrip("/")}"'
    return 'pip install jupyterlab -e ".[book]"   # in a clone of the repository'


def run_note(download: str, command: str) -> str:
    """The note under a chapter's title: how to run its notebook."""
    return (
        '<p class="dcglab-run"><strong>Run this chapter yourself:</strong> '
        f'<a href="{html.escape(download, quote=True)}" download>download its notebook</a>,'
        f" install Jupyter and what it needs with <code>{html.escape(command)}</code>, then"
        " open it in JupyterLab. (Or launch it on Binder or Colab from the rocket button"
        " above.) The explorers on this page work without any of that.</p>"
    )


def _body(app, pagename, templatename, context, doctree) -> None:
    body = context.get("body")
    if not isinstance(body, str):
        return
    body = fix_markup(body)
    source = context.get("sourcename") or ""
    if source.endswith(".ipynb") and "</h1>" in body:
        repo = app.config.html_theme_options.get("repository_url") or ""
        note = run_note(context["pathto"]("_sources/" + source, 1), install_command(repo))
        body = body.replace("</h1>", "</h1>\n" + note, 1)
    context["body"] = body


# --- metadata ------------------------------------------------------------------------

DESCRIPTION_CHARS = 160


def description(doctree) -> str:
    """The page's first real paragraph, cut at a word to at most 160 characters."""
    if doctree is None:
        return ""
    for para in doctree.findall(nodes.paragraph):
        text = " ".join(para.astext().split())
        if len(text) >= 50:
            if len(text) <= DESCRIPTION_CHARS:
                return text
            return text[: DESCRIPTION_CHARS - 1].rsplit(" ", 1)[0].rstrip(",;:") + "…"
    return ""


def _meta(app, pagename, templatename, context, doctree) -> None:
    book = app.config.html_title or app.config.project
    title = TAG.sub("", context.get("title") or "")
    text = description(doctree) or f"{book}: {html.unescape(title)}"
    tags = {"description": text}
    og = {
        "og:title": html.unescape(title) if title else book,
        "og:type": "website" if pagename == app.config.root_doc else "article",
        "og:site_name": book,
        "og:description": text,
    }
    base = app.config.html_baseurl
    if base:
        og["og:url"] = base.rstrip("/") + "/" + app.builder.get_target_uri(pagename)
    lines = [f'<meta name="{k}" content="{html.escape(v, quote=True)}" />' for k, v in tags.items()]
    lines += [
        f'<meta property="{k}" content="{html.escape(v, quote=True)}" />' for k, v in og.items()
    ]
    lines.append('<meta name="twitter:card" content="summary" />')
    context["metatags"] = context.get("metatags", "") + "\n" + "\n".join(lines)


# --- the 404 page ------------------------------------------------------------------------

NOT_FOUND_BODY = """
<section id="page-not-found">
<h1>Page not found</h1>
<p>There is no page at this address in <em>{book}</em>. It may have moved when the book
was reorganised.</p>
<p>Go to <a href="{home}">the book's first page</a>, pick a chapter from the table of
contents, or <a href="{search}">search the book</a>.</p>
</section>
"""


def _collect_404(app):
    if app.builder.format != "html":
        return []
    book = html.escape(app.config.html_title or app.config.project)
    body = NOT_FOUND_BODY.format(book=book, home="index.html", search="search.html")
    context = {"title": "Page not found", "body": body, "display_toc": False}
    return [("404", context, "page.html")]


def site_prefix(baseurl: str) -> str:
    """The path the site is served under (``/dcglab/`` for ``https://host/dcglab/``)."""
    path = urlsplit(baseurl or "/").path or "/"
    return path if path.endswith("/") else path + "/"


URL_ATTR = re.compile(r'((?:href|src|action)=")([^"#][^"]*)"')


def absolute_links(page: str, prefix: str) -> str:
    """``page`` (written at the site's root) with its relative URLs made absolute
    under ``prefix``, so that it works wherever the host serves it."""

    def fix(match: re.Match) -> str:
        url = match.group(2)
        if re.match(r"^[a-z][a-z0-9+.-]*:|^/", url):
            return match.group(0)
        return f'{match.group(1)}{prefix}{url.removeprefix("./")}"'

    page = URL_ATTR.sub(fix, page)
    return page.replace('data-content_root="./"', f'data-content_root="{prefix}"')


# --- the published tree --------------------------------------------------------------------

REFERENCE = re.compile(
    r'(?:href|src|content)="([^"]+)"|url\(\s*[\'"]?([^\'")]+)|@import\s+[\'"]([^\'"]+)'
)
LICENSE_NOTE = re.compile(r"license information please see ([\w.-]+)")
DROP = [".buildinfo", "objects.inv"]
DROP_GLOBS = ["_static/**/*.map", "_static/*webpack-macros.html", "_static/locales"]


def referenced(site: Path) -> set[Path]:
    """Every file that a page (``*.html``) names, with what the stylesheets and scripts
    it names name in turn (``url(...)``, a licence file named in a script's banner)."""
    todo = [p for p in site.rglob("*.html")]
    seen: set[Path] = set(todo)
    while todo:
        path = todo.pop()
        if path.suffix not in (".html", ".css", ".js"):
            continue
        text = path.read_text(errors="replace")
        urls = ["".join(m) for m in REFERENCE.findall(text)] + LICENSE_NOTE.findall(text)
        for url in urls:
            parts = urlsplit(html.unescape(url))
            if parts.scheme or parts.netloc or not parts.path:
                continue
            target = (path.parent / parts.path).resolve()
            if target.is_file() and target not in seen:
                seen.add(target)
                todo.append(target)
    return {p.resolve() for p in seen}


#: Folders of assets, downloads and figures: a file in them that nothing names goes
#: (the theme's unused files, and what an earlier build left: a figure since replaced).
ASSET_FOLDERS = ("_static", "_images", "_sources")


def prune(site: Path) -> list[str]:
    """Remove from ``site`` what no page uses; return the removed paths (relative):
    :data:`DROP`, :data:`DROP_GLOBS` and every file under :data:`ASSET_FOLDERS` that
    nothing names (:func:`referenced`)."""
    removed = []
    for name in DROP:
        if (site / name).exists():
            (site / name).unlink()
            removed.append(name)
    for pattern in DROP_GLOBS:
        for path in sorted(site.glob(pattern)):
            removed.append(path.relative_to(site).as_posix())
            shutil.rmtree(path) if path.is_dir() else path.unlink()
    used = referenced(site)
    for name in ASSET_FOLDERS:
        for path in sorted((site / name).rglob("*")):
            if path.is_file() and path.resolve() not in used:
                path.unlink()
                removed.append(path.relative_to(site).as_posix())
        for folder in sorted((site / name).rglob("*"), reverse=True):
            if folder.is_dir() and not any(folder.iterdir()):
                folder.rmdir()
    return removed


# --- formulas ---------------------------------------------------------------------------

MATH = re.compile(r'(<(span|div) class="math notranslate nohighlight"[^>]*>)(.*?)(</\2>)', re.S)
BODY_TAG = re.compile(r"<body\b[^>]*>")
DELIMITED = re.compile(r"\\\((.*?)\\\)|\\\[(.*?)\\\]", re.S)


def formulas(text: str) -> list[dict]:
    """The formulas of a page: ``{"tex": ..., "display": ...}`` in order."""
    out = []
    for m in MATH.finditer(text):
        d = DELIMITED.search(m.group(3))
        if d:
            display = d.group(2) is not None
            out.append({"tex": html.unescape(d.group(2 if display else 1)), "display": display})
    return out


def typeset_pages(pages: list[Path]) -> list[str]:
    """Replace every formula of ``pages`` (Sphinx's ``\\(...\\)`` and ``\\[...\\]`` in
    ``.math`` elements) by its SVG, with the page's glyphs defined once at the start of
    its body; return the TeX errors, one line each."""
    import json
    import subprocess

    texts = {page: page.read_text() for page in pages}
    texts = {page: text for page, text in texts.items() if formulas(text)}
    if not texts:
        return []
    out = subprocess.run(
        ["node", str(vendor_assets.TYPESET)],
        input=json.dumps([formulas(text) for text in texts.values()]),
        capture_output=True,
        text=True,
        check=True,
        cwd=vendor_assets.ROOT,
    )
    errors = []
    for (page, text), typeset in zip(texts.items(), json.loads(out.stdout), strict=True):
        results = iter(typeset["items"])

        def swap(m: re.Match, page=page, results=results) -> str:
            inner = m.group(3)
            d = DELIMITED.search(inner)
            if not d:
                return m.group(0)
            got = next(results)
            if got["error"]:
                errors.append(f"{page.name}: TeX error {got['error']!r} in {d.group(0)[:80]!r}")
            return m.group(1) + inner[: d.start()] + got["html"] + inner[d.end() :] + m.group(4)

        text = MATH.sub(swap, text)
        text = BODY_TAG.sub(lambda m, defs=typeset["defs"]: m.group(0) + defs, text, count=1)
        page.write_text(text)
    return errors


def _finish(app, exception) -> None:
    if exception is not None or app.builder.format != "html":
        return
    site = Path(app.outdir)
    if getattr(app, "dcglab_math", "") == "build":
        for problem in typeset_pages(sorted(site.rglob("*.html"))):
            logger.warning(problem)
    (site / ".nojekyll").write_text("")
    for line in published_notebooks.strip_sources(site):
        logger.info(f"dcglab_site: {line}")
    for line in first_paint.first_paint(site):
        logger.info(f"dcglab_site: {line}")
    missing = site / "404.html"
    if missing.is_file():
        prefix = site_prefix(app.config.html_baseurl)
        missing.write_text(absolute_links(missing.read_text(), prefix))
    removed = prune(site)
    logger.info(f"dcglab_site: {len(removed)} files no page uses left out of {site}")


def setup(app):
    app.connect("config-inited", _on_config_inited)
    app.connect("html-page-context", _scripts, priority=900)
    app.connect("html-page-context", _body)
    app.connect("html-page-context", _meta)
    app.connect("html-collect-pages", _collect_404)
    # after the theme rewrites pygments.css (its light and dark code colours)
    app.connect("build-finished", _finish, priority=900)
    app.add_css_file(vendor_assets.PREFIX + vendor_assets.SITE_CSS)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
