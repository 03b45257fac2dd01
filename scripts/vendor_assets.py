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

* from ``node_modules`` (``npm install``, versions pinned in package.json):
  ``require.js``; html-manager's ``dist/embed-amd.js`` (one AMD bundle that
  also defines libembed-amd, the core widgets and their CSS) with the font
  files it references relative to itself; MathJax 3's ``es5/`` components;
* from the installed anywidget wheel: ``anywidget/nbextension/index.js``, the
  AMD front end that renders every anywidget;
* from this repository: ``site_js/require_paths.js``, which maps the
  RequireJS module ``anywidget`` to the vendored file relative to its own URL,
  and ``site_js/dcglab_site.css``, the site's own style fixes;
* for the browser tests only (no page loads it): axe-core's ``axe.min.js``.

Fallback. When ``node_modules`` lacks a package at its pinned version (npm
missing, or ``npm install`` not run), only the last two are vendored, a
one-line notice is printed, and ``dcglab_site`` swaps the ``dcglab-vendor/...``
entries of ``mathjax_path`` and ``nb_ipywidgets_js`` for the same files, at the
same versions, on the public CDN. Under ``CI=true`` that is an error instead:
CI must build the self-contained site.

The mode and versions are written to ``_static/dcglab-vendor/vendor.json``.
"""

from __future__ import annotations

import json
import os
import shutil
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
    "vendor_assets: notice: node_modules lacks the pinned web assets (npm missing or"
    " `npm install` not run); the site will load MathJax, RequireJS and the widget"
    " manager from the public CDN"
)

# Top-level MathJax es5 files worth serving (latest.js is left out on purpose:
# it fetches MathJax from a CDN).
MATHJAX_TOP = ["tex-mml-chtml.js", "tex-chtml.js", "startup.js", "loader.js", "core.js"]
MATHJAX_DIRS = ["input", "output", "ui", "a11y", "sre"]
HTML_MANAGER_SUFFIXES = (".woff", ".woff2", ".ttf", ".eot", ".svg")
SITE_CSS = "dcglab_site.css"  # site_js/ -> _static/dcglab-vendor/
AXE = "axe-core/axe.min.js"  # under _static/dcglab-vendor/, for the browser tests


def pinned_versions(root: Path = ROOT) -> dict[str, str]:
    """The exact npm versions pinned in package.json."""
    return dict(json.loads((root / "package.json").read_text())["dependencies"])


def installed_version(root: Path, package: str) -> str | None:
    meta = root / "node_modules" / package / "package.json"
    if not meta.is_file():
        return None
    return json.loads(meta.read_text()).get("version")


def npm_assets_ready(root: Path = ROOT) -> bool:
    """True when every pinned package is installed at its pinned version."""
    return all(installed_version(root, p) == v for p, v in pinned_versions(root).items())


def _copy(src: Path, dst: Path) -> None:
    dst.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(src, dst)


def _anywidget_front_end() -> tuple[Path, str]:
    import anywidget

    pkg = Path(anywidget.__file__).parent
    return pkg / "nbextension" / "index.js", anywidget.__version__


def vendor(root: Path = ROOT, log: Callable[[str], None] = print) -> str:
    """Refill ``_vendor/``; return ``"local"`` or ``"cdn"``."""
    root = Path(root)
    dest = root / EXTRA_DIR / SUBDIR
    if (root / EXTRA_DIR).exists():
        shutil.rmtree(root / EXTRA_DIR)
    dest.mkdir(parents=True)

    anywidget_js, anywidget_version = _anywidget_front_end()
    _copy(anywidget_js, dest / "anywidget" / "index.js")

    pins = pinned_versions(root)
    mode = "local" if npm_assets_ready(root) else "cdn"
    if mode == "local":
        nm = root / "node_modules"
        _copy(nm / "requirejs" / "require.js", dest / "require.js")
        hm = nm / "@jupyter-widgets" / "html-manager"
        _copy(hm / "dist" / "embed-amd.js", dest / "html-manager" / "embed-amd.js")
        for f in (hm / "dist").iterdir():
            if f.suffix in HTML_MANAGER_SUFFIXES:
                _copy(f, dest / "html-manager" / f.name)
        mj = nm / "mathjax"
        for name in MATHJAX_TOP:
            _copy(mj / "es5" / name, dest / "mathjax" / name)
        for name in MATHJAX_DIRS:
            shutil.copytree(mj / "es5" / name, dest / "mathjax" / name)
        _copy(mj / "LICENSE", dest / "mathjax" / "LICENSE")
        _copy(nm / "axe-core" / "axe.min.js", dest / "axe-core" / "axe.min.js")
        _copy(nm / "axe-core" / "LICENSE", dest / "axe-core" / "LICENSE")
        log(
            f"vendor_assets: vendored {', '.join(f'{p}@{v}' for p, v in pins.items())},"
            f" anywidget@{anywidget_version} into {EXTRA_DIR}/{SUBDIR}/"
        )
    else:
        if os.environ.get("CI") == "true":
            raise RuntimeError(NOTICE + " -- refusing under CI=true; run `npm install`")
        log(NOTICE)
    paths_js = (root / "site_js" / "require_paths.js").read_text()
    if mode == "cdn":
        hm_version = pins["@jupyter-widgets/html-manager"]
        hm_dist = f"{CDN}@jupyter-widgets/html-manager@{hm_version}/dist/"
        line = 'var HTML_MANAGER_DIST = "html-manager/";'
        if line not in paths_js:
            raise RuntimeError("site_js/require_paths.js: the HTML_MANAGER_DIST line changed")
        paths_js = paths_js.replace(line, f'var HTML_MANAGER_DIST = "{hm_dist}";')
    (dest / "require_paths.js").write_text(paths_js)
    _copy(root / "site_js" / SITE_CSS, dest / SITE_CSS)
    info = {"mode": mode, "npm": pins, "anywidget": anywidget_version}
    (dest / "vendor.json").write_text(json.dumps(info, indent=1) + "\n")
    return mode


def cdn_url(local: str, root: Path = ROOT) -> str:
    """The public-CDN twin of a ``dcglab-vendor/...`` path used in _config.yml."""
    if not local.startswith(PREFIX):
        return local
    pins = pinned_versions(root)
    rel = local[len(PREFIX) :]
    if rel == "require.js":
        return f"{CDN}requirejs@{pins['requirejs']}/require.js"
    if rel.startswith("html-manager/"):
        hm = pins["@jupyter-widgets/html-manager"]
        return f"{CDN}@jupyter-widgets/html-manager@{hm}/dist/{rel.split('/', 1)[1]}"
    if rel.startswith("mathjax/"):
        return f"{CDN}mathjax@{pins['mathjax']}/es5/{rel.split('/', 1)[1]}"
    return local  # require_paths.js and anywidget are always served locally


if __name__ == "__main__":
    try:
        vendor()
    except RuntimeError as err:
        print(err, file=sys.stderr)
        sys.exit(1)
