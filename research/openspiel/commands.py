"""``ludolab openspiel [GAME]``: OpenSpiel's games that ludolab plays, or one game's kind and
parameters (what a set's ``parameters`` constraint may set)."""

from __future__ import annotations

import argparse
from typing import Any


def add_commands(sub: Any) -> None:
    """Add ``openspiel`` to the ``ludolab`` parser's subparsers ``sub``."""
    p = sub.add_parser(
        "openspiel",
        help="OpenSpiel's games (openspiel:<game>), or one game's parameters",
        description=(
            "Without GAME: every OpenSpiel game ludolab plays, as openspiel:<game>. With GAME: "
            "its seats, chance, information and parameters with their defaults (what a set's "
            "parameters constraint may set)."
        ),
    )
    p.add_argument("game", nargs="?", metavar="GAME", help="OpenSpiel's name of a game (go)")
    p.set_defaults(run=_run)


def _run(args: argparse.Namespace) -> int:
    from ludolab import games
    from ludolab.envs.openspiel.engine import OpenSpielError, parameter_defaults

    family = games.family("openspiel")
    if args.game is None:
        members = family.members()
        if not members:
            raise OpenSpielError(
                "OpenSpiel is not installed: pip install -e '.[openspiel]' (make setup installs it)"
            )
        print(f"{len(members)} OpenSpiel games, each played as openspiel:<game>:")
        line = ""
        for name in members:
            if len(line) + len(name) + 2 > 100:
                print(line.rstrip(", "))
                line = ""
            line += f"{name}, "
        print(line.rstrip(", "))
        return 0
    name = args.game.removeprefix("openspiel:")
    game = games.get(f"openspiel:{name}")
    kind = game.kind  # type: ignore[attr-defined]
    seats = (
        f"{game.min_players}"
        if game.min_players == game.max_players
        else f"{game.min_players}-{game.max_players} (default {game.default_players})"
    )
    print(f"openspiel:{name}: {kind.long_name}")
    print(f"  seats: {seats}")
    print(
        f"  moves: {kind.dynamics.name.lower()}; chance: {kind.chance_mode.name.lower()}; "
        f"information: {kind.information.name.lower().replace('_', ' ')}; utility: "
        f"{kind.utility.name.lower().replace('_', '-')}"
    )
    params = {k: v for k, v in parameter_defaults(name).items() if k != "players"}
    print("  parameters (default):" + ("" if params else " none"))
    for key, value in sorted(params.items()):
        print(f"    {key} = {value!r}")
    unsupported = game.unsupported_metrics
    if unsupported:
        import textwrap

        print(
            textwrap.fill(
                f"metrics it cannot support: {', '.join(unsupported)}",
                100,
                initial_indent="  ",
                subsequent_indent="    ",
            )
        )
    return 0
