"""Catan's own per-game metrics: their definitions and their values from a games table."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ludolab.games import Metric

if TYPE_CHECKING:  # the definitions load without them (`ludolab metrics` lists them)
    import numpy as np
    import pyarrow as pa

METRICS: dict[str, Metric] = {
    "n_actions": Metric("decisions taken by all seats", "record.n_actions", "decisions"),
    "sevens": Metric("sevens rolled", "record.sevens", "count"),
    "robber_moves": Metric("robber moves (7s and knights)", "record.robber_moves", "count"),
    "maritime_trades": Metric("trades with the bank", "record.maritime_trades", "count"),
    "domestic_trades": Metric("trades between seats", "record.domestic_trades", "count"),
    "trades": Metric("all trades", "maritime_trades + domestic_trades", "count"),
    "first_city_turn": Metric(
        "turn of the game's first city (0-based)",
        "min_s first_city_turn[s]; NaN if nobody built a city",
        "turn",
    ),
    "winner_first_city_turn": Metric(
        "turn of the winner's first city (0-based)",
        "first_city_turn[w]; NaN if no winner or no city",
        "turn",
    ),
}

LABELS: dict[str, str] = {
    "n_actions": "decisions per game",
    "sevens": "sevens rolled",
    "robber_moves": "robber moves",
    "maritime_trades": "trades with the bank",
    "domestic_trades": "trades between players",
    "trades": "trades",
    "first_city_turn": "turn of the first city",
    "winner_first_city_turn": "turn of the winner's first city",
}


_COUNTS = ("n_actions", "sevens", "robber_moves", "maritime_trades", "domestic_trades")


def own_metric_values(table: pa.Table) -> dict[str, list[Any]]:
    """:data:`METRICS` for every game of ``table`` (one value per row)."""
    import numpy as np

    from ludolab.research.metrics.games import Ragged

    counts = {name: table.column(name).to_pylist() for name in _COUNTS}
    first_city_turn = Ragged(table.column("first_city_turn"), 1)
    winners = table.column("winners").to_pylist()
    first, winner_first = [], []
    for i in range(table.num_rows):
        turns = first_city_turn.row(i)
        first.append(float(np.nanmin(turns)) if np.isfinite(turns).any() else np.nan)
        won = winners[i] or ()
        winner_first.append(float(turns[won[0]]) if won else np.nan)
    bank, seats = counts["maritime_trades"], counts["domestic_trades"]
    trades = [m + d for m, d in zip(bank, seats, strict=True)]
    return {
        **counts,
        "trades": trades,
        "first_city_turn": first,
        "winner_first_city_turn": winner_first,
    }


def seat_income(table: pa.Table) -> Sequence[np.ndarray]:
    """Resource cards each seat received from production (setup income included), per game."""
    from ludolab.research.metrics.games import Ragged

    produced = Ragged(table.column("produced"), 2)
    return [produced.row(i).reshape(-1, 5).sum(axis=1) for i in range(table.num_rows)]
