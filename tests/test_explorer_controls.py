"""The explorers' controls never lie, on the built static site.

* Dead controls: from the initial state and from 20 seeded random states of each
  explorer, every visible, enabled slider moved to its minimum and to its maximum
  changes the explorer's numbers, its chart or table, or its live region (a control
  that cannot matter in a state must be hidden or disabled). The results shown in
  every random state equal ``Explorer.compute(state)``, and Reset returns to the
  page's initial state.
* Announcements: each explorer has exactly one polite live region; moving a slider (in
  the quiz, pressing "New numbers") changes its text, and it is the same element before
  and after.
"""

from __future__ import annotations

import json
import zlib

import pytest
from sitekit import CONTROL_CHECK_JS, EXPLORER_PAGES, explorer_roots, open_page, python_mismatches

RANDOM_STATES = 20
# chapter 5's nine-document multisets take seconds per state
pytestmark = pytest.mark.timeout(1800)


@pytest.mark.slow
@pytest.mark.parametrize("rel", EXPLORER_PAGES)
def test_no_dead_controls(page, site_dir, rel):
    open_page(page, rel)
    roots = explorer_roots(page)
    for i, root in enumerate(roots):
        name = root.get_attribute("data-explorer")
        seed = zlib.crc32(f"{rel}#{i}".encode())
        out = root.evaluate(
            f"(root, [seed, count]) => ({CONTROL_CHECK_JS})([root, seed, count])",
            [seed, RANDOM_STATES],
        )
        assert out["dead"] == [], f"{name}: controls that change nothing: {out['dead'][:5]}"
        assert out["restored"], f"{name}: moving a slider back did not restore the state"
        assert out["reset"], f"{name}: Reset did not return to the initial state"
        assert len(out["states"]) == RANDOM_STATES + 1
        bad = [
            m
            for state, result in out["states"]
            for m in python_mismatches(name, json.loads(state), json.loads(result))
        ]
        assert bad == [], bad[:5]
    assert page.console_errors == []


@pytest.mark.parametrize("rel", EXPLORER_PAGES)
def test_one_live_region_updated_in_place(page, site_dir, rel):
    open_page(page, rel)
    for root in explorer_roots(page):
        name = root.get_attribute("data-explorer")
        regions = root.locator("[aria-live], [role=status], output")
        assert regions.count() == 1, f"{name}: {regions.count()} live regions"
        live = regions.first
        assert live.get_attribute("aria-live") == "polite"
        before = live.element_handle()
        text = live.text_content()
        moved = root.evaluate(
            """root => {
              const usable = (x) => !x.disabled && !x.closest('.dcglab-control').hidden;
              const e = Array.from(root.querySelectorAll('input[type=range][data-param]'))
                .find(usable);
              if (!e) {  // an explorer whose one control is a button (the quiz's numbers)
                const b = Array.from(root.querySelectorAll('button[data-param]')).find(usable);
                b.click();
                return b.dataset.param;
              }
              e.value = String(Number(e.value) === Number(e.min) ? e.max : e.min);
              e.dispatchEvent(new Event('input', {bubbles: true}));
              return e.dataset.param;
            }"""
        )
        after = root.locator("[aria-live]").element_handle()
        assert page.evaluate("([a, b]) => a === b && a.isConnected", [before, after]), (
            f"{name}: the live region was replaced after moving {moved}"
        )
        assert live.text_content() != text, f"{name}: moving {moved} announced nothing"
