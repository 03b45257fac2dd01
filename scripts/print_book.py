"""Print the built book (``_build/html``) to one PDF: ``_build/pdf/dcglab.pdf``.

    python scripts/print_book.py      # after `make book`; or `make pdf`

Debian's Chromium (driven by Playwright) opens every page of the table of
contents on a local server, lets the explorers draw their starting state (the
formulas are typeset when the book is built), and copies each page's article
into one document: ids are prefixed with the page's name and links between
pages become links inside the document, so cross-references, figure and
equation numbers and the bibliography keep working in the PDF. Each explorer is
printed as a figure in its starting state, with a caption saying so. Chromium
then prints that one document to A4 with page numbers. The document is served
from memory beside the site: printing writes nothing into ``_build/html``.

Why not LaTeX: Jupyter Book's LaTeX builder needs a TeX Live of about 2 GB
from Debian and drops the explorers (widgets have no LaTeX form); the
site's own renderer already typesets the math and draws the explorers.
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import json
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
SITE = ROOT / "_build" / "html"
OUT = ROOT / "_build" / "pdf" / "dcglab.pdf"
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]

PRINT_CSS = """
@page { size: A4; margin: 16mm 14mm 18mm 14mm; }
body { font-size: 10.5pt; }
.dcglab-doc { break-before: page; }
.dcglab-doc:first-child { break-before: auto; }
pre, code { white-space: pre-wrap !important; overflow-wrap: anywhere; }
div.highlight, .output, .cell_output, pre {
  overflow: visible !important; max-height: none !important;
}
table { font-size: 8.5pt; max-width: 100%; }
.table-wrapper, .pst-scrollable-table-container, [class*="scroll"] { overflow: visible !important; }
img, svg { max-width: 100% !important; height: auto; }
figure, .dcglab-print-explorer, img { break-inside: avoid; }
details { display: block; }
details > summary { list-style: none; }
.headerlink, .dcglab-reset, .toggle-details__summary svg, button.copybtn {
  display: none !important;
}
.dcglab-print-explorer { border: 1px solid #888; padding: 6px; margin: 1em 0; }
.dcglab-print-explorer figcaption { font-size: 9pt; font-style: italic; margin-top: 4px; }
"""

# In the page: wait for math and explorers, mark explorers as figures, open
# dropdowns, and return the article's HTML with ids prefixed by the page's name.
COLLECT = """
async (doc) => {
  if (window.MathJax && MathJax.startup) { await MathJax.startup.promise; }
  const views = 'script[type="application/vnd.jupyter.widget-view+json"]';
  for (let i = 0; i < 100 && document.querySelectorAll('.dcglab-explorer').length <
       document.querySelectorAll(views).length; i++) {
    await new Promise(r => setTimeout(r, 100));
  }
  const article = document.querySelector('article.bd-article');
  article.querySelectorAll('details').forEach(d => d.open = true);
  article.querySelectorAll('.dcglab-explorer').forEach(el => {
    const fig = document.createElement('figure');
    fig.className = 'dcglab-print-explorer';
    el.replaceWith(fig);
    fig.appendChild(el);
    const cap = document.createElement('figcaption');
    const name = (el.innerText || '').trim().split('\\n')[0] || 'an explorer';
    cap.textContent = 'Explorer in its starting state (interactive on the site): ' + name;
    fig.appendChild(cap);
  });
  article.querySelectorAll('script').forEach(s => s.remove());
  article.querySelectorAll('[src]').forEach(el => el.setAttribute('src', el.src));
  const inSvg = el => el.closest('svg') !== null;
  article.querySelectorAll('[id]').forEach(el => { if (!inSvg(el)) el.id = doc + '--' + el.id; });
  article.querySelectorAll('a[href]').forEach(a => {
    const url = new URL(a.getAttribute('href'), location.href);
    if (url.origin !== location.origin) return;
    const page = url.pathname.replace(/^\\//, '').replace(/\\.html$/, '');
    a.setAttribute('href', '#' + (url.hash ? page + '--' + url.hash.slice(1) : page + '--top'));
  });
  const styles = [...document.querySelectorAll('style')].map(s => s.outerHTML).join('\\n');
  const links = [...document.querySelectorAll('link[rel="stylesheet"]')].map(l => l.href);
  return {html: article.innerHTML, styles, links};
}
"""


# Where the printed layout would cut text off: the document wider than the paper,
# or an element whose content is wider than its clipping box.
OVERFLOW = """
(width) => {
  const cut = [];
  if (document.documentElement.scrollWidth > width + 1)
    cut.push({what: 'document', scroll: document.documentElement.scrollWidth, client: width});
  // text for screen readers only: the visually hidden pattern, clipped to nothing by design
  const unseen = (el) => {
    for (let e = el; e; e = e.parentElement) {
      const s = getComputedStyle(e);
      if (s.position === 'absolute' && s.clip === 'rect(0px, 0px, 0px, 0px)') return true;
    }
    return false;
  };
  for (const el of document.querySelectorAll('main *')) {
    // MathJax's own boxes (an inline formula's glyphs overhang its box by a few px) and
    // text for screen readers only are not page text.
    if (el.closest('svg, mjx-container, .MathJax, span.math') || unseen(el)) continue;
    const style = getComputedStyle(el);
    if (style.display === 'none' || style.overflowX === 'visible') continue;
    if (el.scrollWidth > el.clientWidth + 2 && el.textContent.trim())
      cut.push({what: el.tagName.toLowerCase() + '.' + el.className,
                text: el.textContent.trim().slice(0, 80),
                scroll: el.scrollWidth, client: el.clientWidth});
  }
  return cut;
}
"""

PAPER_WIDTH_PX = round((210 - 28) / 25.4 * 96)
"""A4's width less the side margins, in CSS pixels: the width the PDF is laid out at."""


def pages() -> list[str]:
    """The book's pages in table-of-contents order (names without ``.html``)."""
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    names = [toc["root"]]
    for part in toc.get("parts", []):
        names += [ch["file"] for ch in part["chapters"]]
    return names


PRINT_PAGE = "_print.html"
"""The combined document's address on the print server (it is never written to disk)."""


@contextlib.contextmanager
def serve(folder: Path, extra: dict[str, bytes] | None = None) -> Iterator[str]:
    """Serve ``folder`` on 127.0.0.1 (quietly), and each ``extra`` page (name: bytes)
    from memory beside it, so that nothing is written into ``folder``; yields the base
    URL."""
    extra = extra if extra is not None else {}

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

        def do_GET(self) -> None:  # noqa: N802 - the base class's name
            body = extra.get(self.path.lstrip("/").split("?")[0])
            if body is None:
                return super().do_GET()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return None

    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(Quiet, directory=str(folder))
    )
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


def combined(parts: list[tuple[str, dict]]) -> str:
    """One HTML document holding every page's article, in order."""
    links = dict.fromkeys(link for _, p in parts for link in p["links"])
    styles = dict.fromkeys(p["styles"] for _, p in parts)
    head = "\n".join(f'<link rel="stylesheet" href="{href}">' for href in links)
    body = "\n".join(
        f'<section class="dcglab-doc" id="{name}--top">{p["html"]}</section>' for name, p in parts
    )
    return (
        '<!DOCTYPE html><html lang="en" data-theme="light"><head><meta charset="utf-8">'
        f"<title>dcglab: DCG and nDCG, interactively</title>{head}{''.join(styles)}"
        f"<style>{PRINT_CSS}</style></head><body><main>{body}</main></body></html>"
    )


def print_book(site: Path = SITE, out: Path = OUT) -> Path:
    """Print every page of ``site`` into the PDF ``out`` (returns its path)."""
    from playwright.sync_api import sync_playwright

    out.parent.mkdir(parents=True, exist_ok=True)
    extra: dict[str, bytes] = {}
    with serve(site, extra) as base, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": 900, "height": 1200})
        page.route("**/*", lambda r: r.continue_() if r.request.url.startswith(base) else r.abort())
        parts = []
        missing = [name for name in pages() if not (site / f"{name}.html").is_file()]
        if missing:
            raise FileNotFoundError(f"pages missing from {site}: {missing}; run `make book`")
        for name in pages():
            page.goto(f"{base}{name}.html", wait_until="networkidle")
            parts.append((name, page.evaluate(COLLECT, name)))
        extra[PRINT_PAGE] = combined(parts).encode()
        page.set_viewport_size({"width": PAPER_WIDTH_PX, "height": 1200})
        page.goto(f"{base}{PRINT_PAGE}", wait_until="networkidle")
        page.emulate_media(media="print")
        cut = page.evaluate(OVERFLOW, PAPER_WIDTH_PX)
        out.with_suffix(".layout.json").write_text(json.dumps(cut, indent=1) + "\n")
        page.pdf(
            path=str(out),
            format="A4",
            print_background=True,
            display_header_footer=True,
            header_template="<span></span>",
            footer_template='<div style="font-size:8pt;width:100%;text-align:center">'
            '<span class="pageNumber"></span></div>',
            margin={"top": "16mm", "bottom": "18mm", "left": "14mm", "right": "14mm"},
            outline=True,
            tagged=True,
        )
        browser.close()
    return out


def main() -> int:
    if not (SITE / "index.html").is_file():
        print(f"print_book: no built site at {SITE}; run `make book` first", file=sys.stderr)
        return 2
    print(f"printed {print_book()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
