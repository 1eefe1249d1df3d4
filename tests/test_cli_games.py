"""``ludolab simulate GAME`` and ``ludolab generate GAME`` on the game protocol: a subcommand for
every registered game, its rule options as flags derived from the game's options dataclass, and
one line for a game nobody registered."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace

import pyarrow.parquet as pq
import pytest

from ludolab import games
from ludolab.games import RECORD_CORE, Game, OptionFlag, SetupSetError
from ludolab.research.cli.common import SimulationError, add_option_flags, read_options


def ludolab(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "ludolab.research.cli", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
    )


@pytest.mark.parametrize("command", ["simulate", "generate"])
def test_an_unknown_game_is_one_line_naming_the_registered_ones(command, tmp_path) -> None:
    done = ludolab(command, "chess", "--out", str(tmp_path / "x"), cwd=tmp_path)
    assert done.returncode == 2
    families = "".join(f", and {f}:<game> ({games.family(f).title})" for f in games.families())
    assert done.stderr == (
        f"ludolab: error: unknown game 'chess'; the registered games are "
        f"{', '.join(games.names())}{families}\n"
    )
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("name", games.names())
def test_every_registered_game_generates_and_simulates(name, tmp_path) -> None:
    """What a game from outside gets by registering: both commands, from the protocol alone."""
    game = games.get(name)
    cset = game.default_set or game.smoke_set or game.shipped_sets()[0]
    seats = [] if game.min_players == game.max_players else ["-p", str(game.default_players)]
    plural = game.setup_plural
    gen = ["generate", name, "-c", cset, "-n", "3", "--seed", "1", *seats, "-q"]
    done = ludolab(*gen, "--out", "setups.jsonl", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    lines = (tmp_path / "setups.jsonl").read_text().splitlines()
    setups = [game.setup_from_dict(json.loads(line), "setups.jsonl") for line in lines]
    assert 1 <= len(setups) <= 3  # a sampler that lists a small set may give fewer
    assert f"{len(setups)} {plural} for " in done.stdout and "distribution:" in done.stdout

    sim = ["simulate", name, f"--{plural}", "setups.jsonl", "--games", "4", "--seed", "2"]
    done = ludolab(*sim, *seats, "--out", "games.parquet", "-q", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    players = game.default_players
    assert f"4 games of {players} players on {len(setups)} " in done.stdout
    assert "outright win rate" in done.stdout and f"({game.score_unit})" in done.stdout
    table = pq.read_table(tmp_path / "games.parquet")
    assert table.num_rows == 4
    assert table.column_names[2 : 2 + len(RECORD_CORE)] == list(RECORD_CORE)
    assert set(table.column("setup_id").to_pylist()) <= {s.id for s in setups}
    meta = json.loads(table.schema.metadata[b"ludolab"])
    assert meta["schema"] == f"ludolab.{name}.games/2" and meta[plural] == "setups.jsonl"
    assert meta["options"].keys() == set(game.option_names())

    assert ludolab("simulate", name, "--help", cwd=tmp_path).returncode == 0
    assert ludolab("generate", name, "--help", cwd=tmp_path).returncode == 0


def test_a_derived_option_flag_reaches_the_engine(tmp_path) -> None:
    def play(*flags: str) -> dict:
        args = ["simulate", "catan", "--games", "12", "--seed", "5", *flags, "-q"]
        done = ludolab(*args, "--out", "g.parquet", "--force", cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        return pq.read_table(tmp_path / "g.parquet").to_pydict()

    short = play("--vp-to-win", "5", "--trade-offers", "0")
    published = play()
    pairs = zip(short["final_scores"], short["winners"], strict=True)
    won = [scores[w[0]] for scores, w in pairs if w]
    assert won and min(won) >= 5 and max(won) < 10
    assert sum(short["turns"]) < sum(published["turns"])
    assert short["seed"] == published["seed"]  # the same games, by their seeds


def test_the_rule_switches_keep_their_meaning(tmp_path) -> None:
    args = ["simulate", "gallery", "-p", "2", "--games", "2", "--out", "g.parquet", "-q"]
    old = ["--no-extra-card", "--extra-card-at-setup-only", "--award-own-artist"]
    done = ludolab(*args, *old, "--rounds", "3", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    options = json.loads(pq.read_schema(tmp_path / "g.parquet").metadata[b"ludolab"])["options"]
    assert options["extra_card"] is False and options["extra_card_each_round"] is False
    assert options["award_choice"] is False and options["rounds"] == 3
    done = ludolab("simulate", "catan", "--turn-limit", "0", "--games", "1", "--out", "c.parquet",
                   "-q", cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    meta = json.loads(pq.read_schema(tmp_path / "c.parquet").metadata[b"ludolab"])
    assert meta["options"]["turn_limit"] is None  # 0: no limit, as before


# --- flags derived from an options dataclass --------------------------------------------------


@dataclass(frozen=True)
class ToyOptions:
    """Rules of a toy game.

    Attributes:
        target: points that win, counted at the end
            of a turn.
        fast: play the short variant.
        slow: a rule on by default.
        limit: turns before the game is cut off; None for no limit.
        prizes: the prize of each place.
        deals: a name the command's own flag takes.
        mode: "open" or "closed".
        table: no flag spells a table.
        level: read by the game's own parse.
    """

    target: int = 10
    fast: bool = False
    slow: bool = True
    limit: int | None = 50
    prizes: tuple[int, ...] = (3, 2, 1)
    deals: int = 2
    mode: str = "open"
    table: tuple[tuple[int, ...], ...] = ((1,),)
    level: int = 0

    def __post_init__(self) -> None:
        if self.target < 1:
            raise ValueError(f"ToyOptions.target must be at least 1, got {self.target}")


def _level(text: str) -> int:
    if text not in ("low", "high"):
        raise ValueError(f"--level: expected low or high, got {text!r}")
    return {"low": 1, "high": 2}[text]


TOY = SimpleNamespace(
    title="Toy",
    options_type=ToyOptions,
    option_units={"target": "points"},
    option_names=lambda: [f for f in ToyOptions.__dataclass_fields__],
    default_options=ToyOptions,
    option_flags=lambda: {
        "level": OptionFlag(parse=_level, metavar="WORD"),
        "slow": OptionFlag(off=("--quick",)),
    },
)


def _toy_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="toy")
    parser.add_argument("--deals")  # a common flag the option must not take
    add_option_flags(parser, TOY)  # type: ignore[arg-type]
    return parser


def test_option_flags_are_derived_from_the_dataclass() -> None:
    parser = _toy_parser()
    text = parser.format_help()
    assert "points that win, counted at the end of a turn (default: 10 points)" in " ".join(
        text.split()
    )
    assert "--fast, --no-fast" in text and "--rule-deals" in text and "--table" not in text
    assert "--prizes PRIZES,..." in text and "--quick" in text
    args = parser.parse_args(
        ["--target", "7", "--fast", "--quick", "--limit", "none", "--prizes", "5,1",
         "--mode", "closed", "--rule-deals", "4", "--level", "high"]
    )  # fmt: skip
    options = read_options(TOY, args)  # type: ignore[arg-type]
    assert options == ToyOptions(
        target=7, fast=True, slow=False, limit=None, prizes=(5, 1), deals=4, mode="closed",
        level=2,
    )  # fmt: skip
    assert read_options(TOY, parser.parse_args([])) == ToyOptions()  # type: ignore[arg-type]


def test_a_bad_option_value_is_one_line_naming_the_flag(capsys) -> None:
    parser = _toy_parser()
    with pytest.raises(SimulationError, match=r"^--target: target must be at least 1, got 0$"):
        read_options(TOY, parser.parse_args(["--target", "0"]))  # type: ignore[arg-type]
    with pytest.raises(SimulationError, match=r"^--level: expected low or high, got 'x'$"):
        read_options(TOY, parser.parse_args(["--level", "x"]))  # type: ignore[arg-type]
    with pytest.raises(SystemExit):
        parser.parse_args(["--limit", "ten"])
    assert "argument --limit: expected an integer or none, got 'ten'" in capsys.readouterr().err


# --- the protocol's command-line defaults ---------------------------------------------------


class _Plain(type(games.get("gallery"))):  # type: ignore[misc]
    """Masters Gallery with the protocol's defaults for what ``constraints`` prints."""

    constraint_library = Game.constraint_library
    describe_set = Game.describe_set


def test_the_default_set_listing_and_description_come_from_set_as_data() -> None:
    plain = _Plain()
    listing = plain.constraint_library().splitlines()
    assert listing[0] == "Shipped Masters Gallery constraint sets (ludolab constraints show NAME):"
    assert max(map(len, listing)) <= 100
    assert {line.split(":")[0].strip() for line in listing[1:] if line.startswith("  ")} >= set(
        plain.shipped_sets()
    )
    shown = plain.describe_set("balanced-symbols")
    assert "  - balanced-symbols(tolerance=0, by='kind')" in shown.splitlines()
    assert plain.describe_set("fair").endswith("(no constraints: fair deals)")
    with pytest.raises(SetupSetError, match="has no solver model") as caught:
        plain.describe_set("fair", model=True)
    assert caught.value.key == "model"


def test_constraints_list_can_name_one_game(tmp_path) -> None:
    done = ludolab("constraints", "list", "--game", "gallery", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Masters Gallery deal constraints")
    assert "Catan" not in done.stdout


def test_a_set_with_a_raw_minizinc_constraint_is_known_as_catan_s(tmp_path, capsys) -> None:
    """``minizinc`` (a raw expression on the board model) names no game, but only Catan has
    it: ``constraints show`` finds the game without --game."""
    from ludolab.research.cli import main

    path = tmp_path / "no-ore-centre.toml"
    path.write_text(
        'name = "no-ore-centre"\n[[constraint]]\nname = "red-numbers-apart"\n'
        '[[constraint]]\nname = "minizinc"\ncode = "terrain[10] != 4"\nreads = ["terrain"]\n'
    )
    assert games.game_of_set(path) == "catan"
    assert main(["constraints", "show", str(path), "--model"]) == 0
    assert "terrain[10] != 4" in capsys.readouterr().out
