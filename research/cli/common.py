"""What the command groups share: the error a user can fix, the checks every command's
arguments pass, and the options several commands take."""

from __future__ import annotations

import argparse
import sys
import tomllib
from pathlib import Path
from typing import TYPE_CHECKING

from ludolab.research.cli_types import check_fits

if TYPE_CHECKING:  # the game modules load inside the commands that use them
    from ludolab.envs.gallery.cards import SymbolsTable


class SimulationError(ValueError):
    """A simulate request that cannot run as given."""


# The exceptions a user can cause and fix (one line and exit 2, never a traceback), by module:
# a class whose module is not loaded cannot have been raised, so nothing is imported to check.
USER_ERRORS = (
    ("ludolab.envs.catan.board", "BoardError"),
    ("ludolab.envs.catan.topology", "LayoutError"),
    ("ludolab.envs.gallery.deal", "DealError"),
    ("ludolab.research.catan.constraint_set", "ConstraintSetError"),
    ("ludolab.research.catan.constraints", "ConstraintError"),
    ("ludolab.research.catan.samplers", "SamplingError"),
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
    for module, name in USER_ERRORS:
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
    from ludolab.research.catan.constraint_set import ConstraintSetError

    out = {}
    for item in items:
        key, eq, value = item.partition("=")
        if not eq or "." not in key:
            raise ConstraintSetError(
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


def add_gallery_rules(parser: argparse.ArgumentParser) -> None:
    """The Masters Gallery rule flags shared by `simulate gallery` and `exhibits`."""
    parser.add_argument(
        "--symbols",
        metavar="FILE.toml",
        help="the symbols table: per artist a table of symbol counts, e.g. [Yoko] draw = 2 "
        "(symbols draw, double, award, face-down, simultaneous; artists left out carry none). "
        "Default: 1 draw-one, 2 doubles and one of each other symbol per artist",
    )
    parser.add_argument(
        "--no-extra-card", action="store_true", help="no face-up extra card (published: one)"
    )
    parser.add_argument(
        "--extra-card-at-setup-only",
        action="store_true",
        help="the face-up extra card only at setup, for round 1 (default: a new one each round)",
    )
    parser.add_argument(
        "--award-own-artist",
        action="store_true",
        help="an award card's token goes on the card's own artist (published: an artist of "
        "the player's choice)",
    )


def read_symbols(path: str | None) -> SymbolsTable | None:
    """The ``--symbols`` file's table, or None; errors name the file, the artist, the symbol."""
    from ludolab.envs.gallery.cards import symbols_from_mapping

    if path is None:
        return None
    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except tomllib.TOMLDecodeError as exc:
        raise SimulationError(f"--symbols {path}: not valid TOML ({exc})") from None
    except FileNotFoundError:
        raise SimulationError(f"--symbols {path}: no such file") from None
    try:
        return symbols_from_mapping(data, where=path)
    except ValueError as exc:
        raise SimulationError(f"--symbols {exc}") from None
