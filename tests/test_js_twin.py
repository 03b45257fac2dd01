"""The explorers' JavaScript twin of the formulas (measures.js) agrees with dcglab.

measures.js is evaluated in Chromium over exhaustive small inputs: every grade
vector in {0..3}^6, both gains, every cutoff 1..6 and nine discounts (four log
bases, three Järvelin-Kekäläinen bases, patience and 1/i). The largest absolute
difference from dcglab must be at most 1e-12.
"""

import itertools
import json
import math

import numpy as np
import pytest

from dcglab import Discount, cg, curves, ideal_order
from dcglab.explorers.base import asset

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
    page = browser.new_page()
    page.set_content("<html><body></body></html>")
    page.add_script_tag(
        type="module",
        content=asset("measures.js")
        + "\nwindow.twin = {gainValue, weights, dcgCurve, idealOrder, curves, cg};",
    )
    page.wait_for_function("window.twin !== undefined")
    yield page
    page.close()


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
    py = [np.concatenate(curves(g, judged=j, gain="exponential", kmax=6))
          for g, j in zip(short, judged)]
    assert np.max(np.abs(np.array(js) - np.array(py))) <= TOL


def test_ideal_order_and_cg(twin):
    js = twin.evaluate("G => G.map(g => twin.idealOrder(g, 'linear'))", GRADES)
    assert js == [ideal_order(g).tolist() for g in GRADES]
    js_cg = twin.evaluate("G => G.map(g => [1,2,3,4,5,6].map(k => twin.cg(g, k, 'linear')))",
                          GRADES)
    assert js_cg == [[cg(g, k) for k in range(1, 7)] for g in GRADES]


def test_weights_far_down_the_ranking(twin):
    js = twin.evaluate("D => D.map(d => twin.weights(200, d))", DISCOUNTS)
    py = [py_discount(d).weights(200).tolist() for d in DISCOUNTS]
    assert np.max(np.abs(np.array(js) - np.array(py))) <= TOL
    assert json.dumps(js[0][:2]) != json.dumps(js[-1][:2])  # different discounts differ
