"""Experiments: configs that say which setups to compare and how (:mod:`.config`).

The names below load their module on first use (:mod:`research.lazy`).
"""

from __future__ import annotations

from research.lazy import lazy_exports

_HOME = {
    "AgentLineup": "research.experiment.config",
    "Comparisons": "research.experiment.config",
    "Condition": "research.experiment.config",
    "ConfigError": "research.experiment.config",
    "ExperimentConfig": "research.experiment.config",
    "GamePlan": "research.experiment.config",
    "GameSpec": "research.experiment.config",
    "allowed_metrics": "research.experiment.config",
    "condition_game_seeds": "research.experiment.config",
    "config_hash": "research.experiment.config",
    "game_metrics": "research.experiment.config",
    "load_experiment": "research.experiment.config",
    "parse_experiment": "research.experiment.config",
    "plan_games": "research.experiment.config",
    "play_hash": "research.experiment.config",
    "resolved_dict": "research.experiment.config",
    "setup_seed": "research.experiment.config",
    "slot_seed": "research.experiment.config",
}

__all__ = sorted(_HOME)

__getattr__, __dir__ = lazy_exports(__name__, _HOME)
