"""PettingZoo AEC face of the Catan engine: every seat is an agent.

    from envs.catan import aec_env
    env = aec_env.env(n_players=4)
    env.reset(seed=0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        action = None if terminated or truncated else (
            env.action_space(agent).sample(obs["action_mask"]))
        env.step(action)

Agents are ``"player_0" .. "player_{n-1}"`` (seat order; player_0 places first).
``agent_selection`` is the seat that must decide now — the engine's ``acting`` seat — so a seat
discarding on another's 7 or answering another's trade offer is selected in its turn, and the
same agent may be selected many times in a row (a whole turn of building and trading).

Observations follow PettingZoo's classic envs: ``{"observation": Box float32 (see
envs.catan.observation), "action_mask": int8 of length N_ACTIONS}``; the mask is all zeros for
agents that are not selected. Rewards are 0 until the end, then +1 for the winner and -1 for the
others (``terminations`` all True), or 0 for everyone when the turn limit cuts the game off
(``truncations`` all True). An illegal action raises
:class:`envs.catan.engine.IllegalActionError` (message lists the legal actions; the state is
unchanged), as in the Gymnasium env.

Seeding: ``reset(seed=k)`` seeds a generator that draws the game seed (dice, deck, steals) and,
when the board is random, the board; ``reset()`` without a seed continues that generator.
``reset(options={"board": b, "game_seed": s})`` overrides either for one game; other option
keys are ignored (PettingZoo's api_test passes ``{"options": 1}``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from envs.catan import actions as A
from envs.catan.board import Board
from envs.catan.engine import GAME_OVER, Game, GameOptions
from envs.catan.gym_env import (
    _SEED_BOUND,
    BoardSource,
    as_action,
    check_board_source,
    draw_board,
    make_options,
    render_text,
)
from envs.catan.observation import encode, observation_space


def env(**kwargs: Any) -> AECEnv:
    """The AEC env wrapped in PettingZoo's OrderEnforcingWrapper (clear errors on misuse:
    step or observe before reset). Keyword arguments go to :class:`CatanAECEnv`."""
    return wrappers.OrderEnforcingWrapper(raw_env(**kwargs))


class CatanAECEnv(AECEnv):
    """All seats of one Catan game as PettingZoo agents; see the module docstring.

    Args:
        board: the board of every game (Board), a list to draw from, a callable
            ``rng -> Board``, or None for a fair random board per reset.
        n_players: 2..4 seats.
        game_options: GameOptions, a dict of its fields, or None for the official rules.
        render_mode: None or ``"ansi"``.
    """

    metadata = {"render_modes": ["ansi"], "name": "catan_v0", "is_parallelizable": False}

    def __init__(
        self,
        board: BoardSource = None,
        n_players: int = 4,
        game_options: GameOptions | dict | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if not 2 <= n_players <= A.MAX_PLAYERS:
            raise ValueError(f"n_players must be 2..{A.MAX_PLAYERS}, got {n_players}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        self.n_players = n_players
        self.board_source = check_board_source(board)
        self.game_options = make_options(game_options)
        self.render_mode = render_mode
        self.possible_agents = [f"player_{q}" for q in range(n_players)]
        self._seat = {agent: q for q, agent in enumerate(self.possible_agents)}
        # One space object per agent, returned as is on every call (api_test checks identity,
        # and seeding a space must stick).
        obs_box = observation_space(n_players)
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": obs_box,
                    "action_mask": spaces.Box(0, 1, (A.N_ACTIONS,), dtype=np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(A.N_ACTIONS) for agent in self.possible_agents}
        self._rng: np.random.Generator | None = None
        self.game: Game | None = None
        self.game_seed: int | None = None

    # ------------------------------------------------------------------ PettingZoo API

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game (see the module docstring for seeding and options)."""
        if seed is not None or self._rng is None:
            self._rng = np.random.default_rng(seed)
        options = options or {}
        game_seed = int(self._rng.integers(_SEED_BOUND))
        if options.get("game_seed") is not None:
            game_seed = int(options["game_seed"])
        board = options.get("board")
        if not isinstance(board, Board):
            board = draw_board(self.board_source, self._rng)
        self.game_seed = game_seed
        self.game = Game(board, self.n_players, game_seed, self.game_options)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self.game.acting]

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
        game.step(as_action(action))  # raises IllegalActionError (listing the legal actions)
        self._clear_rewards()
        if game.phase == GAME_OVER:
            if game.winner is not None:
                for a in self.agents:
                    self.rewards[a] = 1 if self._seat[a] == game.winner else -1
                self.terminations = dict.fromkeys(self.agents, True)
            else:
                self.truncations = dict.fromkeys(self.agents, True)
            for a in self.agents:
                self.infos[a] = {"winner": -1 if game.winner is None else game.winner}
        self.agent_selection = self.possible_agents[game.acting]
        self._accumulate_rewards()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``{"observation": float32 vector for agent's seat, "action_mask": int8}``."""
        game = self.game
        assert game is not None, "call reset() first"
        seat = self._seat[agent]
        mask = np.zeros(A.N_ACTIONS, dtype=np.int8)
        if game.phase != GAME_OVER and game.acting == seat:
            mask[game.legal_actions()] = 1
        return {"observation": encode(game, seat), "action_mask": mask}

    def render(self) -> str | None:
        """A short text state (render_mode ``"ansi"``), for the selected agent's seat."""
        if self.render_mode != "ansi" or self.game is None:
            return None
        return render_text(self.game, self._seat.get(self.agent_selection))

    def close(self) -> None:
        """Nothing to release (no windows, no processes)."""


raw_env = CatanAECEnv

__all__ = ["CatanAECEnv", "env", "raw_env"]
