"""What every game's agents share: the Agent base class and naming agents by a string.

An agent is named in configs and on the command line by a string plus parameters:
``greedy`` or ``greedy:trade=false,robber=production``. Each game keeps an
:class:`AgentRegistry` of its agent classes.

Agents from outside the package are named the same ways:

* by where their class is, ``module.path:ClassName``, with parameters after ``?``:
  ``mylab.agents:PPOAgent?path=model.zip,deterministic=true``;
* by a name a distribution declares in the ``ludolab.agents`` entry-point group
  (``[project.entry-points."ludolab.agents"] ppo = "mylab.agents:PPOAgent"`` in its
  ``pyproject.toml``), then ``ppo`` or ``ppo:path=model.zip`` like a shipped agent.

The class must subclass :class:`Agent` and be an agent of the game (its ``game`` attribute).
Spec strings are what run folders record and what worker processes rebuild agents from, so
such a module must be importable wherever the games are played (the same environment).
"""

from __future__ import annotations

import contextlib
import importlib
import math
import operator
import random
from collections.abc import Sequence
from importlib.metadata import entry_points
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
        self.rng = random.Random(self.stream_seed(seat, seed))

    @classmethod
    def stream_seed(cls, seat: int, seed: int) -> str:
        """What ``reset(seat, seed)`` seeds ``rng`` with (a native copy of an agent draws the
        same numbers from it)."""
        return f"ludolab.{cls.game}.agent:{cls.name}:{seed}:{seat}"

    def act(self, game: Any, legal: Sequence[int]) -> int:
        raise NotImplementedError

    @property
    def spec(self) -> str:
        """The string that recreates this agent from its game's registry (for an agent made
        from a ``module:Class`` spec, that spec)."""
        return getattr(self, "_ludolab_spec", None) or self.name


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


def _spec_value(value: object) -> str:
    """One parameter's value as a spec writes it (``true``/``false``, floats as ``%g``)."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def spec_string(name: str, params: dict[str, object], defaults: dict[str, object]) -> str:
    """``name`` plus the parameters that differ from their defaults: ``greedy`` or
    ``greedy:sharpness=3,opponents=mean`` (floats as ``%g``, booleans as ``true``/``false``), as
    a registry parses it back."""
    parts = [f"{k}={_spec_value(v)}" for k, v in params.items() if v != defaults[k]]
    return name + (":" + ",".join(parts) if parts else "")


ENTRY_POINTS = "ludolab.agents"  # the entry-point group of agents from other distributions


class AgentSpecError(ValueError):
    """An agent name or parameter that does not exist."""


class AgentRegistry:
    """A game's agents by name: ``make("greedy", trade=False)``, ``parse("greedy:trade=false")``."""

    def __init__(self, game: str, agents: Sequence[type[Agent]]) -> None:
        self.game = game
        self.agents: dict[str, type[Agent]] = {cls.name: cls for cls in agents}

    def make(self, name: str, **params: object) -> Agent:
        """A fresh agent by registry name (or ``ludolab.agents`` entry-point name), with
        keyword parameters (see each agent's docstring)."""
        if name in self.agents:
            return self._instantiate(self.agents[name], name, params)
        cls = self._entry_point(name)
        if cls is None:
            known = ", ".join(sorted(self.agents) + sorted(self._entry_point_names()))
            raise AgentSpecError(
                f"unknown {self.game} agent {name!r}; known agents: {known} (or name a class: "
                f"module.path:ClassName)"
            )
        agent = self._instantiate(cls, name, params)
        given = ",".join(
            f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in params.items()
        )
        _remember_spec(agent, f"{name}:{given}" if given else name)
        return agent

    def _instantiate(self, cls: type[Agent], name: str, params: dict[str, object]) -> Agent:
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
        true/false, else a string), or from ``module.path:ClassName?key=value,...``."""
        text = text.strip()
        name, _, rest = text.partition(":")
        if "." in name or (rest and "=" not in rest.partition("?")[0]):
            return self._from_class(text)
        return self.make(name, **_parameters(text, rest))

    def _from_class(self, text: str) -> Agent:
        where, _, rest = text.partition("?")
        module_name, _, class_name = where.partition(":")
        if not module_name or not class_name.isidentifier():
            raise AgentSpecError(
                f"agent {text!r}: expected module.path:ClassName (then ?key=value,...)"
            )
        try:
            module = importlib.import_module(module_name)
        except Exception as exc:  # noqa: BLE001 - whatever stops the import is the spec's error
            raise AgentSpecError(
                f"agent {text!r}: cannot import {module_name!r}: {type(exc).__name__}: {exc}"
            ) from None
        cls = getattr(module, class_name, None)
        if cls is None:
            raise AgentSpecError(f"agent {text!r}: module {module_name!r} has no {class_name!r}")
        agent = self._instantiate(self._checked(cls, text), class_name, _parameters(text, rest))
        _remember_spec(agent, text)
        return agent

    def _checked(self, cls: object, where: str) -> type[Agent]:
        if not (isinstance(cls, type) and issubclass(cls, Agent)):
            raise AgentSpecError(f"agent {where!r}: {cls!r} is not a ludolab Agent subclass")
        # a family's agents play each of its games (mylib's play mylib:chess)
        if cls.game not in (self.game, self.game.partition(":")[0], Agent.game):
            raise AgentSpecError(
                f"agent {where!r}: {cls.__name__} plays {cls.game}, not {self.game}"
            )
        return cls

    def _entry_point_names(self) -> list[str]:
        return [ep.name for ep in entry_points(group=ENTRY_POINTS)]

    def _entry_point(self, name: str) -> type[Agent] | None:
        for ep in entry_points(group=ENTRY_POINTS, name=name):
            try:
                cls = ep.load()
            except Exception as exc:  # noqa: BLE001 - any failure to load is the spec's error
                raise AgentSpecError(
                    f"agent {name!r}: entry point {ep.value!r} does not load: {exc}"
                ) from None
            return self._checked(cls, f"{name} = {ep.value}")
        return None


def _remember_spec(agent: Agent, spec: str) -> None:
    """Record the spec an outside agent was made from (what ``Agent.spec`` returns), unless
    its class says its spec itself."""
    if type(agent).spec is Agent.spec:
        with contextlib.suppress(AttributeError):  # a class with __slots__ keeps its name
            agent._ludolab_spec = spec  # type: ignore[attr-defined]


def _parameters(text: str, rest: str) -> dict[str, object]:
    """``key=value,key=value`` as keyword arguments (hyphens in keys become underscores)."""
    params: dict[str, object] = {}
    for item in filter(None, (part.strip() for part in rest.split(","))):
        key, sep, raw = item.partition("=")
        if not sep:
            raise AgentSpecError(f"agent {text!r}: expected key=value, got {item!r}")
        params[key.strip().replace("-", "_")] = _parse_value(raw.strip())
    return params


def _parse_value(raw: str) -> object:
    if raw.lower() in ("true", "false"):
        return raw.lower() == "true"
    for convert in (int, float):
        try:
            return convert(raw)
        except ValueError:
            pass
    return raw
