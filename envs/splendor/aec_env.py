"""PettingZoo AEC face of the Splendor engine: every seat is an agent.

    from ludolab.envs.splendor import aec_env
    env = aec_env.env(n_players=3)
    env.reset(seed=0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        action = None if terminated or truncated else (
            env.action_space(agent).sample(obs["action_mask"]))
        env.step(action)

Agents are ``"player_0" .. "player_{n-1}"`` (seat order; player_0 begins). ``agent_selection``
is the engine's acting seat, so a seat is selected again for each token it returns and for
its choice of noble. Observations follow PettingZoo's classic envs: ``{"observation": Box
float32 (ludolab.envs.splendor.observation), "action_mask": int8 of length 72}``. Rewards are
0 until the end; then +1 for the sole winner, ``1 / k`` for each of ``k`` seats sharing the
win, -1 for the others; a game cut off by the round limit is truncated for every agent with
reward 0. An illegal action raises :class:`ludolab.envs.rules.IllegalActionError`.

Deals and seeding as in the Gymnasium env (:mod:`ludolab.envs.splendor.gym_env`):
``n_players`` defaults to the deal's when ``deal`` is a Deal or a list, else to 2.
"""

from __future__ import annotations

from ludolab.envs.faces import SeatsAECEnv, order_enforced
from ludolab.envs.splendor.engine import Deal, SplendorOptions
from ludolab.envs.splendor.gym_env import DealSource, SplendorFace


class SplendorAECEnv(SplendorFace, SeatsAECEnv):
    """All seats of one Splendor game as PettingZoo agents; see the module docstring.

    Args:
        deal: the deal of every game, a list to draw from, a callable ``rng -> Deal``, or None
            for a fair deal per reset.
        n_players: 2..4 seats (None: the deal's, or 2).
        game_options: SplendorOptions, a dict of its fields, or None for the published rules.
        render_mode: None or ``"ansi"``.
    """

    metadata = {"render_modes": ["ansi"], "name": "splendor_v0", "is_parallelizable": False}

    def __init__(
        self,
        deal: DealSource = None,
        n_players: int | None = None,
        game_options: SplendorOptions | dict | None = None,
        render_mode: str | None = None,
    ) -> None:
        if n_players is None:
            if isinstance(deal, Deal):
                n_players = deal.n_players
            elif deal is not None and not callable(deal) and len(deal):
                n_players = next(iter(deal)).n_players
            else:
                n_players = 2
        super().__init__(deal, n_players, game_options, render_mode)


raw_env = SplendorAECEnv
env = order_enforced(raw_env)

__all__ = ["SplendorAECEnv", "env", "raw_env"]
