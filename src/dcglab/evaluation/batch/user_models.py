r"""ERR and RBP, the user-model measures named as ir_measures names them, for many
queries at once.

Each query is a row in rank order; the formulas are those of the single-list API
(:mod:`dcglab.formulas.usermodels`), applied along the rows.

- ``ERR@k`` (Chapelle et al. 2009): :func:`dcglab.formulas.usermodels.err_curve` of the
  stopping probabilities :math:`s_i = (2^{r_i}-1)/2^{4}`
  (:func:`dcglab.formulas.usermodels.err_stop` with gdeval's maximum grade 4, the
  TREC Web track's tool, which ir_measures runs for ERR). A negative grade read as
  unjudged (``negative_grades="unjudged"``, trec_eval's and gdeval's reading) and an
  unjudged document stop no one (:math:`s_i = 0`); a grade above 4 is refused.
- ``RBP(p=P,rel=L)@k`` (Moffat and Zobel 2008):
  :func:`dcglab.formulas.usermodels.rbp_curve`, :math:`(1-p)\sum_{i \le k} g_i p^{i-1}`,
  where :math:`g_i` is 1 for a document at least as relevant as ``rel`` (the
  binary measures' relevance) and 0 otherwise, or without ``rel`` the document's
  gain under the ``gain`` option (linear: its grade), so that graded RBP may exceed 1.
  ``p`` defaults to 0.8, as in ir_measures.

With ``ir_measures`` (:data:`dcglab.evaluation.presets.IR_MEASURES`) RBP follows the
code ir_measures 0.4.3 runs for it:

- ``RBP(rel=L)``: cwl_eval (its default pipeline). A judged document is relevant
  when :math:`\max(r, 0) \ge L`; the ranking is cut or padded to
  :data:`CWL_DEPTH` = 1000 ranks and the weights are made to sum to 1 over them,
  :math:`p^{i-1}(1-p)/(1-p^{1000})` (``cwl/ruler/measures/cwl_metrics.py``,
  ``w_vector``).
- ``RBP`` without ``rel``: trectools' ``get_rbp(..., binary_topical_relevance=False,
  average_ties=True)`` (ir_measures' trectools provider, which its default pipeline
  leaves out). Each group of tied scores within the top ``k`` shares its mean
  weight (:func:`dcglab.evaluation.batch.codes.average_ties`).

``ERR@k`` needs no such switch: gdeval orders ties as trec_eval does (score, then
docno, descending) and reads negative grades as 0.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from dcglab.evaluation.batch.binary import level_flags
from dcglab.evaluation.batch.codes import average_ties
from dcglab.evaluation.batch.reader import locate
from dcglab.evaluation.measure_names import Measure
from dcglab.formulas.measures import clamp_k
from dcglab.formulas.usermodels import err_curve, err_stop, rbp_curve

__all__ = ["CWL_DEPTH", "ERR_MAX_GRADE", "FAMILIES", "err_stops", "user_values"]

ERR_MAX_GRADE = 4
"""gdeval's ``$MAX_JUDGMENT``: ERR's :math:`r_{\\max}`, the highest grade it accepts."""
CWL_DEPTH = 1000
"""The ranks cwl_eval reads (``max_n`` as ir_measures' provider builds its rankings)."""
FAMILIES = ("ERR", "RBP")
"""The measure families this module computes."""


def err_stops(p, name: str) -> np.ndarray:
    """ERR's stopping probability of each grade level of prepared ``p``, then 0 for
    an unjudged document (one more entry); ``name`` is the measure, for errors, which
    also name the grade and its first qrels line."""
    levels = p.levels
    judged = levels >= 0 if p.negative_grades == "unjudged" else np.ones(len(levels), bool)
    bad = np.flatnonzero(judged & ((levels < 0) | (levels > ERR_MAX_GRADE)))
    if len(bad):
        grade = float(levels[bad[0]])
        where = locate(p.qrels_origin, int(p.level_rows[bad[0]]))
        hint = (
            "; negative_grades='unjudged' reads negative grades as gdeval and trec_eval do"
            if grade < 0
            else ""
        )
        raise ValueError(
            f"{where}: measure {name!r}: grade {grade:g} is outside ERR's grades "
            f"0 to {ERR_MAX_GRADE} (gdeval's){hint}"
        )
    stop = np.zeros(len(levels) + 1)
    stop[:-1][judged] = err_stop(levels[judged], ERR_MAX_GRADE) if judged.any() else 0.0
    return stop


def _at(curve: np.ndarray, k: int | None) -> np.ndarray:
    """A curve's value at cutoff ``k`` (the whole ranking for ``None``)."""
    return curve[:, clamp_k(k, curve.shape[1]) - 1] if k else curve[:, -1]


def _rbp(m: Measure, p, index: np.ndarray, keys: np.ndarray, ir_measures: bool) -> np.ndarray:
    """RBP of measure ``m`` for every row (see the module's docstring)."""
    persistence = float(m.param)  # type: ignore[arg-type]
    depth = m.k
    if ir_measures and m.rel is not None:
        depth = min(depth or CWL_DEPTH, CWL_DEPTH)
    index = index[:, :depth]
    if m.rel is None:
        gains = p.level_gains[index]
        if ir_measures:
            gains = average_ties(gains, keys[:, : index.shape[1]])
    elif ir_measures:
        relevant = np.append(np.maximum(p.levels, 0) >= m.rel, False)
        gains = relevant[index].astype(float)
    else:
        gains = level_flags(p.levels, m.rel, p.negative_grades)[0][index].astype(float)
    value = rbp_curve(gains, persistence)[:, -1]
    if ir_measures and m.rel is not None:
        value = value / (1 - persistence**CWL_DEPTH)
    return value


def user_values(
    specs: Sequence[Measure], p, index: np.ndarray, keys: np.ndarray, ir_measures: bool = False
) -> dict[str, np.ndarray]:
    """ERR and RBP of ``specs`` for every query of prepared ``p`` (a
    :class:`dcglab.evaluation.batch.preparation.Prepared`) whose grade levels in rank
    order are ``index`` and scores ``keys`` (NaN: padding); ``ir_measures`` gives
    ir_measures' conventions (module docstring).

    Examples
    --------
    >>> import pandas as pd
    >>> from dcglab.evaluation.batch import evaluate
    >>> qrels = pd.DataFrame({"qid": "q", "docno": ["a", "b", "c"], "grade": [4, 0, 2]})
    >>> run = pd.DataFrame({"qid": "q", "docno": ["a", "b", "c"], "score": [3.0, 2.0, 1.0]})
    >>> r = evaluate(qrels, run, ["ERR@2", "ERR", "RBP(p=0.5)", "RBP(p=0.5,rel=3)"])
    >>> r.per_query.round(6).loc["q"].tolist()
    [0.9375, 0.941406, 2.25, 0.5]
    """
    out: dict[str, np.ndarray] = {}
    stops: np.ndarray | None = None
    for m in specs:
        if m.family == "ERR":
            if stops is None:
                stops = err_stops(p, m.name)
            out[m.name] = _at(err_curve(stops[index]), m.k)
        else:
            out[m.name] = _rbp(m, p, index, keys, ir_measures)
    return out
