"""The reference article's published figures, as data, each with its computation.

Every :class:`Figure` records a number exactly as the article (or the overview) prints
it, where it is printed, the chapter that teaches it, and a function that recomputes
it with :mod:`dcglab`. The chapters compute and glue their own numbers and hold no
check of the article's. The appendix "Checking the reference article"
(``chapters/appendix_article.ipynb``) shows every figure beside its computed value,
chapter by chapter (:func:`comparison` with ``where=True``), and nbval compares that
table on every run; ``tests/test_book_article.py`` asserts that each computed value,
rounded to the published precision, equals the published figure, and
``tests/test_notebooks.py`` that the appendix shows each figure with a match.

Sources: ``reference/dcg-and-ndcg-article.txt`` (the article) and
``reference/ndcg-overview.txt`` (the overview, section 5).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

import pandas as pd

from dcglab.formulas.discounts import Discount
from dcglab.formulas.gains import gain_values
from dcglab.formulas.measures import cg, dcg, idcg, ndcg, ndcg_curve, rank_table
from dcglab.formulas.reversals import Reversals, count_reversals
from dcglab.formulas.usermodels import average_precision

#: The article's worked example: a system's six grades, also all judged grades.
EXAMPLE = (3, 2, 3, 0, 1, 2)
#: The overview's example ranking and its judged grades (section 5.1).
OVERVIEW_RUN = (2, 3, 0, 1, 0)
#: Two rankings judged against the worked example's grades (the ideal is 3,3,2,2,1,0).
#: Note: their grade multiset is 3,2,2,1,0,0, not the example's; the article calls
#: them orderings of the same documents, but its figures need judged=EXAMPLE.
X = (3, 0, 0, 2, 2, 1)
Y = (2, 2, 1, 3, 0, 0)
#: Judged grades and a two-document run for the ideal-ranking pitfall.
PITFALL_JUDGED = (3, 3, 2, 1, 0, 0)
PITFALL_RUN = (1, 0)
#: One highly relevant, three marginal and two non-relevant documents, ranked two ways.
U = (1, 1, 1, 3, 0, 0)
V = (3, 0, 1, 1, 1, 0)
GAINS = ("linear", "exponential")
#: The article's Cranfield figures: mean nDCG@10 per model under graded and binary
#: gain (:data:`dcglab.collections.cranfield.GRADED`, :data:`dcglab.collections.cranfield.BINARY`),
#: and the number of the 225 queries on which BM25 versus TF-IDF changes direction
#: between the two gains. The article does not give its configuration;
#: ``scripts/cranfield_search.py`` looks for the closest one.
ARTICLE_TABLE: dict = {
    "bim": {"graded": 0.268, "binary": 0.282},
    "tfidf": {"graded": 0.356, "binary": 0.371},
    "bm25": {"graded": 0.368, "binary": 0.385},
    "changes": 6,
}


@dataclass(frozen=True)
class Figure:
    """One published number and the computation that reproduces it.

    Parameters
    ----------
    key : str
        Short identifier, e.g. ``"ndcg6_linear"``.
    published : str
        The number exactly as printed (``"0.961"``, ``"29"``).
    section : str
        Where it is printed.
    compute : callable
        Returns the unrounded value.
    chapter : int
        The book chapter that teaches it (the appendix groups the figures by it).
    """

    key: str
    published: str
    section: str
    compute: Callable[[], float]
    chapter: int

    @property
    def decimals(self) -> int:
        """Digits after the decimal point in the published figure."""
        return len(self.published.partition(".")[2])

    def formatted(self) -> str:
        """The computed value rounded and printed like the published one."""
        return f"{self.compute():.{self.decimals}f}"

    def matches(self) -> bool:
        """Whether the computed value rounds to the published figure."""
        return self.formatted() == self.published


def _terms(grades: tuple[int, ...], gain: str) -> pd.Series:
    return rank_table(grades, gain)["discounted"]


def _overview_rounded_dcg() -> float:
    """The overview's DCG: the sum of per-rank terms each first rounded to 3 decimals."""
    return float(_terms(OVERVIEW_RUN, "linear").round(3).sum())


def _discount_figures(
    tag: str, disc: Discount, section: str, published: tuple[str, str, str, str]
) -> list[Figure]:
    """DCG@6, IDCG@6 and nDCG@6 (linear, then exponential gain) of the worked example
    under one discount, as the article prints them in chapter 6."""
    computations = (
        ("dcg6", lambda: dcg(EXAMPLE, 6, discount=disc)),
        ("idcg6", lambda: idcg(EXAMPLE, 6, discount=disc)),
        ("ndcg6_linear", lambda: ndcg(EXAMPLE, 6, discount=disc)),
        ("ndcg6_exponential", lambda: ndcg(EXAMPLE, 6, gain="exponential", discount=disc)),
    )
    return [
        Figure(f"{tag}_{key}", pub, section, compute, 6)
        for (key, compute), pub in zip(computations, published)
    ]


def _building_figures() -> list[Figure]:
    """Chapters 1-4: cumulative gain, the discount, the worked example, cutoffs."""
    a = "article"
    f: list[Figure] = [
        Figure("cg3_300", "3", f"{a}: Cumulative gain", lambda: cg((3, 0, 0), 3), 1),
        Figure("cg3_003", "3", f"{a}: Cumulative gain", lambda: cg((0, 0, 3), 3), 1),
    ]
    weights = Discount("log").weights(20)
    for i, pub in enumerate(("1.000", "0.631", "0.500", "0.431", "0.387", "0.356"), start=1):
        f.append(
            Figure(
                f"discount_rank{i}",
                pub,
                f"{a}: worked example table, rank {i}",
                lambda i=i: weights[i - 1],
                2,
            )
        )
    f.append(
        Figure(
            "rank10_percent",
            "29",
            f"{a}: Discounting (rank 10 keeps ~29 %)",
            lambda: 100 * weights[9] / weights[0],
            2,
        )
    )
    printed = {
        ("system", "linear"): ("3.000", "1.262", "1.500", "0", "0.387", "0.712"),
        ("system", "exponential"): ("7.000", "1.893", "3.500", "0", "0.387", "1.069"),
        ("ideal", "linear"): ("3.000", "1.893", "1.000", "0.861", "0.387", "0"),
        ("ideal", "exponential"): ("7.000", "4.417", "1.500", "1.292", "0.387", "0"),
    }
    for (who, gain), values in printed.items():
        grades = EXAMPLE if who == "system" else (3, 3, 2, 2, 1, 0)
        for i, pub in enumerate(values, start=1):
            f.append(
                Figure(
                    f"{who}_term{i}_{gain}",
                    pub,
                    f"{a}: worked example, {who} table, rank {i}",
                    lambda g=grades, gn=gain, i=i: _terms(g, gn)[i - 1],
                    3,
                )
            )
    for gain, d, i_, n in (
        ("linear", "6.861", "7.141", "0.961"),
        ("exponential", "13.848", "14.595", "0.949"),
    ):
        f += [
            Figure(
                f"dcg6_{gain}",
                d,
                f"{a}: worked example, DCG@6",
                lambda g=gain: dcg(EXAMPLE, 6, g),
                3,
            ),
            Figure(
                f"idcg6_{gain}",
                i_,
                f"{a}: worked example, IDCG@6",
                lambda g=gain: idcg(EXAMPLE, 6, g),
                3,
            ),
            Figure(
                f"ndcg6_{gain}",
                n,
                f"{a}: worked example, nDCG@6",
                lambda g=gain: ndcg(EXAMPLE, 6, gain=g),
                3,
            ),
        ]
    o = "overview 5.2-5.3"
    f += [
        Figure("overview_term2", "1.893", o, lambda: _terms(OVERVIEW_RUN, "linear")[1], 3),
        Figure("overview_term4", "0.431", o, lambda: _terms(OVERVIEW_RUN, "linear")[3], 3),
        Figure("overview_dcg_rounded_terms", "4.324", o, _overview_rounded_dcg, 3),
        Figure("overview_ideal_term2", "1.262", o, lambda: _terms((3, 2, 1, 0, 0), "linear")[1], 3),
        Figure("overview_idcg", "4.762", o, lambda: idcg(OVERVIEW_RUN), 3),
        Figure("overview_ndcg", "0.908", o, lambda: ndcg(OVERVIEW_RUN), 3),
    ]
    cut = {
        "DCG_linear": ("3.000", "4.262", "5.762", "5.762", "6.149", "6.861"),
        "IDCG_linear": ("3.000", "4.893", "5.893", "6.754", "7.141", "7.141"),
        "nDCG_linear": ("1.000", "0.871", "0.978", "0.853", "0.861", "0.961"),
        "nDCG_exponential": ("1.000", "0.779", "0.959", "0.872", "0.876", "0.949"),
    }
    for col, values in cut.items():
        measure, gain = col.split("_")
        for k, pub in enumerate(values, start=1):
            f.append(
                Figure(
                    f"cutoff{k}_{col}",
                    pub,
                    f"{a}: nDCG at each cutoff, k = {k}",
                    lambda m=measure, g=gain, k=k: ndcg_curve(EXAMPLE, gain=g)[m][k - 1],
                    4,
                )
            )
    return f


def _choice_figures() -> list[Figure]:
    """Chapters 5-8: gain, the logarithm, the ideal, graded against binary."""
    a = "article"
    f: list[Figure] = []
    # Chapter 5: what each gain values, and the X/Y reversal.
    f += [
        Figure("grade3_over_grade1_linear", "3", f"{a}: Gain", lambda: _ratio((3, 1), "linear"), 5),
        Figure(
            "grade3_over_grade1_exponential",
            "7",
            f"{a}: Gain",
            lambda: _ratio((3, 1), "exponential"),
            5,
        ),
    ]
    xy = {
        ("X", 3): ("0.509", "0.542"),
        ("Y", 3): ("0.638", "0.418"),
        ("X", 6): ("0.699", "0.672"),
        ("Y", 6): ("0.708", "0.576"),
    }
    for (name, k), values in xy.items():
        ranking = X if name == "X" else Y
        for gain, pub in zip(GAINS, values):
            f.append(
                Figure(
                    f"{name}_ndcg{k}_{gain}",
                    pub,
                    f"{a}: Linear versus exponential gain",
                    lambda r=ranking, k=k, g=gain: ndcg(r, k, judged=EXAMPLE, gain=g),
                    5,
                )
            )
    # Chapter 6: which logarithm: DCG@6, IDCG@6 and nDCG@6 (linear, exponential).
    for tag, disc, section, published in (
        ("log2", Discount("log", base=2.0), "", ("6.861", "7.141", "0.961", "0.949")),
        ("loge", Discount("log", base=math.e), "", ("9.899", "10.302", "0.961", "0.949")),
        ("log10", Discount("log", base=10.0), "", ("22.792", "23.722", "0.961", "0.949")),
        ("jk2", Discount("jk", base=2.0), " (JK form)", ("8.097", "8.693", "0.932", "0.898")),
        ("jk10", Discount("jk", base=10.0), " (JK form)", ("11.000", "11.000", "1.000", "1.000")),
    ):
        f += _discount_figures(tag, disc, f"{a}: Which logarithm?{section}", published)
    # Chapter 7: the ideal-ranking pitfall.
    f += [
        Figure(
            "pitfall_judged",
            "0.204",
            f"{a}: Pitfalls (ideal from all judged)",
            lambda: ndcg(PITFALL_RUN, 2, judged=PITFALL_JUDGED),
            7,
        ),
        Figure(
            "pitfall_retrieved",
            "1.000",
            f"{a}: Pitfalls (ideal from retrieved)",
            lambda: ndcg(PITFALL_RUN, 2, judged=PITFALL_JUDGED, ideal="retrieved"),
            7,
        ),
    ]
    # Chapter 5: the enumeration of orderings of the worked example's documents.
    rev = "article: Linear versus exponential gain (enumeration)"
    f += [
        Figure("orderings", "180", rev, lambda: _reversals().orderings, 5),
        Figure("ordering_pairs", "16110", rev, lambda: _reversals().pairs, 5),
        Figure("reversed_pairs", "1002", rev, lambda: _reversals().reversed, 5),
        Figure("reversed_percent", "6.2", rev, lambda: 100 * _reversals().share, 5),
    ]
    # Chapter 8: graded versus binary relevance.
    gb = "article: Graded versus binary relevance"
    for name, ranking, ap, lin, exp in (
        ("U", U, "1.000", "0.750", "0.601"),
        ("V", V, "0.804", "0.946", "0.971"),
    ):
        f += [
            Figure(f"{name}_ap", ap, gb, lambda r=ranking: average_precision(r), 8),
            Figure(f"{name}_ndcg6_linear", lin, gb, lambda r=ranking: ndcg(r, 6), 8),
            Figure(
                f"{name}_ndcg6_exponential",
                exp,
                gb,
                lambda r=ranking: ndcg(r, 6, gain="exponential"),
                8,
            ),
        ]
    return f


def _figures() -> list[Figure]:
    return _building_figures() + _choice_figures()


@cache
def _reversals() -> Reversals:
    return count_reversals(EXAMPLE, 6)


def _ratio(grades: tuple[int, int], gain: str) -> float:
    high, low = gain_values(grades, gain)
    return float(high / low)


FIGURES: tuple[Figure, ...] = tuple(_figures())
BY_KEY = {fig.key: fig for fig in FIGURES}


def figure(key: str) -> Figure:
    """Look up a published figure by key."""
    try:
        return BY_KEY[key]
    except KeyError:
        raise KeyError(f"no article figure named {key!r}") from None


def comparison(chapter: int | None = None, prefix: str = "", where: bool = False) -> pd.DataFrame:
    """Published against computed figures, as a table of strings.

    A figure matches when the computed value, rounded to as many decimals as the
    published one has, prints as the same string.

    Parameters
    ----------
    chapter : int, optional
        Only the figures a chapter teaches.
    prefix : str
        Only keys starting with this prefix.
    where : bool
        Add the columns ``source`` (where the figure is printed) and ``chapter``
        (the chapter that teaches it).

    Examples
    --------
    >>> comparison(prefix="ndcg6_").to_string(index=False).splitlines()[1]
    '     ndcg6_linear     0.961    0.961   yes'
    """
    columns = ["figure", "published", "computed", "match"]
    if where:
        columns = ["chapter", "source", *columns]
    rows = [
        {
            "chapter": fig.chapter,
            "source": fig.section,
            "figure": fig.key,
            "published": fig.published,
            "computed": fig.formatted(),
            "match": "yes" if fig.matches() else "NO",
        }
        for fig in FIGURES
        if (chapter is None or fig.chapter == chapter) and fig.key.startswith(prefix)
    ]
    return pd.DataFrame(rows, columns=columns)
