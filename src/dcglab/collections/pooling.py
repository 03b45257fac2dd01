r"""Pooled judgments simulated from complete ones, and how far they move system rankings.

A test collection built by **pooling** judges, for each query :math:`q`, only the
union of the top :math:`h` documents of a set :math:`S` of contributing runs:

.. math:: P_q(S, h) = \bigcup_{s \in S} \operatorname{top}_h(s, q).

Given a collection whose judgments are (near) complete, the functions here build
that pool (:func:`pool`), keep only the judgments of pooled documents
(:func:`judge`), build the pools of leave-one-out experiments
(:func:`leave_one_out`) and compare two system rankings with Kendall's
:math:`\tau` (:func:`kendall_tau`). :func:`run_frame` and :func:`qrels_frame`
turn rankings and judgments into the DataFrames :func:`dcglab.evaluation.batch.evaluate`
reads, which computes the measures; :func:`mean_scores` scores many runs on
one set of judgments.

Rankings are mappings ``query -> documents, best first``; judgments are
mappings ``query -> {document: grade}``.

>>> runs = {"a": {1: ["d1", "d2", "d3"]}, "b": {1: ["d4", "d1", "d5"]}}
>>> sorted(pool(runs.values(), 2)[1])
['d1', 'd2', 'd4']
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from dcglab.evaluation.batch import evaluate
from dcglab.evaluation.batch.reader import Source

Ranking = Mapping[Hashable, Sequence[Hashable]]
"""One run: query -> documents, best first."""
Judgments = Mapping[Hashable, Mapping[Hashable, float]]
"""Qrels: query -> {document: grade}."""


def _check_depth(depth: object) -> int:
    if isinstance(depth, bool) or not isinstance(depth, (int, np.integer)) or depth < 1:
        raise ValueError(f"depth must be a positive integer, got {depth!r}")
    return int(depth)


def pool(runs: Iterable[Ranking], depth: int) -> dict[Hashable, set[Hashable]]:
    r"""The pool of depth ``depth``: every document some run ranks in its top ``depth``.

    .. math:: P_q(S, h) = \bigcup_{s \in S} \{\text{the documents at ranks } 1..h
              \text{ of } s \text{ for } q\}

    Parameters
    ----------
    runs : iterable of Ranking
        The contributing runs :math:`S`, each ``query -> documents, best first``.
    depth : int
        :math:`h \ge 1`, how many of each run's top documents enter the pool.

    Returns
    -------
    dict
        Query -> set of pooled documents, for every query some run ranks.

    Raises
    ------
    ValueError
        If ``depth`` is not a positive integer or no run is given.

    Examples
    --------
    >>> pooled = pool([{1: ["a", "b"]}, {1: ["c", "a"], 2: ["e"]}], 1)
    >>> {q: sorted(docs) for q, docs in pooled.items()}
    {1: ['a', 'c'], 2: ['e']}
    """
    depth = _check_depth(depth)
    pooled: dict[Hashable, set[Hashable]] = {}
    n_runs = 0
    for run in runs:
        n_runs += 1
        for query, docs in run.items():
            pooled.setdefault(query, set()).update(docs[:depth])
    if n_runs == 0:
        raise ValueError("runs is empty: a pool needs at least one contributing run")
    return pooled


def judge(
    truth: Judgments, pooled: Mapping[Hashable, Iterable[Hashable]], default: float = 0
) -> dict[Hashable, dict[Hashable, float]]:
    r"""Judge only the pooled documents, reading each grade from complete judgments.

    .. math:: \mathrm{qrels}'_q = \{(x, r_q(x)) : x \in P_q\}

    where :math:`r_q(x)` is the grade of document :math:`x` in ``truth``, else ``default``.

    A pooled document that ``truth`` does not list is judged with grade ``default``
    (the assessor saw it and found it non-relevant); a relevant document outside
    the pool is left out, so it becomes unjudged. Judging every document of the
    collection (``pooled = {q: all documents}``) gives the complete judgments.

    Parameters
    ----------
    truth : Judgments
        Complete judgments, ``query -> {document: grade}``; unlisted documents
        count as non-relevant.
    pooled : mapping
        Query -> documents to judge (:func:`pool`).
    default : float, default 0
        Grade of a pooled document that ``truth`` does not list.

    Returns
    -------
    dict
        Query -> {document: grade}, for the queries of ``pooled``, documents in
        sorted order.

    Examples
    --------
    >>> judge({1: {"a": 2, "z": 1}}, {1: {"a", "b"}})
    {1: {'a': 2, 'b': 0}}
    """
    out: dict[Hashable, dict[Hashable, float]] = {}
    for query, docs in pooled.items():
        grades = truth.get(query, {})
        out[query] = {d: grades.get(d, default) for d in sorted(docs)}
    return out


def leave_one_out(
    runs: Mapping[str, Ranking],
    depth: int,
    contributors: Iterable[str] | None = None,
    groups: Mapping[str, str] | None = None,
) -> dict[str, dict[Hashable, set[Hashable]]]:
    r"""For each contributor, the pool built without it (or without its whole group).

    .. math:: P_q^{-s} = P_q(S \setminus G(s), h)

    where :math:`G(s)` is the set of contributors in the group of :math:`s`
    (just :math:`\{s\}` without ``groups``). Scoring :math:`s` on
    :math:`P^{-s}` shows what its score would have been had it not contributed
    to the pool (Zobel, 1998).

    Parameters
    ----------
    runs : mapping
        Run name -> Ranking.
    depth : int
        Pool depth :math:`h`.
    contributors : iterable of str, optional
        The names of the runs that build the pool (default: all of ``runs``).
    groups : mapping, optional
        Run name -> group name (for example the participant or the model);
        a left-out run takes its group's other runs with it.

    Returns
    -------
    dict
        Contributor name -> its leave-one-out pool (query -> documents).

    Raises
    ------
    ValueError
        On a contributor not in ``runs``, a contributor without a group, or a
        group that holds every contributor (nothing would be left to pool).

    Examples
    --------
    >>> runs = {"a": {1: ["x", "y"]}, "b": {1: ["y", "z"]}}
    >>> {name: sorted(p[1]) for name, p in leave_one_out(runs, 1).items()}
    {'a': ['y'], 'b': ['x']}
    """
    names = list(runs) if contributors is None else list(contributors)
    unknown = [n for n in names if n not in runs]
    if unknown:
        raise ValueError(f"contributors names runs that are not in runs: {unknown}")
    group = {n: n for n in names} if groups is None else groups
    ungrouped = [n for n in names if n not in group]
    if ungrouped:
        raise ValueError(f"groups gives no group for contributors {ungrouped}")
    out = {}
    for name in names:
        others = [runs[n] for n in names if group[n] != group[name]]
        if not others:
            raise ValueError(
                f"leaving out {name!r} (group {group[name]!r}) leaves no contributor to pool"
            )
        out[name] = pool(others, depth)
    return out


def kendall_tau(x: Sequence[float], y: Sequence[float]) -> float:
    r"""Kendall's :math:`\tau_b` between two scorings of the same systems.

    Over the pairs :math:`i < j` of :math:`n` systems, with :math:`C` the pairs
    both scorings order the same way and :math:`D` the pairs they order
    oppositely,

    .. math:: \tau_b = \frac{C - D}{\sqrt{(n_0 - n_x)(n_0 - n_y)}},
              \qquad n_0 = \tfrac{n(n-1)}{2},

    where :math:`n_x` and :math:`n_y` count the pairs tied in ``x`` and in ``y``.
    Without ties :math:`\tau = 1 - 4D / (n(n-1))`: 1 for the same ranking, −1
    for the reversed one.

    Parameters
    ----------
    x, y : sequence of float
        Each system's score under two evaluations, in the same system order.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        If the lengths differ, fewer than two systems are given, a score is not
        finite, or every system ties in ``x`` or in ``y`` (:math:`\tau` undefined).

    Examples
    --------
    >>> kendall_tau([0.3, 0.2, 0.1], [0.6, 0.5, 0.4])
    1.0
    >>> kendall_tau([0.3, 0.2, 0.1], [0.5, 0.6, 0.4])
    0.3333333333333333
    """
    a, b = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if a.shape != b.shape or a.ndim != 1:
        raise ValueError(f"x and y must be two lists of equal length, got {a.shape} and {b.shape}")
    if len(a) < 2:
        raise ValueError(f"Kendall's tau needs at least two systems, got {len(a)}")
    if not (np.isfinite(a).all() and np.isfinite(b).all()):
        raise ValueError("x and y must hold finite scores (found NaN or inf)")
    upper = np.triu_indices(len(a), 1)
    sx = np.sign(a[:, None] - a[None, :])[upper]
    sy = np.sign(b[:, None] - b[None, :])[upper]
    untied_x, untied_y = np.count_nonzero(sx), np.count_nonzero(sy)
    if untied_x == 0 or untied_y == 0:
        raise ValueError("Kendall's tau is undefined when every system has the same score")
    return float(np.sum(sx * sy) / np.sqrt(untied_x * untied_y))


def mean_scores(
    qrels: Source, runs: Mapping[str, Source], measures: Sequence[str], **options: Any
) -> pd.DataFrame:
    r"""The mean of each measure for each run, all evaluated on the same qrels.

    .. math:: \bar m_s = \frac{1}{|Q|} \sum_{q \in Q} m_q(s)

    Parameters
    ----------
    qrels : path or DataFrame
        The judgments (for example :func:`qrels_frame` of :func:`judge`).
    runs : mapping
        Run name -> run file or DataFrame (for example :func:`run_frame`).
    measures : sequence of str
        Measure names of :func:`dcglab.evaluation.batch.evaluate`.
    **options
        Conventions passed on to :func:`dcglab.evaluation.batch.evaluate` (``zero_idcg``,
        ``judged_only``, ...).

    Returns
    -------
    pandas.DataFrame
        One row per run (index ``run``, in the order of ``runs``), one column per
        measure.
    """
    if not runs:
        raise ValueError("runs is empty: give at least one run to score")
    rows = {name: evaluate(qrels, run, measures, **options).means() for name, run in runs.items()}
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis("run")


def run_frame(ranking: Ranking) -> pd.DataFrame:
    r"""A ranking as a run DataFrame (``qid``, ``docno``, ``score``) that keeps its order.

    The document at rank :math:`i` of a list of :math:`n` gets score
    :math:`n - i + 1`, so every evaluator that sorts by score (trec_eval
    included) sees the ranking as given.

    Examples
    --------
    >>> run_frame({1: ["b", "a"]})
      qid docno  score
    0   1     b      2
    1   1     a      1
    """
    rows = [
        (str(q), str(d), len(docs) - i) for q, docs in ranking.items() for i, d in enumerate(docs)
    ]
    return pd.DataFrame(rows, columns=["qid", "docno", "score"])


def qrels_frame(judgments: Judgments) -> pd.DataFrame:
    """Judgments as a qrels DataFrame (``qid``, ``docno``, ``grade``).

    Examples
    --------
    >>> qrels_frame({1: {"a": 2, "b": 0}})
      qid docno  grade
    0   1     a      2
    1   1     b      0
    """
    rows = [(str(q), str(d), g) for q, grades in judgments.items() for d, g in grades.items()]
    return pd.DataFrame(rows, columns=["qid", "docno", "grade"])


__all__ = [
    "Judgments",
    "Ranking",
    "judge",
    "kendall_tau",
    "leave_one_out",
    "mean_scores",
    "pool",
    "qrels_frame",
    "run_frame",
]
