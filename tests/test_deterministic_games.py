"""Games that repeat (issue 48, item 2): agents that make no random choice play every game on a
Masters Gallery deal the same way, and no summary or interval may count the copies as
independent games.

* ``ludolab simulate``'s summary finds the repeats and puts its win-rate intervals on the setup
  (the deal, the board; with one setup, the distinct game);
* an experiment notes a lineup whose games on each setup are one game repeated, its tests being
  on setup means already, and its games stay byte-identical whatever the worker count, or a
  stop and a resume;
* the shipped configs play no such repeats.

Every deal and game here comes from a seed written in the test.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from ludolab.envs.gallery.deal import shuffled_deal, write_deals
from ludolab.research.cli import main
from ludolab.research.experiment.analysis import analyse, load_run, repeated_games
from ludolab.research.experiment.runner import run_experiment
from ludolab.research.experiment.store import RunDir
from ludolab.research.gallery.simulate import records_table, simulate
from ludolab.research.metrics.core import effective_sample_size, wilson_interval
from ludolab.research.simulate import find_repeats, win_interval
from ludolab.research.simulate import summarise as summarise_table

ROOT = Path(__file__).resolve().parent.parent
# 12 fair 3-player deals, deal k shuffled from seed k.
DEALS = [shuffled_deal(3, seed) for seed in range(12)]
# No random choice in any seat: every game on a deal is the same game.
FIXED = ["greedy", "leader", "leader"]



def summarise(records: list) -> str:
    """What ``ludolab simulate gallery`` prints of ``records``."""
    return summarise_table(records_table(records), "gallery")

def _intervals(summary: str) -> list[tuple[float, float, float]]:
    """(rate, low, high) per seat of a Masters Gallery summary's win-rate line, in percent."""
    line = next(x for x in summary.splitlines() if "outright win rate" in x)
    found = re.findall(r"\) ([\d.]+)% \[([\d.]+)%, ([\d.]+)%\]", line)
    return [(float(a), float(b), float(c)) for a, b, c in found]


# --- ludolab simulate


def test_deterministic_agents_repeat_every_game_on_a_deal() -> None:
    records = simulate(DEALS, FIXED, 48, seed=1)  # game i on deal i % 12: 4 games a deal
    table = records_table(records)
    groups = pd.DataFrame({"deal": table.column("setup_id").to_pylist()})
    repeats = find_repeats(groups, table.select(["n_actions"]).to_pandas(), table)
    assert repeats.n_distinct == 12 and repeats.every_group_repeats
    # every game repeats the first game on its deal, game d (its seed differs, its play not)
    assert list(repeats.first) == [i % 12 for i in range(48)]
    assert len({r.seed for r in records}) == 48


def test_the_summary_gives_the_interval_of_the_distinct_games() -> None:
    """400 rows that are 12 games, each about 33 times, give (nearly) the interval of the 12
    games, not one 33 times too narrow (the old summary's Wilson interval over the rows)."""
    many = summarise(simulate(DEALS, FIXED, 400, seed=1))
    once = summarise(simulate(DEALS, FIXED, 12, seed=1))
    assert "distinct games: 12 of 400: every game on a deal repeats" in many
    assert "the unit is the deal (12 deals; games on one deal are not independent)" in many
    assert "distinct games: all 12" in once and "(12 deals; one game on each)" in once
    for (rate, low, high), (rate1, low1, high1) in zip(
        _intervals(many), _intervals(once), strict=True
    ):
        # 400 / 12 is no whole number: the first 4 deals have one game more, so rates differ
        assert abs(rate - rate1) < 3.0
        wins = round(rate * 4)  # wins out of 400
        if 0 < wins < 400:
            rows_low, rows_high = (100 * x for x in wilson_interval(wins, 400))
            assert high - low > 2 * (rows_high - rows_low)  # the old interval, far too narrow
        assert high - low >= 0.9 * (high1 - low1)


def test_copies_of_a_deal_count_once_in_the_interval() -> None:
    """k games copied m times over c deals: Kish's effective size is c - 1 (the C / (C - 1)
    factor of the cluster-robust variance), scaled by (z / t_{c-1})^2 for the variance's
    c - 1 degrees of freedom, so the interval is Wilson's on that many games, whatever m."""
    from scipy.stats import norm, t

    wins_by_deal = np.array([1, 0, 1, 1, 0, 1, 1, 1, 0, 1], dtype=float)  # 7 of 10 deals
    n_eff = 9 * (norm.ppf(0.975) / t.ppf(0.975, 9)) ** 2
    for copies in (8, 50):
        won, deal = np.repeat(wins_by_deal, copies), np.repeat(np.arange(10), copies)
        assert win_interval(won, deal) == pytest.approx(wilson_interval(0.7 * n_eff, n_eff))
    # one game per deal: ten independent games
    assert win_interval(wins_by_deal, np.arange(10)) == pytest.approx(wilson_interval(7, 10))
    # one deal only, all its games one game: one observation
    assert win_interval(np.ones(5), np.zeros(5)) == pytest.approx(wilson_interval(1, 1))


def test_the_design_effect_is_statsmodels_clustered_variance() -> None:
    """The effective size behind the intervals is p (1 - p) over the clustered variance of the
    mean that statsmodels gives an intercept-only OLS with errors clustered by deal."""
    import statsmodels.api as sm

    rng = np.random.default_rng(48)
    deal = np.repeat(np.arange(30), 7)
    won = (rng.random(30)[deal] + 0.5 * rng.random(len(deal)) > 0.9).astype(float)
    fit = sm.OLS(won, np.ones(len(won))).fit(cov_type="cluster", cov_kwds={"groups": deal})
    p = won.mean()
    expected = p * (1 - p) / fit.bse[0] ** 2
    assert expected < len(won)  # the games on a deal are correlated here
    assert effective_sample_size(won, deal) == pytest.approx(expected, rel=1e-9)


def test_only_identical_records_are_repeats(tmp_path: Path) -> None:
    # rows 0-3 on setup 0, rows 4-5 on setup 1; "n" is the cheap key, "play" the record
    table = pa.table(
        {
            "setup": [0, 0, 0, 0, 1, 1],
            "game": [0, 1, 2, 3, 4, 5],
            "seed": [10, 11, 12, 13, 14, 15],
            "n": [5, 5, 5, 6, 5, 5],
            "play": [[1, 2], [1, 2], [1, 3], [1, 2], [1, 2], [1, 2]],
        }
    )
    groups = table.select(["setup"]).to_pandas()
    cheap = table.select(["n"]).to_pandas()
    repeats = find_repeats(groups, cheap, table)
    # row 1 repeats row 0 (only its game and seed differ); row 2 differs in play, row 3 in n;
    # row 5 repeats row 4, but row 4 repeats nothing on setup 0: another setup
    assert list(repeats.first) == [0, 0, 2, 3, 4, 4]
    assert repeats.n_distinct == 4 and not repeats.every_group_repeats
    # the same from a Parquet file of row groups of 4 rows, read where needed
    path = tmp_path / "games.parquet"
    pq.write_table(table, path, row_group_size=4)
    assert list(find_repeats(groups, cheap, path).first) == [0, 0, 2, 3, 4, 4]
    with pytest.raises(ValueError, match="full records"):
        find_repeats(groups, cheap, None)
    # no cheap key shared in a group: no record is read
    assert find_repeats(groups, pd.DataFrame({"n": range(6)}), None).n_distinct == 6


def test_one_deal_makes_the_distinct_game_the_unit() -> None:
    fixed = summarise(simulate(DEALS[:1], FIXED, 20, seed=2))
    assert "distinct games: 1 of 20" in fixed
    assert "the unit is the distinct game (1): all games are on one deal" in fixed
    for _, low, high in _intervals(fixed):  # Wilson on one game: 0 of 1 or 1 of 1
        assert (low, high) in ((0.0, 79.3), (20.7, 100.0))
    random = summarise(simulate(DEALS[:1], ["random"] * 3, 20, seed=2))
    assert "distinct games: all 20" in random and "distinct game (20)" in random


def test_simulate_command_reads_the_repeats_from_its_file(tmp_path: Path, capsys) -> None:
    deals = tmp_path / "deals.jsonl"
    write_deals(DEALS[:6], deals)
    out = tmp_path / "g.parquet"
    args = ["simulate", "gallery", "--deals", str(deals), "--agents", ",".join(FIXED)]
    assert main([*args, "-n", "48", "--batch", "10", "--out", str(out), "-q"]) == 0
    shown = capsys.readouterr().out
    assert "distinct games: 6 of 48" in shown
    assert "outright win rate (Wilson 95%, unit: the deal)" in shown
    assert pq.read_table(out).num_rows == 48  # every asked-for game is played and kept


# --- experiments

GALLERY: dict[str, Any] = {
    "name": "fixed",
    "game": "gallery",
    "seed": 48,
    "players": 3,
    "deals": 6,
    "games_per_deal": 3,
    "chunk_size": 10,
    "conditions": [
        {"name": "fair", "constraints": "fair"},
        {"name": "balanced-symbols", "constraints": "balanced-symbols"},
    ],
    "lineups": [
        {"name": "greedy", "seats": "greedy"},
        {"name": "random", "seats": "random"},
    ],
    "comparisons": {"baseline": "fair", "metrics": ["score_spread", "turns"], "n_boot": 200},
}
NOTE = "lineup greedy: every game on a deal repeats that deal's first game record for record"


def _config(**changes: Any) -> dict[str, Any]:
    return {**GALLERY, **changes}


@pytest.fixture(scope="module")
def fixed_run(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("fixed")
    return run_experiment(_config(), out=out, run_id="w1", workers=1, quiet=True).path


def test_a_deterministic_lineup_is_found_and_noted(fixed_run: Path) -> None:
    table = repeated_games(load_run(fixed_run)).set_index("lineup")
    # 2 conditions x 6 deals, 3 games on each: the greedy games are 12 games
    assert table.loc["greedy", "games"] == 36 and table.loc["greedy", "distinct"] == 12
    assert table.loc["greedy", "every_group_repeats"]
    assert table.loc["random", "distinct"] == 36 and not table.loc["random", "every_group_repeats"]
    for name in ("comparisons.md", "report.md"):
        text = (fixed_run / name).read_text()
        assert NOTE in text and "12 distinct games of 36" in text and "lineup random:" not in text
    # the greedy lineup's mixed model is not fitted: there is no game-level noise
    pw = pd.read_csv(fixed_run / "comparisons.csv")
    assert pw.loc[pw["lineup"] == "greedy", "mixed_p"].isna().all()


def test_one_game_per_deal_gives_a_deterministic_lineup_the_same_deal_means(
    fixed_run: Path, tmp_path: Path
) -> None:
    """What the note promises: with games_per_deal = 1 the greedy lineup's deal means (hence
    its comparisons) are the same; and a lineup with one game per deal is not flagged."""
    once = run_experiment(_config(games_per_deal=1), out=tmp_path, analyse=False, quiet=True)
    one, three = load_run(once.path), load_run(fixed_run)
    columns = ["condition", "setup", "score_spread", "turns"]
    greedy = [
        m.loc[m["lineup"] == "greedy", columns].reset_index(drop=True)
        for m in (one.by_setup, three.by_setup)
    ]
    pd.testing.assert_frame_equal(greedy[0], greedy[1])
    assert repeated_games(one)["distinct"].tolist() == [12, 12]
    notes = analyse(one).notes
    assert not any("repeat" in n for n in notes)


def test_the_games_and_the_note_do_not_depend_on_workers_or_a_resume(
    fixed_run: Path, tmp_path: Path, monkeypatch
) -> None:
    reference = (fixed_run / "games.parquet").read_bytes()
    two = run_experiment(_config(), out=tmp_path, run_id="w2", workers=2, analyse=False, quiet=True)
    assert (two.path / "games.parquet").read_bytes() == reference
    # stopped after its first chunk, then resumed
    write = RunDir.write_chunk

    def write_then_stop(self, *args, **kwargs):
        write(self, *args, **kwargs)
        raise KeyboardInterrupt

    with monkeypatch.context() as m:
        m.setattr(RunDir, "write_chunk", write_then_stop)
        with pytest.raises(KeyboardInterrupt):
            run_experiment(_config(), out=tmp_path, run_id="stopped", analyse=False, quiet=True)
    resumed = run_experiment(
        _config(), out=tmp_path, resume=tmp_path / "fixed" / "stopped", analyse=False, quiet=True
    )
    assert 0 < resumed.played < 72
    assert (resumed.path / "games.parquet").read_bytes() == reference
    notes = [analyse(load_run(p)).notes for p in (two.path, resumed.path)]
    assert notes[0] == notes[1] and any(n.startswith(NOTE) for n in notes[0])


# --- the shipped configs

SHIPPED = sorted(
    p
    for p in (ROOT / "experiments").glob("*.toml")
    if (data := tomllib.loads(p.read_text())).get("game") in ("catan", "gallery")
    and "design" not in data
)
# Its search lineup seats four mcts-value agents: slow even this small.
SLOW = {"catan-constraints"}
# Search seats at a budget that plays in a moment: whether a lineup repeats its games comes from
# its agents' seeds, not from how long they search.
SMALL_BUDGET = {"gallery-deals": ["lineups.search.seats=mcts:playouts=10"]}


@pytest.mark.parametrize(
    "path",
    [pytest.param(p, marks=pytest.mark.slow) if p.stem in SLOW else p for p in SHIPPED],
    ids=lambda p: p.stem,
)
def test_no_shipped_config_plays_a_game_twice(path: Path, tmp_path: Path) -> None:
    """Each shipped config, 2 setups x 2 games per setup: a lineup that plays one game over
    and over on a setup must be shipped with one game per setup."""
    data = tomllib.loads(path.read_text())
    catan = data["game"] == "catan"
    setups, games = ("boards", "games_per_board") if catan else ("deals", "games_per_deal")
    overrides = [f"{setups}=2", f"{games}=2", *SMALL_BUDGET.get(path.stem, [])]
    run = run_experiment(path, out=tmp_path, analyse=False, quiet=True, overrides=overrides)
    repeats = repeated_games(load_run(run.path))
    fixed = repeats.loc[repeats["every_group_repeats"], "lineup"].tolist()
    assert data[games] == 1 or not fixed, f"{path.name}: {fixed} repeat every game"
