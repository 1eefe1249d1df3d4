"""Play many Catan games on generated boards and keep their records as a Parquet table."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import fields
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ludolab.envs.catan.agents import parse_agent_spec
from ludolab.envs.catan.board import RESOURCES, Board
from ludolab.envs.catan.engine import GameOptions
from ludolab.envs.catan.play import play_game
from ludolab.envs.catan.record import GameRecord
from ludolab.research import simulate as simulate_common
from ludolab.research.simulate import SeatRows, game_seeds

if TYPE_CHECKING:
    import pandas as pd

SCHEMA = "ludolab.catan.games/2"


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
    """One row per game (see :func:`ludolab.research.simulate.records_table`)."""
    return simulate_common.records_table(records, SCHEMA, metadata)


def own_seat_values(games: pa.Table) -> dict[str, np.ndarray]:
    """Catan's own per-seat columns (:meth:`ludolab.games.Game.own_seat_values`):
    ``knights_played``, ``first_settlement_turn`` and ``first_city_turn`` (0-based turns, NaN
    if never), ``longest_road`` and ``largest_army`` (bool: holds it at the end), and
    ``produced_<resource>`` (cards received from production)."""
    rows = SeatRows.of(games)
    produced = rows.per_seat_vectors("produced", len(RESOURCES))
    return {
        "knights_played": rows.per_seat("knights_played"),
        "first_settlement_turn": rows.per_seat("first_settlement_turn"),
        "first_city_turn": rows.per_seat("first_city_turn"),
        "longest_road": rows.is_seat("longest_road"),
        "largest_army": rows.is_seat("largest_army"),
        **{f"produced_{r}": produced[:, k] for k, r in enumerate(RESOURCES)},
    }


def per_seat_table(games: pa.Table) -> pd.DataFrame:
    """One row per seat of every game (:func:`ludolab.research.simulate.per_seat_table`): the
    core's columns (``final_score`` in VP), then :func:`own_seat_values`."""
    return simulate_common.per_seat_table(games, "catan")


# Small per-game counts: two games alike in all of them (and in the summary's columns) are
# rare unless they are one game repeated, so only those few are compared in full.
TALLY_COLUMNS = (
    "n_actions", "robber_moves", "sevens", "maritime_trades", "domestic_trades", "longest_road",
    "largest_army",
)
SUMMARY_COLUMNS = (
    "setup_id", "turns", "rounds", "truncated", "winners", "final_scores", "agents",
    *TALLY_COLUMNS,
)
# The record's fields: a table with all of them can tell repeated games apart by itself.
RECORD_FIELDS = tuple(f.name for f in fields(GameRecord))


def summarise(games: Sequence[GameRecord] | pa.Table, source: str | Path | None = None) -> str:
    """A few lines: completion, length, how many games are distinct, win rate per seat (Wilson
    95%, the board as the unit), final VP and spread.

    ``games``: records, or a games table with at least :data:`SUMMARY_COLUMNS` (read a large
    file with ``pq.read_table(path, columns=SUMMARY_COLUMNS)``: the per-turn traces are not
    needed). Games on one board that repeat each other record for record are found
    (:func:`ludolab.research.simulate.find_repeats`; the dice come from the game seed, so only
    games that roll alike can) and no interval counts them as independent: with two or more
    boards the intervals are over boards, with one over the distinct games
    (:func:`ludolab.research.simulate.summary_unit`). Telling repeats apart needs the full
    records: ``games`` with every record field, or ``source``, the Parquet file ``games`` was
    read from (ValueError without either when games share a board and an outcome)."""
    import pandas as pd

    if not isinstance(games, pa.Table):
        games = records_table(games)
    n = games.num_rows
    turns = games.column("turns").to_numpy()
    rounds = games.column("rounds").to_numpy()
    truncated = games.column("truncated").to_numpy(zero_copy_only=False)
    winners = games.column("winners").combine_chunks()
    winner = np.full(n, np.nan)  # a Catan game has one winner, or none when cut off
    winner[np.asarray(pc.list_parent_indices(winners))] = np.asarray(pc.list_flatten(winners))
    final_vp = np.asarray(pc.list_flatten(games.column("final_scores")), dtype=float).reshape(
        n, -1
    )
    agents = games.column("agents")[0].as_py()
    seats = final_vp.shape[1]
    finished = ~truncated
    boards = games.column("setup_id").to_numpy(zero_copy_only=False)
    cheap = pd.DataFrame(final_vp).assign(
        turns=turns,
        rounds=rounds,
        truncated=truncated,
        winner=winner,
        **{c: games.column(c).to_pandas() for c in TALLY_COLUMNS},
    )
    full = games if set(RECORD_FIELDS) <= set(games.column_names) else None
    repeats = simulate_common.find_repeats(
        pd.DataFrame({"board": boards}), cheap, source if source is not None else full
    )
    unit = simulate_common.summary_unit(boards, repeats, "board")
    lines = [
        f"  games {n}: finished {int(finished.sum())}, cut off by the turn limit "
        f"{int(truncated.sum())}",
        *unit.lines,
        f"  turns per game: mean {turns.mean():.1f}, median {np.median(turns):g}, "
        f"sd {turns.std():.1f} (rounds: mean {rounds.mean():.1f})",
    ]
    n_finished = int(finished.sum())
    if n_finished:
        parts = []
        for seat in range(seats):
            won = winner[finished] == seat
            low, high = simulate_common.win_interval(won, unit.clusters[finished])
            parts.append(f"seat {seat} ({agents[seat]}) {won.mean():.1%} [{low:.1%}, {high:.1%}]")
        lines.append(
            f"  win rate (finished games, Wilson 95%, unit: the {unit.name}): "
            + "; ".join(parts)
        )
    spread = (final_vp.max(axis=1) - final_vp.min(axis=1)).mean()
    won = final_vp[finished]
    seat_of = winner[finished].astype(int)
    best = won[np.arange(len(won)), seat_of]
    others = won.copy()
    others[np.arange(len(won)), seat_of] = -np.inf
    margins = best - others.max(axis=1)
    lines.append(
        "  final VP by seat: "
        + " ".join(f"{v:.2f}" for v in final_vp.mean(axis=0))
        + f"; VP spread (max - min) mean {spread:.2f}"
        + (f"; winner's margin mean {margins.mean():.2f}" if len(margins) else "")
    )
    return "\n".join(lines)
