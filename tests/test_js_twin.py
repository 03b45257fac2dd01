"""The explorers' JavaScript twin of the formulas (measures.js) agrees with dcglab.

measures.js is evaluated in Chromium over exhaustive small inputs: every grade
vector in {0..3}^6, both gains, every cutoff 1..6 and nine discounts (four log
bases, three Järvelin-Kekäläinen bases, patience and 1/i). The largest absolute
difference from dcglab must be at most 1e-12. Everything the explorers compute
goes through measures.js (the explorers' own files only draw), so this file covers
it all: the nDCG division and its IDCG = 0 policies, discounted gains, the weights
of the user models, and chapter 11's Cranfield decoding and direction changes.
"""

import itertools
import json
import math

import numpy as np
import pytest
from sitekit import twin_page

from dcglab import Discount, cg, curves, ideal_order, mean_ndcg
from dcglab.book.cranfield_payload import decode_codes, encode_codes
from dcglab.book.explorers import CutoffExplorer, SwapExplorer
from dcglab.book.explorers.base import twin_script
from dcglab.collections.cranfield import direction_changes
from dcglab.formulas.gains import gain_values
from dcglab.formulas.ltr import swap_deltas
from dcglab.formulas.measures import idcg, ndcg, ndcg_ratio
from dcglab.formulas.reversals import count_reversals, discordant_pairs, orderings
from dcglab.formulas.usermodels import (
    average_precision,
    err,
    err_reach,
    rbp,
    rbp_weights,
    reciprocal_rank,
)

TOL = 1e-12
GRADES = [list(g) for g in itertools.product(range(4), repeat=6)]
DISCOUNTS = [
    {"kind": "log", "base": 2.0},
    {"kind": "log", "base": math.e},
    {"kind": "log", "base": 10.0},
    {"kind": "log", "base": 1.5},
    {"kind": "jk", "base": 2.0},
    {"kind": "jk", "base": 3.5},
    {"kind": "jk", "base": 10.0},
    {"kind": "geometric", "p": 0.8},
    {"kind": "reciprocal"},
]
GAINS = ["linear", "exponential", {"exponential": 3.0}]


def py_discount(d):
    return Discount(d["kind"], base=d.get("base", 2.0), p=d.get("p", 0.8))


def py_gain(g):
    return g if isinstance(g, str) else f"exponential:{g['exponential']}"


@pytest.fixture(scope="module")
def twin(browser):
    exports = (
        "{gainValue, weights, dcgCurve, idealOrder, curves, cg, averagePrecision,"
        " reciprocalRank, rbp, err, errReach, orderings, discordantPairs, countReversals,"
        " meanNdcg, swapDeltas, discountedGains, ndcgRatio, ndcgAt, mean, countDrops,"
        " rbpWeights, errWeights, ndcgWeights, bestSwap, decodeCodes, directionChanges, LOG2,"
        " relativeWeight, contributions, reversalExamples}"
    )
    with twin_page(browser, twin_script(), exports) as page:
        yield page


def run_js(page, body, args):
    return page.evaluate(f"([G, D, N]) => {{ {body} }}", args)


def test_curves_agree_exhaustively(twin):
    js = run_js(
        twin,
        """const out = [];
        for (const n of N) for (const d of D) for (const g of G) {
          const c = twin.curves(g, null, n, d, 6);
          out.push(c.dcg.concat(c.idcg));
        }
        return out;""",
        [GRADES, DISCOUNTS, GAINS],
    )
    py = [
        np.concatenate(curves(g, gain=py_gain(n), discount=py_discount(d), kmax=6))
        for n in GAINS
        for d in DISCOUNTS
        for g in GRADES
    ]
    js_arr, py_arr = np.array(js, dtype=float), np.array(py)
    assert js_arr.shape == py_arr.shape == (len(GAINS) * len(DISCOUNTS) * len(GRADES), 12)
    assert np.max(np.abs(js_arr - py_arr)) <= TOL
    # nDCG is the ratio of the two halves; check the JS nulls are exactly the IDCG=0 rows.
    nulls = run_js(
        twin,
        "return G.map(g => twin.curves(g, null, 'linear', D[0], 6).ndcg.includes(null));",
        [GRADES, DISCOUNTS, GAINS],
    )
    assert nulls == [not any(g) for g in GRADES]


def test_ideal_from_more_judged_documents(twin):
    short = [list(g) for g in itertools.product(range(4), repeat=4)]
    judged = [g + [3, 2] for g in short]
    js = twin.evaluate(
        "([S, J]) => S.map((g, i) => { const c = twin.curves(g, J[i], 'exponential',"
        " {kind: 'log', base: 2}, 6); return c.dcg.concat(c.idcg); })",
        [short, judged],
    )
    py = [
        np.concatenate(curves(g, judged=j, gain="exponential", kmax=6))
        for g, j in zip(short, judged)
    ]
    assert np.max(np.abs(np.array(js) - np.array(py))) <= TOL


def test_ideal_order_and_cg(twin):
    js = twin.evaluate("G => G.map(g => twin.idealOrder(g, 'linear'))", GRADES)
    assert js == [ideal_order(g).tolist() for g in GRADES]
    js_cg = twin.evaluate(
        "G => G.map(g => [1,2,3,4,5,6].map(k => twin.cg(g, k, 'linear')))", GRADES
    )
    assert js_cg == [[cg(g, k) for k in range(1, 7)] for g in GRADES]


def test_weights_far_down_the_ranking(twin):
    js = twin.evaluate("D => D.map(d => twin.weights(200, d))", DISCOUNTS)
    py = [py_discount(d).weights(200).tolist() for d in DISCOUNTS]
    assert np.max(np.abs(np.array(js) - np.array(py))) <= TOL
    assert json.dumps(js[0][:2]) != json.dumps(js[-1][:2])  # different discounts differ
    rel = twin.evaluate(
        "D => D.map(d => [1, 2, 7, 50].map(r => twin.relativeWeight(r, d)))", DISCOUNTS
    )
    py_rel = [[w[r - 1] / w[0] for r in (1, 2, 7, 50)] for w in py]
    assert np.max(np.abs(np.array(rel) - np.array(py_rel))) <= TOL


def test_user_models_agree_exhaustively(twin):
    ps = [0.5, 0.8, 0.95]
    js = twin.evaluate(
        """([G, P]) => G.map(g => [twin.averagePrecision(g), twin.reciprocalRank(g),
            twin.err(g)].concat(P.map(p => twin.rbp(g, p)), twin.errReach(g)))""",
        [GRADES, ps],
    )
    py = [
        [average_precision(g), reciprocal_rank(g), err(g)]
        + [rbp(g, p) for p in ps]
        + err_reach(g).tolist()
        for g in GRADES
    ]
    assert np.max(np.abs(np.array(js) - np.array(py))) <= TOL
    judged = [g + [3] for g in GRADES[:500]]
    js_ap = twin.evaluate(
        "([G, J]) => G.map((g, i) => twin.averagePrecision(g, J[i]))", [GRADES[:500], judged]
    )
    py_ap = [average_precision(g, judged=j) for g, j in zip(GRADES[:500], judged)]
    assert np.max(np.abs(np.array(js_ap) - np.array(py_ap))) <= TOL


MULTISETS = [
    [3, 2, 3, 0, 1, 2],
    [3, 3, 2, 2, 1, 0, 0, 0, 0],
    [1, 0, 0],
    [2, 2, 2, 2],
    [0, 1, 2, 3, 4, 5, 6, 7, 8],
    [3, 0, 1, 1, 1, 0, 2],
]


@pytest.mark.parametrize("judged", MULTISETS, ids=str)
def test_reversal_counts_agree(twin, judged):
    rows = twin.evaluate("g => twin.orderings(g)", judged)
    py_rows = orderings(judged)
    assert len(rows) == len(py_rows)
    assert rows == py_rows.astype(int).tolist()
    big = len(rows) > 10_000  # 362,880 orderings: one cutoff and one base suffice
    for k in [len(judged)] if big else sorted({1, 3, len(judged)}):
        for a in (2.0,) if big else (1.5, 2.0, 3.0):
            js = twin.evaluate(
                "([g, k, a]) => twin.countReversals(g, k, ['linear', {exponential: a}])",
                [judged, k, a],
            )
            py = count_reversals(judged, k, gains=("linear", f"exponential:{a}"))
            assert (js["orderings"], js["pairs"], js["reversed"]) == (
                py.orderings,
                py.pairs,
                py.reversed,
            ), (judged, k, a)


def test_discordant_pairs_agree_on_random_scores(twin):
    rng = np.random.default_rng(7)
    cases = [(rng.integers(0, 5, n) / 4).tolist() for n in (1, 2, 17, 200)]
    for a in cases:
        b = rng.permutation(a).tolist()
        js = twin.evaluate("([a, b]) => twin.discordantPairs(a, b)", [a, b])
        assert js == discordant_pairs(np.array(a), np.array(b))


def test_mean_ndcg_and_swap_deltas_agree(twin):
    rng = np.random.default_rng(11)
    rankings = [rng.integers(0, 4, 6).tolist() for _ in range(40)] + [[0, 0, 0]]
    judged = [r + rng.integers(0, 4, 2).tolist() for r in rankings]
    for policy in ("zero", "one", "skip"):
        for k in (1, 3, 6, None):
            js = twin.evaluate(
                "([R, J, k, p]) => twin.meanNdcg(R, J, k, 'exponential',"
                " {kind: 'log', base: 2}, p)",
                [rankings, judged, k, policy],
            )
            py = mean_ndcg(rankings, k, judged=judged, zero_idcg=policy, gain="exponential")
            assert abs(js - py) <= TOL, (policy, k)
    grades = [g for g in GRADES[::7] if any(g)]
    for gain in ("linear", "exponential"):
        for k in (2, 6):
            js = twin.evaluate(
                "([G, k, gain]) => G.map(g => twin.swapDeltas(g, k, gain, {kind: 'log', base: 2}))",
                [grades, k, gain],
            )
            py = [swap_deltas(g, k, gain=gain).tolist() for g in grades]
            assert np.max(np.abs(np.array(js) - np.array(py))) <= TOL


def test_gain_tables_agree(twin):
    """Cranfield's gain tables (codes 1..4, -1 judged non-relevant, 0 unjudged)."""
    table = {1: 4.0, 2: 3.0, 3: 2.0, 4: 1.0, -1: 0.0, 0: 0.0}
    rng = np.random.default_rng(5)
    codes = [rng.choice([1, 2, 3, 4, -1, 0], 12).tolist() for _ in range(300)]
    judged = [[c for c in cs if c != 0] + [1, -1] for cs in codes]
    js = twin.evaluate(
        "([C, J, m]) => C.map((c, i) => { const r = twin.curves(c, J[i], {map: m},"
        " {kind: 'log', base: 2}, 10); return r.dcg.concat(r.idcg); })",
        [codes, judged, {str(k): v for k, v in table.items()}],
    )
    py = [np.concatenate(curves(c, judged=j, gain=table, kmax=10)) for c, j in zip(codes, judged)]
    assert np.max(np.abs(np.array(js) - np.array(py))) <= TOL


def test_discounted_gains_agree_exhaustively(twin):
    js = run_js(
        twin,
        """const out = [];
        for (const n of N) for (const d of D) for (const g of G)
          out.push(twin.discountedGains(g, n, d));
        return out;""",
        [GRADES, DISCOUNTS, GAINS],
    )
    py = [
        gain_values(g, py_gain(n)) * py_discount(d).weights(6)
        for n in GAINS
        for d in DISCOUNTS
        for g in GRADES
    ]
    assert np.max(np.abs(np.array(js) - np.array(py))) <= TOL


@pytest.mark.parametrize("policy", ["zero", "one", "skip"])
def test_ndcg_ratio_and_its_zero_policy(twin, policy):
    """The one division, with the IDCG = 0 policy, as dcglab.formulas.measures.ndcg_ratio."""
    pairs = [[d, i] for d in (0.0, 0.5, 3.0) for i in (0.0, -0.0, 0.25, 4.0)]
    js = twin.evaluate("([P, p]) => P.map(([d, i]) => twin.ndcgRatio(d, i, p))", [pairs, policy])
    assert js == [ndcg_ratio(d, i, policy) for d, i in pairs]
    assert twin.evaluate("() => twin.LOG2") == {"kind": "log", "base": 2}


def test_ndcg_at_agrees_with_and_without_cutoff(twin):
    rng = np.random.default_rng(3)
    cases = [(rng.integers(0, 4, 5).tolist(), rng.integers(0, 4, 3).tolist()) for _ in range(300)]
    cases += [([0, 0, 0], [0]), ([0, 1], [])]
    for k in (1, 3, 5, None):
        js = twin.evaluate(
            "([C, k]) => C.map(([g, extra]) => twin.ndcgAt(g, g.concat(extra), k, 'exponential',"
            " twin.LOG2))",
            [cases, k],
        )
        py = [ndcg(g, k, judged=g + x, gain="exponential", zero_idcg="skip") for g, x in cases]
        assert all((a is None) == (b is None) for a, b in zip(js, py)), k
        assert max(abs(a - b) for a, b in zip(js, py) if a is not None) <= TOL, k


def test_rank_weights_of_the_user_models(twin):
    ps = [0.5, 0.8, 0.95]
    js_rbp = twin.evaluate("P => P.map(p => twin.rbpWeights(8, p))", ps)
    assert np.max(np.abs(np.array(js_rbp) - np.array([rbp_weights(8, p) for p in ps]))) <= TOL
    js = twin.evaluate(
        "G => G.map(g => twin.errWeights(g).concat(twin.ndcgWeights(g, 'linear', twin.LOG2)))",
        GRADES,
    )
    recip, log2 = Discount("reciprocal").weights(6), Discount("log").weights(6)
    py = [np.concatenate([err_reach(g) * recip, ndcg_ratio(log2, idcg(g), "zero")]) for g in GRADES]
    assert np.max(np.abs(np.array(js) - np.array(py))) <= TOL


def test_explorer_summaries_agree(twin):
    """The best swap and the count of nDCG drops, against the explorers' Python."""
    sample = [g + [1, 0] for g in GRADES[::5] if any(g)]
    for gain in ("linear", "exponential"):
        js = twin.evaluate(
            "([G, gain]) => G.map(g => twin.bestSwap(twin.swapDeltas(g, 5, gain, twin.LOG2)))",
            [sample, gain],
        )
        for g, got in zip(sample, js):
            want = SwapExplorer.compute({"grades": g, "k": 5, "gain": gain})
            # the explorer shows "no swap helps" (None) where bestSwap returns ranks 0, 0
            best = (got["best_i"] or None, got["best_j"] or None)
            assert best == (want["best_i"], want["best_j"]), g
            assert abs(got["max_delta"] - want["max_delta"]) <= TOL
            assert abs(got["total"] - want["total"]) <= TOL
    js = twin.evaluate(
        "G => G.map(g => twin.countDrops(twin.curves(g, null, 'linear', twin.LOG2, 6).ndcg))",
        GRADES,
    )
    assert js == [CutoffExplorer.compute({"grades": g, "k": 1})["drops"] for g in GRADES]


def test_cranfield_decoding_agrees(twin):
    rng = np.random.default_rng(9)
    codes = [rng.choice([1, 2, 3, 4, -1, 0], int(rng.integers(1, 40))).tolist() for _ in range(200)]
    texts = [encode_codes(c) for c in codes]
    js = twin.evaluate("T => T.map(t => twin.decodeCodes(t))", texts)
    assert js == [decode_codes(t) for t in texts] == codes


def test_direction_changes_agree(twin):
    """Chapter 11's flips: the sign logic, ties within 1e-12 included."""
    rng = np.random.default_rng(13)
    for trial in range(30):
        n = 40
        base = rng.integers(0, 5, (4, n)) / 4  # coarse values: many exact ties
        jitter = np.where(rng.random((4, n)) < 0.2, rng.choice([-1, 1], (4, n)) * 5e-13, 0.0)
        ga, gb, ba, bb = (base + jitter).tolist()
        js = twin.evaluate(
            "([ga, gb, ba, bb]) => twin.directionChanges([ga, gb], [ba, bb])", [ga, gb, ba, bb]
        )
        as_dict = [dict(enumerate(v, start=1)) for v in (ga, gb, ba, bb)]
        py = direction_changes((as_dict[0], as_dict[1]), (as_dict[2], as_dict[3]))
        assert tuple(js["strict"]) == py.strict, trial
        assert tuple(js["lenient"]) == py.lenient, trial


def test_contributions_sum_to_each_measure(twin):
    """Each rank's share of nDCG, AP, RR, RBP and ERR (chapter 9's bars) adds up to
    dcglab's score, for every grade vector in {0..3}^6."""
    sample = [g for g in GRADES if any(g)]
    js = twin.evaluate("G => G.map(g => twin.contributions(g, 0.8))", sample)
    worst = 0.0
    for g, parts in zip(sample, js):
        want = {
            "ndcg": ndcg(g),
            "ap": average_precision(g),
            "rr": reciprocal_rank(g),
            "rbp": rbp(g, 0.8),
            "err": err(g),
        }
        for key, value in want.items():
            assert len(parts[key]) == len(g)
            worst = max(worst, abs(sum(parts[key]) - value))
    assert worst <= TOL


@pytest.mark.parametrize("judged", [[3, 3, 2, 2, 1, 0], [3, 2, 1, 0, 0], [2, 2, 1, 1, 0, 0, 0]])
def test_reversal_examples_are_reversals(twin, judged):
    """Every pair chapter 5 shows is ranked one way by linear gain and the other way by
    2^rel - 1, by dcglab's nDCG."""
    pairs = twin.evaluate(
        "([j]) => twin.reversalExamples(j, 4, ['linear', {exponential: 2}])", [judged]
    )
    assert pairs
    for x, y in pairs:
        assert sorted(x) == sorted(judged) == sorted(y)
        lin = ndcg(x, 4) - ndcg(y, 4)
        exp = ndcg(x, 4, gain="exponential") - ndcg(y, 4, gain="exponential")
        assert lin < -1e-12 and exp > 1e-12, (x, y, lin, exp)
