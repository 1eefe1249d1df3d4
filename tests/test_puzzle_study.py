"""The generated games' difficulty study: files, reproducibility across workers, bad input."""

from __future__ import annotations

import pandas as pd
from puzzle_cli import puzzle_cli


def test_study_writes_its_files_and_does_not_depend_on_workers(tmp_path):
    runs = []
    for workers in ("1", "2"):
        out = tmp_path / f"study-{workers}"
        done = puzzle_cli("study", "--out", str(out), "--n", "4", "--games", "zip,sudoku",
                          "--workers", workers, "-q", cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        assert {p.name for p in out.iterdir()} == {
            "draws.csv", "summary.csv", "summary.md", "difficulty.png", "difficulty.pdf"}
        runs.append(pd.read_csv(out / "draws.csv"))
    assert runs[0].equals(runs[1])
    draws = runs[0]
    assert set(draws["game"]) == {"zip", "sudoku"}
    assert sorted(set(draws[draws["game"] == "zip"]["size"])) == [5, 6, 7]
    assert sorted(set(draws[draws["game"] == "sudoku"]["size"])) == [6, 9]
    assert (draws.groupby(["game", "size"]).size() == 4).all()
    kept = draws[draws["level"] != "discarded"]
    assert kept["clues"].notna().all()
    summary = pd.read_csv(tmp_path / "study-1" / "summary.csv")
    shares = summary[["easy", "medium", "hard", "expert"]].fillna(0).sum(axis=1)
    assert ((shares - 1).abs() < 1e-9)[summary["kept"] > 0].all()


def test_bad_study_requests_exit_2_and_write_nothing(tmp_path):
    out = tmp_path / "study"
    for args, says in [(["--games", "chess"], "no game 'chess'"), (["--n", "1"], "at least 3")]:
        done = puzzle_cli("study", "--out", str(out), *args, cwd=tmp_path)
        assert done.returncode == 2 and says in done.stderr and not out.exists(), done.stderr
    out.mkdir()
    done = puzzle_cli("study", "--out", str(out), "--n", "3", cwd=tmp_path)
    assert done.returncode == 2 and "--force" in done.stderr
