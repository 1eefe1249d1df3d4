"""Play many Masters Gallery games on deals and keep their records as a Parquet table."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pyarrow as pa

from ludolab.envs.gallery.agents import parse_agent_spec
from ludolab.envs.gallery.deal import Deal, shuffled_deal
from ludolab.envs.gallery.engine import GalleryOptions
from ludolab.envs.gallery.play import play_game
from ludolab.envs.gallery.record import GalleryRecord
from ludolab.research import simulate as simulate_common
from ludolab.research.simulate import SeatRows, game_seeds

SCHEMA = simulate_common.records_schema("gallery")


def simulate(
    deals: Sequence[Deal] | None,
    agent_specs: Sequence[str],
    games: int,
    seed: int,
    options: GalleryOptions | None = None,
) -> list[GalleryRecord]:
    """Play ``games`` games with seat ``k`` played by ``agent_specs[k]``.

    Game ``i`` is played on ``deals[i % len(deals)]``, or, with ``deals=None``, on a fair
    shuffled deal drawn from game ``i``'s seed; its seed is ``game_seeds(seed, games)[i]``.
    Raises ValueError for unknown agents or deals for another number of players.
    """
    if games < 1:
        raise ValueError(f"games must be at least 1, got {games}")
    agents = [parse_agent_spec(spec) for spec in agent_specs]
    if not 2 <= len(agents) <= 5:
        raise ValueError(f"Masters Gallery needs 2-5 agents, one per seat; got {len(agents)}")
    if deals is not None:
        if not deals:
            raise ValueError("no deals to play")
        wrong = [d.id for d in deals if d.n_players != len(agents)]
        if wrong:
            raise ValueError(
                f"{len(wrong)} deals (e.g. {wrong[0]}) are not for {len(agents)} players"
            )
    records = []
    for i, game_seed in enumerate(game_seeds(seed, games)):
        deal = shuffled_deal(len(agents), game_seed) if deals is None else deals[i % len(deals)]
        records.append(play_game(deal, agents, game_seed, options))
    return records


def records_table(records: Sequence[GalleryRecord], metadata: dict | None = None) -> pa.Table:
    """One row per game (see :func:`ludolab.research.simulate.records_table`)."""
    return simulate_common.records_table(records, SCHEMA, metadata)


def own_seat_values(games: pa.Table) -> dict[str, np.ndarray]:
    """Masters Gallery's own per-seat columns (:meth:`ludolab.games.Game.own_seat_values`):
    ``cards_dealt`` and ``cards_drawn``."""
    rows = SeatRows.of(games)
    return {column: rows.per_seat(column) for column in ("cards_dealt", "cards_drawn")}
