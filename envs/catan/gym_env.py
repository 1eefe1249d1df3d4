"""Gymnasium face of the Catan engine: one learner seat against agents.

    import envs.catan.gym_env  # registers "ludolab/Catan-v0" (gymnasium 1.x has no plugins)
    env = gymnasium.make("ludolab/Catan-v0", opponents=["random"] * 3)
    obs, info = env.reset(seed=0)
    while True:
        action = env.action_space.sample(info["action_mask"])
        obs, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            break

The learner plays seat ``seat``; the other seats are played by ``opponents`` (Agent objects or
spec strings such as ``"random"``, in seat order skipping the learner). ``step`` applies the
learner's action and then lets the opponents act — their turns, and their discards and answers
to the learner's trade offers — until the learner must decide again (its own turn, a discard of
its own, an answer to an opponent's offer) or the game ends.

Spaces: ``Discrete(actions.N_ACTIONS)`` with the fixed indices of :mod:`envs.catan.actions`;
observations from :func:`envs.catan.observation.encode` (a flat float32 ``Box`` in [0, 1]). The
legal actions are ``info["action_mask"]`` (int8, 1 = legal; pass it to
``action_space.sample(mask)``) and ``action_masks()`` (bool; the sb3-contrib MaskablePPO
convention). After the last step the mask is all zeros.

Illegal actions: ``step`` raises :class:`envs.catan.engine.IllegalActionError`, whose message
lists the legal actions, and the state is unchanged (the project's standard: a learner that
picks an illegal action has a bug — mask it). ``illegal_action="terminate"`` instead ends the
episode with reward ``-1`` and ``info["illegal_action"] = True`` (for tools that step with
unmasked samples, such as ``gymnasium.utils.env_checker.check_env``).

Rewards: 0 until the end; then +1 if the learner won, -1 if another seat won
(``terminated=True``), 0 when the engine's turn limit cut the game off (``truncated=True``).

Seeding: ``reset(seed=k)`` seeds ``self.np_random``, which draws the game seed (dice, deck and
steals in the engine; opponents are reset with it and their seat, exactly as ``play_game``
does) and then the board when it is random. A learner that plays the actions a seat-``seat``
agent would play therefore reproduces ``play_game(board, agents, seed=env.game_seed)``.
``reset(options={"board": b, "game_seed": s})`` overrides either for one episode.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.core import Env
from gymnasium.envs import registration
from gymnasium.error import ResetNeeded

from envs.catan import actions as A
from envs.catan.agents import Agent, parse_agent_spec
from envs.catan.board import DESERT, HARBOR_TYPES, TERRAINS, Board
from envs.catan.engine import GAME_OVER, PHASE_NAMES, Game, GameOptions, IllegalActionError
from envs.catan.observation import encode, observation_space
from envs.catan.topology import load_layout

ENV_ID = "ludolab/Catan-v0"
BoardSource = Board | Sequence[Board] | Callable[[np.random.Generator], Board] | None
_SEED_BOUND = 2**63  # game seeds are drawn from [0, 2**63)


def random_board(rng: np.random.Generator, layout: str = "standard") -> Board:
    """A fair shuffle of the layout's tiles, tokens and harbors; the robber on the desert.

    Uniform over arrangements with the official counts (no 6/8 rule or any other constraint);
    the research package's samplers are the place for constrained boards.
    """
    lay = load_layout(layout)
    terrain = np.repeat(np.arange(len(TERRAINS)), [lay.resource_counts.get(t, 0) for t in TERRAINS])
    terrain = rng.permutation(terrain)
    values = sorted(lay.number_counts)
    tokens = rng.permutation(np.repeat(values, [lay.number_counts[v] for v in values]))
    numbers = np.zeros(terrain.size, dtype=np.int64)
    numbers[terrain != DESERT] = tokens
    harbors = rng.permutation(
        np.repeat(np.arange(len(HARBOR_TYPES)), [lay.harbor_counts.get(h, 0) for h in HARBOR_TYPES])
    )
    robber = int(np.flatnonzero(terrain == DESERT)[0])
    return Board(
        tuple(int(t) for t in terrain),
        tuple(int(x) for x in numbers),
        tuple(int(h) for h in harbors),
        robber,
        layout,
    )


def draw_board(source: BoardSource, rng: np.random.Generator) -> Board:
    """The board for the next game: fixed, one of a list (uniformly), made by a callable from
    ``rng``, or a fair random board when ``source`` is None."""
    if source is None:
        return random_board(rng)
    if isinstance(source, Board):
        return source
    if callable(source):
        board = source(rng)
        if not isinstance(board, Board):
            raise TypeError(f"the board callable returned {type(board).__name__}, not a Board")
        return board
    return source[int(rng.integers(len(source)))]


def check_board_source(source: BoardSource) -> BoardSource:
    """Validate a board source early (at construction) so a bad one fails before reset."""
    if source is None or isinstance(source, Board) or callable(source):
        return source
    boards = tuple(source)
    if not boards or not all(isinstance(b, Board) for b in boards):
        raise TypeError("board must be a Board, a non-empty sequence of Boards, a callable or None")
    return boards


def make_options(game_options: GameOptions | dict | None) -> GameOptions:
    """GameOptions from an instance, a dict of its fields, or None (the official defaults)."""
    if game_options is None:
        return GameOptions()
    if isinstance(game_options, GameOptions):
        return game_options
    if isinstance(game_options, dict):
        return GameOptions(**game_options)
    raise TypeError(f"game_options must be GameOptions, dict or None, got {type(game_options)}")


def as_action(action: Any) -> int:
    """An action as a plain int (accepts numpy integers and 0-d integer arrays, not floats)."""
    try:
        return operator.index(action)
    except TypeError as exc:
        raise IllegalActionError(
            f"action {action!r} is not an integer action index 0..{A.N_ACTIONS - 1}"
        ) from exc


def render_text(game: Game, seat: int | None = None) -> str:
    """A few lines of text: turn, phase, scores, cards; ``seat``'s own cards in full."""
    n = game.n_players
    vp = ", ".join(f"{q}{'*' if q == seat else ''}:{game.vp_public[q]}" for q in range(n))
    lines = [
        f"turn {game.turns}  phase {PHASE_NAMES[game.phase]}  current {game.current}  "
        f"acting {game.acting}  robber hex {game.robber}",
        f"public VP {vp}  cards {list(game.hand_size)}  bank {list(game.bank)}  "
        f"deck {len(game.dev_deck)}",
    ]
    if seat is not None:
        lines.append(
            f"seat {seat}: hand {list(game.hands[seat])}  dev {list(game.dev_hand[seat])}  "
            f"VP {game.victory_points(seat)}"
        )
    if game.phase == GAME_OVER:
        lines.append("cut off by the turn limit" if game.truncated else f"seat {game.winner} won")
    return "\n".join(lines)


class CatanEnv(Env[np.ndarray, np.int64]):
    """One learner seat against agents; see the module docstring.

    Args:
        board: the board of every game (Board), a list to draw from, a callable
            ``rng -> Board``, or None for a fair random board per reset.
        opponents: Agent objects or spec strings (``envs.catan.agents.parse_agent_spec``) for
            the other seats in seat order; 1-3 of them (default three ``"random"``). Each Agent
            object must be distinct (an agent holds its seat's state); pass spec strings
            when building several envs (vector envs) so each env gets its own agents.
        seat: the learner's seat, 0 .. n_players - 1 (seat 0 places first and moves first).
        game_options: GameOptions, a dict of its fields, or None for the official rules.
        render_mode: None or ``"ansi"`` (``render()`` returns a short text state).
        illegal_action: ``"raise"`` (default) or ``"terminate"`` (reward -1, episode over).
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 4}

    def __init__(
        self,
        board: BoardSource = None,
        opponents: Sequence[Agent | str] | None = None,
        seat: int = 0,
        game_options: GameOptions | dict | None = None,
        render_mode: str | None = None,
        illegal_action: str = "raise",
    ) -> None:
        super().__init__()
        specs = ["random"] * 3 if opponents is None else list(opponents)
        agents = [parse_agent_spec(a) if isinstance(a, str) else a for a in specs]
        for a in agents:
            if not isinstance(a, Agent):
                raise TypeError(f"opponent {a!r} is neither an Agent nor an agent spec string")
        if len({id(a) for a in agents}) != len(agents):
            raise ValueError("opponents must be distinct Agent objects (one per seat)")
        self.n_players = n = len(agents) + 1
        if not 2 <= n <= A.MAX_PLAYERS:
            raise ValueError(f"need 1..{A.MAX_PLAYERS - 1} opponents, got {len(agents)}")
        if isinstance(seat, bool) or not isinstance(seat, int | np.integer) or not 0 <= seat < n:
            raise ValueError(f"seat must be an int in 0..{n - 1}, got {seat!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        if illegal_action not in ("raise", "terminate"):
            raise ValueError(
                f"illegal_action must be 'raise' or 'terminate', got {illegal_action!r}"
            )
        self.seat = int(seat)
        self.board_source = check_board_source(board)
        self.game_options = make_options(game_options)
        self.render_mode = render_mode
        self.illegal_action = illegal_action
        # agents[q] plays seat q; agents[seat] is None (the learner).
        others = iter(agents)
        self.agents: list[Agent | None] = [
            None if q == self.seat else next(others) for q in range(n)
        ]
        self.observation_space = observation_space(n)
        self.action_space = spaces.Discrete(A.N_ACTIONS)
        self.game: Game | None = None
        self.game_seed: int | None = None
        self._over = True  # no episode running until reset

    # ------------------------------------------------------------------ gymnasium API

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Start a new game; the opponents act until the learner's first decision.

        ``options`` may hold ``"board"`` (a Board for this game) and ``"game_seed"`` (an int);
        other keys are an error.
        """
        super().reset(seed=seed)
        options = dict(options or {})
        unknown = set(options) - {"board", "game_seed"}
        if unknown:
            raise ValueError(f"unknown reset options {sorted(unknown)}; known: board, game_seed")
        # Always draw, so the stream (and the board drawn next) does not depend on the override.
        game_seed = int(self.np_random.integers(_SEED_BOUND))
        if options.get("game_seed") is not None:
            game_seed = int(options["game_seed"])
        board = options.get("board")
        if board is None:
            board = draw_board(self.board_source, self.np_random)
        self.game_seed = game_seed
        self.game = Game(board, self.n_players, game_seed, self.game_options)
        for q, agent in enumerate(self.agents):
            if agent is not None:
                agent.reset(q, game_seed)
        self._over = False
        self._advance()
        return encode(self.game, self.seat), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Apply the learner's action, then the opponents' until the learner decides again.

        Raises:
            IllegalActionError: the action is not legal now (mode ``"raise"``); nothing changes.
            ResetNeeded: the episode is over, or ``reset`` was never called.
        """
        game = self.game
        if game is None or self._over:
            raise ResetNeeded("the episode is over (or never started): call reset() before step()")
        a = as_action(action)
        if self.illegal_action == "terminate" and a not in game.legal_actions():
            self._over = True
            info = self._info()
            info["illegal_action"] = True
            return encode(game, self.seat), -1.0, True, False, info
        game.step(a)  # raises IllegalActionError (listing the legal actions) if illegal
        self._advance()
        terminated = game.winner is not None
        truncated = game.truncated
        reward = 0.0
        if terminated:
            reward = 1.0 if game.winner == self.seat else -1.0
        self._over = terminated or truncated
        return encode(game, self.seat), reward, terminated, truncated, self._info()

    def action_masks(self) -> np.ndarray:
        """Legal actions now as a bool array of length N_ACTIONS (sb3-contrib MaskablePPO)."""
        return self._mask().astype(bool)

    def render(self) -> str | None:
        """A short text state (render_mode ``"ansi"``); None for other modes."""
        if self.render_mode != "ansi" or self.game is None:
            return None
        return render_text(self.game, self.seat)

    # ------------------------------------------------------------------ internals

    def _advance(self) -> None:
        """Let the opponents decide until the learner must act or the game is over."""
        game, seat, agents = self.game, self.seat, self.agents
        assert game is not None
        step, legal_actions = game.step, game.legal_actions
        while game.phase != GAME_OVER and game.acting != seat:
            step(agents[game.acting].act(game, legal_actions()))  # type: ignore[union-attr]

    def _mask(self) -> np.ndarray:
        mask = np.zeros(A.N_ACTIONS, dtype=np.int8)
        if self.game is not None and not self._over:
            mask[self.game.legal_actions()] = 1
        return mask

    def _info(self) -> dict[str, Any]:
        """Fresh dict (gymnasium requires new objects per call): the mask, and at the end the
        winner (-1 when none) and the game seed."""
        info: dict[str, Any] = {"action_mask": self._mask()}
        if self._over and self.game is not None:
            info["winner"] = -1 if self.game.winner is None else self.game.winner
            info["game_seed"] = self.game_seed
        return info


def register() -> None:
    """Register ``ludolab/Catan-v0`` with gymnasium (idempotent; safe to call many times)."""
    # Only submodule imports here and above: gymnasium 0.29 runs entry-point plugins while
    # ``import gymnasium`` is still executing, before ``gymnasium.register`` exists.
    if ENV_ID in registration.registry:
        return
    registration.register(id=ENV_ID, entry_point="envs.catan.gym_env:CatanEnv")


# Importing this module registers the id, so gymnasium.make("envs.catan.gym_env:ludolab/Catan-v0")
# works with no other import (gymnasium 1.x dropped entry-point plugins; see the report).
register()

__all__ = ["ENV_ID", "CatanEnv", "draw_board", "random_board", "register", "render_text"]
