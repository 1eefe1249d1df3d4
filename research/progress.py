"""Feedback for long commands: progress bars and live status lines, on stderr.

Both are tqdm's, so they look alike and behave alike: drawn on stderr, silent with ``quiet``
(the commands' ``-q``), and off by themselves when stderr is not a terminal (a log file or a
pipe gets no carriage-return noise). A bar counts known work (games, deals, levels); a status
line says what an open-ended step is doing (a sampler's stage, a solver's search) with its
elapsed time, redrawn by a background thread so that it moves while the step runs.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterable
from typing import Any, TypeVar

from tqdm import tqdm

T = TypeVar("T")

REDRAW_SECONDS = 0.25


def bar(
    iterable: Iterable[T] | None = None,
    *,
    total: int | None = None,
    desc: str = "",
    unit: str = "it",
    quiet: bool = False,
) -> tqdm:
    """A progress bar over ``iterable`` (or ``total`` steps, advanced with ``update``)."""
    return tqdm(
        iterable,
        total=total,
        desc=desc,
        unit=unit,
        file=sys.stderr,
        disable=True if quiet else None,  # None: off when stderr is not a terminal
        dynamic_ncols=True,
        leave=False,
    )


class Status:
    """A live status line: ``what`` (the step), a detail set by :meth:`set`, and the elapsed
    time, redrawn every :data:`REDRAW_SECONDS` until the ``with`` block ends.

    ``set`` is a plain callable, so it can be handed to library code as its ``status``
    argument (``status=line.set``) without that code knowing about terminals."""

    def __init__(self, what: str, *, quiet: bool = False) -> None:
        self._bar = tqdm(
            total=None,
            desc=what,
            bar_format="{desc} [{elapsed}]",
            file=sys.stderr,
            disable=True if quiet else None,
            dynamic_ncols=True,
            leave=False,
        )
        self._what = what
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def set(self, detail: str) -> None:
        """Show ``detail`` after the step's name."""
        if not self._bar.disable:
            self._bar.set_description_str(f"{self._what}: {detail}", refresh=False)

    def __enter__(self) -> Status:
        if not self._bar.disable:
            self._thread = threading.Thread(target=self._redraw, daemon=True)
            self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        self._bar.close()

    def _redraw(self) -> None:
        while not self._stop.wait(REDRAW_SECONDS):
            self._bar.refresh()


