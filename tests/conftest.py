"""Shared fixtures: a headless Debian Chromium driven by Playwright.

Browser tests skip with a clear reason when Chromium or Playwright is missing,
except under CI=true, where a missing browser is a failure.
"""

import os
import shutil

import pytest

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


def skip_or_fail(reason: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"{reason} (CI=true requires the browser tests to run)")
    pytest.skip(reason)


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
