"""Structural checks of the stored chapter notebooks.

The static site renders explorers from the widget state saved in each notebook,
including the explorer's JavaScript. If the package's front end changes and the
notebook is not re-executed, the site would silently run old code: these tests
catch that, and check the book conventions every chapter must follow.
"""

import json
import re
from pathlib import Path

import pytest

from dcglab.book.explorers import REGISTRY

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted([*(ROOT / "chapters").glob("*.ipynb"), *ROOT.glob("*.ipynb")])
#: Numbered chapters (``NN_topic.ipynb``); appendices and self-checks are notebooks too.
CHAPTERS = [p for p in NOTEBOOKS if p.name[:2].isdigit()]
STATE = "application/vnd.jupyter.widget-state+json"
VIEW = "application/vnd.jupyter.widget-view+json"


def test_every_chapter_of_the_toc_is_checked():
    """The parametrised tests below cover each chapter the table of contents lists
    (an empty list would make them pass without checking anything)."""
    toc = (ROOT / "_toc.yml").read_text(encoding="utf-8")
    listed = {line.split("file:")[1].strip() for line in toc.splitlines() if "chapters/" in line}
    assert listed and listed <= {f"chapters/{p.stem}" for p in NOTEBOOKS}
    assert CHAPTERS


def load(path):
    return json.loads(path.read_text(encoding="utf-8"))


def markdown(nb):
    return "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")


def test_making_an_explorer_leaves_the_registry_alone():
    """traitlets derives a subclass for each instance (``add_traits``); the registry
    the stale-state check below compares with must still hold the explorer classes,
    whatever ran before in this process."""
    before = dict(REGISTRY)
    for cls in before.values():
        cls()
    assert REGISTRY == before
    assert all(isinstance(cls._esm, str) for cls in REGISTRY.values())


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_saved_widget_state_runs_current_front_end(path):
    nb = load(path)
    models = nb["metadata"].get("widgets", {}).get(STATE, {}).get("state", {})
    esms = [m["state"]["_esm"] for m in models.values() if "_esm" in m.get("state", {})]
    views = [o for c in nb["cells"] for o in c.get("outputs", []) if VIEW in o.get("data", {})]
    assert esms or not views, f"{path.name}: no explorer state saved (execute with `make execute`)"
    current = {cls._esm for cls in REGISTRY.values()}
    stale = [e for e in esms if e not in current]
    assert not stale, f"{path.name}: stale explorer code in widget state; run `make execute`"


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.name)
def test_chapter_conventions(path):
    nb = load(path)
    text = markdown(nb)
    for needle in (
        "What you will learn",
        "Prerequisites",
        "Summary",
        "{exercise}",
        "{solution}",
        ":class: dropdown",
        "{cite",
        "{numref}",
    ):
        assert needle in text, f"{path.name} lacks {needle!r}"
    figures = [c for c in nb["cells"] if "figure" in c["metadata"].get("mystnb", {})]
    assert figures, f"{path.name} has no numbered figure"
    for cell in figures:
        meta = cell["metadata"]["mystnb"]
        assert meta["figure"].get("caption") and meta["figure"].get("name")
        assert meta.get("image", {}).get("alt"), "figure without alt text"
        assert sum("image/png" in o.get("data", {}) for o in cell["outputs"]) == 1


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_explorer_cells_are_tagged(path):
    for cell in load(path)["cells"]:
        views = [
            o
            for o in cell.get("outputs", [])
            if "application/vnd.jupyter.widget-view+json" in o.get("data", {})
        ]
        if views:
            assert "nbval-ignore-output" in cell["metadata"].get("tags", [])


def outputs_text(nb) -> str:
    parts = []
    for cell in nb["cells"]:
        for out in cell.get("outputs", []):
            if out.get("output_type") == "stream":
                parts.append("".join(out["text"]))
            elif "text/plain" in out.get("data", {}):
                parts.append("".join(out["data"]["text/plain"]))
    return "\n".join(parts)


def test_every_article_figure_is_shown_in_the_article_appendix():
    """Each published figure appears in an output of the article appendix, in a row
    ``figure published computed match ...`` that reads the published value and ``yes``;
    the chapters that teach the figures need no hidden checks of their own."""
    from dcglab.book.article import FIGURES

    lines = outputs_text(load(ROOT / "chapters" / "appendix_article.ipynb")).splitlines()
    rows = [ln.split() for ln in lines if len(ln.split()) >= 4]
    missing = [
        fig.key
        for fig in FIGURES
        if not any(r[0] == fig.key and r[1] == fig.published and r[3] == "yes" for r in rows)
    ]
    assert FIGURES and missing == []


MAX_CELL_LINES = 15
"""A chapter's code cell calls the package and shows the result: logic longer than this
belongs in ``src/dcglab/book``."""

DEFINITION = re.compile(r"^\s*(?:async\s+)?(?:def|class)\s|\blambda\b", re.M)
"""A function or class defined in a cell (``def``, ``class`` or ``lambda``)."""


def code_cells(nb) -> list[tuple[int, str]]:
    return [
        (i, "".join(c["source"])) for i, c in enumerate(nb["cells"]) if c["cell_type"] == "code"
    ]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebooks_only_call_and_show(path):
    """No code cell (hidden or not) is longer than ``MAX_CELL_LINES`` lines or defines a
    function: the book's code lives in the package, where it is tested."""
    cells = code_cells(load(path))
    long = [(i, n) for i, src in cells if (n := len(src.strip("\n").splitlines())) > MAX_CELL_LINES]
    defining = [i for i, src in cells if DEFINITION.search(src)]
    assert (long, defining) == ([], []), f"{path.name}: (cell, lines) too long, cells defining"


def test_the_cell_checks_see_definitions_and_length():
    assert DEFINITION.search("x = 1\ndef f(y):\n    return y")
    assert DEFINITION.search("key=lambda m: m")
    assert not DEFINITION.search("print(f'define {x}')  # classes, lambdas")
    nb = {"cells": [{"cell_type": "code", "source": ["x\n"] * 16}]}
    assert [len(src.splitlines()) for _, src in code_cells(nb)] == [16]


PROSE_WORD_LIMIT = 2200
"""No chapter is too long to assign as one reading."""


def prose_words(markdown: str) -> int:
    """Words of prose in a chapter's markdown: fence lines, directive options and math
    (``$...$`` and ``$$...$$``) are not prose; a directive's body (an exercise) is."""
    text = re.sub(r"```.*?\n", "\n", markdown)
    text = re.sub(r"\$\$.*?\$\$", " ", text, flags=re.S)
    text = re.sub(r"\$[^$\n]+\$", " ", text)
    lines = (line for line in text.splitlines() if not re.match(r"\s*:\w[\w-]*:", line))
    return len(" ".join(lines).split())


def test_prose_word_count_ignores_math_and_directive_options() -> None:
    assert prose_words("```{exercise}\n:label: ex-1\nCompute $\\mathrm{DCG}@3$ by hand.\n```") == 4
    assert prose_words("$$\nx = y + z\n$$\nTwo words") == 2


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_no_chapter_is_longer_than_a_course_can_assign(path: Path) -> None:
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    markdown = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    words = prose_words(markdown)
    assert words <= PROSE_WORD_LIMIT, f"{path.name}: {words} words of prose"


#: The glue-key prefix of each notebook that is not a numbered chapter (``chN_`` there).
GLUE_PREFIX = {"appendix_article": "art_", "appendix_computing": "app_", "appendix_sql": "sql_"}


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_glue_keys_name_their_chapter(path: Path) -> None:
    """Every number a notebook glues (the keys a reader sees in its code) carries the
    notebook's own prefix: ``ch13_`` in chapter 13, ``sql_`` in the SQL appendix."""
    nb = load(path)
    names = [
        o["metadata"]["scrapbook"]["name"]
        for c in nb["cells"]
        for o in c.get("outputs", [])
        if "scrapbook" in o.get("metadata", {})
    ]
    prefix = glue_prefix(path)
    assert prefix or not names, f"{path.name} glues numbers but has no prefix in GLUE_PREFIX"
    assert [n for n in names if not n.startswith(prefix)] == []


def glue_prefix(path: Path) -> str:
    """The prefix of the glue keys of a notebook: ``chN_`` or :data:`GLUE_PREFIX`."""
    return f"ch{int(path.stem[:2])}_" if path.stem[:2].isdigit() else GLUE_PREFIX.get(path.stem, "")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_code_on_the_page_names_no_glue_key(path: Path) -> None:
    """A reader sees no glue key: a cell whose code is on the page shows its numbers by
    label (``show_all([(label, value)])``, ``show_table(table, key=...)``), and a hidden
    cell before it announces their keys (``report.expect``)."""
    prefix = glue_prefix(path)
    if not prefix:
        return
    key = re.compile(rf"""["']{re.escape(prefix)}""")
    shown = [
        i
        for i, c in enumerate(load(path)["cells"])
        if c["cell_type"] == "code"
        and not {"remove-cell", "remove-input"} & set(c["metadata"].get("tags", []))
        and key.search("".join(c["source"]))
    ]
    assert shown == [], f"{path.name}: cells {shown} name glue keys in code on the page"
