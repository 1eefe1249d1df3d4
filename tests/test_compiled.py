"""The compiled engine (mypyc, setup.py) against its Python source, and the stale-source guard."""

from __future__ import annotations

import ast
import copy
import hashlib
import importlib
import importlib.machinery
import json
import os
import pickle
import random
import subprocess
import sys
import warnings
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path

import pytest

import ludolab.envs
import ludolab.research
from ludolab.envs.catan import actions as A
from ludolab.envs.catan.agents import GreedyAgent, make_agent, parse_agent_spec
from ludolab.envs.catan.engine import Game, GameOptions, attributes
from ludolab.envs.catan.play import play_game
from ludolab.envs.compiled import (
    EXTENSION_SUFFIX,
    PURE_PYTHON_ENV,
    _SourceFinder,
    activate,
    find_extensions,
    stale_sources,
)
from ludolab.research.catan.samplers import fair_board

ROOT = Path(__file__).resolve().parent.parent
RUNNING_SOURCE = os.environ.get(PURE_PYTHON_ENV, "") not in ("", "0")


def _compiled_in_setup(package: str) -> list[str]:
    """The module names setup.py compiles for ``package`` (its COMPILED table)."""
    for node in ast.parse((ROOT / "setup.py").read_text()).body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "COMPILED":
            paths = ast.literal_eval(node.value)[package]
            return sorted("ludolab." + p.removesuffix(".py").replace("/", ".") for p in paths)
    raise AssertionError("setup.py has no COMPILED table")


# Lineups x options: every agent, 2-4 seats, and the options that take other code paths. The
# lookahead's play-off is small here (its default, 128 play-outs of 5 spots, costs about 20 s
# for four games on both sides); the slow test plays it at its default.
GAMES = [
    (["random"] * 4, {}),
    (["greedy"] * 4, {}),
    (["greedy", "random", "lookahead:playouts=8,finalists=2", "greedy:robber=production"], {}),
    (["greedy"] * 3, {"friendly_robber": True, "discard_limit": 9}),
    (["random", "greedy"], {"vp_to_win": 8, "cut_holder_keeps_ties": False}),
    (["random"] * 3, {"trade_offers_per_turn": 0, "turn_limit": 60}),
]
SEEDS = range(4)

# Run by a subprocess with the source forced: the same function, the other implementation.
PLAY_SCRIPT = """
import json, sys
sys.path.insert(0, sys.argv[1])
import ludolab.envs
from test_compiled import play_plan
what = ludolab.envs.COMPILED.describe()
print(json.dumps({"what": what, "records": play_plan(json.loads(sys.argv[2]))}))
"""


def play_plan(plan: list) -> list[dict]:
    """The records of the games of ``plan`` ((agent specs, options, seed) each), as JSON data."""
    records = []
    for specs, opts, seed in plan:
        seats = [parse_agent_spec(s) for s in specs]
        records.append(asdict(play_game(fair_board(seed), seats, seed, GameOptions(**opts))))
    return json.loads(json.dumps(records))


def _plan(games: list[tuple[list[str], dict]] = GAMES) -> list[tuple[list[str], dict, int]]:
    return [(specs, opts, seed) for specs, opts in games for seed in SEEDS]


@pytest.mark.parametrize("package", [ludolab.envs, ludolab.research])
def test_the_hot_modules_run_compiled(package) -> None:
    """An install compiles the modules setup.py names, and they are what runs (unless the
    source was asked for): a failed or skipped compile does not pass unnoticed."""
    if RUNNING_SOURCE:
        pytest.skip(f"{PURE_PYTHON_ENV} is set: the source runs by request")
    expected = _compiled_in_setup(package.__name__)
    assert list(package.COMPILED.compiled) == expected, (
        f"{package.COMPILED.describe()}; expected {expected} compiled. Reinstall with `make "
        f"setup`, or set {PURE_PYTHON_ENV}=1 to test the Python source alone."
    )
    for name in expected:
        module_file = str(importlib.import_module(name).__file__)
        assert module_file.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)), module_file


def test_compiled_and_source_play_the_same_games() -> None:
    """The Python source (in a subprocess with LUDOLAB_PURE_PYTHON=1) and what runs here play
    every game move for move the same: same records, action counts and traces."""
    _check_same_games(_plan())


@pytest.mark.slow
def test_compiled_and_source_play_the_same_games_with_the_default_lookahead() -> None:
    _check_same_games(_plan([(["greedy", "random", "lookahead", "greedy"], {})]))


def _check_same_games(plan: list[tuple[list[str], dict, int]]) -> None:
    if RUNNING_SOURCE or not ludolab.envs.COMPILED.compiled:
        pytest.skip("nothing is compiled: both sides would be the source")
    done = subprocess.run(
        [sys.executable, "-c", PLAY_SCRIPT, str(Path(__file__).parent), json.dumps(plan)],
        capture_output=True,
        text=True,
        env={**os.environ, PURE_PYTHON_ENV: "1"},
        check=True,
    )
    source = json.loads(done.stdout)
    assert source["what"].startswith("Python source"), source["what"]
    here = play_plan(plan)
    assert len(here) == len(source["records"]) == len(plan)
    for (specs, opts, seed), mine, theirs in zip(plan, here, source["records"], strict=True):
        assert mine == theirs, f"{specs} {opts} seed {seed} differ"


def _state(game: Game) -> dict[str, object]:
    return {
        key: value.getstate() if isinstance(value, random.Random) else value
        for key, value in attributes(game).items()
        if key != "_legal"  # (a memo of legal_actions(), made or not)
    }


def test_a_game_pickles_and_copies_and_plays_on_identically() -> None:
    """Compiled, a game has no __dict__: pickling and copying go through Game.__reduce__."""
    game = Game(fair_board(3), 4, 3, GameOptions())
    agents = [make_agent("random") for _ in range(4)]
    for seat, agent in enumerate(agents):
        agent.reset(seat, 3)
    for _ in range(150):
        game.step(agents[game.acting].act(game, game.legal_actions()))
    twins = [pickle.loads(pickle.dumps(game)), copy.deepcopy(game), game.clone()]
    for twin in twins:
        assert _state(twin) == _state(game)
    for _ in range(200):
        if game.done:
            break
        action = agents[game.acting].act(game, game.legal_actions())
        for twin in [game, *twins]:
            assert action in twin.legal_actions()  # (as a player's turn would ask for them)
            twin.step(action)
    for twin in twins:
        assert _state(twin) == _state(game)


class NoOffersGreedy(GreedyAgent):
    """A greedy variant written in Python, as a researcher would: it never offers a trade."""

    name = "greedy-no-offers"

    def _offer(self, game: Game, legal: Sequence[int]) -> int | None:
        return None


def _offers_made(agent_class: type[GreedyAgent], seeds: range) -> int:
    offers = 0
    for seed in seeds:
        game = Game(fair_board(seed), 4, seed)
        agents = [agent_class() for _ in range(4)]
        for seat, agent in enumerate(agents):
            agent.reset(seat, seed)
        while not game.done:
            action = agents[game.acting].act(game, game.legal_actions())
            offers += A.OFFER <= action < A.ACCEPT_TRADE
            game.step(action)
    return offers


def test_a_python_subclass_of_a_compiled_agent_plays_its_own_rule() -> None:
    """Compiled agents allow Python subclasses, and the compiled code calls their overrides."""
    assert _offers_made(GreedyAgent, range(3)) > 0
    assert _offers_made(NoOffersGreedy, range(3)) == 0


def test_numpy_scalars_are_accepted_where_ints_and_bools_are() -> None:
    """A compiled `int` parameter refuses numpy's integers: the entry points a study calls with
    numbers from numpy or pandas take them, as the source does."""
    np = pytest.importorskip("numpy")
    options = GameOptions(vp_to_win=np.int64(8), turn_limit=np.int32(60), debug=np.bool_(True))
    assert (type(options.vp_to_win), type(options.turn_limit), options.debug) == (int, int, True)
    game = Game(fair_board(0), np.int64(3), np.int64(5), options)
    assert (game.n_players, game.seed) == (3, 5)
    game.step(np.int64(game.legal_actions()[0]))
    assert game.n_actions == 1
    # A small play-off: its play-outs run with the invariant checks too.
    seats = [make_agent("greedy"), parse_agent_spec("lookahead:playouts=8"), make_agent("random")]
    record = play_game(fair_board(1), seats, np.int64(7), options)
    assert record.seed == 7 and record.turns > 0
    with pytest.raises(TypeError, match="GameOptions.vp_to_win must be an integer"):
        GameOptions(vp_to_win=8.5)


def test_agents_copy_and_pickle_mid_game_and_play_on_identically() -> None:
    """Scripted agents keep board tables (BoardInfo) that must survive copying and pickling
    (an environment with greedy opponents is copied with them)."""
    game = Game(fair_board(2), 4, 2)
    agents = [parse_agent_spec(s) for s in ("greedy", "lookahead", "greedy:trade=false", "random")]
    for seat, agent in enumerate(agents):
        agent.reset(seat, 2)
    for _ in range(120):
        game.step(agents[game.acting].act(game, game.legal_actions()))
    copies = [copy.deepcopy((game, agents)), pickle.loads(pickle.dumps((game, agents)))]
    actions = []
    while not game.done:
        actions.append(agents[game.acting].act(game, game.legal_actions()))
        game.step(actions[-1])
    for twin_game, twin_agents in copies:
        for action in actions:
            assert twin_agents[twin_game.acting].act(twin_game, twin_game.legal_actions()) == action
            twin_game.step(action)
        assert twin_game.done and twin_game.winner == game.winner


# -- the guard, on a package made up in a temporary folder ----------------------------------------


@pytest.fixture
def package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """tmp/fakepkg with a module `mod` whose "extension" is garbage: importing it would fail,
    so a successful import shows that the source ran. Stamped as compiled from its source."""
    root = tmp_path / "fakepkg"
    root.mkdir()
    (root / "__init__.py").write_text("")
    (root / "mod.py").write_text("ANSWER = 42\n")
    (root / f"mod{EXTENSION_SUFFIX}").write_bytes(b"not a library")
    digest = hashlib.sha256((root / "mod.py").read_bytes()).hexdigest()
    build = {"compiler": "mypyc test", "sources": {"fakepkg/mod.py": digest}}
    stamp = {"builds": {EXTENSION_SUFFIX: build, ".other-interpreter.so": {"sources": {}}}}
    (root / "_compiled.json").write_text(json.dumps(stamp))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(sys, "meta_path", list(sys.meta_path))  # undo the finder afterwards
    for name in ("fakepkg", "fakepkg.mod"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    return root


def test_guard_finds_extensions_and_checks_their_stamp(package: Path) -> None:
    assert find_extensions(package) == {"fakepkg.mod": package / "mod.py"}
    assert stale_sources(package, find_extensions(package)) == []
    (package / "mod.py").write_text("ANSWER = 43\n")
    assert stale_sources(package, find_extensions(package)) == ["fakepkg/mod.py"]
    (package / "mod.py").write_text("ANSWER = 42\n")
    assert stale_sources(package, find_extensions(package)) == []
    # Another interpreter's build record does not vouch for this one's extensions.
    stamp = json.loads((package / "_compiled.json").read_text())
    stamp["builds"] = {".other-interpreter.so": stamp["builds"][EXTENSION_SUFFIX]}
    (package / "_compiled.json").write_text(json.dumps(stamp))
    assert stale_sources(package, find_extensions(package)) == ["fakepkg/mod.py"]
    (package / "_compiled.json").unlink()
    assert stale_sources(package, find_extensions(package)) == ["fakepkg/mod.py"]


def test_guard_keeps_a_fresh_compile(package: Path) -> None:
    finders = list(sys.meta_path)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        state = activate(package, environ={})
    assert state.compiled == ("fakepkg.mod",) and state.note == "mypyc test"
    assert sys.meta_path == finders  # no finder for its source


def test_guard_runs_the_source_of_a_changed_module_with_a_warning(package: Path) -> None:
    (package / "mod.py").write_text("ANSWER = 43\n")
    with pytest.warns(RuntimeWarning, match=r"fakepkg/mod.py changed since it was compiled.*make"):
        state = activate(package, environ={})
    assert state.compiled == () and "fakepkg/mod.py changed" in state.describe()
    assert isinstance(sys.meta_path[0], _SourceFinder)
    import fakepkg.mod  # the garbage extension would fail to load

    assert fakepkg.mod.ANSWER == 43


def test_guard_runs_the_source_on_request_without_a_warning(package: Path) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        state = activate(package, environ={PURE_PYTHON_ENV: "1"})
    assert state.compiled == () and PURE_PYTHON_ENV in state.note
    import fakepkg.mod

    assert fakepkg.mod.ANSWER == 42
