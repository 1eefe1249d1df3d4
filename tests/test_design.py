"""The design search (ludolab.research.design): its config checks, a planted optimum, resuming
to the same trials, common random numbers, the null case, and the command line."""

from __future__ import annotations

import hashlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from ludolab.research.cli import main
from ludolab.research.design.evaluate import RungGames
from ludolab.research.design.search import best_trials, search, trials_frame
from ludolab.research.design.spec import load_design

BASE = """
name = "{name}"
game = "catan"
seed = {seed}
players = 4
boards = {boards}
games_per_board = {games}

[[lineups]]
name = "greedy"
seats = "greedy"
"""

PLANTED = """
[design]
constraints = "tournament"
trials = {trials}
rungs = 2
startup_trials = 8

[[design.parameters]]
name = "equal-resource-pairs.max"
low = 0
high = 40

[[design.parameters]]
name = "intersection-cap.max"
low = 8
high = 20

[[design.parameters]]
name = "no-resource-triangles"
choices = ["on", "off"]

[[design.objectives]]
metric = "turns"
goal = "minimize"
"""


ROOT = Path(__file__).resolve().parent.parent


def test_the_shipped_design_configs_load() -> None:
    shipped = [p for p in (ROOT / "experiments").glob("*.toml") if "[design]" in p.read_text()]
    assert shipped
    for path in shipped:
        spec = load_design(path)
        assert spec.parameters and spec.objectives, path


def _write(tmp_path: Path, text: str, name: str = "design.toml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def _planted_spec(tmp_path: Path, trials: int, seed: int = 1):
    text = BASE.format(name="planted", seed=seed, boards=4, games=5) + PLANTED.format(trials=trials)
    return load_design(_write(tmp_path, text))


def planted_play(values: dict, rung: int) -> RungGames:
    """A synthetic metric with its minimum at pairs = 27, cap = 13, triangles rule on: the
    mean turns are 60 + (pairs - 27)^2 / 20 + (cap - 13)^2 + 5 (rule off), each game adding
    noise of sd 2 (seeded by the candidate and rung)."""
    pairs = values["equal-resource-pairs.max"]
    cap = values["intersection-cap.max"]
    off = values["no-resource-triangles"] == "off"
    mean = 60 + (pairs - 27) ** 2 / 20 + (cap - 13) ** 2 + 5 * off
    key = hashlib.sha256(repr((sorted(values.items()), rung)).encode()).digest()
    rng = np.random.default_rng(int.from_bytes(key[:8], "little"))
    setups = np.repeat(np.arange(4), 5)
    games = pd.DataFrame(
        {"rung": rung, "setup": setups, "turns": mean + rng.normal(0, 2, len(setups))}
    )
    return RungGames(rung, games, "synthetic")


def _quiet(line: str) -> None:
    pass


def test_the_search_finds_a_planted_optimum(tmp_path: Path) -> None:
    spec = _planted_spec(tmp_path, trials=60)
    study = search(spec, tmp_path / "out", planted_play, [80.0], say=_quiet)
    best = best_trials(study, spec, 1)[0].params
    # Tolerance: within 5 of 27 pairs (the mean rises 1.25 turns there), within 1 of cap 13,
    # the rule on (off costs 5 turns).
    assert abs(best["equal-resource-pairs.max"] - 27) <= 5, best
    assert abs(best["intersection-cap.max"] - 13) <= 1, best
    assert best["no-resource-triangles"] == "on", best
    frame = trials_frame(study, spec)
    assert set(frame["state"]) <= {"complete", "pruned"}
    assert (frame["state"] == "pruned").any()  # successive halving stopped some candidates


def test_a_killed_search_resumes_to_the_same_trials(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    whole = _planted_spec(tmp_path / "a", trials=14)
    study_a = search(whole, tmp_path / "a" / "out", planted_play, [80.0], say=_quiet)
    (tmp_path / "b").mkdir()
    spec = _planted_spec(tmp_path / "b", trials=14)
    calls = {"n": 0}

    def killed(values: dict, rung: int) -> RungGames:
        calls["n"] += 1
        if calls["n"] == 12:  # in the middle of a trial
            raise KeyboardInterrupt
        return planted_play(values, rung)

    with pytest.raises(KeyboardInterrupt):
        search(spec, tmp_path / "b" / "out", killed, [80.0], say=_quiet)
    said: list[str] = []
    study_b = search(spec, tmp_path / "b" / "out", planted_play, [80.0], say=said.append)
    assert any("interrupted" in line for line in said)

    def finished(study) -> pd.DataFrame:
        return trials_frame(study, spec).drop(columns=["number", "seconds"])

    assert len(finished(study_a)) == 14
    pd.testing.assert_frame_equal(finished(study_b), finished(study_a))


def test_the_same_seed_gives_the_same_trials(tmp_path: Path) -> None:
    runs = []
    for k in range(2):
        (tmp_path / str(k)).mkdir()
        spec = _planted_spec(tmp_path / str(k), trials=10)
        study = search(spec, tmp_path / str(k) / "out", planted_play, [80.0], say=_quiet)
        runs.append(trials_frame(study, spec).drop(columns=["seconds"]))
    pd.testing.assert_frame_equal(runs[0], runs[1])


def test_the_study_lives_in_the_storage_named(tmp_path: Path) -> None:
    """``[design].storage`` (an RDB URL; here another SQLite file) holds the study: a search
    run from a second folder continues the first's trials."""
    shared = tmp_path / "shared.db"
    text = BASE.format(name="shared", seed=1, boards=4, games=5) + PLANTED.format(trials=4)
    spec = load_design(_write(tmp_path, text), [f'design.storage="sqlite:///{shared}"'])
    search(spec, tmp_path / "one", planted_play, [80.0], say=_quiet)
    assert shared.exists() and not (tmp_path / "one" / "study.db").exists()
    more = load_design(
        _write(tmp_path, text), [f'design.storage="sqlite:///{shared}"', "design.trials=6"]
    )
    study = search(more, tmp_path / "two", planted_play, [80.0], say=_quiet)
    assert len(trials_frame(study, more)) == 6


def test_a_games_budget_stops_the_search(tmp_path: Path) -> None:
    text = BASE.format(name="games", seed=1, boards=4, games=5) + PLANTED.format(trials=50)
    spec = load_design(_write(tmp_path, text), ["design.games=130"])
    study = search(spec, tmp_path / "out", planted_play, [80.0], say=_quiet)
    played = trials_frame(study, spec)["games"].sum()
    assert 130 <= played < 130 + 40  # stops after the trial that reaches the budget


SMALL = """
[design]
constraints = "tournament"
trials = 1
rungs = 1

[[design.parameters]]
name = "options.vp_to_win"
choices = [6, 10]

[[design.objectives]]
metric = "turns"
goal = "minimize"
"""


def test_a_rule_option_reaches_the_games(tmp_path: Path) -> None:
    from ludolab.research.design.evaluate import play_rung

    spec = load_design(_write(tmp_path, BASE.format(name="vp", seed=2, boards=2, games=4) + SMALL))
    six = play_rung(spec, {"options.vp_to_win": 6}, 0, tmp_path).games
    ten = play_rung(spec, {"options.vp_to_win": 10}, 0, tmp_path).games
    assert list(six["setup_id"]) == list(ten["setup_id"])  # common random numbers
    assert six["turns"].mean() < ten["turns"].mean() - 10


def test_a_switched_off_constraint_leaves_the_set(tmp_path: Path) -> None:
    from ludolab.research.catan.constraint_set import load_constraint_set
    from ludolab.research.design.evaluate import set_file

    text = BASE.format(name="off", seed=2, boards=2, games=2) + SMALL.replace(
        'name = "options.vp_to_win"\nchoices = [6, 10]',
        'name = "red-numbers-apart"\nchoices = ["on", "off"]',
    )
    spec = load_design(_write(tmp_path, text))
    params, _, off = spec.split({"red-numbers-apart": "off"})
    assert off == ("red-numbers-apart",)
    cset = load_constraint_set(set_file(spec, off, tmp_path))
    assert [c.name for c in cset.constraints] == [
        "intersection-cap",
        "no-resource-triangles",
        "equal-resource-pairs",
    ]
    assert spec.baseline_values() == {"red-numbers-apart": "on"}


def test_games_on_dask_are_the_games_played_locally(tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    from ludolab.research.design.evaluate import play_rung

    spec = load_design(
        _write(tmp_path, BASE.format(name="dask", seed=3, boards=2, games=3) + SMALL)
    )
    local = play_rung(spec, {"options.vp_to_win": 6}, 0, tmp_path).games
    with (
        distributed.LocalCluster(
            n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster.scheduler_address) as client,
    ):
        remote = play_rung(spec, {"options.vp_to_win": 6}, 0, tmp_path, client=client).games
    pd.testing.assert_frame_equal(local, remote)


NULL = """
[design]
constraints = "{set}"
trials = 3
rungs = 1
startup_trials = 2

[[design.parameters]]
name = "intersection-cap.max"
low = 15
high = 20

[[design.objectives]]
metric = "turns"
goal = "minimize"

[design.confirm]
boards = 12
games_per_board = 2
"""

# Every board satisfies a cap of 15 pips or more (three hexes hold at most 5 + 5 + 5 pips).
NULL_SET = """
name = "any-cap"
[[constraint]]
name = "intersection-cap"
max = 15
"""


def test_a_search_that_cannot_change_the_games_confirms_nothing(tmp_path: Path) -> None:
    """The null case, small (benchmarks/design_null.py runs 20 seeds): every candidate's set
    holds every board, so on common random numbers the search sees the very same games for
    each (a difference of exactly 0), and the confirmation, on fresh seeds, finds no
    improvement."""
    from ludolab.research.design.run import run_design

    _write(tmp_path, NULL_SET, "any-cap.toml")
    text = BASE.format(name="null", seed=0, boards=3, games=2)
    path = _write(tmp_path, text + NULL.format(set="any-cap.toml"), "null.toml")
    result = run_design(path, out=tmp_path / "out", quiet=True)
    means = result.trials["mean:turns"].dropna().unique()
    assert len(means) == 1, means  # the same games for every candidate
    (c,) = result.confirmed
    assert c.search_diff == 0.0 and not c.improved
    report = (result.path / "report.md").read_text()
    assert "search's estimate" in report and "improvement confirmed" in report


BAD = [
    (
        'name = "intersection-cap.maxx"\nlow = 10\nhigh = 14',
        "'intersection-cap.maxx' is not a parameter of set 'tournament'",
    ),
    ('name = "intersection-cap.max"\nlow = 12\nhigh = 12', "empty range"),
    ('name = "intersection-cap.max"\nlow = 12\nhigh = 11', "empty range"),
]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        *[((f"[[design.parameters]]\n{p}", "turns", "trials = 3"), m) for p, m in BAD],
        (
            (
                '[[design.parameters]]\nname = "intersection-cap.max"\nlow = 10\nhigh = 14',
                "turnz",
                "trials = 3",
            ),
            "'turnz' is not a per-game metric of catan",
        ),
        (
            (
                '[[design.parameters]]\nname = "intersection-cap.max"\nlow = 10\nhigh = 14',
                "turns",
                "trials = 0",
            ),
            "key 'design.trials': expected a whole number above 0, got 0",
        ),
    ],
)
def test_bad_input_gives_one_line_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], change: tuple, message: str
) -> None:
    parameter, metric, budget = change
    text = BASE.format(name="bad", seed=1, boards=2, games=2) + (
        f'[design]\nconstraints = "tournament"\n{budget}\n\n{parameter}\n\n'
        f'[[design.objectives]]\nmetric = "{metric}"\ngoal = "minimize"\n'
    )
    path = _write(tmp_path, text)
    out = tmp_path / "out"
    assert main(["design", str(path), "--out", str(out), "-q"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1, err
    assert message in err and str(path) in err, err
    assert not out.exists()


def test_a_folder_with_a_search_needs_resume(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = BASE.format(name="twice", seed=1, boards=2, games=2) + (
        '[design]\nconstraints = "tournament"\ntrials = 2\nrungs = 1\n\n'
        '[[design.parameters]]\nname = "intersection-cap.max"\nlow = 11\nhigh = 14\n\n'
        '[[design.objectives]]\nmetric = "turns"\ngoal = "minimize"\n'
    )
    path = _write(tmp_path, text)
    out = tmp_path / "out"
    args = ["design", str(path), "--out", str(out), "-q", "--no-confirm"]
    assert main(args) == 0
    before = pd.read_csv(out / "twice" / "trials.csv")
    assert main(args) == 2
    assert "--resume" in capsys.readouterr().err
    assert main([*args, "--resume", "--set", "design.trials=3"]) == 0
    after = pd.read_csv(out / "twice" / "trials.csv")
    assert len(before) == 2 and len(after) == 3
    # The resumed search kept the first two trials as they were, and played a third.
    pd.testing.assert_frame_equal(
        after.iloc[:2].drop(columns="seconds"), before.drop(columns="seconds")
    )


def test_an_infeasible_candidate_is_reported_not_a_crash(tmp_path: Path) -> None:
    """A set no board satisfies (6 and 8 apart, yet at most 8 pips at any intersection while
    every token keeps its pips) is told to Optuna as infeasible, and the report lists it."""
    from ludolab.research.design.run import run_design

    text = BASE.format(name="tight", seed=1, boards=2, games=2) + (
        '[design]\nconstraints = "tournament"\ntrials = 1\nrungs = 1\nstartup_trials = 1\n'
        "sampling_seconds = 5\n\n"
        '[[design.parameters]]\nname = "intersection-cap.max"\nlow = 3\nhigh = 4\n\n'
        '[[design.objectives]]\nmetric = "turns"\ngoal = "minimize"\n'
    )
    result = run_design(_write(tmp_path, text), out=tmp_path / "out", quiet=True, confirm=False)
    assert set(result.trials["state"]) == {"infeasible"}
    assert "Infeasible candidates" in (result.path / "report.md").read_text()


@pytest.mark.slow
def test_a_search_killed_from_outside_resumes_to_the_same_trials(tmp_path: Path) -> None:
    """SIGKILL in the middle of a trial of a real search (games played), then --resume: the
    finished trials equal an uninterrupted search's."""
    text = BASE.format(name="kill", seed=4, boards=4, games=4) + (
        '[design]\nconstraints = "tournament"\ntrials = 8\nrungs = 2\nstartup_trials = 3\n\n'
        '[[design.parameters]]\nname = "intersection-cap.max"\nlow = 10\nhigh = 14\n\n'
        '[[design.parameters]]\nname = "equal-resource-pairs.max"\nlow = 3\nhigh = 8\n\n'
        '[[design.objectives]]\nmetric = "turns"\ntarget = 65\n'
    )
    path = _write(tmp_path, text)
    command = [sys.executable, "-m", "ludolab.research.cli", "design", str(path), "--no-confirm"]
    subprocess.run([*command, "--out", str(tmp_path / "whole")], check=True, capture_output=True)
    log = tmp_path / "log"
    with log.open("w") as fh:
        proc = subprocess.Popen([*command, "--out", str(tmp_path / "cut")], stderr=fh)
        db = tmp_path / "cut" / "kill" / "study.db"
        while (
            not ("trial 4 " in log.read_text() and _running(db)) and proc.poll() is None
        ):  # in the middle of a trial, after trial 4
            time.sleep(0.02)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    resumed = subprocess.run(
        [*command, "--out", str(tmp_path / "cut"), "--resume"],
        check=True,
        capture_output=True,
        text=True,
    )
    assert "was interrupted: its parameters are played again" in resumed.stderr

    def finished(folder: Path) -> pd.DataFrame:
        frame = pd.read_csv(folder / "kill" / "trials.csv")
        return frame.drop(columns=["number", "seconds"]).reset_index(drop=True)

    pd.testing.assert_frame_equal(finished(tmp_path / "cut"), finished(tmp_path / "whole"))
    assert len(finished(tmp_path / "cut")) == 8


def _running(db: Path) -> bool:
    """Whether the study in ``db`` has a trial running (Optuna's SQLite schema)."""
    import sqlite3

    if not db.exists():
        return False
    try:
        with sqlite3.connect(db) as con:
            (n,) = con.execute("select count(*) from trials where state = 'RUNNING'").fetchone()
    except sqlite3.OperationalError:  # the schema is still being written
        return False
    return n > 0


@pytest.mark.parametrize("n_trials", [2, 3, 4, 5, 7])
def test_the_history_counts_trials_in_whole_numbers(
    n_trials: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a short search: matplotlib alone ticks a trial axis at 0.5, 2.5, ...
    from figure_checks import clipped_text, non_integer_ticks
    from matplotlib.figure import Figure

    from ludolab.research.design import figures as design_figures
    from ludolab.research.design.spec import Objective

    drawn: list[Figure] = []
    save = design_figures.save_figure

    def keep(fig: Figure, path: Path, *args, **kwargs):
        drawn.append(fig)
        return save(fig, path, *args, **kwargs)

    monkeypatch.setattr(design_figures, "save_figure", keep)
    spec = SimpleNamespace(
        objectives=[Objective("turns", "target", target=65.0), Objective("lead_change", "maximize")]
    )
    trials = pd.DataFrame(
        {
            "number": range(n_trials),
            "state": ["complete", "pruned"] * (n_trials // 2) + ["complete"] * (n_trials % 2),
            "mean:turns": np.linspace(80, 66, n_trials),
            "mean:lead_change": np.linspace(1.0, 2.0, n_trials),
        }
    )
    design_figures.history_figure(spec, trials, {"turns": 75.0}, tmp_path / "history")
    (fig,) = drawn
    axes = [ax for ax in fig.axes if ax.get_visible()]
    assert len(axes) == 2
    problems = clipped_text(fig)
    for ax in axes:
        assert ax.get_xlabel() == "trial"
        problems += non_integer_ticks(ax)
        lo, hi = ax.get_xlim()
        assert sum(lo <= t <= hi for t in ax.get_xticks()) >= 2  # still a readable axis
    assert problems == [], problems


GALLERY_DESIGN = """
name = "gallery-design"
game = "gallery"
seed = 5
players = 3
deals = 3
games_per_deal = 2

[[lineups]]
name = "random"
seats = "random"

[design]
constraints = "{set}"
sampler = "auto"
trials = 3
rungs = 1
startup_trials = 2

[[design.parameters]]
name = "balanced-artists"
choices = ["on", "off"]

[[design.parameters]]
name = "balanced-symbols.tolerance"
low = 0
high = 2

[[design.objectives]]
metric = "score_spread"
goal = "minimize"

[design.confirm]
deals = 4
games_per_deal = 2
"""


def test_any_game_whose_sets_list_their_constraints_is_searched(tmp_path: Path) -> None:
    """Masters Gallery on the protocol: its deal constraints switched and varied, its
    confirmation keys named by its setups (deals), and its report speaking of deals."""
    from ludolab.research.design.evaluate import play_rung, set_file
    from ludolab.research.gallery.deals import load_deal_set

    deal_set = tmp_path / "two.toml"
    deal_set.write_text(
        'name = "two"\n\n[[constraint]]\nname = "balanced-artists"\ntolerance = 1\n\n'
        '[[constraint]]\nname = "balanced-symbols"\ntolerance = 1\nby = "kind"\n'
    )
    path = _write(tmp_path, GALLERY_DESIGN.format(set=deal_set))
    spec = load_design(path)
    assert spec.confirm.setups == 4 and spec.confirm.games_per_setup == 2
    assert spec.baseline_values() == {
        "balanced-artists": "on",
        "balanced-symbols.tolerance": 1,
    }
    _, _, off = spec.split({"balanced-artists": "off"})
    assert [n for n, _ in load_deal_set(set_file(spec, off, tmp_path)).entries] == [
        "balanced-symbols"
    ]
    games = play_rung(spec, {"balanced-artists": "off"}, 0, tmp_path).games
    assert len(games) == 3 * 2 and games["score_spread"].notna().all()

    out = tmp_path / "out"
    assert main(["design", str(path), "--out", str(out), "--no-confirm", "--quiet"]) == 0
    report = next(out.rglob("report.md")).read_text()
    assert "the unit of analysis is the deal" in report and "board" not in report

    bad = _write(tmp_path, GALLERY_DESIGN.format(set=deal_set).replace("deals = 4", "boards = 4"))
    with pytest.raises(Exception, match=r"design\.confirm\.boards"):
        load_design(bad)
