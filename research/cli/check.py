"""``ludolab check-game GAME``: the conformance suite (:mod:`ludolab.testing`) from the shell,
what the author of a new game runs first."""

from __future__ import annotations

import argparse
import sys

from ludolab import games
from ludolab.research.cli_types import game_name, seed


def add_commands(sub: argparse._SubParsersAction) -> None:
    """``check-game``."""
    check = sub.add_parser(
        "check-game",
        help="check a registered game against the game protocol (ludolab.testing.check_game)",
        description="Runs every conformance check in order (the game's description, setups, "
        "determinism, legal and illegal actions, clones, the record and its table, the "
        "metrics, a tiny `ludolab run` twice) and stops at the first failure, which it names "
        "with what to fix. Exit 0 when the game passes, 1 when it does not.",
    )
    check.add_argument(
        "game", type=game_name, metavar="GAME", help=f"one of {', '.join(games.names())}"
    )
    check.add_argument(
        "--games", type=int, default=3, help="games each playing check plays (default 3)"
    )
    check.add_argument("--seed", type=seed, default=0, help="the suite's seed (default 0)")
    check.add_argument(
        "--no-run", dest="play_run", action="store_false", help="skip the tiny experiment (`run`)"
    )
    check.set_defaults(run=_check_game_args)


def _check_game_args(args: argparse.Namespace) -> int:
    return _check_game(args.game, args.games, args.seed, args.play_run)


def _check_game(name: str, n_games: int, seed_value: int, run: bool) -> int:
    from ludolab.testing import CHECKS, ConformanceError, check_game

    if n_games < 1:
        raise ValueError(f"--games {n_games}: give at least 1")
    try:
        report = check_game(name, games=n_games, seed=seed_value, run=run)
    except ConformanceError as exc:
        failed = str(exc).split(":", 1)[0]
        for check in CHECKS[: CHECKS.index(failed)] if failed in CHECKS else ():
            print(f"ok    {check}")
        print(f"FAIL  {exc}", file=sys.stderr)
        return 1
    for check in report.checks:
        print(f"ok    {check}")
    print(
        f"{games.get(name).title} conforms to the game protocol "
        f"(version {games.PROTOCOL_VERSION}): {len(report.checks)} checks, "
        f"{report.games} games, {report.decisions} decisions stepped one by one"
    )
    return 0
