"""Gymnasium face of the Masters Gallery engine: one learner seat against agents.

    import envs.gallery.gym_env  # registers "ludolab/MastersGallery-v0" (gymnasium 1.x)
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

Deals: ``deal`` is a :class:`~envs.gallery.deal.Deal` (every game), a list of Deals (one drawn
uniformly per reset), a callable ``np.random.Generator -> Deal``, or None for a fair shuffled
deck each game (:func:`envs.gallery.deal.shuffled_deal`, seeded from the env's generator).
Every deal must be for ``n_players`` players.

Spaces: ``Discrete(actions.N_ACTIONS)`` (66) with the fixed indices of
:mod:`envs.gallery.actions`; observations from :func:`envs.gallery.observation.encode` (a flat
float32 ``Box`` in [0, 1]). The legal actions are ``info["action_mask"]`` (int8, 1 = legal;
pass it to ``action_space.sample(mask)``) and ``action_masks()`` (bool; the sb3-contrib
MaskablePPO convention). After the last step the mask is all zeros.

Illegal actions: ``step`` raises :class:`envs.gallery.engine.IllegalActionError`, whose message
lists the legal actions, and the state is unchanged (the project's standard: a learner that
picks an illegal action has a bug — mask it). ``illegal_action="terminate"`` instead ends the
episode with reward ``-1`` and ``info["illegal_action"] = True`` (for tools that step with
unmasked samples, such as ``gymnasium.utils.env_checker.check_env``).

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

import operator
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.core import Env
from gymnasium.envs import registration
from gymnasium.error import ResetNeeded

from envs.gallery import actions as A
from envs.gallery.agents import Agent, parse_agent_spec
from envs.gallery.cards import ARTISTS, N_ARTISTS, type_name
from envs.gallery.deal import MAX_PLAYERS, MIN_PLAYERS, Deal, shuffled_deal
from envs.gallery.engine import GAME_OVER, PHASE_NAMES, GalleryOptions, Game, IllegalActionError
from envs.gallery.observation import encode, observation_space

ENV_ID = "ludolab/MastersGallery-v0"
DealSource = Deal | Sequence[Deal] | Callable[[np.random.Generator], Deal] | None
REWARDS = ("win", "margin")
_SEED_BOUND = 2**63  # game seeds are drawn from [0, 2**63)


def draw_deal(source: DealSource, n_players: int, rng: np.random.Generator) -> Deal:
    """The deal for the next game: fixed, one of a list (uniformly), made by a callable from
    ``rng``, or a fair shuffle (seeded from ``rng``) when ``source`` is None."""
    if source is None:
        deal = shuffled_deal(n_players, int(rng.integers(_SEED_BOUND)))
    elif isinstance(source, Deal):
        deal = source
    elif callable(source):
        deal = source(rng)
        if not isinstance(deal, Deal):
            raise TypeError(f"the deal callable returned {type(deal).__name__}, not a Deal")
    else:
        deal = source[int(rng.integers(len(source)))]
    return check_players(deal, n_players)


def check_players(deal: Deal, n_players: int) -> Deal:
    if deal.n_players != n_players:
        raise ValueError(
            f"deal {deal.id} is for {deal.n_players} players but the env has {n_players}"
        )
    return deal


def check_deal_source(source: DealSource, n_players: int) -> DealSource:
    """Validate a deal source early (at construction) so a bad one fails before reset."""
    if source is None or callable(source):
        return source
    if isinstance(source, Deal):
        return check_players(source, n_players)
    deals = tuple(source)
    if not deals or not all(isinstance(d, Deal) for d in deals):
        raise TypeError("deal must be a Deal, a non-empty sequence of Deals, a callable or None")
    for d in deals:
        check_players(d, n_players)
    return deals


def make_options(game_options: GalleryOptions | dict | None) -> GalleryOptions:
    """GalleryOptions from an instance, a dict of its fields, or None (the defaults)."""
    if game_options is None:
        return GalleryOptions()
    if isinstance(game_options, GalleryOptions):
        return game_options
    if isinstance(game_options, dict):
        return GalleryOptions(**game_options)
    raise TypeError(f"game_options must be GalleryOptions, dict or None, got {type(game_options)}")


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


def as_action(action: Any) -> int:
    """An action as a plain int (accepts numpy integers and 0-d integer arrays, not floats)."""
    try:
        return operator.index(action)
    except TypeError as exc:
        raise IllegalActionError(
            f"action {action!r} is not an integer action index 0..{A.N_ACTIONS - 1}"
        ) from exc


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


class MastersGalleryEnv(Env[np.ndarray, np.int64]):
    """One learner seat against agents; see the module docstring.

    Args:
        deal: the deal of every game (Deal), a list to draw from, a callable
            ``rng -> Deal``, or None for a fair shuffled deal per reset.
        opponents: Agent objects or spec strings (``envs.gallery.agents.parse_agent_spec``) for
            the other seats in seat order; 1-4 of them (default three ``"random"``). Each Agent
            object must be distinct (an agent holds its seat's state); pass spec strings
            when building several envs (vector envs) so each env gets its own agents.
        seat: the learner's seat, 0 .. n_players - 1 (seat 0 starts round 1).
        game_options: GalleryOptions, a dict of its fields, or None for the default rules.
        render_mode: None or ``"ansi"`` (``render()`` returns a short text state).
        illegal_action: ``"raise"`` (default) or ``"terminate"`` (reward -1, episode over).
        reward: ``"win"`` (default; +1 / shared 1/k / -1) or ``"margin"`` (score margin).
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 4}

    def __init__(
        self,
        deal: DealSource = None,
        opponents: Sequence[Agent | str] | None = None,
        seat: int = 0,
        game_options: GalleryOptions | dict | None = None,
        render_mode: str | None = None,
        illegal_action: str = "raise",
        reward: str = "win",
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
        if not MIN_PLAYERS <= n <= MAX_PLAYERS:
            raise ValueError(
                f"need {MIN_PLAYERS - 1}..{MAX_PLAYERS - 1} opponents, got {len(agents)}"
            )
        if isinstance(seat, bool) or not isinstance(seat, int | np.integer) or not 0 <= seat < n:
            raise ValueError(f"seat must be an int in 0..{n - 1}, got {seat!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        if illegal_action not in ("raise", "terminate"):
            raise ValueError(
                f"illegal_action must be 'raise' or 'terminate', got {illegal_action!r}"
            )
        self.seat = int(seat)
        self.deal_source = check_deal_source(deal, n)
        self.game_options = make_options(game_options)
        self.render_mode = render_mode
        self.illegal_action = illegal_action
        self.reward_mode = check_reward(reward)
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

        ``options`` may hold ``"deal"`` (a Deal for this game) and ``"game_seed"`` (an int);
        other keys are an error.
        """
        super().reset(seed=seed)
        options = dict(options or {})
        unknown = set(options) - {"deal", "game_seed"}
        if unknown:
            raise ValueError(f"unknown reset options {sorted(unknown)}; known: deal, game_seed")
        # Always draw, so the stream (and the deal drawn next) does not depend on the override.
        game_seed = int(self.np_random.integers(_SEED_BOUND))
        if options.get("game_seed") is not None:
            game_seed = int(options["game_seed"])
        deal = options.get("deal")
        if deal is None:
            deal = draw_deal(self.deal_source, self.n_players, self.np_random)
        elif not isinstance(deal, Deal):
            raise TypeError(f"reset option 'deal' must be a Deal, got {type(deal).__name__}")
        else:
            check_players(deal, self.n_players)
        self.game_seed = game_seed
        self.game = Game(deal, game_seed, self.game_options)
        for q, agent in enumerate(self.agents):
            if agent is not None:
                agent.reset(q, game_seed)
        self._over = False
        self._advance()
        if self.game.phase == GAME_OVER:  # a game nobody could play (e.g. hand_size=0)
            self._over = True
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
        terminated = game.phase == GAME_OVER
        reward = final_rewards(game, self.reward_mode)[self.seat] if terminated else 0.0
        self._over = terminated
        return encode(game, self.seat), reward, terminated, False, self._info()

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
        winners, the winner (-1 when shared), the scores and the game seed."""
        info: dict[str, Any] = {"action_mask": self._mask()}
        game = self.game
        if self._over and game is not None and game.phase == GAME_OVER:
            info["winners"] = game.winners
            info["winner"] = -1 if game.winner is None else game.winner
            info["scores"] = tuple(game.scores)
            info["game_seed"] = self.game_seed
        return info


def register() -> None:
    """Register ``ludolab/MastersGallery-v0`` with gymnasium (idempotent)."""
    if ENV_ID in registration.registry:
        return
    registration.register(id=ENV_ID, entry_point="envs.gallery.gym_env:MastersGalleryEnv")


# Importing this module registers the id, so
# gymnasium.make("envs.gallery.gym_env:ludolab/MastersGallery-v0") works with no other import.
register()

__all__ = [
    "ENV_ID",
    "REWARDS",
    "MastersGalleryEnv",
    "draw_deal",
    "final_rewards",
    "register",
    "render_text",
]
