"""Fit the win-probability model of ``mcts-value`` (envs/catan/agents/value.py) and say how
well it predicts games it was not fitted on.

    .venv/bin/python benchmarks/fit_win_model.py [--games N] [--seed S] [--holdout F]
        [--workers W]

Plays ``--games`` greedy 4-player games on fair boards (game g with ``game_seed(seed, g)``),
takes every position at the start of a turn, fits the conditional logit on the first
``1 - holdout`` of the games and prints: the held-out log-loss per stage of the game against
knowing nothing (log 4) and against a model of victory points alone, the share of held-out
positions whose favourite won, and the weights in the form of value.WEIGHTS. The shipped
weights are this script's with its defaults.
"""

from __future__ import annotations

import argparse
import os

import numpy as np
from joblib import Parallel, delayed

from ludolab.envs.catan.agents.value import FEATURES
from ludolab.research.catan.win_model import Positions, collect_positions, fit, log_loss

STAGES = ((1, 10), (10, 20), (20, 40), (40, 60), (60, 100), (100, 10_000))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=8000)
    parser.add_argument("--seed", type=int, default=12345)
    parser.add_argument("--holdout", type=float, default=0.25)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    if args.games < 2 or not 0 < args.holdout < 1:
        parser.error("--games must be at least 2 and --holdout between 0 and 1")
    chunks = np.array_split(np.arange(args.games), max(1, args.workers * 4))
    parts = Parallel(n_jobs=args.workers)(
        delayed(collect_positions)(range(c[0], c[-1] + 1), args.seed) for c in chunks if len(c)
    )
    data = Positions(
        *(np.concatenate([getattr(p, f) for p in parts]) for f in Positions.__dataclass_fields__)
    )
    train = data.game < round(args.games * (1 - args.holdout))
    test = ~train
    x, y = data.features, data.winner
    weights = fit(x[train], y[train])
    vp_only = np.zeros_like(weights)
    vp_only[0] = fit(x[train][:, :, :1], y[train])[0]
    loss, base = log_loss(x[test], y[test], weights), log_loss(x[test], y[test], vp_only)
    favourite = (x[test] @ weights).argmax(axis=1) == y[test]
    print(
        f"{train.sum():,} positions of {len(np.unique(data.game[train])):,} games fitted, "
        f"{test.sum():,} of {len(np.unique(data.game[test])):,} held out "
        f"(games with no winner left out); log 4 = {np.log(4):.3f}"
    )
    print(f"{'turns':>10} {'positions':>10} {'log-loss':>9} {'vp only':>8} {'favourite won':>14}")
    turn = data.turn[test]
    for lo, hi in (*STAGES, (0, 10_000)):
        m = (turn >= lo) & (turn < hi)
        label = "all" if lo == 0 else f"{lo}+" if hi == STAGES[-1][1] else f"{lo}-{hi - 1}"
        print(
            f"{label:>10} {m.sum():>10,} {loss[m].mean():>9.3f} {base[m].mean():>8.3f} "
            f"{favourite[m].mean():>14.1%}"
        )
    print("\nWEIGHTS = (  # per unit of:", ", ".join(FEATURES))
    print("    " + ", ".join(f"{round(float(w), 4)}" for w in weights) + ",\n)")


if __name__ == "__main__":
    main()
