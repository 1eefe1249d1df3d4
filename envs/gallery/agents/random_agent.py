"""The random agent: uniform over the legal actions."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ludolab.envs.gallery.agents.base import Agent

if TYPE_CHECKING:
    from ludolab.envs.gallery.engine import Game


class RandomAgent(Agent):
    """Picks each legal action with equal probability (second cards and declines included)."""

    name = "random"

    def act(self, game: Game, legal: Sequence[int]) -> int:
        return legal[int(self.rng.random() * len(legal))]
