"""Game metrics: per game and per condition, from any registered game's records (the record
core, plus the game's own metrics from its description).

Typical use::

    games = pd.read_parquet("games.parquet")          # one row per game, plus "condition"
    per_game = per_game_metrics(games, "catan")
    per_condition = condition_metrics(per_game, "catan", by="condition")
    with_setup_features(per_game, boards, "catan")     # relate metrics to setup features
    metrics_table()                                    # every definition, for the report

Modules: :mod:`.core` (scalar formulas on arrays), :mod:`.games` (tables), :mod:`.registry`
(name -> description, formula, unit). Balance, lead change, drama and decisiveness follow the
Ludii system's Evaluation metrics (Ludeme/Ludii, ``Evaluation/src/metrics``), computed on the
in-game score rather than on AI state evaluations; each function documents where it deviates.

The names below load their module on first use (:mod:`ludolab.research.lazy`).
"""

from __future__ import annotations

from ludolab.research.lazy import lazy_exports

_HOME = {
    "METRICS": "ludolab.research.metrics.registry",
    "Metric": "ludolab.research.metrics.registry",
    "balance": "ludolab.research.metrics.core",
    "chi_square_uniform": "ludolab.research.metrics.core",
    "condition_metrics": "ludolab.research.metrics.games",
    "decisiveness": "ludolab.research.metrics.core",
    "decisiveness_threshold": "ludolab.research.metrics.core",
    "drama": "ludolab.research.metrics.core",
    "games_frame": "ludolab.research.metrics.games",
    "gini": "ludolab.research.metrics.core",
    "lead_change": "ludolab.research.metrics.core",
    "lead_change_count": "ludolab.research.metrics.core",
    "metrics_table": "ludolab.research.metrics.registry",
    "per_game_metrics": "ludolab.research.metrics.games",
    "score_spread": "ludolab.research.metrics.core",
    "wilson_interval": "ludolab.research.metrics.core",
    "winner_margin": "ludolab.research.metrics.core",
    "winner_trailing": "ludolab.research.metrics.core",
    "setup_feature_table": "ludolab.research.metrics.games",
    "with_setup_features": "ludolab.research.metrics.games",
}

__all__ = sorted(_HOME)

__getattr__, __dir__ = lazy_exports(__name__, _HOME)
