"""Experiments: configs that say which setups to compare and how (:mod:`.config`).

The names below load their module on first use (:mod:`ludolab.research.lazy`).
"""

from __future__ import annotations

from ludolab.research.lazy import lazy_exports

_HOME = {
    "AgentLineup": "ludolab.research.experiment.config",
    "Comparisons": "ludolab.research.experiment.config",
    "Condition": "ludolab.research.experiment.config",
    "ConfigError": "ludolab.research.experiment.config",
    "ExperimentConfig": "ludolab.research.experiment.config",
    "GamePlan": "ludolab.research.experiment.config",
    "GameSpec": "ludolab.research.experiment.config",
    "allowed_metrics": "ludolab.research.experiment.config",
    "condition_game_seeds": "ludolab.research.experiment.config",
    "config_hash": "ludolab.research.experiment.config",
    "game_metrics": "ludolab.research.experiment.config",
    "load_experiment": "ludolab.research.experiment.config",
    "parse_experiment": "ludolab.research.experiment.config",
    "plan_games": "ludolab.research.experiment.config",
    "play_hash": "ludolab.research.experiment.config",
    "resolved_dict": "ludolab.research.experiment.config",
    "setup_seed": "ludolab.research.experiment.config",
    "slot_seed": "ludolab.research.experiment.config",
}

__all__ = sorted(_HOME)

__getattr__, __dir__ = lazy_exports(__name__, _HOME)
