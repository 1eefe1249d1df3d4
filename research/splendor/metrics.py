"""Splendor's own per-game metrics, and the numbers that describe a deal's opening (its setup
features)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ludolab.games import Metric

if TYPE_CHECKING:  # the definitions load without the engine or pyarrow (`ludolab metrics`)
    import pyarrow as pa

    from ludolab.envs.splendor.engine import Deal

METRICS: dict[str, Metric] = {
    "cards_bought": Metric(
        "development cards bought in the game, all seats together",
        "sum_s cards_bought[s] (record.cards_bought)",
        "cards",
    ),
    "nobles_visited": Metric(
        "nobles that visited a seat in the game, all seats together",
        "sum_s nobles[s] (record.nobles)",
        "nobles",
    ),
}
"""The game's own metrics (registered as ``splendor.<name>``)."""

LABELS: dict[str, str] = {
    "cards_bought": "cards bought per game",
    "nobles_visited": "nobles visiting per game",
}


def own_metric_values(table: pa.Table) -> dict[str, list[Any]]:
    """:data:`METRICS` for every game of ``table`` (one value per row)."""
    return {
        "cards_bought": [sum(x) for x in table.column("cards_bought").to_pylist()],
        "nobles_visited": [sum(x) for x in table.column("nobles").to_pylist()],
    }


def own_seat_values(table: pa.Table) -> dict[str, list[Any]]:
    """Per seat of every game (games in order, seats in order): cards bought, nobles, cards
    held reserved at the end."""
    return {
        name: [v for row in table.column(name).to_pylist() for v in row]
        for name in ("cards_bought", "nobles", "reserved")
    }


FEATURE_DOCS: dict[str, str] = {
    "level1_cost": "the four level-1 cards shown, their cost in gems together (12-20 in "
    "Splendor's deck)",
    "level1_prestige": "level-1 cards shown that give prestige (0-4)",
    "colour_spread": "the twelve cards shown: the most cards of one bonus colour minus the "
    "fewest of another (0-12)",
    "noble_cover": "the colours at least one revealed noble needs (0-5)",
}
"""What each setup feature measures, with its unit."""


def setup_features(deal: Deal) -> Mapping[str, float]:
    """The numbers that describe ``deal``'s opening (:data:`FEATURE_DOCS`)."""
    from ludolab.envs.splendor.cards import CARDS, NOBLES

    level1 = deal.display[0]
    colours = [0] * 5
    for level in deal.display:
        for card in level:
            colours[CARDS[card].bonus] += 1
    return {
        "level1_cost": float(sum(sum(CARDS[c].cost) for c in level1)),
        "level1_prestige": float(sum(CARDS[c].points > 0 for c in level1)),
        "colour_spread": float(max(colours) - min(colours)),
        "noble_cover": float(sum(any(NOBLES[n].need[k] for n in deal.nobles) for k in range(5))),
    }


__all__ = [
    "FEATURE_DOCS",
    "LABELS",
    "METRICS",
    "own_metric_values",
    "own_seat_values",
    "setup_features",
]
