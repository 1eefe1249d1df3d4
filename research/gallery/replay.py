"""Replay a concrete game from the exhibit model in the rules engine, play by play.

The exhibit model (:mod:`ludolab.research.gallery.exhibits`) and the engine
(:mod:`ludolab.envs.gallery`) are two independent statements of the rules. Every plan the model
yields is turned into a deal (the deck order the engine's dealing consumes) and a sequence of
actions; the engine must accept every one of them, hand the turn to the planned player at every
step, end every round where the plan does, and arrive at the same scores. A disagreement is a bug in
one of the two.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from ludolab.envs.gallery import actions as A
from ludolab.envs.gallery.cards import DOUBLE, N_CARDS, N_SYMBOLS, card_types
from ludolab.envs.gallery.deal import Deal
from ludolab.envs.gallery.engine import GAME_OVER, GalleryOptions, Game, IllegalActionError
from ludolab.research.gallery.exhibits import GamePlan


@dataclass(frozen=True)
class EngineReplay:
    """What the engine made of a plan. Scores are per model player (player 1 first).

    Attributes:
        ok: the engine accepted every play, in the planned turn order and rounds, and ended
            the game with the planned scores.
        scores: the engine's final scores, shape (players,), or () if the replay broke off.
        plays: plays the engine accepted.
        problem: what went wrong, "" when ``ok``.
    """

    ok: bool
    scores: tuple[int, ...]
    plays: int
    problem: str = ""


def engine_options(plan: GamePlan) -> GalleryOptions:
    """The engine's options for the rules the plan was made under."""
    rules = plan.rules
    return GalleryOptions(
        symbols=rules.symbols,
        extra_card=rules.extra_card,
        extra_card_each_round=rules.extra_card_each_round,
        award_choice=rules.award_any,
    )


def plan_deal(plan: GamePlan) -> tuple[Deal, list[int]]:
    """The deal that makes the engine deal the plan's cards, and each model player's seat.

    The engine starts round 1 with seat 0, so seats are the model's players rotated to put
    round 1's first player in seat 0. The engine deals each round in seat order, one block per
    seat, then turns the extra card; draw-ones take the top card as they are played.
    """
    players = plan.rules.players
    first = plan.rounds[0].first_player
    seat_of = [(p - first) % players for p in range(players)]
    player_at = sorted(range(players), key=lambda p: seat_of[p])
    order: list[int] = []
    for rd in plan.rounds:
        for p in player_at:
            order.extend(rd.deals[p])
        if rd.extra is not None:
            order.append(rd.extra)
        order.extend(play.draws for play in rd.plays if play.draws is not None)
    used = set(order)
    order.extend(c for c in range(N_CARDS) if c not in used)
    return Deal(n_players=players, order=tuple(order)), seat_of


def replay_in_engine(plan: GamePlan) -> EngineReplay:
    """Play ``plan`` in the engine; see the module docstring for what must hold."""
    deal, seat_of = plan_deal(plan)
    options = dataclasses.replace(engine_options(plan), debug=True)  # invariants every step
    game = Game(deal, 0, options)
    types = card_types(plan.rules.symbols)
    accepted = 0

    def broke(problem: str) -> EngineReplay:
        return EngineReplay(False, (), accepted, problem)

    for r, rd in enumerate(plan.rounds):
        for play in rd.plays:
            where = f"round {r + 1}, play {accepted + 1} ({play.describe()})"
            if game.phase == GAME_OVER:
                return broke(f"{where}: the engine's game is already over")
            if game.round != r:
                return broke(f"{where}: the engine is in round {game.round + 1}")
            if game.acting != seat_of[play.player]:
                return broke(
                    f"{where}: the engine asks seat {game.acting}, not the planned "
                    f"player's seat {seat_of[play.player]}"
                )
            steps = [A.play(types[play.card])]
            if types[play.card] % N_SYMBOLS == DOUBLE:
                steps.append(A.DECLINE if play.second is None else A.second(types[play.second]))
            if play.award_to is not None and plan.rules.award_any:
                steps.append(A.AWARD_TO + play.award_to)
            try:
                for action in steps:
                    if game.phase == GAME_OVER:
                        break
                    game.step(action)
            except IllegalActionError as exc:
                return broke(f"{where}: {exc}")
            accepted += 1
    if game.phase != GAME_OVER:
        return broke(
            f"all {accepted} plays made, but the engine's game goes on (round {game.round + 1})"
        )
    scores = tuple(game.scores[seat_of[p]] for p in range(plan.rules.players))
    if plan.expected and scores != tuple(plan.expected):
        return EngineReplay(
            False, scores, accepted, f"the engine scores {scores}, the plan expects {plan.expected}"
        )
    return EngineReplay(True, scores, accepted)
