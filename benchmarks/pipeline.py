"""The whole experiment pipeline: 10,000 four-player Catan games with scripted agents.

The issue's target: 10,000 games with scripted agents, board generation included, in under
5 minutes on 2 cores. This script writes an experiment config (5 board conditions, one of them
from the solver sampler, x 20 boards x 100 games, greedy agents at every seat), runs it with
``ludolab run``'s runner on ``--workers`` local processes (default: every core this process may
use), and prints the wall-clock time of generation, play and analysis, games per second and the
ratio to the target. It never fails on time.

    .venv/bin/python benchmarks/pipeline.py                 # 10,000 games, all cores
    .venv/bin/python benchmarks/pipeline.py --games 2000 --workers 1
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from ludolab.research.experiment.report import analyse_run
from ludolab.research.experiment.runner import run_experiment

TARGET_SECONDS = 300.0  # 10,000 games, generation included, 2 cores
TARGET_GAMES = 10_000
CONDITIONS = (
    ("random", "uniform"),
    ("official", "uniform"),
    ("tournament", "uniform"),
    ("clumpy", "uniform"),
    ("balanced", "solver"),
)


def config_text(games: int, seed: int) -> str:
    """A config with ``games`` greedy games spread over :data:`CONDITIONS` x 20 boards."""
    boards = 20
    per_board = max(1, games // (len(CONDITIONS) * boards))
    parts = [
        'name = "pipeline-benchmark"',
        'question = "How fast is the whole pipeline?"',
        'game = "catan"',
        f"seed = {seed}",
        "players = 4",
        f"boards = {boards}",
        f"games_per_board = {per_board}",
        "chunk_size = 250",
        'metrics = ["turns", "score_spread", "lead_change", "drama", "income_gini"]',
    ]
    for name, sampler in CONDITIONS:
        parts += [
            "[[conditions]]",
            f'name = "{name}"',
            f'constraints = "{name}"',
            f'sampler = "{sampler}"',
        ]
    parts += [
        "[[lineups]]",
        'name = "greedy"',
        'seats = "greedy"',
        "[comparisons]",
        'baseline = "random"',
        "n_boot = 1000",
    ]
    return "\n".join(parts) + "\n"


def main() -> None:
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=TARGET_GAMES)
    parser.add_argument("--workers", type=int, default=cores or 1)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument(
        "--keep", metavar="DIR", help="keep the run under DIR (default: a temp dir)"
    )
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(args.keep) if args.keep else Path(tmp)
        root.mkdir(parents=True, exist_ok=True)
        cfg = root / "pipeline-benchmark.toml"
        cfg.write_text(config_text(args.games, args.seed))
        start = time.perf_counter()
        result = run_experiment(cfg, out=root, workers=args.workers, analyse=False, quiet=True)
        played = time.perf_counter() - start
        state = json.loads((result.path / "run.json").read_text())
        t0 = time.perf_counter()
        analyse_run(result.path)
        analysis = time.perf_counter() - t0

    setup_s = state.get("setup_seconds", 0.0)
    total = played + analysis
    scale = TARGET_GAMES / result.n_games
    print(
        f"ludolab pipeline benchmark, {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, "
        f"{platform.processor() or platform.machine()}, {cores} cores usable, "
        f"load average {os.getloadavg()[0]:.2f}"
    )
    print(
        f"{result.n_games:,} four-player Catan games (greedy x4) on {len(CONDITIONS)} "
        f"conditions x 20 boards, {args.workers} worker process(es)"
    )
    print(f"  board generation   {setup_s:8.1f} s")
    print(
        f"  games              {played - setup_s:8.1f} s  "
        f"({result.n_games / (played - setup_s):,.0f} games/s)"
    )
    print(f"  run total          {played:8.1f} s  (generation + games + writing)")
    print(f"  analysis           {analysis:8.1f} s  (metrics, tests, bootstrap, figures, report)")
    print(f"  everything         {total:8.1f} s")
    projected = played * scale
    print(
        f"target: {TARGET_GAMES:,} games incl. generation in {TARGET_SECONDS:.0f} s on 2 cores; "
        f"run (scaled to {TARGET_GAMES:,} games) {projected:.1f} s = "
        f"{TARGET_SECONDS / projected:.1f}x faster than the target"
        f"{'' if projected <= TARGET_SECONDS else ' (MISSED)'}"
    )


if __name__ == "__main__":
    main()
