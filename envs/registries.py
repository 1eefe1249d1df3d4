"""Each game's agent registry, by the game's name: the one module that knows both games' agent
packages.

It sits above them: each game's ``agents`` package builds its registry on
:class:`ludolab.envs.agents.AgentRegistry`, so the base module imports no game, and neither
game imports the other. The imports are made on first use, so naming one game's agents does
not load the other game.
"""

from __future__ import annotations

from ludolab.envs.agents import AgentRegistry


def registry_of(game: str) -> AgentRegistry:
    """The agent registry of ``game`` ("catan" or "gallery")."""
    if game == "catan":
        from ludolab.envs.catan.agents import REGISTRY
    else:
        from ludolab.envs.gallery.agents import REGISTRY
    return REGISTRY
