"""AP, RR, RBP and ERR against hand-derived cases and independent implementations."""

import numpy as np
import pytest

from dcglab.usermodels import average_precision, err, err_reach, rbp, reciprocal_rank


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
    ],
)
def test_bad_input(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_ap_and_rr_agree_with_trec_eval():
    pytrec_eval = pytest.importorskip("pytrec_eval")
    rng = np.random.default_rng(3)
    qrels, run, grades = {}, {}, {}
    for q in range(30):
        judged = {f"d{i}": int(rng.integers(0, 4)) for i in range(10)}
        judged["d0"] = max(judged["d0"], 1)
        docs = [f"d{i}" for i in rng.permutation(14)]  # d10..d13 are unjudged
        qrels[f"q{q}"] = judged
        run[f"q{q}"] = {d: float(len(docs) - r) for r, d in enumerate(docs)}
        grades[f"q{q}"] = ([judged.get(d, 0) for d in docs], list(judged.values()))
    result = pytrec_eval.RelevanceEvaluator(qrels, {"map", "recip_rank"}).evaluate(run)
    for q, (g, j) in grades.items():
        assert average_precision(g, judged=j) == pytest.approx(result[q]["map"], abs=1e-12)
        assert reciprocal_rank(g) == pytest.approx(result[q]["recip_rank"], abs=1e-12)
