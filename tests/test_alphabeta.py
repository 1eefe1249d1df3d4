"""The ``alphabeta`` agent (catanatron's alpha-beta player, re-implemented): its value function on
hand-made positions computed by hand, its chance outcomes, that it never reads what its seat
cannot see, and that it plays legal, reproducible games."""

from __future__ import annotations

import random

import pytest
from catan_positions import build, give, new_game, road_action, roads, turn
from test_search_agents import _catan_hidden_swapped, _catan_midgame

from ludolab.envs.catan import actions as A
from ludolab.envs.catan.agents import AgentSpecError, make_agent, parse_agent_spec
from ludolab.envs.catan.agents.alphabeta import WEIGHTS, WON, features, outcomes, value
from ludolab.envs.catan.engine import (
    DEV_DECK_COUNTS,
    KNIGHT,
    MAIN,
    MOVE_ROBBER,
    PRE_ROLL,
    Game,
    GameOptions,
    attributes,
    tables,
)
from ludolab.envs.catan.play import play_game
from ludolab.research.catan.samplers import fair_board

T = tables()


def pips(number: int) -> int:
    """Ways two dice make ``number`` (0 for the desert's 0)."""
    return 6 - abs(7 - number) if number else 0


def node_touching(hexes: set[int]) -> int:
    """The intersection whose hexes are exactly ``hexes``."""
    return next(v for v in range(A.N_INTERSECTIONS) if set(T.node_hexes[v]) == hexes)


def test_features_of_a_hand_made_position() -> None:
    game = new_game()
    # Seat 0: a settlement on hexes 3 (brick 4), 4 (ore 6), 8 (brick 11) and a city on
    # 4, 5 (lumber 5), 9 (desert); the robber on hex 8. Seat 1 (the next seat, catanatron's
    # "enemy"): a settlement on 12 (wool 10), 13 (grain 5), 16 (lumber 3). Seat 3 builds too
    # (and must not count).
    first, second = node_touching({3, 4, 8}), node_touching({4, 5, 9})
    build(game, 0, first)
    build(game, 0, second, city=True)
    build(game, 1, node_touching({12, 13, 16}))
    build(game, 3, node_touching({6, 11}))
    game.robber = 8
    give(game, 0, grain=1, ore=2, wool=1, lumber=1)  # 5 cards: the synergy below
    turn(game, 0)
    f = features(game, 0)
    numbers = game.hex_number
    # brick 4 + ore 6 (settlement; hex 8 robbed) + 2 x (ore 6 + lumber 5) (city; desert 0)
    own = pips(numbers[3]) + pips(numbers[4]) + 2 * (pips(numbers[4]) + pips(numbers[5]))
    assert f["production"] == pytest.approx(own / 36 + 3 * 4 * 0.02778)  # brick, ore, lumber
    enemy = pips(numbers[12]) + pips(numbers[13]) + pips(numbers[16])
    assert f["enemy_production"] == pytest.approx(enemy / 36)
    assert f["num_tiles"] == len({3, 4, 8, 5, 9})
    assert f["public_vps"] == 3 and f["hand_resources"] == 5
    # Hand (lumber 1, wool 1, grain 1, brick 0, ore 2): a city lacks 1 grain and 1 ore, a
    # settlement 1 brick.
    assert f["hand_synergy"] == pytest.approx((2 - 2 / 5 - 1 / 4) / 2)
    assert f["discard_penalty"] == 0 and f["hand_devs"] == 0 and f["army_size"] == 0
    # No roads: nowhere to build, and the longest road counts at catanatron's 10 (1 x 10).
    assert f["buildable_nodes"] == 0 and f["longest_road"] == 0


def test_reach_and_buildable_spots_follow_the_roads() -> None:
    game = new_game()
    home = node_touching({3, 4, 8})
    build(game, 0, home)
    # Two roads away from home: the far end is a free spot (distance rule met).
    nxt = next(w for w in T.node_neighbours[home])
    far = next(w for w in T.node_neighbours[nxt] if w != home)
    roads(game, 0, [home, nxt, far])
    turn(game, 0)
    f = features(game, 0)
    assert f["buildable_nodes"] == 1  # ``far``; ``nxt`` is next to home
    production = [
        sum(pips(game.hex_number[h]) for h in T.node_hexes[v] if game.hex_resource[h] >= 0) / 36
        for v in range(A.N_INTERSECTIONS)
    ]
    assert f["reachable_production_0"] == pytest.approx(production[home] + production[far])
    # One road more: the free spots next to the road's nodes (home's are too close to it).
    one_more = {w for v in (nxt, far) for w in T.node_neighbours[v] if game.site_free[w]}
    expected = sum(production[v] for v in {home, far} | one_more)
    assert f["reachable_production_1"] == pytest.approx(expected)
    assert f["longest_road"] == pytest.approx(2 * 0.01)  # somewhere to build: x 0.1 / 10
    # An opponent's road on the way out of ``far`` closes that way.
    blocked = next(w for w in T.node_neighbours[far] if w != nxt)
    roads(game, 1, [far, blocked])
    turn(game, 0)
    assert features(game, 0)["reachable_production_1"] < f["reachable_production_1"]


def test_value_weighs_the_features_and_a_win_above_all() -> None:
    game = new_game()
    build(game, 0, node_touching({3, 4, 8}))
    turn(game, 0)
    f = features(game, 0)
    assert value(game, 0) == pytest.approx(sum(WEIGHTS[k] * x for k, x in f.items()))
    game.winner = 0
    assert value(game, 0) == WON and value(game, 1) == -WON


def _check_outcomes(game: Game, action: int) -> list[tuple[float, Game]]:
    before = attributes(game.clone())
    out = outcomes(game, action)
    assert sum(p for p, _ in out) == pytest.approx(1.0)
    after = attributes(game)
    assert {k: v for k, v in after.items() if not k.endswith("_rng")} == {
        k: v for k, v in before.items() if not k.endswith("_rng")
    }  # the game itself unchanged
    return out


def test_a_roll_is_averaged_over_the_eleven_sums() -> None:
    game = new_game()
    build(game, 0, node_touching({3, 4, 8}))
    turn(game, 0, PRE_ROLL)
    out = _check_outcomes(game, A.ROLL)
    assert [child.dice[-1] for _, child in out] == list(range(2, 13))
    assert [round(p * 36) for p, _ in out] == [pips(s) for s in range(2, 13)]
    # A 6 pays the settlement on the ore 6: the child's hand shows it.
    six = next(child for _, child in out if child.dice[-1] == 6)
    assert six.hands[0][A.RESOURCES.index("ore")] == 1


def test_ending_a_turn_that_rolls_at_once_is_averaged_too() -> None:
    game = new_game()
    build(game, 0, node_touching({3, 4, 8}))
    turn(game, 0)
    out = _check_outcomes(game, A.END_TURN)
    assert len(out) == 11 and all(child.current == 1 for _, child in out)


def test_a_steal_is_averaged_over_the_victims_hand() -> None:
    game = new_game()
    build(game, 0, node_touching({3, 4, 8}))
    build(game, 1, node_touching({12, 13, 16}))
    give(game, 1, wool=3, grain=1)
    turn(game, 0, MOVE_ROBBER)
    out = _check_outcomes(game, A.ROBBER + 13)  # one victim: the move steals at once
    assert [p for p, _ in out] == pytest.approx([3 / 4, 1 / 4])
    taken = [child.hands[0] for _, child in out]
    assert taken == [[0, 1, 0, 0, 0], [0, 0, 1, 0, 0]]
    assert all(child.phase == MAIN for _, child in out)


def test_a_purchase_is_averaged_over_the_cards_not_seen() -> None:
    game = new_game()
    build(game, 0, node_touching({3, 4, 8}))
    give(game, 0, wool=1, grain=1, ore=1)
    game.dev_played[1][KNIGHT] = 2  # public: 2 knights fewer unseen
    for _ in range(2):
        game.dev_deck.remove(KNIGHT)
    turn(game, 0)
    out = _check_outcomes(game, A.BUY_DEV)
    unseen = [DEV_DECK_COUNTS[0] - 2, *DEV_DECK_COUNTS[1:]]
    assert [p for p, _ in out] == pytest.approx([k / sum(unseen) for k in unseen])
    bought = [child.dev_hand[0].index(1) for _, child in out]
    assert bought == list(range(len(DEV_DECK_COUNTS)))


def test_a_plain_action_has_one_outcome() -> None:
    game = new_game()
    home = node_touching({3, 4, 8})
    build(game, 0, home)
    give(game, 0, lumber=1, brick=1)
    turn(game, 0)
    road = road_action(home, T.node_neighbours[home][0])
    [(p, child)] = _check_outcomes(game, road)
    assert p == 1.0 and child.road_owner[road - A.ROAD] == 0


def test_the_next_turns_roll_costs_a_level_as_in_catanatron() -> None:
    """catanatron asks for the roll that starts a turn: ending the turn on the last level is
    scored before the dice, and one level up, after them with no move of the next seat."""
    game = new_game()
    build(game, 0, node_touching({3, 4, 8}))
    build(game, 1, node_touching({12, 13, 16}))
    give(game, 1, lumber=1, brick=1)  # the next seat could build a road
    turn(game, 0)
    agent = make_agent("alphabeta")
    agent.reset(0, 0)
    inf = float("inf")
    assert agent._expect(game, A.END_TURN, 0, -inf, inf) == value(game, 0)
    after_dice = sum(p * value(child, 0) for p, child in outcomes(game, A.END_TURN))
    assert agent._expect(game, A.END_TURN, 1, -inf, inf) == pytest.approx(after_dice)


@pytest.mark.parametrize("seed", [3, 11])
def test_it_reads_nothing_hidden(seed: int) -> None:
    """The same values for every action with the others' hands and the deck's order dealt
    differently (searching the real game instead of a determinisation fails this)."""
    game = _catan_midgame(seed)
    other = _catan_hidden_swapped(game, random.Random(seed))
    assert other.hands != game.hands or other.dev_deck != game.dev_deck  # hidden cards moved
    values = []
    for position in (game, other):
        agent = make_agent("alphabeta")
        agent.reset(0, seed)
        values.append(agent.values(position, position.legal_actions()))
    assert values[0] == values[1]


def test_it_plays_legal_reproducible_games_and_beats_random() -> None:
    board = fair_board(5)
    specs = ["alphabeta", "random", "random"]
    debug = GameOptions(debug=True)  # every step checked, the real game's by the mirror too
    records = [play_game(board, [parse_agent_spec(s) for s in specs], 7, debug) for _ in range(2)]
    assert records[0] == records[1]
    wins = 0
    for s in range(6):  # it won all 400 of 400 four-player games against three random agents
        # (benchmarks/agent_strength.py); here three players, two random
        seat = s % 3
        lineup = ["random"] * 3
        lineup[seat] = "alphabeta"
        record = play_game(fair_board(s), [parse_agent_spec(x) for x in lineup], s)
        wins += record.winner == seat
    assert wins >= 5


def test_it_answers_an_offer_by_its_value() -> None:
    game = new_game()
    build(game, 0, node_touching({3, 4, 8}))
    build(game, 1, node_touching({12, 13, 16}))
    give(game, 0, grain=1, ore=2)
    give(game, 1, brick=2)
    turn(game, 1)
    agent = make_agent("alphabeta")
    agent.reset(0, 0)
    # Two bricks for an ore: more cards, and no worse a hand for a city or a settlement.
    game.step(A.offer(A.RESOURCES.index("brick"), 2, A.RESOURCES.index("ore")))
    while game.forced_action() >= 0:  # seats 2 and 3 hold no ore: they can only decline
        game.step(game.forced_action())
    assert game.acting == 0
    assert agent.act(game, game.legal_actions()) == A.ACCEPT_TRADE


@pytest.mark.parametrize("text", ["alphabeta:depth=0", "alphabeta:depth=-1", "alphabeta:depth=nan",
                                  "alphabeta:depth=1.5", "alphabeta:width=2"])  # fmt: skip
def test_bad_depths_are_refused(text: str) -> None:
    with pytest.raises(AgentSpecError):
        parse_agent_spec(text)


def test_specs_round_trip() -> None:
    assert parse_agent_spec("alphabeta").spec == "alphabeta"
    assert parse_agent_spec("alphabeta:depth=1").spec == "alphabeta:depth=1"
