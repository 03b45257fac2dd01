"""Fill ``_vendor/`` with the web assets the static site serves itself.

Run it as ``python scripts/vendor_assets.py`` (the Makefile does); the book
build also runs it on every build through the local Sphinx extension
``scripts/dcglab_site.py``.

Layout. ``_vendor/`` is Sphinx's ``html_extra_path``: its contents are copied
to the site root unchanged, and Jupyter Book does not scan it for scripts
(``html_static_path`` would get a ``<script>`` tag for every ``.js`` file).
The assets go to ``_vendor/_static/dcglab-vendor/`` and so land in the site's
``_static/dcglab-vendor/``; that is where Sphinx resolves the relative paths in
``mathjax_path`` and ``nb_ipywidgets_js``.

Sources:

* from this repository (``site_js/``): ``widgets.js``, which draws the explorers
  from the saved widget state, and ``dcglab_site.css``, the site's own style;
* ``math.css``, the stylesheet of MathJax's SVG output, written by
  ``scripts/typeset_math.cjs``: the formulas are typeset when the book is built
  (mathjax-full, pinned in package.json), so no page loads MathJax.

Only what pages use is published: axe-core, pinned in package.json for the
accessibility tests, is read from ``node_modules`` by the tests themselves.

Fallback. When ``node_modules`` lacks mathjax-full at its pinned version (npm
missing, or ``npm install`` not run), a one-line notice is printed, and
``dcglab_site`` leaves the formulas to MathJax in the reader's browser, loaded from
the public CDN at the same version (``mathjax_path``). Under ``CI=true`` that is an
error instead: CI must build the self-contained site.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXTRA_DIR = "_vendor"  # html_extra_path; mirrors the site root
SUBDIR = "_static/dcglab-vendor"  # where the assets land, inside the site
PREFIX = "dcglab-vendor/"  # the same, as written in _config.yml (relative to _static/)
# (not "_static/vendor/": pydata-sphinx-theme already ships _static/vendor/fontawesome)
CDN = "https://cdn.jsdelivr.net/npm/"
NOTICE = (
    "vendor_assets: notice: node_modules lacks the pinned mathjax-full (npm missing or"
    " `npm install` not run); the site will load MathJax from the public CDN"
)

SITE_FILES = ["widgets.js", "dcglab_site.css"]  # site_js/ -> _static/dcglab-vendor/
SITE_CSS = "dcglab_site.css"
MATH_CSS = "math.css"  # written by scripts/typeset_math.cjs --css
TYPESET = ROOT / "scripts" / "typeset_math.cjs"
#: What the build needs from node_modules (the rest of package.json is for tests
#: and benchmarks).
BUILD_PACKAGES = ["mathjax-full"]


def pinned_versions(root: Path = ROOT) -> dict[str, str]:
    """The exact npm versions pinned in package.json (dependencies and devDependencies)."""
    meta = json.loads((root / "package.json").read_text())
    return {**meta.get("dependencies", {}), **meta.get("devDependencies", {})}


def installed_version(root: Path, package: str) -> str | None:
    meta = root / "node_modules" / package / "package.json"
    if not meta.is_file():
        return None
    return json.loads(meta.read_text()).get("version")


def npm_assets_ready(root: Path = ROOT) -> bool:
    """True when node runs and every package the build needs is at its pinned version."""
    pins = pinned_versions(root)
    ready = all(installed_version(root, p) == pins[p] for p in BUILD_PACKAGES)
    return ready and shutil.which("node") is not None


def node_module(package: str, root: Path = ROOT) -> Path:
    """A pinned npm package's folder in ``node_modules`` (tests use it for axe-core).

    Raises FileNotFoundError when it is missing or not at its pinned version.
    """
    pinned = pinned_versions(root)[package]
    if installed_version(root, package) != pinned:
        raise FileNotFoundError(f"node_modules lacks {package}@{pinned}; run `npm install`")
    return root / "node_modules" / package


def _copy(src: Path, dst: Path) -> None:
    dst.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(src, dst)


def vendor(root: Path = ROOT, log: Callable[[str], None] = print) -> str:
    """Refill ``_vendor/``; return ``"build"`` (formulas typeset by the build) or
    ``"cdn"`` (by MathJax from the CDN, in the reader's browser)."""
    root = Path(root)
    dest = root / EXTRA_DIR / SUBDIR
    if (root / EXTRA_DIR).exists():
        shutil.rmtree(root / EXTRA_DIR)
    dest.mkdir(parents=True)
    for name in SITE_FILES:
        _copy(root / "site_js" / name, dest / name)
    if npm_assets_ready(root):
        css = subprocess.run(
            ["node", str(TYPESET), "--css"], cwd=root, check=True, capture_output=True, text=True
        ).stdout
        (dest / MATH_CSS).write_text(css)
        version = pinned_versions(root)["mathjax-full"]
        log(f"vendor_assets: formulas typeset by mathjax-full@{version}")
        return "build"
    if os.environ.get("CI") == "true":
        raise RuntimeError(NOTICE + " -- refusing under CI=true; run `npm install`")
    log(NOTICE)
    return "cdn"


def cdn_url(local: str, root: Path = ROOT) -> str:
    """The public-CDN twin of the ``dcglab-vendor/mathjax/...`` path in _config.yml."""
    if not local.startswith(PREFIX + "mathjax/"):
        return local
    rel = local[len(PREFIX + "mathjax/") :]
    return f"{CDN}mathjax@{pinned_versions(root)['mathjax-full']}/es5/{rel}"


if __name__ == "__main__":
    try:
        vendor()
    except RuntimeError as err:
        print(err, file=sys.stderr)
        sys.exit(1)
