"""Catan agents, named by a string plus parameters: ``make_agent("greedy")``."""

from __future__ import annotations

from envs.catan.agents.base import Agent
from envs.catan.agents.greedy import GreedyAgent
from envs.catan.agents.lookahead import LookaheadAgent
from envs.catan.agents.random_agent import RandomAgent

AGENTS: dict[str, type[Agent]] = {
    RandomAgent.name: RandomAgent,
    GreedyAgent.name: GreedyAgent,
    LookaheadAgent.name: LookaheadAgent,
}


class AgentSpecError(ValueError):
    """An agent name or parameter that does not exist."""


def make_agent(name: str, **params: object) -> Agent:
    """A fresh agent by registry name, with keyword parameters (see each agent's docstring)."""
    cls = AGENTS.get(name)
    if cls is None:
        raise AgentSpecError(f"unknown agent {name!r}; known agents: {', '.join(sorted(AGENTS))}")
    try:
        return cls(**params)
    except (TypeError, ValueError) as exc:
        raise AgentSpecError(f"agent {name!r}: bad parameters {params}: {exc}") from exc


def parse_agent_spec(text: str) -> Agent:
    """An agent from ``name`` or ``name:key=value,key=value`` (values: int, float, true/false)."""
    name, _, rest = text.strip().partition(":")
    params: dict[str, object] = {}
    for item in filter(None, (part.strip() for part in rest.split(","))):
        key, sep, raw = item.partition("=")
        if not sep:
            raise AgentSpecError(f"agent {text!r}: expected key=value, got {item!r}")
        params[key.strip().replace("-", "_")] = _parse_value(raw.strip())
    return make_agent(name, **params)


def _parse_value(raw: str) -> object:
    if raw.lower() in ("true", "false"):
        return raw.lower() == "true"
    for convert in (int, float):
        try:
            return convert(raw)
        except ValueError:
            pass
    return raw


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
