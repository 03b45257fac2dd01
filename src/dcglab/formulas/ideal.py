"""The ideal ranking: the judged documents sorted by gain, best first.

Where the ideal comes from is a convention that changes results:

``"judged"`` (default)
    all judged grades of the query, as trec_eval, ranx and ir_measures do;
``"retrieved"``
    only the grades of the retrieved list, as scikit-learn's ``ndcg_score``
    and torchmetrics do. A system that retrieves few relevant documents can then
    look perfect: this is the pitfall of chapter 7.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Literal

import numpy as np

from dcglab.formulas.gains import GainSpec, as_grades, gain_values, parse_gain

IdealSource = Literal["judged", "retrieved"]
IDEAL_SOURCES = ("judged", "retrieved")


def ideal_order(grades: Sequence[float] | np.ndarray, gain: GainSpec = "linear") -> np.ndarray:
    """Grades rearranged into the ideal order (decreasing gain).

    The sort is by *gain*, not grade, so a mapping such as Cranfield's
    ``5 - grade`` puts grade 1 first.

    Examples
    --------
    >>> ideal_order([3, 2, 3, 0, 1, 2]).tolist()
    [3.0, 3.0, 2.0, 2.0, 1.0, 0.0]
    >>> ideal_order([4, 1, 2], {1: 4, 2: 3, 3: 2, 4: 1}).tolist()
    [1.0, 2.0, 4.0]
    """
    arr = as_grades(grades)
    order = np.argsort(-gain_values(arr, gain), kind="stable")
    return arr[order]


def check_subset(retrieved: np.ndarray, judged: np.ndarray, gain: GainSpec = "linear") -> None:
    """Raise if ``retrieved`` holds a grade of positive gain more often than ``judged``.

    Unjudged documents have a grade of gain 0 (grade 0 under the formula gains),
    so such grades are always allowed. Any other excess would let nDCG exceed 1:
    the ideal would lack a document the system found.

    Examples
    --------
    >>> check_subset(np.array([-1.0, -1.0]), np.array([-1.0, 0.0]), {-1: 5, 0: 0})
    ... # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: grades hold more documents of grade(s) [-1.0] than judged does; ...
    """
    counts = positive_gain(retrieved, gain), positive_gain(judged, gain)
    want, have = (Counter(grades.tolist()) for grades in counts)
    extra = {g: n - have[g] for g, n in want.items() if n > have[g]}
    if extra:
        raise ValueError(
            f"grades hold more documents of grade(s) {sorted(extra)} than judged does; "
            "judged must list every judged grade of the query"
        )


def positive_gain(grades: np.ndarray, gain: GainSpec) -> np.ndarray:
    """The grades whose gain is positive (grades missing from a gain table count too,
    so that a table's own error names them)."""
    kind, param = parse_gain(gain)
    if kind != "mapping":
        return grades[grades > 0]
    table = {float(k): float(v) for k, v in param.items()}  # type: ignore[union-attr]
    return np.array([g for g in grades.tolist() if table.get(g, 1.0) > 0])


def ideal_source(
    grades: np.ndarray,
    judged: Sequence[float] | np.ndarray | None,
    ideal: IdealSource,
    gain: GainSpec = "linear",
) -> np.ndarray:
    """The grades from which the ideal ranking is built.

    Parameters
    ----------
    grades : numpy.ndarray
        Grades of the retrieved list, in rank order.
    judged : sequence of float or None
        Every judged grade of the query. ``None`` means the retrieved list *is*
        the full set of judged documents.
    ideal : {"judged", "retrieved"}
        Which grades the ideal is built from.
    gain : str or mapping, default ``"linear"``
        The gain, which decides which grades must be judged as often as retrieved.
    """
    if ideal not in IDEAL_SOURCES:
        raise ValueError(f"ideal must be one of {IDEAL_SOURCES}, got {ideal!r}")
    if judged is None:
        return grades
    judged_arr = as_grades(judged, "judged")  # checked even when the ideal ignores it
    if ideal == "retrieved":
        return grades
    check_subset(grades, judged_arr, gain)
    return judged_arr
