"""Masters Gallery agents, named by a string plus parameters: ``make_agent("random")``."""

from __future__ import annotations

from envs.agents import AgentRegistry, AgentSpecError
from envs.gallery.agents.base import Agent
from envs.gallery.agents.random_agent import RandomAgent

REGISTRY = AgentRegistry("gallery", [RandomAgent])
AGENTS = REGISTRY.agents
make_agent = REGISTRY.make
parse_agent_spec = REGISTRY.parse

__all__ = ["AGENTS", "Agent", "AgentSpecError", "RandomAgent", "make_agent", "parse_agent_spec"]
