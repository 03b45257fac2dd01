"""The book's static figures (matplotlib). Each function only draws what
:mod:`dcglab` computes and returns the figure, so a chapter cell is one call. The
figures that set measures against each other (orderings, bases, cutoffs, queries) are
in :mod:`dcglab.book.comparison_plots`, re-exported here.
"""

from __future__ import annotations

from collections.abc import Sequence

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.figure import Figure

from dcglab.book.comparison_plots import (
    plot_ap_ndcg,
    plot_base_sweep,
    plot_mean_by_cutoff,
    plot_per_query_scatter,
    plot_reversal_growth,
)
from dcglab.formulas.discounts import Discount, DiscountSpec
from dcglab.formulas.ltr import swap_deltas
from dcglab.formulas.measures import curves, idcg, ndcg, ndcg_ratio
from dcglab.formulas.usermodels import err_reach, rbp_weights

__all__ = [
    "ARTICLE_DISCOUNTS",
    "plot_ap_ndcg",
    "plot_base_sweep",
    "plot_cutoffs",
    "plot_discounts",
    "plot_grades",
    "plot_ideal_sources",
    "plot_mean_by_cutoff",
    "plot_per_query_scatter",
    "plot_rank_weights",
    "plot_reversal_growth",
    "plot_swap_deltas",
]

#: The four discounts of the article's figure, out to rank 20.
ARTICLE_DISCOUNTS = ("log2", "jk:2", "geometric:0.8", "reciprocal")


def plot_grades(rankings: dict[str, Sequence[float]], k: int | None = None) -> Figure:
    """Bar charts of grade by rank, one panel per named ranking; ranks beyond ``k`` greyed."""
    fig, axes = plt.subplots(1, len(rankings), figsize=(3.2 * len(rankings), 2.6), sharey=True)
    for ax, (name, grades) in zip(np.atleast_1d(axes), rankings.items()):
        ranks = np.arange(1, len(grades) + 1)
        colors = ["#1f77b4" if k is None or r <= k else "#8c8c8c" for r in ranks]  # grey: 3.4:1
        ax.bar(ranks, grades, color=colors)
        ax.axhline(0, color="black", lw=0.8)
        for r, grade in zip(ranks, grades):
            if grade == 0:  # an empty slot would read as a missing rank
                ax.text(r, 0.05, "0", ha="center", va="bottom", fontsize=8)
        ax.set_title(name)
        ax.set_xticks(ranks)
        ax.set_xlabel("rank")
    np.atleast_1d(axes)[0].set_ylabel("grade")
    fig.tight_layout()
    return fig


def plot_discounts(discounts: Sequence[DiscountSpec] = ARTICLE_DISCOUNTS, n: int = 20) -> Figure:
    """Weight by rank for several discounts (the article's figure with the defaults)."""
    fig, ax = plt.subplots(figsize=(6.4, 3.6))
    ranks = np.arange(1, n + 1)
    styles = ("-", "--", "-.", ":")
    for j, spec in enumerate(discounts):
        d = Discount.parse(spec)
        label = f"geometric (RBP), p={d.p:g}" if d.kind == "geometric" else d.label()
        ax.plot(ranks, d.weights(n), styles[j % 4], marker="o", ms=3, label=label)
    ax.set_xlabel("rank i")
    ax.set_ylabel("weight")
    ax.set_xticks([1, 5, 10, 15, 20] if n == 20 else ranks[:: max(1, n // 5)])
    ax.set_ylim(0, 1.05)
    ax.legend(frameon=False)
    fig.tight_layout()
    return fig


def plot_cutoffs(grades: Sequence[float], discount: DiscountSpec = "log2") -> Figure:
    """The article's two panels: cumulative DCG against the ideal (linear gain) with
    the gap shaded, and nDCG@k for linear and exponential gain."""
    fig, (left, right) = plt.subplots(1, 2, figsize=(9, 3.4))
    ks = np.arange(1, len(grades) + 1)
    d, i = curves(grades, gain="linear", discount=discount)
    left.plot(ks, i, "k--o", ms=4, label="ideal (IDCG@k)")
    left.plot(ks, d, "-o", ms=4, label="system (DCG@k)")
    # a hatch in full red (5:1 on white) over a light tint: the gap reads at 3:1 or more
    left.fill_between(
        ks, d, i, facecolor="#d6272840", edgecolor="#d62728", hatch="//", lw=0, label="gap"
    )
    left.set_xlabel("cutoff k")
    left.set_ylabel("cumulative DCG (linear gain)")
    left.set_ylim(bottom=0)
    left.legend(frameon=False)
    for gain, style in (("linear", "-o"), ("exponential", "--s")):
        gd, gi = curves(grades, gain=gain, discount=discount)
        right.plot(ks, ndcg_ratio(gd, gi, "skip"), style, ms=4, label=f"{gain} gain")
    right.set_xlabel("cutoff k")
    right.set_ylabel("nDCG@k")
    right.set_ylim(0, 1.05)
    right.legend(frameon=False)
    for ax in (left, right):
        ax.set_xticks(ks)
    fig.tight_layout()
    return fig


def plot_rank_weights(grades: Sequence[float], p: float = 0.8, max_grade: float = 3) -> Figure:
    r"""The weight nDCG, RBP and ERR give to each rank of one ranking.

    Each measure is a sum over ranks of a per-rank value times a weight:

    - nDCG: gain :math:`g_i` times :math:`w_i / \mathrm{IDCG}` with
      :math:`w_i = 1/\log_2(i+1)` (``Discount("log").weights`` and :func:`dcglab.idcg`);
    - RBP: binary :math:`r_i` times :math:`(1-p)\,p^{i-1}`
      (:func:`dcglab.formulas.usermodels.rbp_weights`);
    - ERR: stopping probability :math:`R_i` times :math:`\frac{1}{i}\prod_{j<i}(1-R_j)`
      (:func:`dcglab.formulas.usermodels.err_reach` over ``Discount("reciprocal")``). This
      weight depends on the documents above rank :math:`i`.

    Parameters
    ----------
    grades : sequence of float
        Grades in rank order (also the judged grades for IDCG).
    p : float, default 0.8
        RBP patience.
    max_grade : float, default 3
        ERR's highest grade.

    Returns
    -------
    matplotlib.figure.Figure
        Left: the grades by rank. Right: the three weights by rank, log scale.
    """
    g = [float(x) for x in grades]
    n = len(g)
    ranks = np.arange(1, n + 1)
    ndcg_w = ndcg_ratio(Discount("log").weights(n), idcg(g))
    rbp_w = rbp_weights(n, p)
    err_w = err_reach(g, max_grade) * Discount("reciprocal").weights(n)
    fig, (left, right) = plt.subplots(1, 2, figsize=(9, 3.4), width_ratios=(2, 3))
    left.bar(ranks, g, color="#7f7f7f")
    left.set_ylabel("grade")
    left.set_title("the ranking")
    for w, style, name in (
        (ndcg_w, "-o", "nDCG: 1/log2(i+1) / IDCG"),
        (rbp_w, "--s", f"RBP: (1-p) p^(i-1), p={p:g}"),
        (err_w, "-.^", "ERR: P(reach i) / i"),
    ):
        right.plot(ranks, w, style, ms=4, label=name)
    right.set_yscale("log")
    right.set_ylabel("weight of rank i (log scale)")
    right.set_title("weight per rank")
    right.legend(frameon=False, fontsize="small")
    for ax in (left, right):
        ax.set_xticks(ranks)
        ax.set_xlabel("rank i")
    fig.tight_layout()
    return fig


def plot_ideal_sources(retrieved: Sequence[float], missing: Sequence[float], k: int) -> Figure:
    """nDCG under three ideal-ranking conventions as judged-but-unretrieved documents
    are added to the query's judgments.

    At step ``n`` (0 to ``len(missing)``) the query's judged grades are the
    retrieved grades plus ``missing[:n]``, documents the system never
    retrieved. Every value comes from :func:`dcglab.ndcg`:

    - ideal from the retrieved list, cut at ``k`` (``ideal="retrieved"``, as
      scikit-learn's ``ndcg_score``);
    - ideal from all judged documents, cut at ``k`` (trec_eval ``ndcg_cut``, ranx);
    - ideal from all judged documents with no cutoff (trec_eval ``ndcg``).

    Parameters
    ----------
    retrieved : sequence of float
        Grades of the retrieved list, in rank order.
    missing : sequence of float
        Grades of judged documents the system did not retrieve, added one at a time.
    k : int
        Cutoff of the first two conventions.

    Returns
    -------
    matplotlib.figure.Figure
    """

    def value(v: float | None) -> float:
        return np.nan if v is None else float(v)

    ns = np.arange(len(missing) + 1)
    judged = [list(retrieved) + list(missing[:n]) for n in ns]
    series = (
        (
            [ndcg(retrieved, k, judged=j, ideal="retrieved", zero_idcg="skip") for j in judged],
            "-o",
            f"ideal from retrieved, @{k} (scikit-learn)",
        ),
        (
            [ndcg(retrieved, k, judged=j, zero_idcg="skip") for j in judged],
            "--s",
            f"ideal from judged, @{k} (trec_eval ndcg_cut, ranx)",
        ),
        (
            [ndcg(retrieved, judged=j, zero_idcg="skip") for j in judged],
            "-.^",
            "ideal from judged, no cutoff (trec_eval ndcg)",
        ),
    )
    fig, ax = plt.subplots(figsize=(6.4, 3.6))
    for values, style, label in series:
        ax.plot(ns, [value(v) for v in values], style, ms=5, label=label)
    ax.set_xticks(ns)
    ax.set_xlabel("judged relevant documents the system did not retrieve")
    ax.set_ylabel("nDCG")
    ax.set_ylim(0, 1.05)
    ax.legend(frameon=False, fontsize="small", loc="lower left")
    fig.tight_layout()
    return fig


def plot_swap_deltas(
    grades: Sequence[float], k: int | None = None, gain: str = "exponential"
) -> Figure:
    r"""Heat map of :math:`\Delta\mathrm{nDCG}@k` for swapping every pair of ranks.

    Draws :func:`dcglab.formulas.ltr.swap_deltas` (the weight LambdaRank gives each pair)
    beside a bar chart of the ranking; nothing is computed here. Entry
    ``(i, j)`` is the change in nDCG@k when the documents at ranks ``i`` and
    ``j`` trade places; the matrix is symmetric, red where the swap helps.

    Parameters
    ----------
    grades : sequence of float
        Grades in rank order (also the judged grades for IDCG).
    k : int, optional
        Cutoff; ranks beyond it have weight 0 (marked with a dashed line).
    gain : str, default ``"exponential"``

    Returns
    -------
    matplotlib.figure.Figure
    """
    d = swap_deltas(grades, k, gain=gain)
    n = len(d)
    ranks = np.arange(1, n + 1)
    fig, (left, right) = plt.subplots(1, 2, figsize=(9.6, 4.0), width_ratios=(2, 3))
    left.barh(ranks, grades, color="#7f7f7f")
    left.invert_yaxis()
    left.set_yticks(ranks)
    left.set_ylabel("rank")
    left.set_xlabel("grade")
    left.set_title("the ranking")
    limit = float(np.abs(d).max()) or 1.0
    image = right.imshow(d, cmap="RdBu_r", vmin=-limit, vmax=limit)
    for i in range(n):
        for j in range(n):
            if i != j and d[i, j] != 0:
                text = f"{d[i, j]:+.2f}".replace("-", "−") if abs(d[i, j]) >= 0.005 else "≈0"
                right.text(j, i, text, ha="center", va="center", fontsize=7)
    if k is not None and k < n:
        for line in (right.axhline, right.axvline):
            line(k - 0.5, color="k", ls="--", lw=1)
    right.set_xticks(ranks - 1, [str(r) for r in ranks])
    right.set_yticks(ranks - 1, [str(r) for r in ranks])
    right.set_xlabel("rank j")
    right.set_ylabel("rank i")
    label_k = "" if k is None else f"@{k}"
    right.set_title(f"ΔnDCG{label_k} of swapping ranks i and j ({gain} gain)")
    fig.colorbar(image, ax=right, shrink=0.85, label="change in nDCG")
    fig.tight_layout()
    return fig
