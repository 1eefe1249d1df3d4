"""The fast path: play one game between agents, with no observation encoding at all."""

from __future__ import annotations

import operator
from collections.abc import Iterator, Sequence
from math import ceil
from typing import SupportsIndex, overload

from ludolab.envs.catan import native
from ludolab.envs.catan.agents.base import Agent
from ludolab.envs.catan.agents.greedy import GreedyAgent
from ludolab.envs.catan.agents.random_agent import RandomAgent
from ludolab.envs.catan.board import Board
from ludolab.envs.catan.engine import MAIN, Game, GameOptions, check_table
from ludolab.envs.catan.record import GameRecord


class LegalView(Sequence[int]):
    """``game.legal_actions()`` listed only when read: a read-only sequence of the legal actions
    of the seat acting now, always up to date with ``game``.

    The main phase has the longest lists (every road, settlement, trade...) and an agent such as
    the greedy one decides there by asking ``game.is_legal`` about the few actions it considers;
    listing them all for it costs more than its decision (see :attr:`Agent.lazy_legal`).
    """

    __slots__ = ("_game",)

    def __init__(self, game: Game) -> None:
        self._game = game

    @overload
    def __getitem__(self, index: int) -> int: ...
    @overload
    def __getitem__(self, index: slice) -> list[int]: ...
    def __getitem__(self, index: int | slice) -> int | list[int]:
        return self._game.legal_actions()[index]

    def __len__(self) -> int:
        return len(self._game.legal_actions())

    def __iter__(self) -> Iterator[int]:
        return iter(self._game.legal_actions())

    def __contains__(self, action: object) -> bool:
        return action in self._game.legal_actions()

    def __repr__(self) -> str:
        return f"LegalView({self._game.legal_actions()!r})"


def play_out(game: Game, agents: Sequence[Agent], seed: SupportsIndex) -> None:
    """:func:`ludolab.envs.agents.play_out` for Catan: reset seat ``i``'s agent with (``i``,
    ``seed``), then let the agents decide until the game is over; agents with
    :attr:`Agent.lazy_legal` get a :class:`LegalView` in the main phase rather than the listed
    actions.

    The same loop as the generic one, written again here because this module is compiled with
    the engine (setup.py): typed, it calls the engine natively, which makes random games about
    40% and greedy ones about 15% faster than the generic loop.
    """
    seed = operator.index(seed)  # numpy's integers too
    for seat, agent in enumerate(agents):
        agent.reset(seat, seed)
    lazy = [bool(getattr(agent, "lazy_legal", False)) for agent in agents]
    view = LegalView(game)
    while not game.done:
        seat = game.acting
        forced = game.forced_action()
        if forced >= 0:  # not a decision (declining an offer without the card): no agent asked
            game.step(forced)
            continue
        legal = view if lazy[seat] and game.phase == MAIN else game.legal_actions()
        game.step(agents[seat].act(game, legal))


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


def native_seats(agents: Sequence[Agent], seed: int | Sequence[int]) -> list[tuple] | None:
    """The seats of ``Core.play`` for ``agents`` reset with ``seed`` (or seat ``q``'s with
    ``seed[q]``), or None unless the core has every one of them: the plain random and greedy
    agents (no subclass: a subclass may change a rule), with any of greedy's parameters."""
    seats: list[tuple] = []
    for q, agent in enumerate(agents):
        kind = type(agent)
        if kind is not RandomAgent and kind is not GreedyAgent:
            return None
        key = native.stream_key(kind.stream_seed(q, seed if isinstance(seed, int) else seed[q]))
        if isinstance(agent, GreedyAgent):
            leader = agent.robber == "leader"
            seats.append(("greedy", key, agent.trade, agent.offers, agent.dev_cards, leader))
        else:
            seats.append(("random", key))
    return seats


def core_record(fields: tuple, board_id: str, seed: int, specs: Sequence[str]) -> GameRecord:
    """The :class:`GameRecord` of a game the native core played, from ``Core.record()``."""
    (
        winner, truncated, turns, n_actions, final_vp, vp_by_turn, produced, dice,
        robber_moves, sevens, maritime_trades, domestic_trades, knights_played,
        first_settlement_turn, first_city_turn, longest_road, largest_army,
    ) = fields  # fmt: skip
    return GameRecord(
        board_id=board_id,
        seed=seed,
        agents=tuple(specs),
        winner=winner,
        truncated=truncated,
        turns=turns,
        rounds=ceil(turns / len(final_vp)),
        n_actions=n_actions,
        final_vp=final_vp,
        vp_by_turn=vp_by_turn,
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
