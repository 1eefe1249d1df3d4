"""The native Masters Gallery core against the reference: its games against engine.Game's with
the Python agents, action for action and field for field (every shipped agent the core has,
every player count, option sets that switch every rule); positions loaded from the reference;
the search agents' determinisations, draw for draw; the search agents' games with and without
the core; its random stream; bad input; the switches; and a run under AddressSanitizer and
UndefinedBehaviorSanitizer (slow)."""

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

from ludolab import games
from ludolab.envs.gallery import native
from ludolab.envs.gallery.agents import GreedyAgent, LeaderAgent, RandomAgent
from ludolab.envs.gallery.agents.determinise import determinise
from ludolab.envs.gallery.agents.native_seats import native_seats
from ludolab.envs.gallery.cards import OPEN_MODEL_SYMBOLS
from ludolab.envs.gallery.deal import shuffled_deal
from ludolab.envs.gallery.engine import (
    AWARD_CHOICE,
    GAME_OVER,
    SECOND,
    SIMULTANEOUS_PLAY,
    GalleryOptions,
    Game,
)
from ludolab.envs.gallery.play import play_game
from ludolab.envs.random_streams import stream_key

CORE = native.native()
needs_core = pytest.mark.skipif(
    CORE is None, reason="the native core is not built (or LUDOLAB_PURE_PYTHON=1)"
)

# Option sets that between them switch every rule the core states.
OPTIONS = [
    GalleryOptions(),
    GalleryOptions(symbols=OPEN_MODEL_SYMBOLS),
    GalleryOptions(award_choice=False),
    GalleryOptions(
        second_card_effects=False, closing_card_effects=False, next_round_start="closer"
    ),
    GalleryOptions(extra_card=False, rank_empty_artists=True, rank_tokens=(5, 3, 2, 1, 1)),
    GalleryOptions(extra_card_each_round=False, end_count=3, award_tokens=1, award_value=4),
    GalleryOptions(hand_size=19, rounds=6, deals=(10, 10, 10, 10, 10)),  # the deck runs out
    GalleryOptions(rank_tokens=(4,), hand_size=2, end_count=2),
]
# Agents the core has, with every greedy parameter changed somewhere.
KINDS = [
    RandomAgent,
    LeaderAgent,
    GreedyAgent,
    lambda: GreedyAgent(sharpness=0.5, card_value=0.0, symbol_hold=3.0, opponents="mean"),
]
FIELDS = ("pile", "hand_size", "artist_count", "extra_count", "discarded", "tokens", "awards")
FIELDS += ("awards_left", "scores", "round", "phase", "current", "acting", "starter", "turns")
FIELDS += ("n_actions", "drawn", "missed_draws", "dealt", "deck_ran_out")


def lineup(k: int, n: int) -> list:
    pick = random.Random(k)
    return [KINDS[pick.randrange(len(KINDS))]() for _ in range(n)]


def reference_game(deal, agents, seed: int, options: GalleryOptions) -> tuple[list[int], Game]:
    game = Game(deal, seed, options)
    for q, agent in enumerate(agents):
        agent.reset(q, seed)
    actions = []
    while not game.done:
        action = agents[game.acting].act(game, game.legal_actions())
        actions.append(action)
        game.step(action)
    return actions, game


def seats(agents, seed: int) -> list[tuple]:
    made = native_seats(agents, [seed] * len(agents))
    assert made is not None
    return made


def assert_same_state(core_state: dict, game: Game) -> None:
    theirs = native.game_state(game)
    for field in FIELDS + ("hands", "exhibit", "face_down_types", "table_types"):
        assert core_state[field] == theirs[field], field
    assert core_state["winners"] == list(game.winners)
    assert core_state["simul_pending"] == theirs["simul_pending"]
    assert core_state["simul_queue"] == theirs["simul_queue"]


def logs_of(game: Game) -> list[dict]:
    return [
        {
            "starter": log.starter,
            "closer": -1 if log.closer is None else log.closer,
            "turns": log.turns,
            "exhibits": [x for row in log.exhibits for x in row],
            "extra": list(log.extra),
            "awards": list(log.awards),
            "ranking": list(log.ranking),
            "values": list(log.values),
            "scores": list(log.scores),
            "dealt": list(log.dealt),
        }
        for log in game.rounds_log
    ]


def assert_same_games(games_: int, first: int = 0) -> None:
    for k in range(first, first + games_):
        n, options = 2 + k % 4, OPTIONS[k % len(OPTIONS)]
        deal = shuffled_deal(n, k)
        agents = lineup(k, n)
        theirs, game = reference_game(deal, agents, k, options)
        core = native.new_core(CORE, deal, options)
        assert core.play(seats(agents, k), log=True) == theirs, (k, options)
        state = core.get_state()
        assert_same_state(state, game)
        assert state["rounds_log"] == logs_of(game), (k, options)


@needs_core
def test_the_core_s_games_are_the_reference_s_action_for_action() -> None:
    """Random, leader and greedy agents (every parameter), 2-5 seats, eight option sets, 400
    games: the same actions, the same state and the same rounds."""
    assert_same_games(400)


@needs_core
@pytest.mark.slow
def test_five_thousand_games_are_the_reference_s() -> None:
    assert_same_games(5000, first=400)


@needs_core
def test_play_game_plays_in_the_core_and_gives_the_reference_s_record(monkeypatch) -> None:
    """Every seat an agent the core has: play_game plays the game there; its record is the
    reference's, field for field (debug mode, and any other seat, play on the reference)."""
    cases = []
    for k in range(120):
        n, options = 2 + k % 4, OPTIONS[k % len(OPTIONS)]
        cases.append((shuffled_deal(n, k), lineup(k, n), k, options))
    mine = [play_game(deal, agents, k, options) for deal, agents, k, options in cases]
    monkeypatch.setattr(native, "native", lambda: None)
    theirs = [play_game(deal, agents, k, options) for deal, agents, k, options in cases]
    assert mine == theirs
    assert len({r.final_scores for r in mine}) > 100  # (different games)


def positions(count: int = 60) -> list[Game]:
    """Reference positions from every phase (second cards, awards, simultaneous picks under
    way), by random play from several deals and option sets."""
    found: list[Game] = []
    phases: set[int] = set()
    for k in range(200):
        walk = random.Random(k)
        n = 2 + k % 4
        game = Game(shuffled_deal(n, k), k, OPTIONS[k % 4])
        stop = walk.randrange(1, 60)
        for _ in range(stop):
            if game.done:
                break
            game.step(walk.choice(game.legal_actions()))
        if not game.done and (game.phase != 0 or walk.random() < 0.3):
            found.append(game)
            phases.add(game.phase)
        if len(found) >= count and phases >= {SECOND, AWARD_CHOICE, SIMULTANEOUS_PLAY}:
            break
    assert phases >= {0, SECOND, AWARD_CHOICE, SIMULTANEOUS_PLAY}
    return found


@needs_core
def test_a_position_loaded_from_the_reference_plays_on_as_the_reference() -> None:
    for k, game in enumerate(positions()):
        core = native.core_of(game)
        assert core.legal_actions() == game.legal_actions()
        assert_same_state(core.get_state(), game)
        agents = lineup(k, game.n_players)
        core_actions = core.play(seats(agents, k), log=True)
        for q, agent in enumerate(agents):
            agent.reset(q, k)
        actions = []
        while not game.done:
            actions.append(agents[game.acting].act(game, game.legal_actions()))
            game.step(actions[-1])
        assert core_actions == actions
        assert_same_state(core.get_state(), game)


@needs_core
def test_the_core_deals_determinisations_as_the_reference_does() -> None:
    """Core.determinised deals what determinise.determinise deals, from the same numbers of the same
    stream, for every seat of positions from every phase; both play on alike."""
    for k, game in enumerate(positions()):
        core = native.core_of(game)
        for seat in range(game.n_players):
            rng = random.Random(k)
            theirs = determinise(game, seat, rng)
            stream = CORE.Stream(stream_key(k))
            mine = core.determinised(stream, seat)
            assert_same_state(mine.get_state(), theirs)
            assert stream.getstate() == rng.getstate()[1]  # the same draws, no more
            greedy = [GreedyAgent() for _ in range(game.n_players)]
            actions = mine.play(seats(greedy, 0), log=True)
            for q, agent in enumerate(greedy):
                agent.reset(q, 0)
            played = []
            while not theirs.done:
                played.append(greedy[theirs.acting].act(theirs, theirs.legal_actions()))
                theirs.step(played[-1])
            assert actions == played
    # The hidden cards do move: some determinisation differs from the position itself.
    game = positions()[0]
    dealt = [native.core_of(game).determinised(CORE.Stream([s]), game.acting) for s in range(5)]
    assert any(d.get_state()["hands"] != native.game_state(game)["hands"] for d in dealt)


@needs_core
def test_the_core_s_stream_draws_what_random_draws() -> None:
    for seed in (0, 7, "ludolab.gallery.agent:mcts:3:1", 2**70 + 5):
        mine, theirs = CORE.Stream(stream_key(seed)), random.Random(seed)
        items, items2 = list(range(40)), list(range(40))
        mine.shuffle(items)
        theirs.shuffle(items2)
        assert items == items2
        assert [mine.random() for _ in range(50)] == [theirs.random() for _ in range(50)]
        assert mine.getrandbits(62) == theirs.getrandbits(62)
        assert mine.getstate() == theirs.getstate()[1]


SEARCHERS = [
    ["mcts:playouts=60", "greedy"],
    ["greedy", "mcts:playouts=40,policy=leader", "random"],
    ["mcts:playouts=30,policy=random", "lookahead:playouts=8", "greedy", "leader"],
    ["mcts:playouts=40,root=ucb", "greedy", "greedy", "random", "leader"],
    ["mcts:playouts=40,flat=true", "lookahead:playouts=6,candidates=2"],
]


@needs_core
@pytest.mark.parametrize("k", range(len(SEARCHERS)))
def test_search_agents_in_the_core_play_the_reference_s_games(k: int, monkeypatch) -> None:
    """mcts (every playout policy, both roots, flat) and lookahead, searching in the core and
    on the reference: the same game, record for record."""
    parse = games.get("gallery").agents.parse
    deal, options = shuffled_deal(len(SEARCHERS[k]), 100 + k), OPTIONS[k % 3]
    with_core = play_game(deal, [parse(s) for s in SEARCHERS[k]], k, options)
    monkeypatch.setattr(native, "native", lambda: None)
    reference = play_game(deal, [parse(s) for s in SEARCHERS[k]], k, options)
    assert with_core == reference


@needs_core
def test_debug_mode_searches_on_the_reference() -> None:
    agent = games.get("gallery").agents.parse("mcts:playouts=20")
    game = Game(shuffled_deal(2, 3), 0, GalleryOptions(debug=True))
    agent.reset(0, 0)
    agent.act(game, game.legal_actions())
    assert agent._position is None  # (the position was never loaded into the core)


def refused(*calls) -> None:
    for call in calls:
        with pytest.raises((ValueError, TypeError, KeyError, RuntimeError)):
            call()


@needs_core
def test_bad_input_raises_clear_errors_and_changes_nothing() -> None:
    deal, options = shuffled_deal(3, 1), GalleryOptions()
    core = native.new_core(CORE, deal, options)
    good = (list(deal.order), [t for t in range(30) for _ in range(3)][:95] + [0] * 5)
    with pytest.raises(ValueError, match="order: card 0 twice"):
        CORE.Core([0] * 95, good[1][:95], 3, 6, 13, (6, 6, 0), (3, 2, 1), [0] * 7, 2, 5)
    with pytest.raises(ValueError, match=r"order\[0\]: expected an integer in 0..94"):
        CORE.Core([95] + good[0][1:], good[1][:95], 3, 6, 13, (6, 6, 0), (3, 2, 1), [0] * 7, 2, 5)
    with pytest.raises(ValueError, match="flags"):
        CORE.Core(good[0], good[1][:95], 3, 6, 13, (6, 6, 0), (3, 2, 1), [0] * 6, 2, 5)
    with pytest.raises(ValueError, match="a count out of range"):
        CORE.Core(good[0], good[1][:95], 6, 6, 13, (6, 6, 0), (3, 2, 1), [0] * 7, 2, 5)
    before = core.get_state()
    unplayable = next(t for t in range(30) if t not in core.legal_actions())
    for bad in (-1, 66, 300, 2**80, -(2**80), unplayable, 65):
        assert core.step(bad) is False
    assert core.get_state() == before
    with pytest.raises(KeyError, match="set_state: no pile"):
        core.set_state({})
    state = native.game_state(Game(deal, 0, options))
    for key, value in (
        ("phase", 9),
        ("acting", 3),
        ("hands", [0] * 10),
        ("simul_pending", [0]),
        ("simul_pending", [0, 1, 1, 2, 2, 3, 0, 4]),
        ("pile", [96]),
    ):
        with pytest.raises(ValueError, match="set_state|pile"):
            core.set_state({**state, key: value})
        assert core.get_state() == before
    refused(
        lambda: core.set_state("x"),
        lambda: core.determinised(random.Random(0), 0),
        lambda: core.determinised(CORE.Stream([1]), 3),
        lambda: core.play([("greedy", 1.0, 1.0, 1.0, False)]),
        lambda: core.play([("nobody",)] * 3),
        lambda: core.agents([("random", [])] * 3),
        lambda: native.new_core(CORE, shuffled_deal(2, 0), options).play(
            core.agents([("leader",)] * 3)
        ),
        lambda: core.step("x"),
    )
    done = native.new_core(CORE, deal, options)
    done.play([("leader",)] * 3)
    refused(lambda: done.choose([("leader",)] * 3))
    assert done.done and done.legal_actions() == [] and done.get_state()["phase"] == GAME_OVER


def test_the_switch_and_a_stale_source_run_the_reference(monkeypatch, tmp_path) -> None:
    native.native.cache_clear()
    monkeypatch.setenv(native.PURE_PYTHON_ENV, "1")
    try:
        assert native.native() is None
        assert isinstance(native.stream(3), random.Random)
    finally:
        native.native.cache_clear()
    monkeypatch.delenv(native.PURE_PYTHON_ENV)
    if CORE is None:
        return
    edited = tmp_path / "core.c"
    edited.write_text(native.SOURCE.read_text() + "\n/* edited */\n")
    monkeypatch.setattr(native, "SOURCE", edited)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            assert native.native() is None
        assert any("core.c changed since it was compiled" in str(w.message) for w in caught)
    finally:
        native.native.cache_clear()


@needs_core
def test_a_rule_edited_in_the_reference_runs_the_reference(monkeypatch, tmp_path) -> None:
    """An edit to a Python file the core restates, with core.c untouched, refuses the core
    with a warning naming the file: a changed rule is never played by the old C."""
    copy = tmp_path / "gallery"
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
        message = "engine.py changed since core.c, which restates it, was compiled"
        assert any(message in str(w.message) for w in caught)
        mirrored = {entry.partition("=")[0] for entry in CORE.MIRRORS_SHA256.split(";")}
        assert mirrored == {
            "engine.py",
            "play.py",
            "agents/greedy.py",
            "agents/random_agent.py",
            "agents/determinise.py",
        }
    finally:
        native.native.cache_clear()


SANITIZED = r"""
import importlib.util, random, sys, sysconfig
sys.path.insert(0, sys.argv[1])
spec = importlib.util.spec_from_file_location(
    "ludolab.envs.gallery._core", f"{sys.argv[1]}/_core{sysconfig.get_config_var('EXT_SUFFIX')}")
_core = importlib.util.module_from_spec(spec)
spec.loader.exec_module(_core)
from ludolab.envs.gallery import native
from ludolab.envs.gallery.deal import shuffled_deal
from ludolab.envs.gallery.engine import Game, GalleryOptions
from ludolab.envs.gallery.cards import OPEN_MODEL_SYMBOLS
OPTIONS = [GalleryOptions(), GalleryOptions(symbols=OPEN_MODEL_SYMBOLS, award_choice=False),
           GalleryOptions(hand_size=19, rounds=6, deals=(10,) * 5, end_count=2)]
SEATS = [("random", [1]), ("leader",), ("greedy", 2.0, 2.0, 1.0, False),
         ("greedy", 0.5, 0.0, 3.0, True), ("random", [9, 9])]
for k in range(60):
    n, options = 2 + k % 4, OPTIONS[k % 3]
    deal = shuffled_deal(n, k)
    core = native.new_core(_core, deal, options)
    game = Game(deal, k, options)
    walk = random.Random(k)
    for step in range(walk.randrange(80)):
        if game.done:
            break
        action = walk.choice(game.legal_actions())
        assert core.step(action) and not core.step(-1)
        game.step(action)
    loaded = native.new_core(_core, deal, options)
    loaded.set_state(native.game_state(game))
    assert loaded.legal_actions() == core.legal_actions()
    if not core.done:
        kept = core.agents(SEATS[:n])
        for seat in range(n):
            copy = core.determinised(_core.Stream([k, seat]), seat).clone()
            copy.choose(kept)
            copy.play(kept, log=True)
        core.play(SEATS[:n])
    core.get_state()
# States set by hand, in range but not consistent: stepping them must not crash.
fuzz = random.Random(5)
base = native.new_core(_core, shuffled_deal(4, 0), GalleryOptions())
state = native.game_state(Game(shuffled_deal(4, 0), 0, GalleryOptions()))
RANDOM = {
    "phase": lambda: fuzz.randrange(5), "acting": lambda: fuzz.randrange(4),
    "current": lambda: fuzz.randrange(4), "round": lambda: fuzz.randrange(5),
    "hand_size": lambda: [fuzz.randrange(4) for _ in range(4)],
    "hands": lambda: [fuzz.randrange(3) for _ in range(120)],
    "face_down_types": lambda: [fuzz.randrange(2) for _ in range(120)],
    "pile": lambda: fuzz.sample(range(95), fuzz.randrange(96)),
    "simul_queue": lambda: fuzz.sample(range(4), fuzz.randrange(3)),
    "simul_pending": lambda: [x for q in fuzz.sample(range(4), fuzz.randrange(2))
                              for x in (q, fuzz.randrange(30))],
    "second_kind": lambda: fuzz.randrange(2), "second_artist": lambda: fuzz.randrange(5),
    "artist_count": lambda: [fuzz.randrange(7) for _ in range(5)],
    "table_types": lambda: [fuzz.randrange(3) for _ in range(30)],
    "discarded": lambda: [fuzz.randrange(4) for _ in range(30)],
    "awards_left": lambda: fuzz.randrange(6), "last_player": lambda: fuzz.randrange(-1, 4),
}
for _ in range(400):
    game = base.clone()
    names = fuzz.sample(sorted(RANDOM), fuzz.randrange(1, 6))
    try:
        game.set_state({**state, **{name: RANDOM[name]() for name in names}})
    except ValueError:
        continue
    game.determinised(_core.Stream([2]), fuzz.randrange(4)).get_state()
    for _ in range(60):
        legal = game.legal_actions()
        if not legal:
            break
        game.step(legal[fuzz.randrange(len(legal))])
        game.step(fuzz.randrange(-2, 70)); game.get_state()
    try:
        game.play(SEATS[:4])
    except RuntimeError:
        pass  # no legal action in a state set by hand
print("clean")
"""


@pytest.mark.slow
def test_the_core_is_clean_under_asan_and_ubsan(tmp_path: Path) -> None:
    cc = shutil.which("gcc")
    if cc is None:
        pytest.skip("no gcc to build the sanitized core")
    libasan = subprocess.run(
        [cc, "-print-file-name=libasan.so"], capture_output=True, text=True
    ).stdout.strip()
    if not Path(libasan).is_file():
        pytest.skip("gcc has no AddressSanitizer runtime (libasan)")
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    build = subprocess.run(
        [
            cc,
            "-shared",
            "-fPIC",
            "-O1",
            "-g",
            "-fno-omit-frame-pointer",
            "-fsanitize=address,undefined",
            "-fno-sanitize-recover=undefined",
            "-Wall",
            "-Wextra",
            "-Werror",
            f"-I{sysconfig.get_paths()['include']}",
            str(native.SOURCE),
            "-o",
            str(tmp_path / f"_core{suffix}"),
        ],
        capture_output=True,
        text=True,
    )
    assert build.returncode == 0, build.stderr
    env = os.environ | {
        "LD_PRELOAD": libasan,
        "ASAN_OPTIONS": "detect_leaks=0",  # the interpreter's own allocations are not ours
        "PYTHONMALLOC": "malloc",
        "UBSAN_OPTIONS": "print_stacktrace=1:halt_on_error=1",
        native.PURE_PYTHON_ENV: "1",  # the reference in Python beside the core
    }
    run = subprocess.run(
        [sys.executable, "-c", SANITIZED, str(tmp_path)], capture_output=True, text=True, env=env
    )
    assert run.returncode == 0 and run.stdout.strip() == "clean", run.stderr[-3000:]
    assert "runtime error" not in run.stderr and "AddressSanitizer" not in run.stderr
