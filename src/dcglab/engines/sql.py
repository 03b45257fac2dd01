r"""The batch evaluation written once as SQL, for every engine that runs it.

:func:`evaluation_sql` returns one query in the subset of SQL that DuckDB and
Spark SQL share (``ROW_NUMBER`` windows, ``LEFT JOIN``, ``CASE``, ``LN``,
``POWER``, ``CAST(... AS FLOAT)``), so the same text runs on both without a
transpiler. It reads three tables:

``run(qid, docno, score)``, ``qrels(qid, docno, grade)``, ``gains(grade, gain)``

and returns, per evaluated query, the sums that nDCG divides: one ``dcg_K``
column per cutoff (``dcg_all`` for the whole list) and one ``idcg_K`` column
per ideal needed. The steps, each a common table expression:

- ``run_rows``: scores as float32, ``-0.0`` made ``+0.0``
  (mirrors :func:`dcglab.batch.sortable_bits`);
- ``judged``: each judged document's gain, read from ``gains``
  (:func:`dcglab.gains.gain_values` fills that table);
- ``queries``: the queries evaluated, with ``-c`` all of the qrels
  (:func:`dcglab.batch.prepare`);
- ``ranked``: the rank, by score descending then docno descending as trec_eval
  does (:func:`dcglab.batch.order_by_rank`);
- ``scored``: each ranked document's gain, 0 when unjudged
  (:func:`dcglab.batch.prepare`);
- ``system``: DCG at each cutoff, the sum of gain times discount
  (:func:`dcglab.measures.dcg_curve`);
- ``ideal_ranked`` and ``ideal``: the gains sorted best first and their sums,
  IDCG at each cutoff (:func:`dcglab.ideal.ideal_order`,
  :func:`dcglab.measures.ideal_curve`).

The discount is the formula of :mod:`dcglab.discounts`, written by
:func:`discount_sql`; the gains table is computed by
:func:`dcglab.gains.gain_values` (so there is no gain formula in SQL at all),
and the division with its IDCG = 0 policy is done by
:func:`dcglab.measures.ndcg_ratio` on the per-query sums. This module imports
no engine.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from ..batch import parse_measures
from ..discounts import Discount, DiscountSpec

MISSING = ("ignore", "zero")
TIES = ("trec", "average")
IDEAL_NAMES = {
    "judged": "judged",
    "judged-uncut": "judged-uncut",
    "retrieved": "retrieved",
    "qrels-cut": "judged",
    "qrels": "judged-uncut",
}
"""The ``ideal`` options of :func:`dcglab.batch.evaluate` (older aliases last) and
their names: the ideal from all judged documents, cut at k or not, or from the
retrieved ones."""
DCG_MEASURE = re.compile(r"^n?dcg(?:_cut_\d+)?$")


def ideal_name(ideal: str) -> str:
    """The name of an ``ideal`` option, aliases resolved.

    Examples
    --------
    >>> ideal_name("qrels-cut"), ideal_name("qrels")
    ('judged', 'judged-uncut')
    """
    if ideal not in IDEAL_NAMES:
        raise ValueError(f"ideal must be one of {tuple(IDEAL_NAMES)}, got {ideal!r}")
    return IDEAL_NAMES[ideal]


def dcg_measures(measures: Iterable[str]) -> list[tuple[str, int | None]]:
    """:func:`dcglab.batch.parse_measures`, limited to the DCG family the SQL computes.

    Examples
    --------
    >>> dcg_measures(["ndcg_cut.5,10", "dcg"])
    [('ndcg_cut_5', 5), ('ndcg_cut_10', 10), ('dcg', None)]
    """
    wanted = parse_measures(measures)
    other = [name for name, _ in wanted if not DCG_MEASURE.match(name)]
    if other:
        raise ValueError(
            f"the SQL engines compute ndcg, ndcg_cut.K, dcg and dcg_cut.K; got {other}: "
            "the in-process evaluator (dcglab.batch.evaluate) computes the others"
        )
    return wanted


def double(x: float) -> str:
    """A float as an exact SQL ``DOUBLE`` literal in both dialects.

    ``repr`` gives the shortest decimal string that reads back as the same
    double; casting a string avoids DuckDB's and Spark's ``DECIMAL`` literals.

    Examples
    --------
    >>> double(2.0)
    "CAST('2.0' AS DOUBLE)"
    """
    return f"CAST('{float(x)!r}' AS DOUBLE)"


def discount_sql(discount: DiscountSpec, rank: str = "rnk") -> str:
    r"""The discount weight of the integer column ``rank`` as a SQL expression.

    Each branch is the formula of one function of :mod:`dcglab.discounts`,
    computed in double precision (the rank is cast before any division, so no
    engine divides integers):

    - ``log:b`` mirrors :func:`~dcglab.discounts.log_discount`,
      :math:`\ln b / \ln(i + 1)`;
    - ``jk:b`` mirrors :func:`~dcglab.discounts.jk_discount`, 1 for
      :math:`i < b`, else :math:`\ln b / \ln \max(i, b)`;
    - ``geometric:p`` mirrors :func:`~dcglab.discounts.geometric_discount`,
      :math:`p^{i-1}`;
    - ``reciprocal`` mirrors :func:`~dcglab.discounts.reciprocal_discount`,
      :math:`1 / i`.

    Examples
    --------
    >>> discount_sql("log2")
    "LN(CAST('2.0' AS DOUBLE)) / LN(CAST(rnk + 1 AS DOUBLE))"
    >>> discount_sql("reciprocal", "r")
    "CAST('1.0' AS DOUBLE) / CAST(r AS DOUBLE)"
    """
    d = Discount.parse(discount)
    i = f"CAST({rank} AS DOUBLE)"
    if d.kind == "log":
        return f"LN({double(d.base)}) / LN(CAST({rank} + 1 AS DOUBLE))"
    if d.kind == "jk":
        b = double(d.base)
        return f"CASE WHEN {i} < {b} THEN {double(1.0)} ELSE LN({b}) / LN(GREATEST({i}, {b})) END"
    if d.kind == "geometric":
        return f"POWER({double(d.p)}, {i} - {double(1.0)})"
    return f"{double(1.0)} / {i}"


def gains_sql(grades: Sequence[float], gains: Sequence[float]) -> str:
    """The gains table as an inline ``VALUES`` list (grades and gains as exact doubles).

    Examples
    --------
    >>> print(gains_sql([0.0, 1.0], [0.0, 3.0]))  # doctest: +NORMALIZE_WHITESPACE
    SELECT * FROM (VALUES (CAST('0.0' AS DOUBLE), CAST('0.0' AS DOUBLE)),
    (CAST('1.0' AS DOUBLE), CAST('3.0' AS DOUBLE))) AS g(grade, gain)
    """
    rows = ",\n      ".join(f"({double(g)}, {double(v)})" for g, v in zip(grades, gains))
    return f"SELECT * FROM (VALUES {rows}) AS g(grade, gain)"


def _label(k: int | None) -> str:
    return "all" if k is None else str(k)


def sum_columns(
    measures: Iterable[str], ideal: str = "judged"
) -> list[tuple[str, str, str | None]]:
    """For each measure, its output name and the DCG and IDCG columns it divides.

    ``idcg`` is ``None`` for an unnormalised ``dcg`` measure. The ideal is cut at
    the measure's cutoff except for ``ideal="judged-uncut"`` (alias ``"qrels"``),
    as in :func:`dcglab.batch.compute`.

    Examples
    --------
    >>> sum_columns(["ndcg_cut.5", "ndcg"])
    [('ndcg_cut_5', 'dcg_5', 'idcg_5'), ('ndcg', 'dcg_all', 'idcg_all')]
    >>> sum_columns(["ndcg_cut.5"], ideal="judged-uncut")
    [('ndcg_cut_5', 'dcg_5', 'idcg_all')]
    """
    uncut = ideal_name(ideal) == "judged-uncut"
    out = []
    for name, k in dcg_measures(measures):
        if name.startswith("dcg"):
            out.append((name, f"dcg_{_label(k)}", None))
            continue
        cut = None if uncut else k
        out.append((name, f"dcg_{_label(k)}", f"idcg_{_label(cut)}"))
    return out


def _sums(columns: Iterable[str], prefix: str, weight: str) -> str:
    """``SUM`` of ``gain * weight`` up to each cutoff named in ``columns``."""
    lines = []
    for col in sorted(set(columns), key=lambda c: (c.endswith("_all"), len(c), c)):
        k = col[len(prefix) + 1 :]
        term = f"gain * ({weight})"
        if k != "all":
            term = (
                f"CASE WHEN rnk <= {int(k)}\n"
                f"                  THEN {term}\n"
                f"                  ELSE {double(0.0)} END"
            )
        lines.append(f"SUM({term}) AS {col}")
    return ",\n         ".join(lines)


def evaluation_sql(
    measures: Sequence[str] = ("ndcg_cut.10",),
    *,
    discount: DiscountSpec = "log2",
    ideal: str = "judged",
    ties: str = "trec",
    missing: str = "ignore",
    max_docs: int | None = None,
    judged_only: bool = False,
    run: str = "run",
    qrels: str = "qrels",
    gains: str = "gains",
) -> str:
    """The whole evaluation as one SQL query (see the module docstring).

    Parameters
    ----------
    measures : sequence of str
        As in :func:`dcglab.batch.evaluate`: ``ndcg``, ``ndcg_cut.K``, ``dcg``...
    discount : str or Discount, default ``"log2"``
        Written into the query by :func:`discount_sql`.
    ideal : {"judged", "judged-uncut", "retrieved"}
        Where IDCG comes from, as in :func:`dcglab.batch.evaluate` (which
        also accepts the older names ``"qrels-cut"`` and ``"qrels"``).
    ties : {"trec", "average"}
        ``"trec"``: float32 score descending, then docno descending.
        ``"average"``: each document gets the mean gain of the documents with
        the same float32 score, as the batch evaluator does (scikit-learn's rule).
    missing : {"ignore", "zero"}
        ``"zero"`` also evaluates qrels queries absent from the run (``-c``).
    max_docs : int, optional
        Keep each query's top ``max_docs`` ranked documents (trec_eval ``-M``).
    judged_only : bool, default False
        Drop unjudged documents before ranking (trec_eval ``-J``).
    run, qrels, gains : str
        Names of the tables (or views) to read.

    Returns
    -------
    str
        A ``SELECT`` with columns ``qid`` and the ``dcg_*`` / ``idcg_*`` sums
        named by :func:`sum_columns`, one row per evaluated query.
    """
    ideal = ideal_name(ideal)
    if ties not in TIES:
        raise ValueError(f"ties must be one of {TIES}, got {ties!r}")
    if missing not in MISSING:
        raise ValueError(f"missing must be one of {MISSING}, got {missing!r}")
    if max_docs is not None and (
        isinstance(max_docs, bool) or int(max_docs) != max_docs or max_docs < 1
    ):
        raise ValueError(f"max_docs must be an integer >= 1, got {max_docs!r}")
    wanted = dcg_measures(measures)
    cols = sum_columns(measures, ideal)
    dcg_cols = sorted({d for _, d, _ in cols})
    idcg_cols = sorted({i for _, _, i in cols if i is not None})
    weight = discount_sql(discount)
    cuts = [k for _, k in wanted]
    # Only the top max(K) ranks matter, unless a measure has no cutoff, the ideal
    # comes from everything retrieved, or tied groups are averaged (a group may
    # straddle the cutoff).
    depth = None if None in cuts or ideal == "retrieved" or ties == "average" else max(cuts)
    if max_docs is not None:
        depth = int(max_docs) if depth is None else min(depth, int(max_docs))
    in_run = "\n  WHERE qid IN (SELECT qid FROM run_rows)" if missing == "ignore" else ""
    top = "ranked" if depth is None else f"(SELECT * FROM ranked WHERE rnk <= {depth})"
    source = "run_rows"
    if judged_only:
        source = (
            "(SELECT r.* FROM run_rows AS r\n"
            "        JOIN judged AS k ON k.qid = r.qid AND k.docno = r.docno) AS kept"
        )
    gain = "COALESCE(j.gain, 0.0) AS gain"
    if ties == "average":  # each group of equal float32 scores shares its mean gain
        gain = (
            "AVG(COALESCE(j.gain, 0.0)) OVER (PARTITION BY t.qid, t.score32) AS gain,\n"
            "         COALESCE(j.gain, 0.0) AS raw_gain"
        )
    ideal_from = "SELECT qid, gain FROM judged"
    if ideal == "retrieved":
        raw = "raw_gain" if ties == "average" else "gain"
        ideal_from = f"SELECT qid, {raw} AS gain FROM scored"
    idcg_select = "".join(f",\n       COALESCE(i.{c}, 0.0) AS {c}" for c in idcg_cols)
    ideal_ctes = ""
    ideal_join = ""
    if idcg_cols:
        ideal_ctes = f""",
ideal_ranked AS (  -- the ideal: gains sorted best first (any order among equal gains)
  SELECT qid, gain, ROW_NUMBER() OVER (PARTITION BY qid ORDER BY gain DESC) AS rnk
  FROM ({ideal_from}) AS source
  WHERE gain > 0),
ideal AS (  -- IDCG at each cutoff
  SELECT qid,
         {_sums(idcg_cols, "idcg", weight)}
  FROM ideal_ranked
  GROUP BY qid)"""
        ideal_join = "\nLEFT JOIN ideal AS i ON i.qid = q.qid"
    dcg_select = "".join(f",\n       COALESCE(s.{c}, 0.0) AS {c}" for c in dcg_cols)
    return f"""WITH
run_rows AS (  -- float32 scores as trec_eval; adding +0.0 turns -0.0 into +0.0
  SELECT CAST(qid AS STRING) AS qid, CAST(docno AS STRING) AS docno,
         CAST(score AS FLOAT) + CAST(0 AS FLOAT) AS score32
  FROM {run}),
judged AS (  -- each judged document's gain
  SELECT CAST(r.qid AS STRING) AS qid, CAST(r.docno AS STRING) AS docno, g.gain
  FROM {qrels} AS r JOIN {gains} AS g ON CAST(r.grade AS DOUBLE) = g.grade),
queries AS (  -- evaluated: queries with judgments (and, without -c, a ranking)
  SELECT DISTINCT qid FROM judged{in_run}),
ranked AS (  -- rank: score descending, ties broken by docno descending
  SELECT qid, docno, score32,
         ROW_NUMBER() OVER (PARTITION BY qid ORDER BY score32 DESC, docno DESC) AS rnk
  FROM {source}
  WHERE qid IN (SELECT qid FROM queries)),
scored AS (  -- each ranked document's gain; unjudged documents gain 0
  SELECT t.qid, t.rnk, {gain}
  FROM {top} AS t
  LEFT JOIN judged AS j ON j.qid = t.qid AND j.docno = t.docno),
system AS (  -- DCG at each cutoff: sum of gain times discount
  SELECT qid,
         {_sums(dcg_cols, "dcg", weight)}
  FROM scored
  GROUP BY qid){ideal_ctes}
SELECT q.qid{dcg_select}{idcg_select}
FROM queries AS q
LEFT JOIN system AS s ON s.qid = q.qid{ideal_join}
ORDER BY q.qid"""
