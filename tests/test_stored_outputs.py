"""Stored notebook outputs carry only the digits that are meant.

numpy's SIMD kernels (AVX-512 against AVX2, and even array length and alignment)
change the last bits of ``power``, ``log`` and ``exp``. A float stored at full
precision, such as glue's ``text/plain`` (the value's ``repr``), then depends on the
CPU that executed the notebook, and nbval fails on another machine. Every stored
float must therefore have at most 12 significant digits (``dcglab.book.glue``
rounds; printed numbers use fixed formats).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from dcglab.book import SIGNIFICANT_DIGITS, meant

CHAPTERS = sorted(
    [
        *(Path(__file__).resolve().parents[1] / "chapters").glob("*.ipynb"),
        *Path(__file__).resolve().parents[1].glob("*.ipynb"),
    ]
)
FLOAT = re.compile(r"(?<![\w.])[-+]?(\d+\.\d+)(?:[eE][-+]?\d+)?(?![\w.])")


def significant_digits(number: str) -> int:
    """Significant digits of a decimal literal's mantissa ("0.0120" has 3)."""
    digits = number.replace(".", "").lstrip("0")
    return len(digits)


def long_floats(text: str) -> list[str]:
    """Every decimal literal in ``text`` with more than 12 significant digits."""
    return [
        m.group(0)
        for m in FLOAT.finditer(text)
        if significant_digits(m.group(1)) > SIGNIFICANT_DIGITS
    ]


def stored_texts(notebook: Path):
    """(cell index, text) for every text output stored in a notebook."""
    for index, cell in enumerate(json.loads(notebook.read_text(encoding="utf-8"))["cells"]):
        for output in cell.get("outputs", []):
            if "text" in output:
                yield index, "".join(output["text"])
            for mime, value in output.get("data", {}).items():
                if mime.startswith("text/") or mime.startswith("application/papermill"):
                    yield index, value if isinstance(value, str) else "".join(value)


def test_the_scanner_finds_long_floats() -> None:
    assert long_floats("glued 3.120000000000001 and 0.30000000000000004") == [
        "3.120000000000001",
        "0.30000000000000004",
    ]
    assert long_floats("3.12 0.961 16,110 1e-12 0.000123456789012") == []
    assert long_floats("x = 0.0001234567890123") == ["0.0001234567890123"]


def test_glue_rounding_removes_cpu_noise() -> None:
    noisy = 3.120000000000001
    assert long_floats(repr(noisy)) and not long_floats(repr(meant(noisy)))


@pytest.mark.parametrize("notebook", CHAPTERS, ids=lambda p: p.stem)
def test_no_stored_float_has_more_than_12_significant_digits(notebook: Path) -> None:
    found = [(index, x) for index, text in stored_texts(notebook) for x in long_floats(text)]
    assert not found, f"{notebook.name}: floats stored at full precision (cell, value): {found}"
