"""The base class of Catan agents (see :class:`ludolab.envs.agents.Agent` for the interface)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar

from ludolab.envs.agents import Agent as _Agent

if TYPE_CHECKING:
    from ludolab.envs.catan.engine import Game


class Agent(_Agent):
    """A Catan agent: ``act(game, legal)`` gets the :class:`ludolab.envs.catan.engine.Game`.

    Shipped agents read only what the seat could see at the table: their own hand and
    development cards, opponents' card counts, the board and public scores.
    """

    game: ClassVar[str] = "catan"
    # True for an agent that decides in the main phase by asking ``game.is_legal`` about the
    # few actions it considers, rather than reading the list:
    # :func:`ludolab.envs.catan.loop.play_out` then hands it a lazy view of the legal actions there
    # (listing them all would cost more than the decision). The view is a correct sequence either
    # way; this is only a hint.
    lazy_legal: ClassVar[bool] = False

    def act(self, game: Game, legal: Sequence[int]) -> int:
        raise NotImplementedError
