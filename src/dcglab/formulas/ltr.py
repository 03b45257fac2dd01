r"""nDCG in learning to rank: the change in nDCG when two documents swap places.

Swapping the documents at ranks :math:`i` and :math:`j` changes DCG by
:math:`(g_j - g_i)(w_i - w_j)` (only those two terms move), so

.. math:: \Delta\mathrm{nDCG}_{ij} = \frac{(g_j - g_i)(w_i - w_j)}{\mathrm{IDCG}},

with :math:`w_i = 0` beyond the cutoff. LambdaRank (Burges 2010) weights the
gradient of each pair by :math:`|\Delta\mathrm{nDCG}_{ij}|`.
"""

from __future__ import annotations

import numpy as np

from dcglab.formulas.discounts import Discount, DiscountSpec
from dcglab.formulas.gains import GainSpec, as_grades, gain_values
from dcglab.formulas.measures import Grades, check_k, clamp_k, idcg, ndcg_ratio


def swap_deltas(
    grades: Grades,
    k: int | None = None,
    *,
    gain: GainSpec = "exponential",
    discount: DiscountSpec = "log2",
    judged: Grades | None = None,
) -> np.ndarray:
    r"""Matrix of :math:`\Delta\mathrm{nDCG}@k_{ij}` for swapping ranks ``i`` and ``j``.

    Parameters
    ----------
    grades : sequence of float
        Grades in rank order.
    k : int, optional
        Cutoff; ranks beyond it have weight 0. When omitted, neither the ranking
        nor the ideal is cut, as in :func:`dcglab.formulas.measures.ndcg`.
    gain : default ``"exponential"`` (LambdaRank's :math:`2^{rel}-1`)
    discount : default ``"log2"``
    judged : sequence of float, optional
        All judged grades, for IDCG (default: the ranking itself).

    Returns
    -------
    numpy.ndarray
        Symmetric: entry ``[i, j]`` (and ``[j, i]``) is the change in nDCG@k when
        the documents at ranks ``i+1`` and ``j+1`` swap; the diagonal is 0.

    Raises
    ------
    ValueError
        If IDCG is 0 (nothing relevant: no swap can change anything).

    Examples
    --------
    >>> d = swap_deltas([0, 3], gain="linear")
    >>> round(float(d[0, 1]), 4)  # moving the 3 to the top makes the ranking ideal
    0.3691
    """
    arr = as_grades(grades)
    kk = clamp_k(check_k(k, len(arr)), len(arr))
    g = gain_values(arr, gain)
    w = np.zeros(len(arr))
    w[:kk] = Discount.parse(discount).weights(kk)
    ideal = idcg(arr if judged is None else judged, k, gain, discount)  # uncut when k is None
    if ideal <= 0:
        raise ValueError("IDCG is 0: no swap can change nDCG")
    change = (g[None, :] - g[:, None]) * (w[:, None] - w[None, :])  # change in DCG
    return ndcg_ratio(change, ideal) + 0.0  # type: ignore[operator]  # + 0.0: no -0.0
