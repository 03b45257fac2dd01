"""Shared test settings, helpers and fixtures.

* One hypothesis profile (``dcglab``) for every property test.
* Markers: ``browser`` (a test that drives Chromium, found by its use of the
  ``browser`` fixture) and ``slow`` (nbval over the chapters, subprocess runs,
  the full Cranfield collection). ``pytest -m "not browser and not slow"`` (or
  ``make test-fast``) runs the fast subset; ``make test`` runs everything.
* :func:`skip_or_fail`: what a test does when something it needs is missing. It
  skips with the reason, except under ``CI=true``, where it fails.
* :func:`require`: import an optional test dependency (a reference library),
  through :func:`skip_or_fail`.
* ``references``: the four reference libraries, each under its own convention,
  returning per-query values.
* ``serve_folder``: serve a folder over HTTP on 127.0.0.1 (quietly) for a test.
* ``spark``: one local[2] Spark session for every module that needs it.
* ``browser``: a headless Debian Chromium driven by Playwright.
* ``site_dir``, ``http_server``, ``page``: the built static site in Chromium (helpers
  in tests/sitekit.py).
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import importlib
import os
import shutil
import threading
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import settings

from dcglab.book import tools

settings.register_profile("dcglab", max_examples=200, deadline=None)
settings.load_profile("dcglab")

CHROMIUM = os.environ.get("DCGLAB_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

IN_CI = os.environ.get("CI") == "true"
"""Under ``CI=true`` nothing may be skipped for want of a file, a browser or a library."""


def skip_or_fail(reason: str) -> None:
    """Skip the test with ``reason``; under ``CI=true`` fail with it instead."""
    if IN_CI:
        pytest.fail(f"{reason} (CI=true requires this test to run)")
    pytest.skip(reason)


def require(module: str) -> ModuleType:
    """Import ``module`` (an optional test dependency), or :func:`skip_or_fail`."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        skip_or_fail(f"{module} is not installed ({exc}); pip install -r requirements.txt")
        raise  # not reached: skip_or_fail raises


@pytest.fixture(name="skip_or_fail", scope="session")
def skip_or_fail_fixture():
    """:func:`skip_or_fail` for test modules (which cannot import this file)."""
    return skip_or_fail


@pytest.fixture(name="require", scope="session")
def require_fixture():
    """:func:`require` for test modules."""
    return require


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark browser tests (they use the ``browser`` fixture) and nbval's chapter cells."""
    for item in items:
        if "browser" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.browser)
        if item.path.suffix == ".ipynb":
            item.add_marker(pytest.mark.slow)


# ------------------------------------------------------------------ trec_eval 10.0


@pytest.fixture(scope="session")
def trec_eval_binary(tmp_path_factory) -> Path:
    """trec_eval 10.0 built from ``../shared/reference/trec_eval-10.0`` (tests/oracle.py).

    Skipped when the source is absent or does not build, except under ``CI=true``,
    where either is a failure.
    """
    import subprocess

    from oracle import SOURCE, build_trec_eval

    if not (SOURCE / "trec_eval.c").is_file():
        skip_or_fail(f"trec_eval 10.0's source is not in {SOURCE}")
    try:
        return build_trec_eval(tmp_path_factory.mktemp("trec_eval"))
    except (OSError, subprocess.CalledProcessError) as exc:
        detail = getattr(exc, "stderr", "") or exc
        skip_or_fail(f"could not build trec_eval 10.0 with make: {detail}")
        raise  # not reached: skip_or_fail raises


TREC_EVAL_TEST = Path(__file__).resolve().parents[2] / "shared" / "reference" / "trec_eval_test"
"""trec_eval's own test files (qrels.test, results.test, results.trunc, ...)."""


@pytest.fixture(scope="session")
def trec_eval_test_files() -> Path:
    """The folder of trec_eval's test files; skipped when absent, except under ``CI=true``."""
    if not TREC_EVAL_TEST.is_dir():
        skip_or_fail(f"trec_eval's test files are not in {TREC_EVAL_TEST}")
    return TREC_EVAL_TEST


@pytest.fixture(scope="session")
def spark():
    """A local[2] Spark session, active, so that the command line's Spark path uses it;
    one for every test module (starting the JVM takes seconds)."""
    if not (shutil.which("java") or os.environ.get("JAVA_HOME")):
        skip_or_fail("no Java runtime: install Debian's openjdk-17-jre-headless to run Spark")
    require("pyspark")
    from dcglab.evaluation.engines import spark_session

    session = spark_session("local[2]", memory="1g", partitions=2)
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


# --------------------------------------------------------------- reference libraries

Qrels = Mapping[str, Mapping[str, int]]
Run = Mapping[str, Mapping[str, float]]


class References:
    """The reference libraries, each called under its own convention.

    Inputs are dicts: ``qrels[query][doc] = grade`` and ``run[query][doc] = score``.
    Each method imports its library with :func:`require`, then calls it through
    :mod:`dcglab.book.tools`, the one module of peer-library calls that the book
    shares.
    """

    @staticmethod
    def trec_eval(qrels: Qrels, run: Run, measures: Iterable[str]) -> dict[str, dict[str, float]]:
        """pytrec_eval (trec_eval 9): ``{query: {measure: value}}``, e.g. ``ndcg_cut_10``."""
        require("pytrec_eval")
        return tools.pytrec_eval(qrels, run, measures)

    @staticmethod
    def ranx(qrels: Qrels, run: Run, metrics: Iterable[str]) -> dict[str, dict[str, float]]:
        """ranx: ``{metric: {query: value}}``, e.g. ``ndcg@5`` or ``ndcg_burges@5``."""
        require("ranx")
        return tools.ranx(qrels, run, metrics)

    @staticmethod
    def ir_measures(qrels: Qrels, run: Run, measures: Iterable[str]) -> dict[str, dict[str, float]]:
        """ir_measures: ``{measure: {query: value}}``, e.g. ``nDCG@5`` or ``nDCG``."""
        require("ir_measures")
        return tools.ir_measures(qrels, run, measures)

    @staticmethod
    def sklearn(kind: str, grades, scores, k: int | None = None) -> float:
        """scikit-learn's ``ndcg_score`` or ``dcg_score`` (``kind``) of one query:
        the ideal from the items passed, tied scores averaged."""
        require("sklearn.metrics")
        score = {"ndcg": tools.sklearn_ndcg, "dcg": tools.sklearn_dcg}[kind]
        return score(grades, scores, k=k)


@pytest.fixture(scope="session")
def references() -> References:
    """The reference libraries (:class:`References`)."""
    return References()


# --------------------------------------------------------------------- HTTP server


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    """Serves files without logging each request to stderr."""

    def log_message(self, format, *args):  # noqa: A002 - signature from the base class
        pass


@contextlib.contextmanager
def serve(folder: str | Path) -> Iterator[tuple[str, http.server.ThreadingHTTPServer]]:
    """Serve ``folder`` on 127.0.0.1 at a free port; yields ``(base URL, server)``.

    The base URL ends in ``/``. A test may call ``server.shutdown()`` early to
    prove that what follows needs no network.
    """
    handler = functools.partial(QuietHandler, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/", server
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="session")
def serve_folder():
    """:func:`serve` for test modules: ``with serve_folder(path) as (url, server): ...``."""
    return serve


# ------------------------------------------------------------------------ browser


@pytest.fixture(scope="session")
def browser():
    if not shutil.which(CHROMIUM) and not os.path.exists(CHROMIUM):
        skip_or_fail(f"Chromium not found at {CHROMIUM}; install Debian's 'chromium' package")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        skip_or_fail("playwright is not installed")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


# ------------------------------------------------------------- the built static site


@pytest.fixture(scope="session")
def site_dir() -> Path:
    """The built site (``_build/html``); skipped when missing (a failure under CI=true)."""
    from sitekit import SITE

    if not (SITE / "index.html").is_file():
        skip_or_fail(f"no built site at {SITE}; run `make book` first")
    return SITE


@pytest.fixture(scope="session")
def http_server(site_dir: Path):
    """The site served on 127.0.0.1 at a free port; yields the base URL."""
    with serve(site_dir) as (url, _server):
        yield url


@pytest.fixture
def page(browser, http_server):
    """A fresh 1280x900 light-mode page of the site (tests/sitekit.py ``new_page``)."""
    from sitekit import new_page

    with new_page(browser, http_server) as p:
        yield p
