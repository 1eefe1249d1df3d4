"""The fast path: play one game between agents, with no observation encoding at all."""

from __future__ import annotations

import operator
from collections.abc import Sequence
from math import ceil
from typing import SupportsIndex

from ludolab.envs.catan import native
from ludolab.envs.catan.agents.base import Agent
from ludolab.envs.catan.agents.native_seats import native_seats
from ludolab.envs.catan.board import Board
from ludolab.envs.catan.engine import Game, GameOptions, check_table
from ludolab.envs.catan.loop import LegalView, play_out
from ludolab.envs.catan.record import GameRecord

# LegalView, play_out (the game loop) and native_seats (which agents the core plays) live below
# the agents; they are named here as well, where a game is played.
__all__ = ["LegalView", "core_record", "game_record", "native_seats", "play_game", "play_out"]


def play_game(
    board: Board,
    agents: Sequence[Agent],
    seed: SupportsIndex = 0,
    options: GameOptions | None = None,
) -> GameRecord:
    """Play one game to its end; seat ``i`` is ``agents[i]`` (2-4 agents).

    The game is a pure function of (board, agents' specs, seed, options): the engine draws the
    dice, deck and steals from ``seed``, and each agent is reset with ``seed`` and its seat.
    When every seat is an agent the native core has (the random and greedy agents; see
    :func:`native_seats`) and the core is built, the core plays the whole game, each seat's
    choices made in it from the stream ``reset`` would give that agent (the agent objects
    themselves are neither reset nor asked): the same game, action for action
    (tests/test_native_core.py), several times faster.
    """
    seed = operator.index(seed)  # numpy's integers too
    options = options or GameOptions()
    specs = [agent.spec for agent in agents]
    seats = None if options.debug else native_seats(agents, seed)
    if seats is not None:
        core = native.native()
        if core is not None:  # the agents' choices, made in the core
            check_table(board, len(agents))
            game = native.new_core(core, board, len(agents), seed, options)
            game.play(seats)
            return core_record(game.record(), board.id, seed, specs)
    game = Game(board, len(agents), seed, options)
    play_out(game, agents, seed)
    return game_record(game, specs)


def core_record(fields: tuple, board_id: str, seed: int, specs: Sequence[str]) -> GameRecord:
    """The :class:`GameRecord` of a game the native core played, from ``Core.record()``."""
    (
        winner, truncated, turns, n_actions, final_vp, vp_by_turn, produced, dice,
        robber_moves, sevens, maritime_trades, domestic_trades, knights_played,
        first_settlement_turn, first_city_turn, longest_road, largest_army,
    ) = fields  # fmt: skip
    return GameRecord(
        setup_id=board_id,
        seed=seed,
        agents=tuple(specs),
        winners=() if winner is None else (winner,),
        final_scores=final_vp,
        score_by_step=vp_by_turn,
        turns=turns,
        rounds=ceil(turns / len(final_vp)),
        n_actions=n_actions,
        truncated=truncated,
        produced=produced,
        dice=dice,
        robber_moves=robber_moves,
        sevens=sevens,
        maritime_trades=maritime_trades,
        domestic_trades=domestic_trades,
        knights_played=knights_played,
        first_settlement_turn=first_settlement_turn,
        first_city_turn=first_city_turn,
        longest_road=longest_road,
        largest_army=largest_army,
    )


def game_record(game: Game, agent_specs: Sequence[str]) -> GameRecord:
    """The :class:`GameRecord` of a finished (or cut-off) game."""
    n = game.n_players
    return GameRecord(
        setup_id=game.board.id,
        seed=game.seed,
        agents=tuple(agent_specs),
        winners=() if game.winner is None else (game.winner,),
        final_scores=tuple(game.victory_points(q) for q in range(n)),
        score_by_step=tuple(game.vp_by_turn),
        turns=game.turns,
        rounds=ceil(game.turns / n),
        n_actions=game.n_actions,
        truncated=game.truncated,
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
