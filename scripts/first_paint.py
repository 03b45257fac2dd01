"""What stands between a reader and a page's first paint, made as small as it can be.

Run by the book build (``dcglab_site._finish``) on the written site, before the tree is
pruned. Three changes, each to what the theme and Sphinx write:

* ``documentation_options.js`` is the one script a page loads before its text (the inline
  scripts after it read ``DOCUMENTATION_OPTIONS`` at once). Its few lines are written into
  each page instead, so no request blocks the parser.
* A page's stylesheets (eleven files, one of them reached only through an ``@import``)
  become one file, ``_static/styles/dcglab-<hash>.css``: the same rules in the same order,
  their ``url(...)`` references rewritten for the new place. Pages that name the same
  stylesheets share one file, which a browser caches once for the whole site.
* The theme's icon font stylesheet carries a rule for each of about 2,000 Font Awesome
  icons, and its three fonts (270 KB) every glyph; the bundle keeps the rules of the
  icons some page or script names, and each font is cut (fontTools) to the glyphs those
  rules and the theme's own rules draw, as one small WOFF2 file.
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path
from urllib.parse import urlsplit

OPTIONS_TAG = re.compile(
    r'<script src="([^"]*_static/documentation_options\.js)(?:\?[^"]*)?"></script>'
)
STYLESHEET = re.compile(r'<link\b[^>]*\brel="stylesheet"[^>]*>\s*')
HREF = re.compile(r'\bhref="([^"]+)"')
IMPORT = re.compile(r'@import\s+(?:url\()?\s*["\']([^"\')]+)["\']\s*\)?\s*;')
URL = re.compile(r'url\(\s*(["\']?)([^"\')]+)\1\s*\)')
ICON_RULE = re.compile(r"(?<=[}\s])((?:\.fa-[\w-]+:(?:before|after)\s*,?\s*)+)\{[^{}]*\}")
ICON_NAME = re.compile(r"\bfa-[a-z0-9-]+")
FONT_FACE = re.compile(r"@font-face\s*\{[^{}]*\}")
CONTENT = re.compile(r'content:\s*"((?:[^"\\]|\\.)*)"')
ESCAPE = re.compile(r"\\([0-9a-fA-F]{1,6})\s?")
BUNDLE_FOLDER = "_static/styles"
HEAD_ASSET = re.compile(r'<link\b[^>]*rel="stylesheet"[^>]*>|<script\b[^>]*\bsrc="[^"]*"[^>]*>')
NOT_BLOCKING = re.compile(r'\b(defer|async)\b|type="module"')


def blocking_paths(page: str) -> list[str]:
    """The URLs (as written, without query or fragment) of what a page's ``<head>``
    makes the browser fetch before it paints: its stylesheets, and its scripts without
    ``defer``, ``async`` or ``type="module"``."""
    out = []
    for tag in HEAD_ASSET.findall(page[: page.index("</head>")]):
        if tag.startswith("<script") and NOT_BLOCKING.search(tag):
            continue
        out.append(re.search(r'(?:href|src)="([^"?#]+)', tag).group(1))
    return out


def inline_options(page: str, site: Path, page_path: Path) -> str:
    """``page`` with its ``documentation_options.js`` tag replaced by the script itself."""

    def inline(m: re.Match) -> str:
        script = (page_path.parent / m.group(1)).resolve()
        if not script.is_file() or site.resolve() not in script.parents:
            return m.group(0)
        return "<script>" + script.read_text().strip() + "</script>"

    return OPTIONS_TAG.sub(inline, page)


def local_stylesheets(head: str) -> list[str]:
    """The ``href`` of every stylesheet ``<link>`` in ``head`` when all are local files
    (a page that loads a stylesheet from elsewhere is left as it is: empty list)."""
    hrefs = [HREF.search(tag).group(1) for tag in STYLESHEET.findall(head) if HREF.search(tag)]
    if any(urlsplit(h).scheme or urlsplit(h).netloc for h in hrefs):
        return []
    return hrefs


def rebased(css: str, source: Path, target_dir: Path) -> str:
    """``css`` (read from ``source``) with each relative ``url(...)`` rewritten to point,
    from ``target_dir``, at the file it named."""

    def fix(m: re.Match) -> str:
        url = m.group(2)
        parts = urlsplit(url)
        if parts.scheme or parts.netloc or url.startswith(("/", "#", "data:")):
            return m.group(0)
        path = os.path.normpath(source.parent / parts.path)
        new = os.path.relpath(path, target_dir).replace(os.sep, "/")
        if parts.query:
            new += "?" + parts.query
        if parts.fragment:
            new += "#" + parts.fragment
        return f'url("{new}")'

    return URL.sub(fix, css)


def expanded(source: Path, target_dir: Path, seen: frozenset[Path] = frozenset()) -> str:
    """The text of the stylesheet ``source`` with its ``@import``s replaced by the files
    they name (recursively), every ``url(...)`` rebased to ``target_dir``."""
    css = source.read_text()

    def include(m: re.Match) -> str:
        child = (source.parent / urlsplit(m.group(1)).path).resolve()
        if child in seen or not child.is_file():
            return m.group(0)
        return expanded(child, target_dir, seen | {source.resolve()})

    return rebased(IMPORT.sub(include, css), source, target_dir)


def without_unused_icons(css: str, used: set[str]) -> str:
    """``css`` without the Font Awesome glyph rules (``.fa-x:before{content:...}``) whose
    icons are all absent from ``used``."""

    def keep(m: re.Match) -> str:
        names = set(re.findall(r"\.(fa-[\w-]+):", m.group(1)))
        return m.group(0) if names & used else ""

    return ICON_RULE.sub(keep, css)


def icons_named(site: Path) -> set[str]:
    """Every ``fa-...`` class a page or script of ``site`` names."""
    names: set[str] = set()
    for path in [*site.rglob("*.html"), *site.rglob("*.js")]:
        names |= set(ICON_NAME.findall(path.read_text(errors="replace")))
    return names


def drawn_characters(css: str) -> set[int]:
    """The code points of every ``content: "..."`` string of ``css`` (escapes decoded)."""
    chars: set[int] = set()
    for text in CONTENT.findall(css):
        decoded = ESCAPE.sub(lambda m: chr(int(m.group(1), 16)), text)
        chars |= {ord(c) for c in decoded}
    return chars


def cut_font(source: Path, chars: set[int]) -> Path:
    """A WOFF2 copy of the font ``source`` with only the glyphs of ``chars``, beside it,
    named by its content."""
    from fontTools import subset

    options = subset.Options()
    options.flavor = "woff2"
    options.layout_features = ["*"]
    font = subset.load_font(str(source), options)
    cutter = subset.Subsetter(options)
    cutter.populate(unicodes=sorted(chars | {0x20}))
    cutter.subset(font)
    tmp = source.with_suffix(".cut.woff2")
    subset.save_font(font, str(tmp), options)
    digest = hashlib.sha256(tmp.read_bytes()).hexdigest()[:12]
    target = source.with_name(f"{source.name.split('.')[0]}-{digest}.woff2")
    tmp.replace(target)
    return target


def with_cut_fonts(css: str, target_dir: Path) -> str:
    """``css`` whose icon fonts (``@font-face`` of a "Font Awesome" family) point at
    WOFF2 files cut to the characters ``css`` draws (:func:`drawn_characters`)."""
    chars = drawn_characters(css)

    def cut(m: re.Match) -> str:
        rule = m.group(0)
        woff2 = [u for _, u in URL.findall(rule) if urlsplit(u).path.endswith(".woff2")]
        if "Font Awesome" not in rule or not woff2:
            return rule
        source = (target_dir / urlsplit(woff2[0]).path).resolve()
        if not source.is_file():
            return rule
        name = os.path.relpath(cut_font(source, chars), target_dir).replace(os.sep, "/")
        return re.sub(r"src:[^;}]*", f'src:url("{name}") format("woff2")', rule, count=1)

    return FONT_FACE.sub(cut, css)


def bundle_name(css: str) -> str:
    """The bundle's file name, from its content (a changed bundle is a new URL)."""
    return f"dcglab-{hashlib.sha256(css.encode()).hexdigest()[:12]}.css"


def first_paint(site: Path) -> list[str]:
    """Apply the three changes to every page of ``site``; return one line per bundle."""
    site = site.resolve()
    target_dir = site / BUNDLE_FOLDER
    icons = icons_named(site)
    bundles: dict[tuple[Path, ...], str] = {}
    for page_path in sorted(site.rglob("*.html")):
        page = inline_options(page_path.read_text(), site, page_path)
        end = page.find("</head>")
        head = page[:end] if end >= 0 else ""
        hrefs = local_stylesheets(head)
        sources = [(page_path.parent / urlsplit(h).path).resolve() for h in hrefs]
        if len(sources) > 1 and all(s.is_file() for s in sources):
            key = tuple(sources)
            if key not in bundles:
                text = "\n".join(expanded(s, target_dir) for s in sources)
                target_dir.mkdir(parents=True, exist_ok=True)
                css = with_cut_fonts(without_unused_icons(text, icons), target_dir)
                name = bundle_name(css)
                (target_dir / name).write_text(css)
                bundles[key] = name
            link = os.path.relpath(target_dir / bundles[key], page_path.parent)
            tags = STYLESHEET.findall(head)
            new_head = head.replace(tags[0], f'<link rel="stylesheet" href="{link}" />\n', 1)
            for tag in tags[1:]:
                new_head = new_head.replace(tag, "", 1)
            page = new_head + page[end:]
        page_path.write_text(page)
    return [
        f"{name}: {len(key)} stylesheets, {(target_dir / name).stat().st_size:,} bytes"
        for key, name in bundles.items()
    ]
