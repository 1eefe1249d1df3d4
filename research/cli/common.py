"""What the command groups share: the error a user can fix, the checks every command's
arguments pass, and the options several commands take."""

from __future__ import annotations

import argparse
import sys
import tomllib
from pathlib import Path

from ludolab import games
from ludolab.research.cli_types import check_fits


class SimulationError(ValueError):
    """A simulate request that cannot run as given."""


# The exceptions a user can cause and fix (one line and exit 2, never a traceback), by module,
# besides each game's own (its description's user_errors): a class whose module is not loaded
# cannot have been raised, so nothing is imported to check.
USER_ERRORS = (
    ("ludolab.games", "UnknownGameError"),
    ("ludolab.games", "SetupSetError"),
    ("ludolab.games", "GameRegistrationError"),
    ("ludolab.research.experiment.config", "ConfigError"),
    ("ludolab.research.experiment.store", "RunError"),
    ("ludolab.research.puzzles", "PuzzleError"),
    ("ludolab.research.solve", "SolveError"),
)


def is_user_error(exc: BaseException) -> bool:
    """Whether ``exc`` is one of :data:`USER_ERRORS`, a :class:`SimulationError` or a missing,
    misplaced or forbidden file."""
    if isinstance(exc, SimulationError | FileNotFoundError | NotADirectoryError | PermissionError):
        return True
    own = [pair for name in games.names() for pair in games.get(name).user_errors]
    for module, name in (*USER_ERRORS, *own):
        loaded = sys.modules.get(module)
        if loaded is not None and isinstance(exc, getattr(loaded, name)):
            return True
    return False


SIZE_ARGUMENTS = {"n": "-n", "games": "--games", "draws": "--draws"}


def check_sizes(args: argparse.Namespace) -> None:
    """Counts at least 1, and small enough to hold in memory (see cli_types.check_fits), for
    the commands that draw or play that many things: their parser's defaults set ``sized`` to
    what ``-n`` counts ("boards", "deals")."""
    noun = getattr(args, "sized", None)
    if noun is None:
        return  # other commands' -n / --n mean something else (a board size, a count cap)
    for name, flag in SIZE_ARGUMENTS.items():
        value = getattr(args, name, None)
        if not isinstance(value, int):
            continue
        if value < 1:
            raise SimulationError(f"{flag} must be at least 1, got {value}")
        what = {"n": noun}.get(name, name)
        try:
            check_fits(value, what, flag)
        except ValueError as exc:
            raise SimulationError(str(exc)) from None


def refuse_to_overwrite(args: argparse.Namespace) -> None:
    """A command that writes one file (``--out``) keeps an existing one unless ``--force``."""
    if not hasattr(args, "force") or not getattr(args, "out", None):
        return
    out = Path(args.out)
    if out.is_dir():
        raise SimulationError(f"--out {out}: is a folder; name the file to write")
    if out.exists() and not args.force:
        raise SimulationError(
            f"--out {out}: the file exists; pass --force to replace it (nothing was written)"
        )


def add_batches(parser: argparse.ArgumentParser) -> None:
    """``--workers``, ``--batch`` and ``--resume``: how a ``simulate`` command plays."""
    parser.add_argument(
        "--workers", type=int, default=1, help="worker processes (default %(default)s)"
    )
    parser.add_argument(
        "--batch",
        type=int,
        default=1000,
        help="games per batch: each finished batch is saved, so a stopped simulation keeps "
        "it (default %(default)s)",
    )
    parser.add_argument(
        "--resume",
        action="store_true",
        help="continue a stopped simulation (same arguments): play only its missing batches",
    )


def add_force(parser: argparse.ArgumentParser) -> None:
    """``--force``: replace the ``--out`` file (see :func:`refuse_to_overwrite`)."""
    parser.add_argument("--force", action="store_true", help="replace the --out file if it exists")


def parse_params(items: list[str]) -> dict:
    """``--param CONSTRAINT.PARAM=VALUE`` items as ``{"CONSTRAINT.PARAM": value}``, each value
    read as TOML (a bare word stays a string)."""
    out = {}
    for item in items:
        key, eq, value = item.partition("=")
        if not eq or "." not in key:
            raise SimulationError(
                f"--param {item!r}: expected CONSTRAINT.PARAM=VALUE, e.g. "
                f"red-numbers-apart.numbers=[6,8]"
            )
        try:
            out[key.strip()] = tomllib.loads(f"v = {value}")["v"]
        except tomllib.TOMLDecodeError:
            out[key.strip()] = value  # a bare word, e.g. a choice like seed-2019-block
    return out


def parquet_out(text: str) -> Path:
    """The ``--out`` of a ``simulate`` command: a ``.parquet`` name in a folder that exists."""
    out = Path(text)
    if out.suffix != ".parquet":
        raise SimulationError(f"--out {out}: expected a .parquet file name")
    if not out.parent.is_dir():
        raise NotADirectoryError(f"--out {out}: the folder {out.parent} does not exist")
    return out
