"""The smaller slips a new user hit (issue 48, item 6): a suggestion for a mistyped name, a bad
override blamed on the flag that gave it, one agent spec for every seat in the API, a public
comparison of one's own tables, numbers kept off the coast, and `plan` quiet until its config
loads."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import ludolab
from ludolab.research.catan.constraint_set import ConstraintSetError, parse_constraint_set
from ludolab.research.catan.constraints import ConstraintError, make_constraint
from ludolab.research.catan.generate import generate_boards
from ludolab.research.catan.geometry import layout_arrays
from ludolab.research.catan.samplers import Shuffle
from ludolab.research.cli import main
from ludolab.research.gallery.deals import DealConstraintError, generate_deals
from ludolab.research.suggest import did_you_mean


def test_did_you_mean():
    assert did_you_mean("red-number-apart", ["red-numbers-apart", "resource-pips"]) == (
        "did you mean 'red-numbers-apart'? "
    )
    assert did_you_mean("zzz", ["red-numbers-apart"]) == ""


def test_a_mistyped_constraint_or_parameter_gets_a_suggestion():
    with pytest.raises(ConstraintError, match="did you mean 'red-numbers-apart'"):
        make_constraint("red-number-apart")
    with pytest.raises(ConstraintError, match="no parameter 'mni'; did you mean 'min'"):
        make_constraint("resource-pips", mni=3)
    with pytest.raises(DealConstraintError, match="did you mean 'balanced-symbols'"):
        generate_deals(["balanced-symbol"], 3, 1, 0)
    with pytest.raises(DealConstraintError, match="did you mean 'tolerance'"):
        generate_deals("balanced-symbols", 3, 1, 0, {"balanced-symbols.tolrance": 1})


@pytest.mark.parametrize(
    ("param", "words"),
    [
        ("red-numbers-apart.nmbers=3", "--param red-numbers-apart.nmbers=3: constraint "),
        ("red-numbers-apart.numbers=3", "--param red-numbers-apart.numbers=3: constraint "),
        ("red-number-apart.numbers=[6]", "did you mean 'red-numbers-apart'"),
    ],
)
def test_a_bad_param_is_blamed_on_the_flag(param, words, tmp_path, capsys):
    out = str(tmp_path / "b.jsonl")
    assert main(["generate", "catan", "-c", "balanced", "--param", param, "--out", out]) == 2
    err = capsys.readouterr().err
    assert words in err and "--param" in err
    assert not err.split("error: ")[1].startswith("constraint_sets/")


def test_a_param_the_file_got_wrong_is_still_blamed_on_the_file():
    data = {"constraint": [{"name": "red-numbers-apart", "numbers": 3}]}
    with pytest.raises(ConstraintSetError, match=r"^mine.toml: constraint\[0\]"):
        parse_constraint_set(data, "mine.toml", "mine", {"red-numbers-apart.neighbourhood": "x"})


def test_a_bad_gallery_param_names_the_flag(tmp_path, capsys):
    out = str(tmp_path / "d.jsonl")
    args = ["generate", "gallery", "-p", "3", "-c", "balanced-symbols", "--out", out]
    assert main([*args, "--param", "balanced-symbol.tolerance=1"]) == 2
    assert main([*args, "--param", "balanced-symbols.tolrance=1"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith("ludolab: error: --param balanced-symbol.tolerance")
    assert "with --param balanced-symbols.tolrance=1" in err[1]


def test_one_agent_spec_fills_every_seat():
    games = ludolab.simulate("gallery", "greedy", 3, players=3)
    assert all(list(a) == ["greedy"] * 3 for a in games.games["agents"])
    deals = ludolab.generate("fair", 2, players=4)
    games = ludolab.simulate("gallery", "random", 2, setups=deals)
    assert all(len(a) == 4 for a in games.games["agents"])
    with pytest.raises(ValueError, match="players=2..4"):
        ludolab.simulate("catan", "greedy", 2)
    with pytest.raises(ValueError, match="players=3 but 2 agent specs"):
        ludolab.simulate("catan", ["greedy", "random"], 2, players=3)


def _planted(shift: float, boards: int = 30, games: int = 4, seed: int = 0) -> pd.DataFrame:
    """Games on boards drawn for each condition (each board its own level, sd 6), the second
    condition adding ``shift``, and games adding noise (sd 4)."""
    rng = np.random.default_rng(seed)
    rows = []
    for cond, add in (("base", 0.0), ("new", shift)):
        level = rng.normal(60, 6, boards)
        for b in range(boards):
            for g in range(games):
                rows.append((cond, b, g, level[b] + add + rng.normal(0, 4)))
    return pd.DataFrame(rows, columns=["condition", "setup", "game", "turns"])


def test_compare_finds_a_planted_shift_on_setup_means():
    table = ludolab.compare(_planted(8.0), "turns", baseline="base")
    (row,) = table.itertuples()
    assert (row.condition1, row.condition2, row.n1) == ("new", "base", 30)  # boards, not games
    assert row.diff_low < 8.0 < row.diff_high and row.significant and row.verdict == "higher"


def test_compare_does_not_count_games_as_units():
    """An A/A comparison finds nothing, and the unit is the board: twenty times the games per
    board leave the MDE near the boards' spread (counting games as units would shrink it about
    4.5 times)."""
    few = ludolab.compare(_planted(0.0, games=2), "turns", baseline="base")
    many = ludolab.compare(_planted(0.0, games=40), "turns", baseline="base")
    assert not few["significant"].any() and not many["significant"].any()
    assert (many["n1"] == 30).all()
    assert many["mde"].iloc[0] > 0.6 * few["mde"].iloc[0]


def test_compare_rejects_a_missing_column_or_baseline():
    with pytest.raises(ValueError, match="turnz"):
        ludolab.compare(_planted(1.0), "turnz")
    with pytest.raises(ValueError, match="baseline 'old'"):
        ludolab.compare(_planted(1.0), "turns", baseline="old")


def test_number_placement_keeps_six_and_eight_off_the_coast():
    cset = parse_constraint_set({"constraint": [{"name": "number-placement"}]}, "t", "t", {})
    coast = np.flatnonzero(layout_arrays("standard").ring == 2)
    drawn, report = generate_boards(cset, 50, "uniform", 3)
    assert report.uniform
    for board in drawn:
        assert not {board.numbers[h] for h in coast} & {6, 8}
    rng, shuffle = np.random.default_rng(0), Shuffle()
    terrain = shuffle.draw_terrain(rng, 5000)
    numbers = shuffle.draw_numbers(rng, terrain)
    ok = cset.check(terrain, numbers, shuffle.draw_harbors(rng, 5000))
    red_on_coast = np.isin(numbers[:, coast], [6, 8]).any(axis=1)
    assert (ok == ~red_on_coast).all() and ok.any() and (~ok).any()


def test_plan_says_nothing_before_a_config_that_does_not_load(tmp_path, capsys):
    config = tmp_path / "bad.toml"
    config.write_text('name = "bad"\ngame = "catan"\nboardz = 3\n')
    assert main(["plan", str(config)]) == 2
    err = capsys.readouterr().err
    assert "running" not in err and "boardz" in err


def test_compare_pairs_only_what_shared_the_dice_and_one_lineup_at_a_time():
    games = _planted(3.0)
    games["seed"] = games["game"] + 100 * games["setup"]  # setup k: the same dice in both
    assert len(ludolab.compare(games, "turns", baseline="base", paired=True)) == 1
    other = games.copy()
    other.loc[other["condition"] == "new", "seed"] += 1
    with pytest.raises(ValueError, match="not played with the same game seeds"):
        ludolab.compare(other, "turns", baseline="base", paired=True)
    assert len(ludolab.compare(other, "turns", baseline="base")) == 1  # unpaired by default
    two = pd.concat([games.assign(lineup="greedy"), games.assign(lineup="random")])
    with pytest.raises(ValueError, match="several lineups"):
        ludolab.compare(two, "turns", baseline="base")
