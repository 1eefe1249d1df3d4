"""PettingZoo AEC face of the Masters Gallery engine: every seat is an agent.

    from envs.gallery import aec_env
    env = aec_env.env(n_players=4)
    env.reset(seed=0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        action = None if terminated or truncated else (
            env.action_space(agent).sample(obs["action_mask"]))
        env.step(action)

Agents are ``"player_0" .. "player_{n-1}"`` (seat order; player_0 starts round 1).
``agent_selection`` is the seat that must decide now — the engine's ``acting`` seat — so the
same agent is selected twice in a row for a double's second card or an award choice, and every
seat holding cards is selected in turn for a simultaneous play.

Observations follow PettingZoo's classic envs: ``{"observation": Box float32 (see
envs.gallery.observation), "action_mask": int8 of length N_ACTIONS}``; the mask is all zeros
for agents that are not selected. Rewards are 0 until the end; then, with ``reward="win"``
(default), +1 for the sole winner, ``1 / k`` for each of ``k`` seats sharing the most money and
-1 for the others, or with ``reward="margin"`` each seat's ``(mine - best other) / max(mine,
best other, 1)`` (see :mod:`envs.gallery.gym_env`). Every game ends (``terminations`` all
True; there is no truncation). An illegal action raises
:class:`envs.gallery.engine.IllegalActionError` (message lists the legal actions; the state is
unchanged), as in the Gymnasium env.

Deals: as in the Gymnasium env (a Deal, a list, a callable ``rng -> Deal``, or None for a fair
shuffle per game). ``n_players`` defaults to the deal's when ``deal`` is a Deal or a list, else
to 4.

Seeding: ``reset(seed=k)`` seeds a generator that draws the game seed and then, unless fixed,
the deal; ``reset()`` without a seed continues that generator. ``reset(options={"deal": d,
"game_seed": s})`` overrides either for one game; other option keys are ignored (PettingZoo's
api_test passes ``{"options": 1}``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from envs.gallery import actions as A
from envs.gallery.deal import MAX_PLAYERS, MIN_PLAYERS, Deal
from envs.gallery.engine import GAME_OVER, GalleryOptions, Game
from envs.gallery.gym_env import (
    _SEED_BOUND,
    DealSource,
    as_action,
    check_deal_source,
    check_players,
    check_reward,
    draw_deal,
    final_rewards,
    make_options,
    render_text,
)
from envs.gallery.observation import encode, observation_space


def env(**kwargs: Any) -> AECEnv:
    """The AEC env wrapped in PettingZoo's OrderEnforcingWrapper (clear errors on misuse:
    step or observe before reset). Keyword arguments go to :class:`MastersGalleryAECEnv`."""
    return wrappers.OrderEnforcingWrapper(raw_env(**kwargs))


class MastersGalleryAECEnv(AECEnv):
    """All seats of one Masters Gallery game as PettingZoo agents; see the module docstring.

    Args:
        deal: the deal of every game (Deal), a list to draw from, a callable
            ``rng -> Deal``, or None for a fair shuffled deal per reset.
        n_players: 2..5 seats (None: the deal's, or 4).
        game_options: GalleryOptions, a dict of its fields, or None for the default rules.
        render_mode: None or ``"ansi"``.
        reward: ``"win"`` (default) or ``"margin"``.
    """

    metadata = {"render_modes": ["ansi"], "name": "masters_gallery_v0", "is_parallelizable": False}

    def __init__(
        self,
        deal: DealSource = None,
        n_players: int | None = None,
        game_options: GalleryOptions | dict | None = None,
        render_mode: str | None = None,
        reward: str = "win",
    ) -> None:
        super().__init__()
        if n_players is None:
            if isinstance(deal, Deal):
                n_players = deal.n_players
            elif deal is not None and not callable(deal) and len(deal):
                n_players = next(iter(deal)).n_players
            else:
                n_players = 4
        if not MIN_PLAYERS <= n_players <= MAX_PLAYERS:
            raise ValueError(f"n_players must be {MIN_PLAYERS}..{MAX_PLAYERS}, got {n_players}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        self.n_players = n_players
        self.deal_source = check_deal_source(deal, n_players)
        self.game_options = make_options(game_options)
        self.render_mode = render_mode
        self.reward_mode = check_reward(reward)
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
        options = options if isinstance(options, dict) else {}
        game_seed = int(self._rng.integers(_SEED_BOUND))
        if options.get("game_seed") is not None:
            game_seed = int(options["game_seed"])
        deal = options.get("deal")
        if isinstance(deal, Deal):
            check_players(deal, self.n_players)
        else:
            deal = draw_deal(self.deal_source, self.n_players, self._rng)
        self.game_seed = game_seed
        self.game = game = Game(deal, game_seed, self.game_options)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[game.acting]
        if game.phase == GAME_OVER:  # a game nobody could play (e.g. hand_size=0)
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
        game.step(as_action(action))  # raises IllegalActionError (listing the legal actions)
        self._clear_rewards()
        if game.phase == GAME_OVER:
            self._finish()
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

    # ------------------------------------------------------------------ internals

    def _finish(self) -> None:
        game = self.game
        assert game is not None
        rewards = final_rewards(game, self.reward_mode)
        for a in self.agents:
            self.rewards[a] = rewards[self._seat[a]]
            self.infos[a] = {
                "winners": game.winners,
                "winner": -1 if game.winner is None else game.winner,
                "scores": tuple(game.scores),
            }
        self.terminations = dict.fromkeys(self.agents, True)


raw_env = MastersGalleryAECEnv

__all__ = ["MastersGalleryAECEnv", "env", "raw_env"]
