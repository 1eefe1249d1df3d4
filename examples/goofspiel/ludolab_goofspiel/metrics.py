"""Goofspiel's own per-game metrics, and the numbers that describe a prize order (its setup
features).

Every metric the generic layers compute from the record core (score spread, lead changes,
drama, first-seat win...) comes for free; these are the two only Goofspiel has: how often the
top bid was tied, and how many points nobody took.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ludolab.games import Metric, ReportSection
from ludolab_goofspiel.engine import PrizeOrder

if TYPE_CHECKING:  # the definitions load without pyarrow (`ludolab metrics` lists them)
    import pandas as pd
    import pyarrow as pa

METRICS: dict[str, Metric] = {
    "tied_rounds": Metric(
        "rounds whose highest bid was tied (nobody took the stake)",
        "#{rounds r : the top bid of r is not unique} (record.tied_rounds)",
        "rounds",
    ),
    "points_unclaimed": Metric(
        "points of prizes nobody took: tied prizes discarded, or a carried pot left after the "
        "last round",
        "K(K+1)/2 - sum_s F[s] (record.points_unclaimed)",
        "score",
    ),
}
"""The game's own metrics (registered as ``goofspiel.<name>``)."""

LABELS: dict[str, str] = {
    "tied_rounds": "tied rounds per game",
    "points_unclaimed": "points nobody took",
}


def own_metric_values(table: pa.Table) -> dict[str, list[Any]]:
    """:data:`METRICS` for every game of ``table`` (one value per row)."""
    return {
        "tied_rounds": [int(x) for x in table.column("tied_rounds").to_pylist()],
        "points_unclaimed": [int(x) for x in table.column("points_unclaimed").to_pylist()],
    }


FEATURE_DOCS: dict[str, str] = {
    "late_share": "share of the prize points in the last third of the order (the last "
    "round(K / 3) prizes), [0, 1]; 1/3 on average over fair shuffles",
    "early_share": "share of the prize points in the first third of the order (the first "
    "round(K / 3) prizes), [0, 1]",
    "halves_diff": "points in the last K // 2 prizes minus points in the first K // 2 "
    "(positive: back-loaded), points",
    "top_prize_round": "the round (1..K) in which the top prize K is revealed",
}
"""What each setup feature measures, with its unit."""


def setup_features(order: PrizeOrder) -> Mapping[str, float]:
    """The numbers that describe ``order`` (:data:`FEATURE_DOCS`)."""
    prizes = order.prizes
    k = len(prizes)
    third = max(1, round(k / 3))
    half = k // 2
    total = sum(prizes)
    return {
        "late_share": sum(prizes[k - third :]) / total,
        "early_share": sum(prizes[:third]) / total,
        "halves_diff": float(sum(prizes[k - half :]) - sum(prizes[:half])),
        "top_prize_round": float(prizes.index(k) + 1),
    }


__all__ = ["FEATURE_DOCS", "LABELS", "METRICS", "own_metric_values", "setup_features"]


def ties_section(per_game: pd.DataFrame) -> ReportSection:
    """The report's section on ties: per lineup and condition, the games, the tied rounds and
    the points nobody took, each a mean per game (``per_game``: the run's per-game table)."""
    import pandas as pd

    grouped = per_game.groupby(["lineup", "condition"], observed=True)
    table = pd.DataFrame(
        {
            "games": grouped.size(),
            "tied rounds per game": grouped["tied_rounds"].mean().map("{:.2f}".format),
            "points nobody took per game": grouped["points_unclaimed"].mean().map("{:.1f}".format),
        }
    ).reset_index()
    return ReportSection(
        "Ties",
        "In Goofspiel a tied highest bid takes nothing: the prize is discarded (`ties = "
        '"discard"`, the standard rule) or stays in the pot for the next round (`"carry"`). '
        "Where the prize order puts the big prizes decides where equal hands collide, so a "
        "constraint on the order can move how much of the deck goes to nobody. Means per "
        "game; the comparisons above test `tied_rounds` and `points_unclaimed` where the "
        "config lists them.",
        table,
        "Ties per game, by lineup and condition (means over the condition's games).",
    )
