"""The generated games' difficulty by grid size and clues: draws, a summary and a figure.

  ludolab puzzle study --out results/puzzle-study [--n 60] [--seed 1] [--games zip,loopy]
      [--workers 2] [--force]

See research/puzzles/study/study.py for the design and the files written.
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
from pathlib import Path

from ludolab.research.cli_types import add_quiet_option
from ludolab.research.puzzles import PuzzleError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--out", required=True, help="the study's folder")
    parser.add_argument("--n", type=int, default=60, help="candidates per game and size (60)")
    parser.add_argument("--seed", type=int, default=1, help="master seed (default 1)")
    parser.add_argument("--games", default="", help="comma-separated games (default: all nine)")
    parser.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    parser.add_argument("--force", dest="replace", action="store_true",
                        help="replace the --out folder if it exists")
    add_quiet_option(parser)


def run(args: argparse.Namespace) -> int:
    from ludolab.research.puzzles.study.study import GAMES

    out = Path(args.out)
    if out.exists() and not args.replace:
        raise PuzzleError(f"--out {out}: exists; pass --force to replace it (nothing was written)")
    if not out.parent.is_dir():
        raise PuzzleError(f"--out {out}: the folder {out.parent} does not exist")
    games = [g.strip() for g in args.games.split(",") if g.strip()] or list(GAMES)
    unknown = [g for g in games if g not in GAMES]
    if unknown:
        raise PuzzleError(f"--games: no game {unknown[0]!r}; the games are {', '.join(GAMES)}")
    if args.n < 3 or args.workers < 1:
        raise PuzzleError("--n must be at least 3 and --workers at least 1")
    import pandas as pd
    from joblib import Parallel, delayed

    from ludolab.research.progress import Status
    from ludolab.research.puzzles.study.study import (
        difficulty_figure,
        run_task,
        summarise,
        summary_markdown,
        tasks,
    )

    todo = tasks(games, args.n, args.seed)
    with Status(f"drawing {args.n} candidates per game and size ({len(todo)} sets)",
                quiet=args.quiet):
        parts = Parallel(n_jobs=args.workers)(delayed(run_task)(t) for t in todo)
    draws = pd.DataFrame([row for part in parts for row in part])
    summary = summarise(draws)
    command = (f"ludolab puzzle study --n {args.n} --seed {args.seed}"
               + (f" --games {','.join(games)}" if args.games else ""))
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
    try:
        draws.to_csv(staging / "draws.csv", index=False)
        summary.to_csv(staging / "summary.csv", index=False)
        text = summary_markdown(summary, command)
        (staging / "summary.md").write_text(text)
        fig = difficulty_figure(summary)
        fig.savefig(staging / "difficulty.png", dpi=200)
        fig.savefig(staging / "difficulty.pdf")
        if out.exists():
            shutil.rmtree(out)
        staging.rename(out)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    print(text)
    print(f"-> {out}")
    return 0
