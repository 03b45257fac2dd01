"""The result of a batch evaluation: per-query values and their (weighted) mean."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

import numpy as np

from dcglab.evaluation.measure_names import Measure, trec_order

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["BatchResult"]


@dataclass(frozen=True)
class BatchResult:
    """Per-query values of each measure and how to aggregate them.

    ``values[name][i]`` is the value of measure ``name`` for query ``qids[i]``
    (NaN only for a query skipped under ``zero_idcg="skip"``);
    ``measures[name]`` is the :class:`dcglab.evaluation.measure_names.Measure` it computes,
    which says how it is summarised and printed (a name without one is a plain
    mean, printed last). pandas is imported only when :attr:`per_query` or a
    pandas result is asked for, which keeps the command line's start quick.
    """

    qids: np.ndarray
    values: Mapping[str, np.ndarray]
    measures: Mapping[str, Measure] = field(default_factory=dict)

    def family(self, name: str) -> str | None:
        """The family of the measure whose output name is ``name`` (``None``: unknown)."""
        m = self.measures.get(name)
        return None if m is None else m.family

    def ordered(self) -> list[str]:
        """The output names in trec_eval's order
        (:func:`dcglab.evaluation.measure_names.trec_order`),
        then those without a measure, as given."""
        known = [m.name for m in trec_order(self.measures.values()) if m.name in self.values]
        return known + [n for n in self.values if n not in self.measures]

    def select(self, names: Iterable[str]) -> BatchResult:
        """The result for the output names ``names`` only."""
        keep = {n: self.values[n] for n in names}
        return BatchResult(
            self.qids, keep, {n: self.measures[n] for n in keep if n in self.measures}
        )

    @cached_property
    def per_query(self) -> pd.DataFrame:
        """One row per query (index ``qid``), one column per measure."""
        import pandas as pd

        return pd.DataFrame(dict(self.values), index=pd.Index(self.qids, name="qid"))

    def means(self) -> dict[str, float]:
        r"""trec_eval's summary (``all``) value of each measure over the evaluated
        queries: the mean :math:`\frac{1}{|Q|}\sum_q v_q` (queries skipped under
        ``zero_idcg="skip"`` left out), except that counts are summed and ``gm_map``
        is a geometric mean (:func:`dcglab.evaluation.batch.binary.summary`). Raises ``ValueError``
        when a measure has no query left.

        The values are added one by one in query order to a sum that starts at
        0.0, then divided, as trec_eval does: numpy's pairwise ``sum`` can differ
        in the last bit, which can move the fourth printed decimal, and a sum that
        starts at 0.0 is never -0.0 (``set_F`` with a negative beta gives -0.0 per
        query; trec_eval prints its mean as 0.0000).
        """
        from dcglab.evaluation.batch.binary import summary

        out = {}
        for name, v in self.values.items():
            m = self.measures.get(name)
            if v.dtype == object:  # text (relstring): no summary
                continue
            # a DCG measure's NaN marks a skipped query; any other NaN is trec_eval's
            # -nan, which it adds into the mean
            kept = v if m is not None and m.record.kernel != "dcg" else v[~np.isnan(v)]
            if len(kept) == 0:
                raise ValueError(
                    f"{name}: every query was skipped (IDCG 0), "
                    "so the mean is undefined; choose zero_idcg='zero' or 'one'"
                )
            out[name] = summary(
                self.family(name), kept, float((0.0 + np.cumsum(kept)[-1]) / len(kept))
            )
        return out

    def mean(self) -> pd.Series:
        """:meth:`means` as a pandas Series."""
        import pandas as pd

        return pd.Series(self.means(), dtype=float)

    def weighted_mean(self, weights: Mapping[str, float]) -> pd.Series:
        r"""Weighted mean :math:`\sum_q w_q v_q / \sum_q w_q` (section 4.2.1 of the overview).

        Queries without a weight get weight 0; skipped queries are left out.
        """
        import pandas as pd

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
