"""Gymnasium face of the Splendor engine: one learner seat against agents.

    import ludolab.envs.splendor.gym_env  # registers "ludolab/Splendor-v0" (gymnasium 1.x)
    env = gymnasium.make("ludolab/Splendor-v0", opponents=["greedy"])
    obs, info = env.reset(seed=0)
    while True:
        action = env.action_space.sample(info["action_mask"])
        obs, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            break

The learner plays seat ``seat``; the other seats are played by ``opponents`` (Agent objects or
spec strings such as ``"greedy"``, in seat order skipping the learner; default one
``"random"``), so the game has ``len(opponents) + 1`` players (2-4). ``step`` applies the
learner's action, then lets the opponents act until the learner must decide again (a main
action, a token to return, a noble to choose) or the game ends.

Deals: ``deal`` is a :class:`~ludolab.envs.splendor.engine.Deal` (every game), a list of Deals
(one drawn uniformly per reset), a callable ``np.random.Generator -> Deal``, or None for a fair
deal each game (:func:`ludolab.envs.splendor.engine.fair_deal`, seeded from the env's
generator). Every deal must be for the env's number of players.

Spaces: ``Discrete(72)`` with the fixed indices of :mod:`ludolab.envs.splendor.engine`;
observations from :func:`ludolab.envs.splendor.observation.encode` (a flat float32 ``Box`` in
[0, 1]). The legal actions are ``info["action_mask"]`` (int8) and ``action_masks()`` (bool).

Illegal actions raise :class:`ludolab.envs.rules.IllegalActionError` (the state unchanged), or
with ``illegal_action="terminate"`` end the episode with reward -1.

Rewards: 0 until the end; then +1 for the sole winner, ``1 / k`` for each of ``k`` seats
sharing the win, -1 for a loss. A game cut off by the round limit (option ``round_limit``)
ends with ``truncated=True`` and reward 0. ``info`` at the end holds ``winners`` and
``scores`` (prestige).

Seeding: ``reset(seed=k)`` seeds ``self.np_random``, which draws the game seed (the opponents
are reset with it and their seat, as ``play_game`` does) and then the deal when it is drawn.
``reset(options={"deal": d, "game_seed": s})`` overrides either for one episode.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ludolab.envs.faces import (
    SEED_BOUND,
    GameFace,
    LearnerSeatEnv,
    check_setup_source,
    draw_setup,
    register_env,
)
from ludolab.envs.splendor.agents import REGISTRY, SplendorAgent
from ludolab.envs.splendor.cards import COLOURS
from ludolab.envs.splendor.engine import (
    N_ACTIONS,
    Deal,
    SplendorOptions,
    SplendorState,
    fair_deal,
)
from ludolab.envs.splendor.observation import encode, observation_space

ENV_ID = "ludolab/Splendor-v0"
DealSource = Deal | Sequence[Deal] | Callable[[np.random.Generator], Deal] | None


def check_players(deal: Deal, n_players: int) -> Deal:
    if not isinstance(deal, Deal):
        raise TypeError(f"a deal must be a Deal, got {type(deal).__name__}")
    if deal.n_players != n_players:
        raise ValueError(
            f"deal {deal.id} is for {deal.n_players} players but the env has {n_players}"
        )
    return deal


def final_rewards(game: SplendorState) -> list[float] | None:
    """Every seat's reward for a finished game (+1 sole win, 1/k shared, -1 loss); None when
    the game was cut off."""
    if game.truncated:
        return None
    winners = game.winners
    return [1.0 / len(winners) if q in winners else -1.0 for q in range(game.n_players)]


def render_text(game: SplendorState, seat: int | None = None) -> str:
    """A few lines of text: round, phase, bank, each seat's prestige, bonuses and tokens."""
    bank = " ".join(f"{c[:2]}{k}" for c, k in zip((*COLOURS, "gold"), game.bank, strict=True))
    lines = [f"round {game.rounds + 1}  phase {game.phase}  acting {game.acting}  bank {bank}"]
    for q, held in enumerate(game.seats):
        mark = "*" if q == seat else ""
        lines.append(
            f"seat {q}{mark}: {held.points} prestige, bonuses {held.bonuses}, tokens "
            f"{held.tokens}, {len(held.reserved)} reserved, {len(held.nobles)} nobles"
        )
    if game.done:
        lines.append(f"winners {list(game.winners)}")
    return "\n".join(lines)


class SplendorFace(GameFace):
    """The Splendor parts of both faces (:class:`SplendorEnv`, ``aec_env.SplendorAECEnv``)."""

    n_actions = N_ACTIONS
    min_players, max_players = 2, 4
    setup_name, setup_type = "deal", Deal
    options_type = SplendorOptions
    _observation_box = staticmethod(observation_space)
    _encode = staticmethod(encode)
    _render_text = staticmethod(render_text)

    def _check_source(self, source: DealSource) -> DealSource:
        return check_setup_source(source, Deal, "deal", self._check_setup)

    def _draw_setup(self, rng: np.random.Generator) -> Deal:
        def fair(r: np.random.Generator) -> Deal:
            return fair_deal(self.n_players, int(r.integers(SEED_BOUND)))

        return check_players(draw_setup(self.setup_source, rng, Deal, "deal", fair), self.n_players)

    def _check_setup(self, deal: Deal) -> Deal:
        return check_players(deal, self.n_players)

    def _new_game(self, setup: Deal, game_seed: int) -> SplendorState:
        return SplendorState(setup, game_seed, self.game_options)

    def _final_rewards(self, game: SplendorState) -> list[float] | None:
        return final_rewards(game)

    def _end_info(self, game: SplendorState) -> dict[str, Any] | None:
        if not game.done:
            return None
        return {"winners": game.winners, "scores": tuple(s.points for s in game.seats)}


class SplendorEnv(SplendorFace, LearnerSeatEnv):
    """One learner seat against agents; see the module docstring.

    Args:
        deal: the deal of every game, a list to draw from, a callable ``rng -> Deal``, or None
            for a fair deal per reset.
        opponents: Agent objects or spec strings for the other seats in seat order; 1-3 of
            them (default one ``"random"``).
        seat: the learner's seat (seat 0 begins), or ``"random"`` for a new one each episode.
        game_options: SplendorOptions, a dict of its fields, or None for the published rules.
        render_mode: None or ``"ansi"``.
        illegal_action: ``"raise"`` (default) or ``"terminate"`` (reward -1, episode over).
    """

    agent_type = SplendorAgent
    parse_agent = staticmethod(REGISTRY.parse)

    def __init__(
        self,
        deal: DealSource = None,
        opponents: Sequence[SplendorAgent | str] | None = None,
        seat: int | str = 0,
        game_options: SplendorOptions | dict | None = None,
        render_mode: str | None = None,
        illegal_action: str = "raise",
    ) -> None:
        opponents = ["random"] if opponents is None else opponents
        super().__init__(deal, opponents, seat, game_options, render_mode, illegal_action)


def register() -> None:
    """Register ``ludolab/Splendor-v0`` with gymnasium (idempotent)."""
    register_env(ENV_ID, "ludolab.envs.splendor.gym_env:SplendorEnv")


__all__ = ["ENV_ID", "SplendorEnv", "final_rewards", "register", "render_text"]
