"""Masters Gallery's command-line options: how ``simulate gallery`` spells the rule options a
derived flag cannot (:data:`OPTION_FLAGS`, the game's :meth:`~ludolab.games.Game.option_flags`),
the rule flags ``exhibits`` takes, and the ``--symbols`` file both read."""

from __future__ import annotations

import argparse
import tomllib
from typing import TYPE_CHECKING

from ludolab.games import OptionFlag

if TYPE_CHECKING:  # the game's modules load inside the commands that use them
    from ludolab.envs.gallery.cards import SymbolsTable


class SymbolsFileError(ValueError):
    """A ``--symbols`` file that cannot be read as a symbols table (a user's error: one line)."""


SYMBOLS_HELP = (
    "the symbols table: per artist a table of symbol counts, e.g. [Yoko] draw = 2 "
    "(symbols draw, double, award, face-down, simultaneous; artists left out carry none). "
    "Default: 1 draw-one, 2 doubles and one of each other symbol per artist"
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
        raise SymbolsFileError(f"--symbols {path}: not valid TOML ({exc})") from None
    except FileNotFoundError:
        raise SymbolsFileError(f"--symbols {path}: no such file") from None
    try:
        return symbols_from_mapping(data, where=path)
    except ValueError as exc:
        raise SymbolsFileError(f"--symbols {exc}") from None


OPTION_FLAGS = {
    "symbols": OptionFlag(metavar="FILE.toml", help=SYMBOLS_HELP, parse=read_symbols),
    "extra_card_each_round": OptionFlag(off=("--extra-card-at-setup-only",)),
    "award_choice": OptionFlag(off=("--award-own-artist",)),
    # --deals names the setups file of simulate gallery
    "deals": OptionFlag(flags=("--later-deals",), metavar="A,B,C"),
}
"""How ``simulate gallery`` spells the options whose derived flag is not enough: the symbols
table is a file, two published rules keep the switches that turned them off, and the later
deals' counts must not take the setup file's flag."""


def add_gallery_rules(parser: argparse.ArgumentParser) -> None:
    """The Masters Gallery rule flags of ``exhibits`` (whose rules are the exhibit model's:
    :class:`ludolab.research.gallery.exhibits.ExhibitRules`)."""
    parser.add_argument("--symbols", metavar="FILE.toml", help=SYMBOLS_HELP)
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
