"""catanatron's alpha-beta player against its value-function player, in catanatron's own engine:
the reference for ludolab's ``alphabeta`` anchor (envs/catan/agents/alphabeta.py).

The anchor re-implements catanatron's ``AlphaBetaPlayer`` (depth 2, its value function
``base_fn``) on ludolab's engine. How strong the original is against ludolab's agents cannot be
measured (the two engines cannot seat each other's players), but both projects have the step
from one decision of look-ahead to two over the same value function: in catanatron,
``AlphaBetaPlayer`` against ``ValueFunctionPlayer`` (one decision deep, one sample of chance);
in ludolab, ``alphabeta`` against ``alphabeta:depth=1`` (one decision deep, chance averaged).
A re-implementation that lost strength in its search would show a smaller step than the
original's. One against one:

    .venv/bin/python benchmarks/catanatron_alphabeta.py --source ~/catanatron --games 200
    .venv/bin/ludolab ladder catan --agents alphabeta,alphabeta:depth=1 --players 2 \\
        --rounds 100 --out /tmp/alphabeta-depth

catanatron's search players are not on PyPI (its 3.2.1 release ships only the random bots), so
``--source`` names a checkout of github.com/bcollazo/catanatron (``git clone``, then ``git
checkout 41ba0db``, the commit the anchor was written from). The games run in the benchmark
environment (``.venv-bench``, made as ``simulate_catan.py`` makes it) with the checkout first on
``PYTHONPATH``; nothing of catanatron enters ludolab's environment or code.

Game k (k = 0..N-1): ``random.seed(k)``, then ``Game([AlphaBetaPlayer(RED),
ValueFunctionPlayer(BLUE)], seed=k)``, which draws a map and the seating from the seed. The
process re-executes itself as ``catanatron_reference.py`` does, so that a seed gives the same
game every time. Printed: the alpha-beta player's wins with a 95% Wilson interval
(statsmodels), the games that hit catanatron's turn limit without a winner, and CPU seconds
a game. Exit 2 when the checkout is missing or has no search players.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time
from pathlib import Path

PACKAGE = Path("catanatron") / "catanatron"  # where the package sits in a checkout
PLAYERS = PACKAGE / "players" / "minimax.py"


def play_duel(games: int) -> dict[str, int | float]:
    """In the benchmark environment: ``games`` one-against-one games, alpha-beta against the
    value-function player; their counts and CPU seconds."""
    from catanatron.game import Game
    from catanatron.models.player import Color
    from catanatron.players.minimax import AlphaBetaPlayer
    from catanatron.players.value import ValueFunctionPlayer

    wins = unfinished = 0
    start = time.process_time()
    for seed in range(games):
        random.seed(seed)  # Game treats seed 0 as none and draws one from `random`
        game = Game([AlphaBetaPlayer(Color.RED), ValueFunctionPlayer(Color.BLUE)], seed=seed)
        winner = game.play()
        wins += winner == Color.RED
        unfinished += winner is None
        if (seed + 1) % 20 == 0:
            print(f"  {seed + 1} games, {wins} won", file=sys.stderr, flush=True)
    return {
        "games": games,
        "wins": wins,
        "unfinished": unfinished,
        "cpu_s": time.process_time() - start,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", type=Path, help="a checkout of bcollazo/catanatron")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--bench-venv", type=Path, help="default: .venv-bench beside .venv")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error(f"--games must be at least 1, got {args.games}")

    if args.child:  # stdlib and catanatron only, in the benchmark environment
        from catanatron_reference import _make_reproducible

        reproducible = _make_reproducible()
        json.dump({**play_duel(args.games), "reproducible": reproducible}, sys.stdout)
        return 0

    if args.source is None or not (args.source / PLAYERS).is_file():
        print(
            f"catanatron_alphabeta.py: --source {args.source}: expected a checkout of "
            f"github.com/bcollazo/catanatron with {PLAYERS} (git clone it, then git checkout "
            "41ba0db)",
            file=sys.stderr,
        )
        return 2
    from simulate_catan import DEFAULT_BENCH_VENV, ensure_bench_venv
    from statsmodels.stats.proportion import proportion_confint

    python = ensure_bench_venv(args.bench_venv or DEFAULT_BENCH_VENV)
    commit = subprocess.run(
        ["git", "-C", str(args.source), "rev-parse", "--short", "HEAD"],
        capture_output=True,
        text=True,
    ).stdout.strip()
    print(f"catanatron at {args.source} ({commit or 'not a git checkout'}), {args.games} games")
    done = subprocess.run(
        [str(python), __file__, "--child", "--games", str(args.games)],
        stdout=subprocess.PIPE,
        text=True,
        env={"PYTHONPATH": str(args.source / PACKAGE.parent), "PATH": "/usr/bin:/bin"},
    )
    if done.returncode != 0:
        print(
            f"catanatron_alphabeta.py: the games failed (exit {done.returncode})", file=sys.stderr
        )
        return 1
    result = json.loads(done.stdout)
    n, k = result["games"], result["wins"]
    low, high = proportion_confint(k, n, method="wilson")
    print(
        f"AlphaBetaPlayer (depth 2) against ValueFunctionPlayer, one against one: won {k} of "
        f"{n}, {k / n:.1%} [{low:.1%}, {high:.1%}] (95% Wilson); no winner in "
        f"{result['unfinished']}; {result['cpu_s'] / n:.2f} CPU s a game; reproducible seeds: "
        f"{'yes' if result['reproducible'] else 'no'}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
