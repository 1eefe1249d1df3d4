"""Which agents the native core can play itself, and as what (the seats of ``Core.play``)."""

from __future__ import annotations

from collections.abc import Sequence

from ludolab.envs.catan import native
from ludolab.envs.catan.agents.base import Agent
from ludolab.envs.catan.agents.greedy import GreedyAgent
from ludolab.envs.catan.agents.random_agent import RandomAgent


def native_seats(agents: Sequence[Agent], seed: int | Sequence[int]) -> list[tuple] | None:
    """The seats of ``Core.play`` for ``agents`` reset with ``seed`` (or seat ``q``'s with
    ``seed[q]``), or None unless the core has every one of them: the plain random and greedy
    agents (no subclass: a subclass may change a rule), with any of greedy's parameters."""
    seats: list[tuple] = []
    for q, agent in enumerate(agents):
        kind = type(agent)
        if kind is not RandomAgent and kind is not GreedyAgent:
            return None
        key = native.stream_key(kind.stream_seed(q, seed if isinstance(seed, int) else seed[q]))
        if isinstance(agent, GreedyAgent):
            leader = agent.robber == "leader"
            seats.append(("greedy", key, agent.trade, agent.offers, agent.dev_cards, leader))
        else:
            seats.append(("random", key))
    return seats
