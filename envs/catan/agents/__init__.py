"""Catan agents, named by a string plus parameters: ``make_agent("greedy")``."""

from __future__ import annotations

from envs.agents import AgentRegistry, AgentSpecError
from envs.catan.agents.base import Agent
from envs.catan.agents.greedy import GreedyAgent
from envs.catan.agents.lookahead import LookaheadAgent
from envs.catan.agents.random_agent import RandomAgent

REGISTRY = AgentRegistry("catan", [RandomAgent, GreedyAgent, LookaheadAgent])
AGENTS = REGISTRY.agents
make_agent = REGISTRY.make
parse_agent_spec = REGISTRY.parse

__all__ = [
    "AGENTS",
    "Agent",
    "AgentSpecError",
    "GreedyAgent",
    "LookaheadAgent",
    "RandomAgent",
    "make_agent",
    "parse_agent_spec",
]
