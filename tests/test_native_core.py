"""The native core against the reference: its random stream against CPython's random.Random,
number for number; its games against engine.Game's, action for action and field for field (for
every seat count, option and shipped agent); bad input; the switches; and a run under
AddressSanitizer and UndefinedBehaviorSanitizer (slow).

Every test that plays a game in debug mode (``GameOptions(debug=True)``: the rules tests, the
soak tests) also steps the core beside the reference and compares the two after every action
(``native.check_step``); the tests here check that this check can fail."""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
import sysconfig
import warnings
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ludolab.envs.catan import actions as A
from ludolab.envs.catan import engine, native
from ludolab.envs.catan.agents import GreedyAgent, make_agent, parse_agent_spec
from ludolab.envs.catan.engine import Game, GameOptions, InvariantError
from ludolab.envs.catan.play import game_record, native_seats, play_game, play_out
from ludolab.envs.rules import IllegalActionError
from ludolab.research.catan.samplers import fair_board

CORE = native.native()
needs_core = pytest.mark.skipif(
    CORE is None, reason="the native core is not built (or LUDOLAB_PURE_PYTHON=1)"
)

seeds = st.one_of(
    st.integers(-(2**200), 2**200),
    st.text(max_size=40),
    st.builds(lambda s, n, name: f"ludolab.catan:{name}:{s}", st.integers(0, 2**63),
              st.just(0), st.sampled_from(["dice", "steal", "deck"])),
)
# One draw: (method, argument) as the engine and the search agents call them.
draws = st.lists(
    st.one_of(
        st.tuples(st.just("random"), st.none()),
        st.tuples(st.just("getrandbits"), st.integers(0, 64)),
        st.tuples(st.just("randbelow"), st.integers(1, 2**40)),
        st.tuples(st.just("shuffle"), st.integers(0, 30)),
    ),
    max_size=60,
)


def draw(rng, method: str, arg):
    """One call on either kind of stream, as its result."""
    if method == "random":
        return rng.random()
    if method == "getrandbits":
        return rng.getrandbits(arg)
    if method == "randbelow":
        return rng.randbelow(arg) if hasattr(rng, "randbelow") else rng._randbelow(arg)
    items = list(range(arg))
    rng.shuffle(items)
    return items


def test_the_key_is_the_one_random_seeds_with() -> None:
    assert native.stream_key(0) == [0]
    assert native.stream_key(-5) == [5]
    assert native.stream_key(2**32 + 7) == [7, 1]
    # what CPython keys a string seed with: its bytes, then their SHA-512, as one integer
    assert len(native.stream_key("ludolab.catan:dice:1")) == (20 * 8 + 512 + 31) // 32


@needs_core
@settings(max_examples=150, deadline=None)
@given(seed=seeds, calls=draws)
def test_a_stream_draws_what_random_draws(seed, calls) -> None:
    mine, theirs = native.stream(seed), random.Random(seed)
    for method, arg in calls:
        assert draw(mine, method, arg) == draw(theirs, method, arg), (method, arg)
    assert mine.getstate() == theirs.getstate()[1]


@needs_core
@settings(max_examples=40, deadline=None)
@given(seed=seeds, before=draws, after=draws)
def test_state_moves_between_the_two_mid_stream(seed, before, after) -> None:
    theirs = random.Random(seed)
    for method, arg in before:
        draw(theirs, method, arg)
    mine = CORE.Stream([1])
    mine.setstate(theirs.getstate()[1])
    back = random.Random()
    back.setstate((3, mine.getstate(), None))
    for method, arg in after:
        expected = draw(theirs, method, arg)
        assert draw(mine, method, arg) == expected
        assert draw(back, method, arg) == expected


@needs_core
@pytest.mark.parametrize("seed", [0, 1, 12345, 2**40 + 3])
def test_the_engine_s_streams_come_out_the_same(seed: int) -> None:
    """The deck shuffle, dice and steals of a game, drawn as the engine draws them."""
    deck = list(engine._FRESH_DECK)
    engine._shuffle(engine._stream(seed, "deck"), deck)
    mine = list(engine._FRESH_DECK)
    native.stream(f"ludolab.catan:deck:{seed}").shuffle(mine)
    assert mine == deck
    theirs, ours = engine._stream(seed, "dice"), native.stream(f"ludolab.catan:dice:{seed}")
    roll = [int(theirs.random() * 6) + int(theirs.random() * 6) + 2 for _ in range(500)]
    assert roll == [int(ours.random() * 6) + int(ours.random() * 6) + 2 for _ in range(500)]
    theirs, ours = engine._stream(seed, "steal"), native.stream(f"ludolab.catan:steal:{seed}")
    sizes = [1 + i % 19 for i in range(200)]
    assert [theirs.randrange(n) for n in sizes] == [ours.randbelow(n) for n in sizes]


@needs_core
def test_bad_calls_raise_and_leave_the_stream_as_it_was() -> None:
    with pytest.raises(ValueError, match="at least one 32-bit word"):
        CORE.Stream([])
    with pytest.raises(ValueError, match=r"key\[1\]: expected an integer in 0..2\*\*32-1"):
        CORE.Stream([3, 2**32])
    with pytest.raises(ValueError, match=r"key\[0\]"):
        CORE.Stream([-1])
    with pytest.raises(TypeError, match="sequence of 32-bit words"):
        CORE.Stream(5)
    s = CORE.Stream([42])
    before = s.getstate()
    with pytest.raises(ValueError, match="k must be in 0..64, got 65"):
        s.getrandbits(65)
    with pytest.raises(ValueError, match="n must be at least 1, got 0"):
        s.randbelow(0)
    with pytest.raises(TypeError, match="expected a list"):
        s.shuffle((1, 2))
    with pytest.raises(ValueError, match="a tuple of 625 integers"):
        s.setstate(before[:-1])
    with pytest.raises(ValueError, match="item 624 is out of range"):
        s.setstate(before[:-1] + (625,))
    with pytest.raises(ValueError, match="item 3 is out of range"):
        s.setstate(before[:3] + (2**32,) + before[4:])
    assert s.getstate() == before


# Seat counts x options: every option that takes another code path in the rules.
OPTIONS = [
    {},
    {"friendly_robber": True, "discard_limit": 9},
    {"vp_to_win": 8, "cut_holder_keeps_ties": False},
    {"trade_offers_per_turn": 0},
    {"discard_limit": 0, "turn_limit": 60},
    # (With no turn limit a game can last for ever: a seat boxed in cannot reach 12 points.)
    {"turn_limit": 3000, "vp_to_win": 12},
    {"trade_offers_per_turn": 5, "friendly_robber": True},
]


# Lineups the core plays itself: the random agent, and the greedy agent with each parameter.
LINEUPS = [
    ["random"] * 4,
    ["random"] * 3,
    ["random"] * 2,
    ["greedy"] * 4,
    ["greedy", "random", "greedy:trade=false,offers=false", "random"],
    ["greedy:dev_cards=false", "greedy:robber=production", "random", "greedy"],
    ["greedy", "greedy"],
    ["greedy", "random", "greedy:offers=false"],
]


def reference_game(board, specs: list[str], seed: int, options: GameOptions):
    """The reference engine and the Python agents: (actions taken, record)."""
    game = Game(board, len(specs), seed, options)
    agents = [parse_agent_spec(spec) for spec in specs]
    for seat, agent in enumerate(agents):
        agent.reset(seat, seed)
    actions = []
    while not game.done:
        forced = game.forced_action()
        action = forced if forced >= 0 else agents[game.acting].act(game, game.legal_actions())
        actions.append(action)
        game.step(action)
    return actions, game_record(game, [agent.spec for agent in agents])


def native_game(board, specs: list[str], seed: int, options: GameOptions):
    """The core and its own agents: (actions taken, Core.record())."""
    core = native.new_core(CORE, board, len(specs), seed, options)
    seats = native_seats([parse_agent_spec(spec) for spec in specs], seed)
    return core.play(seats, log=True), core.record()


def assert_same_games(games: int, first: int = 0) -> None:
    for k in range(first, first + games):
        specs, options = LINEUPS[k % len(LINEUPS)], GameOptions(**OPTIONS[k % len(OPTIONS)])
        board = fair_board(k % 17)
        theirs, record = reference_game(board, specs, 1000 + k, options)
        mine, fields = native_game(board, specs, 1000 + k, options)
        assert mine == theirs, (k, specs, options)
        assert play_game_record(fields, record) == record, (k, specs, options)


def play_game_record(fields: tuple, like):
    from ludolab.envs.catan.play import core_record

    return core_record(fields, like.setup_id, like.seed, like.agents)


@needs_core
def test_the_core_numbers_actions_as_the_reference_does() -> None:
    assert CORE.N_ACTIONS == A.N_ACTIONS == 300


@needs_core
def test_the_core_s_games_are_the_reference_s_action_for_action() -> None:
    """The random and greedy agents (every greedy parameter), 2-4 seats, every option set,
    280 games: the same actions and the same records."""
    assert_same_games(280)


@needs_core
@pytest.mark.slow
def test_ten_thousand_games_are_the_reference_s() -> None:
    assert_same_games(10_000, first=280)


@needs_core
def test_play_game_runs_the_core_s_agents_on_it_and_gives_the_reference_s_record() -> None:
    board = fair_board(4)
    cases = (
        (["random"] * 4, {}),
        (["random", "greedy", "greedy:robber=production"], {"trade_offers_per_turn": 0}),
        (["greedy", "random"], {"vp_to_win": 6, "turn_limit": None}),
    )
    for specs, extra in cases:
        options = GameOptions(**extra)
        agents = [parse_agent_spec(spec) for spec in specs]
        assert native_seats(agents, 77) is not None
        record = play_game(board, agents, 77, options)
        game = Game(board, len(agents), 77, options)
        play_out(game, agents, 77)
        assert record == game_record(game, [agent.spec for agent in agents])


@needs_core
@pytest.mark.parametrize(
    "spec",
    [
        "mcts:playouts=16",
        "mcts:root=ucb,playouts=12",
        "mcts:policy=random,playouts=16",
        "mcts:search=setup+robber+trade,playouts=8,candidates=0",
        "mcts-value:playouts=8,setup_playouts=8,horizon=4",
        "mcts-value:playouts=8,setup_playouts=24,horizon=4,setup_flat=true,setup_horizon=3",
        "lookahead:playouts=8,finalists=3",
        "lookahead:playouts=4,finalists=2,trade=false,robber=production",
    ],
)
def test_search_agents_in_the_core_decide_as_on_the_reference(spec, monkeypatch) -> None:
    """mcts's determinisations, tree walk and play-outs, and lookahead's play-off trials, in
    the core: the same game."""
    lineup = [spec, "greedy", "random", spec]
    loaded, load = [], native.mirror_of
    monkeypatch.setattr(native, "mirror_of", lambda game: loaded.append(1) or load(game))
    in_core = play_game(fair_board(6), [parse_agent_spec(s) for s in lineup], 6)
    assert len(loaded) >= 8  # (the positions went to the core: mcts loads one per decision)
    monkeypatch.setattr(native, "mirror_of", lambda game: None)  # the reference only
    on_reference = play_game(fair_board(6), [parse_agent_spec(s) for s in lineup], 6)
    assert in_core == on_reference


def search_positions() -> list[Game]:
    """Positions a search agent decides in: greedy games of 2-4 seats (one with a low target, so
    that dealing the others victory-point cards can make a winner and be dealt again), every
    17th position and every one with a domestic offer on the table."""
    positions = []
    for k, extra in enumerate(({}, {"vp_to_win": 6, "trade_offers_per_turn": 4}, {})):
        n = 2 + k
        game = Game(fair_board(k), n, 50 + k, GameOptions(**extra))
        agents = [make_agent("greedy") for _ in range(n)]
        for seat, agent in enumerate(agents):
            agent.reset(seat, k)
        while not game.done:
            offer = game.phase in (engine.TRADE_RESPONSE, engine.TRADE_CONFIRM)
            if offer or game.n_actions % 17 == 0:
                positions.append(game.clone())
            forced = game.forced_action()
            if forced < 0:
                forced = agents[game.acting].act(game, game.legal_actions())
            game.step(forced)
    return positions


@needs_core
def test_the_core_deals_determinisations_as_the_reference_does(monkeypatch) -> None:
    """Core.determinised states determinise.deal_hidden a second time: from the same stream, the
    same cards to the same seats, the same deck, dice and steals, and the stream left where the
    reference leaves it; for every seat of positions of every phase."""
    from ludolab.envs.catan.agents import determinise as D

    positions = search_positions()
    phases = {game.phase for game in positions}
    assert {engine.TRADE_RESPONSE, engine.TRADE_CONFIRM, engine.MAIN} <= phases
    redealt = 0
    for i, game in enumerate(positions):
        core = native.core_of(game)
        for seat in range(game.n_players):
            theirs, mine = random.Random(f"d:{i}:{seat}"), native.stream(f"d:{i}:{seat}")
            deal = D.deal_hidden(game, seat, theirs)
            state = native.core_of(game).determinised(mine, seat).get_state()
            assert state["hands"] == deal.hands and state["dev_deck"] == deal.dev_deck
            assert state["dev_hand"] == deal.dev_hand and state["dev_new"] == deal.dev_new
            assert state["_dice_rng"] == deal.dice.getstate()[1]
            assert state["_steal_rng"] == deal.steals.getstate()[1]
            assert state["_forced_dice"] == []
            assert mine.getstate() == theirs.getstate()[1]
            assert core.get_state() == native.core_of(game).get_state()  # unchanged
            with monkeypatch.context() as m:  # where a first deal made a winner, it was redealt
                m.setattr(D, "_REDEALS", 1)
                redealt += D.deal_hidden(game, seat, random.Random(f"d:{i}:{seat}")) != deal
    assert redealt > 0


@needs_core
def test_flat_trials_are_the_search_s_loop_in_the_core() -> None:
    """Core.flat_trials against the loop it replaces (SearchAgent._flat_round over the core's
    copies): the same sums, to the last bit, and the agents' and the search's streams left in
    the same state; play-outs cut off and played to the end (a winner, or the turn limit)."""
    from ludolab.envs.catan.agents.value import WEIGHTS

    positions = [g for g in search_positions() if len(g.legal_actions()) > 2][::3]
    capped = Game(fair_board(9), 3, 9, GameOptions(turn_limit=30))
    for _ in range(40):
        capped.step(capped.legal_actions()[0])
    positions.append(capped)
    for i, game in enumerate(positions):
        n, seat = game.n_players, game.acting
        core = native.core_of(game)
        seats = native_seats([GreedyAgent() for _ in range(n)], list(range(n)))
        ours, theirs = core.agents(seats), core.agents(seats)
        left = game.legal_actions()[:3]
        for until in (game.turns + 4, -1):
            start = [[0.25 * q + i for q in range(n)] for _ in left]
            mine, reference = native.stream(f"f:{i}"), native.stream(f"f:{i}")
            sums = core.flat_trials(mine, seat, left, ours, until, WEIGHTS, 2, start)
            expected = [list(row) for row in start]
            for _ in range(2):
                shared = core.determinised(reference, seat)
                for k, a in enumerate(left):
                    copy = shared.clone()
                    assert copy.step(a)
                    copy.play(theirs, until=until)
                    if not copy.done:
                        reward = copy.win_chances(WEIGHTS)
                    elif copy.winner is None:
                        reward = [1.0 / n] * n
                    else:
                        reward = [float(q == copy.winner) for q in range(n)]
                    for q in range(n):
                        expected[k][q] += reward[q]
            assert sums == expected
            assert mine.getstate() == reference.getstate()
            # the same agents' streams: their next choices agree
            assert core.clone().play(ours, log=True) == core.clone().play(theirs, log=True)


@needs_core
def test_the_search_s_core_calls_refuse_bad_input() -> None:
    from ludolab.envs.catan.agents.value import WEIGHTS

    game = search_positions()[5]
    core, n = native.core_of(game), game.n_players
    kept = core.agents([("random", [q]) for q in range(n)])
    rng = native.stream(1)
    legal = game.legal_actions()
    with pytest.raises(TypeError, match="determinised: expected a Stream"):
        core.determinised(random.Random(1), 0)
    with pytest.raises(ValueError, match="determinised: seat 4 is not at this table"):
        core.determinised(rng, 4)
    call = [rng, 0, legal, kept, -1, WEIGHTS, 1, [[0.0] * n for _ in legal]]
    for k, bad, error, message in (
        (2, [legal[0], 299], ValueError, r"action 299 is not legal here"),
        (3, [("random", [1])] * n, TypeError, r"expected an Agents"),
        (5, WEIGHTS[:3], ValueError, r"expected 17 weights"),
        (7, [[0.0] * n], ValueError, r"expected \d+ totals \(one per action\)"),
        (7, [[0.0] * (n + 1) for _ in legal], ValueError, r"of \d numbers \(one per seat\)"),
    ):
        before = rng.getstate()
        with pytest.raises(error, match=message):
            core.flat_trials(*call[:k], bad, *call[k + 1 :])
        assert rng.getstate() == before
    with pytest.raises(ValueError, match="card counts do not add up"):
        broken = core.clone()
        broken.set_state({"bank": [19] * 5})  # every card in the bank, yet hands hold some
        broken.determinised(rng, 0)


@needs_core
def test_agents_the_core_does_not_have_play_on_the_reference() -> None:
    class Cautious(GreedyAgent):  # a researcher's variant: it may change any rule
        pass

    lookahead = parse_agent_spec("lookahead:playouts=2,finalists=2")
    assert native_seats([make_agent("greedy"), Cautious()], 1) is None
    assert native_seats([make_agent("random"), lookahead], 1) is None


@needs_core
@pytest.mark.parametrize(
    "lineup",
    [
        ["greedy"] * 4,
        ["greedy", "random", "greedy:robber=production"],
        ["random", "greedy"],
        ["lookahead:playouts=4,finalists=2", "greedy", "random", "greedy"],
        ["mcts:playouts=4", "greedy", "greedy"],
    ],
)
def test_every_agent_s_games_step_the_core_in_step_with_the_reference(lineup) -> None:
    """Debug mode holds the core to the reference after every action (native.check_step),
    the search agents' own play-outs included; these lineups take every phase: trades offered
    and answered, robber, cards. (The search agents' games are cut short: every step of every
    play-out is checked.)"""
    search = any(a.startswith(("lookahead", "mcts")) for a in lineup)
    for k, extra in enumerate(OPTIONS[:1] if search else OPTIONS[:3]):
        options = GameOptions(debug=True, **{**extra, "turn_limit": 40 if search else 150})
        record = play_game(fair_board(k), [parse_agent_spec(a) for a in lineup], k, options)
        assert record.n_actions > 0


@needs_core
def test_the_step_check_fails_when_the_core_disagrees() -> None:
    game = Game(fair_board(1), 3, 5)
    for _ in range(6):  # into the setup
        game.step(game.legal_actions()[0])
    assert native.differences(native.core_of(game), game) == []
    mirror = native.mirror_of(game)
    mirror.core.set_state({"bank": [18, 19, 19, 19, 19]})
    action = game.legal_actions()[0]
    game.step(action)
    with pytest.raises(InvariantError, match=r"native core and reference disagree .*bank: core"):
        native.check_step(mirror, game, action)
    mirror = native.mirror_of(game)
    mirror.core.set_state({"phase": engine.MAIN})
    with pytest.raises(InvariantError, match="the core refused action"):
        native.check_step(mirror, game, game.legal_actions()[0])
    while game.phase != engine.MAIN:  # to a turn's end: the traces are checked too
        game.step(game.legal_actions()[0])
    mirror = native.mirror_of(game)
    mirror.core.set_state({"vp_public": [0, 0, 5]})
    game.step(A.END_TURN)
    expected = r"vp_by_turn: core \[\(0, 0, 5\)\], reference \[\(2, 2, 2\)\]"
    with pytest.raises(InvariantError, match=expected):
        native.check_step(mirror, game, A.END_TURN)


@needs_core
def test_illegal_actions_change_nothing_and_read_as_before() -> None:
    board = fair_board(2)
    core = native.new_core(CORE, board, 4, 9, GameOptions())
    before = core.get_state()
    for bad in (-1, -2, 300, 2**80, -(2**80), A.ROLL, A.ROAD + 3):
        assert core.step(bad) is False
        assert core.is_legal(bad) is False
    assert core.get_state() == before
    with pytest.raises(TypeError):
        core.step("x")
    # play_game's error for a bad lineup is the reference's, with or without the core
    with pytest.raises(ValueError, match="n_players must be 2..4, got 5"):
        play_game(board, [make_agent("random") for _ in range(5)], 0)
    with pytest.raises(IllegalActionError, match=r"action 1 \(roll\) is not legal for seat 0"):
        Game(board, 4, 9).step(A.ROLL)


@needs_core
def test_is_legal_answers_as_the_list_of_legal_actions_in_every_phase() -> None:
    """In the main phase the core answers is_legal (and the greedy agent's questions) without
    listing the actions: the answer must be membership of the list, for every action, in every
    state of random walks through games of every option set (trades, cards, the robber)."""
    main_states = 0
    for k, options in enumerate(OPTIONS):
        walk = random.Random(k)
        core = native.new_core(CORE, fair_board(k), 2 + k % 3, k, GameOptions(**options))
        for _ in range(1500):
            legal = core.legal_actions()
            if not legal:
                break
            main_states += core.get_state()["phase"] == engine.MAIN
            assert [a for a in range(A.N_ACTIONS) if core.is_legal(a)] == legal, (k, legal)
            assert core.step(walk.choice(legal)) is True
    assert main_states > 2000


@needs_core
def test_a_clone_is_independent_and_plays_on_the_same() -> None:
    core = native.new_core(CORE, fair_board(3), 4, 21, GameOptions())
    seats = [("random", native.stream_key(f"k{q}")) for q in range(3)]
    seats.insert(1, ("greedy", [7], True, True, True, True))
    core.step(core.legal_actions()[0])
    copy = core.clone()
    before = core.get_state()
    copy_actions = copy.play(seats, log=True)
    assert core.get_state() == before
    assert core.play(seats, log=True) == copy_actions
    assert core.record() == copy.record()


@needs_core
def test_bad_states_and_calls_give_clear_errors_and_change_nothing() -> None:
    core = native.new_core(CORE, fair_board(3), 3, 1, GameOptions())
    before = core.get_state()
    cases = [
        ({"robber": 19}, ValueError, r"robber: expected 0..18, got 19"),
        ({"hands": [[0] * 5] * 2}, ValueError, r"hands: expected 3 rows"),
        ({"hands": [[0] * 5, [0, 0, -1, 0, 0], [0] * 5]}, ValueError, r"hands\[1\]\[2\]"),
        ({"owner": [3] + [-1] * 53}, ValueError, r"a seat outside 0..2"),
        ({"dev_deck": [0] * 26}, ValueError, r"dev_deck: expected at most 25 items"),
        ({"_offer": (1, 3, 2)}, ValueError, r"_offer: expected \(give, 1 or 2, get\)"),
        ({"_dice_rng": (1, 2)}, ValueError, r"random.Random.getstate\(\)\[1\]"),
        ({"dice": [7, 13]}, ValueError, r"dice\[1\]: expected 2..12, got 13"),
        ({"no_such_field": 1}, KeyError, r"no field 'no_such_field'"),
        ({"phase": "main"}, TypeError, r"phase: expected an integer"),
    ]
    for fields, error, message in cases:
        with pytest.raises(error, match=message):
            core.set_state({"bank": [0] * 5, "dice": [2, 3], **fields})
        assert core.get_state() == before
    with pytest.raises(ValueError, match="n_players must be 2..4, got 5"):
        CORE.Core(5, *native.board_tables(fair_board(0)), 0, (10, 7, 0, 1000, 2, 1), [1], [2], [3])
    with pytest.raises(ValueError, match=r"hex_number\[0\]: expected 0..12, got 13"):
        CORE.Core(4, (0,) * 19, (13,) * 19, (-1,) * 54, 0, (10, 7, 0, 1000, 2, 1), [1], [2], [3])
    with pytest.raises(ValueError, match=r"seats: expected 3 \(one per seat\), got 2"):
        core.play([("random", [1]), ("random", [2])])
    for bad in (("nobody", [1]), ("greedy", [1], True), ("random", [1], 5), "random"):
        with pytest.raises(ValueError, match=r"seats\[1\]: expected \(\"random\", key\)"):
            core.play([("random", [1]), bad, ("random", [3])])
    with pytest.raises(ValueError, match=r"key\[0\]: expected an integer in 0..2\*\*32-1"):
        core.play([("random", [1]), ("random", [-1]), ("random", [3])])
    assert core.get_state() == before
    kept = core.agents([("random", [1])] * 3)
    with pytest.raises(ValueError, match="agents: made for another board or seat count"):
        native.new_core(CORE, fair_board(4), 3, 1, GameOptions()).play(kept)
    with pytest.raises(TypeError, match=r"choose: expected an Agents"):
        core.choose([("random", [1])] * 3)
    t = engine.tables()
    with pytest.raises(ValueError, match=r"path_nodes\[0\]\[1\]: expected 0..53"):
        CORE.set_topology(t.hex_corners, t.node_hexes, t.node_neighbours, t.node_paths,
                          ((0, 54),) + t.path_nodes[1:])
    assert native.core_of(Game(fair_board(0), 2, 0)).legal_actions()[:2] == [5, 6]  # unchanged


def test_the_switch_and_a_stale_source_run_the_reference(monkeypatch, tmp_path) -> None:
    monkeypatch.setenv(native.PURE_PYTHON_ENV, "1")
    native.native.cache_clear()
    try:
        assert native.native() is None
        assert isinstance(native.stream(3), random.Random)
        if CORE is not None:
            monkeypatch.delenv(native.PURE_PYTHON_ENV)
            edited = tmp_path / "core.c"
            edited.write_text(native.SOURCE.read_text() + "\n/* an edit */\n")
            monkeypatch.setattr(native, "SOURCE", edited)
            native.native.cache_clear()
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                assert native.native() is None
            assert "core.c changed since it was compiled" in str(caught[0].message)
    finally:
        native.native.cache_clear()


@pytest.mark.skipif(CORE is None, reason="the native core is not built")
def test_a_rule_edited_in_the_reference_runs_the_reference(monkeypatch, tmp_path) -> None:
    """The core states the engine's rules (and the random, greedy and value agents) a second
    time: an edit to one of those Python files, with core.c untouched, refuses the core with a
    warning naming the file, so a changed rule is never played by the old C."""
    copy = tmp_path / "catan"
    shutil.copytree(native.SOURCE.parent, copy, ignore=shutil.ignore_patterns("*.so"))
    monkeypatch.setattr(native, "SOURCE", copy / "core.c")
    native.native.cache_clear()
    try:
        assert native.native() is CORE  # an exact copy is current
        engine_copy = copy / "engine.py"
        engine_copy.write_text(engine_copy.read_text() + "\n# a rule changed\n")
        native.native.cache_clear()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            assert native.native() is None
        assert "engine.py changed since core.c, which restates it, was compiled" in str(
            caught[0].message
        )
        mirrored = {entry.partition("=")[0] for entry in CORE.MIRRORS_SHA256.split(";")}
        assert mirrored == {
            "engine.py", "play.py", "agents/greedy.py", "agents/random_agent.py", "agents/value.py",
            "agents/determinise.py",
        }
    finally:
        native.native.cache_clear()


# A script run under the sanitizers: every method on many seeds against random.Random, and
# every bad call (the checks above, without pytest).
SANITIZED = """
import random, sys
sys.path.insert(0, sys.argv[1])
import _core
from ludolab.envs.catan.native import stream_key
for seed in [0, 1, -7, 2**90 + 5, "", "ludolab.catan:dice:3", "x" * 300]:
    mine, theirs = _core.Stream(stream_key(seed)), random.Random(seed)
    for i in range(3000):
        assert mine.random() == theirs.random()
        assert mine.getrandbits(i % 65) == theirs.getrandbits(i % 65)
        assert mine.randbelow(1 + i * 7919) == theirs._randbelow(1 + i * 7919)
        a, b = list(range(i % 40)), list(range(i % 40))
        mine.shuffle(a); theirs.shuffle(b)
        assert a == b
    assert mine.getstate() == theirs.getstate()[1]
    mine.setstate(theirs.getstate()[1])
def refused(*calls):
    for call in calls:
        try:
            call()
        except (ValueError, TypeError, KeyError):
            pass
        else:
            raise AssertionError("no error")
refused(*(lambda bad=bad: _core.Stream(bad) for bad in ([], [2**32], [-1], 5)))
s = _core.Stream([1])
refused(lambda: s.getrandbits(65), lambda: s.randbelow(0), lambda: s.shuffle(()),
        lambda: s.setstate(()), lambda: s.setstate(tuple(range(624)) + (625,)))

# The rules: random games against the reference's, greedy ones step by step, clones, and bad
# states and calls.
from ludolab.envs.catan import native
from ludolab.envs.catan.agents import make_agent
from ludolab.envs.catan.engine import Game, GameOptions, tables
from ludolab.envs.catan.play import game_record, native_seats
from ludolab.envs.catan.agents.greedy import BoardInfo
from ludolab.envs.catan.agents.value import WEIGHTS, fields_of, win_probabilities
from ludolab.research.catan.samplers import fair_board
t = tables()
_core.set_topology(t.hex_corners, t.node_hexes, t.node_neighbours, t.node_paths, t.path_nodes)
OPTIONS = [{}, {"friendly_robber": True, "discard_limit": 0, "turn_limit": 80},
           {"vp_to_win": 8, "cut_holder_keeps_ties": False, "trade_offers_per_turn": 4}]
for k in range(24):
    n, options, board = 2 + k % 3, GameOptions(**OPTIONS[k % 3]), fair_board(k)
    game = Game(board, n, k, options)
    agents = [make_agent("greedy" if k % 2 else "random") for _ in range(n)]
    for seat, agent in enumerate(agents):
        agent.reset(seat, k)
    mirror = native.new_core(_core, board, n, k, options)
    actions = []
    while not game.done:
        forced = game.forced_action()
        action = forced if forced >= 0 else agents[game.acting].act(game, game.legal_actions())
        assert mirror.legal_actions() == game.legal_actions()
        assert mirror.step(action) and not mirror.step(-1)
        game.step(action)
        actions.append(action)
        if k % 2:  # the greedy games: every field after every action
            mine, theirs = mirror.get_state(), native.game_state(game)
            assert all(native._comparable(mine[f]) == native._comparable(theirs[f])
                       for f in theirs)
            chances = win_probabilities(fields_of(game), BoardInfo.of(game))
            assert mirror.win_chances(WEIGHTS) == chances
            if len(actions) % 7:
                mirror = mirror.clone()
            else:  # a fresh core, in the reference's state
                mirror = native.new_core(_core, board, n, k, options)
                mirror.set_state(native.game_state(game))
    again = native.new_core(_core, board, n, k, options)  # the core's own agents
    kinds = [type(a)() for a in agents]
    assert again.play(native_seats(kinds, k), log=True) == actions
    cut = native.new_core(_core, board, n, k, options)  # a search's cut-off play-out
    cut.play(native_seats(kinds, k), until=5)
    assert cut.done or cut.get_state()["turns"] == 5
    if k % 2 == 0:
        assert again.record()[:5] == mirror.record()[:5]
    assert mirror.record()[2] == game_record(game, ["x"] * n).turns
# States set by hand, in range but not consistent: stepping them must not crash.
fuzz = random.Random(5)
base = native.new_core(_core, fair_board(0), 4, 0, GameOptions())
for _ in range(30):
    base.step(base.legal_actions()[fuzz.randrange(len(base.legal_actions()))])
RANDOM_FIELDS = {
    "phase": lambda: fuzz.randrange(11), "acting": lambda: fuzz.randrange(4),
    "current": lambda: fuzz.randrange(4), "_last_settlement": lambda: fuzz.randrange(-1, 54),
    "_discarding": lambda: [fuzz.randrange(4) for _ in range(fuzz.randrange(5))],
    "_victims": lambda: [fuzz.randrange(4) for _ in range(fuzz.randrange(5))],
    "_accepted": lambda: [fuzz.randrange(4) for _ in range(fuzz.randrange(5))],
    "_responders": lambda: [fuzz.randrange(4) for _ in range(fuzz.randrange(5))],
    "_to_discard": lambda: [fuzz.randrange(5) for _ in range(4)],
    "hand_size": lambda: [fuzz.randrange(3) for _ in range(4)],
    "hands": lambda: [[fuzz.randrange(3) for _ in range(5)] for _ in range(4)],
    "_offer": lambda: fuzz.choice([None, (0, 1, 2), (4, 2, 3)]),
    "dev_deck": lambda: [fuzz.randrange(5) for _ in range(fuzz.randrange(26))],
    "dev_hand": lambda: [[fuzz.randrange(2) for _ in range(5)] for _ in range(4)],
    "_free_roads": lambda: fuzz.randrange(3), "robber": lambda: fuzz.randrange(19),
    "owner": lambda: [fuzz.randrange(-1, 4) for _ in range(54)],
    "road_owner": lambda: [fuzz.randrange(-1, 4) for _ in range(72)],
    "building": lambda: [fuzz.randrange(3) for _ in range(54)],
    "_after_robber": lambda: fuzz.randrange(11), "_after_road_building": lambda: fuzz.randrange(11),
}
for _ in range(400):
    game = base.clone()
    names = fuzz.sample(sorted(RANDOM_FIELDS), fuzz.randrange(1, 6))
    game.set_state({name: RANDOM_FIELDS[name]() for name in names})
    game.win_chances(WEIGHTS)
    try:  # counts that need not add up
        game.determinised(_core.Stream([2]), fuzz.randrange(4))
    except ValueError:
        pass
    for _ in range(60):
        legal = game.legal_actions()
        if not legal:
            break
        game.step(legal[fuzz.randrange(len(legal))])
        game.is_legal(fuzz.randrange(-2, 302)); game.forced_action(); game.get_state()
    try:
        game.play([("random", [1]), ("greedy", [2], 1, 1, 1, 1), ("random", [3]),
                   ("greedy", [4], 1, 1, 1, 0)])
    except RuntimeError:
        pass  # no legal action in a state set by hand, or none greedy would choose
    game.record()

# Agents kept across games (a search agent's play-outs), and what they refuse.
table = native.new_core(_core, fair_board(2), 4, 0, GameOptions())
kept = table.agents(
    [("greedy", [q], 1, 1, 1, q % 2) if q % 2 else ("random", [q]) for q in range(4)]
)
for k in range(20):
    game = table.clone()
    for _ in range(k * 7):
        if game.done:
            break
        forced = game.forced_action()
        game.step(forced if forced >= 0 else game.choose(kept))
    if not game.done:
        left = game.legal_actions()[:4]
        game.flat_trials(_core.Stream([k]), k % 4, left, kept, game.get_state()["turns"] + 3,
                         WEIGHTS, 2, [[0.0] * 4 for _ in left])
        game.flat_trials(_core.Stream([k]), k % 4, left, kept, -1, WEIGHTS, 1,
                         [[0.0] * 4 for _ in left])
        game.determinised(_core.Stream([k]), k % 4)
        game.play(kept)
refused(lambda: native.new_core(_core, fair_board(3), 4, 0, GameOptions()).play(kept),
        lambda: native.new_core(_core, fair_board(2), 3, 0, GameOptions()).choose(kept),
        lambda: game.choose(kept), lambda: table.choose("x"))

core = native.new_core(_core, fair_board(0), 3, 0, GameOptions())
for bad in ({"robber": 19}, {"hands": [[0] * 5] * 2}, {"owner": [3] + [-1] * 53},
            {"dev_deck": [0] * 26}, {"_offer": (1, 3, 2)}, {"_dice_rng": (1, 2)},
            {"dice": [7, 13]}, {"nothing": 1}, {"phase": "x"}, {"vp_by_turn": [(1, 2)]},
            {"network": [{1}, {2}, {99}]}, {"_forced_dice": [7]}, "not a dict"):
    before = core.get_state()
    refused(lambda bad=bad: core.set_state(bad))
    assert core.get_state() == before
refused(lambda: core.play([("random", [1])]), lambda: core.step("x"),
        lambda: core.play([("greedy", [1]), ("random", [2]), ("random", [3])]),
        lambda: _core.set_topology((), (), (), (), ()),
        lambda: core.win_chances(WEIGHTS[:-1]), lambda: core.win_chances(["x"] * 17),
        lambda: core.win_chances(5))
print("clean")
"""


@pytest.mark.slow
def test_the_core_is_clean_under_asan_and_ubsan(tmp_path: Path) -> None:
    cc = shutil.which("gcc")
    if cc is None:
        pytest.skip("no gcc to build the sanitized core")
    asan = subprocess.run([cc, "-print-file-name=libasan.so"], capture_output=True, text=True)
    libasan = asan.stdout.strip()
    if not Path(libasan).is_file():
        pytest.skip("gcc has no AddressSanitizer runtime (libasan)")
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    build = subprocess.run(
        [cc, "-shared", "-fPIC", "-O1", "-g", "-fno-omit-frame-pointer",
         "-fsanitize=address,undefined", "-fno-sanitize-recover=undefined", "-Wall", "-Wextra",
         "-Werror", f"-I{sysconfig.get_paths()['include']}", str(native.SOURCE),
         "-o", str(tmp_path / f"_core{suffix}")],
        capture_output=True, text=True,
    )
    assert build.returncode == 0, build.stderr
    env = os.environ | {
        "LD_PRELOAD": libasan,
        "ASAN_OPTIONS": "detect_leaks=0",  # the interpreter's own allocations are not ours
        "PYTHONMALLOC": "malloc",  # the core's PyMem buffers from malloc, where ASan sees them
        "UBSAN_OPTIONS": "print_stacktrace=1:halt_on_error=1",
    }
    run = subprocess.run(
        [sys.executable, "-c", SANITIZED, str(tmp_path)], capture_output=True, text=True,
        env=env | {native.PURE_PYTHON_ENV: "1"},  # the reference in Python beside the core
    )
    assert run.returncode == 0 and run.stdout.strip() == "clean", run.stderr[-3000:]
    assert "runtime error" not in run.stderr and "AddressSanitizer" not in run.stderr
