"""Masters Gallery's own per-game metrics: their definitions and their values from a games
table."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ludolab.games import Metric

if TYPE_CHECKING:  # the definitions load without it (`ludolab metrics` lists them)
    import pyarrow as pa

METRICS: dict[str, Metric] = {
    "n_actions": Metric("decisions taken by all seats", "record.n_actions", "decisions"),
    "n_winners": Metric("seats sharing the win", "|W|", "seats"),
    "deck_ran_out": Metric(
        "the deck could not supply a deal, extra card or draw", "record.deck_ran_out", "bool"
    ),
    "missed_draws": Metric(
        "draw-one cards played on an empty deck", "record.missed_draws", "count"
    ),
}

LABELS: dict[str, str] = {
    "n_actions": "decisions per game",
    "n_winners": "winners per game",
    "deck_ran_out": "share of games whose deck ran out",
    "missed_draws": "missed draws",
}



def own_metric_values(table: pa.Table) -> dict[str, list[Any]]:
    """:data:`METRICS` for every game of ``table`` (one value per row)."""
    return {
        "n_actions": table.column("n_actions").to_pylist(),
        "n_winners": [len(w) for w in table.column("winners").to_pylist()],
        "deck_ran_out": [bool(x) for x in table.column("deck_ran_out").to_pylist()],
        "missed_draws": table.column("missed_draws").to_pylist(),
    }
