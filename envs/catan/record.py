"""The record of one finished game: what metrics and experiments need, and nothing else."""

from __future__ import annotations

from dataclasses import dataclass, fields


@dataclass(frozen=True)
class GameRecord:
    """Outcome and per-turn traces of one Catan game.

    Turns count player turns (setup excluded; the winning turn included); a round is one turn of
    every seat, ``rounds = ceil(turns / n_players)``. Per-seat tuples are indexed by seat. The
    fields up to ``truncated`` are the record core every game's record has
    (:data:`ludolab.games.RECORD_CORE`); the score is victory points and a step is a player
    turn.

    Attributes:
        setup_id: id of the board played.
        seed: the game seed (dice, development deck, robber steals).
        agents: agent spec per seat, e.g. ``("greedy", "random", ...)``.
        winners: the winning seat, alone; empty when the game was cut off by the turn limit.
        final_scores: victory points per seat at the end, hidden cards included.
        score_by_step: victory points per seat after every turn, shape (turns, n_players).
        turns, rounds: game length.
        n_actions: decisions taken, every seat's (setup, discards and trade answers included).
        truncated: True when the turn limit ended the game.
        produced: resource cards received from production per seat, shape (n_players, 5)
            in the order lumber, wool, grain, brick, ore (setup income included).
        dice: the total rolled on every turn, length turns (or turns - 1 when the game was won
            at the start of a turn, before its roll).
        robber_moves, sevens: robber moves (7s and knights) and 7s rolled.
        maritime_trades, domestic_trades: trades made with the bank and between seats.
        knights_played: knights played per seat.
        first_settlement_turn, first_city_turn: the turn (0-based) of each seat's first
            settlement built after setup and first city; None if never.
        longest_road, largest_army: holder seat at the end, or None.
    """

    setup_id: str
    seed: int
    agents: tuple[str, ...]
    winners: tuple[int, ...]
    final_scores: tuple[int, ...]
    score_by_step: tuple[tuple[int, ...], ...]
    turns: int
    rounds: int
    n_actions: int
    truncated: bool
    produced: tuple[tuple[int, ...], ...]
    dice: tuple[int, ...]
    robber_moves: int
    sevens: int
    maritime_trades: int
    domestic_trades: int
    knights_played: tuple[int, ...]
    first_settlement_turn: tuple[int | None, ...]
    first_city_turn: tuple[int | None, ...]
    longest_road: int | None
    largest_army: int | None

    @property
    def n_players(self) -> int:
        return len(self.final_scores)

    @property
    def winner(self) -> int | None:
        """The winning seat, or None when the game was cut off by the turn limit."""
        return self.winners[0] if self.winners else None

    def to_dict(self) -> dict:
        """A JSON/Parquet-ready dict, field by field. Every field is an int, str, bool, None or
        a (nested) tuple of those, all immutable: a shallow dict equals ``dataclasses.asdict``
        without its deep copy (which cost more than playing a random game)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}
