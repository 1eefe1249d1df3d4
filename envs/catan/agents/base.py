"""The one interface every Catan agent implements."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from envs.catan.engine import Game


class Agent:
    """Chooses actions for one seat.

    ``reset`` is called once per game, before the first decision, with the seat the agent plays
    and a seed; all of the agent's randomness must come from ``self.rng`` so that a game is
    reproducible from (board, agents, seed). ``act`` receives the game (read it, never change
    it) and the legal actions for the seat that must decide now (non-empty, sorted) and returns
    one of them. Shipped agents read only what the seat could see at the table: their own hand
    and development cards, opponents' card counts, the board and public scores.
    """

    name = "agent"

    def __init__(self) -> None:
        self.seat = 0
        self.rng = random.Random(0)

    def reset(self, seat: int, seed: int) -> None:
        self.seat = seat
        self.rng = random.Random(f"ludolab.catan.agent:{self.name}:{seed}:{seat}")

    def act(self, game: Game, legal: Sequence[int]) -> int:
        raise NotImplementedError

    @property
    def spec(self) -> str:
        """The string that recreates this agent with :func:`envs.catan.agents.make_agent`."""
        return self.name
