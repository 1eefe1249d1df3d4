"""Gymnasium face of the Masters Gallery engine: one learner seat against agents.

    import ludolab.envs.gallery.gym_env  # registers "ludolab/MastersGallery-v0" (gymnasium 1.x)
    env = gymnasium.make("ludolab/MastersGallery-v0", opponents=["random"] * 3)
    obs, info = env.reset(seed=0)
    while True:
        action = env.action_space.sample(info["action_mask"])
        obs, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            break

The learner plays seat ``seat``; the other seats are played by ``opponents`` (Agent objects or
spec strings such as ``"random"``, in seat order skipping the learner), so the game has
``len(opponents) + 1`` players (2-5). ``step`` applies the learner's action and then lets the
opponents act — their turns, their second cards and their simultaneous picks — until the
learner must decide again (its own turn, the second card of its double, its award choice, its
pick in a simultaneous play) or the game ends.

Deals: ``deal`` is a :class:`~ludolab.envs.gallery.deal.Deal` (every game), a list of Deals (one
drawn uniformly per reset), a callable ``np.random.Generator -> Deal``, or None for a fair shuffled
deck each game (:func:`ludolab.envs.gallery.deal.shuffled_deal`, seeded from the env's generator).
Every deal must be for ``n_players`` players.

Spaces: ``Discrete(actions.N_ACTIONS)`` (66) with the fixed indices of
:mod:`ludolab.envs.gallery.actions`; observations from
:func:`ludolab.envs.gallery.observation.encode` (a flat float32 ``Box`` in [0, 1]). The legal
actions are ``info["action_mask"]`` (int8, 1 = legal; pass it to ``action_space.sample(mask)``) and
``action_masks()`` (bool; the sb3-contrib MaskablePPO convention). After the last step the mask is
all zeros.

Illegal actions: ``step`` raises :class:`ludolab.envs.gallery.engine.IllegalActionError`, whose
message lists the legal actions, and the state is unchanged (the project's standard: a learner that
picks an illegal action has a bug — mask it). ``illegal_action="terminate"`` instead ends the
episode with reward ``-1`` and ``info["illegal_action"] = True`` (for tools that step with unmasked
samples, such as ``gymnasium.utils.env_checker.check_env``).

Rewards: 0 until the end (every game ends: the cards run out, so there is no truncation).
``reward="win"`` (default): +1 for the sole winner, ``1 / k`` for each of ``k`` seats sharing
the most money (a shared win is better than a loss and worse than a sole win; 2-5% of random
games end in one), -1 for a loss. ``reward="margin"``: ``(mine - best other) / max(mine, best
other, 1)``, in [-1, 1], positive exactly for a sole win, 0 for a shared one, negative for a
loss — a denser signal, as Masters Gallery money is informative. ``info`` at the end holds
``winners`` (tuple of seats), ``winner`` (-1 when shared), ``scores`` and ``game_seed``.

Seeding: ``reset(seed=k)`` seeds ``self.np_random``, which draws the game seed (recorded by the
engine; opponents are reset with it and their seat, exactly as ``play_game`` does) and then the
deal when it is drawn. The engine itself draws nothing, so a learner that plays the actions a
seat-``seat`` agent would play reproduces ``play_game(deal, agents, seed=env.game_seed)``.
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
from ludolab.envs.gallery import actions as A
from ludolab.envs.gallery.agents import Agent, parse_agent_spec
from ludolab.envs.gallery.cards import ARTISTS, N_ARTISTS, type_name
from ludolab.envs.gallery.deal import MAX_PLAYERS, MIN_PLAYERS, Deal, shuffled_deal
from ludolab.envs.gallery.engine import GAME_OVER, PHASE_NAMES, GalleryOptions, Game
from ludolab.envs.gallery.observation import encode, observation_space

ENV_ID = "ludolab/MastersGallery-v0"
DealSource = Deal | Sequence[Deal] | Callable[[np.random.Generator], Deal] | None
REWARDS = ("win", "margin")


def draw_deal(source: DealSource, n_players: int, rng: np.random.Generator) -> Deal:
    """The deal for the next game: fixed, one of a list (uniformly), made by a callable from
    ``rng``, or a fair shuffle (seeded from ``rng``) when ``source`` is None."""

    def shuffle(rng: np.random.Generator) -> Deal:
        return shuffled_deal(n_players, int(rng.integers(SEED_BOUND)))

    return check_players(draw_setup(source, rng, Deal, "deal", shuffle), n_players)


def check_players(deal: Deal, n_players: int) -> Deal:
    if deal.n_players != n_players:
        raise ValueError(
            f"deal {deal.id} is for {deal.n_players} players but the env has {n_players}"
        )
    return deal


def check_reward(reward: str) -> str:
    if reward not in REWARDS:
        raise ValueError(f"reward must be one of {REWARDS}, got {reward!r}")
    return reward


def final_rewards(game: Game, mode: str = "win") -> list[float]:
    """Every seat's reward for a finished game (see the module docstring)."""
    n, winners, scores = game.n_players, game.winners, game.scores
    if mode == "win":
        share = 1.0 / len(winners)
        return [share if q in winners else -1.0 for q in range(n)]
    out = []
    for q in range(n):
        mine = scores[q]
        other = max(scores[p] for p in range(n) if p != q)
        out.append((mine - other) / max(mine, other, 1))
    return out


def render_text(game: Game, seat: int | None = None) -> str:
    """A few lines of text: round, phase, table, scores; ``seat``'s own hand in full."""
    n = game.n_players
    money = ", ".join(f"{q}{'*' if q == seat else ''}:{game.scores[q]}" for q in range(n))
    table = ", ".join(
        f"{ARTISTS[a]} {game.artist_count[a]}" for a in range(N_ARTISTS) if game.artist_count[a]
    )
    values = [
        t + game.options.award_value * w for t, w in zip(game.tokens, game.awards, strict=True)
    ]
    lines = [
        f"round {min(game.round + 1, game.options.rounds)}/{game.options.rounds}  "
        f"phase {PHASE_NAMES[game.phase]}  current {game.current}  acting {game.acting}",
        f"money {money}  hand sizes {list(game.hand_size)}  deck {len(game.pile)}",
        f"table (end at {game.end_count}): {table or '-'}  artist values {values}",
    ]
    if seat is not None:
        held = ", ".join(
            f"{type_name(t)} x{k}" if k > 1 else type_name(t)
            for t, k in enumerate(game.hands[seat])
            if k
        )
        lines.append(f"seat {seat}: hand {held or '-'}")
    if game.phase == GAME_OVER:
        lines.append(f"winners {list(game.winners)}")
    return "\n".join(lines)


class GalleryFace(GameFace):
    """The Masters Gallery parts of both faces (:class:`MastersGalleryEnv`,
    ``aec_env.MastersGalleryAECEnv``); the env sets ``reward_mode`` (:func:`check_reward`)."""

    n_actions = A.N_ACTIONS
    min_players, max_players = MIN_PLAYERS, MAX_PLAYERS
    setup_name, setup_type = "deal", Deal
    options_type = GalleryOptions
    _observation_box = staticmethod(observation_space)
    _encode = staticmethod(encode)
    _render_text = staticmethod(render_text)
    reward_mode: str

    @property
    def deal_source(self) -> DealSource:
        return self.setup_source

    def _check_source(self, source: DealSource) -> DealSource:
        return check_setup_source(source, Deal, "deal", self._check_setup)

    def _draw_setup(self, rng: np.random.Generator) -> Deal:
        return draw_deal(self.setup_source, self.n_players, rng)

    def _check_setup(self, deal: Deal) -> Deal:
        if not isinstance(deal, Deal):
            raise TypeError(f"reset option 'deal' must be a Deal, got {type(deal).__name__}")
        return check_players(deal, self.n_players)

    def _new_game(self, setup: Deal, game_seed: int) -> Game:
        return Game(setup, game_seed, self.game_options)

    def _final_rewards(self, game: Game) -> list[float]:
        return final_rewards(game, self.reward_mode)

    def _end_info(self, game: Game) -> dict[str, Any] | None:
        """The winners, the winner (-1 when shared) and the scores; None before the end."""
        if not game.done:
            return None
        return {
            "winners": game.winners,
            "winner": -1 if game.winner is None else game.winner,
            "scores": tuple(game.scores),
        }


class MastersGalleryEnv(GalleryFace, LearnerSeatEnv):
    """One learner seat against agents; see the module docstring.

    Args:
        deal: the deal of every game (Deal), a list to draw from, a callable
            ``rng -> Deal``, or None for a fair shuffled deal per reset.
        opponents: Agent objects or spec strings (``ludolab.envs.gallery.agents.parse_agent_spec``)
            for the other seats in seat order; 1-4 of them (default three ``"random"``). Each Agent
            object must be distinct (an agent holds its seat's state); pass spec strings
            when building several envs (vector envs) so each env gets its own agents.
        seat: the learner's seat, 0 .. n_players - 1 (seat 0 starts round 1), or
            ``"random"``: a new seat each episode, drawn from the environment's generator
            (``info["seat"]`` says which; the opponents take the other seats in their order).
        game_options: GalleryOptions, a dict of its fields, or None for the default rules.
        render_mode: None or ``"ansi"`` (``render()`` returns a short text state).
        illegal_action: ``"raise"`` (default) or ``"terminate"`` (reward -1, episode over).
        reward: ``"win"`` (default; +1 / shared 1/k / -1) or ``"margin"`` (score margin).
    """

    agent_type = Agent
    parse_agent = staticmethod(parse_agent_spec)

    def __init__(
        self,
        deal: DealSource = None,
        opponents: Sequence[Agent | str] | None = None,
        seat: int | str = 0,
        game_options: GalleryOptions | dict | None = None,
        render_mode: str | None = None,
        illegal_action: str = "raise",
        reward: str = "win",
    ) -> None:
        super().__init__(deal, opponents, seat, game_options, render_mode, illegal_action)
        self.reward_mode = check_reward(reward)


def register() -> None:
    """Register ``ludolab/MastersGallery-v0`` with gymnasium (idempotent; importing
    ``ludolab.envs.gallery`` already does)."""
    register_env(ENV_ID, "ludolab.envs.gallery.gym_env:MastersGalleryEnv")


__all__ = [
    "ENV_ID",
    "REWARDS",
    "MastersGalleryEnv",
    "draw_deal",
    "final_rewards",
    "register",
    "render_text",
]
