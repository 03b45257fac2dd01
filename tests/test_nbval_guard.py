"""nbval really guards the stored outputs: break one stored digit and it fails.

A chapter notebook is copied, one digit of one stored number is changed, and
nbval is run on the copy in a subprocess. It must fail and name the changed value.
"""

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted([*(ROOT / "chapters").glob("*.ipynb"), *ROOT.glob("*.ipynb")])
NUMBER = re.compile(r"\d\.\d{3}")


def break_one_digit(nb: dict) -> tuple[str, str]:
    """Change the last digit of the first fixed-format number in a stream output."""
    for cell in nb["cells"]:
        if "nbval-ignore-output" in cell.get("metadata", {}).get("tags", []):
            continue
        for out in cell.get("outputs", []):
            if out.get("output_type") != "stream":
                continue
            text = "".join(out["text"])
            m = NUMBER.search(text)
            if m:
                old = m.group()
                new = old[:-1] + str((int(old[-1]) + 1) % 10)
                out["text"] = text[: m.start()] + new + text[m.end() :]
                return old, new
    raise AssertionError("no fixed-format number found in any stream output")


@pytest.mark.slow  # runs nbval on a chapter in a subprocess
def test_nbval_fails_on_a_changed_digit(tmp_path):
    assert NOTEBOOKS, "no chapter notebooks in chapters/"
    nb = json.loads(NOTEBOOKS[0].read_text(encoding="utf-8"))
    old, new = break_one_digit(nb)
    broken = tmp_path / "broken.ipynb"
    broken.write_text(json.dumps(nb), encoding="utf-8")
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "--nbval",
            "--nbval-current-env",
            "-p",
            "no:cacheprovider",
            "-o",
            "addopts=",
            "-q",
            str(broken),
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=600,
    )
    assert proc.returncode == 1, proc.stdout[-2000:]
    assert new in proc.stdout and old in proc.stdout, proc.stdout[-2000:]
