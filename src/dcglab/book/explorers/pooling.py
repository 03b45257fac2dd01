"""Explorer of chapter 12: a pool of a few runs, rebuilt in the browser at any depth.

The data are a handful of runs (each a list of the top documents of some queries, as
indices into the query's documents), every document's true grade and each query's
complete ideal (:func:`explorer_data`). The reader chooses the pool depth, how many
runs build the pool (the first ones in the data's order) and the rule for unjudged
documents; the explorer shows every run's nDCG@k on the pool against its value with
complete judgments, Kendall's tau between the two orders and Judged@k.

Its JavaScript twin of the pooling arithmetic is ``pool_twin.js``, locked to
:mod:`dcglab.collections.pooling`, :func:`dcglab.ndcg` and :mod:`dcglab.evaluation.batch.binary` by
``tests/test_pool_explorer.py``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import traitlets as t

from dcglab.book.explorers.base import Explorer, bundle
from dcglab.collections.pooling import Judgments, kendall_tau, pool
from dcglab.evaluation.batch.binary import Ranking, binary_measure
from dcglab.formulas.measures import ndcg

RULES = ("zero", "condensed")
"""Rules for unjudged documents: scored as grade 0, or removed (condensed list)."""
WIDTH = 2
"""Characters per document index in the encoded lists (base 36, so up to 1,296 documents
per query)."""


def encode_indices(indices: Sequence[int]) -> str:
    """Document indices as fixed-width base-36 digits.

    Examples
    --------
    >>> encode_indices([0, 35, 36, 1295])
    '000z10zz'
    """
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    if any(not 0 <= i < 36**WIDTH for i in indices):
        raise ValueError(f"indices must lie in 0..{36**WIDTH - 1}, got {list(indices)}")
    return "".join(digits[i // 36] + digits[i % 36] for i in indices)


def decode_indices(text: str) -> list[int]:
    """Inverse of :func:`encode_indices`.

    Examples
    --------
    >>> decode_indices("000z10zz")
    [0, 35, 36, 1295]
    """
    return [int(text[i : i + WIDTH], 36) for i in range(0, len(text), WIDTH)]


def explorer_data(
    runs: Mapping[str, Mapping[Any, Sequence[Any]]],
    truth: Judgments,
    queries: Sequence[Any],
    top: int = 20,
    k: int = 10,
) -> dict[str, Any]:
    """The explorer's data: the top ``top`` documents of each run for each query.

    Parameters
    ----------
    runs : mapping
        Run name -> ranking (query -> documents, best first), in the order in which
        the explorer adds them to the pool.
    truth : Judgments
        Complete judgments; documents they do not list have grade 0. Grades must be
        integers from 0 to 9.
    queries : sequence
        The queries to keep.
    top, k : int
        How many documents of each run to keep, and the cutoff of nDCG.

    Returns
    -------
    dict
        ``names`` (run names), ``k``, ``grades`` (per query, one digit per local
        document), ``ideal`` (per query, the complete judgments' positive grades,
        best first, as digits) and ``lists`` (``lists[run][query]``: local document
        indices, best first, encoded by :func:`encode_indices`).
    """
    names = list(runs)
    grades, ideal, lists = [], [], [[] for _ in names]
    for q in queries:
        docs = sorted({d for run in runs.values() for d in run.get(q, [])[:top]})
        where = {d: i for i, d in enumerate(docs)}
        known = truth.get(q, {})
        values = [known.get(d, 0) for d in docs] + list(known.values())
        if any(int(g) != g or not 0 <= g <= 9 for g in values):
            raise ValueError(f"query {q}: explorer_data needs integer grades from 0 to 9")
        grades.append("".join(str(int(known.get(d, 0))) for d in docs))
        ideal.append("".join(str(int(g)) for g in sorted(known.values(), reverse=True) if g > 0))
        for i, run in enumerate(runs.values()):
            lists[i].append(encode_indices([where[d] for d in run.get(q, [])[:top]]))
    return {"names": names, "k": k, "grades": grades, "ideal": ideal, "lists": lists}


def _scores(data: dict[str, Any], depth: int, n_pool: int, rule: str):
    """Per run and query: nDCG@k with complete judgments, nDCG@k on the pool, and
    the judged and retrieved flags of its top k (for Judged@k)."""
    k = data["k"]
    lists = [[decode_indices(text) for text in run] for run in data["lists"]]
    pooled = pool([dict(enumerate(run)) for run in lists[:n_pool]], depth)
    full = np.zeros((len(lists), len(data["grades"])))
    on_pool = np.zeros_like(full)
    judged = np.zeros((len(lists), len(data["grades"]), k), dtype=bool)
    for r, run in enumerate(lists):
        for q, (docs, digits) in enumerate(zip(run, data["grades"])):
            in_pool = pooled.get(q, set())
            true = [int(digits[d]) for d in docs]
            seen = [d in in_pool for d in docs]
            kept = [g for g, s in zip(true, seen) if s] if rule == "condensed" else None
            shown = kept if kept is not None else [g if s else 0 for g, s in zip(true, seen)]
            ideal = [int(c) for c in data["ideal"][q]] or [0]
            pool_ideal = [int(digits[d]) for d in in_pool] or [0]
            full[r, q] = ndcg(true or [0], k, judged=ideal, zero_idcg="zero")
            on_pool[r, q] = ndcg(shown or [0], k, judged=pool_ideal, zero_idcg="zero")
            judged[r, q, : min(k, len(docs))] = seen[:k]
    sizes = [len(pooled.get(q, ())) for q in range(len(data["grades"]))]
    return full, on_pool, judged, sizes


class PoolExplorer(Explorer):
    """Pool depth, number of contributing runs and the unjudged rule: each run's nDCG@k
    on the pool against complete judgments, Kendall's tau and Judged@k."""

    name = "pool"
    params = ("data", "depth", "contributors", "rule")
    _esm = bundle("pool_twin.js", "pool.js")
    data = t.Dict().tag(sync=True)
    depth = t.Int(10).tag(sync=True)
    contributors = t.Int(3).tag(sync=True)
    rule = t.Unicode("zero").tag(sync=True)

    def __repr__(self) -> str:
        """Leave the embedded data out of the text form."""
        return (
            f"PoolExplorer(depth={self.depth}, contributors={self.contributors}, "
            f"rule={self.rule!r})"
        )

    @classmethod
    def compute(cls, state: dict[str, Any]) -> dict[str, float | None]:
        """Mean over runs of the change (pooled − complete) for the contributors and
        the others, Kendall's tau between the two orders of the runs (``None`` when
        one order ties every run), judged documents per query, and the others'
        mean Judged@k (``None`` when every run contributes)."""
        data, n_pool = state["data"], state["contributors"]
        if state["rule"] not in RULES:
            raise ValueError(f"rule must be one of {RULES}, got {state['rule']!r}")
        full, on_pool, judged, sizes = _scores(data, state["depth"], n_pool, state["rule"])
        full_mean, pool_mean = full.mean(axis=1), on_pool.mean(axis=1)
        change = pool_mean - full_mean
        try:
            tau: float | None = kendall_tau(full_mean, pool_mean)
        except ValueError:  # every run tied in one order
            tau = None
        out: dict[str, float | None] = {
            "tau": tau,
            "pooled_per_query": float(np.mean(sizes)),
            "change_in": float(change[:n_pool].mean()),
            "change_out": None,
            "judged_out": None,
        }
        if n_pool < len(full):
            flags = judged[n_pool:].reshape(-1, data["k"])
            n_ret = np.array(
                [
                    min(data["k"], len(text) // WIDTH)
                    for run in data["lists"][n_pool:]
                    for text in run
                ]
            )
            none = np.zeros(len(flags), dtype=int)
            share = binary_measure("Judged", data["k"], Ranking(flags, flags, n_ret, none, none))
            out["change_out"] = float(change[n_pool:].mean())
            out["judged_out"] = float(share.mean())
        return out
