"""The commands about setups: ``generate GAME`` (setups drawn from a constraint set, for every
registered game), ``constraints`` (every game's constraint library, and a set), and ``solve``
(MiniZinc smoke tests). A game's own setup commands come with it
(:meth:`ludolab.games.Game.add_commands`)."""

from __future__ import annotations

import argparse
import re
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from ludolab import games
from ludolab.research.cli.common import (
    SimulationError,
    add_force,
    add_game_commands,
    dealt_for_seats,
    parse_params,
    seat_count,
    toml_value,
)
from ludolab.research.cli_types import add_quiet_option, game_name, seed

if TYPE_CHECKING:
    from ludolab.games import Game, SetupDraw, SetupSetError


def add_commands(sub: argparse._SubParsersAction, argv: Sequence[str] = ()) -> None:
    """``solve``, ``generate GAME`` for every registered game (its flags built only when
    ``argv`` names it), and ``constraints``."""
    solve = sub.add_parser("solve", help="MiniZinc smoke tests")
    solve_sub = solve.add_subparsers(metavar="MODEL")
    magic = solve_sub.add_parser("magic-square", help="the seed's 3x3 magic square")
    magic.add_argument("--all", action="store_true", help="all solutions")
    magic.add_argument("--stats", action="store_true", help="print Gecode's statistics")
    magic.add_argument(
        "--break-symmetry",
        action="store_true",
        help="add the seed's two symmetry-breaking constraints (with --stats: "
        "compare the search with and without them)",
    )
    magic.set_defaults(run=_magic_square)

    gen = sub.add_parser(
        "generate",
        help="draw game setups from a constraint set",
        description="Draw a game's setups from a constraint set with one of its samplers and "
        "write them to a .jsonl file, one per line.",
    )
    gen_sub = gen.add_subparsers(metavar="GAME")
    add_game_commands(gen_sub, "generate", argv, _generate_help, _generate_flags)

    cons = sub.add_parser("constraints", help="every game's constraint library and shipped sets")
    cons_sub = cons.add_subparsers(metavar="ACTION")
    lst = cons_sub.add_parser(
        "list", help="list each game's constraints, their parameters, and its shipped sets"
    )
    lst.add_argument(
        "--game",
        type=game_name,
        help="only this game's (default: every registered game's)",
    )
    lst.set_defaults(run=_constraints_list)
    shw = cons_sub.add_parser(
        "show", help="show a constraint set of any game (with --model, its solver model)"
    )
    shw.add_argument("set", metavar="NAME|FILE")
    shw.add_argument(
        "--game",
        type=game_name,
        help="the game the set is for (default: the game that ships it, or knows every "
        "constraint its file lists)",
    )
    shw.add_argument(
        "--model",
        action="store_true",
        help="also print the model the game's solver samplers run (where it has one)",
    )
    shw.set_defaults(run=_constraints_show)


def _magic_square(args: argparse.Namespace) -> int:
    from ludolab.research.solve.magic_square import run_magic_square_cli

    print(run_magic_square_cli(args.all, args.stats, args.break_symmetry))
    return 0


# --- generate GAME -----------------------------------------------------------------------------


def _generate_help(game: Game) -> str:
    return f"{game.title} {game.setup_plural} drawn from a constraint set"


def _generate_flags(parser: argparse.ArgumentParser, game: Game) -> None:
    """``generate GAME``'s flags: the common ones, the game's own, and one for each sampler
    setting (:attr:`~ludolab.games.Game.condition_keys`) the game's own do not give."""
    noun, plural = game.setup_noun, game.setup_plural
    parser.description = (
        f"Draw {game.title} {plural} from a constraint set with one of the game's samplers and "
        f"write them to a .jsonl file, one {noun} per line (what `ludolab simulate "
        f"{game.name} --{plural}` reads)."
    )
    sets = ", ".join(game.shipped_sets())
    parser.add_argument(
        "--constraints",
        "-c",
        required=game.default_set is None,
        default=game.default_set,
        metavar="NAME|FILE",
        help=f"a shipped set ({sets}) or a set file"
        + ("" if game.default_set is None else " (default %(default)s)"),
    )
    parser.add_argument(
        "--param",
        action="append",
        default=[],
        metavar="CONSTRAINT.PARAM=VALUE",
        help="change a parameter of the set (a TOML value: 22, [6,8], a word); repeatable",
    )
    parser.add_argument("-n", type=int, default=None, help=f"{plural} to draw (default 1)")
    parser.add_argument(
        "--sampler",
        choices=game.samplers,
        default=game.default_sampler,
        help=f"how the set's {plural} are drawn (default %(default)s)",
    )
    parser.add_argument("--seed", type=seed, default=0, help="master seed (default %(default)s)")
    if game.min_players < game.max_players:
        dealt = dealt_for_seats(game)  # a deal for 3 players is not one for 4: say which
        parser.add_argument(
            "--players",
            "-p",
            type=int,
            required=dealt,
            default=None,
            help=f"the seats the {plural} are for, {game.min_players}-{game.max_players}"
            + ("" if dealt else f" (default {game.default_players})"),
        )
    parser.add_argument("--out", "-o", required=True, help=f"output .jsonl (one {noun} per line)")
    add_force(parser)
    add_quiet_option(parser)
    game.add_generate_arguments(parser)
    given = {action.dest for action in parser._actions}
    for key in game.condition_keys:
        if key not in given:
            parser.add_argument(
                f"--{key.replace('_', '-')}",
                dest=key,
                type=toml_value,
                default=None,
                metavar="VALUE",
                help=f"the sampler's setting {key!r}, as a condition of a run gives it",
            )
    parser.set_defaults(run=_generate, game=game.name, sized=plural)


def _generate(args: argparse.Namespace) -> int:
    import json

    from ludolab.research.files import write_text

    game = games.get(args.game)
    out = Path(args.out)
    if not out.parent.is_dir():
        raise NotADirectoryError(f"--out {out}: the folder {out.parent} does not exist")
    name, draw = _draw(game, args)
    write_text(out, "".join(json.dumps(setup.to_dict()) + "\n" for setup in draw.setups))
    dealt = getattr(draw.setups[0], "n_players", None) if draw.setups else None
    print(
        f"{len(draw.setups)} {game.setup_plural} for "
        + (f"{dealt} players, " if dealt is not None else "")
        + f"constraint set {name!r} ({args.sampler} sampler, seed {args.seed}) -> {out}"
    )
    print(_draw_lines(draw, args.sampler, game.setup_plural))
    for shown in game.after_generate(draw.setups, args, name):
        print(shown)
    return 0


def _draw(game: Game, args: argparse.Namespace) -> tuple[str, SetupDraw]:
    """The set's name and what the game's sampler drew from it, as ``args`` ask (the set, its
    parameters, the sampler and its settings, the seats, the seed), under the published
    rules; a live status line while it draws."""
    from ludolab.games import SetupSetError
    from ludolab.research.progress import Status

    ask = f"give --players P: {game.title} {game.setup_plural} are dealt for a number of players"
    players = seat_count(game, getattr(args, "players", None), None, ask)
    n = 1 if args.n is None else args.n
    options = game.default_options()
    table = {k: v for k in game.condition_keys if (v := getattr(args, k, None)) is not None}
    try:
        cset = game.load_set(
            args.constraints, parse_params(args.param), players=players, options=options
        )
        settings = game.sampler_settings(cset, args.sampler, table, n)
    except SetupSetError as exc:
        raise _blamed(exc, game) from None
    name = str(game.set_as_data(cset).get("name") or args.constraints)
    with Status(f"{name}: {args.sampler} sampler", quiet=args.quiet) as line:
        settings = {**settings, **game.generate_settings(args, line.set)}
        draw = game.draw_setups(
            cset, n, args.sampler, args.seed, players=players, options=options, settings=settings
        )
    return name, draw


def _blamed(exc: SetupSetError, game: Game) -> SimulationError:
    """A set or sampler setting that cannot be used, as one line naming the flag to change."""
    flags = {"constraints": "--constraints", "params": "--param", "sampler": "--sampler"}
    flags.update({key: f"--{key.replace('_', '-')}" for key in game.condition_keys})
    flag = flags.get(exc.key, exc.key)
    # A message that quotes the key's constraint.param values ("params a.b=1: ...", "set.toml
    # with params a.b=1: ..."), worded for a run's config, names the flag instead.
    quoted = rf"(^|\bwith ){re.escape(exc.key)} (?=[\w-]+\.)"
    text, named = re.subn(quoted, lambda m: f"{m[1]}{flag} ", str(exc), count=1)
    return SimulationError(text if named else f"{flag}: {text}")


def _draw_lines(draw: SetupDraw, sampler: str, plural: str) -> str:
    """What the sampler did, a line each: speed, acceptance, distribution, notes."""
    lines = []
    if draw.seconds:
        rate = len(draw.setups) / draw.seconds
        lines.append(f"  {rate:,.0f} {plural}/s ({draw.seconds:.2f} s)")
    if draw.acceptance is not None:
        lines.append(
            f"  acceptance {draw.acceptance:.2e} (the share of fair {plural} the set accepts)"
        )
    # "uniform (mcmc)": the method a sampler handed over to, said once
    method = draw.method
    if method.startswith(f"{sampler} (") and method.endswith(")"):
        method = method[len(sampler) + 2 : -1]
    lines.append(f"  distribution: {'uniform' if draw.uniform else 'NOT uniform'} ({method})")
    lines += [f"  note: {note}" for note in draw.notes]
    return "\n".join(lines)


# --- constraints -------------------------------------------------------------------------------


def _constraints_list(args: argparse.Namespace) -> int:
    names = [args.game] if args.game else games.names()
    print("\n\n".join(games.get(name).constraint_library() for name in names))
    return 0


def _constraints_show(args: argparse.Namespace) -> int:
    from ludolab.games import SetupSetError

    try:
        game = games.get(args.game or games.game_of_set(args.set, "give --game GAME"))
    except ValueError as exc:
        raise SimulationError(str(exc)) from None
    try:
        print(game.describe_set(args.set, model=args.model))
    except SetupSetError as exc:
        raise SimulationError(f"--model: {exc}" if exc.key == "model" else str(exc)) from None
    return 0

