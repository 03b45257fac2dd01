r"""Which measures DuckDB computes, and each one's value from the SQL's statistics.

The SQL (:func:`dcglab.evaluation.engines.sql.statistics_sql`) returns per
query the counts and ordered sums named by :class:`~dcglab.evaluation.engines.sql.Stat`;
:func:`values` divides them as the batch path's kernels do
(:mod:`dcglab.evaluation.batch.binary`, :func:`dcglab.formulas.measures.ndcg_ratio`).
With :math:`f_k` the relevant documents found in the top :math:`k`, :math:`R`
the relevant documents of the qrels and :math:`n` the ranked documents:

.. math::

    P@k = \frac{f_k}{k}, \quad \mathrm{recall}@k = \frac{f_k}{R}, \quad
    \mathrm{success}@k = [f_k > 0], \quad \mathrm{AP}@k = \frac{\mathrm{ap}_k}{R}, \quad
    \mathrm{RR}@k = \frac{1}{\mathrm{first}} \text{ if } \mathrm{first} \le k,

    R\text{-prec} = \frac{\mathrm{rprec}}{R}, \quad
    \mathrm{bpref} = \frac{\mathrm{bpref}}{R}, \quad
    \mathrm{Judged}@k = \frac{\mathrm{judged}_k}{\min(k, n)},

each 0 where its denominator is 0, and nDCG is DCG over IDCG under the
evaluation's IDCG = 0 policy. Summaries over queries (means, sums, the
geometric mean of ``gm_map``) are :class:`dcglab.evaluation.batch.result.BatchResult`'s.

:data:`COMPUTED` lists the families DuckDB computes (Spark runs the default path
and computes every family); a measure of any
other family (one added to :data:`dcglab.evaluation.measure_families.FAMILIES`
later too) is refused by :func:`plan` in one line naming it and the path that
computes it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Unpack

import numpy as np

from dcglab.evaluation.batch.binary import _half_up, _ratio
from dcglab.evaluation.engines.sql import DUCKDB, Dialect, Stat, depths, statistics_sql
from dcglab.evaluation.measure_names import Measure, measure_specs
from dcglab.evaluation.options import ConventionKeywords, Conventions
from dcglab.formulas.measures import ndcg_ratio

Get = Callable[[Stat], np.ndarray]


KERNELS: dict[str, tuple[Callable[[Measure, int], tuple[Stat, ...]], Callable[..., np.ndarray]]]
KERNELS = {
    "num_q": (lambda m, i: (Stat("n_ret"),), lambda m, n: np.ones(len(n))),
    "num_ret": (lambda m, i: (Stat("n_ret"),), lambda m, n: n.astype(float)),
    "num_rel": (lambda m, i: (Stat("num_rel", i),), lambda m, r: r.astype(float)),
    "num_rel_ret": (lambda m, i: (Stat("found", i),), lambda m, f: f.astype(float)),
    "map": (lambda m, i: (Stat("ap", i, m.k), Stat("num_rel", i)), lambda m, a, r: _ratio(a, r)),
    "P": (lambda m, i: (Stat("found", i, m.k),), lambda m, f: f.astype(float) / m.k),
    "recall": (
        lambda m, i: (Stat("found", i, m.k), Stat("num_rel", i)),
        lambda m, f, r: _ratio(f, r),
    ),
    "success": (lambda m, i: (Stat("found", i, m.k),), lambda m, f: (f > 0).astype(float)),
    "recip_rank": (
        lambda m, i: (Stat("first", i),),
        lambda m, first: np.where(
            (first > 0) & ((first <= m.k) if m.k else True),
            1.0 / np.maximum(first, 1),
            0.0,
        ),
    ),
    "Rprec": (lambda m, i: (Stat("rprec", i), Stat("num_rel", i)), lambda m, h, r: _ratio(h, r)),
    "bpref": (lambda m, i: (Stat("bpref", i), Stat("num_rel", i)), lambda m, b, r: _ratio(b, r)),
    "iprec_at_recall": (
        lambda m, i: (Stat("iprec", i, m.param), Stat("n_ret"), Stat("num_rel", i)),
        lambda m, v, n, r: v.astype(float),
    ),
    "Judged": (
        lambda m, i: (Stat("judged", 0, m.k), Stat("n_ret")),
        lambda m, j, n: _ratio(j, n if m.k is None else np.minimum(n, m.k)),
    ),
}
"""Each binary family's statistics (at the measure's relevance level ``i``) and
its value from them (the formulas of the module docstring)."""
KERNELS["gm_map"] = KERNELS["map_cut"] = KERNELS["map"]

COMPUTED = (*KERNELS, "dcg", "ndcg", "ndcg_cut", "dcg_cut")
"""The measure families DuckDB computes (Spark computes every family of the default path)."""


@dataclass(frozen=True)
class Plan:
    """What the SQL computes for a list of measures.

    ``gains`` are the gain tables: ``None`` for the evaluation's ``gain``, then
    the measure whose own table (``ndcg.1=3,2=9``, ``nDCG(dcg='exp-log2')``)
    comes next; ``levels`` the relevance levels (``relevance_level``, then each
    other ``rel=`` of an ir_measures name); ``needs`` the statistics of each
    measure, by output name.
    """

    specs: tuple[Measure, ...]
    gains: tuple[Measure | None, ...]
    levels: tuple[float, ...]
    needs: dict[str, tuple[Stat, ...]]

    @property
    def stats(self) -> list[Stat]:
        """Every statistic needed, each once."""
        return list(dict.fromkeys(s for need in self.needs.values() for s in need))


def _gain_key(gain: object) -> object:
    return tuple(sorted(gain.items())) if isinstance(gain, dict) else gain


def refuse_others(names: Sequence[str], engine: str) -> None:
    """Raise, in one line, on the measures of ``names`` whose family DuckDB
    does not compute (:data:`COMPUTED`), naming them and the paths that compute them."""
    other = [
        name
        for name in dict.fromkeys(names)
        if any(
            m.family not in COMPUTED
            for m in measure_specs([name], runid=True)
            if m.record.kernel != "tag"
        )
    ]
    if other:
        raise ValueError(
            f"engine {engine!r} does not compute {', '.join(other)}: the default path does "
            "(the command line without --engine; dcglab.evaluation.batch.evaluate), and so "
            "does --engine spark"
        )


def plan(specs: Sequence[Measure], c: Conventions) -> Plan:
    """The gain tables, relevance levels and statistics that ``specs`` need."""
    gains: dict[object, Measure | None] = {_gain_key(c.gain): None}
    levels: dict[float, None] = {float(c.relevance_level): None}
    needs: dict[str, tuple[Stat, ...]] = {}
    for m in specs:
        if m.record.kernel == "dcg":
            key = _gain_key(c.gain if m.gain is None else m.gain)
            gains.setdefault(key, m)
            g = list(gains).index(key)
            dcg = Stat("dcg", g, m.k)
            cut = None if c.ideal == "judged-uncut" else m.k
            needs[m.name] = (dcg, Stat("idcg", g, cut)) if m.record.normalised else (dcg,)
        else:
            level = float(c.relevance_level if m.rel is None else m.rel)
            levels.setdefault(level, None)
            needs[m.name] = KERNELS[m.family][0](m, list(levels).index(level))
    return Plan(tuple(specs), tuple(gains.values()), tuple(levels), needs)


def _trec_nan(v: np.ndarray, m: Measure, stats, p: Plan, c: Conventions) -> np.ndarray:
    """trec_eval's ``-nan`` of ``iprec_at_recall`` (``corrected=False``): a query left
    with no document by ``-J`` or ``-M 0``, at a point where round(x R) is 0
    (:func:`dcglab.evaluation.batch.binary.binary_values`)."""
    i = p.levels.index(float(c.relevance_level if m.rel is None else m.rel))
    empty = (stats[Stat("n_ret")] == 0) & (c.judged_only or c.max_docs == 0)
    return np.where(empty & (_half_up(float(m.param) * stats[Stat("num_rel", i)]) == 0), np.nan, v)


def values(p: Plan, stats: dict[Stat, np.ndarray], c: Conventions, qids: np.ndarray) -> dict:
    """Each measure's per-query values from the statistics (module docstring)."""
    out: dict[str, np.ndarray] = {}
    for m in p.specs:
        got = [stats[s] for s in p.needs[m.name]]
        if m.record.kernel != "dcg":
            out[m.name] = KERNELS[m.family][1](m, *got)
            if m.family == "iprec_at_recall" and not c.corrected:
                out[m.name] = _trec_nan(out[m.name], m, stats, p, c)
        elif m.record.normalised:
            out[m.name] = ndcg_ratio(*got, c.zero_idcg, queries=qids, measure=m.name)
        else:
            out[m.name] = got[0]
    return out


def evaluation_sql(
    measures: Sequence[str] = ("ndcg_cut.10",),
    *,
    dialect: Dialect = DUCKDB,
    run: str = "run",
    qrels: str = "qrels",
    levels: str = "levels",
    discounts: str = "discounts",
    conventions: Conventions | None = None,
    **options: Unpack[ConventionKeywords],
) -> str:
    """The SQL an engine runs for ``measures`` (:func:`.sql.statistics_sql`).

    ``measures`` and the conventions are those of :func:`dcglab.evaluation.batch.evaluate`;
    ``run``, ``qrels``, ``levels`` and ``discounts`` name the tables it reads (the
    engines make the last two from the qrels' grades and the discount). The
    query returns ``qid`` and one column per statistic of :func:`plan`.

    Examples
    --------
    >>> text = evaluation_sql(["ndcg_cut.10", "P.5"])
    >>> "ROW_NUMBER() OVER (PARTITION BY qid ORDER BY s DESC, docno DESC)" in text
    True
    """
    from dcglab.evaluation.batch.scoring import measure_list  # loads polars: on first use

    c = Conventions.of(conventions, **options)
    p = plan(measure_list(measures, c), c)
    return statistics_sql(
        p.stats,
        c,
        n_gains=len(p.gains),
        n_levels=len(p.levels),
        depths=depths(p.specs, c),
        dialect=dialect,
        run=run,
        qrels=qrels,
        levels=levels,
        discounts=discounts,
    )
