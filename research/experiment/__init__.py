"""Experiments: configs that say which setups to compare and how (:mod:`.config`)."""

from research.experiment.config import (
    AgentLineup,
    Comparisons,
    Condition,
    ConfigError,
    ExperimentConfig,
    GameSpec,
    allowed_metrics,
    condition_game_seeds,
    config_hash,
    game_metrics,
    load_experiment,
    parse_experiment,
    plan_games,
    play_hash,
    resolved_dict,
    setup_seed,
)

__all__ = [
    "AgentLineup",
    "Comparisons",
    "Condition",
    "ConfigError",
    "ExperimentConfig",
    "GameSpec",
    "allowed_metrics",
    "condition_game_seeds",
    "config_hash",
    "game_metrics",
    "load_experiment",
    "parse_experiment",
    "plan_games",
    "play_hash",
    "resolved_dict",
    "setup_seed",
]
