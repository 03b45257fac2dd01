"""An explorer in live JupyterLab: the sliders respond, and the kernel sees them.

A JupyterLab server runs on 127.0.0.1 with a throwaway notebook; Chromium opens
it, runs the cells, moves a slider, and checks both directions of the sync: the
kernel reads the new value (JS -> Python), and setting a trait in the kernel
redraws the explorer (Python -> JS).
"""

from __future__ import annotations

import json

import pytest
from sitekit import cell_output, live_lab, open_lab, run_cell

from dcglab.book.explorers import NdcgExplorer

CELLS = [
    "from dcglab.book.explorers import NdcgExplorer\nexplorer = NdcgExplorer()\nexplorer",
    "print(f\"k={explorer.k} ndcg={explorer.results()['ndcg']:.6f}\")",
    "explorer.gain = 'exponential'",
]


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """The URL of a throwaway notebook of :data:`CELLS` in live JupyterLab."""
    with live_lab(tmp_path_factory.mktemp("lab"), "live.ipynb", CELLS) as url:
        yield url


def test_explorer_syncs_both_ways_in_live_jupyterlab(browser, lab):
    page = open_lab(browser, lab)
    run_cell(page, 0)
    root = page.locator(".dcglab-explorer")
    root.wait_for()
    state = json.loads(root.get_attribute("data-state"))
    assert state["k"] == 6

    # JS -> Python: move the cutoff slider, then ask the kernel.
    slider = root.locator('[data-param="k"]')
    slider.evaluate("e => { e.value = '3'; e.dispatchEvent(new Event('input', {bubbles: true})); }")
    page.wait_for_function(
        "e => JSON.parse(e.getAttribute('data-state')).k === 3", arg=root.element_handle()
    )
    shown = json.loads(root.get_attribute("data-result"))["ndcg"]
    expected = NdcgExplorer.compute({**state, "k": 3})["ndcg"]
    assert shown == pytest.approx(expected, abs=1e-12)
    run_cell(page, 1)
    page.wait_for_function(
        "i => window.jupyterapp.shell.currentWidget.content.widgets[i]"
        ".outputArea.node.innerText.includes('k=')",
        arg=1,
    )
    assert cell_output(page, 1).strip() == f"k=3 ndcg={expected:.6f}"

    # Python -> JS: set a trait in the kernel, and the explorer redraws.
    run_cell(page, 2)
    page.wait_for_function(
        "e => JSON.parse(e.getAttribute('data-state')).gain === 'exponential'",
        arg=root.element_handle(),
    )
    shown = json.loads(root.get_attribute("data-result"))["ndcg"]
    want = NdcgExplorer.compute({**state, "k": 3, "gain": "exponential"})["ndcg"]
    assert shown == pytest.approx(want, abs=1e-12)
    page.close()
