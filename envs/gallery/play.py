"""The fast path: play one game between agents, with no observation encoding at all."""

from __future__ import annotations

from collections.abc import Sequence

from ludolab.envs.agents import play_out
from ludolab.envs.gallery.agents.base import Agent
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
    the deal, and each agent is reset with ``seed`` and its seat.
    """
    if len(agents) != deal.n_players:
        raise ValueError(
            f"deal {deal.id} is for {deal.n_players} players but {len(agents)} agents were given"
        )
    game = Game(deal, seed, options)
    play_out(game, agents, seed)
    return game_record(game, [agent.spec for agent in agents])


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


__all__ = ["game_record", "play_game"]
