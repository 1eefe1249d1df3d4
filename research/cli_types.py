"""Argument types for the command line: bad values fail in argparse with one line, exit 2."""

from __future__ import annotations

import argparse
import math
import os


def seed(text: str) -> int:
    """A seed: an integer >= 0 (numpy's seeds cannot be negative)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer >= 0, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected an integer >= 0, got {value}")
    return value


def count(text: str) -> int:
    """A count of things a search may do (answers, nodes): an integer >= 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer >= 1, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected an integer >= 1, got {value}")
    return value


def seconds(text: str) -> float:
    """A time limit: a finite number of seconds > 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected seconds > 0, got {text!r}") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"expected a finite number of seconds > 0, got {text}")
    return value


# Memory a command holds per item: generous round figures, not measurements (a simulated
# game's summary columns, as its records stream to disk in batches; a uniformity draw's key;
# any other kind is a game's setups: a board, a deal, with its JSON line). They only have to
# catch counts that are absurd for the machine, not to predict memory.
SETUP_BYTES = 2_000
BYTES_PER = {
    "games": 1_000,
    "draws": 200,
    # a run's per-game metrics row in the analysis (records stream to disk, the plan is lazy)
    "planned games": 3_000,
}


def available_memory() -> int:
    """Bytes the system can still give (MemAvailable), or the physical memory if unknown."""
    try:
        with open("/proc/meminfo") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")


def check_fits(count: int, what: str, flag: str) -> None:
    """ValueError (one line) when ``count`` items of kind ``what`` (a key of
    :data:`BYTES_PER`, or a game's setups: ``boards``, ``deals``...) would not fit in memory,
    unless the environment sets ``LUDOLAB_MEMORY_CHECK=0``."""
    if os.environ.get("LUDOLAB_MEMORY_CHECK", "1") == "0":
        return
    need = count * BYTES_PER.get(what, SETUP_BYTES)
    have = available_memory()
    if need > have:
        raise ValueError(
            f"{flag} {count:,}: about {need / 2**30:,.1f} GiB of {what} in memory, but "
            f"{have / 2**30:,.1f} GiB is available; ask for fewer (split the work), or set "
            "LUDOLAB_MEMORY_CHECK=0 to try anyway"
        )


def add_quiet_option(parser: argparse.ArgumentParser) -> None:
    """The ``--quiet/-q`` flag of a command that shows progress (research.progress)."""
    parser.add_argument(
        "--quiet", "-q", action="store_true", help="no progress bar or status line on stderr"
    )


def game_name(text: str) -> str:
    """A registered game's name (:mod:`ludolab.games`)."""
    from ludolab import games

    if not games.known(text):
        raise argparse.ArgumentTypeError(games.unknown_game_message(text))
    return text
