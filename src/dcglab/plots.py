"""The book's static figures (matplotlib). Each function only draws what
:mod:`dcglab` computes and returns the figure, so a chapter cell is one call.
"""

from __future__ import annotations

from collections.abc import Sequence

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.figure import Figure

from .discounts import Discount, DiscountSpec
from .measures import curves

#: The four discounts of the article's figure, out to rank 20.
ARTICLE_DISCOUNTS = ("log2", "jk:2", "geometric:0.8", "reciprocal")


def plot_grades(rankings: dict[str, Sequence[float]], k: int | None = None) -> Figure:
    """Bar charts of grade by rank, one panel per named ranking; ranks beyond ``k`` greyed."""
    fig, axes = plt.subplots(1, len(rankings), figsize=(3.2 * len(rankings), 2.6), sharey=True)
    for ax, (name, grades) in zip(np.atleast_1d(axes), rankings.items()):
        ranks = np.arange(1, len(grades) + 1)
        colors = ["#1f77b4" if k is None or r <= k else "#bbbbbb" for r in ranks]
        ax.bar(ranks, grades, color=colors)
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
        ax.plot(ranks, d.weights(n), styles[j % 4], marker="o", ms=3, label=d.label())
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
    left.fill_between(ks, d, i, alpha=0.25, color="#d62728", label="gap")
    left.set_xlabel("cutoff k")
    left.set_ylabel("cumulative DCG (linear gain)")
    left.legend(frameon=False)
    for gain, style in (("linear", "-o"), ("exponential", "--s")):
        gd, gi = curves(grades, gain=gain, discount=discount)
        right.plot(ks, gd / gi, style, ms=4, label=f"{gain} gain")
    right.set_xlabel("cutoff k")
    right.set_ylabel("nDCG@k")
    right.set_ylim(0, 1.05)
    right.legend(frameon=False)
    for ax in (left, right):
        ax.set_xticks(ks)
    fig.tight_layout()
    return fig
