"""The course edition and the instructor's solutions (scripts/course_edition.py).

The rules are unit-tested on small texts; then the built course edition
(``make course``, run by ``make test``) is searched for every solution of the
book: no solution sentence may appear in its pages or in the notebooks it
offers for download, while every exercise must, and the public site must still
hold the solutions (so the search can fail).
"""

from __future__ import annotations

import html
import re
import sys
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
import course_edition as ce  # noqa: E402

COURSE = ROOT / "_build" / "course" / "_build" / "html"
SOLUTIONS = ROOT / "_build" / "solutions" / "_build" / "html"
SITE = ROOT / "_build" / "html"
STRAIGHT = str.maketrans("‘’“”–—", "''\"\"--")
"""Sphinx's smart quotes and dashes, folded back to the source's characters."""

TEXT = """Before.

```{exercise}
:label: ex-a

Compute it.
```

```{solution} ex-a
:class: dropdown

The answer is {glue:text}`answer:.3f`, not {glue:text}`shared`.
```

After {glue:text}`shared`.
"""


def test_a_solution_block_is_removed_and_nothing_else():
    out = ce.without_solutions(TEXT)
    assert "The answer" not in out and "{solution}" not in out
    assert "Compute it." in out and "Before." in out and "After" in out


def test_solution_texts_are_the_bodies():
    assert ce.solution_texts(TEXT) == [
        "The answer is {glue:text}`answer:.3f`, not {glue:text}`shared`."
    ]


def test_outputs_glued_only_for_a_solution_leave_the_course_notebook():
    def glued(name: str) -> dict:
        return nbformat.v4.new_output(
            "display_data", data={"text/plain": "1"}, metadata={"scrapbook": {"name": name}}
        )

    code = nbformat.v4.new_code_cell("glue(...)")
    code.outputs = [glued("answer"), glued("shared")]
    tagged = nbformat.v4.new_code_cell("print(42)", metadata={"tags": ["solution"]})
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell(TEXT), code, tagged])
    out = ce.strip_notebook(nb)
    assert [ce.glue_names(o) for o in out.cells[1].outputs] == [{"shared"}]
    assert len(out.cells) == 2
    assert nb.cells[1].outputs[0] is not None and len(nb.cells[1].outputs) == 2  # a copy


def test_references_become_text_in_the_solutions():
    text = "See {numref}`fig-a`, {ref}`the rule <sec-rule>` and {doc}`04_cutoffs`."
    assert ce.plain_references(text) == "See “fig-a”, the rule and chapter 04_cutoffs."


def page_text(path: Path) -> str:
    """The visible text of a built page, whitespace folded."""
    body = re.sub(r"<script.*?</script>|<style.*?</style>", " ", path.read_text(), flags=re.S)
    text = html.unescape(re.sub(r"<[^>]+>", " ", body)).translate(STRAIGHT)
    return re.sub(r"\s+", " ", text)


def sentences(solution: str) -> list[str]:
    """Plain runs of words of a solution (MyST roles, math and markup removed) long
    enough to be distinctive."""
    plain = re.sub(r"^\s*>", " ", solution.translate(STRAIGHT), flags=re.M)  # quote marks
    plain = re.sub(r"\s+", " ", plain)  # line breaks are not sentence breaks
    plain = re.sub(r"\{[\w:]+\}`[^`]*`|\$[^$]*\$", "|", plain)
    plain = re.sub(r"[*`]", " ", plain)
    runs = [re.sub(r"\s+", " ", r).strip() for r in re.split(r"[.;:!?()\[\]|#]", plain)]
    return [r for r in runs if len(r) >= 30]


def chapters() -> list[Path]:
    return ce.notebooks()


@pytest.mark.slow
@pytest.mark.parametrize("nb_path", chapters(), ids=lambda p: p.stem)
def test_no_solution_reaches_the_course_edition(nb_path: Path, skip_or_fail):
    if not (COURSE / "index.html").is_file():
        skip_or_fail(f"no course edition at {COURSE}; run `make course`")
    nb = nbformat.read(nb_path, 4)
    markdown = [c.source for c in nb.cells if c.cell_type == "markdown"]
    shown = " ".join(s for t in markdown for s in sentences(ce.without_solutions(t)))
    solved = [
        s
        for t in markdown
        for sol in ce.solution_texts(t)
        for s in sentences(sol)
        if s not in shown
    ]
    page = nb_path.relative_to(ROOT).with_suffix(".html")
    course_page = page_text(COURSE / page)
    site_page = page_text(SITE / page)
    leaked = [s for s in solved if s in course_page]
    assert leaked == [], f"solution text in the course edition: {leaked[:3]}"
    assert all(s in site_page for s in solved[:3]), "the public site lost its solutions"
    source = next((COURSE / "_sources" / page.parent).glob(f"{nb_path.stem}.*")).read_text()
    assert "{solution}" not in source
    exercises = [kind for t in markdown for kind, *_ in ce.blocks(t) if kind == "exercise"]
    assert course_page.count("Exercise") >= len(exercises)


@pytest.mark.slow
def test_the_solutions_document_holds_every_solution(skip_or_fail):
    if not (SOLUTIONS / "index.html").is_file():
        skip_or_fail(f"no solutions document at {SOLUTIONS}; run `make course`")
    missing = []
    for nb_path in chapters():
        nb = nbformat.read(nb_path, 4)
        solved = [
            s
            for c in nb.cells
            if c.cell_type == "markdown"
            for sol in ce.solution_texts(c.source)
            for s in sentences(sol)[:1]
        ]
        if not solved:
            continue
        text = page_text(SOLUTIONS / nb_path.relative_to(ROOT).with_suffix(".html"))
        missing += [(nb_path.stem, s) for s in solved if s not in text]
    assert missing == []
