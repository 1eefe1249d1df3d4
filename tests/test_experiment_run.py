"""`ludolab run`: the run folder, bit-identical results across backends, resuming after
Ctrl-C / a killed worker / a killed runner, the analysis and the report, and clear errors."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from importlib import metadata
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest
from latex_tables import (
    check_comparison_table,
    check_trend_table,
    column_count,
    parse_tabular,
    width,
)

from ludolab.envs.catan.board import iter_boards
from ludolab.research.cli import main
from ludolab.research.experiment import config_hash, load_experiment, plan_games
from ludolab.research.experiment.analysis import analyse, load_run, orient
from ludolab.research.experiment.result_tables import summary_lines
from ludolab.research.experiment.runner import run_experiment
from ludolab.research.experiment.store import RunError
from ludolab.research.metrics.registry import game_unit
from ludolab.research.stats.report import escape_latex

TINY = """
name = "tiny"
question = "Do official boards play differently from fair shuffles?"
game = "catan"
seed = 7
players = 4
boards = {boards}
games_per_board = {games}
chunk_size = {chunk}
metrics = ["turns", "score_spread", "lead_change", "catan.sevens", "condition.balance"]

[[conditions]]
name = "official"
constraints = "official"

[[conditions]]
name = "random"
constraints = "random"

[[lineups]]
name = "greedy"
seats = "greedy"

[[lineups]]
name = "mixed"
seats = ["greedy", "greedy", "greedy", "random"]

[comparisons]
baseline = "official"
n_boot = 200
"""

GALLERY = """
name = "tiny-gallery"
question = "Do balanced symbols change the game?"
game = "gallery"
seed = 3
players = 3
deals = 3
games_per_deal = 4
chunk_size = 8

[[conditions]]
name = "fair"
constraints = "fair"

[[conditions]]
name = "balanced-symbols"
constraints = "balanced-symbols"

[[lineups]]
name = "greedy"
seats = "greedy"

[comparisons]
baseline = "fair"
n_boot = 100
metrics = ["turns", "score_spread"]
"""


def test_a_run_reports_its_findings_across_skill(tmp_path):
    """With ``comparisons.skill`` the report says, per condition and primary metric, whether
    the effect changes from the least to the most skilled lineup (the statistics themselves
    are tested on planted data in test_skill_interaction.py)."""
    skill = 'primary = ["turns"]\nskill = ["mixed", "greedy"]\n'
    text = TINY.format(boards=4, games=2, chunk=8) + skill
    cfg = tmp_path / "tiny.toml"
    cfg.write_text(text)
    result = run_experiment(cfg, out=tmp_path / "results", run_id="r", quiet=True)
    skill = pd.read_csv(result.path / "skill.csv")
    assert list(skill["condition"]) == ["random"] and list(skill["metric"]) == ["turns"]
    assert skill["lineups"].iloc[0] == "mixed < greedy"
    effects = pd.read_csv(result.path / "skill-effects.csv")
    assert list(effects["lineup"]) == ["mixed", "greedy"]
    # The change is the greedy lineup's effect minus the mixed one's (two lineups).
    assert skill["change"].iloc[0] == pytest.approx(
        effects["effect"].iloc[1] - effects["effect"].iloc[0]
    )
    report = (result.path / "report.md").read_text()
    assert "**Across skill** (mixed < greedy, least skilled first)" in report
    # A claim is in bold; "no change detected" claims nothing and is not.
    verdict = skill["verdict"].iloc[0]
    said = verdict if verdict == "no change detected" else f"**{verdict}**"
    assert f"**turns**, random vs official: {said}. Effect per lineup (the main" in report
    # The HTML report renders the section's italics (Markdown's *word*) as such.
    html = (result.path / "report.html").read_text()
    assert "The <em>change</em> is" in html and "*change*" not in html
    # The terminal summary says how many changes with skill were detected.
    lines = summary_lines(analyse(load_run(result.path)))
    detected = int(skill["significant"].sum())
    said = f"across skill: a change with skill detected in {detected} of 1 test"
    assert said in lines[-1 - detected]


def test_ludolab_run_names_its_report_once(tmp_path, capsys):
    cfg = write_config(tmp_path / "tiny.toml")
    assert main(["run", str(cfg), "--out", str(tmp_path / "results"), "--run-id", "r"]) == 0
    out, err = capsys.readouterr()
    report = tmp_path / "results" / "tiny" / "r" / "report.md"
    assert out.count("report:") + err.count("report:") == 1
    assert f"report: {report} (and report.html)" in out


def write_config(path: Path, boards: int = 2, games: int = 3, chunk: int = 7) -> Path:
    path.write_text(TINY.format(boards=boards, games=games, chunk=chunk))
    return path


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    """A small Catan run, played in this process, with the analysis."""
    base = tmp_path_factory.mktemp("small")
    # 8 distinct boards: enough for the regression on 5 board features
    cfg = write_config(base / "tiny.toml", boards=4, games=2)
    result = run_experiment(cfg, out=base / "results", run_id="ref", quiet=True)
    return cfg, result


def test_run_folder_holds_everything(small):
    cfg, result = small
    config = load_experiment(cfg)
    run = result.path
    assert run == cfg.parent / "results" / "tiny" / "ref"
    for name in (
        "run.json",
        "config.toml",
        "config.resolved.json",
        "boards.jsonl",
        "games.parquet",
        "provenance.json",
        "report.md",
        "report.html",
        "comparisons.md",
        "comparisons.csv",
        "comparisons.tex",
        "tables/comparisons-turns.tex",
        "tables/comparisons-turns.csv",
        "tables/comparisons-sevens.tex",
        "tables/comparisons-sevens.csv",
        "omnibus.csv",
        "regression.csv",
        "metrics/per_game.parquet",
        "metrics/conditions.csv",
    ):
        assert (run / name).is_file(), name
    assert not (run / "chunks").exists()
    state = json.loads((run / "run.json").read_text())
    assert state["status"] == "complete" and state["config_hash"] == config_hash(config)
    games = pd.read_parquet(run / "games.parquet")
    plan = plan_games(config)
    assert len(games) == config.n_games == len(plan) == result.n_games == 2 * 4 * 2 * (1 + 4)
    assert games["index"].tolist() == list(range(len(plan)))
    assert games["seed"].tolist() == [s.seed for s in plan]
    assert [tuple(a) for a in games["agents"]] == [s.seats for s in plan]
    boards = list(iter_boards(run / "boards.jsonl"))
    assert len(boards) == 8
    by_cond = {
        c: {b.id for b in boards[i * 4 : (i + 1) * 4]} for i, c in enumerate(["official", "random"])
    }
    for cond, ids in by_cond.items():
        assert set(games.loc[games["condition"] == cond, "setup_id"]) == ids
    prov = json.loads((run / "provenance.json").read_text())
    assert prov["config_hash"] == config_hash(config)
    assert prov["packages"]["numpy"] and prov["solvers"]["gecode"]
    assert set(prov["git"]) == {"commit", "dirty"}
    assert prov["seeds"]["master"] == 7


def test_games_are_paired_and_seats_rotate(small):
    _, result = small
    games = pd.read_parquet(result.path / "games.parquet")
    # Common random numbers: the same pair key has the same seed and seats on both conditions.
    wide = games.pivot(index="pair", columns="condition", values="seed")
    assert (wide["official"] == wide["random"]).all()
    mixed = games[games["lineup"] == "mixed"]
    seat_of_random = Counter(list(a).index("random") for a in mixed["agents"])
    assert seat_of_random == {0: 16, 1: 16, 2: 16, 3: 16}


def test_report_answers_with_tables_and_embedded_figures(small):
    _, result = small
    md = (result.path / "report.md").read_text()
    for text in (
        "Do official boards play differently",
        "## Findings",
        "## Main table",
        "## Provenance",
        "official",
        "random",
        "Error control",
        "difference [95% CI]",
        "Sensitivity: a linear mixed model",
        "Seats, tested over setups",
        f"to cite: ludolab {metadata.version('ludolab')}, git commit ",
    ):
        assert text in md
    figures = list((result.path / "figures").glob("*.png"))
    assert {p.stem for p in figures} >= {"length-greedy", "win-rates-mixed", "example-boards"}
    assert all(p.with_suffix(".pdf").is_file() for p in figures)
    for p in figures:
        assert f"figures/{p.name}" in md
    html = (result.path / "report.html").read_text()
    assert html.count("data:image/png;base64,") == len(figures)
    assert "src='figures" not in html and "<table" in html


def test_comparisons_are_oriented_against_the_baseline(small):
    _, result = small
    table = pd.read_csv(result.path / "comparisons.csv")
    assert set(table["condition2"]) == {"official"} and set(table["condition1"]) == {"random"}
    per_game = pd.read_parquet(result.path / "metrics" / "per_game.parquet")
    row = table[(table["lineup"] == "greedy") & (table["metric"] == "turns")].iloc[0]
    g = per_game[per_game["lineup"] == "greedy"]
    # the unit is the board: medians of the 4 board means per condition
    board_means = g.groupby(["condition", "setup"])["turns"].mean()
    assert row["n1"] == row["n2"] == 4
    assert row["median1"] == pytest.approx(board_means["random"].median())
    assert row["median2"] == pytest.approx(board_means["official"].median())
    assert set(table["metric"]) == {"turns", "score_spread", "lead_change", "sevens"}


def test_journal_tables_fit_a_page_and_hold_the_csvs_numbers(small):
    _, result = small
    full = pd.read_csv(result.path / "comparisons.csv")
    index = (result.path / "comparisons.tex").read_text()
    metrics = list(dict.fromkeys(full["metric"]))
    assert metrics == ["turns", "score_spread", "lead_change", "sevens"]
    for metric in metrics:
        tex = (result.path / "tables" / f"comparisons-{metric}.tex").read_text()
        rows = pd.read_csv(result.path / "tables" / f"comparisons-{metric}.csv")
        table = parse_tabular(tex)
        assert column_count(table.spec) <= 8
        assert all(width(row) == column_count(table.spec) for row in table.header + table.body)
        unit = escape_latex(f"{metric} ({game_unit('catan', metric).split(' [')[0]})")
        assert rf"\multicolumn{{4}}{{c}}{{{unit}}}" in table.header[0]  # over the value columns
        check_comparison_table(tex, rows, full)
        assert tex in index  # comparisons.tex holds every table
    report = (result.path / "report.md").read_text()
    assert "tables/comparisons-METRIC.tex" in report


def test_a_design_too_small_to_test_says_so_without_an_mde(small):
    _, result = small
    # 4 paired boards, 8 tests: Wilcoxon's smallest p, 2 / 2^4, is above 0.05 / 8
    table = pd.read_csv(result.path / "comparisons.csv")
    assert (
        table["verdict"]
        .str.startswith(
            "not testable at this size (smallest possible p = 0.125, level alpha / m = 0.00625)"
        )
        .all()
    )
    assert table["mde"].isna().all()
    report = (result.path / "report.md").read_text()
    findings = report.split("## Findings")[1].split("## Main table")[0]
    assert "**greedy**, every comparison (4 tests): not testable at this size" in findings
    assert "MDE" not in findings and "Differences the design detects" not in findings


def test_orient_swaps_every_paired_column():
    table = pd.DataFrame(
        {
            "condition1": ["base", "a"],
            "condition2": ["a", "base"],
            "n1": [1, 3],
            "n2": [2, 4],
            "median1": [10.0, 30.0],
            "median2": [20.0, 40.0],
            "mean1": [1.0, 3.0],
            "mean2": [2.0, 4.0],
            "effect": [0.5, 0.25],
            "ci_low": [0.1, 0.2],
            "ci_high": [0.9, 0.3],
            "diff": [-1.0, -1.0],
            "diff_low": [-3.0, -2.0],
            "diff_high": [1.5, 0.5],
            "hl_shift": [-0.5, -0.5],
            "d": [-0.2, -0.2],
            "test": ["mann-whitney", "wilcoxon"],
            "statistic": [0.5, 7.0],
        }
    )
    out = orient(table, "base")
    assert out["condition1"].tolist() == ["a", "a"] and out["condition2"].tolist() == ["base"] * 2
    assert out["median1"].tolist() == [20.0, 30.0] and out["median2"].tolist() == [10.0, 40.0]
    assert out["n1"].tolist() == [2, 3] and out["mean2"].tolist() == [1.0, 4.0]
    assert out["effect"].tolist() == [-0.5, 0.25]
    assert out["ci_low"].tolist() == [-0.9, 0.2] and out["ci_high"].tolist() == [-0.1, 0.3]
    assert out["statistic"].tolist() == [1.5, 7.0]  # U of the other side: n1 * n2 - U
    assert out["diff"].tolist() == [1.0, -1.0] and out["hl_shift"].tolist() == [0.5, -0.5]
    assert out["diff_low"].tolist() == [-1.5, -2.0] and out["diff_high"].tolist() == [3.0, 0.5]
    assert out["d"].tolist() == [0.2, -0.2]


def test_worker_processes_give_identical_games(small, tmp_path):
    cfg, result = small
    two = run_experiment(cfg, out=tmp_path, workers=2, analyse=False, quiet=True)
    assert digest(two.path / "games.parquet") == digest(result.path / "games.parquet")


def test_dask_backend_gives_identical_games(small, tmp_path):
    distributed = pytest.importorskip("distributed")
    cfg, result = small
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        run = run_experiment(
            cfg,
            out=tmp_path,
            backend="dask",
            scheduler=cluster.scheduler_address,
            analyse=False,
            quiet=True,
        )
    assert digest(run.path / "games.parquet") == digest(result.path / "games.parquet")
    assert json.loads((run.path / "provenance.json").read_text())["backend"] == "dask"


# --- interruptions: a real `ludolab run` process, stopped part-way, then resumed


@pytest.fixture(scope="module")
def longer(tmp_path_factory):
    """A run long enough to interrupt (800 games in 80 chunks), and its uninterrupted games."""
    base = tmp_path_factory.mktemp("longer")
    cfg = write_config(base / "tiny.toml", boards=4, games=20, chunk=10)
    ref = run_experiment(cfg, out=base / "ref", analyse=False, quiet=True)
    return cfg, digest(ref.path / "games.parquet")


# The runner as a user starts it, except that after saving its ``after``-th chunk it waits
# (in its main thread, as it would for a slow worker) until the gate file is gone: so the
# interruption lands part-way however fast the games are.
_GATED_RUNNER = """
import os, signal, sys, time
# Ctrl-C as in a terminal, even when the suite itself was started in the background (a
# shell's background jobs inherit SIGINT ignored, and then the runner would never see it).
signal.signal(signal.SIGINT, signal.default_int_handler)
from ludolab.research.cli import main
from ludolab.research.experiment import runner
gate, after = sys.argv[1], int(sys.argv[2])
original = runner.RunDir.write_chunk
saved = 0
def write_then_wait(self, *args, **kwargs):
    global saved
    original(self, *args, **kwargs)
    saved += 1
    while saved >= after and os.path.exists(gate):
        time.sleep(0.01)
runner.RunDir.write_chunk = write_then_wait
sys.exit(main(sys.argv[3:]))
"""


def _start(cfg: Path, out: Path, workers: int, gate: Path, after: int) -> subprocess.Popen:
    """``ludolab run`` in its own process, held at its ``after``-th chunk while ``gate`` exists."""
    gate.touch()
    args = [
        "run",
        str(cfg),
        "--out",
        str(out),
        "--run-id",
        "r",
        "--workers",
        str(workers),
        "--no-analysis",
        "--quiet",
    ]
    return subprocess.Popen(
        [sys.executable, "-c", _GATED_RUNNER, str(gate), str(after), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _wait_for_chunks(chunks: Path, proc: subprocess.Popen, n: int) -> None:
    """Until the runner has saved ``n`` chunks (a runner that hangs is stopped by the suite's
    per-test timeout, not by a clock here)."""
    while len(list(chunks.glob("chunk-*.parquet"))) < n:
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.01)


def _wait_until_gone(pids: list[int]) -> None:
    """Until none of ``pids`` is running (workers follow their killed parent, in their time)."""
    while any(Path(f"/proc/{pid}").exists() and not _zombie(pid) for pid in pids):
        time.sleep(0.01)


def _zombie(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except (OSError, IndexError):
        return False


def _worker_pids(pid: int) -> list[int]:
    """The runner's worker processes (loky's; not its resource trackers)."""

    def cmdline(child: str) -> bytes:
        try:
            return Path(f"/proc/{child}/cmdline").read_bytes()
        except OSError:  # gone meanwhile
            return b""

    children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    workers = [int(c) for c in children if b"LokyProcess" in cmdline(c)]
    assert workers, "no worker process found"
    return workers


@pytest.mark.parametrize("how", ["ctrl-c", "kill-worker", "kill-runner"])
def test_interrupted_run_resumes_to_the_same_games(longer, tmp_path, how):
    cfg, reference = longer
    gate = tmp_path / "gate"
    proc = _start(cfg, tmp_path, workers=2, gate=gate, after=3)
    run = tmp_path / "tiny" / "r"
    try:
        _wait_for_chunks(run / "chunks", proc, 3)
        workers = _worker_pids(proc.pid)
        if how == "ctrl-c":
            proc.send_signal(signal.SIGINT)
        elif how == "kill-worker":
            os.kill(workers[0], signal.SIGKILL)
            _wait_until_gone(workers[:1])
            gate.unlink()  # the runner goes on, and finds the worker gone
        else:
            proc.kill()
        _, err = proc.communicate()
    finally:
        if proc.poll() is None:  # a failed step above: leave no runner behind
            proc.kill()
            proc.communicate()
    assert not (run / "games.parquet").exists()
    saved = len(list((run / "chunks").glob("chunk-*.parquet")))
    assert saved == 3 or (how == "kill-worker" and 3 <= saved < 80), (saved, err)
    if how == "ctrl-c":
        assert proc.returncode == 130 and f"--resume {run}" in err, (proc.returncode, err)
    elif how == "kill-worker":
        died = "worker process died" in err and "--resume" in err
        assert proc.returncode == 2 and died, (proc.returncode, err)
    else:
        assert proc.returncode == -signal.SIGKILL
        _wait_until_gone(workers)  # the workers follow their killed parent
    resumed = run_experiment(cfg, out=tmp_path, resume=True, analyse=False, quiet=True)
    assert resumed.path == run and resumed.played == 800 - 10 * saved
    assert digest(run / "games.parquet") == reference


def test_resume_errors(small, tmp_path, capsys):
    cfg, result = small
    assert main(["run", str(cfg), "--out", str(tmp_path), "--resume", "-q"]) == 2
    assert "no unfinished run of 'tiny'" in capsys.readouterr().err
    other = write_config(tmp_path / "other.toml", games=4)
    assert main(["run", str(other), "--resume", str(result.path), "-q", "--no-analysis"]) == 2
    assert "plays other games" in capsys.readouterr().err
    # A complete run resumed again: nothing to play.
    again = run_experiment(cfg, resume=result.path, analyse=False, quiet=True)
    assert again.played == 0


def test_a_foreign_chunk_file_is_refused(tmp_path):
    cfg = write_config(tmp_path / "tiny.toml")
    with pytest.raises(KeyboardInterrupt):
        _interrupt_after_first_chunk(cfg, tmp_path)
    run = tmp_path / "tiny" / "r"
    chunk = sorted((run / "chunks").glob("chunk-*.parquet"))[0]
    table = pq.read_table(chunk)
    pq.write_table(table.slice(0, 2), chunk)  # altered: wrong row count, no metadata
    with pytest.raises(RunError, match="does not belong to this run"):
        run_experiment(cfg, out=tmp_path, resume=True, analyse=False, quiet=True)


def _interrupt_after_first_chunk(cfg: Path, out: Path) -> None:
    from ludolab.research.experiment import runner

    original = runner.RunDir.write_chunk

    def write_then_stop(self, *args, **kwargs):
        original(self, *args, **kwargs)
        raise KeyboardInterrupt

    runner.RunDir.write_chunk = write_then_stop
    try:
        run_experiment(cfg, out=out, run_id="r", analyse=False, quiet=True)
    finally:
        runner.RunDir.write_chunk = original


def test_bad_config_leaves_nothing_behind(tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text(
        TINY.format(boards=2, games=3, chunk=7).replace('seats = "greedy"', 'seats = "greedyy"')
    )
    assert main(["run", str(bad), "--out", str(tmp_path / "results")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "bad.toml" in err and "greedyy" in err
    assert not (tmp_path / "results").exists()
    assert main(["run", str(bad), "--backend", "dask"]) == 2
    assert "--scheduler" in capsys.readouterr().err
    # a scheduler with the local backend would play here, not on the cluster: refused
    good = write_config(tmp_path / "good.toml")
    local = ["run", str(good), "--out", str(tmp_path / "results"), "--backend", "local"]
    assert main([*local, "--scheduler", "tcp://127.0.0.1:9"]) == 2
    assert "is for the dask backend" in capsys.readouterr().err
    assert not (tmp_path / "results").exists()


def test_compare_and_plot_redo_the_analysis(small, capsys):
    _, result = small
    (result.path / "comparisons.md").unlink()
    assert main(["compare", str(result.path)]) == 0
    assert (result.path / "comparisons.md").is_file()
    out = capsys.readouterr().out
    assert "comparisons.csv" in out
    assert main(["plot", str(result.path)]) == 0
    assert "length-greedy.pdf" in capsys.readouterr().out


def test_compare_refuses_an_unfinished_run(tmp_path, capsys):
    cfg = write_config(tmp_path / "tiny.toml")
    with pytest.raises(KeyboardInterrupt):
        _interrupt_after_first_chunk(cfg, tmp_path)
    assert main(["compare", str(tmp_path / "tiny" / "r")]) == 2
    assert "not finished" in capsys.readouterr().err


def test_gallery_run_end_to_end(tmp_path):
    cfg = tmp_path / "g.toml"
    cfg.write_text(GALLERY)
    result = run_experiment(cfg, out=tmp_path, quiet=True)
    assert len(load_run(result.path).per_game) == 2 * 3 * 4
    assert (result.path / "deals.jsonl").is_file()
    figures = {p.stem for p in (result.path / "figures").glob("*.png")}
    # Two conditions sit at two values of tightness: no trend figure, and the report says why.
    assert "score-spread-vs-tightness-greedy" not in figures and "example-boards" not in figures
    md = (result.path / "report.md").read_text()
    assert "balanced-symbols" in md
    assert "no regression: Masters Gallery declares no deal features" in md
    assert "Not drawn: score spread against the deal sets' tightness" in md


def test_run_hands_a_puzzle_study_to_its_runner(tmp_path, capsys):
    cfg = tmp_path / "sudoku.toml"
    cfg.write_text(
        'name = "sud"\ngame = "sudoku"\nseed = 1\n[[sizes]]\nsize = 6\nclues = [12]\npuzzles = 2\n'
    )
    assert main(["run", str(cfg), "--out", str(tmp_path), "--run-id", "r"]) == 0
    out = tmp_path / "sud" / "r"
    assert {p.name for p in out.iterdir()} >= {"puzzles.parquet", "summary.md", "hardness.pdf"}
    assert "2 puzzles" in capsys.readouterr().out


def test_a_sampler_with_fewer_boards_has_them_reused_in_turn(tmp_path):
    cfg = tmp_path / "enum.toml"
    cfg.write_text(
        'name = "enum"\ngame = "catan"\nseed = 1\nplayers = 3\nboards = 100\n'
        "games_per_board = 1\n"
        '[[conditions]]\nname = "tiles"\nconstraints = "seed-2019-tiles"\nsampler = "enumerate"\n'
        '[[lineups]]\nname = "g"\nseats = "greedy"\n'
    )
    result = run_experiment(cfg, out=tmp_path, analyse=False, quiet=True)
    games = pd.read_parquet(result.path / "games.parquet")
    boards = [b.id for b in iter_boards(result.path / "boards.jsonl")]
    assert len(boards) == 96 and len(games) == 100  # the seed's 96 tile layouts
    assert games["setup_id"].tolist() == [boards[s % 96] for s in games["setup"]]
    state = json.loads((result.path / "run.json").read_text())
    assert "gave 96 board(s), not 100" in state["setups"][0]["notes"][-1]


@pytest.mark.slow  # waits out the 10 s connection timeout
def test_an_unreachable_scheduler_fails_before_writing(tmp_path, capsys):
    cfg = write_config(tmp_path / "tiny.toml")
    args = ["run", str(cfg), "--out", str(tmp_path / "results")]  # --scheduler: the dask backend
    assert main([*args, "--scheduler", "tcp://127.0.0.1:9"]) == 2
    assert "cannot reach a Dask scheduler" in capsys.readouterr().err
    assert not (tmp_path / "results").exists()


def _tiny(tmp_path: Path, name: str, body: str) -> Path:
    cfg = tmp_path / f"{name}.toml"
    cfg.write_text(f'name = "{name}"\ngame = "catan"\nseed = 5\nplayers = 3\n' + body)
    return cfg


SAME_SET_TWICE = """boards = {boards}
games_per_board = {games}
[[conditions]]
name = "a"
constraints = "random"
[[conditions]]
name = "b"
constraints = "random"
[[lineups]]
name = "{lineup}"
seats = "greedy"
[comparisons]
baseline = "a"
paired = {paired}
n_boot = 0
metrics = ["turns", "score_spread"]
"""


def test_a_condition_is_judged_by_its_boards_not_by_its_games(tmp_path):
    # Two conditions drawing from the same set, 2 boards each, many games per board: a test on
    # games would call board-to-board differences a condition effect; setup means do not.
    cfg = _tiny(
        tmp_path, "same", SAME_SET_TWICE.format(boards=2, games=60, lineup="g", paired="true")
    )
    result = run_experiment(cfg, out=tmp_path, quiet=True, analyse=False)
    data = load_run(result.path)
    table = analyse(data).pairwise
    assert (table["n1"] == 2).all() and not table["significant"].any()
    games = data.per_game
    by_game = games.groupby("condition", observed=True)["turns"].mean()
    assert by_game["a"] != by_game["b"]  # the boards do differ


def test_mann_whitney_statistic_is_u_of_the_condition_after_orienting(tmp_path):
    from scipy.stats import mannwhitneyu

    cfg = _tiny(
        tmp_path, "mwu", SAME_SET_TWICE.format(boards=6, games=2, lineup="g", paired="false")
    )
    data = load_run(run_experiment(cfg, out=tmp_path, quiet=True, analyse=False).path)
    row = analyse(data).pairwise.query("metric == 'turns'").iloc[0]
    assert (row["condition1"], row["condition2"], row["test"]) == ("b", "a", "mann-whitney")
    means = data.per_game.groupby(["condition", "setup"], observed=True)["turns"].mean()
    assert row["statistic"] == mannwhitneyu(means["b"], means["a"]).statistic


def test_odd_lineup_names_and_no_tested_metric_still_give_a_report(tmp_path):
    body = SAME_SET_TWICE.format(boards=2, games=1, lineup="greedy-v1.5", paired="true")
    # only a condition-level metric asked for: no per-game metric to test
    body = 'metrics = ["condition.balance"]\n' + body.replace(
        'metrics = ["turns", "score_spread"]', ""
    )
    result = run_experiment(_tiny(tmp_path, "odd", body), out=tmp_path, quiet=True)
    md = (result.path / "report.md").read_text()
    assert "figures/length-greedy-v1.5.png" in md and "no per-game metric was tested" in md


def test_a_run_stopped_after_assembling_its_games_is_not_replayed(tmp_path, monkeypatch):
    from ludolab.research.experiment import provenance

    cfg = _tiny(
        tmp_path, "fin", SAME_SET_TWICE.format(boards=2, games=2, lineup="g", paired="true")
    )

    def stop(*args, **kwargs):
        raise KeyboardInterrupt

    with monkeypatch.context() as m:
        m.setattr(provenance, "collect", stop)
        with pytest.raises(KeyboardInterrupt):
            run_experiment(cfg, out=tmp_path, run_id="r", analyse=False, quiet=True)
    run = tmp_path / "fin" / "r"
    assert (run / "games.parquet").is_file() and not (run / "chunks").exists()
    resumed = run_experiment(cfg, out=tmp_path, resume=True, analyse=False, quiet=True)
    assert resumed.played == 0
    assert json.loads((run / "run.json").read_text())["invocations"] == 2


def test_resume_takes_new_analysis_settings_but_not_new_games(tmp_path, capsys):
    body = SAME_SET_TWICE.format(boards=2, games=2, lineup="g", paired="true")
    cfg = _tiny(tmp_path, "edit", body)
    with pytest.raises(KeyboardInterrupt):
        _interrupt_after_first_chunk(cfg, tmp_path)
    cfg.write_text(
        cfg.read_text().replace('metrics = ["turns", "score_spread"]', 'metrics = ["turns"]')
    )
    result = run_experiment(cfg, out=tmp_path, resume=True, analyse=False, quiet=True)
    resolved = json.loads((result.path / "config.resolved.json").read_text())
    assert resolved["comparisons"]["metrics"] == ["turns"]
    cfg.write_text(cfg.read_text().replace("games_per_board = 2", "games_per_board = 3"))
    assert main(["run", str(cfg), "--out", str(tmp_path), "--resume", str(result.path)]) == 2
    assert "plays other games" in capsys.readouterr().err


def test_resume_takes_a_new_figure_style_and_a_run_from_before_it_was_analysis(tmp_path):
    """[report] only draws: a resume with another style goes on with the same games, and a run
    recorded with the play hash of older versions (which held [report]) is found and resumed."""
    from ludolab.research.experiment.config import load_experiment, play_hashes
    from ludolab.research.experiment.store import RunDir

    body = SAME_SET_TWICE.format(boards=2, games=2, lineup="g", paired="true")
    cfg = _tiny(tmp_path, "style", body)
    with pytest.raises(KeyboardInterrupt):
        _interrupt_after_first_chunk(cfg, tmp_path)
    run = RunDir(tmp_path / "style" / "r")
    state = run.read_state()
    now, before = play_hashes(load_experiment(cfg))
    assert state["play_hash"] == now != before
    state["play_hash"] = before  # as an older version wrote it
    run.write_state(state)
    resumed = run_experiment(cfg, out=tmp_path, resume=True, analyse=False, quiet=True)
    assert resumed.path == run.path
    assert run.read_state()["play_hash"] == now
    cfg.write_text(cfg.read_text() + '\n[report]\nstyle = "screen"\n')
    run_experiment(cfg, out=tmp_path, resume=run.path, analyse=False, quiet=True)
    assert json.loads((run.path / "config.resolved.json").read_text())["report"]["style"] == (
        "screen"
    )
    assert run.read_state()["play_hash"] == now


def test_one_run_folder_one_process(tmp_path):
    from ludolab.research.experiment.store import RunDir

    cfg = _tiny(
        tmp_path, "lock", SAME_SET_TWICE.format(boards=2, games=2, lineup="g", paired="true")
    )
    with pytest.raises(KeyboardInterrupt):
        _interrupt_after_first_chunk(cfg, tmp_path)
    run = RunDir(tmp_path / "lock" / "r")
    with run.locked(), pytest.raises(RunError, match="another 'ludolab run'"):
        run_experiment(cfg, out=tmp_path, resume=run.path, analyse=False, quiet=True)


def test_names_that_are_not_folder_names_are_refused(tmp_path):
    cfg = _tiny(tmp_path, "ok", SAME_SET_TWICE.format(boards=2, games=1, lineup="g", paired="true"))
    with pytest.raises(RunError, match="cannot be a folder name"):
        run_experiment(cfg, out=tmp_path, run_id="../escape", analyse=False, quiet=True)
    assert not (tmp_path / "escape").exists()


def test_a_condition_plays_by_its_own_rule_options(tmp_path):
    cfg = tmp_path / "vp.toml"
    cfg.write_text(
        """
name = "vp"
game = "catan"
seed = 3
players = 4
boards = 3
games_per_board = 4
[options]
turn_limit = 600
[[conditions]]
name = "vp8"
constraints = "official"
options = { vp_to_win = 8 }
[[conditions]]
name = "vp10"
constraints = "official"
[[lineups]]
seats = "greedy"
"""
    )
    result = run_experiment(cfg, out=tmp_path / "out", analyse=False, quiet=True, workers=2)
    games = pd.read_parquet(result.path / "games.parquet")
    won = games[games["winners"].map(len) > 0]
    best = won.apply(lambda r: r["final_scores"][int(r["winners"][0])], axis=1)
    assert (best[won["condition"] == "vp10"] >= 10).all()
    assert (best[won["condition"] == "vp8"] < 10).any() and (best >= 8).all()
    assert len(won[won["condition"] == "vp8"]) > 0


def test_a_sweep_run_draws_its_dose_response(tmp_path):
    cfg = tmp_path / "sweep.toml"
    cfg.write_text(
        """
name = "sweep"
game = "catan"
seed = 4
players = 4
boards = 4
games_per_board = 2
[[sweep]]
name = "vp"
constraints = "official"
parameter = "options.vp_to_win"
values = [8, 10, 12]
[[lineups]]
seats = "greedy"
[comparisons]
baseline = "vp=10"
metrics = ["turns", "score_spread"]
"""
    )
    result = run_experiment(cfg, out=tmp_path / "out", quiet=True)
    trends = pd.read_csv(result.path / "trends.csv")
    assert list(trends["metric"]) == ["turns", "score_spread"]
    assert trends.loc[0, "slope"] > 0 and set(trends["values"]) == {3}
    assert (result.path / "figures" / "sweep-vp-greedy-greedy-greedy-greedy.png").is_file()
    report = (result.path / "report.md").read_text()
    assert "**Trends.**" in report and "per unit of vp_to_win" in report
    assert "no finding was possible" in report  # 4 boards: the rank tests cannot reach alpha/m
    assert "not testable at this size (smallest possible p = 0.125" in report
    # the trend family has its own journal table, its numbers those of trends.csv
    tex = (result.path / "tables" / "trends.tex").read_text()
    assert column_count(parse_tabular(tex).spec) <= 8 and "turns (player turns)" in tex
    check_trend_table(tex, trends)
    assert len(pd.read_csv(result.path / "tables" / "trends.csv")) == len(trends)


def test_a_sampler_mismatch_is_named_with_its_control(tmp_path):
    cfg = tmp_path / "mm.toml"
    cfg.write_text(
        """
name = "mm"
game = "catan"
seed = 3
players = 4
boards = 3
games_per_board = 1
[[conditions]]
name = "official"
constraints = "official"
[[conditions]]
name = "tournament"
constraints = "tournament"
sampler = "solver"
[[lineups]]
seats = "greedy"
[comparisons]
baseline = "official"
metrics = ["turns"]
"""
    )
    result = run_experiment(cfg, out=tmp_path / "out", quiet=True)
    report = (result.path / "report.md").read_text()
    assert "**Sampler mismatch.**" in report
    assert "tournament (solver, not uniform) vs official (uniform (rejection))" in report
    assert 'constraints = "official"`, `sampler = "solver"`' in report


def test_a_run_of_the_schema_before_the_record_core_says_to_replay_it(tmp_path):
    from ludolab.research.experiment.store import RunDir

    run = RunDir(tmp_path / "old")
    run.path.mkdir()
    run.state_path.write_text('{"schema": "ludolab.run/1"}')
    with pytest.raises(RunError, match=r"older ludolab .*play it again with `ludolab run .*old/"):
        run.read_state()
