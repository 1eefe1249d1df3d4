"""Which Masters Gallery agents the native core plays, and as what (its seats)."""

from __future__ import annotations

from collections.abc import Sequence

from ludolab.envs.gallery.agents.base import Agent
from ludolab.envs.gallery.agents.greedy import GreedyAgent, LeaderAgent
from ludolab.envs.gallery.agents.random_agent import RandomAgent
from ludolab.envs.random_streams import stream_key


def native_seats(agents: Sequence[Agent], seeds: Sequence[int]) -> list[tuple] | None:
    """The core's seats for ``agents`` (seat q reset with ``seeds[q]``), or None when one of
    them is not an agent the core has (a subclass may change a choice, so only the classes
    themselves)."""
    seats: list[tuple] = []
    for q, agent in enumerate(agents):
        kind = type(agent)
        if kind is RandomAgent:
            seats.append(("random", stream_key(RandomAgent.stream_seed(q, seeds[q]))))
        elif kind is LeaderAgent:
            seats.append(("leader",))
        elif kind is GreedyAgent:
            assert isinstance(agent, GreedyAgent)
            seats.append(
                (
                    "greedy",
                    agent.sharpness,
                    agent.card_value,
                    agent.symbol_hold,
                    agent.opponents == "mean",
                )
            )
        else:
            return None
    return seats


__all__ = ["native_seats"]
