"""Play many Catan games on generated boards and keep their records as a Parquet table."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from statistics import mean, median, pstdev

import numpy as np
import pyarrow as pa
from scipy.stats import binomtest

from envs.catan.agents import parse_agent_spec
from envs.catan.board import Board
from envs.catan.engine import GameOptions
from envs.catan.play import play_game
from envs.catan.record import GameRecord
from research import simulate as simulate_common
from research.simulate import game_seeds

SCHEMA = "ludolab.catan.games/1"


def simulate(
    boards: Sequence[Board],
    agent_specs: Sequence[str],
    games: int,
    seed: int,
    options: GameOptions | None = None,
    progress: Callable[[int], None] | None = None,
) -> list[GameRecord]:
    """Play ``games`` games; game ``i`` is on ``boards[i % len(boards)]`` with seed
    ``game_seeds(seed, games)[i]``, seat ``k`` played by ``agent_specs[k]``.

    Raises ValueError (from the agent registry or the engine) for unknown agents or a seat count
    outside 2-4. ``progress`` is called with the number of games finished so far.
    """
    if games < 1:
        raise ValueError(f"games must be at least 1, got {games}")
    if not boards:
        raise ValueError("no boards to play on")
    agents = [parse_agent_spec(spec) for spec in agent_specs]
    if not 2 <= len(agents) <= 4:
        raise ValueError(f"Catan needs 2-4 agents, one per seat; got {len(agents)}")
    records = []
    for i, game_seed in enumerate(game_seeds(seed, games)):
        records.append(play_game(boards[i % len(boards)], agents, game_seed, options))
        if progress is not None:
            progress(i + 1)
    return records


def records_table(records: Sequence[GameRecord], metadata: dict | None = None) -> pa.Table:
    """One row per game (see :func:`research.simulate.records_table`)."""
    return simulate_common.records_table(records, SCHEMA, metadata)


def summarise(records: Sequence[GameRecord]) -> str:
    """A few lines: completion, length, win rate per seat (Wilson 95%), final VP and spread."""
    n = len(records)
    seats = records[0].n_players
    finished = [r for r in records if not r.truncated]
    turns = [r.turns for r in records]
    lines = [
        f"  games {n}: finished {len(finished)}, cut off by the turn limit {n - len(finished)}",
        f"  turns per game: mean {mean(turns):.1f}, median {median(turns):g}, "
        f"sd {pstdev(turns):.1f} (rounds: mean {mean(r.rounds for r in records):.1f})",
    ]
    if finished:
        parts = []
        for seat in range(seats):
            wins = sum(r.winner == seat for r in finished)
            ci = binomtest(wins, len(finished)).proportion_ci(method="wilson")
            parts.append(
                f"seat {seat} ({records[0].agents[seat]}) {wins / len(finished):.1%} "
                f"[{ci.low:.1%}, {ci.high:.1%}]"
            )
        lines.append("  win rate (finished games, Wilson 95%): " + "; ".join(parts))
    vp_means = [mean(r.final_vp[s] for r in records) for s in range(seats)]
    spread = mean(max(r.final_vp) - min(r.final_vp) for r in records)
    margins = [r.final_vp[r.winner] - max(np.delete(r.final_vp, r.winner)) for r in finished]
    lines.append(
        "  final VP by seat: "
        + " ".join(f"{v:.2f}" for v in vp_means)
        + f"; VP spread (max - min) mean {spread:.2f}"
        + (f"; winner's margin mean {mean(margins):.2f}" if margins else "")
    )
    return "\n".join(lines)
