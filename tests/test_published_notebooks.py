"""The notebooks the site offers for download (scripts/published_notebooks.py): a cell
tagged ``remove-cell`` goes unless a later cell reads a name it binds; every other cell
stays, in order. The built site is checked in tests/test_publish.py."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
import published_notebooks as pn  # noqa: E402

NOTEBOOKS = sorted((ROOT / "chapters").glob("*.ipynb"))


def cell(source: str, *tags: str, kind: str = "code") -> dict:
    return {"cell_type": kind, "metadata": {"tags": list(tags)}, "source": source}


def sources(nb: dict) -> list[str]:
    return [c["source"] for c in nb["cells"]]


def test_a_hidden_glue_cell_goes_and_the_rest_stays_in_order():
    nb = {
        "cells": [
            cell("# Title", kind="markdown"),
            cell("x = 2"),
            cell("glue('ch0_x', x)", pn.HIDDEN),
            cell("print(x + 1)"),
        ]
    }
    assert sources(pn.published(nb)) == ["# Title", "x = 2", "print(x + 1)"]


def test_a_hidden_cell_that_a_later_cell_needs_stays():
    nb = {"cells": [cell("y = 3\nglue('ch0_y', y)", pn.HIDDEN), cell("print(y)")]}
    assert sources(pn.published(nb)) == sources(nb)


def test_what_a_kept_hidden_cell_needs_stays_too():
    nb = {
        "cells": [
            cell("a = 1", pn.HIDDEN),
            cell("b = a + 1", pn.HIDDEN),
            cell("print(b)"),
        ]
    }
    assert len(pn.published(nb)["cells"]) == 3


def test_a_name_the_later_cell_binds_itself_is_not_needed():
    nb = {
        "cells": [
            cell("for k in (1, 2):\n    glue(f'ch0_{k}', k)", pn.HIDDEN),
            cell("k = 5\nprint(k)"),
        ]
    }
    assert sources(pn.published(nb)) == ["k = 5\nprint(k)"]


def test_a_cell_that_is_not_python_keeps_the_hidden_cells_before_it():
    nb = {"cells": [cell("z = 1", pn.HIDDEN), cell("print(z +)")]}
    assert len(pn.published(nb)["cells"]) == 2
    assert pn.bound_names("%matplotlib inline\nw = 1") == {"w"}


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_every_chapter_loses_only_hidden_cells(path):
    nb = json.loads(path.read_text(encoding="utf-8"))
    out = pn.published(nb)
    shown = [c for c in nb["cells"] if not pn.hidden(c)]
    assert [c for c in out["cells"] if not pn.hidden(c)] == shown
    kept = [c for c in out["cells"] if pn.hidden(c)]
    for c in kept:  # a hidden cell stays only for a name a later cell reads
        later = out["cells"][out["cells"].index(c) + 1 :]
        reads = set().union(*(pn.free_names("".join(d["source"])) or set() for d in later))
        assert pn.bound_names("".join(c["source"])) & reads


def test_the_chapters_lose_most_of_their_hidden_cells():
    """The rule is not vacuous on the book: most hidden cells leave the download."""
    counts = [
        (sum(map(pn.hidden, nb["cells"])), sum(map(pn.hidden, pn.published(nb)["cells"])))
        for nb in (json.loads(p.read_text(encoding="utf-8")) for p in NOTEBOOKS)
    ]
    hidden, kept = map(sum, zip(*counts, strict=True))
    assert hidden > 50 and kept <= hidden // 10


def test_strip_sources_rewrites_the_build_copies_only(tmp_path):
    source = ROOT / "chapters" / "01_cumulative_gain.ipynb"
    copy = tmp_path / "_sources" / "chapters" / source.name
    copy.parent.mkdir(parents=True)
    copy.write_bytes(source.read_bytes())
    report = pn.strip_sources(tmp_path)
    assert report and report[0].startswith("_sources/chapters/01_cumulative_gain.ipynb")
    out = json.loads(copy.read_text(encoding="utf-8"))
    assert not any(map(pn.hidden, out["cells"]))
    assert any(map(pn.hidden, json.loads(source.read_text(encoding="utf-8"))["cells"]))
