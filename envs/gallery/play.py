"""The fast path: play one game between agents, with no observation encoding at all."""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any

from ludolab.envs.agents import play_out
from ludolab.envs.gallery import native
from ludolab.envs.gallery.agents.base import Agent
from ludolab.envs.gallery.agents.native_seats import native_seats
from ludolab.envs.gallery.deal import Deal
from ludolab.envs.gallery.engine import GalleryOptions, Game
from ludolab.envs.gallery.record import GalleryRecord


def play_game(
    deal: Deal,
    agents: Sequence[Agent],
    seed: int = 0,
    options: GalleryOptions | None = None,
) -> GalleryRecord:
    """Play one game to its end; seat ``i`` is ``agents[i]`` (as many as ``deal.n_players``).

    The game is a pure function of (deal, agents' specs, seed, options): every card comes from
    the deal, and each agent is reset with ``seed`` and its seat. When every seat is an agent
    the native core has (``random``, ``leader``, ``greedy``; :func:`native_seats`) and the
    core is built, the whole game is played there: the same game, the same record.
    """
    if len(agents) != deal.n_players:
        raise ValueError(
            f"deal {deal.id} is for {deal.n_players} players but {len(agents)} agents were given"
        )
    seed = operator.index(seed)
    options = options or GalleryOptions()
    specs = [agent.spec for agent in agents]
    core = native.native()
    if core is not None and not options.debug:
        seats = native_seats(agents, [seed] * len(agents))
        if seats is not None:
            for seat, agent in enumerate(agents):
                agent.reset(seat, seed)
            position = native.new_core(core, deal, options)
            position.play(seats)
            return core_record(position.get_state(), deal.id, seed, specs)
    game = Game(deal, seed, options)
    play_out(game, agents, seed)
    return game_record(game, specs)


def core_record(
    state: dict[str, Any], setup_id: str, seed: int, agent_specs: Sequence[str]
) -> GalleryRecord:
    """The :class:`GalleryRecord` of a game finished in the native core, from its
    ``get_state()``: the record :func:`game_record` gives of the same game."""
    logs = state["rounds_log"]
    n = len(state["scores"])
    earned = [0] * n
    score_by_step = []
    for log in logs:
        earned = [e + s for e, s in zip(earned, log["scores"], strict=True)]
        score_by_step.append(tuple(earned))

    def by_seat(flat: list[int]) -> tuple[tuple[int, ...], ...]:
        return tuple(tuple(flat[q * 5 : (q + 1) * 5]) for q in range(n))

    return GalleryRecord(
        setup_id=setup_id,
        seed=seed,
        agents=tuple(agent_specs),
        winners=tuple(state["winners"]),
        final_scores=tuple(state["scores"]),
        score_by_step=tuple(score_by_step),
        turns=sum(log["turns"] for log in logs),
        rounds=len(logs),
        n_actions=state["n_actions"],
        truncated=False,
        exhibits=tuple(by_seat(log["exhibits"]) for log in logs),
        extra_cards=tuple(tuple(log["extra"]) for log in logs),
        awards=tuple(tuple(log["awards"]) for log in logs),
        rankings=tuple(tuple(log["ranking"]) for log in logs),
        artist_values=tuple(tuple(log["values"]) for log in logs),
        round_starters=tuple(log["starter"] for log in logs),
        round_closers=tuple(None if log["closer"] < 0 else log["closer"] for log in logs),
        turns_per_round=tuple(log["turns"] for log in logs),
        cards_dealt=tuple(state["dealt"]),
        cards_drawn=tuple(state["drawn"]),
        missed_draws=state["missed_draws"],
        deck_left=len(state["pile"]),
        deck_ran_out=bool(state["deck_ran_out"]),
    )


def game_record(game: Game, agent_specs: Sequence[str]) -> GalleryRecord:
    """The :class:`GalleryRecord` of a finished game."""
    logs = game.rounds_log
    earned = [0] * game.n_players
    score_by_step = []
    for log in logs:
        earned = [e + s for e, s in zip(earned, log.scores, strict=True)]
        score_by_step.append(tuple(earned))
    return GalleryRecord(
        setup_id=game.deal.id,
        seed=game.seed,
        agents=tuple(agent_specs),
        winners=game.winners,
        final_scores=tuple(game.scores),
        score_by_step=tuple(score_by_step),
        turns=sum(log.turns for log in logs),
        rounds=len(logs),
        n_actions=game.n_actions,
        truncated=False,
        exhibits=tuple(log.exhibits for log in logs),
        extra_cards=tuple(log.extra for log in logs),
        awards=tuple(log.awards for log in logs),
        rankings=tuple(log.ranking for log in logs),
        artist_values=tuple(log.values for log in logs),
        round_starters=tuple(log.starter for log in logs),
        round_closers=tuple(log.closer for log in logs),
        turns_per_round=tuple(log.turns for log in logs),
        cards_dealt=tuple(game.dealt),
        cards_drawn=tuple(game.drawn),
        missed_draws=game.missed_draws,
        deck_left=len(game.pile),
        deck_ran_out=game.deck_ran_out,
    )


__all__ = ["core_record", "game_record", "play_game"]
