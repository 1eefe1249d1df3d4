"""Experiments: configs that say which setups to compare and how (:mod:`.config`).

The names below load their module on first use (PEP 562), so importing the package stays
cheap for a command that needs one of its light modules.
"""

from __future__ import annotations

import importlib
from typing import Any

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


def __getattr__(name: str) -> Any:
    if name not in _HOME:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(_HOME[name]), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_HOME])
