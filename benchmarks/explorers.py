"""Benchmark every explorer step in Chromium: input event to finished layout.

Run: .venv/bin/python benchmarks/explorers.py [--site _build/html] [--rounds 5] [--only NAME ...]

The built site is served on 127.0.0.1 and each page with explorers is opened in headless
Debian Chromium (1280 px). For every explorer, every visible, enabled slider is stepped
to a new legal value, every select to each option, and every card of a rank strip focused,
then moved one rank (Shift + →) and given a new grade (a digit key). One step is timed inside
the page, from just before the event is dispatched to the end of a forced synchronous layout
(``getBoundingClientRect`` of the explorer after ``offsetHeight``), so it covers the
explorer's computation, its DOM update and the browser's style and layout work. A page's
steps start 8 s after it loads, once the first collection of its start-up garbage has run. Steps
follow each other one frame apart (the next one starts in a task after the next animation
frame), as the input events of a reader dragging a slider do (``--pause MS`` waits longer,
as a reader does who watches each change): between two steps the page
paints, runs its animations and the work it defers, and may collect garbage, as it would
for a reader; the steps are never run back to back in one task. The
first step of each control is a warm-up and is not counted. Reported per explorer: the
number of steps, the median and the worst step in milliseconds, which control the worst
step moved, and the median of that control's steps. Work an explorer defers to
``setTimeout`` or ``requestIdleCallback`` callbacks (counts that fill a curve while the page
is idle) is timed too, callback by callback: the longest one while the explorer's steps
run and in the second after its last step. Steps over a 16 ms frame are counted, and
among them those during which the JavaScript heap shrank: the garbage collector ran in
the step (Chromium reports the heap in coarse steps, so a collection can also go unseen).
"nodes/step" is the number of DOM nodes the page created per step (``createElement``,
``createElementNS`` and ``createTextNode`` are counted): DOM nodes no longer shown are freed
only by a full garbage collection, whose pause would fall inside some later step.
Timing depends on the machine and on its load: the results file states both.

``--trace FILE`` records a Chromium trace of the run (the timeline, V8's garbage collector
and each step as a span) and lists every full collection: its page, how long after that
page's load it came, its pause, and whether it fell inside a step.

The built pages run the explorer code saved in the notebooks' widget state. With
``--current-js`` each page is served with that code replaced by the package's current
front-end files (each widget's ``_esm`` and ``_css`` from its class), so that a change to
the JavaScript is timed before the notebooks are executed again.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import http.server
import importlib
import json
import os
import platform
import re
import statistics
import threading
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = os.environ.get("DCGLAB_CHROMIUM", "/usr/bin/chromium")
FRAME_MS = 16.0
# A page's start-up (MathJax, the widget manager, the explorers' first drawing) leaves
# 15-40 MB of garbage. V8 frees it while the page is idle, in a full collection 1-2.5 s
# after the load (a 10-26 ms pause) and often a memory-reducing one at 3.5-9.3 s (up to
# 55 ms), as --trace shows. The steps start after the first and mostly after the second,
# as a reader's first move comes after reading the text around an explorer.
SETTLE_MS = 8000

STEP_JS = """
async ([root, rounds, pause, mark]) => {
  const timings = [];
  const heap = () => (performance.memory ? performance.memory.usedJSHeapSize : 0);
  // the next step starts one frame later (and `pause` ms more), in a task of its own, like
  // the next input event
  const nextFrame = () =>
    new Promise((done) => requestAnimationFrame(() => setTimeout(done, pause)));
  const time = async (label, act) => {
    await nextFrame();
    const h0 = heap(), t0 = performance.now();
    act();
    void root.offsetHeight;
    root.getBoundingClientRect();
    timings.push([label, performance.now() - t0, heap() < h0]);
    // with --trace: the step as a span in the trace (user timing)
    if (mark) performance.measure("dcglab-step", {start: t0});
  };
  const usable = (e) => !e.disabled && e.offsetParent !== null
    && !(e.closest('.dcglab-control') || {}).hidden;
  const fire = (e) => e.dispatchEvent(new Event(e.tagName === 'SELECT' ? 'change' : 'input',
                                                {bubbles: true}));
  for (let round = 0; round <= rounds; round++) {
    const controls = Array.from(root.querySelectorAll('[data-param]')).filter(usable);
    for (const e of controls) {
      const label = e.dataset.param;
      if (e.tagName === 'SELECT') {
        for (const o of Array.from(e.options)) {
          if (o.value === e.value) continue;
          await time(label, () => { e.value = o.value; fire(e); });
        }
      } else {
        const lo = Number(e.min), hi = Number(e.max), step = Number(e.step);
        const cur = Number(e.value);
        const next = cur + step <= hi + 1e-9 ? cur + step : lo;
        await time(label, () => { e.value = String(+next.toFixed(6)); fire(e); });
      }
    }
    const cards = () => Array.from(root.querySelectorAll('button.dcglab-card'));
    const press = (e, key, shiftKey = false) =>
      e.dispatchEvent(new KeyboardEvent('keydown', {key, shiftKey, bubbles: true}));
    // a key goes to the focused card, as when a reader uses the keyboard
    for (let i = 0; i < cards().length - 1; i++) {
      cards()[i].focus({preventScroll: true});
      await time('card move', () => press(cards()[i], 'ArrowRight', true));
      cards()[i].focus({preventScroll: true});
      await time('card grade', () => press(cards()[i], String((i + round) % 4)));
    }
  }
  return timings;
}
"""


# Every timer and idle callback of the page is timed (the explorers' deferred work), and
# every DOM node the page creates is counted (a node an explorer makes is garbage that only
# a full collection frees once it is gone from the page).
TASKS_JS = """
(() => {
  window.__dcglabNodes = 0;
  for (const name of ['createElement', 'createElementNS', 'createTextNode']) {
    const make = Document.prototype[name];
    Document.prototype[name] = function (...args) {
      window.__dcglabNodes++;
      return make.apply(this, args);
    };
  }
  window.__dcglabTasks = [];
  const timed = (schedule) => function (fn, ...rest) {
    if (typeof fn !== 'function') return schedule.call(this, fn, ...rest);
    return schedule.call(this, function (...args) {
      const t0 = performance.now();
      try { return fn.apply(this, args); }
      finally { window.__dcglabTasks.push(performance.now() - t0); }
    }, ...rest);
  };
  window.setTimeout = timed(window.setTimeout);
  if (window.requestIdleCallback) window.requestIdleCallback = timed(window.requestIdleCallback);
})();
"""
NODES_MADE = "() => window.__dcglabNodes"
LONGEST_TASK = (
    "() => { const t = window.__dcglabTasks; window.__dcglabTasks = []; return Math.max(0, ...t); }"
)


@contextlib.contextmanager
def serve(folder: Path):
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args) -> None:
            pass

    handler = functools.partial(Quiet, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()


def explorer_pages(site: Path) -> list[str]:
    return sorted(
        p.relative_to(site).as_posix()
        for p in site.glob("chapters/*.html")
        if "widget-view+json" in p.read_text() and "/quiz_" not in "/" + p.name
    )


WIDGET_STATE = re.compile(
    r'(<script type="application/vnd\.jupyter\.widget-state\+json">)(.*?)(</script>)', re.S
)


def with_current_js(html: str) -> str:
    """A page whose saved explorers run the current front-end files of their classes."""

    def swap(m: re.Match) -> str:
        state = json.loads(m.group(2))
        for model in state["state"].values():
            widget = model["state"]
            if "_anywidget_id" in widget and "_esm" in widget:
                module, name = widget["_anywidget_id"].rsplit(".", 1)
                cls = getattr(importlib.import_module(module), name)
                widget["_esm"], widget["_css"] = cls._esm, cls._css
        return m.group(1) + json.dumps(state).replace("</", "<\\/") + m.group(3)

    return WIDGET_STATE.sub(swap, html)


def measure(
    site: Path,
    rounds: int,
    only: set[str] | None = None,
    current_js: bool = False,
    pause: int = 0,
    trace: Path | None = None,
) -> list[dict]:
    rows = []
    with serve(site) as base, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.add_init_script(TASKS_JS)
        if trace:
            browser.start_tracing(page=page, categories=TRACE_CATEGORIES)
        if current_js:

            def current(route) -> None:
                response = route.fetch()
                route.fulfill(response=response, body=with_current_js(response.text()))

            page.route("**/chapters/*.html", current)
        for rel in explorer_pages(site):
            page.goto(base + rel, wait_until="load")
            page.wait_for_function(
                "() => Array.from(document.querySelectorAll('.dcglab-explorer'))"
                ".some(e => e.childElementCount > 0)"
            )
            page.wait_for_timeout(SETTLE_MS)
            roots = page.locator(".dcglab-explorer")
            for i in range(roots.count()):
                root = roots.nth(i)
                name = root.get_attribute("data-explorer")
                if only and name not in only:
                    continue
                page.evaluate(LONGEST_TASK)
                nodes = page.evaluate(NODES_MADE)
                timings = root.evaluate(
                    f"(root, args) => ({STEP_JS})([root, ...args])",
                    [rounds, pause, trace is not None],
                )
                nodes = page.evaluate(NODES_MADE) - nodes
                page.wait_for_timeout(1000)
                deferred = page.evaluate(LONGEST_TASK)
                # the first step of each control warms the caches and the JIT
                seen: set[str] = set()
                counted, collected = [], []
                for label, ms, shrank in timings:
                    if label in seen:
                        counted.append((label, ms))
                        collected.append(shrank)
                    seen.add(label)
                slow = [shrank for (_, ms), shrank in zip(counted, collected) if ms > FRAME_MS]
                worst = max(counted, key=lambda t: t[1])
                same = [ms for label, ms in counted if label == worst[0]]
                rows.append(
                    {
                        "page": rel,
                        "explorer": name,
                        "steps": len(counted),
                        "median_ms": round(statistics.median(ms for _, ms in counted), 2),
                        "worst_ms": round(worst[1], 2),
                        "worst_control": worst[0],
                        "control_median_ms": round(statistics.median(same), 2),
                        "deferred_ms": round(deferred, 2),
                        "nodes_per_step": round(nodes / len(timings), 1),
                        "over_frame": len(slow),
                        "over_frame_gc": sum(slow),
                    }
                )
        if trace:
            trace.write_bytes(browser.stop_tracing())
        browser.close()
    return rows


# Chromium's timeline, V8's collector and the pages' user timing (the steps' spans).
TRACE_CATEGORIES = ["devtools.timeline", "v8", "disabled-by-default-v8.gc", "blink.user_timing"]


def full_collections(trace: bytes) -> list[str]:
    """One line per full collection (V8's ``MajorGC``) in a trace written with
    ``--trace``: its pause, how long after the page's load it came, and whether it fell
    inside a timed step."""
    events = json.loads(trace)
    events = events["traceEvents"] if isinstance(events, dict) else events
    loads, steps, begun = [], [], {}
    for e in events:
        if e.get("name") == "navigationStart":
            # a load also logs a navigation without its address: only those with one count
            url = e.get("args", {}).get("data", {}).get("documentLoaderURL", "")
            if url:
                loads.append((e["ts"], url.rsplit("/", 1)[-1]))
        elif e.get("name") == "dcglab-step":
            key = e.get("id") or e.get("id2", {}).get("local")
            if e["ph"] in ("b", "B"):
                begun[key] = e["ts"]
            elif key in begun:
                steps.append((begun.pop(key), e["ts"]))
    lines = []
    for e in events:
        if e.get("name") != "MajorGC" or e.get("ph") != "X":
            continue
        at, page = max((load for load in loads if load[0] <= e["ts"]), default=(e["ts"], "?"))
        inside = any(a <= e["ts"] <= b for a, b in steps)
        lines.append(
            f"{page:<32} {(e['ts'] - at) / 1e6:6.2f} s after its load  "
            f"{e['dur'] / 1000:5.1f} ms  {'inside a step' if inside else 'outside the steps'}"
        )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, default=ROOT / "_build" / "html")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results")
    parser.add_argument(
        "--only", nargs="+", metavar="NAME", help="measure only these explorers (data-explorer)"
    )
    parser.add_argument(
        "--current-js",
        action="store_true",
        help="run the package's current explorer code instead of the code saved in the pages",
    )
    parser.add_argument(
        "--pause",
        type=int,
        default=0,
        metavar="MS",
        help="wait MS more between steps (0: one step a frame, as a slider drag sends them;"
        " 250: a reader who watches each step's animation end)",
    )
    parser.add_argument(
        "--trace",
        type=Path,
        metavar="FILE",
        help="write a Chromium trace (timeline, V8's collector, the steps) to FILE and list"
        " each full collection: when after its page's load, its pause, inside a step or not",
    )
    args = parser.parse_args()
    rows = measure(
        args.site, args.rounds, set(args.only or ()), args.current_js, args.pause, args.trace
    )
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    lines = [
        f"Explorer steps in Chromium (input to finished layout), {args.rounds} rounds, "
        + (f"one step a frame and {args.pause} ms" if args.pause else "one step a frame")
        + (", current front-end files" if args.current_js else ""),
        f"machine: {platform.machine()}, {os.cpu_count()} CPUs, load average {load:.1f}",
        "",
        f"{'explorer':<16} {'steps':>5} {'median ms':>10} {'worst ms':>9} {'deferred ms':>12}"
        f" {'> 16 ms (gc)':>13} {'nodes/step':>10}  worst control (its median ms)",
    ]
    for r in rows:
        over = f"{r['over_frame']} ({r['over_frame_gc']})"
        lines.append(
            f"{r['explorer']:<16} {r['steps']:>5} {r['median_ms']:>10.2f} "
            f"{r['worst_ms']:>9.2f} {r['deferred_ms']:>12.2f} {over:>13} "
            f"{r['nodes_per_step']:>10.1f}  {r['worst_control']}"
            f" ({r['control_median_ms']:.2f})"
        )
    if args.trace:
        lines += ["", f"full collections (trace in {args.trace}):"]
        lines += full_collections(args.trace.read_bytes())

    text = "\n".join(lines) + "\n"
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "explorers.txt").write_text(text)
    print(text, end="")


if __name__ == "__main__":
    main()
