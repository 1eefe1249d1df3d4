"""Whole-game properties of the Catan engine: invariants, reproducibility, records, options."""

from __future__ import annotations

import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ludolab.envs.catan import actions as A
from ludolab.envs.catan.agents import make_agent
from ludolab.envs.catan.engine import (
    GAME_OVER,
    Game,
    GameOptions,
    IllegalActionError,
    attributes,
    tables,
)
from ludolab.envs.catan.play import play_game
from ludolab.research.catan.samplers import fair_board


def random_agents(n: int = 4) -> list:
    return [make_agent("random") for _ in range(n)]


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**40),
    board_seed=st.integers(0, 10_000),
    n_players=st.sampled_from([2, 3, 4]),
    offers=st.sampled_from([0, 2]),
    friendly=st.booleans(),
)
def test_random_games_keep_every_invariant(seed, board_seed, n_players, offers, friendly):
    # debug=True makes the engine check every conservation law after every action.
    options = GameOptions(debug=True, trade_offers_per_turn=offers, friendly_robber=friendly)
    record = play_game(fair_board(board_seed), random_agents(n_players), seed, options)
    assert record.truncated or record.final_scores[record.winner] >= 10
    assert record.truncated == (record.winner is None)


def brute_force_longest_road(game: Game, seat: int) -> int:
    """Longest trail of ``seat``'s roads by walking from every intersection (no shortcuts)."""
    path_nodes = tables().path_nodes
    roads = [e for e in range(A.N_PATHS) if game.road_owner[e] == seat]

    def walk(v: int, used: frozenset[int]) -> int:
        if used and game.owner[v] not in (-1, seat):
            return 0
        best = 0
        for e in roads:
            if e not in used and v in path_nodes[e]:
                a, b = path_nodes[e]
                best = max(best, 1 + walk(b if a == v else a, used | {e}))
        return best

    return max((walk(v, frozenset()) for v in range(A.N_INTERSECTIONS)), default=0)


@pytest.mark.parametrize("seed", range(6))
def test_longest_road_matches_brute_force_through_whole_games(seed):
    game = Game(fair_board(seed), 4, seed, GameOptions(trade_offers_per_turn=0))
    agents = random_agents()
    for seat, agent in enumerate(agents):
        agent.reset(seat, seed)
    checked = 0
    while game.phase != GAME_OVER:
        game.step(agents[game.acting].act(game, game.legal_actions()))
        if game.n_actions % 40 == 0:
            for q in range(4):
                assert game.road_length[q] == brute_force_longest_road(game, q), (seed, q)
            checked += 1
    assert checked > 5
    assert max(game.road_length) >= 5  # random players build long networks; the test bites


def test_a_game_is_a_function_of_board_agents_and_seed():
    board = fair_board(3)
    first = play_game(board, random_agents(), seed=11)
    again = play_game(board, random_agents(), seed=11)
    other = play_game(board, random_agents(), seed=12)
    assert first == again
    assert first != other


def test_same_seed_same_dice_on_other_boards_and_agents():
    # Common random numbers: the dice of game seed k do not depend on the board or the agents.
    a = play_game(fair_board(1), random_agents(), seed=5)
    b = play_game(fair_board(2), random_agents(3), seed=5)
    k = min(len(a.dice), len(b.dice))
    assert k > 20 and a.dice[:k] == b.dice[:k]


def test_dice_are_fair():
    dice = [d for s in range(40) for d in play_game(fair_board(s), random_agents(), s).dice]
    counts = {n: dice.count(n) for n in range(2, 13)}
    assert set(counts) == set(range(2, 13))
    assert abs(counts[7] / len(dice) - 6 / 36) < 0.02  # about 10,000 rolls: sd is about 0.004
    assert abs(counts[2] / len(dice) - 1 / 36) < 0.01


def test_record_traces_are_consistent():
    record = play_game(fair_board(4), random_agents(), seed=4)
    assert len(record.score_by_step) == record.turns
    assert record.score_by_step[-1] == record.final_scores
    assert record.rounds == -(-record.turns // 4)
    assert record.sevens == sum(d == 7 for d in record.dice)
    assert record.robber_moves >= record.sevens
    assert len(record.dice) in (record.turns, record.turns - 1)
    assert all(len(row) == 5 for row in record.produced) and sum(map(sum, record.produced)) > 50
    for first_settlement, first_city in zip(
        record.first_settlement_turn, record.first_city_turn, strict=True
    ):
        assert first_settlement is None or 0 <= first_settlement < record.turns
        assert first_city is None or 0 <= first_city < record.turns


def test_turn_limit_truncates_without_winner():
    record = play_game(fair_board(0), random_agents(), 0, GameOptions(turn_limit=12))
    assert record.truncated and record.winner is None and record.turns == 12


def test_lower_victory_target_ends_games_sooner():
    short = [
        play_game(fair_board(s), random_agents(), s, GameOptions(vp_to_win=5)) for s in range(10)
    ]
    full = [play_game(fair_board(s), random_agents(), s) for s in range(10)]
    assert all(r.final_scores[r.winner] >= 5 for r in short)
    assert sum(r.turns for r in short) < sum(r.turns for r in full) / 2


def test_illegal_action_is_an_error_and_changes_nothing():
    game = Game(fair_board(0), 4, 0)
    before = copy.deepcopy(attributes(game))
    illegal = next(a for a in range(A.N_ACTIONS) if a not in game.legal_actions())
    with pytest.raises(IllegalActionError, match="not legal for seat 0 in phase setup-settlement"):
        game.step(illegal)
    with pytest.raises(IllegalActionError):
        game.step(A.N_ACTIONS + 3)
    assert snapshot(attributes(game)) == snapshot(before)


def snapshot(state: dict) -> dict:
    """Comparable copy of a game's attributes (random streams by their state)."""
    return {
        k: v.getstate() if hasattr(v, "getstate") else v for k, v in state.items() if k != "_legal"
    }


def test_actions_after_the_end_are_errors():
    game = Game(fair_board(0), 2, 0, GameOptions(turn_limit=1))
    agents = random_agents(2)
    while not game.done:
        game.step(agents[game.acting].act(game, game.legal_actions()))
    assert game.legal_actions() == []
    with pytest.raises(IllegalActionError, match="game is over"):
        game.step(A.END_TURN)


def test_action_names_round_trip():
    names = {A.describe(a) for a in range(A.N_ACTIONS)}
    assert len(names) == A.N_ACTIONS  # every index has its own name
    assert A.describe(A.maritime(4, 2)) == "maritime(ore->grain)"
    assert A.describe(A.offer(0, 2, 1)) == "offer(2 lumber->1 wool)"
    assert A.describe(A.year_of_plenty(3, 1)) == "year-of-plenty(wool+brick)"


def test_options_are_validated():
    with pytest.raises(ValueError, match="turn_limit"):
        GameOptions(turn_limit=0)
    with pytest.raises(ValueError, match="n_players"):
        Game(fair_board(0), 5, 0)


def test_discard_limit_zero_never_strands_a_seat():
    # With limit 0 a seat holding one card is over the limit but owes 1 // 2 = 0 cards.
    for seed in range(15):
        record = play_game(
            fair_board(seed), random_agents(), seed, GameOptions(discard_limit=0, debug=True)
        )
        assert record.turns > 0


def test_clone_is_independent_and_plays_on_identically():
    game = Game(fair_board(2), 4, 9)
    agents = random_agents()
    for seat, agent in enumerate(agents):
        agent.reset(seat, 9)
    for _ in range(300):
        game.step(agents[game.acting].act(game, game.legal_actions()))
    before = snapshot(copy.deepcopy(attributes(game)))
    twin = game.clone()
    twin_agents = copy.deepcopy(agents)
    while not twin.done:
        twin.step(twin_agents[twin.acting].act(twin, twin.legal_actions()))
    assert snapshot(attributes(game)) == before  # the original did not move
    while not game.done:
        game.step(agents[game.acting].act(game, game.legal_actions()))
    assert snapshot(attributes(game)) == snapshot(attributes(twin))


def test_road_length_if_built_matches_building_it():
    game = Game(fair_board(5), 4, 5, GameOptions(trade_offers_per_turn=0))
    agents = random_agents()
    for seat, agent in enumerate(agents):
        agent.reset(seat, 5)
    checked = 0
    while not game.done:
        seat = game.acting
        for a in game.legal_actions():
            if A.ROAD <= a < A.ROBBER and game.phase == 3:
                twin = game.clone()
                twin.step(a)
                assert game.road_length_if_built(seat, a - A.ROAD) == twin.road_length[seat]
                checked += 1
        game.step(agents[seat].act(game, game.legal_actions()))
    assert checked > 100


@pytest.mark.parametrize("agent", ["random", "greedy"])
def test_is_legal_agrees_with_the_legal_list(agent):
    # Two statements of the main-phase rules: the list builder and the one-action check.
    checked = 0
    for seed in range(4):
        game = Game(fair_board(seed), 4, seed)
        agents = [make_agent(agent) for _ in range(4)]
        for seat, a in enumerate(agents):
            a.reset(seat, seed)
        while not game.done:
            legal = set(game.legal_actions())
            if game.n_actions % 3 == 0:
                assert [a for a in range(A.N_ACTIONS) if game.is_legal(a)] == sorted(legal)
                checked += 1
            game.step(agents[game.acting].act(game, game.legal_actions()))
    assert checked > 200


def test_deck_shuffle_is_the_standard_library_shuffle():
    # The engine writes random.shuffle out for speed; the deck order from a seed must stay the
    # one random.shuffle gives (so games recorded before are replayed move for move).
    import random

    from ludolab.envs.catan.engine import _FRESH_DECK, _shuffle

    for seed in range(300):
        expected, got = list(_FRESH_DECK), list(_FRESH_DECK)
        random.Random(f"ludolab.catan:deck:{seed}").shuffle(expected)
        _shuffle(random.Random(f"ludolab.catan:deck:{seed}"), got)
        assert got == expected, seed
        assert Game(fair_board(seed), 4, seed).dev_deck == expected


def test_hex_takers_follow_the_buildings_and_pay_production():
    # hex_takers is kept up to date piece by piece; it must always equal what the corners say,
    # and production paid from it must be what the rules pay (checked against the slow path).
    for seed in range(6):
        game = Game(fair_board(seed), 4, seed)
        agents = [make_agent("greedy") for _ in range(4)]
        for seat, agent in enumerate(agents):
            agent.reset(seat, seed)
        while not game.done:
            for h, (cards, pairs) in enumerate(game.hex_takers):
                corners = [
                    (game.owner[v], game.building[v])
                    for v in tables().hex_corners[h]
                    if game.owner[v] >= 0
                ]
                assert sorted(pairs) == sorted(corners) and cards == sum(k for _, k in corners)
            for number in (2, 3, 4, 5, 6, 8, 9, 10, 11, 12):
                fast, slow = game.clone(), game.clone()
                fast._produce(number)
                slow._produce_short(number)
                assert (fast.hands, fast.bank, fast.produced) == (
                    slow.hands,
                    slow.bank,
                    slow.produced,
                )
            game.step(agents[game.acting].act(game, game.legal_actions()))


def test_board_id_is_the_hash_of_its_canonical_json():
    import hashlib
    import json

    for seed in range(200):
        board = fair_board(seed)
        canonical = json.dumps(board._content(), separators=(",", ":"), sort_keys=True)
        assert board._canonical() == canonical
        assert board.id == hashlib.sha256(canonical.encode()).hexdigest()[:16]
