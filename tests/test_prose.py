"""Sentences a student parses at first reading.

The prose of every chapter, appendix and the conventions page is split into
sentences roughly as the rendered page shows them: code blocks, display maths,
headings, tables and directive options are dropped; inline maths, inline code
and each role (a glossary term, a glued number, a cross-reference) count as the
words they render. A citation renders in brackets beside the sentence and does
not count. Two limits follow the developers' guide: a sentence of more than
``MAX_WORDS`` words is rare (``LONG_PER_PAGE`` per page at most), and no
sentence strings more than ``MAX_GLUED`` glued numbers.
"""

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = sorted(
    p
    for p in [*(ROOT / "chapters").glob("*.ipynb"), *ROOT.glob("*.ipynb")]
    if not p.name.startswith("quiz_")
) + [ROOT / name for name in ("index.md", "notation.md", "glossary.md")]
MAX_WORDS = 35
LONG_PER_PAGE = 1
MAX_GLUED = 3
GLUED = "\u2116"
"""The token a glued number becomes (one word, counted per sentence)."""


def _title(path: Path) -> str:
    """The first heading of a page: what a ``{doc}`` link to it renders."""
    if path.suffix == ".ipynb":
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        text = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    else:
        text = path.read_text(encoding="utf-8")
    return next((ln[2:] for ln in text.splitlines() if ln.startswith("# ")), path.stem)


TITLES = {p.stem: _title(p) for p in {*PAGES, *ROOT.glob("*.md")}}
ABBREVIATIONS = ("e.g.", "i.e.", "et al.", "vs.", "Fig.", "cf.", "etc.", "No.")
CODE_FENCE = re.compile(r"^(`{3,}|~{3,})(.*)$")


def _prose_lines(markdown: str) -> list[str]:
    """The lines of ``markdown`` a reader reads as running text.

    A fence that opens a directive (```` ```{exercise} ````) keeps its body,
    except the bodies of ``code-cell``, ``math`` and plain code fences.
    """
    lines, skip, fences = [], False, []
    in_math = False
    for line in markdown.splitlines():
        stripped = line.strip()
        if in_math:  # inside display maths until a line ends with $$
            in_math = not stripped.endswith("$$")
            lines.append("")
            continue
        if stripped.startswith("$$"):  # $$ alone opens a block; $$x$$ is a block of one line
            in_math = stripped == "$$" or not stripped.endswith("$$")
            lines.append("")
            continue
        fence = CODE_FENCE.match(stripped)
        if fence:
            info = fence.group(2).strip()
            if fences and not info and fences[-1][0] == fence.group(1):
                _, skip = fences.pop()
            else:
                directive = re.match(r"\{([\w-]+)\}", info)
                code = not directive or directive.group(1) in {"code-cell", "math", "code"}
                fences.append((fence.group(1), skip))
                skip = skip or code
            lines.append("")
            continue
        markup = re.fullmatch(r"\([\w-]+\)=", stripped) or re.match(r":[\w-]+:", stripped)
        if skip or markup or stripped.startswith(("#", "|", "<")):
            lines.append("")
            continue
        if re.match(r"([-*+]|\d+\.)\s", stripped):
            lines.append("")
            stripped = re.sub(r"^([-*+]|\d+\.)\s+", "", stripped)
        lines.append(stripped)
    return lines


def _render(text: str) -> str:
    """Replace markup by the words it renders as."""
    text = re.sub(r"\{cite(:\w+)?\}`[^`]*`", "", text)
    text = re.sub(r"\{glue(:text)?\}`[^`]*`", GLUED, text)
    text = re.sub(r"\{numref\}`[^`]*`", "Figure 1", text)
    text = re.sub(r"\{(term|ref|doc|eq)\}`([^`<]*?)\s*<[^`]*>`", r"\2", text)
    text = re.sub(
        r"\{doc\}`([^`]*)`", lambda m: TITLES.get(Path(m.group(1)).stem, "Chapter 1"), text
    )
    text = re.sub(r"\{ref\}`[^`]*`", "Exercise 1", text)
    text = re.sub(r"\{\w+\}`([^`]*)`", r"\1", text)
    text = re.sub(r"`([^`]*)`", lambda m: "".join(m.group(1).split()), text)
    text = re.sub(r"\$([^$]+)\$", lambda m: "".join(m.group(1).split()), text)
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"<[^>]+>", "", text)
    text = re.sub(r"\(\s*[,;]?\s*\)", "", text)
    text = re.sub(r"\s+([,.;:!?)])", r"\1", text)
    return text.replace("*", "")


def sentences(markdown: str) -> list[str]:
    """The sentences of ``markdown`` as rendered text, roughly.

    A paragraph, a list item and a directive body end a sentence; inside them a
    sentence ends at ``.``, ``!`` or ``?`` followed by a space (a sentence may
    start with a lower-case name such as trec_eval). Inline code and maths
    render as one word each.
    """
    paragraphs = re.split(r"\n\s*\n", "\n".join(_prose_lines(markdown)))
    found = []
    for paragraph in paragraphs:
        text = " ".join(_render(paragraph).split())
        for abbreviation in ABBREVIATIONS:
            text = text.replace(abbreviation, abbreviation.replace(".", ""))
        for sentence in re.split(r"(?<=[.!?])[)\"”]?\s+", text):
            if re.search(r"\w", sentence):
                found.append(sentence)
    return found


def words(sentence: str) -> int:
    """The number of words in ``sentence`` (tokens with a letter, digit or glued number)."""
    return len([w for w in sentence.split() if re.search(r"\w|" + GLUED, w)])


def page_markdown(path: Path) -> str:
    """The Markdown of a page: a Markdown file, or a notebook's Markdown cells."""
    if path.suffix == ".md":
        return path.read_text(encoding="utf-8")
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return "\n\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")


def test_the_counter_sees_a_36_word_sentence() -> None:
    long = " ".join(["word"] * 35) + " end."
    assert [words(s) for s in sentences(long + " Short one.")] == [36, 2]


def test_the_counter_reads_markup_as_rendered() -> None:
    text = (
        "The {term}`nDCG <nDCG>` of $q_1$ is {glue:text}`a:.3f` {cite}`dcgarticle`, "
        "see {numref}`fig-x` and `dcglab.ndcg`, e.g. here. Next: "
        "[the docs](https://example.org).\n\n"
        "```python\nnot prose. At all.\n```\n\n"
        "(ex-target)=\n```{exercise}\n:label: ex-a\nCompute it by hand.\n```\n\n"
        "$$\nx = 1. Y\n$$\n\n## A heading\n\n- an item\n- another item"
    )
    assert sentences(text) == [
        "The nDCG of q_1 is \u2116, see Figure 1 and dcglab.ndcg, eg here.",
        "Next: the docs.",
        "Compute it by hand.",
        "an item",
        "another item",
    ]


def test_the_counter_counts_glued_numbers() -> None:
    text = "Scores {glue:text}`a` and {glue:text}`b`, then {glue:text}`c` and {glue:text}`d`."
    assert [s.count(GLUED) for s in sentences(text)] == [4]


@pytest.mark.parametrize("path", PAGES, ids=lambda p: p.stem)
def test_sentences_are_short(path: Path) -> None:
    long = [s for s in sentences(page_markdown(path)) if words(s) > MAX_WORDS]
    assert len(long) <= LONG_PER_PAGE, f"{path.name}: {len(long)} over {MAX_WORDS} words: {long}"


@pytest.mark.parametrize("path", PAGES, ids=lambda p: p.stem)
def test_no_sentence_strings_more_than_three_glued_numbers(path: Path) -> None:
    crowded = [s for s in sentences(page_markdown(path)) if s.count(GLUED) > MAX_GLUED]
    assert crowded == [], f"{path.name}: {crowded}"
