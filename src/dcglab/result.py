"""The result of a batch evaluation: per-query values and their (weighted) mean."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd

__all__ = ["BatchResult"]


@dataclass(frozen=True)
class BatchResult:
    """Per-query values (one column per measure) and how to aggregate them."""

    per_query: pd.DataFrame

    def mean(self) -> pd.Series:
        """Mean over the evaluated queries (queries skipped under ``zero_idcg="skip"``
        left out). Raises ``ValueError`` when a measure has no query left."""
        counts = self.per_query.notna().sum()
        empty = counts.index[counts == 0].tolist()
        if empty:
            raise ValueError(
                f"{', '.join(map(str, empty))}: every query was skipped (IDCG 0), "
                "so the mean is undefined; choose zero_idcg='zero' or 'one'"
            )
        return self.per_query.mean(skipna=True)

    def weighted_mean(self, weights: Mapping[str, float]) -> pd.Series:
        r"""Weighted mean :math:`\sum_q w_q v_q / \sum_q w_q` (section 4.2.1 of the overview).

        Queries without a weight get weight 0; skipped queries are left out.
        """
        if not isinstance(weights, Mapping):
            raise ValueError(f"weights must be a mapping {{qid: weight}}, got {weights!r}")
        for q, x in weights.items():
            ok = isinstance(x, (int, float, np.number)) and not isinstance(x, bool)
            if not ok or not np.isfinite(float(x)) or float(x) < 0:
                raise ValueError(
                    f"weights: the weight of query {q!r} is {x!r}; "
                    "weights must be finite, non-negative numbers"
                )
        w = pd.Series({k: float(v) for k, v in weights.items()}, dtype=float)
        w = w.reindex(self.per_query.index).fillna(0.0)
        out = {}
        for col in self.per_query:
            v = self.per_query[col]
            keep = v.notna()
            total = w[keep].sum()
            if total <= 0:
                raise ValueError(f"weights of the queries kept for {col} sum to 0")
            out[col] = float((v[keep] * w[keep]).sum() / total)
        return pd.Series(out)
