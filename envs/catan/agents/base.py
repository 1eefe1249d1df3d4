"""The base class of Catan agents (see :class:`envs.agents.Agent` for the interface)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar

from envs.agents import Agent as _Agent

if TYPE_CHECKING:
    from envs.catan.engine import Game


class Agent(_Agent):
    """A Catan agent: ``act(game, legal)`` gets the :class:`envs.catan.engine.Game`.

    Shipped agents read only what the seat could see at the table: their own hand and
    development cards, opponents' card counts, the board and public scores.
    """

    game: ClassVar[str] = "catan"

    def act(self, game: Game, legal: Sequence[int]) -> int:
        raise NotImplementedError
