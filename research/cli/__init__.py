"""`ludolab` command line: thin subcommands over the library.

One module per group of commands, each holding its commands' parsers and what they run:
:mod:`~ludolab.research.cli.setups` (``generate GAME``, ``constraints``, ``solve``),
:mod:`~ludolab.research.cli.play` (``simulate GAME``, ``ladder``),
:mod:`~ludolab.research.cli.experiments` (``run``, ``plan``, ``metrics``, ``compare``, ``plot``,
``report``), :mod:`~ludolab.research.cli.design` and :mod:`~ludolab.research.cli.puzzles`
(``puzzle``, ``site``), :mod:`~ludolab.research.cli.check` (``check-game``, the conformance
suite); :mod:`~ludolab.research.cli.common` holds what they share.
``simulate`` and ``generate`` have a subcommand per registered game, built from the game
protocol (:mod:`ludolab.games`, its command-line section). Each registered game may add commands
of its own (:meth:`ludolab.games.Game.add_commands`: Catan's ``show``, ``count`` and
``check-uniformity``, Masters Gallery's ``exhibits``). This module puts them together into one
parser and runs a command.

Errors people can fix (a bad file, an unknown name, an unsatisfiable set, a missing MiniZinc)
print one message to stderr and exit with status 2; nothing half-written is left behind.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

# Only what building the parser needs is imported by these modules (no numpy, pandas or
# solver): the library loads inside the subcommand that uses it, so `ludolab --help` starts at
# once.
from ludolab import games
from ludolab.research.cli import check, design, experiments, play, puzzles, setups
from ludolab.research.cli.common import (
    SimulationError,
    check_sizes,
    is_user_error,
    refuse_to_overwrite,
)
from ludolab.research.cli.puzzles import PUZZLES

__all__ = ["PUZZLES", "SimulationError", "is_user_error", "main"]


GAME_COMMANDS = ("check-game", "generate", "ladder", "simulate")
"""Commands whose first argument is a registered game's name."""


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``ludolab`` command with ``argv`` (default: the process's arguments); the exit
    status (0 done, 2 an error the user can fix, 130 interrupted, 141 the reader went away)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if (
        len(argv) > 1
        and argv[0] == "puzzle"
        and not argv[1].startswith("-")
        and (argv[1] not in PUZZLES)
    ):  # one line, as for every other bad input (argparse would print its usage first)
        print(
            f"ludolab: error: no puzzle game {argv[1]!r}; the puzzles are {', '.join(PUZZLES)}",
            file=sys.stderr,
        )
        return 2
    named = argv[1] if len(argv) > 1 and argv[0] in GAME_COMMANDS else "-"
    if not named.startswith("-") and not games.known(named):  # one line, not the usage
        print(f"ludolab: error: {games.unknown_game_message(named)}", file=sys.stderr)
        return 2
    parser = _parser(argv)
    args = parser.parse_args(argv)
    if not hasattr(args, "run"):
        parser.print_help()
        return 2
    try:
        check_sizes(args)
        refuse_to_overwrite(args)
        return args.run(args) or 0
    except KeyboardInterrupt:
        print("ludolab: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader went away (`ludolab count ... | head`): stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # so that the exit's flush does not fail again
        return 141  # as a shell reports a process stopped by SIGPIPE
    except Exception as exc:
        if not is_user_error(exc):
            raise
        print(f"ludolab: error: {exc}", file=sys.stderr)
        return 2


def _parser(argv: Sequence[str] = ()) -> argparse.ArgumentParser:
    """The command line's parser. A puzzle's options load only when ``argv`` names that
    puzzle (``puzzle NAME ...``): each brings its solver modules with it."""
    p = argparse.ArgumentParser(
        prog="ludolab",
        description=(
            "Which constraints on a game's setup make the game better to play? Generate setups "
            "with MiniZinc, play them, compare."
        ),
    )
    sub = p.add_subparsers(metavar="COMMAND")
    setups.add_commands(sub, argv)
    play.add_commands(sub, argv)
    check.add_commands(sub)
    for name in games.names():  # the games' own commands (Catan's count, Gallery's exhibits)
        games.get(name).add_commands(sub)
    for name in games.families():  # a family's (listing its games)
        games.family(name).add_commands(sub)
    experiments.add_commands(sub)
    design.add_commands(sub)
    puzzles.add_commands(sub, argv)
    comp = sub.add_parser(
        "completion",
        help="print a shell completion script",
        description='Tab completion of commands and options: eval "$(ludolab completion bash)" '
        "in ~/.bashrc (zsh: ludolab completion zsh > ~/.zfunc/_ludolab).",
    )
    comp.add_argument("shell", choices=("bash", "zsh", "tcsh"))
    comp.set_defaults(run=_completion)
    return p


def _completion(args: argparse.Namespace) -> int:
    import shtab

    print(shtab.complete(_parser(["completion"]), shell=args.shell), end="")
    return 0
