"""The learning faces shared by the engines: a Gymnasium env and a PettingZoo AEC env.

A game supplies its parts once, in a subclass of :class:`GameFace` (how to build a ``Game``
from a setup and a seed, the observation encoder and space, the action count, the rewards and
info at the end, the text render, the setup type, its default draw and per-setup checks), and
mixes that into two thin classes:

    class CatanFace(GameFace): ...
    class CatanEnv(CatanFace, LearnerSeatEnv): ...      # gymnasium: one learner seat
    class CatanAECEnv(CatanFace, SeatsAECEnv): ...      # PettingZoo AEC: every seat an agent

The behaviour the faces share (documented in each game's ``gym_env`` and ``aec_env`` modules):
a *setup source* (a fixed setup, a non-empty sequence drawn from uniformly, a callable
``np.random.Generator -> setup``, or None for the game's default draw); a game seed drawn from
the env's generator before the setup on every reset (``reset(options={<setup name>: s,
"game_seed": k})`` overrides either); action masks as int8 (``info["action_mask"]``, the AEC
``observe()["action_mask"]``) and bool (``action_masks()``); illegal actions raising the
engine's ``IllegalActionError`` (or, in the Gymnasium env with ``illegal_action="terminate"``,
ending the episode with reward -1); rewards 0 until the end.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar, Protocol

import numpy as np
from gymnasium import spaces
from gymnasium.core import Env
from gymnasium.envs import registration
from gymnasium.error import ResetNeeded
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ludolab.envs.rules import as_action

SEED_BOUND = 2**63  # game seeds are drawn from [0, 2**63)


class Engine(Protocol):
    """What the faces use of a game engine."""

    acting: int

    @property
    def done(self) -> bool: ...

    def legal_actions(self) -> list[int]: ...

    def step(self, action: int) -> Any: ...

    def forced_action(self) -> int:
        """The one action when the acting seat has no decision to make, else -1."""
        ...


# ---------------------------------------------------------------------------------- helpers


def check_setup_source(
    source: Any, kind: type, name: str, check: Callable[[Any], Any] | None = None
) -> Any:
    """Validate a setup source early (at construction) so a bad one fails before reset.

    None and callables pass as they are; a ``kind`` instance and every item of a sequence go
    through ``check`` (e.g. a player-count check); a sequence comes back as a tuple.
    """
    if source is None or callable(source):
        return source
    if isinstance(source, kind):
        return source if check is None else check(source)
    items = tuple(source)
    if not items or not all(isinstance(x, kind) for x in items):
        what = kind.__name__
        raise TypeError(
            f"{name} must be a {what}, a non-empty sequence of {what}s, a callable or None"
        )
    if check is not None:
        for x in items:
            check(x)
    return items


def draw_setup(
    source: Any,
    rng: np.random.Generator,
    kind: type,
    name: str,
    default: Callable[[np.random.Generator], Any],
) -> Any:
    """The setup for the next game: fixed, one of a sequence (uniformly), made by a callable
    from ``rng``, or ``default(rng)`` when ``source`` is None."""
    if source is None:
        return default(rng)
    if isinstance(source, kind):
        return source
    if callable(source):
        setup = source(rng)
        if not isinstance(setup, kind):
            raise TypeError(
                f"the {name} callable returned {type(setup).__name__}, not a {kind.__name__}"
            )
        return setup
    return source[int(rng.integers(len(source)))]


def make_options(game_options: Any, kind: type) -> Any:
    """Engine options from an instance, a dict of its fields, or None (the defaults)."""
    if game_options is None:
        return kind()
    if isinstance(game_options, kind):
        return game_options
    if isinstance(game_options, dict):
        return kind(**game_options)
    raise TypeError(
        f"game_options must be {kind.__name__}, dict or None, got {type(game_options)}"
    )


def register_env(env_id: str, entry_point: str) -> None:
    """Register ``env_id`` with gymnasium unless it already is (idempotent, no warning)."""
    if env_id in registration.registry:
        return
    registration.register(id=env_id, entry_point=entry_point)


def order_enforced(raw_env: Callable[..., AECEnv]) -> Callable[..., AECEnv]:
    """The ``env(**kwargs)`` of an AEC module: ``raw_env(**kwargs)`` wrapped in PettingZoo's
    OrderEnforcingWrapper (clear errors on misuse: step or observe before reset)."""

    def env(**kwargs: Any) -> AECEnv:
        return wrappers.OrderEnforcingWrapper(raw_env(**kwargs))

    env.__doc__ = (
        f"The AEC env wrapped in PettingZoo's OrderEnforcingWrapper (clear errors on misuse: "
        f"step or observe before reset). Keyword arguments go to :class:`{raw_env.__name__}`."
    )
    return env


def check_render_mode(render_mode: str | None, modes: Sequence[str]) -> None:
    if render_mode is not None and render_mode not in modes:
        allowed = " or ".join(["None", *map(repr, modes)])
        raise ValueError(f"render_mode must be {allowed}, got {render_mode!r}")


# ---------------------------------------------------------------------------------- the game


class GameFace:
    """The game-specific parts of both faces; a game subclasses this once.

    Class attributes: ``n_actions`` (the Discrete action count), ``min_players`` and
    ``max_players``, ``setup_name`` (the constructor argument and reset option: ``"board"``,
    ``"deal"``), ``setup_type`` (its class), ``options_type`` (the engine's options class).
    """

    n_actions: ClassVar[int]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    setup_name: ClassVar[str]
    setup_type: ClassVar[type]
    options_type: ClassVar[type]

    n_players: int
    setup_source: Any
    game_options: Any

    # -- what a game supplies

    def _check_source(self, source: Any) -> Any:
        """The validated setup source (see :func:`check_setup_source`)."""
        raise NotImplementedError

    def _draw_setup(self, rng: np.random.Generator) -> Any:
        """The setup of the next game from ``self.setup_source`` (see :func:`draw_setup`)."""
        raise NotImplementedError

    def _check_setup(self, setup: Any) -> Any:
        """A setup passed as a reset option, checked (e.g. its player count)."""
        return setup

    def _new_game(self, setup: Any, game_seed: int) -> Engine:
        raise NotImplementedError

    def _observation_box(self, n_players: int) -> spaces.Box:
        raise NotImplementedError

    def _encode(self, game: Any, seat: int) -> np.ndarray:
        raise NotImplementedError

    def _final_rewards(self, game: Any) -> Sequence[float] | None:
        """Every seat's reward for a finished game; None when it was cut off (truncated)."""
        raise NotImplementedError

    def _end_info(self, game: Any) -> dict[str, Any] | None:
        """The info entries about the end (a fresh dict), or None for none."""
        raise NotImplementedError

    def _render_text(self, game: Any, seat: int | None) -> str:
        raise NotImplementedError

    # -- shared

    def _setup_engine(self, source: Any, game_options: Any) -> None:
        self.setup_source = self._check_source(source)
        self.game_options = make_options(game_options, self.options_type)

    def _as_action(self, action: Any) -> int:
        return as_action(action, self.n_actions)


# ---------------------------------------------------------------------------------- gymnasium


class LearnerSeatEnv(GameFace, Env[np.ndarray, np.int64]):
    """One learner seat against agents (Gymnasium); a game's env mixes in its GameFace.

    Class attributes ``agent_type`` (the game's Agent class) and ``parse_agent`` (a
    staticmethod: spec string -> Agent) turn ``opponents`` into agents.
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 4}
    agent_type: ClassVar[type]
    parse_agent: ClassVar[Callable[[str], Any]]

    def __init__(
        self,
        setup: Any,
        opponents: Sequence[Any] | None,
        seat: int | str,
        game_options: Any,
        render_mode: str | None,
        illegal_action: str,
    ) -> None:
        super().__init__()
        specs = ["random"] * 3 if opponents is None else list(opponents)
        agents = [self.parse_agent(a) if isinstance(a, str) else a for a in specs]
        for a in agents:
            if not isinstance(a, self.agent_type):
                raise TypeError(f"opponent {a!r} is neither an Agent nor an agent spec string")
        if len({id(a) for a in agents}) != len(agents):
            raise ValueError("opponents must be distinct Agent objects (one per seat)")
        self.n_players = n = len(agents) + 1
        if not self.min_players <= n <= self.max_players:
            raise ValueError(
                f"need {self.min_players - 1}..{self.max_players - 1} opponents, got {len(agents)}"
            )
        self.random_seat = seat == "random"
        if not self.random_seat and (
            isinstance(seat, bool) or not isinstance(seat, int | np.integer) or not 0 <= seat < n
        ):
            raise ValueError(f"seat must be an int in 0..{n - 1} or 'random', got {seat!r}")
        check_render_mode(render_mode, self.metadata["render_modes"])
        if illegal_action not in ("raise", "terminate"):
            raise ValueError(
                f"illegal_action must be 'raise' or 'terminate', got {illegal_action!r}"
            )
        self._setup_engine(setup, game_options)
        self.render_mode = render_mode
        self.illegal_action = illegal_action
        self.opponents = agents
        self._seat_learner(0 if self.random_seat else int(seat))
        self.observation_space = self._observation_box(n)
        self.action_space = spaces.Discrete(self.n_actions)
        self.game: Any = None
        self.game_seed: int | None = None
        self._over = True  # no episode running until reset

    # ------------------------------------------------------------------ gymnasium API

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Start a new game; the opponents act until the learner's first decision.

        ``options`` may hold the setup (under ``setup_name``, for this game) and
        ``"game_seed"`` (an int); other keys are an error.
        """
        super().reset(seed=seed)
        options = dict(options or {})
        name = self.setup_name
        unknown = set(options) - {name, "game_seed"}
        if unknown:
            raise ValueError(f"unknown reset options {sorted(unknown)}; known: {name}, game_seed")
        # Always draw, so the stream (and the setup drawn next) does not depend on the override.
        game_seed = int(self.np_random.integers(SEED_BOUND))
        if options.get("game_seed") is not None:
            game_seed = _game_seed(options["game_seed"])
        setup = options.get(name)
        setup = self._draw_setup(self.np_random) if setup is None else self._check_setup(setup)
        if self.random_seat:  # drawn last, so that the draws before are as with a fixed seat
            self._seat_learner(int(self.np_random.integers(self.n_players)))
        self.game_seed = game_seed
        self.game = game = self._new_game(setup, game_seed)
        for q, agent in enumerate(self.agents):
            if agent is not None:
                agent.reset(q, game_seed)
        self._over = False
        self._advance()
        if game.done:  # a game nobody could play (e.g. Masters Gallery with hand_size=0)
            self._over = True
        return self._encode(game, self.seat), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Apply the learner's action, then the opponents' until the learner decides again.

        Raises:
            IllegalActionError: the action is not legal now (mode ``"raise"``); nothing changes.
            ResetNeeded: the episode is over, or ``reset`` was never called.
        """
        game = self.game
        if game is None or self._over:
            raise ResetNeeded("the episode is over (or never started): call reset() before step()")
        a = self._as_action(action)
        if self.illegal_action == "terminate" and a not in game.legal_actions():
            self._over = True
            info = self._info()
            info["illegal_action"] = True
            return self._encode(game, self.seat), -1.0, True, False, info
        game.step(a)  # raises IllegalActionError (listing the legal actions) if illegal
        self._advance()
        terminated = truncated = False
        reward = 0.0
        if game.done:
            rewards = self._final_rewards(game)
            terminated = rewards is not None
            truncated = not terminated
            if rewards is not None:
                reward = float(rewards[self.seat])
        self._over = terminated or truncated
        return self._encode(game, self.seat), reward, terminated, truncated, self._info()

    def action_masks(self) -> np.ndarray:
        """Legal actions now as a bool array of length n_actions (sb3-contrib MaskablePPO)."""
        return self._mask().astype(bool)

    def render(self) -> str | None:
        """A short text state (render_mode ``"ansi"``); None for other modes."""
        if self.render_mode != "ansi" or self.game is None:
            return None
        return self._render_text(self.game, self.seat)

    # ------------------------------------------------------------------ internals

    def _advance(self) -> None:
        """Let the opponents decide until the learner must act or the game is over."""
        game, seat, agents = self.game, self.seat, self.agents
        assert game is not None
        step, legal_actions = game.step, game.legal_actions
        while not game.done:
            forced = game.forced_action()
            if forced >= 0:  # not a decision, for the learner either: as play_game does
                step(forced)
            elif game.acting == seat:
                return
            else:
                step(agents[game.acting].act(game, legal_actions()))

    def _mask(self) -> np.ndarray:
        mask = np.zeros(self.n_actions, dtype=np.int8)
        if self.game is not None and not self._over:
            mask[self.game.legal_actions()] = 1
        return mask

    def _seat_learner(self, seat: int) -> None:
        """The learner plays ``seat``; the opponents take the other seats in their order."""
        self.seat = seat
        others = iter(self.opponents)
        # agents[q] plays seat q; agents[seat] is None (the learner).
        self.agents: list[Any] = [
            None if q == seat else next(others) for q in range(self.n_players)
        ]

    def _info(self) -> dict[str, Any]:
        """Fresh dict (gymnasium requires new objects per call): the mask, the learner's seat,
        and at the end the game's end entries (``_end_info``) and the game seed."""
        info: dict[str, Any] = {"action_mask": self._mask(), "seat": self.seat}
        if self._over and self.game is not None:
            end = self._end_info(self.game)
            if end is not None:
                info.update(end)
                info["game_seed"] = self.game_seed
        return info


# ---------------------------------------------------------------------------------- PettingZoo


class SeatsAECEnv(GameFace, AECEnv):
    """All seats of one game as PettingZoo AEC agents ``player_0 .. player_{n-1}``; a game's
    env mixes in its GameFace and sets ``metadata`` (with its ``name``)."""

    metadata: ClassVar[dict[str, Any]]

    def __init__(
        self, setup: Any, n_players: int, game_options: Any, render_mode: str | None
    ) -> None:
        super().__init__()
        if not self.min_players <= n_players <= self.max_players:
            raise ValueError(
                f"n_players must be {self.min_players}..{self.max_players}, got {n_players}"
            )
        check_render_mode(render_mode, self.metadata["render_modes"])
        self.n_players = n_players
        self._setup_engine(setup, game_options)
        self.render_mode = render_mode
        self.possible_agents = [f"player_{q}" for q in range(n_players)]
        self._seat = {agent: q for q, agent in enumerate(self.possible_agents)}
        # One space object per agent, returned as is on every call (api_test checks identity,
        # and seeding a space must stick).
        obs_box = self._observation_box(n_players)
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": obs_box,
                    "action_mask": spaces.Box(0, 1, (self.n_actions,), dtype=np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {
            agent: spaces.Discrete(self.n_actions) for agent in self.possible_agents
        }
        self._rng: np.random.Generator | None = None
        self.game: Any = None
        self.game_seed: int | None = None

    # ------------------------------------------------------------------ PettingZoo API

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game (see the game's module docstring for seeding and options)."""
        if seed is not None or self._rng is None:
            self._rng = np.random.default_rng(seed)
        options = options if isinstance(options, dict) else {}
        game_seed = int(self._rng.integers(SEED_BOUND))
        if options.get("game_seed") is not None:
            game_seed = _game_seed(options["game_seed"])
        setup = options.get(self.setup_name)
        if isinstance(setup, self.setup_type):
            setup = self._check_setup(setup)
        else:
            setup = self._draw_setup(self._rng)
        self.game_seed = game_seed
        self.game = game = self._new_game(setup, game_seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[game.acting]
        if game.done:  # a game nobody could play (e.g. Masters Gallery with hand_size=0)
            self._finish()
            self._accumulate_rewards()

    def step(self, action: Any) -> None:
        """Apply ``agent_selection``'s action; a finished agent must pass None (and leaves).

        Raises:
            IllegalActionError: the action is not legal now; nothing changes.
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self.game
        assert game is not None
        self._cumulative_rewards[agent] = 0
        game.step(self._as_action(action))  # raises IllegalActionError (listing the legal ones)
        self._clear_rewards()
        if game.done:
            self._finish()
        self.agent_selection = self.possible_agents[game.acting]
        self._accumulate_rewards()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``{"observation": float32 vector for agent's seat, "action_mask": int8}``."""
        game = self.game
        assert game is not None, "call reset() first"
        seat = self._seat[agent]
        mask = np.zeros(self.n_actions, dtype=np.int8)
        if not game.done and game.acting == seat:
            mask[game.legal_actions()] = 1
        return {"observation": self._encode(game, seat), "action_mask": mask}

    def render(self) -> str | None:
        """A short text state (render_mode ``"ansi"``), for the selected agent's seat."""
        if self.render_mode != "ansi" or self.game is None:
            return None
        return self._render_text(self.game, self._seat.get(self.agent_selection))

    def close(self) -> None:
        """Nothing to release (no windows, no processes)."""

    # ------------------------------------------------------------------ internals

    def _finish(self) -> None:
        """The game is over: the final rewards and end info for every agent; all agents
        terminated, or truncated when the game was cut off."""
        game = self.game
        assert game is not None
        rewards = self._final_rewards(game)
        for a in self.agents:
            if rewards is not None:
                self.rewards[a] = rewards[self._seat[a]]
            self.infos[a] = self._end_info(game)
        done = dict.fromkeys(self.agents, True)
        if rewards is None:
            self.truncations = done
        else:
            self.terminations = done


__all__ = [
    "SEED_BOUND",
    "GameFace",
    "LearnerSeatEnv",
    "SeatsAECEnv",
    "check_setup_source",
    "draw_setup",
    "make_options",
    "order_enforced",
    "register_env",
]


# ------------------------------------------------------------------------ observation layouts


class BlockLayout:
    """A flat observation vector made of named blocks: ``blocks(n_players)`` lists
    ``(name, length)`` in order; this gives the slices, size, Box space and index names."""

    def __init__(self, blocks: Callable[[int], list[tuple[str, int]]]) -> None:
        self.blocks = blocks
        self._slices: dict[int, dict[str, slice]] = {}

    def block_slices(self, n_players: int) -> dict[str, slice]:
        """Where each block sits in the vector: name -> slice (in block order)."""
        if n_players not in self._slices:
            out, start = {}, 0
            for name, length in self.blocks(n_players):
                out[name] = slice(start, start + length)
                start += length
            self._slices[n_players] = out
        return self._slices[n_players]

    def size(self, n_players: int) -> int:
        """Length of the observation vector for ``n_players`` players."""
        return sum(length for _, length in self.blocks(n_players))

    def space(self, n_players: int) -> spaces.Box:
        """``Box(0, 1, (size,), float32)``."""
        return spaces.Box(low=0.0, high=1.0, shape=(self.size(n_players),), dtype=np.float32)

    def describe_index(self, index: int, n_players: int) -> str:
        """The block and offset of one vector entry, e.g. ``"my_hand[7]"`` (for reading
        weights)."""
        for name, sl in self.block_slices(n_players).items():
            if sl.start <= index < sl.stop:
                return f"{name}[{index - sl.start}]"
        raise IndexError(
            f"index {index} is outside the observation of size {self.size(n_players)}"
        )


def _game_seed(value: object) -> int:
    """A game seed from ``reset(options=...)``: an integer >= 0, exactly (2.9 is an error, not
    2: a silently truncated seed would play another game than the one asked for)."""
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < 0:
        raise ValueError(f"options['game_seed'] must be an integer >= 0, got {value!r}")
    return int(value)
