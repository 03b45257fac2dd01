r"""nDCG@k of Cranfield rankings, the table of the three models, and direction changes.

Gains are tables from qrels code to gain. The code −1 (one document per query,
unexplained by the readme, most likely the paper the question was written from)
counts as judged non-relevant, gain 0, as trec_eval treats any code <= 0; the
article's figures are only approached under that reading.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, get_args

import numpy as np

from dcglab.collections.cranfield.data import UNJUDGED, Collection
from dcglab.collections.cranfield.index import MODELS, Config, Index
from dcglab.collections.cranfield.retrieval import rank
from dcglab.collections.judgments import run_grades
from dcglab.formulas.gains import exponential_gain
from dcglab.formulas.measures import ndcg

GRADED: dict[int, int] = {1: 4, 2: 3, 3: 2, 4: 1, -1: 0}
"""Graded gain :math:`5 - \\text{code}` for codes 1..4; code −1 is non-relevant (gain 0)."""
BINARY: dict[int, int] = {1: 1, 2: 1, 3: 1, 4: 1, -1: 0}
"""Binary gain: every code 1..4 counts 1; code −1 is non-relevant (gain 0)."""
GainName = Literal["graded", "binary", "exponential"]
GAIN_NAMES: tuple[str, ...] = get_args(GainName)
"""Named gain tables: :data:`GRADED`, :data:`BINARY`, and exponential gain
:math:`2^{g} - 1` on the graded gains :math:`g` (15, 7, 3, 1 for codes 1..4)."""


def gain_mapping(gain: GainName | Mapping[int, float]) -> dict[int, float]:
    """The gain table of a name in :data:`GAIN_NAMES`, or a mapping checked and completed.

    Code 0 (:data:`~dcglab.collections.cranfield.data.UNJUDGED`) is added with gain 0. The
    exponential table applies :func:`dcglab.formulas.gains.exponential_gain` to :data:`GRADED`.

    Examples
    --------
    >>> gain_mapping("exponential")
    {1: 15.0, 2: 7.0, 3: 3.0, 4: 1.0, -1: 0.0, 0: 0}
    """
    if isinstance(gain, str):
        if gain not in GAIN_NAMES:
            raise ValueError(f"gain must be one of {GAIN_NAMES} or a mapping, got {gain!r}")
        if gain == "exponential":
            values = exponential_gain(np.array(list(GRADED.values()), dtype=float))
            gain = dict(zip(GRADED, values.tolist()))
        else:
            gain = GRADED if gain == "graded" else BINARY
    if UNJUDGED in gain and gain[UNJUDGED] != 0:
        raise ValueError("code 0 is reserved for unjudged documents, whose gain is 0")
    return {**gain, UNJUDGED: 0}


def ndcg_by_query(
    collection: Collection,
    ranking: Mapping[int, Sequence[int]],
    k: int = 10,
    gain: GainName | Mapping[int, float] = "graded",
) -> dict[int, float]:
    r"""Per-query nDCG@k of a ranking, with :func:`dcglab.ndcg`.

    Each retrieved document gets its code from the qrels (unjudged documents
    count 0, :func:`dcglab.collections.judgments.run_grades`); the ideal is built from all
    the query's judged codes, so the −1 documents are judged non-relevant.
    Gains: a name or mapping of :func:`gain_mapping`; the discount is
    :math:`1/\log_2(i + 1)`.
    ``zero_idcg="error"``: no Cranfield query lacks a relevant document. A query
    missing from ``ranking`` scores 0.

    Returns
    -------
    dict
        Query number → nDCG@k.
    """
    table = gain_mapping(gain)
    out = {}
    for q in collection.query_ids:
        judged = collection.qrels.get(q, {})
        docs = [str(d) for d in ranking.get(q, [])]
        codes = run_grades(docs, {str(d): c for d, c in judged.items()}) if docs else [UNJUDGED]
        value = ndcg(codes, k, judged=list(judged.values()), gain=table, zero_idcg="error")
        out[q] = float(value)  # type: ignore[arg-type]
    return out


Rankings = Mapping[int, Sequence[int]]
"""One model's ranking: query number → document numbers, best first."""
PerQuery = dict[tuple[str, str], dict[int, float]]
"""Per-query nDCG@k of each (model, gain name): ``{(model, gain): {query: nDCG@k}}``."""


def ndcg_by_model(
    collection: Collection,
    runs: Mapping[str, Rankings],
    k: int = 10,
    gains: Mapping[str, GainName | Mapping[int, float]] | None = None,
) -> PerQuery:
    """:func:`ndcg_by_query` of every model's ranking under every named gain.

    Parameters
    ----------
    collection : Collection
    runs : dict
        Model name → its ranking (query number → document numbers).
    k : int
    gains : dict, optional
        Gain name → a gain of :func:`gain_mapping`; by default graded and binary.

    Returns
    -------
    dict
        ``{(model, gain name): {query: nDCG@k}}``.
    """
    gains = {"graded": "graded", "binary": "binary"} if gains is None else gains
    return {
        (m, name): ndcg_by_query(collection, runs[m], k, gain)
        for m in runs
        for name, gain in gains.items()
    }


def gain_flips(
    values: PerQuery,
    first: str = "graded",
    second: str = "binary",
    models: tuple[str, str] = ("bm25", "tfidf"),
) -> DirectionChanges:
    """:func:`direction_changes` of two models (BM25 against TF-IDF by default) between
    two of the gains in ``values`` (from :func:`ndcg_by_model`)."""
    a, b = models
    return direction_changes(
        (values[a, first], values[b, first]), (values[a, second], values[b, second])
    )


MINUS_ONE_READINGS = ("non-relevant", "removed", "-J")
"""Readings of code −1: judged non-relevant (gain 0), its documents removed from the
rankings, or, as trec_eval's ``-J`` does with −1 read as unjudged, every unjudged or −1
document removed."""


def read_minus_one(collection: Collection, ranking: Rankings, reading: str) -> dict[int, list[int]]:
    """A ranking under one of the :data:`MINUS_ONE_READINGS` of code −1: the documents
    that reading removes are dropped, the others keep their order."""
    if reading not in MINUS_ONE_READINGS:
        raise ValueError(f"reading must be one of {MINUS_ONE_READINGS}, got {reading!r}")

    def kept(q: int, d: int) -> bool:
        code = collection.qrels.get(q, {}).get(d)
        if reading == "removed":
            return code != -1
        return reading == "non-relevant" or (code is not None and code >= 0)

    return {q: [d for d in docs if kept(q, d)] for q, docs in ranking.items()}


def run_scores(ranking: Rankings) -> dict[int, dict[int, float]]:
    """A ranking as a run's scores: of a query's :math:`n` documents, the one at rank
    :math:`r` scores :math:`n - r + 1`, so that ordering by score (as trec_eval does)
    gives the ranking back.

    Examples
    --------
    >>> run_scores({1: [7, 3]})
    {1: {7: 2.0, 3: 1.0}}
    """
    return {q: {d: float(len(docs) - i) for i, d in enumerate(docs)} for q, docs in ranking.items()}


def relevant_in_top(collection: Collection, ranking: Rankings, k: int = 10) -> float:
    r"""Mean over the collection's queries of the documents with a code from 1 to 4 among
    a ranking's top :math:`k`: :math:`\frac{1}{|Q|}\sum_q |\{d \in \text{top}_k(q) :
    \text{code}(q, d) > 0\}|`."""
    return float(
        np.mean(
            [
                sum(collection.qrels[q].get(d, 0) > 0 for d in ranking[q][:k])
                for q in collection.query_ids
            ]
        )
    )


def mean(values: Mapping[int, float]) -> float:
    """Mean over queries."""
    return float(np.mean(list(values.values())))


@dataclass(frozen=True)
class DirectionChanges:
    """Queries where system A's advantage over B flips between graded and binary gain.

    With :math:`\\Delta_g = \\mathrm{A}_g - \\mathrm{B}_g` and
    :math:`\\Delta_b = \\mathrm{A}_b - \\mathrm{B}_b` per query:

    ``strict``
        :math:`\\Delta_g \\Delta_b < 0`: one strictly positive, the other
        strictly negative.
    ``lenient``
        :math:`\\operatorname{sign}\\Delta_g \\ne \\operatorname{sign}\\Delta_b`,
        which also counts a tie under one gain and not the other.
    """

    strict: tuple[int, ...]
    lenient: tuple[int, ...]


def direction_changes(
    graded: tuple[Mapping[int, float], Mapping[int, float]],
    binary: tuple[Mapping[int, float], Mapping[int, float]],
    tol: float = 1e-12,
) -> DirectionChanges:
    """Count the queries whose A-versus-B comparison changes direction.

    Parameters
    ----------
    graded, binary : (dict, dict)
        Per-query nDCG of systems A and B under graded and under binary gain.
    tol : float
        Differences within ``tol`` count as ties (sign 0).

    Examples
    --------
    >>> direction_changes(({1: .5, 2: .4, 3: .3}, {1: .4, 2: .4, 3: .4}),
    ...                   ({1: .3, 2: .5, 3: .2}, {1: .4, 2: .4, 3: .2}))
    DirectionChanges(strict=(1,), lenient=(1, 2, 3))
    """
    (ga, gb), (ba, bb) = graded, binary
    strict, lenient = [], []
    for q in sorted(ga):
        sg = _sign(ga[q] - gb[q], tol)
        sb = _sign(ba[q] - bb[q], tol)
        if sg * sb < 0:
            strict.append(q)
        if sg != sb:
            lenient.append(q)
    return DirectionChanges(tuple(strict), tuple(lenient))


def _sign(x: float, tol: float) -> int:
    return 0 if abs(x) <= tol else int(math.copysign(1, x))


def table(
    collection: Collection, config: Config | None = None, k: int = 10, progress: bool = False
) -> dict[str, dict[str, float]]:
    """Mean nDCG@k of BIM, TF-IDF and BM25 under graded and binary gain.

    Returns
    -------
    dict
        ``{"bim": {"graded": ..., "binary": ...}, "tfidf": ..., "bm25": ...}``.
    """
    index = Index.build(collection, config, progress=progress)
    return {
        m: {g: mean(ndcg_by_query(collection, rank(index, m), k, g)) for g in ("graded", "binary")}
        for m in MODELS
    }
