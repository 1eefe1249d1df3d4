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

The names below load their module on first use (:mod:`research.lazy`).
"""

from __future__ import annotations

from research.lazy import lazy_exports

_HOME = {
    "METRICS": "research.metrics.registry",
    "Metric": "research.metrics.registry",
    "balance": "research.metrics.core",
    "board_feature_table": "research.metrics.games",
    "chi_square_uniform": "research.metrics.core",
    "condition_metrics": "research.metrics.games",
    "decisiveness": "research.metrics.core",
    "decisiveness_threshold": "research.metrics.core",
    "drama": "research.metrics.core",
    "games_frame": "research.metrics.games",
    "gini": "research.metrics.core",
    "lead_change": "research.metrics.core",
    "lead_change_count": "research.metrics.core",
    "metrics_table": "research.metrics.registry",
    "per_game_metrics": "research.metrics.games",
    "score_spread": "research.metrics.core",
    "wilson_interval": "research.metrics.core",
    "winner_margin": "research.metrics.core",
    "winner_trailing": "research.metrics.core",
    "with_board_features": "research.metrics.games",
}

__all__ = sorted(_HOME)

__getattr__, __dir__ = lazy_exports(__name__, _HOME)
