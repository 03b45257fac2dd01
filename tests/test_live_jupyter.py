"""An explorer in live JupyterLab: the sliders respond, and the kernel sees them.

A JupyterLab server runs on 127.0.0.1 with a throwaway notebook; Chromium opens
it, runs the cells, moves a slider, and checks both directions of the sync: the
kernel reads the new value (JS -> Python), and setting a trait in the kernel
redraws the explorer (Python -> JS).
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request

import nbformat
import pytest

from dcglab.book.explorers import NdcgExplorer

CELLS = [
    "from dcglab.book.explorers import NdcgExplorer\nexplorer = NdcgExplorer()\nexplorer",
    "print(f\"k={explorer.k} ndcg={explorer.results()['ndcg']:.6f}\")",
    "explorer.gain = 'exponential'",
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    root = tmp_path_factory.mktemp("lab")
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in CELLS])
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    nbformat.write(nb, root / "live.ipynb")
    port = free_port()
    env = {
        **os.environ,
        "JUPYTER_CONFIG_DIR": str(root / "config"),
        "JUPYTER_RUNTIME_DIR": str(root / "runtime"),
    }
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "jupyterlab",
            "--no-browser",
            "--allow-root",
            f"--port={port}",
            "--ServerApp.ip=127.0.0.1",
            "--IdentityProvider.token=",
            "--ServerApp.password=",
            f"--ServerApp.root_dir={root}",
            "--LabApp.expose_app_in_browser=True",
            "--LabApp.news_url=None",
            "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.time() + 120
    while time.time() < deadline:
        try:
            urllib.request.urlopen(f"{url}/api/status", timeout=2)
            break
        except OSError:
            time.sleep(0.5)
    else:
        proc.kill()
        pytest.fail("JupyterLab did not start within 120 s")
    yield url
    proc.terminate()
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()


def run_cell(page, index: int) -> None:
    page.evaluate(
        """async (i) => {
            const panel = window.jupyterapp.shell.currentWidget;
            panel.content.activeCellIndex = i;
            await window.jupyterapp.commands.execute('notebook:run-cell');
        }""",
        index,
    )


def cell_output(page, index: int) -> str:
    return page.evaluate(
        """(i) => {
            const cell = window.jupyterapp.shell.currentWidget.content.widgets[i];
            return cell.outputArea.node.innerText;
        }""",
        index,
    )


def test_explorer_syncs_both_ways_in_live_jupyterlab(browser, lab):
    page = browser.new_page()
    page.set_default_timeout(120_000)
    # nothing may leave the machine; JupyterLab itself needs only its own server
    page.route(
        "**/*",
        lambda r: (
            r.continue_()
            if r.request.url.startswith(("http://127.0.0.1", "data:", "blob:"))
            else r.abort()
        ),
    )
    page.goto(f"{lab}/lab/tree/live.ipynb")
    page.wait_for_function(
        "window.jupyterapp && window.jupyterapp.shell.currentWidget"
        " && window.jupyterapp.shell.currentWidget.sessionContext"
        " && window.jupyterapp.shell.currentWidget.sessionContext.session"
    )
    page.wait_for_function(
        "window.jupyterapp.shell.currentWidget.sessionContext.session"
        ".kernel.connectionStatus === 'connected'"
    )
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
