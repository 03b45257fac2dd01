"""The package's layers: every import of every module goes down a layer or stays inside
its own folder, and no modules import each other in a circle.

The imports are read from the source (every ``import`` and ``from ... import``
statement, at module level or inside a function), not from what Python happens to load.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = SRC / "dcglab"

LAYERS = (
    ("dcglab.formulas",),
    ("dcglab.evaluation",),  # its tables: options, presets, measure names and families
    ("dcglab.evaluation.batch",),
    ("dcglab.evaluation.engines",),
    ("dcglab.statistics", "dcglab.collections"),
    ("dcglab",),
    ("dcglab.cli",),
    ("dcglab.book",),
    ("dcglab.__main__",),
)  # fmt: skip
"""From the bottom up: a module may import its own folder, and any layer below its own."""


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def home(module: str) -> str:
    """The longest layer prefix that ``module`` falls under."""
    prefixes = [p for layer in LAYERS for p in layer if module == p or module.startswith(p + ".")]
    return max(prefixes, key=len)


def rank(module: str) -> int:
    return next(i for i, layer in enumerate(LAYERS) if home(module) in layer)


def imports(module: str) -> set[str]:
    """The dcglab modules that ``module`` imports, anywhere in its source."""
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*up, base] if base else up)
            # ``from pkg import sub`` imports the submodule ``pkg.sub`` when there is one
            names = [f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base
                     for a in node.names]  # fmt: skip
        else:
            continue
        found.update(n for n in names if n in MODULES and n != module)
    return found


GRAPH = {m: imports(m) for m in MODULES}


def test_the_layers_cover_every_module():
    assert {home(m) for m in MODULES} <= {p for layer in LAYERS for p in layer}
    assert len(MODULES) > 50  # the walk found the package


@pytest.mark.parametrize("module", sorted(MODULES))
def test_imports_go_down(module):
    """An import reaches the module's own folder or a lower layer, never a sibling folder
    on the same layer (statistics and collections stay apart) or a higher one."""
    up = [
        target
        for target in sorted(GRAPH[module])
        if home(target) != home(module) and rank(target) >= rank(module)
    ]
    assert not up, f"{module} imports {up}, which are not below it"


def test_the_library_never_imports_the_command_line_or_the_book():
    """Only the entry point and the book (which may use everything) reach the command line;
    nothing reaches the book."""
    above = ("dcglab.cli", "dcglab.book", "dcglab.__main__")
    for top in ("dcglab.cli", "dcglab.book"):
        users = sorted(
            m for m, targets in GRAPH.items()
            if home(m) not in above and any(home(t) == top for t in targets)
        )  # fmt: skip
        assert not users, f"{users} import {top}"
    assert not [m for m, targets in GRAPH.items() if "dcglab.book" not in home(m)
                and any(home(t) == "dcglab.book" for t in targets)]  # fmt: skip


def strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's algorithm: the graph's strongly connected components."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            out.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_no_import_circle():
    circles = [c for c in strongly_connected(GRAPH) if len(c) > 1]
    assert not circles


def test_the_circle_finder_finds_a_circle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert [c for c in strongly_connected(graph) if len(c) > 1] == [["a", "b", "c"]]


def test_an_upward_import_is_seen():
    """The reader sees an import inside a function, as the layer test needs."""
    assert "dcglab.statistics.comparison" in GRAPH["dcglab"]
    assert rank("dcglab.formulas.measures") < rank("dcglab.statistics.comparison")
