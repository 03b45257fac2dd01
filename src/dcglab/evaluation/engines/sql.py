r"""The batch evaluation written once as SQL, for every engine that runs it.

:func:`evaluation_sql` returns one query in the SQL that DuckDB and Spark SQL
share (``ROW_NUMBER`` windows, ``LEFT JOIN``, ``CASE``, aggregate ``FILTER``);
the one construct they spell differently, a sum in a given order, comes from
the engine's :class:`Dialect`. It reads four tables:

``run(qid, docno, score)``, ``qrels(qid, docno, grade)``,
``gains(grade, gain, pooled)``, ``discounts(rnk, mul, div)``

and returns, per evaluated query, the sums that nDCG divides: one ``dcg_K``
column per cutoff (``dcg_all`` for the whole list) and one ``idcg_K`` column
per ideal needed. The steps, each a common table expression, in trec_eval 10.0's
order (``form_res_rels.c``):

- ``run_rows``: scores as doubles (``score_precision="float32"``: as float32,
  trec_eval 9.x), ``-0.0`` made ``+0.0``;
- ``judged``: each judged document's gain and whether it counts as judged for
  ``-J`` (both from the ``gains`` table, computed in Python);
- ``queries``: the queries evaluated, with ``-c`` all of the qrels;
- ``ranked_all``: the rank by score descending, then docno descending;
- ``listed``: the top ``max_docs`` of each query (``-M``), then ``ranked``:
  with ``-J`` only judged documents, ranked again in the same order;
- ``scored``: each ranked document's gain, 0 when unjudged;
- ``system``: DCG at each cutoff, the sum of gain times discount, added in rank
  order as trec_eval adds it;
- ``ideal_ranked`` and ``ideal``: the positive gains sorted best first and their
  sums in that order, IDCG at each cutoff.

The discount of each rank is a table (:func:`discount_rows`) computed by
:mod:`dcglab.discounts` in Python, and the gains table by
:func:`dcglab.batch.levels.level_gains`, so there is no gain or discount formula in
SQL. Sums are added left to right in rank order, because a different order can
change the last bit of a double and so, near a rounding boundary, a printed
decimal. The division with its IDCG = 0 policy is done by
:func:`dcglab.measures.ndcg_ratio` on the per-query sums. This module imports
no engine.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Unpack

from ..discounts import Discount, DiscountSpec
from ..measure_families import FAMILIES
from ..measure_names import Measure, measure_specs
from ..options import ConventionKeywords, Conventions, ideal_name

SCORE_TYPES = {"double": "DOUBLE", "float32": "FLOAT"}
"""The SQL type in which each ``score_precision`` compares scores."""


@dataclass(frozen=True)
class Dialect:
    """What one engine's SQL spells its own way: a sum in a given order.

    ``ordered_sum(value, order, where)`` is an aggregate expression: the sum of
    ``value`` over the group's rows where ``where`` holds, added left to right
    in ascending ``order`` (0 for no row).
    """

    name: str
    ordered_sum: Callable[[str, str, str], str]


def _duckdb_sum(value: str, order: str, where: str) -> str:
    return (
        f"COALESCE(list_reduce(list({value} ORDER BY {order}) FILTER (WHERE {where}), "
        "lambda a, b: a + b, CAST(0 AS DOUBLE)), CAST(0 AS DOUBLE))"
    )


def _spark_sum(value: str, order: str, where: str) -> str:
    return (
        f"aggregate(array_sort(collect_list(struct({order} AS o, {value} AS v)) "
        f"FILTER (WHERE {where})), CAST(0 AS DOUBLE), (acc, x) -> acc + x.v)"
    )


DUCKDB = Dialect("duckdb", _duckdb_sum)
SPARK = Dialect("spark", _spark_sum)


def _computes(engine: str, m: Measure) -> bool:
    """Whether ``engine`` computes ``m``: its family's record lists the engine
    (:data:`dcglab.measure_names.FAMILIES`), under the evaluation's one gain."""
    return engine in m.record.paths and m.gain is None


def dcg_measures(measures: Iterable[str], engine: str = "duckdb") -> list[Measure]:
    """:func:`dcglab.measure_names.measure_specs`, limited to what the engine
    computes; any other measure is an error naming the engine and the measure.

    Examples
    --------
    >>> [(m.name, m.k) for m in dcg_measures(["ndcg_cut.5,10", "nDCG@3", "dcg"])]
    [('ndcg_cut_5', 5), ('ndcg_cut_10', 10), ('nDCG@3', 3), ('dcg', None)]
    """
    wanted = measure_specs(measures)
    other = [
        name
        for name in dict.fromkeys(measures)
        if not all(_computes(engine, m) for m in measure_specs([name]))
    ]
    if other:
        names = ", ".join(f.name for f in FAMILIES if engine in f.paths)
        raise ValueError(
            f"engine {engine!r} does not compute {', '.join(other)}: it computes {names} "
            "under one gain; the default path computes the others"
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


def discount_rows(discount: DiscountSpec, n: int) -> list[tuple[int, float, float]]:
    r"""``(rank, mul, div)`` for ranks ``1..n``: a rank's term is ``gain * mul / div``.

    For ``log2`` the term is trec_eval's :math:`g / \log_2(i + 1)` (``m_ndcg.c``
    divides by C's ``log2``, which :func:`math.log2` calls), so ``mul`` is 1 and
    ``div`` the logarithm; for any other discount ``mul`` is the weight of
    :meth:`dcglab.discounts.Discount.weights` and ``div`` is 1. Multiplying or
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


def gains_sql(grades: Sequence[float], gains: Sequence[float], pooled: Sequence[bool]) -> str:
    """The gains table as an inline ``VALUES`` list (grades and gains as exact doubles).

    Examples
    --------
    >>> print(gains_sql([-1.0, 1.0], [0.0, 3.0], [False, True]))  # doctest: +NORMALIZE_WHITESPACE
    SELECT * FROM (VALUES (CAST('-1.0' AS DOUBLE), CAST('0.0' AS DOUBLE), FALSE),
    (CAST('1.0' AS DOUBLE), CAST('3.0' AS DOUBLE), TRUE)) AS g(grade, gain, pooled)
    """
    rows = ",\n      ".join(
        f"({double(g)}, {double(v)}, {'TRUE' if p else 'FALSE'})"
        for g, v, p in zip(grades, gains, pooled)
    )
    return f"SELECT * FROM (VALUES {rows}) AS g(grade, gain, pooled)"


def _label(k: int | None) -> str:
    return "all" if k is None else str(k)


def sum_columns(
    measures: Iterable[str], ideal: str = "judged", engine: str = "duckdb"
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
    for m in dcg_measures(measures, engine):
        if not m.record.normalised:
            out.append((m.name, f"dcg_{_label(m.k)}", None))
            continue
        cut = None if uncut else m.k
        out.append((m.name, f"dcg_{_label(m.k)}", f"idcg_{_label(cut)}"))
    return out


def depths(measures: Sequence[str], c: Conventions) -> tuple[int | None, int | None]:
    """How many ranks the system's list and the ideal need (``None``: all).

    Only the top max(K) ranks matter, unless a measure has no cutoff, the ideal
    comes from everything retrieved or is never cut, or tied groups are averaged
    (a group may straddle the cutoff); ``max_docs`` caps the system's list.

    Examples
    --------
    >>> depths(["ndcg_cut.5,10"], Conventions(max_docs=7))
    (7, 10)
    >>> depths(["ndcg"], Conventions())
    (None, None)
    """
    cuts = [m.k for m in measure_specs(measures)]
    top = None if None in cuts else max(cuts)
    system = None if c.ideal == "retrieved" or c.ties == "average" else top
    if c.max_docs is not None:
        system = c.max_docs if system is None else min(system, c.max_docs)
    return system, (None if c.ideal == "judged-uncut" else top)


def _sums(dialect: Dialect, columns: Iterable[str], prefix: str) -> str:
    """The ordered sum of ``term`` up to each cutoff named in ``columns``."""
    lines = []
    for col in sorted(set(columns), key=lambda c: (c.endswith("_all"), len(c), c)):
        k = col[len(prefix) + 1 :]
        where = "TRUE" if k == "all" else f"rnk <= {int(k)}"
        lines.append(f"{dialect.ordered_sum('term', 'rnk', where)} AS {col}")
    return ",\n         ".join(lines)


def _ranking(ties: str, max_docs: int | None, judged_only: bool, depth: int | None) -> str:
    """The CTEs from ``ranked_all`` to ``scored``: trec_eval's ``-M``, then ``-J``."""
    listed = "ranked_all" if max_docs is None else f"ranked_all WHERE place <= {int(max_docs)}"
    if judged_only:  # the judged documents of the top M, in the same order, ranked again
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
    gain = "COALESCE(j.gain, 0.0) AS gain"
    if ties == "average":  # each group of equal scores shares its mean gain
        gain = (
            "AVG(COALESCE(j.gain, 0.0)) OVER (PARTITION BY t.qid, t.s) AS gain,\n"
            "         COALESCE(j.gain, 0.0) AS raw_gain"
        )
    return f"""ranked_all AS (  -- rank: score descending, ties broken by docno descending
  SELECT qid, docno, s,
         ROW_NUMBER() OVER (PARTITION BY qid ORDER BY s DESC, docno DESC) AS place
  FROM run_rows
  WHERE qid IN (SELECT qid FROM queries)),
ranked AS (  -- the top max_docs (-M), then with -J only judged documents
  {ranked}),
scored AS (  -- each ranked document's gain; unjudged documents gain 0
  SELECT t.qid, t.rnk, {gain}
  FROM {top} AS t
  LEFT JOIN judged AS j ON j.qid = t.qid AND j.docno = t.docno)"""


def evaluation_sql(
    measures: Sequence[str] = ("ndcg_cut.10",),
    *,
    dialect: Dialect = DUCKDB,
    run: str = "run",
    qrels: str = "qrels",
    gains: str = "gains",
    discounts: str = "discounts",
    conventions: Conventions | None = None,
    **options: Unpack[ConventionKeywords],
) -> str:
    """The whole evaluation as one SQL query (see the module docstring).

    Parameters
    ----------
    measures : sequence of str
        As in :func:`dcglab.batch.evaluate`: ``ndcg``, ``ndcg_cut.K``, ``dcg``...
    dialect : Dialect, default :data:`DUCKDB`
        The engine's spelling of an ordered sum (:data:`DUCKDB`, :data:`SPARK`).
    run, qrels, gains, discounts : str
        Names of the tables (or views) to read.
    conventions, **options
        As in :func:`dcglab.batch.evaluate` (:class:`dcglab.options.Conventions`).
        The query applies ``ideal``, ``ties`` (``"trec"``: score descending,
        then docno descending; ``"average"``: each document gets the mean gain
        of the documents with the same score), ``missing`` (``"zero"`` also
        evaluates qrels queries absent from the run, ``-c``; the caller
        refuses them for ``"error"``), ``max_docs`` (each query's top
        ``max_docs`` ranked documents, ``-M``), then ``judged_only`` (drop the
        documents absent from the qrels and those whose grade's ``pooled`` is
        false, ``-J``) and ``score_precision`` (:data:`SCORE_TYPES`); the gains
        and discounts tables carry the others.

    Returns
    -------
    str
        A ``SELECT`` with columns ``qid`` and the ``dcg_*`` / ``idcg_*`` sums
        named by :func:`sum_columns`, one row per evaluated query.
    """
    c = Conventions.of(conventions, **options)
    name, ties = c.ideal, c.ties
    cols = sum_columns(measures, name, dialect.name)
    dcg_cols = sorted({d for _, d, _ in cols})
    idcg_cols = sorted({i for _, _, i in cols if i is not None})
    depth, ideal_depth = depths(measures, c)
    score = SCORE_TYPES[c.score_precision]
    in_run = "" if c.missing == "zero" else "\n  WHERE qid IN (SELECT qid FROM run_rows)"
    idcg_select = "".join(f",\n       COALESCE(i.{c}, 0.0) AS {c}" for c in idcg_cols)
    ideal_ctes = ideal_join = ""
    if idcg_cols:
        ideal_from = "SELECT qid, gain FROM judged"
        if name == "retrieved":
            raw = "raw_gain" if ties == "average" else "gain"
            ideal_from = f"SELECT qid, {raw} AS gain FROM scored"
        keep = "" if ideal_depth is None else f" WHERE rnk <= {ideal_depth}"
        ideal_ctes = f""",
ideal_ranked AS (  -- the ideal: positive gains sorted best first
  SELECT qid, gain, ROW_NUMBER() OVER (PARTITION BY qid ORDER BY gain DESC) AS rnk
  FROM ({ideal_from}) AS source
  WHERE gain > 0),
ideal AS (  -- IDCG at each cutoff, added in rank order
  SELECT t.qid,
         {_sums(dialect, idcg_cols, "idcg")}
  FROM (SELECT r.qid, r.rnk, r.gain * d.mul / d.div AS term
        FROM (SELECT * FROM ideal_ranked{keep}) AS r
        JOIN {discounts} AS d ON d.rnk = r.rnk) AS t
  GROUP BY t.qid)"""
        ideal_join = "\nLEFT JOIN ideal AS i ON i.qid = q.qid"
    dcg_select = "".join(f",\n       COALESCE(s.{c}, 0.0) AS {c}" for c in dcg_cols)
    return f"""WITH
run_rows AS (  -- scores in the compared precision; adding +0.0 turns -0.0 into +0.0
  SELECT CAST(qid AS STRING) AS qid, CAST(docno AS STRING) AS docno,
         CAST(score AS {score}) + CAST(0 AS {score}) AS s
  FROM {run}),
judged AS (  -- each judged document's gain, and whether -J keeps it
  SELECT CAST(r.qid AS STRING) AS qid, CAST(r.docno AS STRING) AS docno, g.gain, g.pooled
  FROM {qrels} AS r JOIN {gains} AS g ON CAST(r.grade AS DOUBLE) = g.grade),
queries AS (  -- evaluated: queries with judgments (and, without -c, a ranking)
  SELECT DISTINCT qid FROM judged{in_run}),
{_ranking(ties, c.max_docs, c.judged_only, depth)},
system AS (  -- DCG at each cutoff: gain times discount, added in rank order
  SELECT t.qid,
         {_sums(dialect, dcg_cols, "dcg")}
  FROM (SELECT s.qid, s.rnk, s.gain * d.mul / d.div AS term
        FROM scored AS s JOIN {discounts} AS d ON d.rnk = s.rnk) AS t
  GROUP BY t.qid){ideal_ctes}
SELECT q.qid{dcg_select}{idcg_select}
FROM queries AS q
LEFT JOIN system AS s ON s.qid = q.qid{ideal_join}
ORDER BY q.qid"""
