"""The game protocol (ludolab.games): the registry, its errors, and the generic layers that must
know games only through it."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from ludolab import games
from ludolab.games import Game, GameRegistrationError, UnknownGameError

ROOT = Path(__file__).resolve().parent.parent

REGISTERED = ", ".join(games.names()) + "".join(
    f", and {f}:<game> ({games.family(f).title})" for f in games.families()
)
"""The registered games as the unknown-game message lists them (an installed example too),
then each family's members."""


def test_the_built_in_games_register_through_the_entry_point_group() -> None:
    assert {"catan", "gallery"} <= set(games.names())
    for name in ("catan", "gallery"):
        game = games.get(name)
        assert isinstance(game, Game) and game.name == name
        assert game.protocol == games.PROTOCOL_VERSION
        assert game.default_players in game.players
        assert game.default_sampler in game.samplers
        assert set(game.setup_options) <= set(game.option_names())
        assert set(game.option_units) <= set(game.option_names())
        assert game.setups_file == f"{game.setup_plural}.jsonl"
    assert games.get("catan").setups_key == "boards"
    assert games.get("gallery").games_per_setup_key == "games_per_deal"


def test_an_unknown_game_is_one_line_naming_the_registered_ones() -> None:
    with pytest.raises(UnknownGameError) as caught:
        games.get("chess")
    message = str(caught.value)
    assert "\n" not in message
    assert message == "unknown game 'chess'; the registered games are " + REGISTERED


def _entry(name: str, obj: object = None, error: Exception | None = None) -> SimpleNamespace:
    def load() -> object:
        if error is not None:
            raise error
        return obj

    return SimpleNamespace(name=name, value=f"somewhere:{name.upper()}", load=load)


class _Old(type(games.get("catan"))):  # type: ignore[misc]
    protocol = 0


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        (_entry("broken", error=ImportError("no module named x")), "cannot be loaded: ImportError"),
        (_entry("notgame", obj=object()), "is object, not a ludolab.games.Game"),
        (_entry("catan", obj=_Old()), "written for game protocol 0; this ludolab speaks version 1"),
        (_entry("other", obj=games.get("catan")), "registers a game named 'catan'"),
    ],
)
def test_a_bad_registration_says_which_entry_point_and_why(entry: object, message: str) -> None:
    with pytest.raises(GameRegistrationError, match=message):
        games._load(entry)


class _Family(games.GameFamily):
    name = "lib"
    title = "A library"

    def members(self) -> list[str]:
        return ["one"]

    def member(self, name: str) -> Game:
        raise games.UnknownGameError(f"lib:{name}: no such game")


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        (_entry("broken", error=ImportError("no x")), "family 'broken' .* cannot be loaded"),
        (_entry("notfamily", obj=games.get("catan")), "is Catan, not a ludolab.games.GameFamily"),
        (_entry("other", obj=_Family()), "registers a game family named 'lib'"),
    ],
)
def test_a_bad_family_registration_says_which_entry_point_and_why(
    entry: object, message: str
) -> None:
    with pytest.raises(GameRegistrationError, match=message):
        games._load_family(entry)


def test_a_family_class_is_instantiated() -> None:
    family = games._load_family(_entry("lib", obj=_Family))
    assert isinstance(family, _Family) and family.members() == ["one"]


def test_a_registered_game_class_is_instantiated() -> None:
    game = games._load(_entry("catan", obj=type(games.get("catan"))))
    assert isinstance(game, Game) and game.name == "catan"


def _ludolab(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "ludolab.research.cli", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
    )


def test_an_unknown_game_on_the_command_line_is_one_line_exit_2(tmp_path: Path) -> None:
    done = _ludolab("ladder", "chess", "--agents", "random,greedy", "--out", str(tmp_path / "x"))
    assert done.returncode == 2
    assert done.stderr == (
        f"ludolab: error: unknown game 'chess'; the registered games are {REGISTERED}\n"
    )
    config = tmp_path / "chess.toml"
    config.write_text('game = "chess"\nseed = 1\n')
    done = _ludolab("run", str(config), "--out", str(tmp_path / "results"))
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1
    assert f"key 'game': unknown game 'chess'; the registered games are {REGISTERED}" in (
        done.stderr
    )
    assert not (tmp_path / "results").exists()


# --- the generic layers name no game ----------------------------------------------------------

GENERIC = [
    "ludolab/*.py",
    "envs/agents.py",
    "envs/faces.py",
    "envs/search.py",
    "envs/rules.py",
    "envs/jsonl.py",
    "envs/sb3.py",
    "research/*.py",
    "research/cli/*.py",
    "research/design/*.py",
    "research/experiment/*.py",
    "research/experiment/config/*.py",
    "research/metrics/*.py",
    "research/plots/*.py",
    "research/stats/*.py",
]
"""The layers every game shares: they may know a game only through ludolab.games."""

def _outside_packages() -> list[str]:
    """The top-level packages of the registered games that live outside ludolab."""
    modules = [games.source(name)["entry_point"] or "" for name in games.names()]
    return sorted({m.split(".")[0] for m in modules if not m.startswith("ludolab.")})


NAMED = games.names() + games.families()
GAME_WORD = re.compile("|".join(map(re.escape, NAMED)), re.IGNORECASE)
"""Every registered game's and family's name (the built-in ones, and an installed outside
game's)."""
GAME_PACKAGES = re.compile(
    rf"^(ludolab\.(envs|research)\.({'|'.join(map(re.escape, NAMED))})"
    rf"|{'|'.join(map(re.escape, _outside_packages())) or '(?!)'})(\.|$)"
)
"""A game's own modules: the built-in games' packages, an outside game's top package."""


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the strings that stand alone as statements (the docstrings of modules,
    classes, functions and attributes): prose, where examples may name a game."""
    return {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
    }


def game_names_in(path: Path) -> list[str]:
    """Where the code of ``path`` names a game or imports a game's module: ``line: what``
    (docstrings and comments aside)."""
    tree = ast.parse(path.read_text(), str(path))
    prose = _docstrings(tree)
    found = []
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.ImportFrom) and node.module:
            modules = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            if any(GAME_PACKAGES.match(m) for m in modules):
                found.append(f"{line}: imports {node.module}")
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names if GAME_PACKAGES.match(a.name)]
            found += [f"{line}: imports {name}" for name in names]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) not in prose and GAME_WORD.search(node.value):
                found.append(f"{line}: {node.value[:60]!r}")
        elif isinstance(node, ast.Name) and GAME_WORD.search(node.id):
            found.append(f"{line}: name {node.id}")
        elif isinstance(node, ast.Attribute) and GAME_WORD.search(node.attr):
            found.append(f"{line}: attribute {node.attr}")
        elif isinstance(node, ast.FunctionDef | ast.ClassDef) and GAME_WORD.search(node.name):
            found.append(f"{line}: defines {node.name}")
    return sorted(found, key=lambda f: int(f.partition(":")[0]))


def _generic_files() -> list[Path]:
    return sorted({p for pattern in GENERIC for p in ROOT.glob(pattern)})


def test_the_scan_finds_a_game_name_in_code_and_not_in_prose(tmp_path: Path) -> None:
    planted = tmp_path / "planted.py"
    planted.write_text(
        '"""A module about Catan."""\n'
        "# comments may say Catan too\n"
        "from ludolab.envs.gallery.deal import Deal\n"
        "def f(game):\n"
        '    """Docstring: catan."""\n'
        '    return game == "catan"\n'
        "CATAN_TITLE = 1\n"
    )
    assert game_names_in(planted) == [
        "3: imports ludolab.envs.gallery.deal",
        "6: 'catan'",
        "7: name CATAN_TITLE",
    ]


def test_the_generic_layers_on_the_protocol_name_no_game() -> None:
    offenders = {}
    for path in _generic_files():
        rel = path.relative_to(ROOT).as_posix()
        if found := game_names_in(path):
            offenders[rel] = found
    assert not offenders, f"generic code names a game (use ludolab.games): {offenders}"


def test_the_protocol_reference_is_the_one_the_code_gives() -> None:
    """docs/game-protocol.md is generated from ludolab/games.py: a member added to the protocol
    appears in it by running `python docs/game_protocol.py`, never by editing the page."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("game_protocol", ROOT / "docs/game_protocol.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    page = module.page()
    assert (ROOT / "docs/game-protocol.md").read_text() == page, (
        "docs/game-protocol.md is out of date: run `python docs/game_protocol.py`"
    )
    for name in ("set_constraints", "draw_setups", "play", "record_type", "key_feature"):
        assert f"`{name}" in page
    without_default = {n for n in games.Game.__annotations__ if n not in vars(games.Game)}
    required = set(games.Game.__abstractmethods__) | without_default
    game_part, _, family_part = page.partition("## A family of games")
    assert game_part.count("**required**") == len(required)
    assert family_part.count("**required**") == len(games.GameFamily.__abstractmethods__) == 2


def test_a_game_s_own_report_section_is_placed_in_the_report(monkeypatch) -> None:
    """Game.report_section: none by default; a game's title, text and table become the
    report's blocks."""
    import pandas as pd

    from ludolab.games import ReportSection
    from ludolab.research.experiment.report import _game_section

    data = SimpleNamespace(game="gallery", per_game=pd.DataFrame({"turns": [1, 2]}))
    assert _game_section(data) == []
    table = pd.DataFrame({"turns": [1.5]})
    gallery = games.get("gallery")
    monkeypatch.setattr(
        type(gallery),
        "report_section",
        lambda self, per_game: ReportSection("Own", f"{len(per_game)} games", table, "caption"),
    )
    blocks = _game_section(data)
    assert [(b.kind, b.caption) for b in blocks] == [("h2", ""), ("p", ""), ("table", "caption")]
    assert blocks[0].content == "Own" and blocks[1].content == "2 games"
    assert blocks[2].content is table
