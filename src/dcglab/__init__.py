"""dcglab: the one package behind every number in the DCG/nDCG book.

Formulas live in one place each: gains in :mod:`dcglab.formulas.gains`, discounts in
:mod:`dcglab.formulas.discounts`, the ideal ranking in :mod:`dcglab.formulas.ideal`, and CG, DCG,
IDCG and nDCG in :mod:`dcglab.formulas.measures`. Many queries at once, from TREC files
or DataFrames: :func:`evaluate` (:mod:`dcglab.evaluation.batch`) and the trec_eval-compatible
command line (:mod:`dcglab.cli.evaluate`). The book's own code (the article's figures,
plots, explorers) lives in :mod:`dcglab.book`, which this package never imports.
"""

from typing import TYPE_CHECKING

from dcglab.formulas.discounts import (
    Discount,
    geometric_discount,
    jk_discount,
    log_discount,
    reciprocal_discount,
)
from dcglab.formulas.gains import exponential_gain, gain_values, linear_gain, mapped_gain
from dcglab.formulas.ideal import ideal_order
from dcglab.formulas.measures import (
    cg,
    curves,
    dcg,
    dcg_curve,
    idcg,
    mean_ndcg,
    ndcg,
    ndcg_curve,
    rank_table,
)

__all__ = [
    "compare",
    "evaluate",
    "Discount",
    "cg",
    "curves",
    "dcg",
    "dcg_curve",
    "exponential_gain",
    "gain_values",
    "geometric_discount",
    "idcg",
    "ideal_order",
    "jk_discount",
    "linear_gain",
    "log_discount",
    "mean_ndcg",
    "mapped_gain",
    "ndcg",
    "ndcg_curve",
    "rank_table",
    "reciprocal_discount",
]

__version__ = "0.1.0"

if TYPE_CHECKING:
    from dcglab.evaluation.batch import evaluate
    from dcglab.statistics.comparison import compare


def __getattr__(name: str) -> object:
    """:func:`evaluate` and :func:`compare` are imported on first use, so that
    ``import dcglab`` stays light and the command line sets its allocator up first
    (:mod:`dcglab.cli.process`)."""
    if name == "evaluate":
        from dcglab.evaluation.batch import evaluate

        return evaluate
    if name == "compare":
        from dcglab.statistics.comparison import compare

        return compare
    raise AttributeError(f"module 'dcglab' has no attribute {name!r}")
