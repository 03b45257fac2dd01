"""Fixed-format text for the notebooks, so that stored outputs are reproducible."""

from __future__ import annotations

import pandas as pd


def format_table(df: pd.DataFrame, digits: int = 3) -> str:
    """A table as plain text with every float printed to ``digits`` decimals.

    Missing values (a skipped query's nDCG) print as ``-``.

    Examples
    --------
    >>> print(format_table(pd.DataFrame({"k": [1, 2], "nDCG": [1.0, 0.87105]})))
    k  nDCG
    1 1.000
    2 0.871
    """

    def cell(x: object) -> str:
        if x is None or (isinstance(x, float) and pd.isna(x)):
            return "-"
        if isinstance(x, float):
            return f"{x:.{digits}f}"
        return str(x)

    return df.map(cell).to_string(index=False)


def same_to(value: float, published: float, digits: int = 3) -> str:
    """``"yes"`` when ``value`` prints as ``published`` to ``digits`` decimals, else ``"no"``.

    Examples
    --------
    >>> same_to(0.4361, 0.436), same_to(0.4366, 0.436)
    ('yes', 'no')
    """
    return "yes" if f"{value:.{digits}f}" == f"{published:.{digits}f}" else "no"
