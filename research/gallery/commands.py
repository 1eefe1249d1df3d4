"""Masters Gallery's own command, ``ludolab exhibits``: the best exhibits the model finds, with a
proven bound, replayed in the rules engine. The command line adds it through the game's
description (:meth:`ludolab.games.Game.add_commands`). Also what ``generate gallery`` and
``constraints`` ask of the game (the command-line section of :class:`ludolab.games.Game`)."""

from __future__ import annotations

import argparse
import dataclasses
import sys
from typing import Any

from ludolab.games import SetupSetError
from ludolab.research.cli.common import SimulationError, wrapped
from ludolab.research.cli_types import add_quiet_option, count, seconds, seed
from ludolab.research.gallery.cli_options import add_gallery_rules, read_symbols


def add_commands(sub: argparse._SubParsersAction) -> None:
    """``exhibits``."""
    exh = sub.add_parser(
        "exhibits",
        help="Masters Gallery: the best exhibits, with a proven bound, replayed in the engine",
        description="Asks the exhibit model one question within a time limit, prints the "
        "exhibits per round and the scores, the best found, the proven bound and the gap "
        "(optimal only when proven), and replays the game card by card in the rules engine.",
    )
    exh.add_argument("--players", "-p", type=int, default=2, help="2-5 (default %(default)s)")
    exh.add_argument(
        "--objective",
        choices=["max-score", "max-margin", "min-winning-score"],
        default="max-score",
        help="player 1's highest score, largest winning margin, or lowest winning score",
    )
    exh.add_argument("--time-limit", type=seconds, default=60.0, help="seconds (default 60)")
    exh.add_argument(
        "--improving",
        type=count,
        help="stop Gecode's search after this many improving answers, not at the time limit "
        "(with --solver mip: for the first answer HiGHS must beat): the same answer on any "
        "machine",
    )
    exh.add_argument(
        "--nodes",
        type=count,
        help="--solver mip: stop HiGHS after this many branch-and-bound nodes (the time limit "
        "still applies): with --improving, the same answer on any machine",
    )
    exh.add_argument(
        "--open-model",
        action="store_true",
        help="the open 2019 model's rules (no extra card, awards on any artist, one draw-one, "
        "double and award card per artist), to compare with its published 301 (2 players) "
        "and 295 (4 players)",
    )
    add_gallery_rules(exh)
    exh.add_argument(
        "--solver",
        choices=["mip", "gecode"],
        default="mip",
        help="mip: the model as a mixed-integer programme, HiGHS (best found and a proven "
        "bound; the default); gecode: the MiniZinc model (large neighbourhood search, no bound)",
    )
    exh.add_argument(
        "--complete",
        action="store_true",
        help="with --solver gecode: complete search (can prove optimality; slow) instead of "
        "large neighbourhoods",
    )
    exh.add_argument(
        "--seed", type=seed, default=1, help="--solver gecode: search seed (default %(default)s)"
    )
    exh.add_argument("--plays", action="store_true", help="also print every play in order")
    add_quiet_option(exh)
    exh.set_defaults(run=_exhibits)


def _exhibits(args: argparse.Namespace) -> int:
    from ludolab.research.gallery.exhibits import ExhibitRules, solve_exhibits, to_play_sequence
    from ludolab.research.gallery.replay import replay_in_engine

    if not 2 <= args.players <= 5:
        raise SimulationError(f"--players must be 2..5, got {args.players}")
    if args.time_limit <= 0:
        raise SimulationError(f"--time-limit must be positive, got {args.time_limit}")
    if args.complete and args.solver != "gecode":
        raise SimulationError("--complete is a Gecode search: give it with --solver gecode")
    if args.nodes is not None and args.solver != "mip":
        raise SimulationError("--nodes counts HiGHS' branch and bound: give it with --solver mip")
    players = args.players
    symbols = read_symbols(args.symbols)
    rules = ExhibitRules.open_model(players) if args.open_model else ExhibitRules(players)
    changes: dict[str, Any] = {}
    if symbols is not None:
        changes["symbols"] = symbols
    if args.no_extra_card:
        changes["extra_card"] = False
    if args.extra_card_at_setup_only:
        changes["extra_card_each_round"] = False
    if args.award_own_artist:
        changes["award_any"] = False
    rules = dataclasses.replace(rules, **changes)
    from ludolab.research.progress import Status

    how = "HiGHS, branch and bound" if args.solver == "mip" else "Gecode"
    stops = [f"time limit {args.time_limit:g} s"]
    if args.improving is not None:
        stops.append(f"{args.improving} improving answers")
    if args.nodes is not None:
        stops.append(f"{args.nodes} nodes")
    what = f"searching for the best exhibits ({how}, {', '.join(stops)})"
    with Status(what, quiet=args.quiet):
        solution = solve_exhibits(
            players,
            args.objective,
            rules=rules,
            time_limit=args.time_limit,
            solver=args.solver,
            search="complete" if args.complete else "lns",
            random_seed=args.seed,
            improving=args.improving,
            nodes=args.nodes,
        )
    print(solution.describe())
    found = f"best found {solution.objective_value} in {solution.elapsed:.1f} s"
    if solution.optimal:
        print(f"{found}: proven optimal")
    elif solution.bound is not None:
        print(f"{found}; proven bound {solution.bound}, gap {solution.gap}: not proven optimal")
    else:
        print(
            f"{found} by {'complete search' if args.complete else 'large neighbourhood search'}"
            ": not proven optimal, and no bound (--solver mip gives one)"
        )
    plan = to_play_sequence(solution)
    if args.plays:
        print(plan.describe())
    replay = replay_in_engine(plan)
    if replay.ok:
        print(f"replay: the rules engine accepted all {replay.plays} plays, scores {replay.scores}")
        return 0
    print(f"replay FAILED: {replay.problem}", file=sys.stderr)
    return 1


# --- generate gallery, constraints list / show --------------------------------------------------


def add_generate_arguments(parser: argparse.ArgumentParser) -> None:
    """``--method``: the sampler, as ``generate gallery`` has long named it."""
    from ludolab.research.gallery.deals import METHODS

    parser.add_argument(
        "--method",
        dest="sampler",
        choices=METHODS,
        default=argparse.SUPPRESS,
        help="the same as --sampler",
    )


def constraint_library() -> str:
    """The deal constraints with their parameters, and the shipped deal sets."""
    from ludolab.research.gallery.deals import DEAL_CONSTRAINTS, load_deal_set, shipped_deal_sets

    lines = [
        "Masters Gallery deal constraints (on the round-1 hands; ludolab generate gallery):",
        "",
    ]
    for name in sorted(DEAL_CONSTRAINTS):
        cls = DEAL_CONSTRAINTS[name]
        lines += [name, wrapped(cls.summary)]
        lines += [
            wrapped(f"- {pname} ({p.kind}, default {p.default}): {p.doc}")
            for pname, p in cls.params.items()
        ]
    lines += ["", "Shipped Masters Gallery deal sets (ludolab constraints show NAME):"]
    lines += [
        wrapped(f"{name}: {load_deal_set(name).description or '(no description)'}", "  ")
        for name in shipped_deal_sets()
    ]
    return "\n".join(lines)


def describe_set(source: str, model: bool) -> str:
    """The deal set, a constraint a line (deal sets have no solver model)."""
    from ludolab.research.gallery.deals import DealConstraintError, load_deal_set

    if model:
        raise SetupSetError(
            "model",
            f"{source} is a Masters Gallery deal set; deal sets are sampled exactly or by "
            "rejection, without a MiniZinc model",
        )
    try:
        dset = load_deal_set(source)
    except DealConstraintError as exc:
        raise SetupSetError("constraints", str(exc)) from None
    lines = [f"{dset.name}: {dset.description}".rstrip(": ")]
    for cname, values in dset.entries:
        shown = ", ".join(f"{k}={v!r}" for k, v in values.items())
        lines.append(f"  - {cname}({shown})" if shown else f"  - {cname}")
    if not dset.entries:
        lines.append("  (no constraints: a fair shuffle)")
    return "\n".join(lines)
