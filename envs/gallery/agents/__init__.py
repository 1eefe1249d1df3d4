"""Masters Gallery agents, named by a string plus parameters: ``make_agent("random")``,
``parse_agent_spec("greedy:symbol_hold=0")``.

* ``random``: uniform over the legal actions.
* ``greedy``: one-ply evaluation of the round balance (see
  :mod:`ludolab.envs.gallery.agents.greedy`).
* ``leader``: plays the artist leading this round among those it holds.
* ``lookahead``: greedy's best few cards, each played out to the end of the game with greedy
  play (see :mod:`ludolab.envs.gallery.agents.lookahead`), ``lookahead:candidates=3,playouts=32``.
* ``mcts``: information-set Monte Carlo tree search (see :mod:`ludolab.envs.gallery.agents.mcts`),
  ``mcts:playouts=200,policy=random``.
"""

from __future__ import annotations

from ludolab.envs.agents import AgentRegistry, AgentSpecError
from ludolab.envs.gallery.agents.base import Agent
from ludolab.envs.gallery.agents.greedy import GreedyAgent, LeaderAgent
from ludolab.envs.gallery.agents.lookahead import LookaheadAgent
from ludolab.envs.gallery.agents.mcts import MCTSAgent
from ludolab.envs.gallery.agents.random_agent import RandomAgent

REGISTRY = AgentRegistry(
    "gallery", [RandomAgent, GreedyAgent, LeaderAgent, LookaheadAgent, MCTSAgent]
)
AGENTS = REGISTRY.agents
make_agent = REGISTRY.make
parse_agent_spec = REGISTRY.parse

__all__ = [
    "AGENTS",
    "Agent",
    "AgentSpecError",
    "GreedyAgent",
    "LeaderAgent",
    "LookaheadAgent",
    "MCTSAgent",
    "RandomAgent",
    "make_agent",
    "parse_agent_spec",
]
