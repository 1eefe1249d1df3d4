"""Gymnasium face of the Catan engine: one learner seat against agents.

    import ludolab.envs.catan.gym_env  # registers "ludolab/Catan-v0" (gymnasium 1.x has no plugins)
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

Spaces: ``Discrete(actions.N_ACTIONS)`` with the fixed indices of :mod:`ludolab.envs.catan.actions`;
observations from :func:`ludolab.envs.catan.observation.encode` (a flat float32 ``Box`` in [0, 1]).
The legal actions are ``info["action_mask"]`` (int8, 1 = legal; pass it to
``action_space.sample(mask)``) and ``action_masks()`` (bool; the sb3-contrib MaskablePPO
convention). After the last step the mask is all zeros.

Illegal actions: ``step`` raises :class:`ludolab.envs.catan.engine.IllegalActionError`, whose
message lists the legal actions, and the state is unchanged (the project's standard: a learner that
picks an illegal action has a bug — mask it). ``illegal_action="terminate"`` instead ends the
episode with reward ``-1`` and ``info["illegal_action"] = True`` (for tools that step with unmasked
samples, such as ``gymnasium.utils.env_checker.check_env``).

Rewards: 0 until the end; then +1 if the learner won, -1 if another seat won
(``terminated=True``), 0 when the engine's turn limit cut the game off (``truncated=True``).

Seeding: ``reset(seed=k)`` seeds ``self.np_random``, which draws the game seed (dice, deck and
steals in the engine; opponents are reset with it and their seat, exactly as ``play_game``
does) and then the board when it is random. A learner that plays the actions a seat-``seat``
agent would play therefore reproduces ``play_game(board, agents, seed=env.game_seed)``.
``reset(options={"board": b, "game_seed": s})`` overrides either for one episode.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ludolab.envs.catan import actions as A
from ludolab.envs.catan.agents import Agent, parse_agent_spec
from ludolab.envs.catan.board import Board
from ludolab.envs.catan.board import shuffled_board as random_board
from ludolab.envs.catan.engine import GAME_OVER, PHASE_NAMES, Game, GameOptions
from ludolab.envs.catan.observation import encode, observation_space
from ludolab.envs.faces import (
    GameFace,
    LearnerSeatEnv,
    check_setup_source,
    draw_setup,
    register_env,
)

ENV_ID = "ludolab/Catan-v0"
BoardSource = Board | Sequence[Board] | Callable[[np.random.Generator], Board] | None


def draw_board(source: BoardSource, rng: np.random.Generator) -> Board:
    """The board for the next game: fixed, one of a list (uniformly), made by a callable from
    ``rng``, or a fair random board when ``source`` is None."""
    return draw_setup(source, rng, Board, "board", random_board)


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


class CatanFace(GameFace):
    """The Catan parts of both faces (:class:`CatanEnv`, ``aec_env.CatanAECEnv``)."""

    n_actions = A.N_ACTIONS
    min_players, max_players = 2, A.MAX_PLAYERS
    setup_name, setup_type = "board", Board
    options_type = GameOptions
    _observation_box = staticmethod(observation_space)
    _encode = staticmethod(encode)
    _render_text = staticmethod(render_text)

    @property
    def board_source(self) -> BoardSource:
        return self.setup_source

    def _check_source(self, source: BoardSource) -> BoardSource:
        return check_setup_source(source, Board, "board")

    def _draw_setup(self, rng: np.random.Generator) -> Board:
        return draw_board(self.setup_source, rng)

    def _new_game(self, setup: Board, game_seed: int) -> Game:
        return Game(setup, self.n_players, game_seed, self.game_options)

    def _final_rewards(self, game: Game) -> list[int] | None:
        """+1 for the winner, -1 for the others; None when the turn limit cut the game off."""
        if game.winner is None:
            return None
        return [1 if q == game.winner else -1 for q in range(game.n_players)]

    def _end_info(self, game: Game) -> dict[str, Any]:
        return {"winner": -1 if game.winner is None else game.winner}


class CatanEnv(CatanFace, LearnerSeatEnv):
    """One learner seat against agents; see the module docstring.

    Args:
        board: the board of every game (Board), a list to draw from, a callable
            ``rng -> Board``, or None for a fair random board per reset.
        opponents: Agent objects or spec strings (``ludolab.envs.catan.agents.parse_agent_spec``)
            for the other seats in seat order; 1-3 of them (default three ``"random"``). Each Agent
            object must be distinct (an agent holds its seat's state); pass spec strings
            when building several envs (vector envs) so each env gets its own agents.
        seat: the learner's seat, 0 .. n_players - 1 (seat 0 places first and moves first), or
            ``"random"``: a new seat each episode, drawn from the environment's generator
            (``info["seat"]`` says which; the opponents take the other seats in their order).
        game_options: GameOptions, a dict of its fields, or None for the official rules.
        render_mode: None or ``"ansi"`` (``render()`` returns a short text state).
        illegal_action: ``"raise"`` (default) or ``"terminate"`` (reward -1, episode over).
    """

    agent_type = Agent
    parse_agent = staticmethod(parse_agent_spec)

    def __init__(
        self,
        board: BoardSource = None,
        opponents: Sequence[Agent | str] | None = None,
        seat: int | str = 0,
        game_options: GameOptions | dict | None = None,
        render_mode: str | None = None,
        illegal_action: str = "raise",
    ) -> None:
        super().__init__(board, opponents, seat, game_options, render_mode, illegal_action)


def register() -> None:
    """Register ``ludolab/Catan-v0`` with gymnasium (idempotent; importing ``ludolab.envs.catan``
    already does)."""
    register_env(ENV_ID, "ludolab.envs.catan.gym_env:CatanEnv")


__all__ = ["ENV_ID", "CatanEnv", "draw_board", "random_board", "register", "render_text"]
