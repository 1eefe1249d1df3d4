"""The commands that play games: ``simulate`` (a batch of games into a Parquet file) and
``ladder`` (agents rated by a round robin)."""

from __future__ import annotations

import argparse
import dataclasses
from pathlib import Path
from typing import Any

from ludolab import games
from ludolab.research.cli.common import (
    SimulationError,
    add_batches,
    add_force,
    parquet_out,
)
from ludolab.research.cli_types import add_quiet_option, game_name, seed
from ludolab.research.gallery.cli_options import add_gallery_rules, read_symbols


def add_commands(sub: argparse._SubParsersAction) -> None:
    """``simulate`` (Catan, Masters Gallery) and ``ladder``."""
    sim = sub.add_parser("simulate", help="play games between agents")
    sim_sub = sim.add_subparsers(metavar="GAME")
    simc = sim_sub.add_parser(
        "catan",
        help="play Catan games on boards, write one row per game (Parquet)",
        description="Game i is played on board i mod (number of boards) with its own seed "
        "spawned from --seed; game i's dice are the same whatever the boards and agents.",
    )
    simc.add_argument(
        "--boards",
        metavar="FILE",
        help="boards .jsonl or .json (from `ludolab generate catan`); default: fair shuffles",
    )
    simc.add_argument(
        "--agents",
        default="random,random,random,random",
        help="one agent per seat, comma-separated, 2-4 seats: "
        "random, greedy, lookahead, mcts, alphabeta; parameters as name:key=value "
        "(default %(default)s)",
    )
    simc.add_argument("--games", "-n", type=int, default=100)
    simc.add_argument("--seed", type=seed, default=0, help="master seed (default %(default)s)")
    simc.add_argument("--out", "-o", required=True, help="output .parquet")
    add_force(simc)
    add_batches(simc)
    simc.add_argument("--vp-to-win", type=int, default=10)
    simc.add_argument("--discard-limit", type=int, default=7)
    simc.add_argument("--friendly-robber", action="store_true")
    simc.add_argument(
        "--turn-limit",
        type=int,
        default=1000,
        help="cut games off (truncated, no winner) after this many turns; 0 for none",
    )
    simc.add_argument(
        "--trade-offers",
        type=int,
        default=2,
        help="domestic trade offers allowed per turn; 0 turns them off (default %(default)s)",
    )
    add_quiet_option(simc)
    simc.set_defaults(run=_simulate_catan, sized="boards")

    simg = sim_sub.add_parser(
        "gallery",
        help="play Masters Gallery games, write one row per game (Parquet)",
        description="Game i is played on deal i mod (number of deals), or on a fair deal "
        "drawn from its own seed; seeds are spawned from --seed.",
    )
    simg.add_argument("--players", "-p", type=int, default=None, help="2-5 (default: agents)")
    simg.add_argument(
        "--agents",
        default=None,
        help="one agent per seat, comma-separated (default: random for every seat); "
        "parameters as name:key=value",
    )
    simg.add_argument("--deals", metavar="FILE", help="deals .jsonl or .json; default: fair")
    simg.add_argument("--games", "-n", type=int, default=100)
    simg.add_argument("--seed", type=seed, default=0, help="master seed (default %(default)s)")
    simg.add_argument("--out", "-o", required=True, help="output .parquet")
    add_force(simg)
    add_batches(simg)
    add_gallery_rules(simg)
    add_quiet_option(simg)
    simg.set_defaults(run=_simulate_gallery, sized="deals")

    lad = sub.add_parser(
        "ladder",
        help="rate agents: a seat-rotated round robin and Plackett-Luce ratings",
        description="Every combination of --players agents from --agents plays --rounds "
        "times, each time in every seat rotation on one setup and game seed; writes "
        "games.parquet, ratings.csv, head_to_head.csv, ladder.md and ladder.png into the "
        "--out folder.",
    )
    lad.add_argument(
        "game",
        type=game_name,
        metavar="GAME",
        help=f"a registered game: {', '.join(games.names())}",
    )
    lad.add_argument(
        "--agents",
        required=True,
        help="the agents to rate, comma-separated, parameters as name:key=value "
        "(e.g. random,greedy,mcts:playouts=200)",
    )
    lad.add_argument(
        "--players",
        "-p",
        type=int,
        default=None,
        help="seats per game (default: the game's default_players)",
    )
    lad.add_argument(
        "--rounds", type=int, default=10, help="plays of each lineup (default %(default)s)"
    )
    lad.add_argument("--seed", type=seed, default=0, help="master seed (default %(default)s)")
    lad.add_argument(
        "--setups",
        metavar="FILE",
        help="boards (Catan) or deals (Gallery), .jsonl or one .json; rotation set s plays "
        "setup s mod their number (default: a fair one per rotation set)",
    )
    lad.add_argument("--out", "-o", required=True, help="output folder")
    lad.add_argument(
        "--force", dest="replace", action="store_true", help="replace the --out folder"
    )
    lad.add_argument("--workers", type=int, default=1, help="worker processes")
    add_quiet_option(lad)
    lad.set_defaults(run=_ladder)


def _simulate_catan(args: argparse.Namespace) -> int:
    import pyarrow.parquet as pq

    from ludolab.envs.catan.board import BoardError, iter_boards, read_board
    from ludolab.envs.catan.engine import GameOptions
    from ludolab.research.catan.samplers import fair_board
    from ludolab.research.catan.simulate import SCHEMA, SUMMARY_COLUMNS, summarise
    from ludolab.research.simulate import split_agent_list

    out = parquet_out(args.out)
    _check_batches(args)
    try:
        options = GameOptions(
            vp_to_win=args.vp_to_win,
            discard_limit=args.discard_limit,
            friendly_robber=args.friendly_robber,
            turn_limit=args.turn_limit or None,
            trade_offers_per_turn=args.trade_offers,
        )
    except ValueError as exc:
        raise SimulationError(str(exc).replace("GameOptions.", "option ")) from exc
    if args.boards:
        boards = (
            list(iter_boards(args.boards))
            if args.boards.endswith(".jsonl")
            else [read_board(args.boards)]
        )
        if not boards:
            raise BoardError(f"{args.boards}: no boards in the file")
        source = f"{len(boards)} boards from {args.boards}"
    else:
        boards = [fair_board(args.seed)]
        source = f"a fair shuffle (seed {args.seed})"
    specs = split_agent_list(args.agents)
    _check_agents(specs, "catan")
    metadata = {
        "agents": specs,
        "seed": args.seed,
        "boards": args.boards,
        "options": dataclasses.asdict(options),
    }
    seconds = _simulate(args, "catan", out, specs, options, boards, SCHEMA, metadata)
    print(
        f"{args.games} games on {source}, agents {','.join(specs)}, seed {args.seed} "
        f"-> {out} ({seconds:.1f} s, {args.games / seconds:,.0f} games/s)"
    )
    print(summarise(pq.read_table(out, columns=list(SUMMARY_COLUMNS)), source=out))
    return 0


def _simulate_gallery(args: argparse.Namespace) -> int:
    import pyarrow.parquet as pq

    from ludolab.envs.gallery.deal import DealError, iter_deals, read_deal
    from ludolab.envs.gallery.engine import GalleryOptions
    from ludolab.research.gallery.simulate import SCHEMA, SUMMARY_COLUMNS, summarise
    from ludolab.research.simulate import split_agent_list

    out = parquet_out(args.out)
    _check_batches(args)
    if args.agents is None and args.players is None:
        raise SimulationError("give --players P or --agents A,B,... (one per seat)")
    specs = split_agent_list(args.agents) if args.agents else ["random"] * args.players
    if args.players is not None and len(specs) != args.players:
        raise SimulationError(f"--players {args.players} but --agents names {len(specs)} seats")
    _check_agents(specs, "gallery")
    deals = None
    try:
        if args.deals:
            path = Path(args.deals)
            deals = list(iter_deals(path)) if path.suffix == ".jsonl" else [read_deal(path)]
    except DealError as exc:
        raise SimulationError(str(exc)) from exc
    if deals is not None:
        if not deals:
            raise SimulationError(f"--deals {args.deals}: no deals in the file")
        wrong = [d.id for d in deals if d.n_players != len(specs)]
        if wrong:
            raise SimulationError(
                f"--deals {args.deals}: {len(wrong)} deals (e.g. {wrong[0]}) are not for "
                f"{len(specs)} players"
            )
    symbols = read_symbols(args.symbols)
    options = GalleryOptions(
        extra_card=not args.no_extra_card,
        extra_card_each_round=not args.extra_card_at_setup_only,
        award_choice=not args.award_own_artist,
        **({} if symbols is None else {"symbols": symbols}),
    )
    metadata = {
        "agents": specs,
        "seed": args.seed,
        "deals": args.deals,
        "options": {
            "extra_card": options.extra_card,
            "extra_card_each_round": options.extra_card_each_round,
            "award_choice": options.award_choice,
            "symbols": [list(row) for row in options.symbols],
        },
    }
    seconds = _simulate(args, "gallery", out, specs, options, deals, SCHEMA, metadata)
    source = f"deals from {args.deals}" if args.deals else "fair deals"
    print(
        f"{args.games} games of {len(specs)} players on {source}, agents {','.join(specs)}, "
        f"seed {args.seed} -> {out} ({seconds:.1f} s, {args.games / seconds:,.0f} games/s)"
    )
    print(summarise(pq.read_table(out, columns=list(SUMMARY_COLUMNS)), source=out))
    return 0


def _check_agents(specs: list[str], game: str) -> None:
    """Every seat's agent spec parses and the seats fit ``game``, before anything is played."""
    from ludolab.research.simulate import check_lineup

    try:
        check_lineup(game, specs)
    except ValueError as exc:
        raise SimulationError(f"--agents {','.join(specs)}: {exc}") from exc


def _check_batches(args: argparse.Namespace) -> None:
    for name in ("games", "workers", "batch"):
        if getattr(args, name) < 1:
            raise SimulationError(f"--{name} must be at least 1, got {getattr(args, name)}")


def _simulate(
    args: argparse.Namespace,
    game: str,
    out: Path,
    specs: list[str],
    options: Any,
    setups: list | None,
    schema: str,
    metadata: dict[str, Any],
) -> float:
    """Play the games in batches into ``out``; the seconds it took."""
    import time

    from ludolab.research.simulate import batch_tasks
    from ludolab.research.simulate_file import SimulationStopped, request_key, simulate_to_file

    ids = None if setups is None else [s.id for s in setups]
    key = request_key(
        {"game": game, "games": args.games, "batch": args.batch, "ids": ids, **metadata}
    )
    start = time.perf_counter()
    try:
        simulate_to_file(
            out,
            lambda skip: batch_tasks(
                game, args.games, args.seed, specs, options, setups, args.batch, skip
            ),
            args.games,
            args.batch,
            key=key,
            metadata={"schema": schema, **metadata},
            workers=args.workers,
            resume=args.resume,
            progress=not args.quiet,
        )
    except SimulationStopped as exc:
        raise SimulationError(str(exc)) from None
    return time.perf_counter() - start


def _ladder(args: argparse.Namespace) -> int:
    import shutil
    import tempfile

    import pyarrow as pa
    import pyarrow.parquet as pq

    from ludolab.envs.agents import AgentSpecError
    from ludolab.research.experiment.backends import run_local
    from ludolab.research.ladder import (
        fit_ladder,
        fit_ratings,
        head_to_head,
        head_to_head_markdown,
        ladder_figure,
        ladder_markdown,
        ladder_tasks,
        play_ladder_task,
    )
    from ludolab.research.progress import bar
    from ludolab.research.simulate import split_agent_list

    out = Path(args.out)
    if out.exists() and not args.replace:
        raise SimulationError(
            f"--out {out}: exists; pass --force to replace it (nothing was written)"
        )
    if args.rounds < 1 or args.workers < 1:
        raise SimulationError("--rounds and --workers must be at least 1")
    described = games.get(args.game)
    players = args.players or described.default_players
    agents = split_agent_list(args.agents)
    setups = _ladder_setups(args.game, args.setups, players) if args.setups else None
    try:
        tasks = ladder_tasks(args.game, agents, players, args.rounds, args.seed, setups)
    except (AgentSpecError, ValueError) as exc:
        raise SimulationError(str(exc)) from None
    n_games = sum(len(task.sets) for task in tasks) * players
    tables = {}
    with bar(total=n_games, unit="game", desc="ladder", quiet=args.quiet) as shown:
        for chunk, table in run_local(tasks, args.workers, play_ladder_task):
            tables[chunk] = table
            shown.update(table.num_rows)
    played = pa.concat_tables([tables[k] for k in sorted(tables)])
    frame = played.to_pandas()
    fit = fit_ladder(frame, agents, args.seed)
    ratings = fit_ratings(frame, agents, args.seed, fit)
    # Stronger first in each pair: the ratings' order.
    pairs = head_to_head(frame, list(ratings.agent), args.seed, fit)
    title = f"{described.title} ladder, {players} players"
    source = f"setups from {args.setups}" if args.setups else "a fair setup per rotation set"
    how = (
        f"{n_games:,} games: every {players} of the {len(agents)} agents, {args.rounds} "
        f"rounds, all {players} seat rotations on one setup and seed; {source}; seed "
        f"{args.seed} (`ludolab ladder {args.game} --agents {','.join(agents)} --players "
        f"{players} --rounds {args.rounds} --seed {args.seed}"
        + (f" --setups {args.setups}" if args.setups else "")
        + "`)."
    )
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
    try:
        pq.write_table(played, staging / "games.parquet")
        ratings.to_csv(staging / "ratings.csv", index=False)
        report = ladder_markdown(ratings, title, how) + "\n" + head_to_head_markdown(pairs)
        (staging / "ladder.md").write_text(report)
        pairs.to_csv(staging / "head_to_head.csv", index=False)
        ladder_figure(ratings, title, staging / "ladder.png")
        if out.exists():
            shutil.rmtree(out)
        staging.rename(out)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    print(report)
    print(f"-> {out}")
    return 0


def _ladder_setups(game: str, path: str, players: int) -> list:
    """The boards or deals of ``--setups`` (.jsonl, or one in a .json file)."""
    one = not path.endswith(".jsonl")
    if game == "catan":
        from ludolab.envs.catan.board import BoardError, iter_boards, read_board

        boards = [read_board(path)] if one else list(iter_boards(path))
        if not boards:
            raise BoardError(f"{path}: no boards in the file")
        return boards
    from ludolab.envs.gallery.deal import iter_deals, read_deal

    deals = [read_deal(path)] if one else list(iter_deals(path))
    wrong = [d for d in deals if d.n_players != players]
    if not deals or wrong:
        raise SimulationError(
            f"--setups {path}: needs deals for {players} players"
            + (f"; deal {wrong[0].id} is for {wrong[0].n_players}" if wrong else " (none found)")
        )
    return deals
