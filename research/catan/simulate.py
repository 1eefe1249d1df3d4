"""Play many Catan games on generated boards and keep their records as a Parquet table."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import pyarrow as pa

from ludolab.envs.catan.agents import parse_agent_spec
from ludolab.envs.catan.board import RESOURCES, Board
from ludolab.envs.catan.engine import GameOptions
from ludolab.envs.catan.play import play_game
from ludolab.envs.catan.record import GameRecord
from ludolab.research import simulate as simulate_common
from ludolab.research.simulate import SeatRows, game_seeds

SCHEMA = simulate_common.records_schema("catan")


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
