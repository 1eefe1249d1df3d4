"""One game of Splendor played to its end by ludolab agents, and its record."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import Any

from ludolab.envs.agents import Agent, play_out
from ludolab.envs.splendor.engine import Deal, SplendorOptions, SplendorState


@dataclass(frozen=True)
class SplendorRecord:
    """Outcome and trace of one game. Per-seat tuples are indexed by seat (seat 0 begins).

    The fields up to ``truncated`` are the record core every game's record has
    (:data:`ludolab.games.RECORD_CORE`); the score is prestige and a step is a player turn.

    Attributes:
        setup_id: the id of the deal played.
        seed: the game seed (it seeds the agents; the engine draws nothing).
        agents: the agent spec of each seat.
        winners: the seats with the most prestige and, among them, the fewest cards bought
            (several: a shared win); none when the game was cut off.
        final_scores: prestige per seat at the end, shape (players,).
        score_by_step: prestige per seat after each player turn, shape (turns, players).
        turns: player turns played.
        rounds: rounds played (every seat has had the same number of turns).
        n_actions: decisions taken, every seat's (tokens returned and noble choices included).
        truncated: cut off by the round limit, with no winner.
        cards_bought: development cards bought per seat.
        nobles: nobles that visited each seat.
        reserved: cards each seat held reserved at the end.
        first_to_win: the seat whose turn ended the game by reaching the target (None when cut
            off).
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
    cards_bought: tuple[int, ...]
    nobles: tuple[int, ...]
    reserved: tuple[int, ...]
    first_to_win: int | None

    def to_dict(self) -> dict[str, Any]:
        """Every field, in order, as it is."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


def game_record(state: SplendorState, agent_specs: Sequence[str]) -> SplendorRecord:
    """The record of the finished game ``state`` played by ``agent_specs`` (one per seat)."""
    if not state.done:
        raise ValueError(f"the game is not over (round {state.rounds + 1}, seat {state.acting})")
    return SplendorRecord(
        setup_id=state.deal.id,
        seed=state.seed,
        agents=tuple(agent_specs),
        winners=state.winners,
        final_scores=tuple(s.points for s in state.seats),
        score_by_step=tuple(state.scores),
        turns=state.turns,
        rounds=state.rounds,
        n_actions=state.n_actions,
        truncated=state.truncated,
        cards_bought=tuple(len(s.bought) for s in state.seats),
        nobles=tuple(len(s.nobles) for s in state.seats),
        reserved=tuple(len(s.reserved) for s in state.seats),
        first_to_win=state.first_to_win,
    )


def play_game(
    deal: Deal,
    agents: Sequence[Agent],
    seed: int = 0,
    options: SplendorOptions | None = None,
) -> SplendorRecord:
    """Play one game to its end; seat ``i`` is ``agents[i]`` (fresh, one per seat of the deal).
    The game is a pure function of (deal, agents' specs, seed, options)."""
    if len(agents) != deal.n_players:
        raise ValueError(f"the deal is for {deal.n_players} seats, got {len(agents)} agents")
    state = SplendorState(deal, seed, options)
    play_out(state, agents, seed)
    return game_record(state, [agent.spec for agent in agents])


__all__ = ["SplendorRecord", "game_record", "play_game"]
