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

from .gains import GainSpec, as_grades, gain_values

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


def check_subset(retrieved: np.ndarray, judged: np.ndarray) -> None:
    """Raise if ``retrieved`` holds a positive grade more often than ``judged`` does.

    Unjudged documents count as grade 0, so zeros are always allowed. Any other
    excess would make nDCG exceed 1.
    """
    have = Counter(judged[judged > 0].tolist())
    want = Counter(retrieved[retrieved > 0].tolist())
    extra = {g: n - have[g] for g, n in want.items() if n > have[g]}
    if extra:
        raise ValueError(
            f"grades hold more documents of grade(s) {sorted(extra)} than judged does; "
            "judged must list every judged grade of the query"
        )


def ideal_source(
    grades: np.ndarray, judged: Sequence[float] | np.ndarray | None, ideal: IdealSource
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
    """
    if ideal not in IDEAL_SOURCES:
        raise ValueError(f"ideal must be one of {IDEAL_SOURCES}, got {ideal!r}")
    if ideal == "retrieved" or judged is None:
        return grades
    judged_arr = as_grades(judged, "judged")
    check_subset(grades, judged_arr)
    return judged_arr
