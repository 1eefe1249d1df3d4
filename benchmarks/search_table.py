"""A four-player Catan table with a search agent in every seat: how long ``ludolab simulate``
takes, end to end, against the search lineups it replaced, in one run.

    .venv/bin/python benchmarks/search_table.py [--games N] [--workers W] [--seed S]
        [--baseline-games M]

Issue 52's target: 10,000 games with a search agent in every seat of a four-player game in
under an hour on two cores. Each lineup is played by the command a user runs (``ludolab simulate
catan --agents A,A,A,A --games N --workers W``, a subprocess), on fair boards, and timed from
outside: wall seconds, and CPU seconds of the command and every worker it waited for
(``resource.getrusage(RUSAGE_CHILDREN)``). Lineups:

- ``now``: ``NOW``, the agent the shipped catan-constraints study seats (--games games);
- ``study before``: ``lookahead:playouts=32,finalists=3``, the study's search lineup before
  issue 52 (--baseline-games games);
- ``mcts-value before``: the defaults ``mcts-value`` had when issue 52 was filed, four of them
  (a few games: about 10 CPU s each).

Printed per lineup: games, wall and CPU seconds, wall and CPU seconds a game, player turns a
game, and the wall time 10,000 games would take at that rate (measured when the lineup played
10,000 or more, else marked as extrapolated); then the ratios of ``now`` to the others, and the
target with OK/MISS (judged only on a measured 10,000). How strong each agent is against three
greedy is ``benchmarks/search_cost.py --agent catan-study-seat``.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pandas as pd

NOW = "mcts-value:playouts=100,setup_playouts=250"
STUDY_BEFORE = "lookahead:playouts=32,finalists=3"
MCTS_VALUE_BEFORE = "mcts-value:setup_playouts=4000,setup_horizon=0,setup_flat=false"
TARGET_GAMES, TARGET_SECONDS = 10_000, 3600.0


def run(spec: str, games: int, workers: int, seed: int, out: Path) -> tuple[float, float, float]:
    """Four ``spec`` agents play ``games`` games through the CLI: (wall s, CPU s, mean player
    turns a game)."""
    command = [
        str(Path(sys.executable).with_name("ludolab")),
        "simulate",
        "catan",
        "--agents",
        ",".join([spec] * 4),
        "--games",
        str(games),
        "--workers",
        str(workers),
        "--seed",
        str(seed),
        "--batch",
        str(max(1, min(1000, games // (4 * workers)))),
        "--out",
        str(out),
        "--force",
        "--quiet",
    ]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    turns = float(pd.read_parquet(out, columns=["turns"])["turns"].mean())
    return wall, cpu, turns


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=TARGET_GAMES)
    parser.add_argument("--baseline-games", type=int, default=2000)
    parser.add_argument("--before-games", type=int, default=20)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    print(f"four-seat Catan tables, seed {args.seed}, {args.workers} workers, fair boards")
    print(
        f"{'lineup':<18} {'games':>6} {'wall s':>8} {'CPU s':>8} {'wall s/game':>11} "
        f"{'CPU s/game':>10} {'turns/game':>10} {'10,000 games, wall':>24}"
    )
    lineups = [
        ("now", NOW, args.games),
        ("study before", STUDY_BEFORE, args.baseline_games),
        ("mcts-value before", MCTS_VALUE_BEFORE, args.before_games),
    ]
    rows = {}
    with tempfile.TemporaryDirectory() as folder:
        for label, spec, games in lineups:
            if games <= 0:
                continue
            wall, cpu, turns = run(spec, games, args.workers, args.seed, Path(folder) / "t.parquet")
            projected = wall / games * TARGET_GAMES
            how = "measured" if games >= TARGET_GAMES else "extrapolated"
            rows[label] = (games, wall, cpu)
            print(
                f"{label:<18} {games:>6} {wall:>8.1f} {cpu:>8.1f} {wall / games:>11.4f} "
                f"{cpu / games:>10.4f} {turns:>10.1f} {projected / 60:>9.1f} min {how:<12}  "
                f"4 x {spec}",
                flush=True,
            )
    if "now" not in rows:
        return
    games, wall, cpu = rows["now"]
    for label in ("study before", "mcts-value before"):
        if label in rows:
            g0, w0, c0 = rows[label]
            print(
                f"now/{label}: wall s a game x{(wall / games) / (w0 / g0):.2f}, "
                f"CPU s a game x{(cpu / games) / (c0 / g0):.2f}"
            )
    if games >= TARGET_GAMES:
        met = wall / games * TARGET_GAMES <= TARGET_SECONDS
        verdict = "OK" if met else "MISS"
    else:
        verdict = f"not judged (played {games}, fewer than {TARGET_GAMES:,})"
    limit = f"{TARGET_GAMES:,} games in at most {TARGET_SECONDS / 60:.0f} min wall"
    print(f"target: {limit}: {verdict}")


if __name__ == "__main__":
    main()
