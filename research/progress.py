"""Feedback for long commands: progress bars and live status lines, on stderr.

Every bar and status line of the package is made here (:func:`bar`, :class:`Status`), so that
one rule decides whether it is drawn (:func:`shown`): only when stderr is a terminal and the
command is not ``quiet`` (the commands' ``-q``). A log file or a pipe (``make demo > log 2>&1``,
``ludolab run ... 2>&1 | tail``) gets no carriage-return noise. Both are tqdm's, so they look
alike: a bar counts known work (games, deals, levels); a status line says what an open-ended
step is doing (a sampler's stage, a solver's search) with its elapsed time, redrawn by a
background thread so that it moves while the step runs.

The decision is made here and handed to tqdm as ``disable=True/False``, never as tqdm's
``disable=None`` ("off when not a terminal"): a caller that passed ``disable=quiet`` (False:
"always on") drew the experiment runner's bar into every log, and one rule in one place keeps
that from coming back.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterable
from typing import IO, Any, TypeVar

from tqdm import tqdm

T = TypeVar("T")

REDRAW_SECONDS = 0.25


def on_terminal(stream: IO[str] | None = None) -> bool:
    """Whether ``stream`` (default: ``sys.stderr`` as it is now) is a terminal.

    A stream without ``isatty`` (a wrapper, a test's capture) or a closed one is not: drawing
    on it could only put carriage returns into something that is read later."""
    stream = sys.stderr if stream is None else stream
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):  # no isatty, or closed
        return False


def shown(quiet: bool = False, stream: IO[str] | None = None) -> bool:
    """Whether feedback is drawn on ``stream`` (default ``sys.stderr``): not ``quiet`` and a
    terminal."""
    return not quiet and on_terminal(stream)


def bar(
    iterable: Iterable[T] | None = None,
    *,
    total: int | None = None,
    desc: str = "",
    unit: str = "it",
    quiet: bool = False,
    initial: int = 0,
    leave: bool = False,
    smoothing: float = 0.3,
) -> tqdm:
    """A progress bar over ``iterable`` (or ``total`` steps, advanced with ``update``), on
    stderr when :func:`shown`; otherwise a silent one that still counts.

    ``initial`` steps are already done (a resumed run); ``leave`` keeps the finished bar on the
    screen; ``smoothing`` is tqdm's (0: the rate over the whole run, 1: the latest step)."""
    # sys.stderr is looked up now, not at import: a redirected stderr is the one decided on.
    stream = sys.stderr
    return tqdm(
        iterable,
        total=total,
        initial=initial,
        desc=desc,
        unit=unit,
        file=stream,
        disable=not shown(quiet, stream),
        dynamic_ncols=True,
        leave=leave,
        smoothing=smoothing,
    )


class Status:
    """A live status line: ``what`` (the step), a detail set by :meth:`set`, and the elapsed
    time, redrawn every :data:`REDRAW_SECONDS` until the ``with`` block ends; drawn only when
    :func:`shown` (no thread is started otherwise).

    ``set`` is a plain callable, so it can be handed to library code as its ``status``
    argument (``status=line.set``) without that code knowing about terminals."""

    def __init__(self, what: str, *, quiet: bool = False) -> None:
        stream = sys.stderr
        self._bar = tqdm(
            total=None,
            desc=what,
            bar_format="{desc} [{elapsed}]",
            file=stream,
            disable=not shown(quiet, stream),
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
