"""PettingZoo AEC face of the Catan engine: every seat is an agent.

    from ludolab.envs.catan import aec_env
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
ludolab.envs.catan.observation), "action_mask": int8 of length N_ACTIONS}``; the mask is all zeros
for agents that are not selected. Rewards are 0 until the end, then +1 for the winner and -1 for the
others (``terminations`` all True), or 0 for everyone when the turn limit cuts the game off
(``truncations`` all True). An illegal action raises
:class:`ludolab.envs.catan.engine.IllegalActionError` (message lists the legal actions; the state is
unchanged), as in the Gymnasium env.

Seeding: ``reset(seed=k)`` seeds a generator that draws the game seed (dice, deck, steals) and,
when the board is random, the board; ``reset()`` without a seed continues that generator.
``reset(options={"board": b, "game_seed": s})`` overrides either for one game; other option
keys are ignored (PettingZoo's api_test passes ``{"options": 1}``).
"""

from __future__ import annotations

from ludolab.envs.catan.engine import GameOptions
from ludolab.envs.catan.gym_env import BoardSource, CatanFace
from ludolab.envs.faces import SeatsAECEnv, order_enforced


class CatanAECEnv(CatanFace, SeatsAECEnv):
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
        super().__init__(board, n_players, game_options, render_mode)


raw_env = CatanAECEnv
env = order_enforced(raw_env)

__all__ = ["CatanAECEnv", "env", "raw_env"]
