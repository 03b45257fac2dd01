"""The notebooks the site offers for download (``_sources/**/*.ipynb`` of a build).

A code cell tagged ``remove-cell`` is not on the page: it glues a number that the prose
quotes, or prints an explorer's starting state, and nbval compares its output on every
run of the repository's notebooks. A reader who downloads a chapter needs neither, so
the published copy leaves such a cell out, unless a later cell of the copy reads a
name that the cell binds: then it stays, and the notebook still runs from top to
bottom. The repository's notebooks keep every cell.

``scripts/dcglab_site.py`` applies :func:`strip_sources` to every build (the site, the
course edition and the solutions); ``tests/test_published_notebooks.py`` tests the
rule and ``tests/test_publish.py`` the built site.

    python scripts/published_notebooks.py _build/html   # what a build does
"""

from __future__ import annotations

import ast
import json
import sys
from pathlib import Path

HIDDEN = "remove-cell"


def _tree(source: str) -> ast.AST | None:
    lines = [ln for ln in source.splitlines() if not ln.lstrip().startswith(("%", "!"))]
    try:
        return ast.parse("\n".join(lines))
    except SyntaxError:
        return None


def bound_names(source: str) -> set[str] | None:
    """Names a cell binds (assignments, loop targets, imports, ``def``/``class``);
    ``None`` when the cell is not Python."""
    tree = _tree(source)
    if tree is None:
        return None
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store | ast.Del):
            names.add(node.id)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
    return names


def free_names(source: str) -> set[str] | None:
    """Names a cell reads and does not bind itself; ``None`` when the cell is not Python."""
    tree = _tree(source)
    if tree is None:
        return None
    read = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    return read - (bound_names(source) or set())


def hidden(cell: dict) -> bool:
    return cell.get("cell_type") == "code" and HIDDEN in cell.get("metadata", {}).get("tags", [])


def published(nb: dict) -> dict:
    """``nb`` without the hidden cells that no later cell needs.

    Read from the last cell up: a hidden cell goes when none of the names it binds is
    read by a cell kept after it; a cell that is not Python keeps every hidden cell
    before it.
    """
    needed: set[str] = set()
    everything = False
    kept = []
    for cell in reversed(nb["cells"]):
        if hidden(cell):
            binds = bound_names("".join(cell["source"]))
            if not everything and binds is not None and not binds & needed:
                continue
        if cell.get("cell_type") == "code":
            reads = free_names("".join(cell["source"]))
            if reads is None:
                everything = True
            else:
                needed |= reads
        kept.append(cell)
    return {**nb, "cells": kept[::-1]}


def strip_sources(site: Path) -> list[str]:
    """Rewrite every notebook under ``site/_sources`` as :func:`published` makes it;
    return one line per notebook that lost cells."""
    report = []
    for path in sorted((site / "_sources").rglob("*.ipynb")):
        nb = json.loads(path.read_text(encoding="utf-8"))
        out = published(nb)
        dropped = len(nb["cells"]) - len(out["cells"])
        if dropped:
            path.write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
            report.append(f"{path.relative_to(site).as_posix()}: {dropped} hidden cells left out")
    return report


if __name__ == "__main__":
    for line in strip_sources(Path(sys.argv[1] if len(sys.argv) > 1 else "_build/html")):
        print(line)
