"""Policies trained with Stable-Baselines3 / sb3-contrib as ludolab agents, for either game.

Needs the optional extra: ``pip install 'ludolab[sb3]'`` (sb3-contrib, which brings
stable-baselines3 and torch). Named like any agent from outside the package::

    ludolab.envs.sb3:SB3Agent?path=models/gallery-ppo.zip

The agent encodes the position from its own seat exactly as the Gymnasium env does for its
learner (its game description's ``observe``: ``encode`` in
:mod:`ludolab.envs.catan.observation` and :mod:`ludolab.envs.gallery.observation`), so a
policy trained on ``ludolab/Catan-v0`` or ``ludolab/MastersGallery-v0`` with the same player
count and rules sees the same numbers at every decision; it passes the legal actions as the
action mask (``predict(obs, action_masks=...)``, as MaskablePPO takes them) and plays the
action predicted. Parameters:

* ``path``: the saved model (``model.save(path)``);
* ``algo``: the class that loads it, ``module:Class`` (default ``sb3_contrib:MaskablePPO``;
  any class with ``load(path)`` whose models' ``predict`` takes ``action_masks``);
* ``deterministic``: the most likely action (default) or a draw from the policy (``false``;
  the draw then comes from torch's generator, seeded from the agent's stream each game).

A model is loaded once per process and path, then shared by every agent made from it.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ludolab import games
from ludolab.envs.agents import Agent

_MODELS: dict[tuple[str, str, float], Any] = {}


class SB3Agent(Agent):
    """A saved Stable-Baselines3 / sb3-contrib policy playing one seat (see the module)."""

    name = "sb3"

    def __init__(
        self, path: str = "", algo: str = "sb3_contrib:MaskablePPO", deterministic: bool = True
    ) -> None:
        super().__init__()
        if not path:
            raise ValueError("give the saved model: path=model.zip")
        file = Path(path)
        if not file.is_file() and file.with_suffix(".zip").is_file():
            file = file.with_suffix(".zip")
        if not file.is_file():
            raise ValueError(f"path={path}: no such model file")
        if not isinstance(deterministic, bool):
            raise ValueError(f"deterministic must be true or false, got {deterministic!r}")
        self.path = str(file)
        self.algo = algo
        self.deterministic = deterministic
        self.model = _load(algo, file)

    def reset(self, seat: int, seed: int) -> None:
        super().reset(seat, seed)
        if not self.deterministic:
            import torch

            torch.manual_seed(self.rng.getrandbits(63))

    def act(self, game: Any, legal: Sequence[int]) -> int:
        # as the game's Gymnasium env encodes it: the state's class names its game
        obs = games.get(type(game).game).observe(game, self.seat)
        mask = np.zeros(self.model.action_space.n, dtype=bool)
        mask[list(legal)] = True
        action, _ = self.model.predict(obs, action_masks=mask, deterministic=self.deterministic)
        return int(action)


def _load(algo: str, file: Path) -> Any:
    module_name, _, class_name = algo.partition(":")
    key = (algo, str(file.resolve()), file.stat().st_mtime)
    if key not in _MODELS:
        try:
            cls = getattr(importlib.import_module(module_name), class_name)
        except ImportError as exc:
            raise ValueError(
                f"algo={algo}: cannot import {module_name} ({exc}); install the extra: "
                f"pip install 'ludolab[sb3]'"
            ) from None
        except AttributeError:
            raise ValueError(f"algo={algo}: {module_name} has no {class_name}") from None
        _MODELS[key] = cls.load(str(file), device="cpu")
    return _MODELS[key]
