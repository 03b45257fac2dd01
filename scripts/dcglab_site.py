"""Local Sphinx extension for the dcglab book (``sphinx.local_extensions``).

1. On every build, refill ``_vendor/`` (see ``vendor_assets.py``). When the
   npm assets are missing, swap the ``dcglab-vendor/...`` entries of ``mathjax_path``
   and ``nb_ipywidgets_js`` for the same pinned files on the public CDN.
2. Drop duplicated inline ``<script>`` tags. Sphinx 7.4 re-adds every
   body-only script registered after ``Builder.init()`` (sphinx-thebe's
   ``const THEBE_JS_URL = ...``, sphinx-togglebutton's settings) with filename
   ``''`` next to the original ``None``, so each page declared the same
   ``const`` twice and raised a SyntaxError in the browser console.
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
   * the theme's search field and colour-mode buttons: overridden in ``_templates/``.
   * ``site_js/dcglab_site.css`` (link contrast in exercise boxes, explorers in dark
     mode, phones) is added to every page.
"""

from __future__ import annotations

import html
import os
import re

import vendor_assets
from sphinx.util import logging

logger = logging.getLogger(__name__)


def _on_config_inited(app, config) -> None:
    mode = vendor_assets.vendor(log=logger.info)
    if mode == "local":
        return
    # myst-nb reads nb_ipywidgets_js at builder-inited and Sphinx reads
    # mathjax_path per page, both after this.
    config.mathjax_path = vendor_assets.cdn_url(config.mathjax_path)
    swapped = {}
    for path, attrs in config.nb_ipywidgets_js.items():
        url = vendor_assets.cdn_url(path)
        attrs = dict(attrs)
        if "html-manager" in url and "://" in url:
            attrs.setdefault("data-jupyter-widgets-cdn", vendor_assets.CDN)
        swapped[url] = attrs
    config.nb_ipywidgets_js = swapped


def _dedupe_scripts(app, pagename, templatename, context, doctree) -> None:
    scripts = context.get("script_files")
    if not scripts:
        return
    seen, unique = set(), []
    for js in scripts:
        filename = os.fspath(getattr(js, "filename", js) or "")
        attrs = getattr(js, "attributes", {}) or {}
        key = (filename, tuple(sorted((k, str(v)) for k, v in attrs.items())))
        if key not in seen:
            seen.add(key)
            unique.append(js)
    scripts[:] = unique


#: (markup written by an extension, its accessible replacement)
BODY_FIXES = (
    ('<summary aria-label="Toggle hidden content">', "<summary>"),
    ('role="doc-biblioentry"', 'role="listitem"'),
)


TABLE = re.compile(r"<table\b.*?</table>", re.S)
CAPTION = re.compile(r"<caption\b[^>]*>(.*?)</caption>", re.S)
TAG = re.compile(r"<[^>]+>")


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


def _fix_body(app, pagename, templatename, context, doctree) -> None:
    if isinstance(context.get("body"), str):
        context["body"] = fix_markup(context["body"])


def setup(app):
    app.connect("config-inited", _on_config_inited)
    app.connect("html-page-context", _dedupe_scripts, priority=900)
    app.connect("html-page-context", _fix_body)
    app.add_css_file(vendor_assets.PREFIX + vendor_assets.SITE_CSS)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
