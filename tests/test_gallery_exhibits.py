"""The Masters Gallery exhibit model: model vs Python scorer vs a card-by-card replay."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest

from ludolab.envs.gallery.cards import AWARD, DRAW, PLAIN, card_type, card_types
from ludolab.research.gallery.exhibits import (
    OPEN_MODEL_BEST,
    ExhibitRules,
    GamePlan,
    PlanError,
    Play,
    closing_count,
    model_path,
    rank_tokens,
    score_exhibits,
    score_solution,
    solve_exhibits,
    to_play_sequence,
    validate_plan,
)
from ludolab.research.gallery.replay import replay_in_engine

QUICK = 3.0  # seconds of search for the small cases


def check_solution(sol):
    """Everything a returned exhibit must satisfy; returns its plan."""
    rules = sol.rules
    P, M = rules.players, rules.closing
    # model vs Python scorer
    sheet = score_solution(sol)
    assert sheet.scores == sol.scores
    assert sheet.tokens == tuple(rd.tokens for rd in sol.rounds)
    assert sheet.scored_values == tuple(rd.scored_values for rd in sol.rounds)
    # global card counts: no artist displays more cards than it has, symbols once each
    for a, n in enumerate((17, 18, 19, 20, 21)):
        assert sum(rd.artist_count(a) for rd in sol.rounds) <= n
        for table in ("draw", "double", "award"):
            assert sum(getattr(rd, table)[p][a] for rd in sol.rounds for p in range(P)) <= 1
    for r, rd in enumerate(sol.rounds):
        assert rd.artist_count(rd.closing_artist) == M
        assert all(rd.artist_count(a) < M for a in range(5) if a != rd.closing_artist)
        if r:
            assert rd.first_player == (sol.rounds[r - 1].closer + 1) % P
    # the concrete game replays and scores the same
    plan = to_play_sequence(sol)
    result = validate_plan(plan)
    assert result.scores == sol.scores
    assert result.displayed == tuple(rd.cards for rd in sol.rounds)
    check_turns(plan, sol)
    # ... and the rules engine, an independent implementation, accepts it play by play
    replay = replay_in_engine(plan)
    assert replay.ok, replay.problem
    assert replay.scores == sol.scores
    return plan


def check_turns(plan: GamePlan, sol):
    """Turns per player: T from the first player to the closer (clockwise), T - 1 after."""
    P = sol.rules.players
    for rd_plan, rd in zip(plan.rounds, sol.rounds, strict=True):
        turns = Counter(play.player for play in rd_plan.plays)
        assert rd_plan.plays[-1].player == rd.closer
        arc = {(rd.first_player + i) % P for i in range((rd.closer - rd.first_player) % P + 1)}
        big = turns[rd.closer]
        for p in range(P):
            assert turns[p] == (big if p in arc else big - 1) == rd.turns[p]


def test_model_ships_with_the_package():
    assert model_path().is_file()
    assert model_path().name == "exhibits.mzn"


def test_rank_tokens_ties_go_to_the_earlier_artist_and_empty_artists_do_not_rank():
    assert rank_tokens([4, 4, 4, 0, 6]) == (2, 1, 0, 0, 3)
    assert rank_tokens([5, 0, 0, 0, 0]) == (3, 0, 0, 0, 0)
    assert rank_tokens([1, 1, 1, 1, 1]) == (3, 2, 1, 0, 0)


def test_score_exhibits_accumulates_values_only_for_ranked_artists():
    # round 1: A ranks first (3), B second (2); round 2: A is unranked, B first (2 + 3 = 5)
    cards = [[[5, 1, 0, 0, 0], [0, 2, 0, 0, 0]], [[1, 5, 0, 0, 0], [0, 0, 2, 2, 0]]] + [
        [[5, 0, 0, 0, 0], [0, 0, 0, 0, 0]]
    ] * 2
    sheet = score_exhibits(cards, [None] * 4, [[0] * 5, [0, 1, 0, 0, 0], [0] * 5, [0] * 5])
    assert sheet.tokens[1] == (0, 3, 2, 1, 0)
    assert sheet.values[1][1] == 2 + 3 + 2  # tokens 2 and 3, one award
    assert sheet.scored_values[1][0] == 0  # Lite Metal not in round 2's top three
    assert sheet.round_scores[0] == (5 * 3 + 1 * 2, 2 * 2)


@pytest.mark.parametrize(
    "rules",
    [
        ExhibitRules.open_model(2),
        ExhibitRules(players=2),
        ExhibitRules(players=3),
        ExhibitRules.open_model(4),
        ExhibitRules(players=5),
    ],
    ids=["2p-open", "2p", "3p", "4p-open", "5p"],
)
def test_max_score_exhibits_score_and_replay_the_same(rules):
    sol = solve_exhibits(rules.players, "max-score", rules=rules, time_limit=QUICK, random_seed=1)
    assert sol.objective_value == sol.scores[0]
    check_solution(sol)


def test_max_margin_is_the_lead_over_the_best_other_player():
    sol = solve_exhibits(3, "max-margin", time_limit=QUICK, random_seed=2)
    assert sol.objective_value == sol.scores[0] - max(sol.scores[1:])
    assert sol.objective_value > 0
    check_solution(sol)


@pytest.mark.parametrize("shared", [False, True])
def test_min_winning_score_wins(shared):
    sol = solve_exhibits(2, "min-winning-score", time_limit=QUICK, shared_win=shared, random_seed=3)
    assert sol.objective_value == sol.scores[0]
    if shared:
        assert sol.scores[0] >= max(sol.scores[1:])
    else:
        assert sol.scores[0] > max(sol.scores[1:])
    check_solution(sol)


def test_first_player_option_and_extra_cards_for_nobody():
    sol = solve_exhibits(4, time_limit=QUICK, first_player=2, random_seed=4)
    assert sol.rounds[0].first_player == 2
    assert all(rd.extra is not None for rd in sol.rounds)
    plan = check_solution(sol)
    assert all(rd.extra is not None for rd in plan.rounds)
    # the deck order reproduces the deals: blocks of each player's cards, then the extra card
    deck = plan.deck_order()
    assert sorted(deck) == list(range(95))
    first = plan.rounds[0]
    assert deck[: 13 * 4] == tuple(c for cards in first.deals for c in cards)
    assert deck[13 * 4] == first.extra
    robin = plan.deck_order("round_robin")
    assert robin[:4] == tuple(cards[0] for cards in first.deals)


# ---------------------------------------------------------------------------------------------
# The sequential validator catches broken plans


@pytest.fixture(scope="module")
def plan():
    sol = solve_exhibits(2, time_limit=QUICK, random_seed=6)
    return to_play_sequence(sol)


def _with_round(plan: GamePlan, r: int, **changes) -> GamePlan:
    rounds = list(plan.rounds)
    rounds[r] = replace(rounds[r], **changes)
    return replace(plan, rounds=tuple(rounds))


def test_validator_accepts_the_plan(plan):
    assert validate_plan(plan).scores == plan.expected


def test_validator_rejects_out_of_turn_play(plan):
    plays = list(plan.rounds[0].plays)
    plays[0], plays[1] = plays[1], plays[0]
    with pytest.raises(PlanError, match="turn"):
        validate_plan(_with_round(plan, 0, plays=tuple(plays)))


def test_validator_rejects_a_card_not_in_hand(plan):
    plays = list(plan.rounds[0].plays)
    other = plan.rounds[0].deals[1 - plays[0].player][0]
    plays[0] = replace(plays[0], card=other, draws=None, award_to=None)
    with pytest.raises(PlanError, match="not in the player's hand"):
        validate_plan(_with_round(plan, 0, plays=tuple(plays)))


def test_validator_rejects_plays_after_the_round_end(plan):
    plays = list(plan.rounds[0].plays)
    with pytest.raises(PlanError, match="already ended|turn"):
        validate_plan(_with_round(plan, 0, plays=(*plays, plays[-2])))
    with pytest.raises(PlanError, match="never ends"):
        validate_plan(_with_round(plan, 0, plays=tuple(plays[:-1])))


def test_validator_rejects_an_award_on_another_artist_under_own_award_rules():
    types = card_types()
    award = types.index(card_type(0, AWARD))
    plain = [c for c, t in enumerate(types) if t == card_type(0, PLAIN)]
    rules = ExhibitRules(players=2, extra_card=False, deals=(13, 0, 0, 0))
    hand0 = (award, *plain[:12])
    draw = types.index(card_type(1, DRAW))
    hand1 = (draw, *[c for c, t in enumerate(types) if t == card_type(2, PLAIN)][:12])
    plays = (Play(0, award, award_to=1), Play(1, draw, draws=94))
    bad = GamePlan(rules=rules, rounds=(replace_round(0, (hand0, hand1), plays),) * 4)
    with pytest.raises(PlanError, match="own artist"):
        validate_plan(bad)


def replace_round(first, deals, plays):
    from ludolab.research.gallery.exhibits import PlanRound

    return PlanRound(first_player=first, deals=deals, extra=None, plays=plays)


def test_closing_count():
    assert closing_count(2) == 5
    assert closing_count(4) == 6


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 4])
def test_open_model_bar_is_reached_in_a_minute(players):
    rules = ExhibitRules.open_model(players)
    sol = solve_exhibits(players, rules=rules, time_limit=60, random_seed=0)
    check_solution(sol)
    assert sol.objective_value >= OPEN_MODEL_BEST[players]
