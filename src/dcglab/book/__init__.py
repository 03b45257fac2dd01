"""What the chapters import: the article's figures, plots, fixed-format reports,
the explorers, and two helpers every chapter uses.

The library (:mod:`dcglab`) never imports this package; the book imports the library.

* :func:`setup` configures a chapter's kernel (figures without a version stamp).
* :func:`glue` stores a number for the text with only the digits that are meant, so
  that a stored output never depends on the CPU that executed the notebook;
  :func:`dcglab.book.report.show` glues a number and prints it in one call.
"""

from __future__ import annotations

import numbers
from typing import Any

SIGNIFICANT_DIGITS = 12

FIGURE_CONFIG = (
    "InlineBackend.print_figure_kwargs = {'metadata': {'Software': None}, 'bbox_inches': 'tight'}"
)


def meant(value: Any, digits: int = SIGNIFICANT_DIGITS) -> Any:
    """``value`` with only ``digits`` significant digits if it is a real number.

    numpy's SIMD kernels differ in the last bits between CPUs, so a float stored
    at full precision (its ``repr``) is not reproducible. Rounding to 12
    significant digits keeps every digit the text can mean and drops the noise.
    Integers (Python or numpy) become ``int``; anything else is returned as is.

    Examples
    --------
    >>> meant(3.120000000000001)
    3.12
    >>> meant(0.1 + 0.2)
    0.3
    >>> import numpy as np
    >>> meant(np.int64(7)), meant("text")
    (7, 'text')
    """
    if isinstance(value, bool):
        return value
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        return float(f"{float(value):.{digits}g}")
    return value


def glue(name: str, value: Any) -> None:
    """Store ``value`` under ``name`` for ``{glue:text}`` in the chapter's prose.

    The value is passed through :func:`meant` first; the format in the text
    (``{glue:text}`name:.3f```) chooses what the reader sees.
    """
    from myst_nb import glue as myst_glue

    myst_glue(name, meant(value), display=False)


def setup() -> None:
    """Configure a chapter's kernel: inline PNG figures without matplotlib's version
    stamp (so stored images do not change with the version) and cropped tightly."""
    from IPython import get_ipython

    shell = get_ipython()
    if shell is not None:
        shell.run_line_magic("config", FIGURE_CONFIG)


__all__ = ["SIGNIFICANT_DIGITS", "glue", "meant", "setup"]
