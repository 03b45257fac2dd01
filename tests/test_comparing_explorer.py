"""The comparing-systems explorer's JavaScript twin (paired.js) agrees with
dcglab.statistics.significance.

paired.js is evaluated in Chromium over many small paired samples: every sign pattern of
differences drawn from a grid, n = 2 to 8, and t statistics for 1 to 30 degrees of
freedom. Means, d_z, t and both p-values must agree with Python within 1e-12, and
the explorer's ``compute`` must return what the JavaScript shows.
"""

import itertools

import numpy as np
import pytest
from scipy.special import stdtr
from sitekit import twin_page

from dcglab.book.explorers.base import asset
from dcglab.book.explorers.comparing import DELTA_MAX, DELTAS, PairedTestExplorer

TOL = 1e-12


@pytest.fixture(scope="module")
def twin(browser):
    with twin_page(
        browser, asset("paired.js"), "{pairedStats, studentTwoSided, exactRandomization}"
    ) as page:
        yield page


def samples():
    """Differences in hundredths: a seeded spread of lists of length 2 to 8, plus edge cases."""
    rng = np.random.default_rng(0)
    out = [list(d) for n in range(2, 9) for d in rng.integers(-DELTA_MAX, DELTA_MAX + 1, (60, n))]
    out += [DELTAS, [5, 5], [0, 0, 0], [-50] * 8, [50, -50], [1, 2, 3, 4, 5, 6, 7, 8]]
    out += [list(d) for d in itertools.product([-20, 0, 30], repeat=4)]
    return [[int(x) for x in d] for d in out]


def test_explorer_results_agree_with_python(twin):
    cases = samples()
    js = twin.evaluate(
        """C => C.map(d => { const x = d.map(v => v / 100), s = twin.pairedStats(x);
            const p = s.t === null ? null : twin.studentTwoSided(s.t, x.length - 1);
            return [s.mean, s.d_z, s.t, p, twin.exactRandomization(x)]; })""",
        cases,
    )
    keys = ("mean", "d_z", "t", "p_t", "p_rand")
    undefined = 0
    for d, got in zip(cases, js):
        want = PairedTestExplorer.compute({"deltas": d, "n": len(d)})
        for key, value in zip(keys, got):
            if want[key] is None:
                undefined += 1
                assert value is None, (d, key)
            else:
                assert value == pytest.approx(want[key], abs=TOL), (d, key)
    assert undefined >= 3 * 4  # the no-spread cases were checked too


def test_student_t_tail_for_each_degree_of_freedom(twin):
    ts = [0.0, 0.1, 0.5, 1.0, 1.96, 2.5, 4.0, 10.0, 50.0]
    nus = list(range(1, 31))
    js = twin.evaluate("([T, N]) => N.map(n => T.map(t => twin.studentTwoSided(t, n)))", [ts, nus])
    py = [[2 * stdtr(n, -abs(t)) for t in ts] for n in nus]
    assert np.max(np.abs(np.array(js) - np.array(py))) <= TOL


def test_defaults_are_the_chapter_example():
    e = PairedTestExplorer()
    assert e.state() == {"deltas": DELTAS, "n": len(DELTAS)}
    r = e.results()
    assert r["p_rand"] == pytest.approx(28 / 256)  # 28 of the 256 sign patterns
