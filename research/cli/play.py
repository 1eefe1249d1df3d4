"""The commands that play games: ``simulate GAME`` (a batch of games into a Parquet file), for
every registered game, and ``ladder`` (agents rated by a round robin)."""

from __future__ import annotations

import argparse
import dataclasses
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ludolab import games
from ludolab.research.cli.common import (
    SimulationError,
    add_batches,
    add_force,
    add_game_commands,
    add_option_flags,
    dealt_for_seats,
    parquet_out,
    read_options,
    read_setups,
    seat_count,
)
from ludolab.research.cli_types import add_quiet_option, game_name, seed

if TYPE_CHECKING:
    from ludolab.games import Game


def add_commands(sub: argparse._SubParsersAction, argv: Sequence[str] = ()) -> None:
    """``simulate GAME`` for every registered game (its flags built only when ``argv`` names
    it), and ``ladder``."""
    sim = sub.add_parser(
        "simulate",
        help="play games between agents, one row per game (Parquet)",
        description="Play a game's games between agents and write one row per game (its "
        "record) to a Parquet file, then print a summary.",
    )
    sim_sub = sim.add_subparsers(metavar="GAME")
    add_game_commands(sim_sub, "simulate", argv, _simulate_help, _simulate_flags)

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
        help="the game's setups (its boards, deals...), .jsonl or one .json; rotation set s "
        "plays setup s mod their number (default: a fair one per rotation set)",
    )
    lad.add_argument("--out", "-o", required=True, help="output folder")
    lad.add_argument(
        "--force", dest="replace", action="store_true", help="replace the --out folder"
    )
    lad.add_argument("--workers", type=int, default=1, help="worker processes")
    add_quiet_option(lad)
    lad.set_defaults(run=_ladder)


def _simulate_help(game: Game) -> str:
    return f"play {game.title} games on {game.setup_plural}, write one row per game (Parquet)"


def _simulate_flags(parser: argparse.ArgumentParser, game: Game) -> None:
    """``simulate GAME``'s flags: the common ones, then one per rule option of the game."""
    noun, plural = game.setup_noun, game.setup_plural
    parser.description = (
        f"Play {game.title} games between agents and write one row per game (its record) to a "
        f"Parquet file, then print a summary. Game i is played on {noun} i mod (number of "
        f"{plural}), or on a fair {noun} of its own, with its own seed spawned from --seed: "
        f"game i's chance events are the same whatever the {plural} and agents."
    )
    parser.add_argument(
        f"--{plural}",
        dest="setups",
        metavar="FILE",
        help=f"{plural} .jsonl, one per line (from `ludolab generate {game.name}`, or a run's "
        f"{game.setups_file}), or one in a .json file; default: a fair {noun} per game, drawn "
        "from its seed",
    )
    parser.add_argument(
        "--agents",
        default=None,
        help=f"one agent per seat, comma-separated: {', '.join(game.agents.agents)}; "
        "parameters as name:key=value, an agent of your own as module.path:Class "
        "(default: random at every seat)",
    )
    if game.min_players < game.max_players:
        said = f"else {game.default_players}"
        if dealt_for_seats(game):
            said = f"or the seats the --{plural} are dealt for"
        parser.add_argument(
            "--players",
            "-p",
            type=int,
            default=None,
            help=f"seats per game, {game.min_players}-{game.max_players} (default: as many as "
            f"--agents names, {said})",
        )
    parser.add_argument(
        "--games", "-n", type=int, default=100, help="games to play (default %(default)s)"
    )
    parser.add_argument("--seed", type=seed, default=0, help="master seed (default %(default)s)")
    parser.add_argument("--out", "-o", required=True, help="output .parquet")
    add_force(parser)
    add_batches(parser)
    add_quiet_option(parser)
    add_option_flags(parser, game)
    parser.set_defaults(run=_simulate, game=game.name, sized=plural)


def _simulate(args: argparse.Namespace) -> int:
    import pyarrow.parquet as pq

    from ludolab.research.simulate import SUMMARY_COLUMNS, summarise

    game = games.get(args.game)
    out = parquet_out(args.out)
    _check_batches(args)
    flag = f"--{game.setup_plural}"
    setups = read_setups(game, args.setups, flag) if args.setups else None
    specs = _lineup(game, args, setups)
    options = read_options(game, args)
    metadata = {
        "agents": specs,
        "seed": args.seed,
        game.setup_plural: args.setups,
        "options": dataclasses.asdict(options),
    }
    seconds = _play(args, game.name, out, specs, options, setups, metadata)
    if setups:
        source = f"{len(setups)} {game.setup_plural if len(setups) > 1 else game.setup_noun}"
        source += f" from {args.setups}"
    else:
        source = f"a fair {game.setup_noun} per game"
    print(
        f"{args.games} games of {len(specs)} players on {source}, agents {','.join(specs)}, "
        f"seed {args.seed} -> {out} ({seconds:.1f} s, {args.games / seconds:,.0f} games/s)"
    )
    print(summarise(pq.read_table(out, columns=list(SUMMARY_COLUMNS)), game.name, source=out))
    return 0


def _lineup(game: Game, args: argparse.Namespace, setups: list[Any] | None) -> list[str]:
    """One agent spec per seat, checked before anything is played: ``--agents``, or random at
    each of the seats ``--players`` (or the setups, or the game) says; the setups must be dealt
    for that many."""
    from ludolab.research.simulate import check_lineup, split_agent_list

    players = getattr(args, "players", None)
    if args.agents:
        specs = split_agent_list(args.agents)
        if players is not None and len(specs) != players:
            raise SimulationError(f"--players {players} but --agents names {len(specs)} seats")
    else:
        ask = "give --players P or --agents A,B,... (one per seat)"
        specs = ["random"] * seat_count(game, players, setups, ask)
    try:
        check_lineup(game.name, specs)
    except ValueError as exc:
        raise SimulationError(f"--agents {','.join(specs)}: {exc}") from exc
    wrong = [s.id for s in setups or () if getattr(s, "n_players", len(specs)) != len(specs)]
    if wrong:
        plural = game.setup_plural
        raise SimulationError(
            f"--{plural} {args.setups}: {len(wrong)} {plural} (e.g. {wrong[0]}) are not for "
            f"{len(specs)} players"
        )
    return specs


def _check_batches(args: argparse.Namespace) -> None:
    for name in ("games", "workers", "batch"):
        if getattr(args, name) < 1:
            raise SimulationError(f"--{name} must be at least 1, got {getattr(args, name)}")


def _play(
    args: argparse.Namespace,
    game: str,
    out: Path,
    specs: list[str],
    options: Any,
    setups: list | None,
    metadata: dict[str, Any],
) -> float:
    """Play the games in batches into ``out``, ``metadata`` (and the schema's name) in its
    schema; the seconds it took."""
    import time

    from ludolab.research.simulate import batch_tasks, records_schema
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
            metadata={"schema": records_schema(game), **metadata},
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
    """The setups of ``--setups`` (.jsonl, or one in a .json file), dealt for ``players``
    seats where the game deals its setups for a number of seats."""
    described = games.get(game)
    setups = read_setups(described, path, "--setups")
    wrong = next((s for s in setups if getattr(s, "n_players", players) != players), None)
    if wrong is not None:
        raise SimulationError(
            f"--setups {path}: needs {described.setup_plural} for {players} players; "
            f"{described.setup_noun} {wrong.id} is for {wrong.n_players}"
        )
    return setups
