"""The measure families, one record each, as trec_eval's ``TREC_MEAS`` table.

Every fact about a family lives in its :class:`Family` record: the parameters
its name takes and their defaults, its output names, its place in the output
order, whether it is printed per query, whether it is a count, its help line
and which evaluation paths compute it. :mod:`dcglab.measure_names` parses names
into :class:`dcglab.measure_names.Measure` s that point to these records, and the
evaluator, the engines and the output ask the record.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = [
    "DEFAULT_CUTS",
    "DEFAULT_IPREC",
    "DEFAULT_SUCCESS",
    "FAMILIES",
    "FAMILY",
    "OFFICIAL",
    "PATHS",
    "SUMMARY_ONLY",
    "Family",
]

DEFAULT_CUTS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)  # trec_eval's default cutoffs
DEFAULT_SUCCESS = (1, 5, 10)
DEFAULT_IPREC = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)
PATHS = ("default", "duckdb", "spark")
"""The evaluation paths: the in-process evaluator and the SQL engines."""

Params = Literal["none", "cutoffs", "points", "gains"]
Aggregate = Literal["mean", "sum", "queries", "geometric", "tag"]


@dataclass(frozen=True)
class Family:
    """One measure family, as a record of trec_eval's ``TREC_MEAS`` table.

    ``params`` is what its name takes after ``.``: ``"none"``; ``"cutoffs"``
    (``P.5,10``, default ``defaults``), output ``P_5``; ``"points"``, recall
    points (``iprec_at_recall.0.1``), output ``iprec_at_recall_0.10``;
    ``"gains"``, an optional gain table (``ndcg.1=3,2=9``), output
    ``ndcg_1=3,2=9``. ``aggregate`` is its summary over queries: ``"mean"``,
    ``"sum"`` (a count, printed as an integer), ``"queries"`` (the number of
    queries, a count), ``"geometric"`` (``gm_map``) or ``"tag"`` (``runid``, a
    line, not a value). ``kernel`` names what computes it per query
    (:mod:`dcglab.batch.binary` or the DCG curves of :mod:`dcglab.batch`); ``paths``
    the evaluation paths that compute it (:data:`PATHS`); ``trec`` whether
    trec_eval's syntax names it (else only ir_measures' does); ``official``
    whether trec_eval's ``official`` set holds it; ``normalised`` whether a DCG
    measure is divided by its ideal (nDCG). Its place in the output order
    is its place in :data:`FAMILIES`.
    """

    name: str
    help: str
    params: Params = "none"
    defaults: tuple[float, ...] = ()
    aggregate: Aggregate = "mean"
    kernel: Literal["binary", "dcg", "tag"] = "binary"
    paths: tuple[str, ...] = ("default",)
    summary_only: bool = False
    trec: bool = True
    official: bool = False
    normalised: bool = False

    @property
    def count(self) -> bool:
        """Whether its values are counts (summed, printed as integers)."""
        return self.aggregate in ("sum", "queries")

    def output_name(self, param: float | str | None = None) -> str:
        """trec_eval's output name for a parameter (a cutoff, a recall point or
        a gain table's text; ``None`` for none).

        Examples
        --------
        >>> FAMILY["P"].output_name(5), FAMILY["iprec_at_recall"].output_name(0.1)
        ('P_5', 'iprec_at_recall_0.10')
        """
        if param is None:
            return self.name
        if self.params == "points":
            return f"{self.name}_{float(param):3.2f}"
        return f"{self.name}_{param}"


FAMILIES: tuple[Family, ...] = (
    Family(
        "runid", "the run's tag", aggregate="tag", kernel="tag", summary_only=True, official=True
    ),
    Family(
        "num_q",
        "number of queries evaluated",
        aggregate="queries",
        summary_only=True,
        official=True,
    ),
    Family("num_ret", "number of documents retrieved", aggregate="sum", official=True),
    Family("num_rel", "number of relevant documents in the qrels", aggregate="sum", official=True),
    Family("num_rel_ret", "number of relevant documents retrieved", aggregate="sum", official=True),
    Family("map", "mean average precision", official=True),
    Family(
        "gm_map",
        "average precision, geometric mean",
        aggregate="geometric",
        summary_only=True,
        official=True,
    ),
    Family("Rprec", "precision after R documents, R the relevant ones", official=True),
    Family(
        "bpref",
        "binary preference: judged non-relevant documents above each relevant one",
        official=True,
    ),
    Family("recip_rank", "reciprocal rank of the first relevant document", official=True),
    Family(
        "iprec_at_recall",
        "interpolated precision at recall points",
        "points",
        DEFAULT_IPREC,
        official=True,
    ),
    Family("P", "precision at cutoffs", "cutoffs", DEFAULT_CUTS, official=True),
    Family("recall", "recall at cutoffs", "cutoffs", DEFAULT_CUTS),
    Family("dcg", "discounted cumulative gain", "gains", kernel="dcg", paths=PATHS),
    Family(
        "ndcg",
        "normalised DCG, ideal never cut",
        "gains",
        kernel="dcg",
        paths=PATHS,
        normalised=True,
    ),
    Family(
        "ndcg_cut",
        "normalised DCG at cutoffs",
        "cutoffs",
        DEFAULT_CUTS,
        kernel="dcg",
        paths=PATHS,
        normalised=True,
    ),
    Family("map_cut", "average precision at cutoffs", "cutoffs", DEFAULT_CUTS),
    Family(
        "success",
        "whether a relevant document is in the top K (1 or 0)",
        "cutoffs",
        DEFAULT_SUCCESS,
    ),
    Family("dcg_cut", "DCG at cutoffs", "cutoffs", DEFAULT_CUTS, kernel="dcg", paths=PATHS),
    Family("Judged", "share of judged documents in the top K", "cutoffs", trec=False),
)
"""Every measure family, in the output order: trec_eval's measure table
(``te_trec_measures`` in ``measures.c``), then dcglab's own. Adding a measure is
one record here and its kernel."""
FAMILY = {f.name: f for f in FAMILIES}
"""The records by family name."""
OFFICIAL = tuple(f.name for f in FAMILIES if f.official)
"""trec_eval's ``official`` set (``measures.c``), printed when no measure is named."""
SUMMARY_ONLY = tuple(f.name for f in FAMILIES if f.summary_only)
"""Measures trec_eval prints in the summary only, never per query (``-q``)."""
