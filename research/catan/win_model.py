"""Fitting the win-probability model the ``mcts-value`` agent cuts its play-outs off with
(:mod:`ludolab.envs.catan.agents.value`): positions from greedy games, a conditional logit fitted
by maximum likelihood, and its log-loss on held-out games.

The model: per position, seat ``q`` wins with probability ``softmax(X[q] @ w)`` over the seats,
``X`` the position's features (seats x features). The likelihood is that of McFadden's
conditional logit with one choice set per position; it is maximised with scipy's L-BFGS on the
features scaled to unit standard deviation, the weights given back per unit. Positions of one
game are not independent, so the fit's standard errors would be too small: none are reported,
and the model is judged by its log-loss on games it was not fitted on.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.optimize import minimize
from scipy.special import logsumexp

from ludolab.envs.catan import native
from ludolab.envs.catan.agents.greedy import BoardInfo, GreedyAgent
from ludolab.envs.catan.agents.value import features, fields_of
from ludolab.envs.catan.board import Board
from ludolab.envs.catan.engine import Game
from ludolab.envs.catan.options import GameOptions
from ludolab.envs.catan.play import native_seats
from ludolab.research.simulate import fair_setup, game_seed


@dataclass(frozen=True)
class Positions:
    """Positions at the start of every turn of some games, with how each game ended.

    Attributes:
        features: the features of each seat, shape (positions, seats, features).
        winner: the seat that won the position's game, shape (positions,).
        game: the index of the position's game, shape (positions,).
        turn: turns played before the position, shape (positions,).
    """

    features: np.ndarray
    winner: np.ndarray
    game: np.ndarray
    turn: np.ndarray


def collect_positions(games: range, seed: int, players: int = 4) -> Positions:
    """The positions of greedy games ``games`` (game ``g`` on the fair board of
    ``game_seed(seed, g)``, with that seed) at the start of each turn after the first. Games
    cut off at the turn limit (no winner) are left out. Played in the native core when it is
    built, else on the reference engine: the same games."""
    rows: list[list[list[float]]] = []
    winners: list[int] = []
    game_ids: list[int] = []
    turns: list[int] = []
    for g in games:
        s = game_seed(seed, g)
        board = fair_setup("catan", players, s)
        reference = Game(board, players, s, GameOptions())
        info = BoardInfo.of(reference)
        agents = [GreedyAgent() for _ in range(players)]
        found = _positions_in_core(board, agents, s, info) or _positions(reference, agents, s, info)
        taken, winner = found
        if winner is None:
            continue
        for turn, x in taken:
            rows.append(x)
            winners.append(winner)
            game_ids.append(g)
            turns.append(turn)
    return Positions(
        np.array(rows, dtype=float).reshape(len(rows), players, -1),
        np.array(winners, dtype=int),
        np.array(game_ids, dtype=int),
        np.array(turns, dtype=int),
    )


_Found = tuple[list[tuple[int, list[list[float]]]], int | None]


def _positions_in_core(
    board: Board, agents: list[GreedyAgent], seed: int, info: BoardInfo
) -> _Found | None:
    core = native.native()
    if core is None:
        return None
    game = native.new_core(core, board, len(agents), seed, GameOptions())
    seats = game.agents(native_seats(agents, seed))
    taken: list[tuple[int, list[list[float]]]] = []
    turn = 1
    while True:
        game.play(seats, until=turn)
        if game.done:
            return taken, game.winner
        taken.append((turn, features(game.get_state(), info)))
        turn += 1


def _positions(game: Game, agents: list[GreedyAgent], seed: int, info: BoardInfo) -> _Found:
    for q, agent in enumerate(agents):
        agent.reset(q, seed)
    taken: list[tuple[int, list[list[float]]]] = []
    turn = 0
    while not game.done:
        if game.turns > turn:
            turn = game.turns
            taken.append((turn, features(fields_of(game), info)))
        forced = game.forced_action()
        game.step(forced if forced >= 0 else agents[game.acting].act(game, game.legal_actions()))
    return taken, game.winner


def _negative_log_likelihood(
    w: np.ndarray, x: np.ndarray, winner: np.ndarray
) -> tuple[float, np.ndarray]:
    """Minus the log-likelihood of the conditional logit with weights ``w``, and its gradient."""
    scores = x @ w  # (positions, seats)
    norm = logsumexp(scores, axis=1)
    rows = np.arange(len(winner))
    chance = np.exp(scores - norm[:, None])
    chance[rows, winner] -= 1.0  # d(-log L)/d(scores)
    return float(norm.sum() - scores[rows, winner].sum()), np.einsum("ps,psk->k", chance, x)


def fit(x: np.ndarray, winner: np.ndarray) -> np.ndarray:
    """Maximum-likelihood weights of the conditional logit, per unit of each feature, shape
    (features,), from features ``x`` (positions, seats, features) and the winning seats."""
    scale = x.reshape(-1, x.shape[2]).std(axis=0)
    scale[scale == 0] = 1.0  # a feature that never varies: its weight stays 0
    result = minimize(
        _negative_log_likelihood,
        np.zeros(x.shape[2]),
        args=(x / scale, winner),
        jac=True,
        method="L-BFGS-B",
    )
    if not result.success:
        raise RuntimeError(f"the win model's fit did not converge: {result.message}")
    return result.x / scale


def log_loss(x: np.ndarray, winner: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Per position, minus the log of the chance the model gave the seat that won, shape
    (positions,) (log(seats) for a model that knows nothing)."""
    scores = x @ weights
    return logsumexp(scores, axis=1) - scores[np.arange(len(winner)), winner]
