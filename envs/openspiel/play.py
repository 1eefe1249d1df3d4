"""One OpenSpiel game played to its end by ludolab agents, and its record."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import Any

from ludolab.envs.agents import Agent, play_out
from ludolab.envs.openspiel.engine import (
    OpenSpielOptions,
    OpenSpielSetup,
    OpenSpielState,
    game_string,
)


@dataclass(frozen=True)
class OpenSpielRecord:
    """Outcome and trace of one game. Per-seat tuples are indexed by seat (OpenSpiel's player
    number).

    The fields up to ``truncated`` are the record core every game's record has
    (:data:`ludolab.games.RECORD_CORE`); the score is OpenSpiel's return and a step is a
    decision.

    Attributes:
        setup_id: the id of the setup played.
        seed: the game seed (chance after the opening, and the agents' streams).
        agents: the agent spec of each seat.
        winners: the seats with the highest return, every seat for a draw; none when the game
            was cut off.
        final_scores: each seat's return at the end, shape (players,).
        score_by_step: each seat's return after each decision, shape (decisions, players).
        turns: decisions taken, every seat's.
        rounds: ceil(turns / players).
        n_actions: decisions taken (equal to ``turns``; forced ones included).
        truncated: cut off by the move limit rather than ended by the rules.
        game_string: OpenSpiel's string of the game played (``go(board_size=7,komi=7.5)``).
        history: every action of the game, chance outcomes included, in OpenSpiel's numbers.
    """

    setup_id: str
    seed: int
    agents: tuple[str, ...]
    winners: tuple[int, ...]
    final_scores: tuple[float, ...]
    score_by_step: tuple[tuple[float, ...], ...]
    turns: int
    rounds: int
    n_actions: int
    truncated: bool
    game_string: str
    history: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        """Every field, in order, as it is."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


def game_record(state: OpenSpielState, agent_specs: Sequence[str]) -> OpenSpielRecord:
    """The record of the finished game ``state`` played by ``agent_specs`` (one per seat)."""
    if not state.done:
        raise ValueError(f"the game is not over ({state.decisions} decisions taken)")
    returns = tuple(float(r) for r in state.spiel.returns())
    return OpenSpielRecord(
        setup_id=state.setup.id,
        seed=state.seed,
        agents=tuple(agent_specs),
        winners=state.winners,
        final_scores=returns,
        score_by_step=tuple(state.scores),
        turns=state.decisions,
        rounds=math.ceil(state.decisions / state.players),
        n_actions=state.decisions,
        truncated=state.truncated,
        game_string=game_string(state.setup),
        history=tuple(int(a) for a in state.spiel.history()),
    )


def play_game(
    setup: OpenSpielSetup,
    agents: Sequence[Agent],
    seed: int = 0,
    options: OpenSpielOptions | None = None,
) -> OpenSpielRecord:
    """Play one game to its end; seat ``i`` is ``agents[i]`` (fresh). The game is a pure
    function of (setup, agents' specs, seed, options)."""
    state = OpenSpielState(setup, seed, options)
    play_out(state, agents, seed)
    return game_record(state, [agent.spec for agent in agents])


__all__ = ["OpenSpielRecord", "game_record", "play_game"]
