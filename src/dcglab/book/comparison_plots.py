"""The book's figures that set measures against each other: across the orderings of
one set of grades, across the bases of the exponential gain, across cutoffs and across
queries (matplotlib). As in :mod:`dcglab.book.plots`, which re-exports them, each
function only draws what :mod:`dcglab` computes and returns the figure.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.figure import Figure

from dcglab.collections.cranfield import DirectionChanges
from dcglab.formulas.discounts import Discount
from dcglab.formulas.measures import dcg, idcg, mean_ndcg, ndcg
from dcglab.formulas.reversals import orderings
from dcglab.formulas.usermodels import average_precision

__all__ = [
    "plot_ap_ndcg",
    "plot_base_sweep",
    "plot_mean_by_cutoff",
    "plot_per_query_scatter",
    "plot_reversal_growth",
]


def plot_reversal_growth(
    bases: Sequence[float],
    shares: Sequence[float],
    cutoffs: Sequence[int] | None = None,
    cutoff_shares: Sequence[float] | None = None,
) -> Figure:
    """Share of reversed pairs of orderings against the exponential gain's base.

    Draws numbers computed by :func:`dcglab.formulas.reversals.count_reversals`; nothing
    is computed here.

    Parameters
    ----------
    bases : sequence of float
        Bases ``a`` of the exponential gain ``a**rel - 1`` (drawn on a log axis).
    shares : sequence of float
        For each base, the fraction of pairs that linear gain and ``a**rel - 1``
        rank in opposite orders (``Reversals.share``).
    cutoffs, cutoff_shares : sequence, optional
        Cutoffs ``k`` and the share of reversed pairs at each; when given, a
        second panel shows them as bars.

    Returns
    -------
    matplotlib.figure.Figure
    """
    two = cutoffs is not None and cutoff_shares is not None
    fig, axes = plt.subplots(1, 2 if two else 1, figsize=(9, 3.4) if two else (5.2, 3.4))
    left = np.atleast_1d(axes)[0]
    left.plot(bases, 100 * np.asarray(shares, dtype=float), "-o", ms=4)
    left.set_xscale("log")
    left.set_xlabel("base a of the exponential gain a^r − 1")
    left.set_ylabel("reversed pairs (%)")
    left.set_ylim(bottom=0)
    _plain_log_ticks(left, bases)
    if two:
        right = np.atleast_1d(axes)[1]
        right.bar(cutoffs, 100 * np.asarray(cutoff_shares, dtype=float), color="#1f77b4")
        right.set_xticks(list(cutoffs))
        right.set_xlabel("cutoff k (linear against 2^r − 1)")
        right.set_ylabel("reversed pairs (%)")
    fig.tight_layout()
    return fig


def plot_base_sweep(
    grades: Sequence[float], k: int, bases: Sequence[float], gain: str = "linear"
) -> Figure:
    """DCG@k, IDCG@k and nDCG@k against the logarithm's base, for both discount forms.

    The left panel shows DCG@k (solid) and IDCG@k (dashed) with
    ``1/log_b(i+1)`` and with Järvelin and Kekäläinen's form; the right panel
    shows nDCG@k for both. Every value comes from :func:`dcglab.dcg`,
    :func:`dcglab.idcg` and :func:`dcglab.ndcg`.

    Parameters
    ----------
    grades : sequence of float
        Grades in rank order (they are also taken as all judged grades).
    k : int
        Cutoff.
    bases : sequence of float
        Bases ``b > 1`` (drawn on a log axis).
    gain : str, default ``"linear"``

    Returns
    -------
    matplotlib.figure.Figure
    """
    fig, (left, right) = plt.subplots(1, 2, figsize=(9, 3.4))
    forms = (("log", "#1f77b4", "1/log_b(i+1)"), ("jk", "#d62728", "Järvelin–Kekäläinen"))
    for kind, color, name in forms:
        discounts = [Discount(kind, base=b) for b in bases]
        d = [dcg(grades, k, gain, disc) for disc in discounts]
        i = [idcg(grades, k, gain, disc) for disc in discounts]
        n = [ndcg(grades, k, gain=gain, discount=disc) for disc in discounts]
        left.plot(bases, d, "-", color=color, label=f"DCG@{k}, {name}")
        left.plot(bases, i, "--", color=color, label=f"IDCG@{k}, {name}")
        right.plot(bases, n, "-", color=color, label=name)
    for ax in (left, right):
        ax.set_xscale("log")
        _plain_log_ticks(ax, bases)
        ax.set_xlabel("base b")
        ax.legend(frameon=False, fontsize="small")
    left.set_ylabel(f"DCG@{k} and IDCG@{k} ({gain} gain)")
    right.set_ylabel(f"nDCG@{k} ({gain} gain)")
    right.set_ylim(top=1.02)
    fig.tight_layout()
    return fig


def _plain_log_ticks(ax: plt.Axes, values: Sequence[float]) -> None:
    """Label a log-scaled x axis with plain numbers (1.5, 2, 5, 10, ...) within the data."""
    nice = (1.5, 2, 3, 5, 10, 20, 50, 100, 200, 500, 1000)
    lo, hi = min(values), max(values)
    ticks = [t for t in nice if lo <= t <= hi]
    ax.set_xticks(ticks, [f"{t:g}" for t in ticks])
    ax.set_xticks([], minor=True)


def plot_ap_ndcg(
    grades: Sequence[float],
    k: int | None = None,
    gains: Sequence[str] = ("linear", "exponential"),
    highlight: dict[str, Sequence[float]] | None = None,
) -> Figure:
    """AP against nDCG@k for every distinguishable ordering of a judged multiset.

    Each point is one ordering from :func:`dcglab.formulas.reversals.orderings`; its AP
    comes from :func:`dcglab.formulas.usermodels.average_precision` (grades above 0
    relevant) and its nDCG@k from :func:`dcglab.ndcg`. One panel per gain.

    Parameters
    ----------
    grades : sequence of float
        The judged grades; every ordering of them is drawn.
    k : int, optional
        Cutoff of nDCG; the whole list when omitted.
    gains : sequence of str, default ``("linear", "exponential")``
    highlight : dict, optional
        Named orderings of ``grades`` to mark and label (for example U and V).

    Returns
    -------
    matplotlib.figure.Figure
    """
    rows = orderings(grades)
    ap = [average_precision(r) for r in rows]
    label_k = len(rows[0]) if k is None else k
    marks = highlight or {}
    fig, axes = plt.subplots(
        1, len(gains), figsize=(4.6 * len(gains), 3.8), sharex=True, sharey=True
    )
    for ax, gain in zip(np.atleast_1d(axes), gains):
        nd = [ndcg(r, k, gain=gain) for r in rows]
        ax.scatter(ap, nd, s=16, color="#8c8c8c", label=f"all {len(rows)} orderings")
        for (name, r), marker, color in zip(
            marks.items(), ("o", "s", "^", "D"), ("#d62728", "#1f77b4", "#2a7f2a", "#8458b3")
        ):
            x, y = average_precision(r), ndcg(r, k, judged=grades, gain=gain)
            ax.scatter([x], [y], s=80, marker=marker, color=color, zorder=3, label=name)
            ax.annotate(name, (x, y), xytext=(-14, 6), textcoords="offset points")
        ax.set_title(f"{gain} gain")
        ax.set_xlabel("AP (grades above 0 relevant)")
        ax.set_ylabel(f"nDCG@{label_k}")
        ax.legend(frameon=False, fontsize="small", loc="upper left")
    fig.tight_layout()
    return fig


def plot_mean_by_cutoff(
    systems: dict[str, Sequence[Sequence[float]]],
    judged: Sequence[Sequence[float] | None],
    ks: Sequence[int],
    zero_idcg: str = "zero",
) -> Figure:
    """Mean nDCG@k over queries against the cutoff k, one line per system.

    Every value comes from :func:`dcglab.mean_ndcg`; nothing is computed here.

    Parameters
    ----------
    systems : dict of str to list of grade sequences
        Per system, one ranked list of grades per query.
    judged : sequence
        Per query, all judged grades (``None`` for the ranking itself).
    ks : sequence of int
        Cutoffs to draw.
    zero_idcg : {"zero", "one", "skip"}, default ``"zero"``
        Policy for queries with nothing relevant (see :func:`dcglab.mean_ndcg`).

    Returns
    -------
    matplotlib.figure.Figure
    """
    fig, ax = plt.subplots(figsize=(6.4, 3.6))
    for (name, rankings), style in zip(systems.items(), ("-o", "--s", "-.^", ":D")):
        means = [mean_ndcg(rankings, k, judged=judged, zero_idcg=zero_idcg) for k in ks]
        ax.plot(list(ks), means, style, ms=5, label=name)
    ax.set_xticks(list(ks))
    ax.set_xlabel("cutoff k")
    ax.set_ylabel(f"mean nDCG@k (IDCG = 0 scores {zero_idcg})")
    ax.set_ylim(0, 1.05)
    ax.legend(frameon=False)
    fig.tight_layout()
    return fig


def plot_per_query_scatter(
    graded: tuple[Mapping[int, float], Mapping[int, float]],
    binary: tuple[Mapping[int, float], Mapping[int, float]],
    changes: DirectionChanges,
    names: tuple[str, str] = ("A", "B"),
    k: int | None = None,
) -> Figure:
    """Per-query nDCG of system A against system B, one panel per gain.

    Draws the per-query values of :func:`dcglab.collections.cranfield.ndcg_by_query` and the
    result of :func:`dcglab.collections.cranfield.direction_changes`; nothing is computed
    here. Each dot is a query, at (B's nDCG, A's nDCG): above the diagonal A
    scores higher. Queries in ``changes.strict`` are drawn in red; queries
    only in ``changes.lenient`` (a tie under one gain, not the other) are drawn
    as open orange circles. Queries that share a point (both systems at 0, or
    both at 1) are drawn once, with a larger dot and their count beside it.

    Parameters
    ----------
    graded, binary : (dict, dict)
        Per-query nDCG of systems A and B (query number → value) under graded
        and under binary gain, as passed to
        :func:`dcglab.collections.cranfield.direction_changes`.
    changes : dcglab.collections.cranfield.DirectionChanges
        The queries whose comparison changes direction.
    names : (str, str), default ``("A", "B")``
        Names of systems A (vertical axis) and B (horizontal axis).
    k : int, optional
        The cutoff, for the axis labels.

    Returns
    -------
    matplotlib.figure.Figure
    """
    strict = set(changes.strict)
    lenient = set(changes.lenient) - strict
    label_k = "" if k is None else f"@{k}"
    fig, axes = plt.subplots(1, 2, figsize=(9.6, 5.0), sharex=True, sharey=True)
    for ax, (title, (a, b)) in zip(axes, (("graded gain", graded), ("binary gain", binary))):
        groups = (
            ([q for q in sorted(a) if q not in strict and q not in lenient], "other queries"),
            (sorted(lenient), "tie under one gain only"),
            (sorted(strict), "direction changes"),
        )
        ax.plot([0, 1], [0, 1], color="0.45", lw=1, ls="--", zorder=1)
        styles = (
            dict(s=14, color="#1f77b4", alpha=0.4, lw=0),
            dict(s=46, facecolors="none", edgecolors="#c45f00", lw=1.3),
            dict(s=40, color="#d62728"),
        )
        for (queries, label), style in zip(groups, styles):
            if not queries:
                continue
            points = Counter((b[q], a[q]) for q in queries)
            xs, ys = zip(*points)
            sizes = [style["s"] * (1 + 2 * (n > 1)) for n in points.values()]
            ax.scatter(xs, ys, label=label, zorder=2, **{**style, "s": sizes})
            for (x, y), n in points.items():
                if n > 1:
                    ax.annotate(
                        f"{n} queries",
                        (x, y),
                        xytext=(8, 6) if y < 0.5 else (-8, -14),
                        textcoords="offset points",
                        ha="left" if y < 0.5 else "right",
                        fontsize=9,
                        color="0.2",
                    )
        ax.text(0.03, 0.97, f"{names[0]} ahead", va="top", color="0.35", fontsize="small")
        ax.text(0.97, 0.03, f"{names[1]} ahead", ha="right", color="0.35", fontsize="small")
        ax.set_xlim(-0.03, 1.03)
        ax.set_ylim(-0.03, 1.03)
        ax.set_aspect("equal")
        ax.set_title(title)
        ax.set_xlabel(f"{names[1]} nDCG{label_k}")
    axes[0].set_ylabel(f"{names[0]} nDCG{label_k}")
    handles, labels = axes[0].get_legend_handles_labels()
    fig.tight_layout(rect=(0, 0.08, 1, 1))
    fig.legend(handles, labels, loc="lower center", ncol=len(labels), frameon=False)
    return fig
