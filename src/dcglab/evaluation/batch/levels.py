"""Grades to gains: each distinct qrels grade's gain, as every path computes it.

:func:`level_gains` is the one lookup from grade levels to gains (the default
path's :func:`dcglab.evaluation.batch.prepare` and the engines' gains table both use it);
:func:`complete_gains` completes trec_eval's partial per-measure table.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

import numpy as np

from dcglab.evaluation.batch.reader import Table, locate
from dcglab.formulas.gains import GainError, GainSpec, gain_values

if TYPE_CHECKING:
    from dcglab.evaluation.measure_names import Measure

__all__ = ["complete_gains", "gain_table", "level_gains", "measure_gains", "read_grades"]


def read_grades(grades: np.ndarray, fractional_grades: str) -> np.ndarray:
    """Grades as the ``fractional_grades`` convention reads them: as they are
    (``"keep"``), or truncated toward zero as trec_eval reads them with C's ``atol``
    (``"truncate"``; never ``-0``).

    Examples
    --------
    >>> read_grades(np.array([2.5, -0.5, -1.5, 3.0]), "truncate")
    array([ 2.,  0., -1.,  3.])
    """
    return np.trunc(grades) + 0.0 if fractional_grades == "truncate" else grades


def level_gains(
    levels: np.ndarray,
    gain: GainSpec,
    negative_grades: str,
) -> np.ndarray:
    """Gain of each grade level, then 0 for unjudged documents (one more entry).

    A partial table (trec_eval's ``ndcg.1=3,2=9``) is completed with each
    unlisted grade as its own gain before :func:`dcglab.formulas.gains.gain_values` maps
    the grades. With ``negative_grades="unjudged"`` a negative grade has gain 0.
    Raises ``ValueError`` naming the gain and the grade when a gain is not a
    finite number.
    """
    out = np.zeros(len(levels) + 1)
    use = levels >= 0 if negative_grades == "unjudged" else np.ones(len(levels), dtype=bool)
    if not use.any():
        return out
    grades = levels[use]
    try:
        with np.errstate(over="ignore", invalid="ignore"):  # overflow is reported below
            out[: len(levels)][use] = gain_values(grades, gain)
    except GainError:
        raise  # it names the gain and the grade already
    except (ValueError, TypeError, OverflowError) as exc:
        hint = (
            "; negative_grades='unjudged' reads negative grades as trec_eval does "
            "(in the pool, unjudged: gain 0)"
            if (grades < 0).any()
            else ""
        )
        raise ValueError(f"gain={gain!r}: {exc} (qrels grades {grades.tolist()}){hint}") from None
    bad = np.flatnonzero(~np.isfinite(out))
    if len(bad):
        grade = float(levels[int(bad[0])])
        raise GainError(
            f"gain={gain!r}: grade {grade:g} has gain {out[int(bad[0])]}, not a finite number",
            grade,
        )
    return out


def complete_gains(
    gain: Mapping[float, float], levels: np.ndarray, negative_grades: str
) -> dict[float, float]:
    """trec_eval's partial gain table: an unlisted grade is its own gain (negative
    grades too, unless they count as unjudged)."""
    keep = levels >= 0 if negative_grades == "unjudged" else np.ones(len(levels), dtype=bool)
    table = {float(g): float(g) for g in levels[keep]}
    table.update({float(k): float(v) for k, v in gain.items()})
    return table


def measure_gains(levels: np.ndarray, m: Measure, negative_grades: str) -> np.ndarray:
    """:func:`level_gains` under measure ``m``'s own gain (trec_eval's partial table
    ``ndcg.1=3,2=9``, completed by :func:`complete_gains`, or ir_measures'
    ``dcg='exp-log2'``); an error names the measure."""
    gain = m.gain
    table = gain if isinstance(gain, str) else complete_gains(gain, levels, negative_grades)
    try:
        return level_gains(levels, table, negative_grades)
    except ValueError as exc:
        raise ValueError(f"measure {m.name!r}: {exc}") from None


def gain_table(
    levels: np.ndarray, gain: GainSpec, negative_grades: str, first_rows: np.ndarray, q: Table
) -> np.ndarray:
    """:func:`level_gains`, with an error naming the qrels line of the grade at
    fault (``first_rows``: the first qrels row of each level)."""
    try:
        return level_gains(levels, gain, negative_grades)
    except GainError as exc:
        hit = np.flatnonzero(levels == exc.grade) if exc.grade is not None else []
        where = locate(q.origin, int(first_rows[hit[0]])) if len(hit) else q.origin
        raise ValueError(f"{where}: {exc}") from None
    except ValueError as exc:
        raise ValueError(f"{q.origin}: {exc}") from None
