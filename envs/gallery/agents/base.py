"""The base class of Masters Gallery agents (see :class:`ludolab.envs.agents.Agent` for the
interface)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar

from ludolab.envs.agents import Agent as _Agent

if TYPE_CHECKING:
    from ludolab.envs.gallery.engine import Game


class Agent(_Agent):
    """A Masters Gallery agent: ``act(game, legal)`` gets the
    :class:`ludolab.envs.gallery.engine.Game`.

    Shipped agents read only what the seat could see at the table: their own hand, the cards
    displayed, tokens, awards, scores and opponents' hand sizes.
    """

    game: ClassVar[str] = "gallery"

    def act(self, game: Game, legal: Sequence[int]) -> int:
        raise NotImplementedError
