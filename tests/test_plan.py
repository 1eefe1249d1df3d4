"""Before a run: --set overrides, `ludolab plan` and `ludolab run --dry-run`."""

from __future__ import annotations

from pathlib import Path

import pytest

from ludolab.research.cli import main
from ludolab.research.experiment.config import ConfigError, apply_overrides, load_experiment

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
