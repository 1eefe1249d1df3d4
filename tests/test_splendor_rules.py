"""Splendor's rules, on hand-made positions from the rulebook: the components' structure, taking
gems, the token limit, reserving, buying with bonuses and gold, nobles, the end of the game and
its tie-break, and the engine's bookkeeping over random games."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ludolab.envs.rules import IllegalActionError
from ludolab.envs.splendor.cards import CARDS, NOBLES
from ludolab.envs.splendor.engine import (
    BUY,
    BUY_RESERVED,
    DOUBLE,
    GOLD,
    NOBLE,
    PASS,
    RESERVE,
    RESERVE_DECK,
    RETURN,
    TAKE1,
    TAKE2,
    TAKE3,
    TRIPLES,
    Deal,
    DealError,
    SplendorOptions,
    SplendorState,
    fair_deal,
    price,
)

WHITE, BLUE, GREEN, RED, BLACK = range(5)


def card(level: int, bonus: int, points: int, cost: tuple[int, ...]) -> int:
    """The id of the card with these printed values (there is exactly one)."""
    (found,) = [
        c.id
        for c in CARDS
        if (c.level, c.bonus, c.points, c.cost) == (level, bonus, points, tuple(cost))
    ]
    return found


def deal(players: int = 2, first: dict[int, list[int]] | None = None, nobles=None) -> Deal:
    """A deal whose decks start with ``first[level]`` (level 0-2), the rest in id order."""
    decks = []
    for level in range(3):
        ids = [c.id for c in CARDS if c.level == level + 1]
        head = (first or {}).get(level, [])
        decks.append(tuple(head + [i for i in ids if i not in head]))
    nobles = tuple(nobles if nobles is not None else range(players + 1))
    return Deal((decks[0], decks[1], decks[2]), nobles, players)


# --- the components ---------------------------------------------------------------------------


def test_the_deck_has_the_published_game_s_structure() -> None:
    assert Counter(c.level for c in CARDS) == {1: 40, 2: 30, 3: 20}
    for level, per_colour in ((1, 8), (2, 6), (3, 4)):
        cards = [c for c in CARDS if c.level == level]
        assert Counter(c.bonus for c in cards) == dict.fromkeys(range(5), per_colour)
        # every colour has the same prestige and the same total costs at a level
        shapes = {
            b: sorted((c.points, sum(c.cost)) for c in cards if c.bonus == b) for b in range(5)
        }
        assert len({tuple(s) for s in shapes.values()}) == 1, shapes
    assert [sum(c.cost[k] for c in CARDS) for k in range(5)] == [117] * 5
    assert sum(c.points for c in CARDS) == 140


def test_the_rulebook_s_examples_are_in_the_components() -> None:
    card(3, BLUE, 4, (6, 3, 0, 0, 3))  # "3 blue, 3 black and 6 white tokens"
    assert any(n.need == (3, 3, 3, 0, 0) for n in NOBLES)  # 3 blue, 3 green, 3 white
    assert all(n.points == 3 for n in NOBLES)
    shapes = Counter(tuple(sorted(x for x in n.need if x)) for n in NOBLES)
    assert shapes == {(4, 4): 5, (3, 3, 3): 5}


def test_the_bank_and_the_nobles_depend_on_the_players() -> None:
    for players, gems in ((2, 4), (3, 5), (4, 7)):
        state = SplendorState(deal(players))
        assert state.bank == [gems] * 5 + [5] and len(state.nobles) == players + 1
        assert all(len(row) == 4 for row in state.display)


def test_a_deal_that_is_not_a_shuffle_is_refused() -> None:
    good = deal(2).to_dict()
    with pytest.raises(DealError, match="deals.jsonl:3: decks\\[1\\]: expected each level-2"):
        Deal.from_dict(
            {**good, "decks": [good["decks"][0], good["decks"][1][:-1], good["decks"][2]]},
            "deals.jsonl:3",
        )
    with pytest.raises(DealError, match="nobles: expected 3 distinct nobles"):
        Deal.from_dict({**good, "nobles": [0, 0, 1]})
    with pytest.raises(DealError, match="Splendor takes 2-4 players, got 5"):
        Deal.from_dict({**good, "n_players": 5})
    assert Deal.from_dict(good) == deal(2)


# --- taking gems ------------------------------------------------------------------------------


def test_three_different_gems_or_two_of_a_colour_with_four_in_the_bank() -> None:
    state = SplendorState(deal(2))  # 4 of each colour
    legal = state.legal_actions()
    assert [a for a in legal if a < RESERVE] == list(range(10)) + [DOUBLE + c for c in range(5)]
    state.step(DOUBLE + RED)
    assert state.seats[0].tokens[RED] == 2 and state.bank[RED] == 2
    # seat 1: three red left is too few for two of a colour, not for one of three
    assert DOUBLE + RED not in state.legal_actions()
    assert TAKE3 + TRIPLES.index((BLUE, GREEN, RED)) in state.legal_actions()
    with pytest.raises(IllegalActionError, match="take two red"):
        state.step(DOUBLE + RED)


def test_gold_is_never_taken_as_a_gem() -> None:
    state = SplendorState(deal(2))
    state.step(TAKE3)  # white, blue, green
    assert state.seats[0].tokens == [1, 1, 1, 0, 0, 0] and state.bank[GOLD] == 5


@pytest.mark.parametrize(
    ("rule", "left", "pairs", "ones"),
    [
        ("short", [RED, BLACK], 1, 0),
        ("short", [BLACK], 0, 1),
        ("never", [RED, BLACK], 0, 0),
        ("always", [WHITE, RED, BLACK], 3, 3),
    ],
)
def test_fewer_than_three_gems_when_the_bank_is_short(rule, left, pairs, ones) -> None:
    state = SplendorState(deal(2), options=SplendorOptions(fewer_gems=rule))
    state.bank[:5] = [1 if c in left else 0 for c in range(5)]
    takes = [a for a in state.legal_actions() if a < DOUBLE]
    assert sum(TAKE2 <= a < TAKE1 for a in takes) == pairs
    assert sum(TAKE1 <= a < DOUBLE for a in takes) == ones


# --- the token limit --------------------------------------------------------------------------


def test_over_ten_tokens_the_seat_returns_its_choice_including_gold() -> None:
    state = SplendorState(deal(4))
    seat = state.seats[0]
    seat.tokens = [2, 2, 2, 2, 0, 1]  # 9 tokens
    state.bank = [5, 5, 5, 5, 7, 4]
    state.step(TAKE3 + TRIPLES.index((GREEN, RED, BLACK)))  # 12 tokens
    assert state.phase == "return" and state.acting == 0
    assert state.legal_actions() == [RETURN + k for k in (0, 1, 2, 3, 4, 5)]
    state.step(RETURN + GOLD)
    assert state.phase == "return"
    state.step(RETURN + BLACK)  # one just taken
    assert state.phase == "main" and state.acting == 1
    assert seat.tokens == [2, 2, 3, 3, 0, 0] and sum(seat.tokens) == 10
    state.check_invariants()


# --- reserving --------------------------------------------------------------------------------


def test_a_reserve_takes_gold_while_any_is_left_and_refills_the_display() -> None:
    state = SplendorState(deal(2))
    shown = state.display[1][2]
    next_card = state.decks[1][0]
    state.step(RESERVE + 1 * 4 + 2)
    seat = state.seats[0]
    assert seat.reserved == [shown] and seat.hidden == [False] and seat.tokens[GOLD] == 1
    assert state.display[1][2] == next_card
    state.bank[GOLD] = 0
    top = state.decks[2][0]
    state.step(RESERVE_DECK + 2)  # seat 1: the top of level 3, unseen; no gold left
    assert state.seats[1].reserved == [top] and state.seats[1].hidden == [True]
    assert state.seats[1].tokens[GOLD] == 0


def test_three_reserved_cards_are_the_most() -> None:
    state = SplendorState(deal(2))
    state.seats[0].reserved = [state.decks[0].pop(), state.decks[0].pop(), state.decks[0].pop()]
    state.seats[0].hidden = [True] * 3
    legal = state.legal_actions()
    assert not [a for a in legal if RESERVE <= a < BUY]


def _bonuses(state: SplendorState, seat: int, per_colour: list[int]) -> None:
    """Give ``seat`` bought cards with these bonuses (taken from the decks, their prestige
    counted), keeping the game's bookkeeping whole."""
    s = state.seats[seat]
    for colour, n in enumerate(per_colour):
        for _ in range(n):
            deck = next(d for d in state.decks if any(CARDS[c].bonus == colour for c in d))
            c = next(c for c in deck if CARDS[c].bonus == colour)
            deck.remove(c)
            s.bought.append(c)
            s.bonuses[colour] += 1
            s.points += CARDS[c].points
    state._legal = None


# --- buying -----------------------------------------------------------------------------------


def test_the_price_counts_bonuses_then_gems_then_gold() -> None:
    cost = (6, 3, 0, 0, 3)  # the rulebook's blue 4-prestige card
    assert price(cost, [2, 0, 0, 0, 1], [4, 3, 0, 0, 1, 1]) == [4, 3, 0, 0, 1, 1]
    assert price(cost, [2, 0, 0, 0, 1], [4, 3, 0, 0, 1, 0]) is None
    assert price(cost, [6, 3, 0, 0, 3], [0] * 6) == [0] * 6


def test_buying_pays_the_bank_and_gives_a_bonus_and_prestige() -> None:
    target = card(1, BLUE, 1, (0, 0, 0, 4, 0))
    state = SplendorState(deal(2, first={0: [target]}))
    seat = state.seats[0]
    seat.tokens = [0, 0, 0, 3, 0, 1]
    state.bank = [4, 4, 4, 1, 4, 4]
    assert BUY + 0 in state.legal_actions()
    state.step(BUY + 0)
    assert seat.bought == [target] and seat.bonuses == [0, 1, 0, 0, 0] and seat.points == 1
    assert seat.tokens == [0] * 6 and state.bank == [4, 4, 4, 4, 4, 5]
    state.check_invariants()


def test_a_reserved_card_is_bought_from_the_hand() -> None:
    state = SplendorState(deal(2))
    target = state.decks[2][0]
    state.step(RESERVE_DECK + 2)
    assert state.seats[0].reserved == [target] and state.seats[0].hidden == [True]
    state.step(TAKE3)  # seat 1
    _bonuses(state, 0, list(CARDS[target].cost))  # its bonuses pay all of it
    assert BUY_RESERVED in state.legal_actions()
    gold = state.seats[0].tokens[GOLD]
    state.step(BUY_RESERVED)
    seat = state.seats[0]
    assert seat.bought[-1] == target and seat.reserved == [] and seat.hidden == []
    assert seat.tokens[GOLD] == gold  # nothing paid: the bonuses covered the cost
    state.check_invariants()


# --- nobles -----------------------------------------------------------------------------------


def test_one_noble_visits_at_the_end_of_the_turn_without_being_asked() -> None:
    wb = next(n.id for n in NOBLES if n.need == (4, 4, 0, 0, 0))
    state = SplendorState(deal(2, nobles=[wb, 5, 6]))
    _bonuses(state, 0, [4, 4, 0, 0, 0])
    state.step(TAKE3)
    assert state.seats[0].nobles == [wb]
    assert state.seats[0].points == 3 + sum(CARDS[c].points for c in state.seats[0].bought)
    assert wb not in state.nobles and state.acting == 1
    state.check_invariants()


def test_a_seat_that_two_nobles_would_visit_chooses_one() -> None:
    needs = [(4, 4, 0, 0, 0), (0, 4, 4, 0, 0)]
    two = [next(n.id for n in NOBLES if n.need == need) for need in needs]
    other = next(n.id for n in NOBLES if n.id not in two)
    state = SplendorState(deal(2, nobles=[other, *two]))
    _bonuses(state, 0, [4, 4, 4, 0, 0])
    state.step(TAKE3)
    assert state.phase == "noble" and state.legal_actions() == [NOBLE + 1, NOBLE + 2]
    state.step(NOBLE + 2)
    assert state.seats[0].nobles == [two[1]] and state.nobles == [other, two[0]]
    # the other noble waits for a later turn
    state.step(TAKE3 + 1)
    state.step(TAKE3 + 2)
    assert state.seats[0].nobles == [two[1], two[0]]


# --- the end of the game ----------------------------------------------------------------------


def test_reaching_fifteen_finishes_the_round_and_the_fewest_cards_break_a_tie() -> None:
    state = SplendorState(deal(3))
    for s, points in zip(state.seats, (13, 13, 15), strict=True):
        s.points = points  # bookkeeping aside: prestige alone decides here
    state.step(TAKE3)  # seat 0 stays at 13
    state.step(TAKE3 + 1)
    assert not state.done
    state.seats[1].points = 15
    state.step(TAKE3 + 2)  # seat 2 ends the turn at 15: the round is over
    assert state.done and state.rounds == 1 and state.first_to_win == 2
    state.seats[1].bought = [0, 1]
    state.seats[2].bought = [2]
    assert state.winners == (2,)  # 15 each; seat 2 has fewer cards
    state.seats[2].bought = [2, 3]
    assert state.winners == (1, 2)  # still tied: a shared win


def test_the_seat_after_the_trigger_still_plays_its_turn() -> None:
    state = SplendorState(deal(2))
    state.seats[0].points = 15
    state.step(TAKE3)
    assert not state.done and state.acting == 1 and state.final_round
    state.step(TAKE3)
    assert state.done and state.winners == (0,)


def test_an_empty_deck_leaves_the_display_s_slot_empty() -> None:
    state = SplendorState(deal(2))
    state.decks[2] = []
    state.step(RESERVE + 2 * 4 + 1)
    assert state.display[2][1] == -1
    assert RESERVE + 2 * 4 + 1 not in state.legal_actions()
    assert RESERVE_DECK + 2 not in state.legal_actions()


def test_a_seat_passes_only_when_no_action_is_legal() -> None:
    state = SplendorState(deal(2))
    state.bank[:5] = [0] * 5
    seat = state.seats[0]
    seat.reserved = [state.decks[0].pop(), state.decks[0].pop(), state.decks[0].pop()]
    seat.hidden = [True] * 3
    state._legal = None
    assert state.legal_actions() == [PASS]
    state.step(PASS)
    assert state.acting == 1


def test_a_game_that_never_ends_is_cut_off_with_no_winner() -> None:
    state = SplendorState(deal(2), options=SplendorOptions(round_limit=2))
    for _ in range(4):
        state.step(TAKE3 if sum(state.seats[state.acting].tokens) < 8 else DOUBLE + 3)
        while state.phase == "return":
            state.step(state.legal_actions()[0])
    assert state.done and state.truncated and state.winners == ()


# --- bookkeeping over whole games -------------------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**31), st.sampled_from([2, 3, 4]))
def test_random_games_keep_every_token_card_and_noble_in_one_place(seed: int, players: int):
    state = SplendorState(fair_deal(players, seed))
    rng = random.Random(seed)
    while not state.done:
        legal = state.legal_actions()
        assert legal and legal == sorted(legal)
        buys = [a for a in legal if BUY <= a < RETURN]
        state.step(rng.choice(buys) if buys and rng.random() < 0.7 else rng.choice(legal))
        state.check_invariants()
    assert state.truncated or max(s.points for s in state.seats) >= 15
    assert len(state.scores) == state.turns == state.rounds * players
