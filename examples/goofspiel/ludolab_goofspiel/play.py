"""One game of Goofspiel played to its end, and its record."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import Any

from ludolab.envs.agents import Agent, play_out
from ludolab_goofspiel.engine import GoofspielOptions, GoofspielState, PrizeOrder


@dataclass(frozen=True)
class GoofspielRecord:
    """Outcome and per-round trace of one game. Per-seat tuples are indexed by seat.

    The fields up to ``truncated`` are the record core every game's record has
    (:data:`ludolab.games.RECORD_CORE`); the score is points and a step is a round.

    Attributes:
        setup_id: the id of the prize order played.
        seed: the game seed (it seeds the agents; the engine draws nothing).
        agents: the agent spec of each seat.
        winners: the seats with the most points (several when the win is shared).
        final_scores: points per seat at the end, shape (players,).
        score_by_step: points per seat after each round, shape (K, players).
        turns: cards bid, every seat's (K x players).
        rounds: rounds played (K).
        n_actions: bids taken, every seat's, the last round's forced bids included (K x players).
        truncated: always False (a game of Goofspiel always ends after K rounds).
        prizes: the prize order, top first, shape (K,).
        stakes: the points at stake each round (the prize plus any carried pot), shape (K,).
        bids: each seat's bid each round, shape (K, players).
        round_winners: the seat that took each round's stake, None for a tied round, shape (K,).
        tied_rounds: rounds whose highest bid was tied.
        points_unclaimed: points of prizes nobody took (discarded on a tie, or a carried pot
            left after the last round).
        ties_rule: the tie rule played (``discard`` or ``carry``).
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
    prizes: tuple[int, ...]
    stakes: tuple[int, ...]
    bids: tuple[tuple[int, ...], ...]
    round_winners: tuple[int | None, ...]
    tied_rounds: int
    points_unclaimed: int
    ties_rule: str

    def to_dict(self) -> dict[str, Any]:
        """Every field, in order, as it is (ints, strings, bools, None and tuples of them: what
        a table keeps as it is)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


def game_record(state: GoofspielState, agent_specs: Sequence[str]) -> GoofspielRecord:
    """The record of the finished game ``state`` played by ``agent_specs`` (one per seat)."""
    if not state.done:
        raise ValueError(f"the game is not over (round {state.round} of {state.options.cards})")
    history = state.history
    return GoofspielRecord(
        setup_id=state.setup.id,
        seed=state.seed,
        agents=tuple(agent_specs),
        winners=state.winners,
        final_scores=tuple(state.scores),
        score_by_step=tuple(r.scores for r in history),
        turns=len(history) * state.players,
        rounds=len(history),
        n_actions=state.n_actions,
        truncated=False,
        prizes=state.setup.prizes,
        stakes=tuple(r.stake for r in history),
        bids=tuple(r.bids for r in history),
        round_winners=tuple(r.winner for r in history),
        tied_rounds=sum(r.winner is None for r in history),
        points_unclaimed=state.unclaimed,
        ties_rule=state.options.ties,
    )


def play_game(
    setup: PrizeOrder,
    agents: Sequence[Agent],
    seed: int = 0,
    options: GoofspielOptions | None = None,
) -> GoofspielRecord:
    """Play one game to its end; seat ``i`` is ``agents[i]`` (2-4 of them, fresh).

    The game is a pure function of (prize order, agents' specs, seed, options): the engine
    draws nothing, and each agent is reset with ``seed`` and its seat.
    """
    state = GoofspielState(setup, len(agents), seed, options)
    play_out(state, agents, seed)
    return game_record(state, [agent.spec for agent in agents])


__all__ = ["GoofspielRecord", "game_record", "play_game"]
