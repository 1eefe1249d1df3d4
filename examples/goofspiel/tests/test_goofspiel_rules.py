"""The rules on hand-made positions: bids, ties (discard and carry), scoring, shared wins, the
last round, illegal bids, and the prize order's JSON form."""

from __future__ import annotations

import pytest

from ludolab.envs.rules import IllegalActionError
from ludolab_goofspiel.engine import (
    GoofspielOptions,
    GoofspielState,
    PrizeOrder,
    PrizeOrderError,
    fair_order,
    play_bids,
)

CARRY = GoofspielOptions(cards=3, ties="carry")
DISCARD = GoofspielOptions(cards=3)


def test_the_single_highest_bid_takes_the_prize() -> None:
    state = play_bids(PrizeOrder((3, 1, 2)), [(3, 1)], DISCARD)
    assert state.scores == [3, 0]
    assert state.history[0].winner == 0 and state.history[0].stake == 3
    assert state.round == 1 and state.unclaimed == 0


def test_a_tie_discards_the_prize_under_the_standard_rules() -> None:
    state = play_bids(PrizeOrder((3, 1, 2)), [(2, 2), (3, 1)], DISCARD)
    assert state.history[0].winner is None
    assert state.unclaimed == 3 and state.pot == []
    # round 2 is worth its own prize only
    assert state.scores == [1, 0] and state.history[1].stake == 1


def test_a_tie_carries_the_prize_into_the_next_pot_with_carry() -> None:
    state = play_bids(PrizeOrder((3, 1, 2)), [(2, 2)], CARRY)
    assert state.pot == [3] and state.unclaimed == 0
    assert state.view(0).stake == 4 and state.view(0).carried == (3,)
    state.step(3)
    state.step(1)
    assert state.scores == [4, 0] and state.pot == []
    assert state.history[1].stake == 4


def test_a_pot_still_tied_after_the_last_round_is_lost() -> None:
    state = play_bids(PrizeOrder((3, 1, 2)), [(3, 1), (2, 2), (1, 3)], CARRY)
    # round 2 tied (pot 1), round 3: seat 1 takes 1 + 2
    assert state.scores == [3, 3] and state.unclaimed == 0
    state = play_bids(PrizeOrder((3, 1, 2)), [(3, 1), (1, 3), (2, 2)], CARRY)
    assert state.done and state.pot == [] and state.unclaimed == 2
    assert state.scores == [3, 1]


def test_with_three_players_a_tie_at_the_top_beats_no_one() -> None:
    """The lower bid does not inherit the prize: the top bid must be unique."""
    options = GoofspielOptions(cards=3)
    state = play_bids(PrizeOrder((2, 3, 1)), [(3, 3, 1)], options)
    assert state.scores == [0, 0, 0] and state.unclaimed == 2
    state.step(1)
    state.step(2)
    state.step(3)
    assert state.scores == [0, 0, 3]


def test_scores_are_the_prizes_won_and_the_most_points_win() -> None:
    state = play_bids(PrizeOrder((3, 1, 2)), [(3, 2), (1, 3), (2, 1)], DISCARD)
    assert state.done
    assert state.scores == [5, 1]
    assert state.winners == (0,)
    assert [r.scores for r in state.history] == [(3, 0), (3, 1), (5, 1)]


def test_equal_totals_share_the_win() -> None:
    # prizes 3, 1, 2: seat 0 takes the 3, seat 1 the 1 and the 2
    state = play_bids(PrizeOrder((3, 1, 2)), [(3, 1), (1, 2), (2, 3)], DISCARD)
    assert state.scores == [3, 3] and state.winners == (0, 1)
    # every round tied: nobody scores, and everybody shares the win
    state = play_bids(PrizeOrder((1, 2, 3)), [(1, 1), (2, 2), (3, 3)], DISCARD)
    assert state.scores == [0, 0] and state.winners == (0, 1) and state.unclaimed == 6


def test_the_last_round_is_forced_and_then_the_game_is_over() -> None:
    state = play_bids(PrizeOrder((3, 1, 2)), [(3, 1), (1, 2)], DISCARD)
    assert state.legal_actions() == [2] and state.forced_action() == 2
    state.step(2)
    assert state.acting == 1 and state.forced_action() == 3
    state.step(3)
    assert state.done and state.acting == -1
    assert state.legal_actions() == [] and state.forced_action() == -1
    with pytest.raises(IllegalActionError, match="over"):
        state.step(1)


def test_seats_bid_in_order_and_a_card_goes_once() -> None:
    state = GoofspielState(PrizeOrder((3, 1, 2)), 2, 0, DISCARD)
    assert state.acting == 0 and state.legal_actions() == [1, 2, 3]
    assert state.forced_action() == -1
    state.step(2)
    assert state.acting == 1 and state.legal_actions() == [1, 2, 3]
    state.step(1)
    assert state.acting == 0 and state.legal_actions() == [1, 3]
    for bad in (2, 0, 4, -1, "3", 2.0):
        before = state.clone()
        with pytest.raises(IllegalActionError):
            state.step(bad)  # type: ignore[arg-type]
        assert state.hands == before.hands and state.pending == before.pending


def test_a_seat_never_sees_the_bids_of_the_current_round() -> None:
    state = GoofspielState(PrizeOrder((3, 1, 2)), 3, 0, DISCARD)
    state.step(3)
    state.step(1)
    view = state.view(2)
    assert view.hands == ((1, 2, 3),) * 3  # the bids made are back in their hands
    assert view.hand == (1, 2, 3) and view.prize == 3 and view.prizes_left == (1, 2)
    state.step(2)
    assert state.view(2).hands == ((1, 2), (2, 3), (1, 3))  # revealed once resolved


def test_the_engine_checks_its_seats_and_its_setup() -> None:
    with pytest.raises(ValueError, match="2-4 players"):
        GoofspielState(PrizeOrder((1, 2)), 5, 0, GoofspielOptions(cards=2))
    with pytest.raises(PrizeOrderError, match="cards = 13; play it with the option cards = 2"):
        GoofspielState(PrizeOrder((1, 2)), 2, 0)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"cards": 0}, "GoofspielOptions.cards"),
        ({"cards": True}, "GoofspielOptions.cards"),
        ({"ties": "split"}, "GoofspielOptions.ties"),
    ],
)
def test_bad_options_name_the_option(options: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        GoofspielOptions(**options)


def test_a_prize_order_is_its_id_and_its_json() -> None:
    order = PrizeOrder((2, 3, 1))
    assert order.id == PrizeOrder((2, 3, 1)).id != PrizeOrder((1, 2, 3)).id
    data = order.to_dict()
    assert data["prizes"] == [2, 3, 1]
    # a run's setups file adds its own fields: they are ignored
    assert PrizeOrder.from_dict({**data, "condition": "fair", "setup": 0}) == order
    assert fair_order(13, 5) == fair_order(13, 5) != fair_order(13, 6)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({}, "field 'prizes' is missing"),
        ({"prizes": "123"}, "must be a list"),
        ({"prizes": [1, 1, 2]}, "each of 1..K exactly once"),
        ({"prizes": [1, 2, 4]}, "each of 1..K exactly once"),
        ({"prizes": []}, "K >= 1"),
        ({"prizes": [1, 2.0]}, "tuple of ints"),
        ({"prizes": [2, 1], "id": "gs2-0000"}, "field 'id'"),
        ({"prizes": [1], "schema": "ludolab.gallery.deal/1"}, "field 'schema'"),
        ([1, 2], "JSON object"),
    ],
)
def test_a_bad_prize_order_says_where_and_which_field(data: object, message: str) -> None:
    with pytest.raises(PrizeOrderError, match=message) as caught:
        PrizeOrder.from_dict(data, "orders.jsonl:3")  # type: ignore[arg-type]
    assert str(caught.value).startswith("orders.jsonl:3: ")
