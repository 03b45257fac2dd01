"""The measure families, one record each, as trec_eval's ``TREC_MEAS`` table.

Every fact about a family lives in its :class:`Family` record: the parameters
its name takes and their defaults, its output names, its place in the output
order, whether it is printed per query, whether it is a count and its help line
(which families the SQL engines compute: :data:`dcglab.evaluation.engines.measures.COMPUTED`).
:mod:`dcglab.evaluation.measure_names` parses names
into :class:`dcglab.evaluation.measure_names.Measure` s that point to these records, and the
evaluator, the engines and the output ask the record.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = [
    "ALL_TREC",
    "DEFAULT_CUTS",
    "DEFAULT_IPREC",
    "DEFAULT_SUCCESS",
    "FAMILIES",
    "FAMILY",
    "OFFICIAL",
    "SET",
    "SETS",
    "SUMMARY_ONLY",
    "Family",
]

DEFAULT_CUTS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)  # trec_eval's default cutoffs
DEFAULT_SUCCESS = (1, 5, 10)
DEFAULT_IPREC = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)
DEFAULT_RPREC_MULT = (0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0)
DEFAULT_UNJ = (5, 10, 20)

Params = Literal["none", "cutoffs", "points", "gains", "values"]
Aggregate = Literal["mean", "sum", "queries", "geometric", "tag", "text"]


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
    (:mod:`dcglab.evaluation.batch.binary`, the DCG curves of :mod:`dcglab.evaluation.batch`,
    trec_eval's own kernels in :mod:`dcglab.evaluation.batch.all_trec`, or the user models
    ERR and RBP in :mod:`dcglab.evaluation.batch.user_models`);
    ``trec`` whether
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
    kernel: Literal["binary", "dcg", "tag", "trec", "user"] = "binary"
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
            return f"{self.name}_{float(param):3.2f}"  # C's %3.2f
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
    Family(
        "relstring",
        "the grades of the top N documents as text (per query only)",
        "values",
        (10,),
        aggregate="text",
        kernel="trec",
    ),
    Family("recall", "recall at cutoffs", "cutoffs", DEFAULT_CUTS),
    Family("infAP", "inferred AP, for sampled judgments", kernel="trec"),
    Family("gm_bpref", "bpref, geometric mean", aggregate="geometric", summary_only=True),
    Family(
        "Rprec_mult", "precision at multiples of R", "points", DEFAULT_RPREC_MULT, kernel="trec"
    ),
    Family(
        "utility", "set utility w1*a+w2*b+w3*c+w4*d", "values", (1.0, -1.0, 0.0, 0.0), kernel="trec"
    ),
    Family(
        "11pt_avg",
        "interpolated precision averaged over recall points",
        "values",
        DEFAULT_IPREC,
        kernel="trec",
    ),
    Family("binG", "binary G", kernel="trec"),
    Family("G", "normalised gain G", "gains", kernel="trec"),
    Family("dcg", "discounted cumulative gain", "gains", kernel="dcg"),
    Family(
        "ndcg",
        "normalised DCG, ideal never cut",
        "gains",
        kernel="dcg",
        normalised=True,
    ),
    Family("ndcg_rel", "nDCG averaged over the relevant documents", "gains", kernel="trec"),
    Family("Rndcg", "nDCG averaged at the R levels", "gains", kernel="trec"),
    Family(
        "ndcg_cut",
        "normalised DCG at cutoffs",
        "cutoffs",
        DEFAULT_CUTS,
        kernel="dcg",
        normalised=True,
    ),
    Family("map_cut", "average precision at cutoffs", "cutoffs", DEFAULT_CUTS),
    Family(
        "relative_P",
        "precision at cutoffs over the best possible",
        "cutoffs",
        DEFAULT_CUTS,
        kernel="trec",
    ),
    Family(
        "success",
        "whether a relevant document is in the top K (1 or 0)",
        "cutoffs",
        DEFAULT_SUCCESS,
    ),
    Family("set_P", "precision of the retrieved set", kernel="trec"),
    Family("set_relative_P", "set precision over the best possible", kernel="trec"),
    Family("set_recall", "recall of the retrieved set", kernel="trec"),
    Family("set_map", "unranked AP of the retrieved set", kernel="trec"),
    Family("set_F", "F measure of the retrieved set (beta)", "values", (1.0,), kernel="trec"),
    Family(
        "num_nonrel_judged_ret",
        "number of judged non-relevant documents retrieved",
        aggregate="sum",
        kernel="trec",
    ),
    Family("rbp", "rank-biased precision (p=0.9)", "gains", kernel="trec"),
    Family("rbp_resid", "RBP's residual from unjudged documents (p=0.9)", "gains", kernel="trec"),
    Family("unj", "share of unjudged documents at cutoffs", "cutoffs", DEFAULT_UNJ, kernel="trec"),
    Family("dcg_cut", "DCG at cutoffs", "cutoffs", DEFAULT_CUTS, kernel="dcg"),
    Family("Judged", "share of judged documents in the top K", "cutoffs", trec=False),
    Family(
        "ERR",
        "expected reciprocal rank, grades 0 to 4 (gdeval's)",
        "cutoffs",
        kernel="user",
        trec=False,
    ),
    Family(
        "RBP",
        "rank-biased precision (p=0.8): graded, or binary with rel=",
        "cutoffs",
        kernel="user",
        trec=False,
    ),
)
"""Every measure family, in the output order: trec_eval's measure table
(``te_trec_measures`` in ``measures.c``), then dcglab's own. Adding a measure is
one record here and its kernel."""
FAMILY = {f.name: f for f in FAMILIES}
"""The records by family name."""
OFFICIAL = tuple(f.name for f in FAMILIES if f.official)
"""trec_eval's ``official`` set (``measures.c``), printed when no measure is named."""
ALL_TREC = (
    *OFFICIAL, "relstring", "recall", "unj", "rbp", "rbp_resid", "infAP", "gm_bpref",
    "utility", "11pt_avg", "ndcg", "relative_P", "Rprec_mult", "success", "map_cut",
    "ndcg_cut", "ndcg_rel", "Rndcg", "binG", "G", "set_P", "set_recall", "set_relative_P",
    "set_map", "set_F", "num_nonrel_judged_ret",
)  # fmt: skip
"""trec_eval's ``all_trec`` set (``trec_names`` in ``measures.c``)."""
SET = (
    "runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "utility", "set_P", "set_recall",
    "set_relative_P", "set_map", "set_F",
)  # fmt: skip
"""trec_eval's ``set`` set (``set_names`` in ``measures.c``)."""
SETS = {"official": OFFICIAL, "all_trec": ALL_TREC, "set": SET}
"""trec_eval's named sets of measures that dcglab computes."""
SUMMARY_ONLY = tuple(f.name for f in FAMILIES if f.summary_only)
"""Measures trec_eval prints in the summary only, never per query (``-q``)."""
