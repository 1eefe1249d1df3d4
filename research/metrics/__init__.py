"""Game metrics: per game and per condition, from Catan and Masters Gallery game records.

Typical use::

    games = pd.read_parquet("games.parquet")          # one row per game, plus "condition"
    per_game = per_game_metrics(games, "catan")
    per_condition = condition_metrics(per_game, "catan", by="condition")
    with_board_features(per_game, boards)              # relate metrics to board features
    metrics_table()                                    # every definition, for the report

Modules: :mod:`.core` (scalar formulas on arrays), :mod:`.games` (tables), :mod:`.registry`
(name -> description, formula, unit). Balance, lead change, drama and decisiveness follow the
Ludii system's Evaluation metrics (Ludeme/Ludii, ``Evaluation/src/metrics``), computed on the
in-game score rather than on AI state evaluations; each function documents where it deviates.
"""

from research.metrics.core import (
    balance,
    chi_square_uniform,
    decisiveness,
    decisiveness_threshold,
    drama,
    gini,
    lead_change,
    lead_change_count,
    score_spread,
    wilson_interval,
    winner_margin,
    winner_trailing,
)
from research.metrics.games import (
    board_feature_table,
    condition_metrics,
    games_frame,
    per_game_metrics,
    with_board_features,
)
from research.metrics.registry import METRICS, Metric, metrics_table

__all__ = [
    "METRICS",
    "Metric",
    "balance",
    "board_feature_table",
    "chi_square_uniform",
    "condition_metrics",
    "decisiveness",
    "decisiveness_threshold",
    "drama",
    "games_frame",
    "gini",
    "lead_change",
    "lead_change_count",
    "metrics_table",
    "per_game_metrics",
    "score_spread",
    "wilson_interval",
    "winner_margin",
    "winner_trailing",
    "with_board_features",
]
