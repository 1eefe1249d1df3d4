"""Catan's own commands and command-line hooks: ``ludolab show`` (a board's picture), ``count``
(how many boards satisfy a set) and ``check-uniformity`` (a sampler's chi-square test), which the
command line adds through the game's description (:meth:`ludolab.games.Game.add_commands`); and
what ``generate catan``, ``simulate catan`` and ``constraints`` ask of the game (the command-line
section of :class:`ludolab.games.Game`).

Only :mod:`ludolab.research.catan.catalog` loads with the parser (no numpy, no solver): the
library loads inside the command that uses it.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ludolab.games import OptionFlag, SetupSetError
from ludolab.research.catan.catalog import (
    COUNT_METHODS,
    FIRST_BOARD_SECONDS,
    OBJECTIVE_NAMES,
    CountSettings,
    shipped_sets,
)
from ludolab.research.cli.common import SimulationError, add_force, parse_params, wrapped
from ludolab.research.cli_types import add_quiet_option, seconds, seed

PICTURES = 8
"""Boards ``generate catan --pictures DIR`` draws (the first ones)."""


def add_commands(sub: argparse._SubParsersAction) -> None:
    """``show``, ``count``, ``check-uniformity``."""
    show = sub.add_parser("show", help="Catan: draw a board (PNG, SVG or PDF by the --out suffix)")
    show.add_argument(
        "board",
        help="a board .json, or a .jsonl (its first board, or FILE:K for board K, counted "
        "from 0 like every index in ludolab's tables)",
    )
    show.add_argument("--out", "-o", required=True)
    add_force(show)
    show.add_argument("--title", default=None)
    show.set_defaults(run=_show)

    cnt = sub.add_parser(
        "count",
        help="Catan: how many boards satisfy a constraint set, and its share of fair shuffles",
        description="Exact where it can be (a depth-first count over the parts the set "
        "constrains), else an estimate with its 95% interval: the share of fair shuffles that "
        "satisfy the set when rejection finds enough of them, else importance sampling over "
        "random descents of the search tree. Prints the tightness, -log10(share).",
    )
    cnt.add_argument("--constraints", "-c", required=True, metavar="NAME|FILE")
    cnt.add_argument("--param", action="append", default=[], metavar="CONSTRAINT.PARAM=VALUE")
    cnt.add_argument("--method", choices=COUNT_METHODS, default="auto")
    cnt.add_argument("--seed", type=seed, default=0, help="seed of the estimates (default 0)")
    cnt.add_argument(
        "--draws",
        type=int,
        default=CountSettings.draws,
        help="fair shuffles for the rejection estimate (default %(default)s)",
    )
    cnt.add_argument(
        "--list-nodes",
        type=int,
        default=CountSettings.list_nodes,
        help="search nodes allowed for an exact count in auto mode (default %(default)s)",
    )
    cnt.add_argument(
        "--max-descents",
        type=int,
        default=CountSettings.max_descents,
        help="random descents allowed for the importance-sampling estimate (default %(default)s)",
    )
    cnt.add_argument(
        "--time-limit",
        type=seconds,
        default=CountSettings.first_board_seconds,
        help="seconds the estimate's descents may search for a first board before the count "
        "stops and says the set may be impossible (default %(default)g)",
    )
    add_quiet_option(cnt)
    cnt.set_defaults(run=_count, sized="boards")

    uni = sub.add_parser(
        "check-uniformity",
        help="Catan: chi-square test of a sampler against uniform on an enumerable set",
    )
    uni.add_argument("--constraints", "-c", default="seed-2019-tiles", metavar="NAME|FILE")
    uni.add_argument(
        "--sampler", choices=("uniform", "rejection", "chain", "solver"), default="uniform"
    )
    uni.add_argument(
        "--draws",
        type=int,
        default=None,
        help="boards to draw (default: 20,000, or 10 per cell for larger spaces)",
    )
    add_quiet_option(uni)
    uni.add_argument("--seed", type=seed, default=0)
    uni.add_argument(
        "--bins",
        type=int,
        default=None,
        help="test K groups of consecutive listed boards instead of each board (for spaces "
        "with fewer than 5 draws per board)",
    )
    uni.set_defaults(run=_check_uniformity, sized="boards")


def _show(args: argparse.Namespace) -> int:
    from ludolab.envs.catan.board import BoardError, iter_boards, read_board
    from ludolab.research.catan.picture import render_board

    source, _, index = args.board.rpartition(":")
    if source and index.isdigit() and source.endswith(".jsonl"):
        k = int(index)  # 0-based, as the setup and game columns of every run table
        boards = list(iter_boards(source))
        if k >= len(boards):
            raise BoardError(
                f"{source}: asked for board {k} (0-based), the file holds {len(boards)}: "
                f"0 to {len(boards) - 1}"
            )
        board = boards[k]
    else:
        board = read_board(args.board)
    path = render_board(board, args.out, title=args.title or f"board {board.id}")
    print(f"board {board.id} -> {path}")
    return 0


def _count(args: argparse.Namespace) -> int:
    import numpy as np

    from ludolab.research.catan.constraint_set import load_constraint_set
    from ludolab.research.catan.counting import count_boards
    from ludolab.research.progress import Status

    for name in ("draws", "list_nodes", "max_descents"):
        if getattr(args, name) < 1:
            raise SimulationError(f"--{name.replace('_', '-')} must be at least 1")
    if args.seed < 0:
        raise SimulationError(f"--seed must be a non-negative integer, got {args.seed}")
    cset = load_constraint_set(args.constraints, parse_params(args.param))
    settings = CountSettings(
        draws=args.draws,
        list_nodes=args.list_nodes,
        max_descents=args.max_descents,
        first_board_seconds=args.time_limit,
    )
    with Status(f"counting the boards of {cset.name}", quiet=args.quiet) as line:
        result = count_boards(
            cset, np.random.default_rng(args.seed), settings, method=args.method, status=line.set
        )
    print(result.summary())
    return 0


def _check_uniformity(args: argparse.Namespace) -> int:
    from ludolab.research.catan.constraint_set import load_constraint_set
    from ludolab.research.catan.uniformity import check_uniformity

    result = check_uniformity(
        load_constraint_set(args.constraints),
        args.sampler,
        args.draws,
        args.seed,
        bins=args.bins,
        progress=None if args.quiet else lambda line: print(line, file=sys.stderr, flush=True),
    )
    print(result.summary())
    return 0


# --- simulate catan: the rule options a derived flag does not spell ---------------------------


def turn_limit(text: str) -> int | None:
    """``--turn-limit``'s value: a number of player turns, or 0 (or ``none``) for no limit."""
    word = text.strip().lower()
    if word in ("0", "none"):
        return None
    try:
        return int(word)
    except ValueError:
        raise ValueError(
            f"--turn-limit: expected a number of turns, or 0 for no limit, got {text!r}"
        ) from None


OPTION_FLAGS = {
    "turn_limit": OptionFlag(
        help="cut games off (truncated, no winner) after this many player turns; 0 for none "
        "(default: 1000)",
        parse=turn_limit,
    ),
    # the command line's name since before the option had its config name
    "trade_offers_per_turn": OptionFlag(
        flags=("--trade-offers", "--trade-offers-per-turn"), metavar="TRADE_OFFERS"
    ),
}
"""How ``simulate catan`` spells the options whose derived flag is not enough."""


# --- generate catan: the sampler's own flags -------------------------------------------------


def add_generate_arguments(parser: argparse.ArgumentParser) -> None:
    """``--objective`` and ``--time-limit`` (the settings a condition gives the samplers, with
    their choices and units), ``--max-draws`` and ``--pictures``."""
    parser.add_argument(
        "--objective",
        choices=sorted(OBJECTIVE_NAMES),
        default=None,
        help="for --sampler optimise: what the best board minimises or maximises (default "
        "pip-spread)",
    )
    parser.add_argument(
        "--time-limit",
        type=seconds,
        default=None,
        help="seconds of solver search (default: the search for a first board stops after "
        f"{FIRST_BOARD_SECONDS:g} s and says the set may be impossible; optimise: 10 s)",
    )
    parser.add_argument(
        "--max-draws",
        type=int,
        default=50_000_000,
        help="shuffles the uniform sampler may try (default %(default)s)",
    )
    parser.add_argument(
        "--pictures", metavar="DIR", help=f"also draw the first {PICTURES} boards (PNG) here"
    )
    parser.epilog = (
        "-n: with --sampler enumerate, a cap on the list (default: every board of the set); "
        "--sampler optimise gives one board."
    )


def generate_settings(args: argparse.Namespace, status: Any) -> dict[str, Any]:
    """The uniform sampler's shuffle budget and status line, and whether ``enumerate`` lists
    every board (no ``-n``)."""
    if args.max_draws < 1:
        raise SimulationError(f"--max-draws must be at least 1, got {args.max_draws}")
    return {"max_draws": args.max_draws, "status": status, "list_all": args.n is None}


def after_generate(boards: Sequence[Any], args: argparse.Namespace, set_name: str) -> list[str]:
    """With ``--pictures DIR``: pictures of the first boards, ``DIR/<set>-<k>.png``."""
    if not args.pictures:
        return []
    from ludolab.research.catan.picture import render_board

    folder = Path(args.pictures)
    folder.mkdir(parents=True, exist_ok=True)
    for k, board in enumerate(boards[:PICTURES], 1):
        render_board(board, folder / f"{set_name}-{k}.png", title=f"{set_name} #{k}")
    return [f"pictures of the first {min(PICTURES, len(boards))} boards -> {folder}/"]


# --- constraints list / show ------------------------------------------------------------------


def constraint_library() -> str:
    """The board constraints with their parameters, the objectives, and the shipped sets."""
    from ludolab.research.catan.constraint_set import load_constraint_set
    from ludolab.research.catan.constraints import OBJECTIVES, REGISTRY

    lines = ['Catan board constraints (in a set\'s [[constraint]] table as name = "..."):', ""]
    for name in sorted(REGISTRY):
        cls = REGISTRY[name]
        lines.append(f"{name}  [reads {', '.join(sorted(cls.reads)) or 'what it fixes'}]")
        lines.append(wrapped(cls.summary))
        for pname, p in cls.params.items():
            default = "none" if p.default is None else p.default
            lines.append(wrapped(f"- {pname} (default {default}): {p.doc}"))
    lines.append('minizinc  [raw MiniZinc: code = "...", reads = [...]; solver samplers only]')
    lines += ["", "Objectives (--sampler optimise --objective NAME):"]
    lines += [wrapped(f"{o.name}: {o.sense} {o.summary}", "  ") for o in OBJECTIVES.values()]
    lines += ["", "Shipped Catan constraint sets (ludolab constraints show NAME):"]
    lines += [
        wrapped(f"{name}: {load_constraint_set(name).description}", "  ") for name in shipped_sets()
    ]
    return "\n".join(lines)


def describe_set(source: str | Path, model: bool) -> str:
    """The set, a constraint a line; with ``model``, the MiniZinc model its solver runs."""
    from ludolab.research.catan.constraint_set import ConstraintSetError, load_constraint_set

    try:
        cset = load_constraint_set(source)
    except ConstraintSetError as exc:
        raise SetupSetError("constraints", str(exc)) from None
    if not model:
        return cset.describe()
    from ludolab.research.catan.model import SEARCH_DEFAULT, board_model

    try:
        text = board_model(cset, search=SEARCH_DEFAULT)
    except ValueError as exc:  # a set that constrains nothing has no model to show
        raise SetupSetError("model", str(exc)) from None
    return f"{cset.describe()}\n\n{text}"
