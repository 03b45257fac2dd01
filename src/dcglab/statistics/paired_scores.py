"""Scores of two systems paired query by query, the input of the paired tests
(:mod:`dcglab.statistics.significance`).

Scores indexed by query id (a :class:`pandas.Series` or a mapping) are paired by id,
never by position: the same scores in another order give the same pairs. Plain
sequences are paired by position.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Union

import numpy as np

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["Scores", "paired_differences"]


Scores = Union[Sequence[float], Mapping[Any, float], "pd.Series"]
"""Per-query scores: a sequence (paired by position), or a pandas Series or
mapping keyed by query id (paired by id)."""


def _keyed(x: object) -> dict | None:
    """The scores of a pandas Series or a mapping as ``{query id: score}``, else None."""
    if isinstance(x, Mapping):
        return dict(x)
    index = getattr(x, "index", None)
    if index is not None and hasattr(x, "to_numpy") and getattr(x, "ndim", 1) == 1:
        if not index.is_unique:
            raise ValueError(
                f"query ids must be unique, got {index[index.duplicated()][0]!r} twice"
            )
        return dict(zip(index.tolist(), x.to_numpy().tolist()))
    return None


def _by_query(a: object, b: object) -> tuple[list, list]:
    """Pair two query-indexed score lists by id (sorted), refusing unmatched ids."""
    ka, kb = _keyed(a), _keyed(b)
    if (ka is None) != (kb is None):
        which = "a" if ka is not None else "b"
        raise ValueError(
            f"{which} is indexed by query id and the other is not: pass both as "
            "pandas Series (or mappings) keyed by query id, or both as plain sequences"
        )
    if ka is None or kb is None:
        return a, b  # type: ignore[return-value]
    only_a, only_b = sorted(set(ka) - set(kb), key=str), sorted(set(kb) - set(ka), key=str)
    if only_a or only_b:
        raise ValueError(
            f"a and b must score the same queries: {len(only_a)} only in a "
            f"{only_a[:5]}, {len(only_b)} only in b {only_b[:5]}"
        )
    ids = sorted(ka, key=str)
    return [ka[q] for q in ids], [kb[q] for q in ids]


def paired_differences(a: Scores, b: Scores) -> np.ndarray:
    r"""Per-query differences :math:`\delta_q = a_q - b_q` of two paired score lists.

    Parameters
    ----------
    a, b : sequence of float, pandas Series or mapping
        Scores of systems A and B on the same queries. Series and mappings are
        paired by query id (and returned in sorted id order); plain sequences
        by position.

    Returns
    -------
    numpy.ndarray
        ``a - b`` as floats.

    Raises
    ------
    ValueError
        If the lengths or the query ids differ, only one of ``a`` and ``b`` is
        keyed by query id, fewer than two queries are given, or a score is not
        finite (NaN or infinite).

    Examples
    --------
    >>> paired_differences([0.5, 0.25], [0.25, 0.25]).tolist()
    [0.25, 0.0]
    >>> paired_differences({"q2": 0.5, "q1": 0.25}, {"q1": 0.25, "q2": 0.25}).tolist()
    [0.0, 0.25]
    """
    a, b = _by_query(a, b)
    x = np.asarray(a, dtype=float)
    y = np.asarray(b, dtype=float)
    if x.ndim != 1 or y.ndim != 1 or len(x) != len(y):
        raise ValueError(
            f"a and b must be flat and paired (one score per query each), "
            f"got shapes {x.shape} and {y.shape}"
        )
    if len(x) < 2:
        raise ValueError(f"need scores for at least 2 queries, got {len(x)}")
    for name, v in (("a", x), ("b", y)):
        bad = np.flatnonzero(~np.isfinite(v))
        if len(bad):
            raise ValueError(f"{name}[{bad[0]}] must be a finite score, got {float(v[bad[0]])!r}")
    return x - y
