"""Explorer of the chapter on comparing systems: a paired test over a handful of queries.

Its JavaScript twin of the statistics is ``paired.js`` (Student's t distribution for
integer degrees of freedom and the exact randomization test), locked to
:mod:`dcglab.statistics.significance` by ``tests/test_comparing_explorer.py``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import traitlets as t

from dcglab.book.explorers.base import Explorer, bundle
from dcglab.statistics.significance import effect_size, paired_t_test, randomization_test

#: Per-query differences (system A minus system B, in hundredths of nDCG) of the example:
#: A is ahead on six of eight queries, by small margins, and behind on two.
DELTAS = [12, 5, -8, 20, 3, 9, -4, 15]
#: Largest difference a slider reaches, in hundredths.
DELTA_MAX = 50


class PairedTestExplorer(Explorer):
    """Per-query differences and the number of queries: mean, d_z, t and both p-values."""

    name = "paired_test"
    params = ("deltas", "n")
    _esm = bundle("paired.js", "comparing.js")
    deltas = t.List(t.Int(), default_value=list(DELTAS)).tag(sync=True)
    n = t.Int(len(DELTAS)).tag(sync=True)

    @classmethod
    def compute(cls, state: dict[str, Any]) -> dict[str, float | None]:
        d = np.array(state["deltas"][: state["n"]], dtype=float) / 100
        zero = np.zeros_like(d)
        out: dict[str, float | None] = {
            "mean": float(d.mean()),
            "p_rand": randomization_test(d, zero).pvalue,
        }
        if np.all(d == d[0]):  # no spread: t and d_z are undefined
            return {**out, "d_z": None, "t": None, "p_t": None}
        t_test = paired_t_test(d, zero)
        return {**out, "d_z": effect_size(d, zero), "t": t_test.statistic, "p_t": t_test.pvalue}
