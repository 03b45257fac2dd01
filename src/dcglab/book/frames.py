"""Small qrels and runs as DataFrames, for the book's worked examples, and dcglab's
value of a measure on a one-query example."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

__all__ = ["one_query_value", "run_frame"]


def run_frame(order: Mapping[str, Sequence[str]]) -> pd.DataFrame:
    """A run with columns ``qid``, ``docno``, ``score`` from each query's documents in
    rank order: the document at rank :math:`r` of :math:`n` scores :math:`n - r + 1`,
    so that ranking by score gives the order back.

    Examples
    --------
    >>> run_frame({"q1": "ab", "q2": ["c"]}).values.tolist()
    [['q1', 'a', 2.0], ['q1', 'b', 1.0], ['q2', 'c', 1.0]]
    """
    rows = [(q, d, float(len(ds) - r)) for q, ds in order.items() for r, d in enumerate(ds)]
    return pd.DataFrame(rows, columns=["qid", "docno", "score"])


def one_query_value(
    qrels: pd.DataFrame, run: pd.DataFrame, measure: str, **conventions: Any
) -> float:
    """The value of one measure on a run of one query, by :func:`dcglab.evaluation.batch.evaluate`
    with the given conventions (``ideal``, ``ties``, ``gain``, ...).

    Examples
    --------
    >>> qrels = pd.DataFrame({"qid": "q1", "docno": ["a", "b"], "grade": [1, 0]})
    >>> one_query_value(qrels, run_frame({"q1": "ba"}), "P.1")
    0.0
    """
    from dcglab.evaluation.batch import evaluate

    return float(evaluate(qrels, run, [measure], **conventions).per_query.iloc[0, 0])
