"""The random agent: uniform over the legal actions."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from mypy_extensions import mypyc_attr

from ludolab.envs.catan.agents.base import Agent

if TYPE_CHECKING:
    from ludolab.envs.catan.engine import Game


# Compiled (setup.py), a class refuses Python subclasses unless allowed: a variant of this agent
# is a subclass in a researcher's own module.
@mypyc_attr(allow_interpreted_subclasses=True)
class RandomAgent(Agent):
    """Picks each legal action with equal probability (the baseline of the literature)."""

    name = "random"

    def act(self, game: Game, legal: Sequence[int]) -> int:
        return legal[int(self.rng.random() * len(legal))]
