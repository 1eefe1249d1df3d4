"""Suite-wide settings: the garbage collector kept cheap in a long test process.

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

import pytest


@pytest.fixture(autouse=True, scope="module")
def _freeze_the_heap() -> Iterator[None]:
    gc.collect()
    gc.freeze()
    yield
