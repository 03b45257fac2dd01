r"""Evaluate every query of a run in one vectorised pass.

The run becomes a padded matrix (queries × retrieved documents) of grade
levels in trec_eval's order (score, then docno, descending:
:func:`dcglab.evaluation.batch.codes.trec_ranking`); gains and relevance are looked up from the
levels, DCG at every cutoff is a prefix sum, and the ideal comes from the
qrels' gains.

Conventions, all explicit (see :func:`evaluate`); the names are those of the
single-query API (:func:`dcglab.ndcg`) and of the command line:

=====================  =============================================  ======================
convention             options                                        used by
=====================  =============================================  ======================
``ideal``              ``"judged"`` ideal from the qrels, cut at k     trec_eval ``ndcg_cut``,
                       (alias ``"qrels-cut"``)                        ranx, ir_measures
                       ``"judged-uncut"`` ideal from the qrels,        trec_eval ``ndcg``
                       never cut (alias ``"qrels"``)                  (no k)
                       ``"retrieved"`` ideal from the run's items      scikit-learn,
                                                                      torchmetrics
``ties``               ``"trec"`` score desc, then docno desc          trec_eval, ir_measures
                       ``"average"`` gains averaged over tied scores   scikit-learn
``score_precision``    ``"double"``: scores compared as read           trec_eval 10.0
                       ``"float32"``: rounded to float32 first, so     trec_eval 9.x,
                       scores closer than that tie                    pytrec_eval, ir_measures
``zero_idcg``          ``"error"``, ``"zero"``, ``"one"``, ``"skip"``  trec_eval scores 0
``missing``            ``"ignore"``, ``"zero"`` or ``"error"`` for     trec_eval ``-c`` is
                       qrels queries absent from the run              ``"zero"``, else
                                                                      ``"error"``
``fractional_grades``  ``"keep"`` or ``"truncate"`` toward zero      trec_eval truncates
                                                                      (C's ``atol``)
``negative_grades``    ``"gain"``: through the gain like any grade;    trec_eval is
                       ``"unjudged"``: gain 0, never relevant, not    ``"unjudged"``
                       judged for ``judged_only``
=====================  =============================================  ======================

Where the order of a sum changes its last bit, and so possibly the fourth
printed decimal, the sums follow trec_eval: DCG adds ``gain / log2(i + 1)``
rank by rank (:func:`numpy.cumsum` is sequential), and the mean over queries
adds the values in query order (:meth:`dcglab.evaluation.batch.result.BatchResult.means`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache
from typing import Unpack

import numpy as np

from dcglab.evaluation.batch.all_trec import ideal_gains, pool, trec_values
from dcglab.evaluation.batch.binary import binary_values
from dcglab.evaluation.batch.codes import average_ties
from dcglab.evaluation.batch.levels import measure_gains
from dcglab.evaluation.batch.preparation import Prepared, prepare
from dcglab.evaluation.batch.reader import Source
from dcglab.evaluation.batch.result import BatchResult
from dcglab.evaluation.batch.user_models import user_values
from dcglab.evaluation.measure_names import Measure, measure_specs
from dcglab.evaluation.options import ConventionKeywords, Conventions
from dcglab.formulas.discounts import Discount
from dcglab.formulas.measures import clamp_k, ndcg_ratio

__all__ = ["compute", "evaluate", "measure_list", "refuse_non_finite"]


def measure_list(measures: Sequence[str], conventions: Conventions) -> list[Measure]:
    """The measures parsed (:func:`dcglab.evaluation.measure_names.measure_specs`), refused when
    the conventions cannot compute them: ``ties="average"`` is a rule for DCG only."""
    specs = measure_specs(measures)
    if conventions.ties == "average" and any(m.record.kernel in ("binary", "user") for m in specs):
        raise ValueError("ties='average' applies to DCG measures only; use ties='trec'")
    return specs


def _conventions_for(p: Prepared, conventions: Conventions | None, options: dict) -> Conventions:
    """The conventions for :func:`compute`: those ``p`` was prepared with, the given
    ones or ``options`` replacing them; an option applied when reading must not differ."""
    c = Conventions.of(p.conventions if conventions is None else conventions, **options)
    read = c.stage("read")
    for name, value in p.conventions.stage("read").items():
        if read[name] != value:
            raise ValueError(
                f"{name}={read[name]!r}: {name} is applied when the tables are read; "
                f"pass it to prepare(), which used {name}={value!r}"
            )
    return c


def compute(
    p: Prepared,
    measures: Sequence[str] = ("ndcg_cut.10",),
    *,
    conventions: Conventions | None = None,
    **options: Unpack[ConventionKeywords],
) -> BatchResult:
    """The measures for every prepared query: the purely numerical part of :func:`evaluate`.

    ``conventions`` and ``options`` are those of :func:`evaluate`; by default the
    conventions ``p`` was prepared with (:attr:`Prepared.conventions`).
    """
    c = _conventions_for(p, conventions, dict(options))
    specs = measure_list(measures, c)
    cuts = [m.k for m in specs]
    # Only the top max(k) ranks matter unless a measure has no cutoff or ties are
    # averaged (a tied group may straddle the cutoff).
    depth = None if None in cuts or c.ties == "average" else max(cuts)
    index = p.ranked_index[:, :depth]
    keys = p.ranked_scores  # under ties="average" (then depth is None): groups of equal scores
    if index.shape[1] == 0:  # nothing ranked (max_docs=0): one unjudged place of gain 0
        index = np.full((len(index), 1), len(p.levels), dtype=index.dtype)
        keys = np.full(index.shape, np.nan)
    rows = slice(None) if p.byte_order is None else p.byte_order  # results in byte order
    qids = p.qids[rows]
    trec = [m for m in specs if m.record.kernel == "trec"]
    binary = [m for m in specs if m.record.kernel == "binary"]
    users = [m for m in specs if m.record.kernel == "user"]

    def others() -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
        values = binary_values(binary, p, index, c.relevance_level, c.corrected, c.ir_measures)
        values |= user_values(users, p, index, keys[:, : index.shape[1]], c.ir_measures)
        dcgs = [m for m in specs if m.name not in values and m.record.kernel != "trec"]
        return values, _dcg_values(dcgs, p, index, keys, c, rows, qids)

    # the other measures on one core while the first blocks of trec_eval's own
    # measures go on the other; then both cores take the remaining blocks
    with ThreadPoolExecutor(2) as cores:  # numpy releases the GIL on large arrays
        pending = cores.submit(others)
        values = trec_values(trec, p, index, c.relevance_level, c.corrected, cores)
        done, ranked = pending.result()
    values |= done
    out = {m.name: ranked[m.name] if m.name in ranked else values[m.name][rows] for m in specs}
    dcg_names = {m.name for m in specs if m.record.kernel == "dcg"}
    refuse_non_finite(out, qids, c.zero_idcg, dcg_names)
    return BatchResult(qids, out, {m.name: m for m in specs})


def _dcg_values(
    specs: Sequence[Measure],
    p: Prepared,
    index: np.ndarray,
    keys: np.ndarray,
    c: Conventions,
    rows: slice | np.ndarray,
    qids: np.ndarray,
) -> dict[str, np.ndarray]:
    """The DCG measures of ``specs`` from their curves (:func:`_dcg_curves`, one per
    gain table), each query's value taken in the order ``rows`` (the queries
    ``qids``)."""
    width = index.shape[1]
    out: dict[str, np.ndarray] = {}
    curves: dict[bytes, tuple[np.ndarray, np.ndarray]] = {}  # by gain table, its bytes
    for m in specs:
        table = (
            p.level_gains
            if m.gain is None
            else measure_gains(p.levels, m, p.conventions.negative_grades)
        )
        walk = None if c.corrected else _trec_walk(p, m, index)
        key = table.tobytes() + (b"walk" if walk is not None else b"")
        if key not in curves:
            curves[key] = _dcg_curves(p, table, index, keys, c, walk)
        dcg, best = curves[key]
        d = (dcg[:, clamp_k(m.k, width) - 1] if m.k else dcg[:, -1])[rows]
        if not m.record.normalised:
            out[m.name] = d
            continue
        cut = m.k is not None and c.ideal != "judged-uncut"
        i = (best[:, clamp_k(m.k, best.shape[1]) - 1] if cut else best[:, -1])[rows]
        out[m.name] = ndcg_ratio(d, i, c.zero_idcg, queries=qids, measure=m.name)
    return out


def _trec_walk(p: Prepared, m: Measure, index: np.ndarray) -> np.ndarray | None:
    """For trec_eval's ``ndcg.G=V,...`` (a gain table in trec_eval's syntax), the
    ideal's gains in the order trec_eval walks them
    (:func:`dcglab.evaluation.batch.all_trec.ideal_gains`: its sort compares
    gains truncated to integers); ``None`` for any other measure."""
    trec_table = isinstance(m.gain, dict) and m.name.startswith(f"{m.family}_")
    if not (trec_table and m.record.normalised and m.k is None):
        return None
    table = {int(g): float(v) for g, v in m.gain.items()}  # type: ignore[union-attr]
    return ideal_gains(pool(p, index[:, :0], 1), table)


def refuse_non_finite(
    out: dict[str, np.ndarray],
    qids: np.ndarray,
    zero_idcg: str,
    dcg_names: set[str] | None = None,
) -> None:
    """Raise on the first value that is not a finite number. NaN is allowed under
    ``zero_idcg="skip"``, and where trec_eval prints ``-nan``: in any measure that
    is not one of the DCG measures ``dcg_names`` (``None``: every measure is);
    text (``relstring``) is not checked."""
    for name, v in out.items():
        if v.dtype == object:
            continue
        bad = ~np.isfinite(v) & ~(np.isnan(v) & (zero_idcg == "skip"))
        if dcg_names is not None and name not in dcg_names:
            bad &= ~np.isnan(v)
        if bad.any():
            raise ValueError(
                f"{name}: query {qids[np.flatnonzero(bad)[0]]} gives {v[bad][0]}, "
                "not a finite number (gains too large?)"
            )


def _dcg_curves(
    p: Prepared,
    table: np.ndarray,
    index: np.ndarray,
    keys: np.ndarray,
    c: Conventions,
    walk: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """DCG and IDCG at every cutoff, for one gain table; ``walk``, when given, is
    the ideal's gains in trec_eval's order (:func:`_trec_walk`)."""
    g = table[index]
    if c.ties == "average":
        g = average_ties(g, keys)
    with np.errstate(over="ignore", invalid="ignore"):  # compute() reports non-finite sums
        dcg = np.cumsum(_discounted(g, c.discount), axis=1, out=g)
    if walk is not None:
        source = walk
    elif c.ideal == "retrieved":
        source = -np.sort(-table[p.ranked_index], axis=1)
    elif table is p.level_gains:
        source = p.judged_gains
    else:
        source = -np.sort(-table[p.judged_index], axis=1)
    source = np.maximum(source, 0.0)  # the best ranking leaves negative gains out
    with np.errstate(over="ignore", invalid="ignore"):
        best = np.cumsum(_discounted(source, c.discount), axis=1)
    return dcg, best


TREC_DISCOUNT = Discount("log", 2.0)


@lru_cache(maxsize=8)
def _log2_ranks(n: int) -> np.ndarray:
    r""":math:`\log_2(i + 1)` for ranks :math:`i = 1..n`, from the C library's ``log2``
    (as trec_eval computes them; numpy's vectorised ``log2`` may differ in the last bit)."""
    out = np.array([math.log2(float(i)) for i in range(2, n + 2)])
    out.flags.writeable = False
    return out


def _discounted(g: np.ndarray, disc: Discount) -> np.ndarray:
    r"""Gains (a matrix in rank order) times their rank's discount, in place.

    Under the log2 discount each gain is divided by :math:`\log_2(i + 1)`, as
    trec_eval does: multiplying by the weight :math:`1/\log_2(i + 1)` can
    differ in the last bit, which can move the fourth printed decimal.
    """
    if disc == TREC_DISCOUNT:
        g /= _log2_ranks(g.shape[1])
    else:
        g *= disc.weights(g.shape[1])
    return g


def evaluate(
    qrels: Source,
    run: Source,
    measures: Sequence[str] = ("ndcg_cut.10",),
    *,
    conventions: Conventions | None = None,
    **options: Unpack[ConventionKeywords],
) -> BatchResult:
    r"""nDCG (and trec_eval's binary measures) of every query of a run, for several cutoffs at once.

    .. math:: \mathrm{nDCG}@k_q = \frac{\sum_{i \le k} g(rel_{q,i})\,w_i}{\mathrm{IDCG}@k_q}

    Parameters
    ----------
    qrels, run : path or DataFrame
        See :func:`dcglab.evaluation.batch.reader.read_qrels` and
        :func:`dcglab.evaluation.batch.reader.read_run`.
    measures : sequence of str
        ``ndcg``, ``ndcg_cut.K`` (``K`` may be a comma list), ``nDCG@K``, ``dcg``,
        ``dcg_cut.K``, ``ndcg.G=V,...`` (trec_eval's gain table for this measure:
        unlisted grades keep their grade as gain), trec_eval's other measures
        (``map``, ``recip_rank``, ``P.K``, ``recall.K``, ``all_trec``, ...) and
        ir_measures' names, ``ERR@K`` and ``RBP(p=P,rel=L)@K`` among them
        (:mod:`dcglab.evaluation.batch.user_models`).
    conventions : Conventions or mapping, optional
        All the options below as one checked value
        (:class:`dcglab.evaluation.options.Conventions`), or as a mapping such as
        :data:`dcglab.evaluation.presets.TREC_EVAL` (``conventions=TREC_EVAL`` gives
        the command line's conventions); keyword options given as well replace its
        fields. Another type is a ``TypeError`` naming this parameter. Each option
        is declared once, with its check, in :data:`dcglab.evaluation.options.OPTIONS`.
    gain, discount
        As in :func:`dcglab.formulas.measures.dcg`; unjudged documents have gain 0.
    ideal : {"judged", "judged-uncut", "retrieved"}
        Where IDCG comes from (module table); ``"qrels-cut"`` and ``"qrels"`` are
        accepted aliases of the first two.
    ties : {"trec", "average"}
        Tie rule (module table).
    zero_idcg : {"error", "zero", "one", "skip"}
        Policy for queries whose IDCG is 0; ``"skip"`` leaves NaN, which drops
        the query from the mean.
    missing : {"ignore", "zero", "error"}
        Whether queries in the qrels but not in the run are left out, scored
        with an empty ranking (trec_eval ``-c``), or refused with a
        ``ValueError`` naming the first one (trec_eval without ``-c``).
    negative_grades : {"gain", "unjudged"}
        ``"gain"``: a negative grade goes through ``gain`` like any other (a
        table may give it a gain; linear and exponential gains reject it).
        ``"unjudged"``: trec_eval's reading, gain 0 and never relevant.
    relevance_level : int, default 1
        The grade (an integer >= 0) from which a document counts as relevant
        for the binary measures (trec_eval ``-l``); nDCG ignores it.
    max_docs : int, optional
        Keep only each query's top ``max_docs`` documents (trec_eval ``-M``).
    judged_only : bool, default False
        Drop unjudged documents before ranking (trec_eval ``-J``).
    fractional_grades : {"keep", "truncate"}
        ``"truncate"`` reads grades as trec_eval does, truncated toward zero
        (2.5 is 2, -0.5 is 0, -1.5 is -1); ``"keep"`` uses them as they are.
    score_precision : {"double", "float32"}
        ``"double"`` compares scores as read, as trec_eval 10.0 does;
        ``"float32"`` rounds them to float32 first, as trec_eval 9.x,
        pytrec_eval and ir_measures do, so scores closer than that tie and are
        ordered by docno.

    Returns
    -------
    BatchResult
        ``per_query`` has one row per evaluated query, sorted by qid.
    """
    c = Conventions.of(conventions, **options)
    measure_list(measures, c)  # fail before reading
    return compute(prepare(qrels, run, conventions=c), measures, conventions=c)
