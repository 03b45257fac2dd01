"""The printable book (scripts/print_book.py, ``make pdf``; ``make test`` prints it).

Printing writes nothing into ``_build/html``. The PDF is read back with pypdf: it must
hold every page of the table of contents (by its title), every figure caption of the
site, every explorer as a captioned figure, and the bibliography; and the layout it
was printed from must cut no text off (``dcglab.layout.json``, written by the printer).
"""

from __future__ import annotations

import html
import json
import re
import sys
import unicodedata
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
import print_book  # noqa: E402

PDF = print_book.OUT
SITE = print_book.SITE


def fold(text: str) -> str:
    """Text compared across HTML and PDF: ligatures split, whitespace folded."""
    text = unicodedata.normalize("NFKC", html.unescape(text))
    return re.sub(r"\s+", " ", text).strip()


@pytest.fixture(scope="module")
def pdf_text(require, skip_or_fail) -> list[str]:
    pypdf = require("pypdf")
    if not PDF.is_file():
        skip_or_fail(f"no PDF at {PDF}; run `make pdf` (needs /usr/bin/chromium)")
    return [fold(p.extract_text()) for p in pypdf.PdfReader(PDF).pages]


def html_texts(pattern: str) -> dict[str, list[str]]:
    """Per page of the book, the folded texts of the elements matching ``pattern``."""
    out = {}
    for name in print_book.pages():
        page = (SITE / f"{name}.html").read_text()
        article = page[page.find("<article") : page.find("</article>")]
        out[name] = [fold(re.sub(r"<[^>]+>", " ", m)) for m in re.findall(pattern, article, re.S)]
    return out


@pytest.mark.slow
def test_page_count_is_a_book(pdf_text):
    assert 60 <= len(pdf_text) <= 800


@pytest.mark.slow
def test_every_page_of_the_book_is_in_it(pdf_text):
    whole = " ".join(pdf_text)
    titles = {name: t[0] for name, t in html_texts(r"<h1[^>]*>(.*?)</h1>").items() if t}
    missing = [
        name for name, title in titles.items() if title.replace("#", "").strip() not in whole
    ]
    assert len(titles) == len(print_book.pages())
    assert missing == []


@pytest.mark.slow
def test_every_figure_caption_is_in_it(pdf_text):
    whole = " ".join(pdf_text).replace(" ", "")
    captions = [c for cs in html_texts(r"<figcaption[^>]*>(.*?)</figcaption>").values() for c in cs]
    assert captions, "the site has figure captions"
    missing = [c[:60] for c in captions if c[:60].replace(" ", "") not in whole]
    assert missing == []


@pytest.mark.slow
def test_every_explorer_is_a_captioned_figure(pdf_text):
    views = sum(
        (SITE / f"{n}.html").read_text().count("application/vnd.jupyter.widget-view+json")
        for n in print_book.pages()
    )
    printed = sum(p.count("Explorer in its starting state") for p in pdf_text)
    assert views > 0 and printed == views


@pytest.mark.slow
def test_the_bibliography_is_in_it(pdf_text):
    assert any("Järvelin" in p and "Cumulated gain-based evaluation" in p for p in pdf_text)


@pytest.mark.slow
def test_no_text_is_cut_off(pdf_text):
    cut = json.loads(PDF.with_suffix(".layout.json").read_text())
    assert cut == [], f"{len(cut)} elements overflow the paper width, e.g. {cut[:3]}"


def test_printing_writes_nothing_into_the_site(tmp_path):
    """The combined document is served from memory beside the site (print_book.serve):
    a folder served that way gains no file, and the built site holds no print page."""
    (tmp_path / "index.html").write_text("<p>site</p>")
    with print_book.serve(tmp_path, {print_book.PRINT_PAGE: b"<p>printed</p>"}) as base:
        printed = urllib.request.urlopen(base + print_book.PRINT_PAGE).read()
        site = urllib.request.urlopen(base + "index.html").read()
    assert printed == b"<p>printed</p>" and site == b"<p>site</p>"
    assert [p.name for p in tmp_path.iterdir()] == ["index.html"]
    assert not (SITE / print_book.PRINT_PAGE).exists()
