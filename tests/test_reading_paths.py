"""The reading paths of the front page hold together.

``index.md`` offers paths through the book (a lecture, the core path, self-study, a
practitioner's path): each a bold title such as ``**The core path.**`` followed by a
table whose rows name pages with ``{doc}`` links, optionally after a line
``Assumes: {doc}`...`, ...`` naming what the path takes as read. Each chapter names
the pages it needs on a line ``**Prerequisites:** {doc}`...`, ...`` (or ``none``)
under its heading "Prerequisites"; a page without that line is read for every
``{doc}`` link of its Prerequisites section.

A path holds when every page it uses has each of its prerequisites in the path too
(or among the pages the path assumes); a prerequisite stated on the line must also
come no later in the path than the page that needs it. The core path must fit in six
hours, exercises included.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
INDEX = ROOT / "index.md"
DOC = re.compile(r"\{doc\}`([^`<]+?)`")
TITLE = re.compile(r"^\*\*(?P<name>[^*]+?)\.\*\*")
LINE = re.compile(r"^\s*(?:\*\*)?Prerequisites:(?:\*\*)?(?P<rest>.*)$", re.M)
SECTION = re.compile(r"^## Prerequisites\s*$(?P<body>.*?)(?=^## |\Z)", re.M | re.S)
CORE = "The core path"
CORE_MINUTES = 6 * 60
REQUIRED = ("A 90-minute lecture", CORE, "Self-study")


def stem(link: str) -> str:
    """The page a ``{doc}`` target names: ``chapters/03_x`` and ``../notation`` give their stems."""
    return Path(link.strip()).stem


def page_markdown(name: str) -> str:
    """The Markdown of page ``name`` (a chapter, an appendix or a top-level page), or ''."""
    for path in (ROOT / "chapters" / f"{name}.ipynb", ROOT / f"{name}.ipynb"):
        if path.is_file():
            cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
            return "\n\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    path = ROOT / f"{name}.md"
    return path.read_text(encoding="utf-8") if path.is_file() else ""


def stated(markdown: str) -> tuple[set[str], bool]:
    """The prerequisites a page states, and whether it states them on a line of their own."""
    section = SECTION.search(markdown)
    body = section.group("body") if section else ""
    line = LINE.search(body)
    if line:
        return {stem(t) for t in DOC.findall(line.group("rest"))} - {"notation", "glossary"}, True
    return {stem(t) for t in DOC.findall(body)} - {"notation", "glossary"}, False


def reading_paths(text: str) -> dict[str, dict]:
    """Each path of the front page: its rows (minutes or None, pages) and assumed pages."""
    found: dict[str, dict] = {}
    current = None
    for line in text.splitlines():
        title = TITLE.match(line)
        if title:
            current = found.setdefault(title.group("name"), {"rows": [], "assumes": set()})
        elif line.startswith("## "):
            current = None
        elif current is not None and line.startswith("Assumes:"):
            current["assumes"] |= {stem(t) for t in DOC.findall(line)}
        elif current is not None and line.startswith("|") and DOC.search(line):
            first = line.strip("|").split("|")[0].strip()
            minutes = int(first) if first.isdigit() else None
            current["rows"].append((minutes, [stem(t) for t in DOC.findall(line)]))
    return found


def gaps(path: dict, prerequisites) -> list[tuple[str, str]]:
    """(page, prerequisite) for each prerequisite the path skips or puts later."""
    seen: set[str] = set(path["assumes"])
    everything = seen | {p for _, pages in path["rows"] for p in pages}
    missing = []
    for _, pages in path["rows"]:
        row = set(pages)
        for page in pages:
            needs, on_line = prerequisites(page)
            for need in sorted(needs):
                if need not in everything or (on_line and need not in seen | row):
                    missing.append((page, need))
        seen |= row
    return missing


PATHS = reading_paths(INDEX.read_text(encoding="utf-8"))


def test_the_front_page_offers_the_three_paths() -> None:
    assert set(REQUIRED) <= set(PATHS), sorted(PATHS)
    assert all(PATHS[name]["rows"] for name in REQUIRED)


@pytest.mark.parametrize("name", sorted(PATHS))
def test_a_path_contains_each_chapters_prerequisites(name: str) -> None:
    missing = gaps(PATHS[name], lambda page: stated(page_markdown(page)))
    assert missing == [], f"{name}: (page, prerequisite it skips or puts later) {missing}"


def test_the_core_path_fits_six_hours() -> None:
    minutes = [m for m, _ in PATHS[CORE]["rows"]]
    assert None not in minutes and 0 < sum(minutes) <= CORE_MINUTES, minutes
    assert not PATHS[CORE]["assumes"], "the core path stands alone"


def test_every_page_a_path_uses_exists() -> None:
    pages = {p for path in PATHS.values() for _, row in path["rows"] for p in row}
    assert all(page_markdown(p) for p in pages), [p for p in pages if not page_markdown(p)]


def test_the_check_finds_a_skipped_or_late_prerequisite() -> None:
    text = (
        "**A path.** Text.\n\n"
        "| 10 | {doc}`chapters/b` | all |\n| 10 | {doc}`chapters/a` | all |\n\n"
        "**Another.** Text.\n\nAssumes: {doc}`chapters/a`\n\n| 5 | {doc}`chapters/b` | all |\n"
    )
    paths = reading_paths(text)
    needs = {"a": (set(), True), "b": ({"a"}, True), "c": ({"a"}, False)}
    assert gaps(paths["A path"], needs.get) == [("b", "a")]
    assert gaps(paths["Another"], needs.get) == []
    paths["Another"]["assumes"] = set()
    assert gaps(paths["Another"], needs.get) == [("b", "a")]


def test_prerequisites_are_read_from_the_line_or_the_section() -> None:
    line = (
        "## Prerequisites\n\n**Prerequisites:** {doc}`02_x`, {doc}`../notation`.\n\n"
        "See {doc}`09_y`.\n\n## Next\n"
    )
    assert stated(line) == ({"02_x"}, True)
    listed = "## Prerequisites\n\n- {doc}`03_z`: the ideal.\n\n## Time\n{doc}`04_w`"
    assert stated(listed) == ({"03_z"}, False)
    assert stated("## Prerequisites\n\n**Prerequisites:** none.\n") == (set(), True)
