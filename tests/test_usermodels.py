"""AP, RR, RBP and ERR against hand-derived cases and independent implementations."""

import numpy as np
import pytest

from dcglab.formulas.usermodels import (
    average_precision,
    err,
    err_reach,
    err_stop,
    n_relevant,
    rbp,
    rbp_weights,
    recall_at,
    reciprocal_rank,
)


def test_hand_derived():
    # V = 3,0,1,1,1,0: precision 1, 2/3, 3/4, 4/5 at the relevant ranks
    assert average_precision([3, 0, 1, 1, 1, 0]) == pytest.approx((1 + 2 / 3 + 3 / 4 + 4 / 5) / 4)
    assert average_precision([1, 1, 1, 3, 0, 0]) == 1.0
    assert average_precision([0, 2], judged=[2, 3, 0]) == pytest.approx(0.5 / 2)
    assert average_precision([0, 0]) == 0.0
    assert reciprocal_rank([0, 0, 1]) == pytest.approx(1 / 3)
    assert reciprocal_rank([0, 0]) == 0.0
    assert rbp([1, 0, 1], p=0.5) == pytest.approx(0.5 * (1 + 0.25))
    # ERR of [3, 0]: stop at rank 1 with probability 7/8
    assert err([3, 0]) == pytest.approx(7 / 8)
    # [1, 3]: R1 = 1/8, R2 = 7/8 -> 1/8 + (7/8)(7/8)/2
    assert err([1, 3]) == pytest.approx(1 / 8 + (7 / 8) * (7 / 8) / 2)
    assert err_reach([1, 3]).tolist() == [1.0, 7 / 8]
    # 3, 0, 1 out of judged 3, 2, 1, 0: R = 3, relevant at ranks 1 and 3
    assert n_relevant([3, 0, 1], judged=[3, 2, 1, 0]) == 3
    recall = recall_at([3, 0, 1], judged=[3, 2, 1, 0])
    assert recall.tolist() == pytest.approx([1 / 3, 1 / 3, 2 / 3])
    assert recall_at([0, 2, 1]).tolist() == pytest.approx([0, 1 / 2, 1])
    assert recall_at([1, 2], threshold=2).tolist() == [0.0, 1.0]
    assert recall_at([0, 0]).tolist() == [0.0, 0.0]


def test_rbp_weights_and_err_stop_by_hand():
    assert rbp_weights(4, p=0.5).tolist() == [0.5, 0.25, 0.125, 0.0625]
    assert rbp([1, 1, 0, 1], p=0.5) == pytest.approx(0.5 + 0.25 + 0.0625, abs=1e-15)
    # R_i = (2^g - 1) / 2^3 for grades 0..3
    assert err_stop([0, 1, 2, 3]).tolist() == [0.0, 1 / 8, 3 / 8, 7 / 8]
    assert err_stop([2], max_grade=2).tolist() == [3 / 4]


def test_rbp_limits():
    ones = [1] * 200
    assert rbp(ones, 0.8) == pytest.approx(1.0, abs=1e-12)
    assert rbp([0] * 5, 0.8) == 0.0


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: rbp([1], p=1.0), "p .patience."),
        (lambda: err([4]), "max_grade"),
        (lambda: average_precision([-1]), "grades must be >= 0"),
        (lambda: average_precision([3, 3], judged=[3]), "more documents of grade"),
        (lambda: recall_at([3, 3], judged=[3]), "more documents of grade"),
    ],
)
def test_bad_input(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_ap_rr_and_recall_agree_with_trec_eval(references):
    rng = np.random.default_rng(3)
    qrels, run, grades = {}, {}, {}
    for q in range(30):
        judged = {f"d{i}": int(rng.integers(0, 4)) for i in range(10)}
        judged["d0"] = max(judged["d0"], 1)
        docs = [f"d{i}" for i in rng.permutation(14)]  # d10..d13 are unjudged
        qrels[f"q{q}"] = judged
        run[f"q{q}"] = {d: float(len(docs) - r) for r, d in enumerate(docs)}
        grades[f"q{q}"] = ([judged.get(d, 0) for d in docs], list(judged.values()))
    measures = {"map", "recip_rank", "recall.1,3,5,10"}
    result = references.trec_eval(qrels, run, measures)
    for q, (g, j) in grades.items():
        assert average_precision(g, judged=j) == pytest.approx(result[q]["map"], abs=1e-12)
        assert reciprocal_rank(g) == pytest.approx(result[q]["recip_rank"], abs=1e-12)
        recall = recall_at(g, judged=j)
        for k in (1, 3, 5, 10):
            assert recall[k - 1] == pytest.approx(result[q][f"recall_{k}"], abs=1e-12)
