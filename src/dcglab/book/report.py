"""Fixed-format text for the notebooks, so that stored outputs are reproducible.

* :func:`format_table` prints a table with every float to a fixed number of decimals.
* :func:`show` glues one number for the prose and prints it once.
* :func:`show_table` prints a table and glues each of its numbers.
* :func:`expect` keeps glue names out of the code a reader sees: a hidden cell names
  the numbers the next cell shows, and that cell shows them by label only
  (``show_all([(label, value), ...])``, ``show_table(table, key=...)``). Where no
  hidden cell ran (a downloaded notebook, whose hidden cells the site leaves out),
  the same calls only print.
"""

from __future__ import annotations

import numbers
from collections import deque
from collections.abc import Iterable, Mapping
from typing import Any

import pandas as pd

from dcglab.book import glue


def format_table(df: pd.DataFrame, digits: int = 3) -> str:
    """A table as plain text with every float printed to ``digits`` decimals, as
    :func:`decimals` writes it (the rule :func:`shown` uses in the prose).

    Missing values (a skipped query's nDCG) print as ``-``. Integers print as they are,
    without the thousands separators of :func:`shown`: in a table they are often
    identifiers (a Cranfield document number).

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
            return decimals(x, digits)
        return str(x)

    return df.map(cell).to_string(index=False)


def decimals(value: float, digits: int = 3) -> str:
    """A real number to ``digits`` decimals; ``-0.0`` prints as ``0.000``, since a sign
    the value does not carry is not shown.

    Examples
    --------
    >>> decimals(0.87105), decimals(-0.0), decimals(-0.25, 1)
    ('0.871', '0.000', '-0.2')
    """
    return f"{float(value) + 0.0:.{digits}f}"


def shown(value: Any, digits: int = 3) -> str:
    """``value`` as the text prints it: an integer with its thousands grouped, a real
    number to ``digits`` decimals.

    ``-0.0`` prints as ``0.000``: a sign the value does not carry is not shown.

    Examples
    --------
    >>> shown(0.87105), shown(4.0, 0), shown(7), shown(315000), shown(-0.0), shown("A")
    ('0.871', '4', '7', '315,000', '0.000', 'A')
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        return str(value)
    if isinstance(value, numbers.Integral):
        return f"{int(value):,}"
    return decimals(value, digits)


def show(name: str, value: Any, label: str | None = None, digits: int = 3) -> None:
    """Glue ``value`` under ``name`` (:func:`dcglab.book.glue`) and print it once.

    The printed line is ``label = value``, the value as :func:`shown` writes it
    (``label`` defaults to ``name``), so that the number the prose quotes and the
    number a reader of the notebook sees come from one call. The glued value keeps
    12 significant digits (:func:`dcglab.book.meant`); ``digits`` only sets what is
    printed, so the stored output does not depend on the CPU.

    Parameters
    ----------
    name
        The glue name the prose cites as ``{glue:text}`name:.3f```.
    value
        The number.
    label
        What the printed line calls the number.
    digits
        Decimals printed for a real number.

    Examples
    --------
    >>> show("ch3_drill_ndcg6", 0.8674917, "drill: nDCG@6")
    drill: nDCG@6 = 0.867
    >>> show("ch1_sol_cg3", 4.0, digits=0)
    ch1_sol_cg3 = 4
    """
    glue(name, value)
    print(f"{name if label is None else label} = {shown(value, digits)}")


#: Glue names announced by :func:`expect`, used in order by the next key-free calls.
_EXPECTED: deque[str] = deque()


def expect(names: Iterable[str]) -> None:
    """Announce the glue names of the numbers the next cell shows, in the order it
    shows them.

    The cell then shows its numbers by label only, and each number is glued under
    the next announced name. A cell that shows fewer numbers than announced is
    caught by the next call of ``expect``.

    Raises
    ------
    ValueError
        When names announced earlier were not all used.

    Examples
    --------
    >>> expect(["ch0_a", "ch0_b"])
    >>> show_all([("A", 0.25), ("B", 3)], digits=2)
    A = 0.25, B = 3
    >>> expect([])
    """
    if _EXPECTED:
        unused = list(_EXPECTED)
        _EXPECTED.clear()
        raise ValueError(f"glue names announced but not shown: {unused}")
    _EXPECTED.extend(names)


def _glue_next(value: Any) -> None:
    """Glue ``value`` under the next announced name; without one, glue nothing."""
    if _EXPECTED:
        glue(_EXPECTED.popleft(), value)


def show_all(items: Iterable[tuple], digits: int = 3) -> None:
    """Glue several numbers and print them on one line, as :func:`show` does one.

    ``items`` holds ``(name, label, value)`` triples, or ``(label, value)`` pairs
    whose names come from :func:`expect`; the line is ``label = value`` for each,
    separated by commas.

    Examples
    --------
    >>> show_all([("ch7_sol_a_zero", "zero: A", 0.5), ("ch7_sol_b_zero", "B", 0.7)])
    zero: A = 0.500, B = 0.700
    """
    items = list(items)
    for item in items:
        if len(item) == 3:
            glue(item[0], item[2])
        else:
            _glue_next(item[1])
    print(", ".join(f"{item[-2]} = {shown(item[-1], digits)}" for item in items))


def show_table(
    table: pd.DataFrame,
    name: str | None = None,
    key: str | None = None,
    digits: int = 3,
    columns: Mapping[str, str] | None = None,
) -> None:
    """Print ``table`` (:func:`format_table`) and glue each of its numbers.

    The number in column ``c`` of the row whose ``key`` column holds ``r`` is
    glued under ``name.format(column=columns[c], row=r)``; ``columns`` defaults
    to the column's name in lower case. The ``key`` column itself is not glued.
    Without ``name``, the numbers take the names announced by :func:`expect`, row
    by row.

    Examples
    --------
    >>> show_table(pd.DataFrame({"k": [1, 2], "nDCG": [1.0, 0.87105]}), "ndcg{row}_{column}", "k")
    k  nDCG
    1 1.000
    2 0.871
    """
    columns = columns or {}
    for index, row in zip(table.index, table[key], strict=True):
        for column in table.columns.drop(key):
            if name is None:
                _glue_next(table.at[index, column])
            else:
                short = columns.get(column, str(column).lower())
                glue(name.format(column=short, row=row), table.at[index, column])
    print(format_table(table, digits))


def same_to(value: float, published: float, digits: int = 3) -> str:
    """``"yes"`` when ``value`` prints as ``published`` to ``digits`` decimals, else ``"no"``.

    Examples
    --------
    >>> same_to(0.4361, 0.436), same_to(0.4366, 0.436)
    ('yes', 'no')
    """
    return "yes" if f"{value:.{digits}f}" == f"{published:.{digits}f}" else "no"
