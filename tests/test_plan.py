"""Before a run: --set overrides, `ludolab plan` and `ludolab run --dry-run`."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
import scipy.stats as st

from ludolab.research.cli import main
from ludolab.research.experiment.config import ConfigError, apply_overrides, load_experiment
from ludolab.research.experiment.plan import (
    derive_pilot_seeds,
    plan_experiment,
    plan_text,
    setups_for_effect_size,
)

ROOT = Path(__file__).resolve().parents[1]
QUICKSTART = ROOT / "experiments" / "quickstart.toml"

TINY = """
name = "tiny-plan"
game = "catan"
seed = 5
players = 4
boards = 30
games_per_board = 10
[[conditions]]
name = "official"
constraints = "official"
[[conditions]]
name = "random"
constraints = "random"
[[lineups]]
seats = "greedy"
[comparisons]
baseline = "random"
metrics = ["turns", "catan.trades"]
primary = ["catan.trades"]
margins = { "catan.trades" = 3.0 }
"""
NO_MARGINS = TINY.replace('margins = { "catan.trades" = 3.0 }\n', "")


def test_overrides_reach_every_kind_of_key() -> None:
    data = {
        "boards": 10,
        "conditions": [{"name": "a", "constraints": "official"}, {"constraints": "balanced"}],
        "lineups": [{"seats": "greedy"}],
        "comparisons": {"metrics": ["turns"]},
    }
    out = apply_overrides(
        data,
        [
            "boards=100",
            "conditions.balanced.sampler=uniform",
            "conditions.a.params.red-numbers-apart.numbers=[6, 8]",
            "conditions.0.options.vp_to_win=9",
            'comparisons.primary="turns"',
            "comparisons.margins.catan.trades=2.5",
            "options.turn_limit=500",
        ],
    )
    assert out["boards"] == 100 and data["boards"] == 10  # the input is not changed
    assert out["conditions"][1]["sampler"] == "uniform"
    assert out["conditions"][0]["params"] == {"red-numbers-apart.numbers": [6, 8]}
    assert out["conditions"][0]["options"] == {"vp_to_win": 9}
    assert out["comparisons"]["primary"] == "turns"
    assert out["comparisons"]["margins"] == {"catan.trades": 2.5}
    assert out["options"] == {"turn_limit": 500}


@pytest.mark.parametrize(
    ("override", "fragment"),
    [
        ("bords=3", "'bords' is not a config key here; allowed: name,"),
        ("conditions.balancd.sampler=uniform", "no condition named 'balancd'; conditions: a"),
        ("conditions.a.smapler=uniform", "'smapler' is not a config key here"),
        ("comparisons.primray=turns", "'primray' is not a config key here"),
        ("boards", "expected PATH=VALUE"),
        ("boards.x=1", "'boards' is a value, not a table"),
    ],
)
def test_a_bad_override_says_what_exists(override: str, fragment: str) -> None:
    data = {"boards": 10, "conditions": [{"name": "a"}], "comparisons": {}}
    with pytest.raises(ConfigError) as info:
        apply_overrides(data, [override])
    assert fragment in str(info.value) and str(info.value).startswith(f"--set {override}")


def test_an_override_is_validated_like_the_file() -> None:
    with pytest.raises(ConfigError, match=r"with --set boards=0\): key 'boards'"):
        load_experiment(QUICKSTART, ["boards=0"])
    assert load_experiment(QUICKSTART, ["boards=7"]).setups == 7


def test_plan_prints_games_time_and_what_the_design_detects(tmp_path, capsys) -> None:
    cfg = tmp_path / "tiny.toml"
    cfg.write_text(TINY)
    assert main(["plan", str(cfg), "--pilot-setups", "8", "--pilot-games", "3"]) == 0
    out = capsys.readouterr().out
    assert "2 conditions x 30 boards x 10 games per board" in out and "600 games" in out
    assert "The report's family: 1 test(s) of 2" in out
    assert "MDE" in out and "player turns" in out
    assert "Recommended: boards = " in out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tiny.toml"]


def test_dry_run_writes_nothing(tmp_path, capsys) -> None:
    cfg = tmp_path / "tiny.toml"
    cfg.write_text(TINY)
    out = tmp_path / "results"
    assert main(["run", str(cfg), "--dry-run", "--out", str(out), "--set", "boards=12"]) == 0
    assert "2 conditions x 12 boards" in capsys.readouterr().out
    assert not out.exists()


def test_a_bad_set_path_is_one_line_and_exit_2(tmp_path, capsys) -> None:
    out = tmp_path / "results"
    code = main(["run", str(QUICKSTART), "--out", str(out), "--set", "conditions.nope.sampler=x"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and "no condition named 'nope'" in err[0]
    assert not out.exists()


def test_plan_without_margins_recommends_for_d_over_pilot_seeds(tmp_path) -> None:
    cfg = tmp_path / "tiny.toml"
    cfg.write_text(NO_MARGINS)
    plan = plan_experiment(cfg, pilot_setups=8, pilot_games=3, pilot_seeds=2)
    assert plan.basis == "effect size" and plan.seeds == derive_pilot_seeds(5, 2)
    assert len(set(plan.seeds)) == 2 and 5 not in plan.seeds
    assert sorted(plan.pilots["seed"].unique()) == sorted(plan.seeds)
    low, high = plan.interval
    rec = plan.recommended
    assert math.isfinite(rec) and rec == int(rec) and rec > 0
    assert low <= rec == high
    out = plan_text(plan)
    assert f"Recommended: boards = {int(rec)} per condition (now 30)" in out
    assert "Cohen's d = 0.5" in out and "sqrt(var_between + var_within / g)" in out
    assert f"ranged {low:.0f}–{high:.0f} (min–max)" in out
    assert 'under [comparisons], e.g.: margins = { "catan.trades" = ' in out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tiny.toml"]


def test_setups_for_d_do_not_decrease_as_the_setup_variance_grows() -> None:
    within, games = 9.0, 4
    previous_setups, previous_difference = 0, 0.0
    for between in np.linspace(0.0, 50.0, 26):
        setups, difference = setups_for_effect_size(0.5, between, within, games, alpha=0.01)
        assert setups >= previous_setups and difference > previous_difference
        previous_setups, previous_difference = setups, difference


@pytest.mark.parametrize(("alpha", "by_hand"), [(0.05, 64), (0.05 / 12, 112)])
def test_cohens_d_on_setup_means_by_hand(alpha: float, by_hand: int) -> None:
    # between 1, within 8, 2 games per setup: a setup mean's sd is sqrt(1 + 8 / 2) = sqrt(5),
    # so d = 0.5 is a difference of sqrt(5) / 2; 64 setups per condition at the 5% level is
    # Cohen's table (d = 0.5, 80% power, two-sided)
    setups, difference = setups_for_effect_size(0.5, 1.0, 8.0, 2, alpha=alpha, power=0.8)
    assert difference == pytest.approx(math.sqrt(5) / 2)
    assert setups == by_hand

    def power(n: int) -> float:  # two-sided t-test on n + n setup means, noncentral t
        df, shift = 2 * n - 2, 0.5 * math.sqrt(n / 2)
        crit = st.t.ppf(1 - alpha / 2, df)
        return float(st.nct.sf(crit, df, shift) + st.nct.cdf(-crit, df, shift))

    assert power(setups) >= 0.8 > power(setups - 1)


@pytest.mark.parametrize(
    ("value", "fragment"),
    [
        ("0", "expected an integer >= 1, got 0"),
        ("-2", "expected an integer >= 1, got -2"),
        ("2.5", "expected an integer >= 1, got '2.5'"),
        ("three", "expected an integer >= 1, got 'three'"),
    ],
)
def test_a_bad_pilot_seeds_is_one_line_and_exit_2(
    value: str, fragment: str, tmp_path, capsys, monkeypatch
) -> None:
    cfg = tmp_path / "tiny.toml"
    cfg.write_text(NO_MARGINS)
    monkeypatch.chdir(tmp_path)
    code = main(["plan", str(cfg), "--pilot-seeds", value])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1
    assert err[0] == f"ludolab: error: --pilot-seeds: {fragment}"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tiny.toml"]


def test_a_config_of_one_game_per_setup_is_sized(tmp_path) -> None:
    """With one game per setup the pilots still play two, so that they can split the setups'
    variance from the games' (they used to play one, and the plan printed NaN)."""
    cfg = tmp_path / "one.toml"
    cfg.write_text(NO_MARGINS.replace("games_per_board = 10", "games_per_board = 1"))
    plan = plan_experiment(cfg, pilot_setups=8, pilot_games=3, pilot_seeds=1)
    assert plan.pilot_games == 2 and plan.config.games_per_setup == 1
    assert plan.table["sd_setup_mean"].notna().all() and math.isfinite(plan.recommended)
