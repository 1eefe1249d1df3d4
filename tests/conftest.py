"""Suite-wide settings: the garbage collector kept cheap in a long test process, and the
headless browser of the tests that open a page (the games page, the docs site).

A test process imports pandas, statsmodels, matplotlib, the solvers and the games, and keeps
module fixtures alive: hundreds of thousands of objects that every full collection walks again.
statsmodels' Holm correction calls ``gc.collect()`` on each call (statsmodels PR #8671), so an
analysis that takes a second in a fresh process took two late in the suite. Freezing what is
alive when a module starts moves it out of the collector's sight; objects freed by their
reference counts are still freed, and garbage made by the tests is still collected.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture(autouse=True, scope="module")
def _freeze_the_heap() -> Iterator[None]:
    gc.collect()
    gc.freeze()
    yield


CHROMIUM, CHROMEDRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
"""Debian's Chromium and its driver (``make setup`` installs them)."""


@pytest.fixture(scope="module")
def browser():
    """A headless Chromium (Selenium), one per test module."""
    webdriver = pytest.importorskip("selenium.webdriver")
    if not (Path(CHROMIUM).exists() and Path(CHROMEDRIVER).exists()):
        pytest.fail(
            "the browser tests need Debian's chromium and chromium-driver; `make setup` "
            "installs them (apt-get install chromium chromium-driver)"
        )
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1100,900",
                 "--disable-dev-shm-usage"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    yield driver
    driver.quit()
