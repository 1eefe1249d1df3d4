"""The fast path: play one game between agents, with no observation encoding at all."""

from __future__ import annotations

from collections.abc import Sequence
from math import ceil

from envs.agents import play_out
from envs.catan.agents.base import Agent
from envs.catan.board import Board
from envs.catan.engine import Game, GameOptions
from envs.catan.record import GameRecord


def play_game(
    board: Board,
    agents: Sequence[Agent],
    seed: int = 0,
    options: GameOptions | None = None,
) -> GameRecord:
    """Play one game to its end; seat ``i`` is ``agents[i]`` (2-4 agents).

    The game is a pure function of (board, agents' specs, seed, options): the engine draws the
    dice, deck and steals from ``seed``, and each agent is reset with ``seed`` and its seat.
    """
    game = Game(board, len(agents), seed, options)
    play_out(game, agents, seed)
    return game_record(game, [agent.spec for agent in agents])


def game_record(game: Game, agent_specs: Sequence[str]) -> GameRecord:
    """The :class:`GameRecord` of a finished (or cut-off) game."""
    n = game.n_players
    return GameRecord(
        board_id=game.board.id,
        seed=game.seed,
        agents=tuple(agent_specs),
        winner=game.winner,
        truncated=game.truncated,
        turns=game.turns,
        rounds=ceil(game.turns / n),
        n_actions=game.n_actions,
        final_vp=tuple(game.victory_points(q) for q in range(n)),
        vp_by_turn=tuple(game.vp_by_turn),
        produced=tuple(tuple(row) for row in game.produced),
        dice=tuple(game.dice),
        robber_moves=game.robber_moves,
        sevens=game.sevens,
        maritime_trades=game.maritime_trades,
        domestic_trades=game.domestic_trades,
        knights_played=tuple(game.dev_played[q][0] for q in range(n)),
        first_settlement_turn=tuple(game.first_settlement_turn),
        first_city_turn=tuple(game.first_city_turn),
        longest_road=None if game.longest_road < 0 else game.longest_road,
        largest_army=None if game.largest_army < 0 else game.largest_army,
    )
