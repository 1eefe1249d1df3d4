"""PettingZoo AEC face of the Masters Gallery engine: every seat is an agent.

    from ludolab.envs.gallery import aec_env
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
ludolab.envs.gallery.observation), "action_mask": int8 of length N_ACTIONS}``; the mask is all zeros
for agents that are not selected. Rewards are 0 until the end; then, with ``reward="win"``
(default), +1 for the sole winner, ``1 / k`` for each of ``k`` seats sharing the most money and
-1 for the others, or with ``reward="margin"`` each seat's ``(mine - best other) / max(mine,
best other, 1)`` (see :mod:`ludolab.envs.gallery.gym_env`). Every game ends (``terminations`` all
True; there is no truncation). An illegal action raises
:class:`ludolab.envs.gallery.engine.IllegalActionError` (message lists the legal actions; the state
is unchanged), as in the Gymnasium env.

Deals: as in the Gymnasium env (a Deal, a list, a callable ``rng -> Deal``, or None for a fair
shuffle per game). ``n_players`` defaults to the deal's when ``deal`` is a Deal or a list, else
to 4.

Seeding: ``reset(seed=k)`` seeds a generator that draws the game seed and then, unless fixed,
the deal; ``reset()`` without a seed continues that generator. ``reset(options={"deal": d,
"game_seed": s})`` overrides either for one game; other option keys are ignored (PettingZoo's
api_test passes ``{"options": 1}``).
"""

from __future__ import annotations

from ludolab.envs.faces import SeatsAECEnv, order_enforced
from ludolab.envs.gallery.deal import Deal
from ludolab.envs.gallery.engine import GalleryOptions
from ludolab.envs.gallery.gym_env import DealSource, GalleryFace, check_reward


class MastersGalleryAECEnv(GalleryFace, SeatsAECEnv):
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
        if n_players is None:
            if isinstance(deal, Deal):
                n_players = deal.n_players
            elif deal is not None and not callable(deal) and len(deal):
                n_players = next(iter(deal)).n_players
            else:
                n_players = 4
        super().__init__(deal, n_players, game_options, render_mode)
        self.reward_mode = check_reward(reward)


raw_env = MastersGalleryAECEnv
env = order_enforced(raw_env)

__all__ = ["MastersGalleryAECEnv", "env", "raw_env"]
