"""Lighthouse on every page of the built book, as a reader on a phone meets it.

    make book && npm install        # Lighthouse 12.2.3 is pinned in package.json
    .venv/bin/python benchmarks/lighthouse.py [--pages chapters/01_cumulative_gain.html ...]

The site (``_build/html``) is served the way GitHub Pages serves it: under the sub-path
of the book's public URL (``/dcglab/``), text compressed with gzip
(scripts/site_server.py). Lighthouse 12.2.3 (``node_modules/.bin/lighthouse``) runs
with its default settings, which are the mobile ones: a Moto G Power screen, simulated
Slow 4G (150 ms, 1.6 Mbps) and a 4x slower CPU, a cold cache. Its browser is Debian's
Chromium (``CHROME_PATH``, default ``/usr/bin/chromium``). Each page is measured once,
in a fresh headless Chromium.

For every page it prints the four category scores (performance, accessibility, best
practices, SEO), first and largest contentful paint, total blocking time, the bytes
transferred and the render-blocking bytes (the transfer size of the stylesheets and
scripts Lighthouse lists as blocking the first paint), then each goal and whether every
page meets it. The table is saved to ``benchmarks/results/lighthouse.txt`` (with
``--pages``, it says how many pages were measured).
tests/test_publish.py keeps a chapter's transfer and render-blocking bytes under a
budget set from this table.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urljoin

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
import first_paint  # noqa: E402
import site_server  # noqa: E402

LIGHTHOUSE = ROOT / "node_modules" / ".bin" / "lighthouse"
RESULTS = ROOT / "benchmarks" / "results" / "lighthouse.txt"
CHROME_FLAGS = "--headless=new --no-sandbox --disable-gpu --no-first-run"
CATEGORIES = ["performance", "accessibility", "best-practices", "seo"]
#: DevTools' "Fast 3G" preset (latency in ms, throughput in bytes/s) and a 4x slower CPU.
FAST_3G = {
    "offline": False,
    "latency": 562.5,
    "downloadThroughput": 180_000,
    "uploadThroughput": 84_375,
}
CPU_SLOWDOWN = 4
EXPLORER_CONTROL = ".dcglab-explorer :is(input, button, select, [tabindex='0']):not([disabled])"
#: (label, what it reads from a row, the goal's test, the goal in words)
GOALS = [
    ("performance", lambda r: r["performance"] >= 85, ">= 85"),
    ("accessibility", lambda r: r["accessibility"] == 100, "= 100"),
    ("best practices", lambda r: r["best-practices"] >= 95, ">= 95"),
    ("SEO", lambda r: r["seo"] >= 95, ">= 95"),
    ("FCP", lambda r: r["fcp"] <= 2.5, "<= 2.5 s"),
    ("explorer usable", lambda r: r.get("explorer") is None or r["explorer"] <= 8, "<= 8 s"),
]


def pages(site: Path) -> list[str]:
    """Every HTML page of the site but the 404 page, front page first."""
    found = sorted(p.relative_to(site).as_posix() for p in site.rglob("*.html"))
    found = [p for p in found if p != "404.html"]
    return sorted(found, key=lambda p: (p != "index.html", p))


def lighthouse(url: str, out: Path) -> dict:
    """Run Lighthouse on ``url`` with its defaults (mobile); return the report."""
    env = {**os.environ, "CHROME_PATH": os.environ.get("CHROME_PATH", "/usr/bin/chromium")}
    cmd = [
        str(LIGHTHOUSE),
        url,
        "--quiet",
        "--output=json",
        f"--output-path={out}",
        f"--chrome-flags={CHROME_FLAGS}",
        f"--only-categories={','.join(CATEGORIES)}",
    ]
    subprocess.run(cmd, check=True, env=env, timeout=600)
    return json.loads(out.read_text())


def has_explorer(site: Path, page: str) -> bool:
    return "application/vnd.jupyter.widget-view+json" in (site / page).read_text()


def explorer_usable(url: str) -> float:
    """Seconds from navigation until the page's first explorer has an enabled control,
    on a phone-sized page over :data:`FAST_3G` with a 4x slower CPU and no cache."""
    from playwright.sync_api import sync_playwright

    chrome = os.environ.get("CHROME_PATH", "/usr/bin/chromium")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chrome)
        context = browser.new_context(viewport={"width": 412, "height": 823}, is_mobile=True)
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
        cdp.send("Network.emulateNetworkConditions", FAST_3G)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
        start = time.perf_counter()
        page.goto(url, wait_until="commit")
        page.wait_for_selector(EXPLORER_CONTROL, state="attached", timeout=180_000)
        seconds = time.perf_counter() - start
        browser.close()
    return seconds


def row(report: dict, html: str) -> dict:
    """The figures of one page from its Lighthouse report (and its HTML, for what
    blocks the first paint)."""
    audits = report["audits"]
    requests = audits["network-requests"]["details"]["items"]
    page_url = report["finalDisplayedUrl"]
    size = {r["url"].split("?")[0]: r.get("transferSize", 0) for r in requests}
    blocking = [urljoin(page_url, path) for path in first_paint.blocking_paths(html)]
    out = {c: round(100 * (report["categories"][c]["score"] or 0)) for c in CATEGORIES}
    out.update(
        fcp=audits["first-contentful-paint"]["numericValue"] / 1000,
        lcp=audits["largest-contentful-paint"]["numericValue"] / 1000,
        tbt=audits["total-blocking-time"]["numericValue"],
        bytes=audits["total-byte-weight"]["numericValue"],
        blocking=sum(size.get(url, 0) for url in blocking),
        requests=len(requests),
    )
    return out


HEADER = (
    f"{'page':<42} {'perf':>4} {'a11y':>4} {'bp':>4} {'seo':>4}"
    f" {'FCP s':>6} {'LCP s':>6} {'TBT ms':>6} {'KiB':>6} {'block KiB':>9} {'req':>4}"
    f" {'explorer s':>10}"
)


def line(page: str, r: dict) -> str:
    return (
        f"{page:<42} {r['performance']:>4} {r['accessibility']:>4} {r['best-practices']:>4}"
        f" {r['seo']:>4} {r['fcp']:>6.1f} {r['lcp']:>6.1f} {r['tbt']:>6.0f}"
        f" {r['bytes'] / 1024:>6.0f} {r['blocking'] / 1024:>9.1f} {r['requests']:>4}"
        + (f" {r['explorer']:>10.1f}" if r.get("explorer") is not None else f" {'-':>10}")
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", type=Path, default=site_server.SITE)
    parser.add_argument("--pages", nargs="*", help="pages to measure (default: every page)")
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args()
    if not LIGHTHOUSE.exists():
        print("benchmarks/lighthouse.py: run `npm install` (Lighthouse 12.2.3)", file=sys.stderr)
        return 2
    if not (args.site / "index.html").is_file():
        print(f"benchmarks/lighthouse.py: no site at {args.site}; run `make book`", file=sys.stderr)
        return 2
    todo = args.pages or pages(args.site)
    version = json.loads((ROOT / "node_modules/lighthouse/package.json").read_text())["version"]
    lines = [
        f"Lighthouse {version}, default (mobile) settings: simulated Slow 4G, 4x CPU, cold cache;",
        f"site served with gzip under {site_server.prefix_from_config()}"
        " by scripts/site_server.py;",
        f"Chromium {os.environ.get('CHROME_PATH', '/usr/bin/chromium')}, {platform.machine()},"
        f" {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} at the start"
        " (Lighthouse scales the CPU time it observes: a busy machine lowers the scores).",
        "bp = best practices; block = render-blocking transfer; explorer = seconds until"
        " the first explorer answers (Fast 3G, 4x CPU, no cache).",
        "",
        HEADER,
    ]
    print("\n".join(lines), flush=True)
    rows = {}
    with site_server.serve(args.site) as base, tempfile.TemporaryDirectory() as tmp:
        for page in todo:
            report = lighthouse(base + page, Path(tmp) / "report.json")
            rows[page] = row(report, (args.site / page).read_text())
            if has_explorer(args.site, page):
                rows[page]["explorer"] = explorer_usable(base + page)
            lines.append(line(page, rows[page]))
            print(lines[-1], flush=True)
    lines.append("")
    for label, ok, goal in GOALS:
        missed = [p for p, r in rows.items() if not ok(r)]
        verdict = "met on every page" if not missed else f"missed on {len(missed)}: {missed}"
        lines.append(f"goal {label} {goal}: {verdict}")
        print(lines[-1])
    if args.pages:
        lines.insert(
            0, f"Pages measured: {len(todo)} chosen with --pages (of {len(pages(args.site))})."
        )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(lines) + "\n")
    print(f"saved {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
