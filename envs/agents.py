"""What every game's agents share: the Agent base class and naming agents by a string.

An agent is named in configs and on the command line by a string plus parameters:
``greedy`` or ``greedy:trade=false,robber=production``. Each game keeps an
:class:`AgentRegistry` of its agent classes.
"""

from __future__ import annotations

import math
import operator
import random
from collections.abc import Sequence
from typing import Any, ClassVar, SupportsIndex


class Agent:
    """Chooses actions for one seat of one game at a time.

    ``reset`` is called once per game, before the first decision, with the seat the agent plays
    and a seed; all of the agent's randomness must come from ``self.rng`` so that a game is
    reproducible from (setup, agents, seed). ``act`` receives the game (read it, never change
    it) and the legal actions for the seat that must decide now (non-empty, sorted) and returns
    one of them. Shipped agents read only what their seat could see at the table.

    Subclasses set ``name`` (the registry name) and ``game`` (which names the agent's random
    stream, so that two games' agents never share one).
    """

    name: ClassVar[str] = "agent"
    game: ClassVar[str] = "game"

    def __init__(self) -> None:
        self.seat = 0
        self.rng = random.Random(0)

    def reset(self, seat: int, seed: int) -> None:
        self.seat = seat
        self.rng = random.Random(f"ludolab.{self.game}.agent:{self.name}:{seed}:{seat}")

    def act(self, game: Any, legal: Sequence[int]) -> int:
        raise NotImplementedError

    @property
    def spec(self) -> str:
        """The string that recreates this agent from its game's registry."""
        return self.name


def play_out(
    game: Any,
    agents: Sequence[Agent],
    seed: SupportsIndex,
) -> None:
    """Reset seat ``i``'s agent with (``i``, ``seed``), then let the agents decide until the
    game is over (the fast path: no observation encoding); an action the rules force
    (``game.forced_action()``) is taken without asking. Catan has its own, compiled copy
    (:func:`ludolab.envs.catan.play.play_out`)."""
    seed = operator.index(seed)  # numpy's integers too: compiled agents take exactly an int
    for seat, agent in enumerate(agents):
        agent.reset(seat, seed)
    step, legal_actions, forced_action = game.step, game.legal_actions, game.forced_action
    while not game.done:
        forced = forced_action()
        step(forced if forced >= 0 else agents[game.acting].act(game, legal_actions()))


class AgentSpecError(ValueError):
    """An agent name or parameter that does not exist."""


class AgentRegistry:
    """A game's agents by name: ``make("greedy", trade=False)``, ``parse("greedy:trade=false")``."""

    def __init__(self, game: str, agents: Sequence[type[Agent]]) -> None:
        self.game = game
        self.agents: dict[str, type[Agent]] = {cls.name: cls for cls in agents}

    def make(self, name: str, **params: object) -> Agent:
        """A fresh agent by registry name, with keyword parameters (see each agent's docstring)."""
        cls = self.agents.get(name)
        if cls is None:
            known = ", ".join(sorted(self.agents))
            raise AgentSpecError(f"unknown {self.game} agent {name!r}; known agents: {known}")
        for key, value in params.items():
            if isinstance(value, float) and not math.isfinite(value):
                raise AgentSpecError(
                    f"agent {name!r}: parameter {key} must be a finite number, got {value}"
                )
        try:
            return cls(**params)
        except (TypeError, ValueError) as exc:
            raise AgentSpecError(f"agent {name!r}: bad parameters {params}: {exc}") from exc

    def parse(self, text: str) -> Agent:
        """An agent from ``name`` or ``name:key=value,key=value`` (values: int, float,
        true/false, else a string)."""
        name, _, rest = text.strip().partition(":")
        params: dict[str, object] = {}
        for item in filter(None, (part.strip() for part in rest.split(","))):
            key, sep, raw = item.partition("=")
            if not sep:
                raise AgentSpecError(f"agent {text!r}: expected key=value, got {item!r}")
            params[key.strip().replace("-", "_")] = _parse_value(raw.strip())
        return self.make(name, **params)


def _parse_value(raw: str) -> object:
    if raw.lower() in ("true", "false"):
        return raw.lower() == "true"
    for convert in (int, float):
        try:
            return convert(raw)
        except ValueError:
            pass
    return raw
