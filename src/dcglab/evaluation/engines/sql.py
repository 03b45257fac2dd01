r"""The batch evaluation written once as SQL: what DuckDB runs.

:func:`statistics_sql` returns one query in the SQL that DuckDB and Spark SQL
share (``ROW_NUMBER`` and running ``SUM`` windows, ``LEFT JOIN``, ``CASE``);
the one construct they spell differently, a sum of doubles added in rank order,
comes from a :class:`Dialect`. The DuckDB engine runs it; the Spark engine does
not (it runs the default path itself in buckets of queries,
:mod:`dcglab.evaluation.engines.buckets`), and :data:`SPARK` only spells the
same query in Spark SQL (:func:`dcglab.evaluation.engines.evaluation_sql`). It
reads four tables:

``run(qid, docno, score)``, ``qrels(qid, docno, grade)``,
``levels(grade, pooled, gain_0, ..., rel_0, ...)``, ``discounts(rnk, mul, div)``

and returns, per evaluated query, the statistics that the measures are
computed from (:class:`Stat`: counts, and sums added in rank order). The steps,
each a common table expression, in trec_eval 10.0's order (``form_res_rels.c``):

- ``run_rows``: scores as doubles (``score_precision="float32"``: as float32,
  trec_eval 9.x), ``-0.0`` made ``+0.0``;
- ``judged``: each judged document with its grade's row of ``levels``: its gain
  under each gain table, whether it is relevant at each relevance level, and
  whether it counts as judged (``pooled``);
- ``queries``: the queries evaluated, with ``-c`` all of the qrels;
- ``ranked_all``: the rank by score descending, then docno descending;
- ``ranked``: the top ``max_docs`` of each query (``-M``), then with ``-J``
  only judged documents, ranked again in the same order;
- ``scored``: each ranked document's gains and flags (0 when unjudged);
- ``counted``: running counts down the ranking (relevant documents found,
  judged non-relevant ones above) and each rank's discounted gain;
- ``terms``: running sums down the ranking (DCG, average precision, bpref);
- ``per_query``: the statistics at each cutoff; ``ideal_G``: IDCG at each
  cutoff under gain table ``G``; ``qstats``: the qrels' counts.

The levels table is built in Python from the batch path's grade reading
(:func:`dcglab.evaluation.batch.levels.level_gains`,
:func:`dcglab.evaluation.batch.binary.level_flags`), and the discount of each
rank comes from :mod:`dcglab.formulas.discounts` (:func:`discount_rows`), so
there is no gain, discount or relevance rule in SQL. The measures are finished
in Python from the statistics (:mod:`dcglab.evaluation.engines.measures`).
Sums of doubles are added left to right in rank order, as trec_eval and the
batch path add them, because another order can change the last bit and so,
near a rounding boundary, a printed decimal. This module imports no engine.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

from dcglab.evaluation.options import Conventions
from dcglab.formulas.discounts import Discount, DiscountSpec

if TYPE_CHECKING:
    from dcglab.evaluation.measure_names import Measure

SCORE_TYPES = {"double": "DOUBLE", "float32": "FLOAT"}
"""The SQL type in which each ``score_precision`` compares scores."""
ZERO = "CAST(0 AS DOUBLE)"
ONE = "CAST(1 AS DOUBLE)"
ROWS = "ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW"


@dataclass(frozen=True)
class Dialect:
    """What one engine's SQL spells its own way: a sum of doubles in rank order.

    ``running(term)`` is the expression that the ``terms`` step selects for
    each ranked document, and ``upto(column, k)`` the aggregate that reads
    from it the sum of ``term`` over the query's ranks ``1..k`` (``None``: all),
    added left to right in rank order (ranks are ``1..n`` without a gap).
    """

    name: str
    running: Callable[[str], str]
    upto: Callable[[str, int | None], str]


def _duckdb_upto(column: str, k: int | None) -> str:
    terms = f"list({column} ORDER BY rnk)"  # one list per column, shared by every cutoff
    if k is not None:
        terms = f"list_slice({terms}, 1, {int(k)})"
    return f"list_reduce({terms}, lambda a, b: a + b, {ZERO})"


def _spark_running(term: str) -> str:
    # A running window adds row by row in the window's order (Spark's
    # UnboundedPrecedingWindowFunctionFrame), so each value is the sum in rank order.
    return f"SUM({term}) OVER (PARTITION BY qid ORDER BY rnk {ROWS})"


def _spark_upto(column: str, k: int | None) -> str:
    where = "" if k is None else f" FILTER (WHERE rnk <= {int(k)})"
    return f"COALESCE(max_by({column}, rnk){where}, {ZERO})"


DUCKDB = Dialect("duckdb", lambda term: term, _duckdb_upto)
"""DuckDB: each query's terms as one list in rank order, added by ``list_reduce``
(DuckDB's window sums combine partial sums in a tree, in another order)."""
SPARK = Dialect("spark", _spark_running, _spark_upto)
"""Spark SQL: a running window sum, read at the cutoff's rank (``max_by``): the terms
are collected into no array and sorted once, with the ranking. (The Spark engine
does not run this query: see the module docstring.)"""


class Stat(NamedTuple):
    """One per-query statistic the SQL returns.

    ``kind`` is what it counts or sums, ``index`` the gain table (for
    ``dcg``/``idcg``) or relevance level (for the others) it uses, ``param``
    its cutoff (``None``: the whole ranking) or, for ``iprec``, its recall point.

    ========== ===================================================================
    kind       per query
    ========== ===================================================================
    n_ret      documents ranked (after ``-M`` and ``-J``)
    found      relevant documents in the top ``param``
    ap         sum over relevant ranks i <= ``param`` of (relevant found by i) / i
    first      rank of the first relevant document (0: none)
    rprec      relevant documents in the top R (R: the relevant ones in the qrels)
    bpref      sum over relevant ranks of 1 - min(b, R) / min(N, R) (1 if b = 0),
               b the judged non-relevant ones above, N those of the qrels
    iprec      the best precision at or below the rank where round(``param`` R)
               relevant documents are found (halves up; at least 1)
    judged     judged documents in the top ``param``
    dcg        gain times discount, summed over the top ``param``
    idcg       the same over the ideal ranking of the judged gains
    num_rel    R, the relevant documents in the qrels
    nonrel     N, the judged non-relevant documents in the qrels
    ========== ===================================================================
    """

    kind: str
    index: int = 0
    param: float | None = None

    @property
    def column(self) -> str:
        """Its column name: kind, index and parameter, SQL-safe."""
        p = "all" if self.param is None else repr(self.param).replace(".", "p").replace("-", "m")
        return f"{self.kind}_{self.index}_{p}"


FROM_QRELS = ("num_rel", "nonrel")
"""Statistics of the qrels alone (``qstats``); ``idcg`` comes from ``ideal_G``."""


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


def discount_rows(discount: DiscountSpec, n: int) -> list[tuple[int, float, float]]:
    r"""``(rank, mul, div)`` for ranks ``1..n``: a rank's term is ``gain * mul / div``.

    For ``log2`` the term is trec_eval's :math:`g / \log_2(i + 1)` (``m_ndcg.c``
    divides by C's ``log2``, which :func:`math.log2` calls), so ``mul`` is 1 and
    ``div`` the logarithm; for any other discount ``mul`` is the weight of
    :meth:`dcglab.formulas.discounts.Discount.weights` and ``div`` is 1. Multiplying or
    dividing by 1 is exact, so each term is computed exactly as written.

    Examples
    --------
    >>> discount_rows("log2", 3)
    [(1, 1.0, 1.0), (2, 1.0, 1.584962500721156), (3, 1.0, 2.0)]
    >>> discount_rows("reciprocal", 2)
    [(1, 1.0, 1.0), (2, 0.5, 1.0)]
    """
    d = Discount.parse(discount)
    if d.kind == "log" and d.base == 2.0:
        return [(i, 1.0, math.log2(i + 1)) for i in range(1, n + 1)]
    return [(i, float(w), 1.0) for i, w in enumerate(d.weights(n).tolist(), start=1)]


def levels_sql(
    grades: Sequence[float],
    pooled: Sequence[bool],
    gains: Sequence[Sequence[float]],
    relevant: Sequence[Sequence[bool]],
) -> str:
    """The levels table as an inline ``VALUES`` list: per distinct qrels grade,
    whether it counts as judged, its gain under each gain table (exact doubles)
    and whether it is relevant at each relevance level (1 or 0).

    Examples
    --------
    >>> print(levels_sql([-1.0, 1.0], [False, True], [[0.0, 3.0]], [[False, True]]))
    ... # doctest: +NORMALIZE_WHITESPACE
    SELECT * FROM (VALUES (CAST('-1.0' AS DOUBLE), FALSE, CAST('0.0' AS DOUBLE), 0),
    (CAST('1.0' AS DOUBLE), TRUE, CAST('3.0' AS DOUBLE), 1))
    AS g(grade, pooled, gain_0, rel_0)
    """
    rows = []
    for i, g in enumerate(grades):
        cells = [double(g), "TRUE" if pooled[i] else "FALSE"]
        cells += [double(table[i]) for table in gains]
        cells += ["1" if flags[i] else "0" for flags in relevant]
        rows.append(f"({', '.join(cells)})")
    names = ["grade", "pooled"] + [f"gain_{j}" for j in range(len(gains))]
    names += [f"rel_{j}" for j in range(len(relevant))]
    return f"SELECT * FROM (VALUES {', '.join(rows)}) AS g({', '.join(names)})"


def depths(specs: Sequence[Measure], c: Conventions) -> tuple[int | None, int | None]:
    """How many ranks the system's list and the ideal need (``None``: all).

    Only the top max(K) ranks matter, unless a measure has no cutoff, the ideal
    comes from everything retrieved or is never cut, or tied groups are averaged
    (a group may straddle the cutoff); ``max_docs`` caps the system's list.

    Examples
    --------
    >>> from dcglab.evaluation.measure_names import measure_specs
    >>> depths(measure_specs(["ndcg_cut.5,10", "P.3"]), Conventions(max_docs=7))
    (7, 10)
    >>> depths(measure_specs(["ndcg"]), Conventions())
    (None, None)
    """
    cuts = [m.k for m in specs]
    top = None if None in cuts else max(cuts)
    system = None if c.ideal == "retrieved" or c.ties == "average" else top
    if c.max_docs is not None:
        system = c.max_docs if system is None else min(system, c.max_docs)
    return system, (None if c.ideal == "judged-uncut" else top)


def _half_up(x: str) -> str:
    """C's ``lround`` for ``x >= 0`` in SQL (as :func:`dcglab.evaluation.batch.binary._half_up`)."""
    return f"(CASE WHEN {x} - FLOOR({x}) >= 0.5 THEN FLOOR({x}) + 1 ELSE FLOOR({x}) END)"


def _aggregate(s: Stat, dialect: Dialect) -> str:
    """The ``per_query`` aggregate of a statistic over a query's ``terms`` rows."""
    at = "" if s.param is None else f"rnk <= {int(s.param)}"
    rel = f"rel_{s.index}"

    def count(flag: str, where: str = at) -> str:
        return f"SUM({flag})" if not where else f"SUM(CASE WHEN {where} THEN {flag} ELSE 0 END)"

    if s.kind == "n_ret":
        return "COUNT(*)"
    if s.kind == "found":
        return count(rel)
    if s.kind == "judged":
        return count("jd")
    if s.kind == "first":
        return f"MIN(CASE WHEN {rel} = 1 THEN rnk END)"
    if s.kind == "rprec":
        return count(rel, f"rnk <= num_rel_{s.index}")
    if s.kind == "iprec":
        need = _half_up(f"{double(float(s.param or 0.0))} * CAST(num_rel_{s.index} AS DOUBLE)")
        return (
            f"MAX(CASE WHEN {rel} = 1 AND found_{s.index} >= GREATEST({need}, 1) "
            f"THEN CAST(found_{s.index} AS DOUBLE) / rnk END)"
        )
    sums = {"ap": f"ap_{s.index}", "bpref": f"bp_{s.index}", "dcg": f"dcg_{s.index}"}
    return dialect.upto(sums[s.kind], None if s.param is None else int(s.param))


def _ranking(c: Conventions, gain_cols: list[str], flag_cols: list[str], depth: int | None) -> str:
    """The CTEs from ``ranked_all`` to ``scored``: trec_eval's ``-M``, then ``-J``."""
    listed = "ranked_all" if c.max_docs is None else f"ranked_all WHERE place <= {c.max_docs}"
    if c.judged_only:  # the judged documents of the top M, in the same order, ranked again
        ranked = (
            "SELECT t.qid, t.docno, t.s,\n"
            "         ROW_NUMBER() OVER (PARTITION BY t.qid ORDER BY t.place) AS rnk\n"
            f"  FROM (SELECT * FROM {listed}) AS t\n"
            "  JOIN judged AS k ON k.qid = t.qid AND k.docno = t.docno\n"
            "  WHERE k.pooled"
        )
    else:
        ranked = f"SELECT qid, docno, s, place AS rnk FROM {listed}"
    top = "ranked" if depth is None else f"(SELECT * FROM ranked WHERE rnk <= {depth})"
    cols = [f"COALESCE(j.{g}, {ZERO}) AS {g}" for g in gain_cols]
    if c.ties == "average":  # each group of equal scores shares its mean gain
        cols = [
            f"AVG(COALESCE(j.{g}, {ZERO})) OVER (PARTITION BY t.qid, t.s) AS {g},\n"
            f"         COALESCE(j.{g}, {ZERO}) AS raw_{g}"
            for g in gain_cols
        ]
    cols += [f"COALESCE(j.{f}, 0) AS {f}" for f in flag_cols]
    cols.append("CASE WHEN j.pooled THEN 1 ELSE 0 END AS jd")
    selected = ",\n         ".join(cols)
    return f"""ranked_all AS (  -- rank: score descending, ties broken by docno descending
  SELECT qid, docno, s,
         ROW_NUMBER() OVER (PARTITION BY qid ORDER BY s DESC, docno DESC) AS place
  FROM run_rows
  WHERE qid IN (SELECT qid FROM queries)),
ranked AS (  -- the top max_docs (-M), then with -J only judged documents
  {ranked}),
scored AS (  -- each ranked document's gains and flags; unjudged documents have 0
  SELECT t.qid, t.rnk,
         {selected}
  FROM {top} AS t
  LEFT JOIN judged AS j ON j.qid = t.qid AND j.docno = t.docno)"""


RANKED_KINDS = ("found", "ap", "first", "rprec", "iprec", "bpref")
"""Statistics that need a relevance level's running counts down the ranking."""
NEEDS_R = ("rprec", "iprec", "bpref")
"""Statistics that need the qrels' counts on each ranked row."""


def _row_steps(stats: Sequence[Stat], n_gains: int, dialect: Dialect, discounts: str) -> str:
    """The ``counted`` and ``terms`` CTEs: running counts, then running sums."""
    kinds = {(s.kind, s.index) for s in stats}
    window = f"OVER (PARTITION BY s.qid ORDER BY s.rnk {ROWS})"
    counted = ["s.qid", "s.rnk", "s.jd"]
    terms = ["qid", "rnk", "jd"]
    for g in range(n_gains):
        if ("dcg", g) in kinds:
            counted.append(f"s.gain_{g} * d.mul / d.div AS dterm_{g}")
            terms.append(f"{dialect.running(f'dterm_{g}')} AS dcg_{g}")
    levels = sorted({s.index for s in stats if s.kind in RANKED_KINDS})
    for i in levels:
        r, b = f"num_rel_{i}", f"above_{i}"
        counted += [f"s.rel_{i}", f"SUM(s.rel_{i}) {window} AS found_{i}"]
        terms += [f"rel_{i}", f"found_{i}"]
        if any((k, i) in kinds for k in NEEDS_R):
            counted.append(f"COALESCE(q.{r}, 0) AS {r}")
            terms.append(r)
        if ("ap", i) in kinds:
            ap = f"CASE WHEN rel_{i} = 1 THEN CAST(found_{i} AS DOUBLE) / rnk ELSE {ZERO} END"
            terms.append(f"{dialect.running(ap)} AS ap_{i}")
        if ("bpref", i) in kinds:
            counted += [
                f"SUM(s.jd * (1 - s.rel_{i})) {window} AS {b}",
                f"COALESCE(q.nonrel_{i}, 0) AS nonrel_{i}",
            ]
            cap = f"LEAST(nonrel_{i}, {r})"
            share = (
                f"CASE WHEN {cap} > 0 THEN CAST(LEAST({b}, {r}) AS DOUBLE) / "
                f"CAST({cap} AS DOUBLE) ELSE {ZERO} END"
            )
            term = (
                f"CASE WHEN rel_{i} = 1 THEN (CASE WHEN {b} > 0 THEN {ONE} - ({share}) "
                f"ELSE {ONE} END) ELSE {ZERO} END"
            )
            terms.append(f"{dialect.running(term)} AS bp_{i}")
    joins = f"JOIN {discounts} AS d ON d.rnk = s.rnk"
    if any(k in NEEDS_R for k, _ in kinds):
        joins += "\n  LEFT JOIN qstats AS q ON q.qid = s.qid"
    sep = ",\n         "
    return f"""counted AS (  -- running counts down the ranking, and each discounted gain
  SELECT {sep.join(counted)}
  FROM scored AS s
  {joins}),
terms AS (  -- running sums down the ranking, added in rank order
  SELECT {sep.join(terms)}
  FROM counted)"""


def _ideal(
    g: int,
    cuts: Sequence[int | None],
    c: Conventions,
    dialect: Dialect,
    discounts: str,
    depth: int | None,
) -> str:
    """The ``ideal_G`` CTEs: the positive gains of table ``G`` best first, and
    IDCG at each cutoff in ``cuts``."""
    source = f"SELECT qid, gain_{g} AS gain FROM judged"
    if c.ideal == "retrieved":
        raw = f"raw_gain_{g}" if c.ties == "average" else f"gain_{g}"
        source = f"SELECT qid, {raw} AS gain FROM scored"
    keep = "" if depth is None else f" WHERE rnk <= {depth}"
    sums = ",\n         ".join(
        f"{dialect.upto('cum', k)} AS {Stat('idcg', g, k).column}" for k in cuts
    )
    return f"""ideal_ranked_{g} AS (  -- the ideal: positive gains sorted best first
  SELECT qid, gain, ROW_NUMBER() OVER (PARTITION BY qid ORDER BY gain DESC) AS rnk
  FROM ({source}) AS source
  WHERE gain > 0),
ideal_terms_{g} AS (
  SELECT qid, rnk, {dialect.running("term")} AS cum
  FROM (SELECT r.qid, r.rnk, r.gain * d.mul / d.div AS term
        FROM (SELECT * FROM ideal_ranked_{g}{keep}) AS r
        JOIN {discounts} AS d ON d.rnk = r.rnk) AS t),
ideal_{g} AS (  -- IDCG at each cutoff, added in rank order
  SELECT qid,
         {sums}
  FROM ideal_terms_{g}
  GROUP BY qid)"""


def _inputs(c: Conventions, run: str, qrels: str, levels: str, columns: list[str]) -> list[str]:
    """The CTEs ``run_rows``, ``judged`` (with the levels table's ``columns``) and ``queries``."""
    score = SCORE_TYPES[c.score_precision]
    in_run = "" if c.missing == "zero" else "\n  WHERE qid IN (SELECT qid FROM run_rows)"
    return [
        f"""run_rows AS (  -- scores in the compared precision; adding +0.0 turns -0.0 into +0.0
  SELECT CAST(qid AS STRING) AS qid, CAST(docno AS STRING) AS docno,
         CAST(score AS {score}) + CAST(0 AS {score}) AS s
  FROM {run})""",
        f"""judged AS (  -- each judged document with its grade's gains and flags
  SELECT CAST(r.qid AS STRING) AS qid, CAST(r.docno AS STRING) AS docno, g.pooled,
         {", ".join(f"g.{x}" for x in columns)}
  FROM {qrels} AS r JOIN {levels} AS g ON CAST(r.grade AS DOUBLE) = g.grade)""",
        f"""queries AS (  -- evaluated: queries with judgments (and, without -c, a ranking)
  SELECT DISTINCT qid FROM judged{in_run})""",
    ]


def _qstats(levels: Sequence[int]) -> str:
    """The ``qstats`` CTE: per query, the qrels' relevant and judged non-relevant
    documents at each relevance level in ``levels``."""
    sums = []
    for i in levels:
        sums.append(f"SUM(rel_{i}) AS num_rel_{i}")
        sums.append(f"SUM(CASE WHEN pooled AND rel_{i} = 0 THEN 1 ELSE 0 END) AS nonrel_{i}")
    return (
        "qstats AS (  -- relevant and judged non-relevant documents of the qrels\n"
        f"  SELECT qid, {', '.join(sums)}\n  FROM judged\n  GROUP BY qid)"
    )


def statistics_sql(
    stats: Sequence[Stat],
    conventions: Conventions,
    *,
    n_gains: int = 1,
    n_levels: int = 1,
    depths: tuple[int | None, int | None] = (None, None),
    dialect: Dialect = DUCKDB,
    run: str = "run",
    qrels: str = "qrels",
    levels: str = "levels",
    discounts: str = "discounts",
) -> str:
    """The statistics of every evaluated query as one SQL query (module docstring).

    Parameters
    ----------
    stats : sequence of Stat
        The statistics to return, one column each (:attr:`Stat.column`).
    conventions : Conventions
        As in :func:`dcglab.evaluation.batch.evaluate`. The query applies
        ``ideal``, ``ties`` (``"trec"``: score descending, then docno
        descending; ``"average"``: each document gets the mean gain of the
        documents with the same score), ``missing`` (``"zero"`` also evaluates
        qrels queries absent from the run, ``-c``; the caller refuses them for
        ``"error"``), ``max_docs`` (each query's top ``max_docs`` ranked
        documents, ``-M``), then ``judged_only`` (drop the documents absent
        from the qrels and those whose grade's ``pooled`` is false, ``-J``) and
        ``score_precision`` (:data:`SCORE_TYPES`); the levels and discounts
        tables carry the others.
    n_gains, n_levels : int
        How many gain tables and relevance levels the levels table holds.
    depths : (int or None, int or None)
        How many ranks the system's list and the ideal need (``None``: all).
    dialect : Dialect, default :data:`DUCKDB`
        The engine's spelling of an ordered sum (:data:`DUCKDB`, :data:`SPARK`).
    run, qrels, levels, discounts : str
        Names of the tables (or views) to read.

    Returns
    -------
    str
        A ``SELECT`` with columns ``qid`` and one per statistic, one row per
        evaluated query, in no particular order.
    """
    c = conventions
    depth, ideal_depth = depths
    gain_cols = [f"gain_{g}" for g in range(n_gains)]
    flag_cols = [f"rel_{i}" for i in range(n_levels)]
    ranked = [s for s in stats if s.kind not in (*FROM_QRELS, "idcg")]
    counted = sorted({s.index for s in stats if s.kind in FROM_QRELS or s.kind in NEEDS_R})
    ctes = _inputs(c, run, qrels, levels, gain_cols + flag_cols)
    if counted:
        ctes.append(_qstats(counted))
    exprs: dict[Stat, str] = {}
    joins = []
    sep = ",\n         "
    if ranked:
        aggs = sep.join(f"{_aggregate(s, dialect)} AS {s.column}" for s in ranked)
        ctes += [
            _ranking(c, gain_cols, flag_cols, depth),
            _row_steps(ranked, n_gains, dialect, discounts),
            f"per_query AS (  -- each statistic of the ranking\n  SELECT qid,\n         {aggs}\n"
            "  FROM terms\n  GROUP BY qid)",
        ]
        joins.append("LEFT JOIN per_query AS p ON p.qid = q.qid")
        for s in ranked:
            zero = ZERO if s.kind in ("dcg", "ap", "bpref", "iprec") else "0"
            exprs[s] = f"COALESCE(p.{s.column}, {zero})"
    for g in range(n_gains):
        cuts = list(dict.fromkeys(s.param for s in stats if s.kind == "idcg" and s.index == g))
        if cuts:
            ctes.append(_ideal(g, cuts, c, dialect, discounts, ideal_depth))
            joins.append(f"LEFT JOIN ideal_{g} AS i{g} ON i{g}.qid = q.qid")
            for k in cuts:
                exprs[Stat("idcg", g, k)] = f"COALESCE(i{g}.{Stat('idcg', g, k).column}, {ZERO})"
    if counted:
        joins.append("LEFT JOIN qstats AS qs ON qs.qid = q.qid")
        for s in stats:
            if s.kind in FROM_QRELS:
                exprs[s] = f"COALESCE(qs.{s.kind}_{s.index}, 0)"
    select = ["q.qid", *(f"{exprs[s]} AS {s.column}" for s in stats)]
    body = ",\n".join(ctes)
    return f"WITH\n{body}\nSELECT {sep.join(select)}\nFROM queries AS q\n" + "\n".join(joins)
