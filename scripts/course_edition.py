"""Build the course edition (no solutions) and the instructor's solutions from the book.

    python scripts/course_edition.py course     # _build/course/html: the book, no solutions
    python scripts/course_edition.py solutions  # _build/solutions/html: every exercise, solved

Both are made from the same notebooks as the public site (which keeps its
solutions in dropdowns for self-study). The course edition is a copy of the
book in which every ``{solution}`` block is removed, and with it every stored
output that only a solution refers to (a glued number that answers an
exercise) and every cell tagged ``solution``. The solutions document holds, per
chapter, each exercise followed by its solution, with the chapter's glued
numbers. ``make course`` builds both; ``tests/test_course_edition.py`` checks
that no solution text reaches the course edition.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import nbformat
import yaml

ROOT = Path(__file__).resolve().parent.parent
BUILD = ROOT / "_build"
BOOK_FILES = ["_config.yml", "references.bib", "package.json", "scripts", "site_js", "_templates"]
OPENING = re.compile(r"^(?P<fence>`{3,}|:{3,})\{(?P<kind>exercise|solution)\}(?P<arg>.*)$")
GLUE = re.compile(r"\{glue(?::\w+)?\}`([^`:]+)")


def blocks(text: str) -> Iterator[tuple[str, int, int]]:
    """``(kind, first line, line after the end)`` of each exercise or solution block
    of a MyST text (fenced with backticks or colons, closed by the same fence)."""
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        m = OPENING.match(lines[i].strip())
        if not m:
            i += 1
            continue
        end = i + 1
        while end < len(lines) and lines[end].strip() != m["fence"]:
            end += 1
        yield m["kind"], i, min(end + 1, len(lines))
        i = end + 1


def without_solutions(text: str) -> str:
    """``text`` with every solution block (and the blank line after it) removed."""
    lines = text.split("\n")
    drop: set[int] = set()
    for kind, start, stop in blocks(text):
        if kind == "solution":
            drop.update(range(start, stop))
            if stop < len(lines) and not lines[stop].strip():
                drop.add(stop)
    return "\n".join(line for i, line in enumerate(lines) if i not in drop)


def solution_texts(text: str) -> list[str]:
    """The body of each solution block in ``text`` (without its fences and options)."""
    lines = text.split("\n")
    out = []
    for kind, start, stop in blocks(text):
        if kind == "solution":
            body = [ln for ln in lines[start + 1 : stop - 1] if not ln.startswith(":")]
            out.append("\n".join(body).strip())
    return out


def glue_names(output: dict) -> set[str]:
    """The glue names a stored output carries (myst-nb keeps them in its metadata)."""
    name = output.get("metadata", {}).get("scrapbook", {}).get("name")
    return {name} if name else set()


def strip_notebook(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """A copy of ``nb`` for the course edition: solutions, cells tagged ``solution``,
    and outputs glued only for solutions removed."""
    nb = nbformat.from_dict(nb)
    markdown = [c.source for c in nb.cells if c.cell_type == "markdown"]
    in_solutions = {n for t in markdown for s in solution_texts(t) for n in GLUE.findall(s)}
    elsewhere = {n for t in markdown for n in GLUE.findall(without_solutions(t))}
    answers = in_solutions - elsewhere
    cells = []
    for cell in nb.cells:
        if "solution" in cell.metadata.get("tags", []):
            continue
        if cell.cell_type == "markdown":
            cell.source = without_solutions(cell.source)
        elif cell.cell_type == "code":
            cell.outputs = [o for o in cell.outputs if not glue_names(o) & answers]
        cells.append(cell)
    nb.cells = cells
    return nb


def solutions_notebook(nb: nbformat.NotebookNode) -> nbformat.NotebookNode | None:
    """The chapter's exercises and solutions, shown in full, with every code cell kept
    but removed from the page (so that glued numbers resolve); ``None`` if it has none.

    Cross-references into the chapter become plain text: the solutions are read
    beside the chapter, not instead of it.
    """
    title = next((c.source.split("\n")[0].lstrip("# ") for c in nb.cells if c.source), "")
    kept = []
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell = nbformat.from_dict(cell)
            cell.metadata["tags"] = sorted({*cell.metadata.get("tags", []), "remove-cell"})
            kept.append(cell)
            continue
        if cell.cell_type != "markdown":
            continue
        lines = cell.source.split("\n")
        for _kind, start, stop in blocks(cell.source):
            body = "\n".join(ln for ln in lines[start:stop] if ln.strip() != ":class: dropdown")
            kept.append(nbformat.v4.new_markdown_cell(plain_references(body)))
    if not any(c.cell_type == "markdown" for c in kept):
        return None
    nb = nbformat.from_dict(nb)
    nb.cells = [nbformat.v4.new_markdown_cell(f"# Solutions: {title}"), *kept]
    return nb


def plain_references(text: str) -> str:
    """Turn ``{ref}``, ``{numref}`` and ``{doc}`` roles into their target's text."""
    text = re.sub(r"\{(?:ref|numref)\}`([^`<]*?)\s*<[^`]*>`", r"\1", text)
    text = re.sub(r"\{(?:ref|numref)\}`([^`]*)`", r"“\1”", text)
    return re.sub(r"\{doc\}`(?:[^`<]*<)?([^`>]*)>?`", r"chapter \1", text)


def notebooks() -> list[Path]:
    """Every notebook of the book: the chapters and the notebook pages at the top."""
    return sorted([*(ROOT / "chapters").glob("*.ipynb"), *ROOT.glob("*.ipynb")])


def toc_files() -> list[str]:
    """The book's pages in table-of-contents order."""
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    files = [toc["root"]]
    for part in toc.get("parts", []):
        files += [ch["file"] for ch in part["chapters"]]
    return files


def copy_book(dest: Path) -> None:
    """The book's sources (not the library or tests) in a fresh ``dest``."""
    shutil.rmtree(dest, ignore_errors=True)
    dest.mkdir(parents=True)
    for name in [*BOOK_FILES, "_toc.yml", *(p.name for p in ROOT.glob("*.md"))]:
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, dest / name, ignore=shutil.ignore_patterns("__pycache__"))
        elif src.exists():
            shutil.copy2(src, dest / name)
    for vendored in ("node_modules",):  # _vendor is refilled from it by the build
        if (ROOT / vendored).exists():
            (dest / vendored).symlink_to(ROOT / vendored)


def course(out: Path) -> Path:
    """Build the course edition into ``out`` (returns the HTML folder)."""
    src = BUILD / "course-src"
    copy_book(src)
    (src / "chapters").mkdir()
    for nb_path in notebooks():
        nbformat.write(strip_notebook(nbformat.read(nb_path, 4)), src / nb_path.relative_to(ROOT))
    for md in src.glob("*.md"):
        md.write_text(without_solutions(md.read_text()))
    return build(src, out)


def solutions(out: Path) -> Path:
    """Build the instructor's solutions into ``out`` (returns the HTML folder)."""
    src = BUILD / "solutions-src"
    copy_book(src)
    (src / "chapters").mkdir()
    pages = []
    for name in toc_files():
        path = ROOT / f"{name}.ipynb"
        nb = solutions_notebook(nbformat.read(path, 4)) if path.is_file() else None
        if nb is not None:
            nbformat.write(nb, src / f"{name}.ipynb")
            pages.append({"file": name})
    (src / "index.md").write_text(
        "# Instructor's solutions\n\nEvery exercise of the book, chapter by chapter, "
        "followed by its solution. Numbers are computed by the same cells as in the book.\n"
    )
    back = [{"file": "notation"}, {"file": "glossary"}, {"file": "bibliography"}]
    toc = {"format": "jb-book", "root": "index", "chapters": pages + back}
    (src / "_toc.yml").write_text(yaml.safe_dump(toc, sort_keys=False))
    config = yaml.safe_load((src / "_config.yml").read_text())
    config["title"] = "dcglab: instructor's solutions"
    (src / "_config.yml").write_text(yaml.safe_dump(config, sort_keys=False))
    return build(src, out, strict=False)


def build(src: Path, out: Path, strict: bool = True) -> Path:
    """Run Jupyter Book on ``src`` into ``out``; warnings are errors when ``strict``."""
    shutil.rmtree(out, ignore_errors=True)
    jb = Path(sys.executable).with_name("jupyter-book")
    flags = ["-W", "--keep-going"] if strict else ["--keep-going"]
    cmd = [str(jb), "build", "--all", *flags, "--path-output", str(out), str(src)]
    subprocess.run(cmd, check=True)
    return out / "_build" / "html"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=["course", "solutions"])
    args = parser.parse_args()
    html = course(BUILD / "course") if args.what == "course" else solutions(BUILD / "solutions")
    print(f"built {html / 'index.html'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
