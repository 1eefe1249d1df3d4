"""Rules of the Catan engine checked on hand-made positions: the rules people get wrong.

Positions are built with tests/catan_positions.py on a fixed board (see its docstring for the
hexes and harbors). Intersections and paths are named by index; the comments say where they are.
Long chains used by the longest-road tests run along the coast::

    CHAIN_TOP    3-0-4-1-5-2-6-10         7 roads along the top coast
    CHAIN_BOTTOM 53-49-52-48-51-47-43     6 roads along the bottom coast
    CHAIN_LEFT   11-16-21-27-33-38        5 roads along the left coast

A seat holding a settlement at 13 and roads 13-9-5 can cut CHAIN_TOP at 5 (leaving 4 + 3); one
holding a settlement at 12 and roads 12-8-4 can cut it at 4 (leaving 2 + 5).
"""

from __future__ import annotations

import random

import pytest
from catan_positions import (
    BRICK,
    GRAIN,
    LUMBER,
    ORE,
    WOOL,
    T,
    build,
    deal_dev,
    deck_top,
    force_dice,
    give,
    hand,
    hold_largest_army,
    hold_longest_road,
    new_game,
    path,
    played_knights,
    road_action,
    roads,
    roll,
    snapshot,
    trail_length,
    turn,
)

from ludolab.envs.catan import actions as A
from ludolab.envs.catan.engine import (
    DISCARD,
    GAME_OVER,
    KNIGHT,
    MAIN,
    MONOPOLY,
    MOVE_ROBBER,
    PRE_ROLL,
    ROAD_BUILDING,
    ROAD_BUILDING_CARD,
    SETUP_ROAD,
    SETUP_SETTLEMENT,
    STEAL,
    TRADE_CONFIRM,
    TRADE_RESPONSE,
    VICTORY_POINT,
    YEAR_OF_PLENTY,
    Game,
    IllegalActionError,
)

CHAIN_TOP = (3, 0, 4, 1, 5, 2, 6, 10)
CHAIN_BOTTOM = (53, 49, 52, 48, 51, 47, 43)
CHAIN_LEFT = (11, 16, 21, 27, 33, 38)
SETTLEMENT_CARDS = {"lumber": 1, "wool": 1, "grain": 1, "brick": 1}


def settle(game: Game, seat: int, v: int) -> None:
    """``seat`` pays for and builds a settlement at ``v`` through ``step`` (must be legal)."""
    give(game, seat, **SETTLEMENT_CARDS)
    game.step(A.SETTLEMENT + v)


def pave(game: Game, seat: int, nodes: tuple[int, ...]) -> None:
    """``seat`` pays for and builds roads along ``nodes`` through ``step`` (engine bookkeeping)."""
    for a, b in zip(nodes, nodes[1:], strict=False):
        give(game, seat, lumber=1, brick=1)
        game.step(road_action(a, b))


def pass_turn(game: Game, d1: int = 1, d2: int = 1) -> None:
    """End the turn of the seat on turn. The engine rolls for the next seat at once unless it
    could play a development card first (then it waits in pre-roll); that roll is ``d1 + d2``
    (default 2: only hex 14 produces)."""
    force_dice(game, d1, d2)
    game.step(A.END_TURN)


def dev_plays(legal: list[int]) -> list[int]:
    """The development-card plays among ``legal``."""
    return [
        a
        for a in legal
        if a in (A.PLAY_KNIGHT, A.PLAY_ROAD_BUILDING) or A.YEAR_OF_PLENTY <= a < A.MARITIME
    ]


def offers(legal: list[int]) -> list[int]:
    return [a for a in legal if A.OFFER <= a < A.ACCEPT_TRADE]


def kind(legal: list[int], start: int, stop: int) -> list[int]:
    """The actions of ``legal`` in ``range(start, stop)``, as offsets from ``start``."""
    return [a - start for a in legal if start <= a < stop]


# ============================================================================ setup


def drive_setup(game: Game, settlements: list[int]) -> list[int]:
    """Play the setup placing the given settlements in order (first legal road each time);
    return the seat that placed each settlement."""
    placers = []
    for v in settlements:
        assert game.phase == SETUP_SETTLEMENT
        placers.append(game.acting)
        game.step(A.SETTLEMENT + v)
        assert game.phase == SETUP_ROAD
        game.step(game.legal_actions()[0])
    return placers


def test_setup_snake_order_then_seat_0_rolls_first():
    game = new_game(4)
    force_dice(game, 1, 1)  # seat 0's first roll, made by the engine as the setup ends
    placers = drive_setup(game, [44, 0, 10, 20, 30, 38, 47, 50])
    assert placers == [0, 1, 2, 3, 3, 2, 1, 0]
    # Seat 0 holds no development card, so its turn starts rolled.
    assert (game.phase, game.current, game.acting, game.turns) == (MAIN, 0, 0, 0)
    assert game.dice == [2]
    assert game.settlements_left == [3, 3, 3, 3]
    assert game.roads_left == [13, 13, 13, 13]


def test_setup_only_second_settlement_yields_one_card_per_producing_hex():
    game = new_game(2)
    force_dice(game, 1, 1)  # the first roll (hex 14, where nobody settles)
    # Seat 0 first at 44 (grain 5, lumber 3, wool 8): nothing yet.
    drive_setup(game, [44])
    assert game.hand_size == [0, 0]
    # Seat 1 first at 0 (lumber), then second at 13 (wool 12, ore 6, lumber 5).
    drive_setup(game, [0, 13])
    assert hand(game, 1) == [1, 1, 0, 0, 1]
    # Seat 0 second at 24: lumber 5, the desert, ore 4 -> two cards, none for the desert.
    drive_setup(game, [24])
    assert hand(game, 0) == [1, 0, 0, 0, 1]
    assert game.bank == [17, 18, 19, 19, 17]


def test_setup_road_must_touch_the_settlement_just_placed():
    game = new_game(2)
    drive_setup(game, [44])
    game.step(A.SETTLEMENT + 0)  # seat 1's first settlement
    assert sorted(game.legal_actions()) == sorted(A.ROAD + e for e in T.node_paths[0])
    game.step(road_action(0, 3))
    game.step(A.SETTLEMENT + 13)  # seat 1's second settlement
    legal = game.legal_actions()
    assert sorted(legal) == sorted(A.ROAD + e for e in T.node_paths[13])
    # Extending the first road (next to seat 1's first settlement) is not allowed now.
    with pytest.raises(IllegalActionError):
        game.step(road_action(3, 7))
    assert road_action(13, 9) in legal


def test_setup_distance_rule():
    game = new_game(2)
    drive_setup(game, [44])
    legal = game.legal_actions()
    for v in (44, *T.node_neighbours[44]):  # 44 and 39, 40, 48
        assert A.SETTLEMENT + v not in legal
    assert A.SETTLEMENT + 35 in legal  # two paths away is fine
    with pytest.raises(IllegalActionError):
        game.step(A.SETTLEMENT + 40)


def test_distance_rule_in_play_also_against_own_settlement():
    game = new_game(2)
    build(game, 0, 44)
    roads(game, 0, (44, 40, 35))
    give(game, 0, **SETTLEMENT_CARDS)
    turn(game, 0)
    spots = kind(game.legal_actions(), A.SETTLEMENT, A.CITY)
    assert spots == [35]  # 40 is next to seat 0's own settlement at 44


# ============================================================================ production


def test_production_settlement_one_city_two():
    game = new_game(4)
    build(game, 0, 1)  # hex 1 only (wool 12)
    build(game, 1, 9, city=True)  # hexes 1, 2, 5
    turn(game, 0, PRE_ROLL)
    roll(game, 6, 6)
    assert game.phase == MAIN
    assert hand(game, 0) == [0, 1, 0, 0, 0]
    assert hand(game, 1) == [0, 2, 0, 0, 0]
    assert game.bank[WOOL] == 16


def test_robber_blocks_its_hex_only():
    game = new_game(4)
    build(game, 0, 9, city=True)  # hexes 1 (wool 12), 2 (grain 9), 5 (lumber 5)
    build(game, 1, 40)  # hexes 13 (grain 5), 14, 17
    game.robber = 5
    turn(game, 0, PRE_ROLL)
    roll(game, 2, 3)
    assert hand(game, 0) == [0, 0, 0, 0, 0]  # lumber 5 is under the robber
    assert hand(game, 1) == [0, 0, 1, 0, 0]  # grain 5 elsewhere still pays


def test_bank_shortage_several_seats_owed_nobody_paid_other_resources_paid():
    game = new_game(4)
    build(game, 0, 0)  # hex 0 (lumber 11)
    build(game, 1, 8, city=True)  # hexes 0, 1, 4
    build(game, 0, 34)  # hex 8 (brick 11), 12, 13
    give(game, 3, lumber=17)  # the bank keeps 2 lumber; 3 are owed (1 + 2)
    turn(game, 2, PRE_ROLL)
    roll(game, 5, 6)
    assert hand(game, 0) == [0, 0, 0, 1, 0]  # brick of the same roll is still paid
    assert hand(game, 1) == [0, 0, 0, 0, 0]
    assert game.bank[LUMBER] == 2


@pytest.mark.parametrize(
    ("city_at_0", "left"),
    [(False, 3), (True, 4), (True, 5)],  # owed 1 + 2 with 3 left; 2 + 2 with 4 or 5 left
)
def test_bank_with_enough_cards_pays_every_seat(city_at_0, left):
    game = new_game(4)
    build(game, 0, 0, city=city_at_0)  # hex 0 (lumber 11) is listed first: seat 0 is paid first
    build(game, 1, 8, city=True)
    give(game, 3, lumber=19 - left)
    turn(game, 2, PRE_ROLL)
    roll(game, 5, 6)
    owed = 2 if city_at_0 else 1
    assert (game.hands[0][LUMBER], game.hands[1][LUMBER]) == (owed, 2)
    assert game.bank[LUMBER] == left - owed - 2


def test_bank_with_twice_the_cards_owed_pays_every_seat():
    game = new_game(4)
    build(game, 0, 0, city=True)
    build(game, 1, 8, city=True)
    give(game, 3, lumber=13)  # 6 left, 4 owed
    turn(game, 2, PRE_ROLL)
    roll(game, 5, 6)
    assert (game.hands[0][LUMBER], game.hands[1][LUMBER], game.bank[LUMBER]) == (2, 2, 2)


def test_bank_shortage_single_seat_owed_gets_what_is_left():
    game = new_game(4)
    build(game, 1, 8, city=True)  # owed 2 lumber on an 11
    give(game, 3, lumber=18)  # 1 left
    turn(game, 2, PRE_ROLL)
    roll(game, 5, 6)
    assert game.hands[1][LUMBER] == 1
    assert game.bank[LUMBER] == 0


def test_bank_shortage_one_seat_with_two_buildings_is_one_seat():
    game = new_game(4)
    build(game, 1, 8, city=True)  # 2 lumber on an 11
    build(game, 1, 0)  # 1 more lumber
    give(game, 3, lumber=17)  # 2 left, 3 owed to seat 1 alone
    turn(game, 2, PRE_ROLL)
    roll(game, 5, 6)
    assert game.hands[1][LUMBER] == 2
    assert game.bank[LUMBER] == 0


# ============================================================================ the 7


def test_seven_discards_half_rounded_down_only_above_seven_in_order_from_roller():
    game = new_game(4)
    give(game, 0, lumber=7)  # 7 cards: keeps them all
    give(game, 1, wool=5, grain=3)  # 8 -> discards 4
    give(game, 3, brick=9)  # 9 -> discards 4
    give(game, 2, ore=10)  # the roller, 10 -> discards 5
    turn(game, 2, PRE_ROLL)
    roll(game, 3, 4)
    # Discards go in seat order starting from the roller: 2, 3, then 1 (0 keeps 7).
    assert (game.phase, game.acting) == (DISCARD, 2)
    assert [game.cards_to_discard(q) for q in range(4)] == [0, 4, 5, 4]
    for _ in range(5):
        game.step(A.DISCARD + ORE)
    assert game.acting == 3
    with pytest.raises(IllegalActionError):
        game.step(A.DISCARD + ORE)  # seat 3 holds no ore
    for _ in range(4):
        game.step(A.DISCARD + BRICK)
    assert game.acting == 1
    assert game.legal_actions() == [A.DISCARD + WOOL, A.DISCARD + GRAIN]
    for _ in range(3):
        game.step(A.DISCARD + WOOL)
    assert (game.phase, game.acting) == (DISCARD, 1)
    game.step(A.DISCARD + GRAIN)
    assert (game.phase, game.acting) == (MOVE_ROBBER, 2)
    assert game.hand_size == [7, 4, 5, 5]
    assert hand(game, 1) == [0, 2, 2, 0, 0]
    assert game.bank == [12, 17, 17, 14, 14]


def test_seven_with_nobody_over_seven_goes_straight_to_the_robber():
    game = new_game(4)
    give(game, 1, wool=7)
    turn(game, 0, PRE_ROLL)
    roll(game, 1, 6)
    assert (game.phase, game.acting) == (MOVE_ROBBER, 0)
    assert game.hand_size[1] == 7


def test_discard_limit_option():
    game = new_game(4, discard_limit=9)
    give(game, 1, wool=9)  # at the limit: keeps all
    give(game, 2, grain=10)  # above: discards 5
    turn(game, 0, PRE_ROLL)
    roll(game, 2, 5)
    assert (game.phase, game.acting) == (DISCARD, 2)
    for _ in range(5):
        game.step(A.DISCARD + GRAIN)
    assert game.phase == MOVE_ROBBER
    assert game.hand_size == [0, 9, 5, 0]


def test_discard_limit_zero_halves_every_hand_of_two_or_more():
    game = new_game(4, discard_limit=0)
    give(game, 1, wool=1)  # half of 1, rounded down, is nothing
    give(game, 2, grain=3)  # discards 1
    turn(game, 0, PRE_ROLL)
    roll(game, 2, 5)
    assert (game.phase, game.acting) == (DISCARD, 2)
    game.step(A.DISCARD + GRAIN)
    assert (game.phase, game.hand_size) == (MOVE_ROBBER, [0, 1, 2, 0])


def test_robber_must_move_to_another_hex():
    game = new_game(4)
    turn(game, 0, PRE_ROLL)
    roll(game, 3, 4)
    legal = game.legal_actions()
    assert legal == [A.ROBBER + h for h in range(19) if h != 9]
    with pytest.raises(IllegalActionError):
        game.step(A.ROBBER + 9)
    game.step(A.ROBBER + 4)
    assert (game.robber, game.phase) == (4, MAIN)


def test_steal_from_single_victim_is_automatic():
    game = new_game(4)
    build(game, 0, 9)  # seat 0's own settlement on hex 1 is not a victim
    build(game, 1, 1)  # hex 1
    give(game, 1, wool=3)
    give(game, 0, ore=1)
    turn(game, 0, MOVE_ROBBER)
    game.step(A.ROBBER + 1)
    assert game.phase == MAIN
    assert hand(game, 0) == [0, 1, 0, 0, 1]
    assert hand(game, 1) == [0, 2, 0, 0, 0]


def test_steal_choice_between_two_victims():
    game = new_game(4)
    build(game, 1, 1)  # hex 1
    build(game, 2, 9)  # hex 1
    build(game, 3, 44)  # not on hex 1
    give(game, 1, wool=2)
    give(game, 2, ore=3)
    give(game, 3, grain=4)
    turn(game, 0, MOVE_ROBBER)
    game.step(A.ROBBER + 1)
    assert (game.phase, game.acting) == (STEAL, 0)
    assert game.legal_actions() == [A.STEAL + 1, A.STEAL + 2]
    game.step(A.STEAL + 2)
    assert game.phase == MAIN
    assert hand(game, 0) == [0, 0, 0, 0, 1]
    assert hand(game, 2) == [0, 0, 0, 0, 2]
    assert hand(game, 1) == [0, 2, 0, 0, 0]


def test_victims_without_cards_are_not_offered():
    game = new_game(4)
    build(game, 1, 1)  # hex 1, no cards
    build(game, 2, 9)  # hex 1
    give(game, 2, ore=3)
    turn(game, 0, MOVE_ROBBER)
    game.step(A.ROBBER + 1)
    assert game.phase == MAIN  # one victim left: robbed at once
    assert hand(game, 0) == [0, 0, 0, 0, 1]


def test_robber_on_hex_whose_victims_have_no_cards_steals_nothing():
    game = new_game(4)
    build(game, 1, 1)
    build(game, 2, 9)
    turn(game, 0, MOVE_ROBBER)
    game.step(A.ROBBER + 1)
    assert game.phase == MAIN
    assert game.hand_size == [0, 0, 0, 0]


def test_knight_played_after_the_roll_returns_to_main():
    game = new_game(4)
    deal_dev(game, 0, KNIGHT)
    turn(game, 0, MAIN)
    game.step(A.PLAY_KNIGHT)
    assert game.phase == MOVE_ROBBER
    game.step(A.ROBBER + 0)
    assert game.phase == MAIN


@pytest.mark.parametrize("friendly", [False, True])
def test_friendly_robber_spares_seats_under_three_public_vp(friendly):
    game = new_game(4, friendly_robber=friendly)
    build(game, 0, 44)  # the roller's own hexes stay open: 13, 16, 17
    build(game, 1, 1)  # seat 1: 1 VP, on hex 1 only
    build(game, 2, 20)  # seat 2: 3 VP, on hexes 6, 11 (settlement) and 9, 10, 14 (city)
    build(game, 2, 30, city=True)
    turn(game, 0, MOVE_ROBBER)
    hexes = kind(game.legal_actions(), A.ROBBER, A.STEAL)
    assert (1 in hexes) is not friendly
    for h in (6, 11, 10, 14, 13, 16, 17):
        assert h in hexes


# ============================================================================ development cards


def test_card_bought_this_turn_is_playable_only_from_next_turn():
    game = new_game(2)
    give(game, 0, wool=1, grain=1, ore=1)
    deck_top(game, KNIGHT)
    turn(game, 0, MAIN)
    game.step(A.BUY_DEV)
    assert game.dev_hand[0][KNIGHT] == 1
    assert A.PLAY_KNIGHT not in game.legal_actions()
    pass_turn(game)  # seat 1 rolls at once (no cards) ...
    assert (game.current, game.phase) == (1, MAIN)
    pass_turn(game)  # ... and seat 0, holding a playable knight, is asked before its roll
    assert (game.current, game.phase) == (0, PRE_ROLL)
    assert game.legal_actions() == [A.ROLL, A.PLAY_KNIGHT]


def test_old_card_playable_when_a_new_one_of_the_same_kind_was_bought():
    game = new_game(2)
    deal_dev(game, 0, MONOPOLY)
    deal_dev(game, 0, MONOPOLY, new=True)
    deal_dev(game, 0, YEAR_OF_PLENTY, new=True)
    turn(game, 0, MAIN)
    plays = dev_plays(game.legal_actions())
    assert plays == list(range(A.MONOPOLY, A.MONOPOLY + 5))  # the new year of plenty: no


def test_only_one_development_card_per_turn():
    game = new_game(2)
    deal_dev(game, 0, KNIGHT, 2)
    deal_dev(game, 0, YEAR_OF_PLENTY)
    turn(game, 0, MAIN)
    game.step(A.year_of_plenty(LUMBER, ORE))
    assert dev_plays(game.legal_actions()) == []
    assert game.dev_hand[0][KNIGHT] == 2


def test_knight_before_the_roll_then_only_the_roll():
    game = new_game(2)
    deal_dev(game, 0, KNIGHT, 2)
    turn(game, 0, PRE_ROLL)
    assert game.legal_actions() == [A.ROLL, A.PLAY_KNIGHT]
    game.step(A.PLAY_KNIGHT)
    assert game.phase == MOVE_ROBBER
    game.step(A.ROBBER + 4)
    assert (game.phase, game.robber) == (PRE_ROLL, 4)
    assert game.legal_actions() == [A.ROLL]  # second knight must wait for another turn
    roll(game, 2, 2)
    assert A.PLAY_KNIGHT not in game.legal_actions()
    assert (game.dev_played[0][KNIGHT], game.dev_hand[0][KNIGHT]) == (1, 1)


def test_knight_before_the_roll_with_a_steal_choice_returns_to_the_roll():
    game = new_game(4)
    build(game, 1, 1)
    build(game, 2, 9)
    give(game, 1, wool=1)
    give(game, 2, ore=1)
    deal_dev(game, 0, KNIGHT)
    turn(game, 0, PRE_ROLL)
    game.step(A.PLAY_KNIGHT)
    game.step(A.ROBBER + 1)
    assert game.phase == STEAL
    game.step(A.STEAL + 1)
    assert (game.phase, game.acting, hand(game, 0)) == (PRE_ROLL, 0, [0, 1, 0, 0, 0])
    assert game.legal_actions() == [A.ROLL]


def test_road_building_before_the_roll_returns_to_the_roll():
    game = new_game(2)
    build(game, 0, 44)
    deal_dev(game, 0, ROAD_BUILDING_CARD)
    turn(game, 0, PRE_ROLL)
    game.step(A.PLAY_ROAD_BUILDING)
    game.step(road_action(44, 48))
    game.step(road_action(48, 51))
    assert (game.phase, game.legal_actions()) == (PRE_ROLL, [A.ROLL])


def test_no_development_card_to_buy_from_an_empty_deck():
    game = new_game(2)
    give(game, 0, wool=2, grain=2, ore=2)
    turn(game, 0)
    assert A.BUY_DEV in game.legal_actions()
    game.dev_hand[1] = [14, 5, 2, 2, 1]  # seat 1 holds 24 of the 25 cards
    game.dev_deck = [MONOPOLY]
    turn(game, 0)
    game.step(A.BUY_DEV)
    assert game.dev_deck == []
    assert A.BUY_DEV not in game.legal_actions()


def test_road_building_places_two_free_roads():
    game = new_game(2)
    build(game, 0, 44)
    roads(game, 0, (44, 48))
    deal_dev(game, 0, ROAD_BUILDING_CARD)
    turn(game, 0, MAIN)
    bank = list(game.bank)
    game.step(A.PLAY_ROAD_BUILDING)
    assert game.phase == ROAD_BUILDING
    assert sorted(kind(game.legal_actions(), A.ROAD, A.ROBBER)) == game.road_spots(0)
    game.step(road_action(48, 51))
    assert game.phase == ROAD_BUILDING
    game.step(road_action(51, 47))
    assert game.phase == MAIN
    assert game.roads_left[0] == 12
    assert game.road_length[0] == 3
    assert game.bank == bank and game.hand_size[0] == 0


def test_road_building_with_one_road_left_places_one():
    game = new_game(2)
    build(game, 0, 3)
    roads(game, 0, (3, 0, 4, 1, 5, 2, 6, 10, 15, 20, 26, 32, 37, 42, 46))  # 14 roads
    hold_longest_road(game, 0)
    deal_dev(game, 0, ROAD_BUILDING_CARD)
    turn(game, 0, MAIN)
    game.step(A.PLAY_ROAD_BUILDING)
    game.step(road_action(46, 50))
    assert (game.phase, game.roads_left[0]) == (MAIN, 0)


def test_year_of_plenty_takes_two_cards_the_bank_can_pay():
    game = new_game(2)
    deal_dev(game, 0, YEAR_OF_PLENTY)
    give(game, 1, grain=18)  # 1 grain left in the bank
    turn(game, 0, MAIN)
    legal = game.legal_actions()
    assert A.year_of_plenty(GRAIN, GRAIN) not in legal
    assert A.year_of_plenty(GRAIN, ORE) in legal
    game.step(A.year_of_plenty(ORE, LUMBER))
    assert hand(game, 0) == [1, 0, 0, 0, 1]
    assert game.bank == [18, 19, 1, 19, 18]


def test_monopoly_takes_every_card_of_that_resource_from_every_opponent():
    game = new_game(4)
    deal_dev(game, 0, MONOPOLY)
    give(game, 0, ore=1)
    give(game, 1, ore=2, wool=3)
    give(game, 3, ore=3)
    turn(game, 0, MAIN)
    bank = list(game.bank)
    game.step(A.MONOPOLY + ORE)
    assert hand(game, 0) == [0, 0, 0, 0, 6]
    assert hand(game, 1) == [0, 3, 0, 0, 0]
    assert hand(game, 3) == [0, 0, 0, 0, 0]
    assert game.hand_size == [6, 3, 0, 0]
    assert game.bank == bank


def test_victory_point_card_counts_at_once_and_wins_on_own_turn():
    game = new_game(4)
    build(game, 0, 0, 10, 20, 30, city=True)  # 8 VP
    build(game, 0, 44)  # 9 VP
    give(game, 0, wool=1, grain=1, ore=1)
    deck_top(game, VICTORY_POINT)
    turn(game, 0, MAIN)
    game.step(A.BUY_DEV)
    assert (game.vp_public[0], game.victory_points(0)) == (9, 10)
    assert (game.phase, game.winner) == (GAME_OVER, 0)


def test_victory_point_card_held_counts_at_start_of_own_turn():
    game = new_game(2)
    build(game, 0, 0, 10, 20, 30, city=True)
    build(game, 0, 44)
    deal_dev(game, 0, VICTORY_POINT)
    turn(game, 1, MAIN)
    assert game.winner is None  # seat 0 holds 10 but it is seat 1's turn
    pass_turn(game)
    assert (game.phase, game.winner) == (GAME_OVER, 0)


# ============================================================================ largest army


def test_third_knight_takes_largest_army():
    game = new_game(2)
    played_knights(game, 0, 2)
    deal_dev(game, 0, KNIGHT)
    turn(game, 0, MAIN)
    game.step(A.PLAY_KNIGHT)
    assert (game.largest_army, game.vp_public[0]) == (0, 2)


def test_largest_army_tie_does_not_take_strictly_more_does():
    game = new_game(2)
    played_knights(game, 0, 3)
    hold_largest_army(game, 0)
    played_knights(game, 1, 2)
    deal_dev(game, 1, KNIGHT, 2)
    turn(game, 1, PRE_ROLL)
    game.step(A.PLAY_KNIGHT)  # 3 against 3
    game.step(A.ROBBER + 0)
    assert (game.largest_army, game.vp_public) == (0, [2, 0])
    roll(game, 1, 1)
    pass_turn(game)  # seat 0
    pass_turn(game)  # seat 1 again, in pre-roll with its second knight
    game.step(A.PLAY_KNIGHT)  # 4 against 3
    assert (game.largest_army, game.vp_public) == (1, [0, 2])


# ============================================================================ longest road


def test_fifth_road_takes_longest_road():
    game = new_game(2)
    build(game, 0, 3)
    roads(game, 0, CHAIN_TOP[:5])  # 4 roads
    turn(game, 0)
    assert game.longest_road == -1
    pave(game, 0, CHAIN_TOP[4:6])
    assert (game.road_length[0], game.longest_road, game.vp_public[0]) == (5, 0, 3)


def test_longest_road_tie_keeps_holder_strictly_longer_takes():
    game = new_game(2)
    build(game, 0, 3)
    roads(game, 0, CHAIN_TOP[:6])  # 5 roads
    hold_longest_road(game, 0)
    build(game, 1, 53)
    roads(game, 1, CHAIN_BOTTOM[:5])  # 4 roads
    turn(game, 1)
    pave(game, 1, CHAIN_BOTTOM[4:6])  # 5: a tie
    assert (game.road_length[1], game.longest_road) == (5, 0)
    pave(game, 1, CHAIN_BOTTOM[5:7])  # 6: strictly longer
    assert (game.longest_road, game.vp_public) == (1, [1, 3])


def cut_position(holder_chain: tuple[int, ...], cut_at: int, **options: object) -> Game:
    """Seat 0 holds the longest road along ``holder_chain`` (settlement at its start); seat 1
    is on turn, ready to cut CHAIN_TOP at ``cut_at`` (5 or 4) with a paid-for settlement."""
    game = new_game(4, **options)
    build(game, 0, holder_chain[0])
    roads(game, 0, holder_chain)
    hold_longest_road(game, 0)
    start = {5: 13, 4: 12}[cut_at]
    build(game, 1, start)
    roads(game, 1, (start, {5: 9, 4: 8}[cut_at], cut_at))
    give(game, 1, **SETTLEMENT_CARDS)
    return game


def test_cut_holder_falls_behind_single_longest_takes():
    game = cut_position(CHAIN_TOP, cut_at=5)
    build(game, 2, 53)
    roads(game, 2, CHAIN_BOTTOM)  # 6 roads, shorter than seat 0's 7
    turn(game, 1)
    game.step(A.SETTLEMENT + 5)
    assert game.road_length[:3] == [4, 2, 6]
    assert game.longest_road == 2
    assert game.vp_public[:3] == [1, 2, 3]


def test_cut_holder_falls_to_a_tie_set_aside_with_the_old_reading():
    game = cut_position(CHAIN_TOP, cut_at=4, cut_holder_keeps_ties=False)
    build(game, 2, 53)
    roads(game, 2, CHAIN_BOTTOM[:6])  # 5 roads
    turn(game, 1)
    game.step(A.SETTLEMENT + 4)
    assert game.road_length[:3] == [5, 2, 5]
    assert game.longest_road == -1  # shared longest, old holder included: set aside
    assert game.vp_public[:3] == [1, 2, 1]
    # While set aside, the first single longest road of 5+ takes the card.
    turn(game, 2)
    pave(game, 2, CHAIN_BOTTOM[5:7])
    assert (game.longest_road, game.vp_public[:3]) == (2, [1, 2, 3])


def test_cut_holder_left_tied_keeps_the_card():
    """The almanac: a holder whose road is broken but who is still tied for the longest keeps
    the card (the default)."""
    game = cut_position(CHAIN_TOP, cut_at=4)
    build(game, 2, 53)
    roads(game, 2, CHAIN_BOTTOM[:6])  # 5 roads
    turn(game, 1)
    game.step(A.SETTLEMENT + 4)
    assert game.road_length[:3] == [5, 2, 5]
    assert game.longest_road == 0
    assert game.vp_public[:3] == [3, 2, 1]


@pytest.mark.parametrize("keeps_ties", [True, False])
def test_cutting_a_spur_of_the_holder_changes_nothing(keeps_ties: bool):
    """Seat 0 holds the card with 6 roads (3..6 along the top) plus a spur 5-9-14, tied with
    seat 2's 6 roads. Seat 1's settlement at 9 cuts the spur, not the longest road: the card
    stays, whatever the tie reading (the engine used to set it aside)."""
    game = new_game(4, cut_holder_keeps_ties=keeps_ties)
    build(game, 0, 3)
    roads(game, 0, CHAIN_TOP[:7])  # 6 roads
    roads(game, 0, (5, 9, 14))  # the spur
    hold_longest_road(game, 0)
    build(game, 2, 53)
    roads(game, 2, CHAIN_BOTTOM)  # 6 roads: tied
    build(game, 1, 18)
    roads(game, 1, (18, 13, 9))
    give(game, 1, **SETTLEMENT_CARDS)
    assert game.road_length[:3] == [6, 2, 6]
    turn(game, 1)
    game.step(A.SETTLEMENT + 9)
    assert game.road_length[:3] == [6, 2, 6]
    assert game.longest_road == 0
    assert game.vp_public[:3] == [3, 2, 1]


def test_cut_holder_falls_behind_a_tie_between_others_card_set_aside():
    game = cut_position(CHAIN_TOP, cut_at=5)
    build(game, 2, 53)
    roads(game, 2, CHAIN_BOTTOM[:6])  # 5 roads
    build(game, 3, 11)
    roads(game, 3, CHAIN_LEFT)  # 5 roads
    turn(game, 1)
    game.step(A.SETTLEMENT + 5)
    assert game.road_length == [4, 2, 5, 5]
    assert game.longest_road == -1
    assert game.vp_public == [1, 2, 1, 1]


def test_cut_with_nobody_at_five_card_set_aside():
    game = cut_position(CHAIN_TOP, cut_at=5)
    build(game, 2, 53)
    roads(game, 2, CHAIN_BOTTOM[:5])  # 4 roads: as long as seat 0's longest piece
    turn(game, 1)
    game.step(A.SETTLEMENT + 5)
    assert game.road_length[0] == 4
    assert (game.longest_road, game.vp_public[0]) == (-1, 1)


def test_cut_holder_still_single_longest_keeps_the_card():
    game = cut_position(CHAIN_TOP + (15, 20, 26), cut_at=5)  # 10 roads, cut into 4 + 6
    build(game, 2, 53)
    roads(game, 2, CHAIN_BOTTOM[:6])  # 5 roads
    turn(game, 1)
    game.step(A.SETTLEMENT + 5)
    assert (game.road_length[0], game.longest_road, game.vp_public[0]) == (6, 0, 3)


def test_own_settlement_does_not_cut_own_road():
    game = new_game(2)
    build(game, 0, 3)
    roads(game, 0, CHAIN_TOP)
    hold_longest_road(game, 0)
    turn(game, 0)
    settle(game, 0, 5)
    assert (game.road_length[0], game.longest_road, game.vp_public[0]) == (7, 0, 4)


def test_branching_network_counts_its_longest_trail():
    game = new_game(2)
    build(game, 0, 8)
    roads(game, 0, (8, 13, 18, 24, 19))  # 4 roads
    turn(game, 0)
    pave(game, 0, (19, 14))  # trunk 8..24 then 24-19-14: 5
    pave(game, 0, (24, 30, 35))  # a second branch at 24: 7 roads in a Y
    assert game.roads_left[0] == 8
    assert game.road_length[0] == 5


def test_cycle_of_six_counts_six():
    game = new_game(2)
    build(game, 0, 18)
    roads(game, 0, (18, 24, 30, 35, 29))  # 4 roads around the desert
    turn(game, 0)
    pave(game, 0, (29, 23, 18))  # closes the ring of hex 9
    assert game.road_length[0] == 6
    assert game.longest_road == 0


def test_cycle_with_a_tail_is_walked_whole():
    game = new_game(2)
    build(game, 0, 18)
    roads(game, 0, (18, 24, 30, 35, 29))
    turn(game, 0)
    pave(game, 0, (29, 23, 18, 13, 8))  # ring of 6 plus a tail of 2 at 18
    assert game.road_length[0] == 8


def test_two_rings_sharing_a_path_make_one_trail_of_all_eleven_roads():
    game = new_game(2)
    build(game, 0, 18)
    roads(game, 0, (18, 24, 30, 35, 29))
    turn(game, 0)
    # Ring of hex 9 (18-24-30-35-29-23-18) and of hex 10 (24-19-25-31-36-30), sharing 24-30.
    pave(game, 0, (29, 23, 18))
    pave(game, 0, (24, 19, 25, 31, 36, 30))
    assert game.road_length[0] == 11


def test_road_through_an_opponent_settlement_is_broken_there():
    game = new_game(2)
    build(game, 0, 3)
    roads(game, 0, CHAIN_TOP)
    build(game, 1, 5)  # already standing in the middle of the chain: 4 + 3
    turn(game, 0)
    assert game.road_length[0] == 4
    pave(game, 0, (10, 15))  # extends the far piece to 4: still 4
    assert game.road_length[0] == 4
    pave(game, 0, (15, 20))
    assert (game.road_length[0], game.longest_road) == (5, 0)


def test_longest_trail_matches_brute_force_on_random_networks():
    """The engine's trail search against an exhaustive one, on random networks that grow from
    one node, with opponents' buildings dropped on some of their nodes."""
    rng = random.Random(7)
    for _ in range(400):
        game = new_game(2)
        nodes = {rng.randrange(54)}
        for _ in range(rng.randint(1, 15)):
            frontier = [e for v in nodes for e in T.node_paths[v] if game.road_owner[e] < 0]
            e = rng.choice(frontier)
            game.road_owner[e] = 0
            game.roads_of[0].append(e)
            game._link_road(0, e)
            nodes.update(T.path_nodes[e])
        for v in rng.sample(sorted(nodes), k=rng.randint(0, 2)):
            game.owner[v], game.building[v] = 1, 1
        assert game._longest_road(0) == trail_length(game, 0), sorted(game.roads_of[0])


def test_road_length_matches_brute_force_while_networks_grow_through_play():
    """Random legal roads built through ``step`` (the engine's incremental update) among
    opponents' settlements; after every road the cached length equals an exhaustive search."""
    rng = random.Random(11)
    for _ in range(100):
        game = new_game(2)
        spots = list(range(54))
        rng.shuffle(spots)
        home = spots.pop()
        build(game, 0, home)
        for v in spots[:12]:  # opponents' settlements wherever the distance rule allows
            free = game.owner[v] < 0 and all(game.owner[w] < 0 for w in T.node_neighbours[v])
            if free and game.settlements_left[1]:
                build(game, 1, v)
        turn(game, 0)
        for _ in range(15):
            give(game, 0, lumber=1, brick=1)
            choices = kind(game.legal_actions(), A.ROAD, A.ROBBER)
            if not choices:
                break
            game.step(A.ROAD + rng.choice(choices))
            assert game.road_length[0] == trail_length(game, 0), sorted(game.roads_of[0])
            if game.longest_road != 0 and game.road_length[0] >= 5:
                raise AssertionError("the only road of 5+ does not hold the card")


# ============================================================================ building


def test_costs_are_paid_to_the_bank():
    game = new_game(2)
    build(game, 0, 44)
    roads(game, 0, (44, 48))
    give(game, 0, lumber=2, wool=2, grain=4, brick=2, ore=4)
    turn(game, 0)
    steps = [
        (road_action(48, 51), [1, 0, 0, 1, 0]),
        (A.SETTLEMENT + 51, [1, 1, 1, 1, 0]),
        (A.CITY + 44, [0, 0, 2, 0, 3]),
        (A.BUY_DEV, [0, 1, 1, 0, 1]),
    ]
    for action, cost in steps:
        before_hand, before_bank = hand(game, 0), list(game.bank)
        game.step(action)
        assert [b - a for a, b in zip(hand(game, 0), before_hand, strict=True)] == cost
        assert [a - b for a, b in zip(game.bank, before_bank, strict=True)] == cost
    assert hand(game, 0) == [0, 0, 0, 0, 0]


def test_settlement_limit_five():
    game = new_game(2)
    build(game, 0, 0, 10, 20, 44)
    roads(game, 0, (44, 48, 51))
    roads(game, 0, (48, 52))
    turn(game, 0)
    settle(game, 0, 51)  # the fifth
    give(game, 0, **SETTLEMENT_CARDS)
    assert 52 in game.settlement_spots(0)
    assert game.settlements_left[0] == 0
    assert kind(game.legal_actions(), A.SETTLEMENT, A.CITY) == []


def test_city_limit_four():
    game = new_game(2)
    build(game, 0, 0, 10, 20, city=True)
    build(game, 0, 30, 44)
    give(game, 0, grain=4, ore=6)
    turn(game, 0)
    assert kind(game.legal_actions(), A.CITY, A.ROAD) == [30, 44]
    game.step(A.CITY + 30)  # the fourth
    assert game.cities_left[0] == 0
    assert kind(game.legal_actions(), A.CITY, A.ROAD) == []


def test_road_limit_fifteen():
    game = new_game(2)
    build(game, 0, 3)
    chain = (3, 0, 4, 1, 5, 2, 6, 10, 15, 20, 26, 32, 37, 42, 46, 50)  # 15 roads
    roads(game, 0, chain)
    hold_longest_road(game, 0)
    give(game, 0, lumber=1, brick=1)
    deal_dev(game, 0, ROAD_BUILDING_CARD)
    turn(game, 0)
    assert game.roads_left[0] == 0
    legal = game.legal_actions()
    assert kind(legal, A.ROAD, A.ROBBER) == []
    assert A.PLAY_ROAD_BUILDING not in legal


def test_city_only_on_own_settlement_and_returns_the_settlement_piece():
    game = new_game(2)
    build(game, 0, 44)
    roads(game, 0, (44, 40, 35))
    build(game, 1, 35)  # in seat 0's network, but not seat 0's
    give(game, 0, grain=2, ore=3)
    turn(game, 0)
    assert kind(game.legal_actions(), A.CITY, A.ROAD) == [44]
    game.step(A.CITY + 44)
    assert (game.building[44], game.owner[44]) == (2, 0)
    assert (game.settlements_left[0], game.cities_left[0], game.vp_public[0]) == (5, 3, 2)


def test_roads_connect_and_do_not_pass_an_opponent_building():
    game = new_game(2)
    build(game, 0, 44)
    roads(game, 0, (44, 40, 35))
    build(game, 1, 35)  # seat 1's settlement now stands at the end of seat 0's road
    give(game, 0, lumber=1, brick=1)
    turn(game, 0)
    spots = kind(game.legal_actions(), A.ROAD, A.ROBBER)
    assert sorted(spots) == sorted(
        [path(44, 39), path(44, 48), path(40, 45)]
    )  # not 35-29 or 35-30 past seat 1, nothing unconnected


# ============================================================================ maritime trade


def maritime_gives(game: Game) -> set[tuple[int, int]]:
    """(give, get) pairs of the legal maritime trades."""
    legal = game.legal_actions()
    return {A.TRADE_PAIRS[a - A.MARITIME] for a in legal if A.MARITIME <= a < A.OFFER}


def test_maritime_four_to_one_by_default():
    game = new_game(2)
    build(game, 0, 44)
    give(game, 0, lumber=3)
    turn(game, 0)
    assert maritime_gives(game) == set()
    give(game, 0, lumber=1)
    assert maritime_gives(game) == {(LUMBER, r) for r in (WOOL, GRAIN, BRICK, ORE)}
    game.step(A.maritime(LUMBER, ORE))
    assert hand(game, 0) == [0, 0, 0, 0, 1]
    assert game.bank == [19, 19, 19, 19, 18]


def test_maritime_three_to_one_at_a_generic_harbor():
    game = new_game(2)
    build(game, 0, 7)
    roads(game, 0, (7, 3, 0))
    turn(game, 0)
    settle(game, 0, 0)  # generic harbor on 0-3
    give(game, 0, wool=3, ore=2)
    assert game.rates[0] == [3, 3, 3, 3, 3]
    assert {give for give, _ in maritime_gives(game)} == {WOOL}
    game.step(A.maritime(WOOL, BRICK))
    assert hand(game, 0) == [0, 0, 0, 1, 2]


def test_maritime_two_to_one_only_for_the_harbor_resource():
    game = new_game(2)
    build(game, 0, 13)
    roads(game, 0, (13, 9, 5))
    turn(game, 0)
    settle(game, 0, 5)  # lumber harbor on 1-5
    give(game, 0, lumber=2, wool=3)
    assert game.rates[0] == [2, 4, 4, 4, 4]
    assert {give for give, _ in maritime_gives(game)} == {LUMBER}
    game.step(A.maritime(LUMBER, GRAIN))
    assert hand(game, 0) == [0, 3, 1, 0, 0]


def test_maritime_bank_must_have_the_card():
    game = new_game(2)
    build(game, 0, 44)
    give(game, 0, lumber=4)
    give(game, 1, ore=19)
    turn(game, 0)
    gives = maritime_gives(game)
    assert (LUMBER, ORE) not in gives
    assert (LUMBER, GRAIN) in gives


# ============================================================================ domestic trade


def test_domestic_trade_offer_responses_in_order_and_confirm():
    game = new_game(4)
    give(game, 0, lumber=2)
    give(game, 2, ore=1)
    give(game, 3, ore=2)
    turn(game, 0)
    game.step(A.offer(LUMBER, 1, ORE))
    # Every other seat is asked in turn order; seat 1 holds no ore, so it can only decline.
    assert (game.phase, game.acting) == (TRADE_RESPONSE, 1)
    assert game.legal_actions() == [A.DECLINE_TRADE] and game.forced_action() == A.DECLINE_TRADE
    with pytest.raises(IllegalActionError):
        game.step(A.ACCEPT_TRADE)
    game.step(A.DECLINE_TRADE)
    assert (game.phase, game.acting) == (TRADE_RESPONSE, 2)
    assert game.legal_actions() == [A.ACCEPT_TRADE, A.DECLINE_TRADE]
    assert game.forced_action() == -1
    game.step(A.ACCEPT_TRADE)
    assert game.acting == 3
    game.step(A.ACCEPT_TRADE)
    assert (game.phase, game.acting) == (TRADE_CONFIRM, 0)
    assert game.legal_actions() == [A.CONFIRM_TRADE + 2, A.CONFIRM_TRADE + 3, A.CANCEL_TRADE]
    game.step(A.CONFIRM_TRADE + 3)
    assert (game.phase, game.acting) == (MAIN, 0)
    assert hand(game, 0) == [1, 0, 0, 0, 1]
    assert hand(game, 3) == [1, 0, 0, 0, 1]
    assert hand(game, 2) == [0, 0, 0, 0, 1]
    assert game.hand_size == [2, 0, 1, 2]
    assert game.domestic_trades == 1


def test_domestic_trade_responders_start_after_the_offerer_and_may_all_decline():
    game = new_game(4)
    give(game, 2, wool=2)
    for seat in (0, 1, 3):
        give(game, seat, grain=1)
    turn(game, 2)
    game.step(A.offer(WOOL, 2, GRAIN))
    seen = []
    while game.phase == TRADE_RESPONSE:
        seen.append(game.acting)
        game.step(A.DECLINE_TRADE)
    assert seen == [3, 0, 1]
    assert (game.phase, game.acting) == (MAIN, 2)  # nobody accepted: no confirm step
    assert hand(game, 2) == [0, 2, 0, 0, 0]


def test_an_offer_nobody_can_accept_still_asks_every_seat():
    """Who is asked must not reveal who holds the card (the PettingZoo face selects every asked
    seat): with no ore anywhere, all three other seats are still asked, and can only decline."""
    game = new_game(4)
    give(game, 0, wool=1)
    turn(game, 0)
    before = [hand(game, q) for q in range(4)]
    game.step(A.offer(WOOL, 1, ORE))
    asked = []
    while game.phase == TRADE_RESPONSE:
        asked.append(game.acting)
        assert game.legal_actions() == [A.DECLINE_TRADE]
        game.step(game.forced_action())
    assert asked == [1, 2, 3]
    assert (game.phase, game.acting) == (MAIN, 0)
    assert [hand(game, q) for q in range(4)] == before


def test_the_pettingzoo_face_selects_every_asked_seat():
    from ludolab.envs.catan.aec_env import raw_env

    env = raw_env(n_players=3)
    env.reset(seed=1)
    game = env.game
    for seat in range(3):  # past the setup: a main-phase position made by hand
        game.hands[seat] = [0] * 5
    game.hand_size = [0, 0, 0]
    turn(game, 0)
    give(game, 0, wool=1)
    give(game, 2, ore=1)
    env.agent_selection = "player_0"
    env.step(A.offer(WOOL, 1, ORE))
    selected = []
    while game.phase == TRADE_RESPONSE:
        selected.append(env.agent_selection)
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(A.DECLINE_TRADE if mask[A.DECLINE_TRADE] and not mask[A.ACCEPT_TRADE] else
                 A.ACCEPT_TRADE)
    assert selected == ["player_1", "player_2"]  # player_1 has no ore and is asked all the same


def test_domestic_trade_two_for_one_and_cancel():
    game = new_game(2)
    give(game, 0, wool=2)
    give(game, 1, brick=1)
    turn(game, 0)
    game.step(A.offer(WOOL, 2, BRICK))
    game.step(A.ACCEPT_TRADE)
    game.step(A.CANCEL_TRADE)
    assert (game.phase, hand(game, 0), hand(game, 1)) == (MAIN, [0, 2, 0, 0, 0], [0, 0, 0, 1, 0])
    game.step(A.offer(WOOL, 2, BRICK))
    game.step(A.ACCEPT_TRADE)
    game.step(A.CONFIRM_TRADE + 1)
    assert (hand(game, 0), hand(game, 1)) == ([0, 0, 0, 1, 0], [0, 2, 0, 0, 0])


def test_offer_needs_the_cards_offered():
    game = new_game(2)
    give(game, 0, wool=1)
    turn(game, 0)
    legal = game.legal_actions()
    assert A.offer(WOOL, 1, BRICK) in legal
    assert A.offer(WOOL, 2, BRICK) not in legal
    assert {A.OFFERS[a - A.OFFER][0] for a in offers(legal)} == {WOOL}


def test_trade_offers_per_turn_cap_and_reset():
    game = new_game(2)
    give(game, 0, wool=2)
    give(game, 1, wool=2, ore=1)
    turn(game, 0)
    for _ in range(2):
        game.step(A.offer(WOOL, 1, ORE))
        game.step(A.DECLINE_TRADE)
    assert offers(game.legal_actions()) == []
    pass_turn(game)
    assert (game.current, game.phase) == (1, MAIN)
    assert offers(game.legal_actions()) != []  # seat 1's turn: a fresh allowance


def test_trade_offers_disabled():
    game = new_game(2, trade_offers_per_turn=0)
    give(game, 0, wool=2)
    turn(game, 0)
    assert offers(game.legal_actions()) == []


# ============================================================================ winning


def test_reaching_ten_on_own_turn_ends_the_game_at_once():
    game = new_game(4)
    build(game, 0, 0, 10, 20, 30, city=True)
    build(game, 0, 44)
    roads(game, 0, (44, 48, 51))
    turn(game, 0)
    settle(game, 0, 51)
    assert (game.phase, game.winner, game.truncated) == (GAME_OVER, 0, False)
    assert game.legal_actions() == []
    with pytest.raises(IllegalActionError, match="game is over"):
        game.step(A.END_TURN)


def test_third_knight_before_the_roll_can_win():
    game = new_game(2)
    build(game, 0, 0, 10, 20, 30, city=True)  # 8 VP
    played_knights(game, 0, 2)
    deal_dev(game, 0, KNIGHT)
    turn(game, 0, PRE_ROLL)
    game.step(A.PLAY_KNIGHT)
    assert (game.phase, game.winner) == (GAME_OVER, 0)


def ten_points_on_seat_3s_turn() -> Game:
    """Seat 3 cuts seat 2's longest road (7) on its own turn; the card passes to seat 1 (road of
    6, four cities), who then holds 10 VP. Seat 0 plays between seat 3 and seat 1."""
    game = new_game(4)
    build(game, 2, 3)
    roads(game, 2, CHAIN_TOP)
    hold_longest_road(game, 2)
    build(game, 1, 23, 25, 35, 45, city=True)
    roads(game, 1, CHAIN_BOTTOM)
    build(game, 3, 13)
    roads(game, 3, (13, 9, 5))
    give(game, 3, **SETTLEMENT_CARDS)
    turn(game, 3)
    game.step(A.SETTLEMENT + 5)
    return game


def test_ten_points_on_another_seats_turn_win_only_at_the_start_of_own_turn():
    game = ten_points_on_seat_3s_turn()
    assert (game.longest_road, game.victory_points(1)) == (1, 10)
    assert (game.phase, game.winner) == (MAIN, None)
    pass_turn(game)
    assert (game.current, game.phase, game.winner) == (0, MAIN, None)  # seat 0 plays first
    pass_turn(game)
    assert (game.current, game.phase, game.winner) == (1, GAME_OVER, 1)


def test_win_at_start_of_own_turn_comes_before_the_roll():
    game = ten_points_on_seat_3s_turn()
    pass_turn(game)  # seat 0 rolls (1 roll so far)
    force_dice(game, 3, 4)
    game.step(A.END_TURN)  # seat 1's turn begins: it has won; no dice should be rolled
    assert game.winner == 1
    assert game.dice == [2]
    assert game.sevens == 0


def test_vp_to_win_option():
    for target, over in ((6, True), (10, False)):
        game = new_game(2, vp_to_win=target)
        build(game, 0, 0, 10, city=True)
        build(game, 0, 44)  # 5 VP
        roads(game, 0, (44, 48, 51))
        turn(game, 0)
        settle(game, 0, 51)  # 6 VP
        assert (game.phase == GAME_OVER) is over
        assert game.winner == (0 if over else None)


def test_turn_limit_truncates_without_a_winner():
    game = new_game(2, turn_limit=3)
    turn(game, 0, MAIN)
    pass_turn(game)
    pass_turn(game)
    assert (game.phase, game.current, game.turns) == (MAIN, 0, 2)
    game.step(A.END_TURN)
    assert (game.phase, game.truncated, game.winner, game.turns) == (GAME_OVER, True, None, 3)
    with pytest.raises(IllegalActionError, match="game is over"):
        game.step(A.END_TURN)


# ============================================================================ illegal actions


@pytest.mark.parametrize(
    ("phase", "action", "words"),
    [
        (PRE_ROLL, A.END_TURN, ("end-turn", "pre-roll")),
        (MAIN, A.ROLL, ("roll", "main")),
        (MAIN, A.ROAD + 0, ("build-road(0)", "main")),
        (MAIN, A.BUY_DEV, ("buy-development-card", "main")),
        (MAIN, A.maritime(LUMBER, ORE), ("maritime(lumber->ore)", "main")),
        (MAIN, 10_000, ("10000", "main")),
        (MAIN, -1, ("-1", "main")),
    ],
)
def test_illegal_action_raises_names_action_and_phase_and_changes_nothing(phase, action, words):
    game = new_game(2)
    build(game, 0, 44)
    roads(game, 0, (44, 48))
    give(game, 0, lumber=3)
    turn(game, 0, phase)
    before = snapshot(game)
    with pytest.raises(IllegalActionError) as err:
        game.step(action)
    for word in words:
        assert word in str(err.value)
    assert snapshot(game) == before


def test_illegal_action_in_setup_and_discard_changes_nothing():
    game = new_game(2)
    game.step(A.SETTLEMENT + 44)
    before = snapshot(game)
    with pytest.raises(IllegalActionError, match="setup-road"):
        game.step(road_action(0, 3))
    assert snapshot(game) == before

    game = new_game(2)
    give(game, 1, ore=8)
    turn(game, 0, PRE_ROLL)
    roll(game, 3, 4)
    assert (game.phase, game.acting) == (DISCARD, 1)
    before = snapshot(game)
    with pytest.raises(IllegalActionError, match="discard"):
        game.step(A.DISCARD + WOOL)
    assert snapshot(game) == before


def test_non_integer_action_is_refused_before_anything_changes():
    game = new_game(2, debug=False)
    build(game, 0, 44)
    give(game, 0, lumber=1, brick=1)
    turn(game, 0)
    before = snapshot(game)
    with pytest.raises(IllegalActionError):
        game.step(float(road_action(44, 48)))  # type: ignore[arg-type]
    assert snapshot(game) == before
