"""Catan agents, named by a string plus parameters: ``make_agent("greedy")``."""

from __future__ import annotations

from ludolab.envs.agents import AgentRegistry, AgentSpecError
from ludolab.envs.catan.agents.alphabeta import AlphaBetaAgent
from ludolab.envs.catan.agents.base import Agent
from ludolab.envs.catan.agents.greedy import GreedyAgent
from ludolab.envs.catan.agents.lookahead import LookaheadAgent
from ludolab.envs.catan.agents.mcts import MCTSAgent, ValueMCTSAgent
from ludolab.envs.catan.agents.random_agent import RandomAgent

REGISTRY = AgentRegistry(
    "catan",
    [RandomAgent, GreedyAgent, LookaheadAgent, MCTSAgent, ValueMCTSAgent, AlphaBetaAgent],
)
AGENTS = REGISTRY.agents
make_agent = REGISTRY.make
parse_agent_spec = REGISTRY.parse

__all__ = [
    "AGENTS",
    "Agent",
    "AlphaBetaAgent",
    "AgentSpecError",
    "GreedyAgent",
    "LookaheadAgent",
    "MCTSAgent",
    "RandomAgent",
    "ValueMCTSAgent",
    "make_agent",
    "parse_agent_spec",
]
