r"""Compare retrieval systems as a paper reports it: means, paired differences and tests.

:func:`compare` evaluates every run with :func:`dcglab.evaluation.batch.evaluate`, pairs the
runs query by query (by query id) and, for each measure and each pair of runs
A and B, reports over the :math:`n` shared queries

- the mean paired difference :math:`\bar\delta = \frac{1}{n}\sum_q (a_q - b_q)`
  with a Student's t and a percentile bootstrap confidence interval;
- Cohen's :math:`d_z = \bar\delta / s`, the difference in standard deviations
  :math:`s` of the per-query differences;
- the paired t-test and the paired randomization test, each with Holm's
  adjustment over the pairs of that measure;
- the randomised Tukey HSD p-value, which tests all pairs of runs at once.

The pairs are every pair of runs, or with ``baseline`` each other run against
that one (a paper's table with one control). A pair whose per-query
differences are all equal (two runs that tie on every query) has no t statistic
and no :math:`d_z`: they are NaN, shown as "—" with a note, and the pair is left
out of the Holm adjustment of the t-test.

Queries are matched by id. A query that one run scores and another does not is
handled by the ``missing`` rule, which the result states (:attr:`Comparison.settings`).
:func:`compare_scores` does the same from per-query values already computed.
The result prints as a terminal table and as Markdown, LaTeX, CSV or JSON
(:meth:`Comparison.format`).
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any, Literal

import numpy as np
import pandas as pd

from dcglab.statistics import significance as sig
from dcglab.statistics.report_formats import TESTS, render

__all__ = [
    "FORMATS",
    "MISSING",
    "TESTS",
    "Comparison",
    "compare",
    "compare_scores",
    "discriminative_power",
    "swap_rates",
]

Missing = Literal["zero", "intersect", "error"]
MISSING: tuple[str, ...] = ("zero", "intersect", "error")
"""Rules for a query that some runs score and others do not:

- ``"zero"``: every query of the qrels counts, and a run that returned nothing
  for it scores 0 (trec_eval ``-c``); the default, so no judged query is dropped.
- ``"intersect"``: only the queries every run scores; the others are listed in
  ``settings["dropped"]``.
- ``"error"``: refuse runs whose queries differ.
"""
FORMATS: tuple[str, ...] = ("text", "markdown", "latex", "csv", "json")
"""Output formats of :meth:`Comparison.format`."""

PAIR_COLUMNS = (
    "measure", "run_a", "run_b", "queries", "mean_a", "mean_b", "difference",
    "t_low", "t_high", "boot_low", "boot_high", "d_z", "t", "p_t", "p_t_holm",
    "p_rand", "p_rand_holm", "p_tukey",
)  # fmt: skip


@dataclass(frozen=True)
class Comparison:
    """The outcome of :func:`compare`.

    Attributes
    ----------
    means : pandas.DataFrame
        One row per run, one column per measure: the mean over the compared queries.
    pairs : pandas.DataFrame
        One row per measure and pair of runs, columns :data:`PAIR_COLUMNS`:
        ``difference`` is :math:`\\bar\\delta` (``run_a`` minus ``run_b``), ``t_low``/
        ``t_high`` and ``boot_low``/``boot_high`` the two confidence intervals,
        ``d_z`` Cohen's :math:`d_z`, ``t`` the paired t statistic, ``p_*`` the
        p-values (``_holm``: Holm-adjusted over the pairs of the measure).
    scores : dict
        Measure → DataFrame of per-query values (index ``qid``, one column per run).
    settings : dict
        Everything needed to repeat the comparison: the missing rule, the
        queries compared and dropped, the baseline (``None``: every pair),
        confidence, resamples and seed.
    """

    means: pd.DataFrame
    pairs: pd.DataFrame
    scores: Mapping[str, pd.DataFrame]
    settings: Mapping[str, Any]

    def format(
        self, fmt: str = "text", digits: int = 4, *, alpha: float = 0.05, test: str = "t"
    ) -> str:
        """The comparison as text: ``"text"`` (terminal), ``"markdown"``, ``"latex"``,
        ``"csv"`` or ``"json"``.

        Means and differences show ``digits`` decimals, p-values ``digits - 1``
        decimals (smaller ones as ``< 0.001`` for ``digits=4``); JSON and CSV keep
        12 significant digits. In the three tables a dagger (†) marks a difference
        whose ``test`` p-value (:data:`TESTS`: ``"t"`` and ``"randomization"``
        Holm-adjusted, ``"tukey"``) is at most ``alpha``; with a baseline it also
        marks each run's mean that differs so from the baseline's. Markdown and
        LaTeX set the highest mean of each measure in bold."""
        if fmt not in FORMATS:
            raise ValueError(f"fmt must be one of {', '.join(FORMATS)}, got {fmt!r}")
        if test not in TESTS:
            raise ValueError(f"test must be one of {', '.join(TESTS)}, got {test!r}")
        if not (isinstance(alpha, float | int) and 0 < alpha < 1):
            raise ValueError(f"alpha must be a number between 0 and 1, got {alpha!r}")
        return render(self, fmt, digits, alpha=alpha, test=test)

    def __str__(self) -> str:
        return self.format("text")


def _name(source: object, i: int) -> str:
    if isinstance(source, str | os.PathLike):
        return os.path.basename(os.fspath(source))
    return f"run {i + 1}"


def _named(runs: Mapping[str, Any] | Sequence[Any]) -> dict[str, Any]:
    if isinstance(runs, Mapping):
        named = {str(k): v for k, v in runs.items()}
    elif isinstance(runs, Sequence) and not isinstance(runs, str):
        names = [_name(r, i) for i, r in enumerate(runs)]
        dup = sorted({n for n in names if names.count(n) > 1})
        if dup:
            raise ValueError(
                f"runs: two runs are named {dup[0]!r}; name them with a mapping {{name: run}}"
            )
        named = dict(zip(names, runs))
    else:
        raise ValueError(f"runs must be a mapping {{name: run}} or a list of runs, got {runs!r}")
    if len(named) < 2:
        raise ValueError(f"runs: need at least 2 runs to compare, got {len(named)}")
    return named


def compare(
    qrels: Any,
    runs: Mapping[str, Any] | Sequence[Any],
    measures: Sequence[str] = ("ndcg_cut.10",),
    *,
    baseline: str | None = None,
    missing: Missing = "zero",
    confidence: float = 0.95,
    n_resamples: int = 10_000,
    seed: int = 0,
    conventions: Any = None,
    **options: Any,
) -> Comparison:
    r"""Means, paired differences with confidence intervals, effect sizes and tests of runs.

    Parameters
    ----------
    qrels : path or DataFrame
        As in :func:`dcglab.evaluation.batch.evaluate`.
    runs : mapping or sequence
        ``{name: run}``, or a list of runs (paths are named by their file name).
        Each run is a path or DataFrame as in :func:`dcglab.evaluation.batch.evaluate`.
    measures : sequence of str
        Measure names :func:`dcglab.evaluation.batch.evaluate` accepts.
    baseline : str, optional
        The name of one run: compare each other run with it (``run_a`` the
        other run, ``run_b`` the baseline) instead of every pair of runs.
    missing : {"zero", "intersect", "error"}, default "zero"
        What to do with a query some runs score and others do not (:data:`MISSING`).
    confidence : float, default 0.95
        Coverage of both confidence intervals.
    n_resamples : int, default 10000
        Resamples of the bootstrap, of the randomization test (when it does not
        enumerate every sign pattern) and of the randomised Tukey HSD.
    seed : int, default 0
        Seed of every random draw, so the result repeats exactly.
    conventions : Conventions or mapping, optional
        Passed to :func:`dcglab.evaluation.batch.evaluate`, except its ``missing``
        (``missing`` above rules): ``conventions=TREC_EVAL``
        (:data:`dcglab.evaluation.presets.TREC_EVAL`) evaluates as the command line does.
    **options
        Passed to :func:`dcglab.evaluation.batch.evaluate` (``gain``, ``zero_idcg``, ...).

    Returns
    -------
    Comparison
    """
    if missing not in MISSING:
        raise ValueError(f"missing must be one of {', '.join(MISSING)}, got {missing!r}")
    if "missing" in options:
        raise ValueError("pass missing= once: it is compare's own rule")
    from dcglab.evaluation.batch import evaluate

    named = _named(runs)
    _pairs(list(named), baseline)  # fail before evaluating
    rule = "zero" if missing == "zero" else "ignore"
    per_run = {
        name: evaluate(
            qrels, run, measures, conventions=conventions, missing=rule, **options
        ).per_query
        for name, run in named.items()
    }
    return compare_scores(
        per_run,
        baseline=baseline,
        missing=missing,
        confidence=confidence,
        n_resamples=n_resamples,
        seed=seed,
    )


def _aligned(per_run: Mapping[str, pd.DataFrame], missing: str) -> tuple[dict, list]:
    """Per measure a (query × run) frame on the shared queries, and the dropped ids."""
    frames = {}
    for name, df in per_run.items():
        if not isinstance(df, pd.DataFrame):
            raise ValueError(f"scores of run {name!r} must be a DataFrame (index qid), got {df!r}")
        if not df.index.is_unique:
            raise ValueError(f"run {name!r}: query {df.index[df.index.duplicated()][0]!r} twice")
        frames[name] = df
    first, *_ = frames
    measures = list(frames[first].columns)
    for name, df in frames.items():
        if list(df.columns) != measures:
            raise ValueError(f"run {name!r} has measures {list(df.columns)}, {first!r} {measures}")
    union = sorted(set().union(*(df.index for df in frames.values())), key=str)
    scored = {n: df.dropna().index for n, df in frames.items()}
    shared = [q for q in union if all(q in idx for idx in scored.values())]
    dropped = [q for q in union if q not in set(shared)]
    if dropped and missing != "intersect":
        q = dropped[0]
        lacking = [n for n, idx in scored.items() if q not in idx]
        raise ValueError(
            f"{len(dropped)} queries are not scored by every run (query {q!r} not by "
            f"{lacking[0]!r}); choose missing='intersect' to compare the shared queries"
            + (" or missing='zero' to score absent queries 0" if missing == "error" else "")
        )
    by_measure = {
        m: pd.DataFrame({n: df.loc[shared, m].to_numpy(float) for n, df in frames.items()},
                        index=pd.Index(shared, name="qid"))
        for m in measures
    }  # fmt: skip
    return by_measure, dropped


def _pair_row(a: np.ndarray, b: np.ndarray, confidence, n_resamples, seed) -> dict[str, float]:
    """The statistics of one pair; the t statistic, its p-value and :math:`d_z` are
    NaN when every query has the same difference (its standard deviation is 0)."""
    d = a - b
    undefined = bool(np.all(d == d[0]))
    t = None if undefined else sig.paired_t_test(a, b)
    nan = math.nan
    return {
        "queries": len(d), "mean_a": float(a.mean()), "mean_b": float(b.mean()),
        "difference": float(d.mean()),
        **dict(zip(("t_low", "t_high"), sig.t_interval(a, b, confidence))),
        **dict(zip(("boot_low", "boot_high"),
                   sig.bootstrap_interval(a, b, confidence, n_resamples, seed))),
        "d_z": nan if t is None else sig.effect_size(a, b),
        "t": nan if t is None else t.statistic, "p_t": nan if t is None else t.pvalue,
        "p_rand": sig.randomization_test(a, b, n_resamples, seed).pvalue,
    }  # fmt: skip


def _pairs(names: list[str], baseline: str | None) -> list[tuple[int, int]]:
    """The pairs to compare, as indices into ``names``: every pair, or each run
    against ``baseline`` (the baseline second)."""
    if baseline is None:
        return list(combinations(range(len(names)), 2))
    if baseline not in names:
        raise ValueError(f"baseline {baseline!r} is none of the runs {', '.join(map(repr, names))}")
    b = names.index(baseline)
    return [(i, b) for i in range(len(names)) if i != b]


def _holm(pvalues: list[float]) -> np.ndarray:
    """Holm's adjustment of the defined p-values; NaN (an undefined test) stays NaN."""
    p = np.asarray(pvalues, dtype=float)
    out = np.full(len(p), math.nan)
    defined = ~np.isnan(p)
    if defined.any():
        out[defined] = sig.holm(p[defined])
    return out


def compare_scores(
    scores: Mapping[str, pd.DataFrame],
    *,
    baseline: str | None = None,
    missing: Missing = "error",
    confidence: float = 0.95,
    n_resamples: int = 10_000,
    seed: int = 0,
) -> Comparison:
    """:func:`compare` from per-query values already computed.

    Parameters
    ----------
    scores : mapping
        Run name → DataFrame indexed by query id with one column per measure
        (:attr:`dcglab.evaluation.batch.result.BatchResult.per_query`), the same columns for every
        run.
    baseline : str, optional
        As in :func:`compare`.
    missing : {"intersect", "error"}, default "error"
        A query scored by some runs only (or NaN for one) is dropped, or refused.
        ``"zero"`` behaves as ``"error"`` here: the values are already computed.
    confidence, n_resamples, seed
        As in :func:`compare`.
    """
    if missing not in MISSING:
        raise ValueError(f"missing must be one of {', '.join(MISSING)}, got {missing!r}")
    if not isinstance(scores, Mapping) or len(scores) < 2:
        raise ValueError("scores must map at least 2 run names to their per-query values")
    names = list(scores)
    which = _pairs(names, baseline)
    by_measure, dropped = _aligned(scores, missing)
    rows = []
    for m, frame in by_measure.items():
        if len(frame) < 2:
            raise ValueError(f"{m}: only {len(frame)} queries are shared by every run; need 2")
        x = frame.to_numpy().T  # runs × queries
        tukey = sig.randomised_tukey_hsd(x, n_resamples, seed)
        block = []
        for i, j in which:
            row = _pair_row(x[i], x[j], confidence, n_resamples, seed)
            block.append({"measure": m, "run_a": names[i], "run_b": names[j], **row,
                          "p_tukey": float(tukey[i, j])})  # fmt: skip
        for key in ("p_t", "p_rand"):
            for row, p in zip(block, _holm([r[key] for r in block])):
                row[f"{key}_holm"] = float(p)
        rows += block
    pairs = pd.DataFrame(rows, columns=list(PAIR_COLUMNS))
    means = pd.DataFrame({m: f.mean() for m, f in by_measure.items()})
    means.index.name = "run"
    first = next(iter(by_measure.values()))
    settings = {
        "missing": missing,
        "baseline": baseline,
        "queries": len(first),
        "query_ids": [str(q) for q in first.index],
        "dropped": [str(q) for q in dropped],
        "confidence": confidence,
        "n_resamples": n_resamples,
        "seed": seed,
        "t_interval": "Student's t, n - 1 degrees of freedom",
        "bootstrap": "percentile, resampling queries with replacement",
        "effect_size": "Cohen's d_z = mean difference / sd of the differences",
        "randomization": f"paired sign flips, exact when n <= {sig.EXACT_MAX_QUERIES}, two-sided",
        "multiple_comparisons": "Holm over the pairs of each measure (a pair without a "
        "t statistic is left out of the t-test's family); randomised Tukey HSD over all runs",
    }
    return Comparison(means, pairs, by_measure, settings)


def discriminative_power(pvalues: Sequence[float], alpha: float = 0.05) -> float:
    r"""Share of system pairs a test finds significant at level :math:`\alpha` (Sakai 2006).

    .. math:: \mathrm{DP} = \frac{\#\{(i, j) : p_{ij} \le \alpha\}}{\#\text{pairs}}

    Examples
    --------
    >>> discriminative_power([0.01, 0.2, 0.04, 0.5])
    0.5
    """
    p = np.asarray(pvalues, dtype=float)
    if p.ndim != 1 or len(p) == 0 or not np.all((p >= 0) & (p <= 1)):
        raise ValueError(f"pvalues must be a non-empty list of numbers in [0, 1], got {pvalues!r}")
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be between 0 and 1, got {alpha!r}")
    return float(np.mean(p <= alpha))


def swap_rates(
    scores: np.ndarray,
    size: int,
    bins: Sequence[float],
    n_splits: int = 1_000,
    seed: int = 0,
) -> pd.DataFrame:
    r"""Swap rates of system pairs between two disjoint query sets (Voorhees & Buckley 2002).

    Each split draws two disjoint sets of ``size`` queries. For every pair of
    systems, :math:`\Delta_1` and :math:`\Delta_2` are the differences of their
    means on the two sets. The pair **swaps** when the two differences have
    opposite signs. Pairs are binned by :math:`|\Delta_1|`; a bin's swap rate is

    .. math:: \frac{\#\{\text{swaps with } |\Delta_1| \text{ in the bin}\}}
                   {\#\{\text{pairs with } |\Delta_1| \text{ in the bin}\}}.

    Parameters
    ----------
    scores : array of shape (systems, queries)
    size : int
        Queries per set; at most half the queries.
    bins : sequence of float
        Increasing edges of the :math:`|\Delta_1|` bins, from 0.
    n_splits : int, default 1000
    seed : int, default 0

    Returns
    -------
    pandas.DataFrame
        One row per bin: ``low``, ``high``, ``pairs``, ``swaps``, ``swap_rate``
        (NaN where a bin holds no pair).
    """
    x = np.asarray(scores, dtype=float)
    if x.ndim != 2 or x.shape[0] < 2:
        raise ValueError(f"scores must have shape (systems >= 2, queries), got {x.shape}")
    if not (isinstance(size, int) and 1 <= size <= x.shape[1] // 2):
        raise ValueError(f"size must be an integer from 1 to {x.shape[1] // 2}, got {size!r}")
    edges = np.asarray(bins, dtype=float)
    if edges.ndim != 1 or len(edges) < 2 or np.any(np.diff(edges) <= 0):
        raise ValueError(f"bins must be at least two increasing edges, got {bins!r}")
    rng = np.random.default_rng(seed)
    i, j = np.triu_indices(x.shape[0], 1)
    first, second = [], []
    for _ in range(n_splits):
        order = rng.permutation(x.shape[1])
        m1 = x[:, order[:size]].mean(axis=1)
        m2 = x[:, order[size : 2 * size]].mean(axis=1)
        first.append(m1[i] - m1[j])
        second.append(m2[i] - m2[j])
    d1, d2 = np.concatenate(first), np.concatenate(second)
    which = np.digitize(np.abs(d1), edges) - 1
    swapped = d1 * d2 < 0
    rows = []
    for b in range(len(edges) - 1):
        inside = which == b
        count = int(inside.sum())
        swaps = int((swapped & inside).sum())
        rate = swaps / count if count else math.nan
        rows.append({"low": edges[b], "high": edges[b + 1], "pairs": count, "swaps": swaps,
                     "swap_rate": rate})  # fmt: skip
    return pd.DataFrame(rows)
