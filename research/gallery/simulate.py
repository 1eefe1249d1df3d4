"""Play many Masters Gallery games on deals and keep their records as a Parquet table."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import fields
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ludolab.envs.gallery.agents import parse_agent_spec
from ludolab.envs.gallery.deal import Deal, shuffled_deal
from ludolab.envs.gallery.engine import GalleryOptions
from ludolab.envs.gallery.play import play_game
from ludolab.envs.gallery.record import GalleryRecord
from ludolab.research import simulate as simulate_common
from ludolab.research.simulate import SeatRows, game_seeds

if TYPE_CHECKING:
    import pandas as pd

SCHEMA = "ludolab.gallery.games/2"


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


def per_seat_table(games: pa.Table) -> pd.DataFrame:
    """One row per seat of every game (:func:`ludolab.research.simulate.per_seat_table`): the
    core's columns (``final_score`` in money; ``won`` for every seat of a shared win), then
    :func:`own_seat_values`."""
    return simulate_common.per_seat_table(games, "gallery")


SUMMARY_COLUMNS = (
    "setup_id", "turns", "winners", "n_actions", "final_scores", "agents", "cards_drawn",
    "deck_left",
)
# The record's fields: a table with all of them can tell repeated games apart by itself.
RECORD_FIELDS = tuple(f.name for f in fields(GalleryRecord))


def summarise(games: Sequence[GalleryRecord] | pa.Table, source: str | Path | None = None) -> str:
    """A few lines: length, how many games are distinct, win rate per seat (Wilson 95%, the
    deal as the unit), shared wins, scores and margins.

    ``games``: records, or a games table with at least :data:`SUMMARY_COLUMNS`. Games on one
    deal that repeat each other record for record (agents that make no random choice) are
    found (:func:`ludolab.research.simulate.find_repeats`), and no interval counts them as
    independent: with two or more deals the intervals are over deals, with one over the
    distinct games (:func:`ludolab.research.simulate.summary_unit`). Telling repeats apart
    needs the full records: ``games`` with every record field, or ``source``, the Parquet file
    ``games`` was read from (ValueError without either when games share a deal and an
    outcome)."""
    import pandas as pd

    if not isinstance(games, pa.Table):
        games = records_table(games)
    n = games.num_rows
    turns = games.column("turns").to_numpy().astype(float)
    winners = games.column("winners").combine_chunks()
    n_winners = np.asarray(pc.list_value_length(winners))
    winner_seats = np.asarray(pc.list_flatten(winners))
    outright = np.full(n, -1)
    alone = n_winners[np.asarray(pc.list_parent_indices(winners))] == 1
    outright[np.asarray(pc.list_parent_indices(winners))[alone]] = winner_seats[alone]
    n_actions = games.column("n_actions").to_numpy()
    scores = np.asarray(pc.list_flatten(games.column("final_scores")), dtype=float).reshape(n, -1)
    agents = games.column("agents")[0].as_py()
    seats = scores.shape[1]
    deals = games.column("setup_id").to_numpy(zero_copy_only=False)
    # Small per-game counts: games alike in all of them are compared in full (few, unless
    # they are one game repeated).
    drawn = np.asarray(pc.list_flatten(games.column("cards_drawn")), dtype=float).reshape(n, -1)
    cheap = pd.concat([pd.DataFrame(scores), pd.DataFrame(drawn)], axis=1, ignore_index=True)
    cheap = cheap.assign(
        turns=turns, actions=n_actions, won=outright, deck=games.column("deck_left").to_numpy()
    )
    full = games if set(RECORD_FIELDS) <= set(games.column_names) else None
    repeats = simulate_common.find_repeats(
        pd.DataFrame({"deal": deals}), cheap, source if source is not None else full
    )
    unit = simulate_common.summary_unit(deals, repeats, "deal")
    shared = int((n_winners > 1).sum())
    lines = [
        f"  games {n}: won outright {n - shared}, shared wins {shared}",
        *unit.lines,
        f"  turns per game: mean {turns.mean():.1f}, median {np.median(turns):g}, "
        f"sd {turns.std():.1f}; decisions per game {n_actions.mean():.1f}",
    ]
    parts = []
    for seat in range(seats):
        won = outright == seat
        low, high = simulate_common.win_interval(won, unit.clusters)
        parts.append(f"seat {seat} ({agents[seat]}) {won.mean():.1%} [{low:.1%}, {high:.1%}]")
    lines.append(f"  outright win rate (Wilson 95%, unit: the {unit.name}): " + "; ".join(parts))
    ranked = -np.sort(-scores, axis=1)
    lines.append(
        "  final score by seat: "
        + " ".join(f"{v:.1f}" for v in scores.mean(axis=0))
        + f"; winner's margin mean {(ranked[:, 0] - ranked[:, 1]).mean():.1f}"
    )
    return "\n".join(lines)
