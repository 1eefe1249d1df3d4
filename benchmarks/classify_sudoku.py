"""Sudoku hardness classification speed on one core: 1,000 generated 9x9 puzzles.

The issue's target: classify 1,000 generated 9x9 puzzles in under a minute on one core. The
script generates the puzzles first (timed separately: minimal puzzles, seeds spawned from
``--seed``), then classifies each one by climbing the ladder (val, bnd, dom, bs, ds) and prints
the CPU seconds spent at each level, the tag counts, puzzles per CPU-second and the ratio to
the target. It never fails on time.

    .venv/bin/python benchmarks/classify_sudoku.py                 # 1,000 minimal 9x9 puzzles
    .venv/bin/python benchmarks/classify_sudoku.py --count 200 --clues 26
    .venv/bin/python benchmarks/classify_sudoku.py --size 16 --count 50 --clues 110
"""

from __future__ import annotations

# isort: off
# First, before numpy (imported by research.*) creates any thread pool.
from one_core import PINNED_CPU

# isort: on
import argparse  # noqa: E402
import collections  # noqa: E402
import os  # noqa: E402
import platform  # noqa: E402
import time  # noqa: E402
from datetime import UTC, datetime  # noqa: E402

from ludolab.research.puzzles.sudoku.classify import classify  # noqa: E402
from ludolab.research.puzzles.sudoku.generate import NODE_LIMITS, generate_puzzles  # noqa: E402
from ludolab.research.puzzles.sudoku.propagate import LEVELS, TAGS  # noqa: E402

TARGET = 1000 / 60.0  # 9x9 puzzles classified per CPU-second


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=1000, help="puzzles (default 1,000)")
    parser.add_argument("--size", type=int, default=9, choices=sorted(NODE_LIMITS))
    parser.add_argument(
        "--clues", type=int, default=None, help="target clue count (default: minimal puzzles)"
    )
    parser.add_argument("--seed", type=int, default=2026, help="master seed")
    args = parser.parse_args()
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(
        f"Sudoku hardness classification speed, {datetime.now(UTC):%Y-%m-%d %H:%M} UTC; "
        f"{os.cpu_count()} CPUs, load average {load}; pinned to CPU {PINNED_CPU}; "
        f"Python {platform.python_version()}"
    )
    n = args.size
    start = time.process_time()
    puzzles = list(generate_puzzles(n, args.count, args.seed, args.clues, NODE_LIMITS[n]))
    gen = time.process_time() - start
    clues = [p.clues for p in puzzles]
    print(
        f"generate: {len(puzzles)} {n}x{n} puzzles (clues {min(clues)}-{max(clues)}, mean "
        f"{sum(clues) / len(clues):.1f}) in {gen:.1f} CPU-s = {len(puzzles) / gen:.1f}/s"
    )

    per_level: collections.Counter[str] = collections.Counter()
    reached: collections.Counter[str] = collections.Counter()
    tags: collections.Counter[str] = collections.Counter()
    start, wall = time.process_time(), time.perf_counter()
    for p in puzzles:
        result = classify(p.grid, n)
        per_level.update(result.seconds)
        reached.update(result.seconds.keys())
        tags[result.tag] += 1
    total = time.process_time() - start
    wall = time.perf_counter() - wall
    print(f"classify: {len(puzzles)} puzzles in {total:.2f} CPU-s ({wall:.2f} s wall clock)")
    # classify() times each level by the wall clock (perf_counter): on a loaded machine the
    # levels add up to the wall-clock total, not the CPU total.
    print(f"{'level':<7} {'puzzles run':>11} {'wall s':>8} {'ms/puzzle run':>14}")
    for level in LEVELS:
        runs = reached[level]
        ms = 1000 * per_level[level] / runs if runs else 0.0
        print(f"{level:<7} {runs:>11} {per_level[level]:>8.2f} {ms:>14.2f}")
    print("tags: " + ", ".join(f"{t} {tags[t]}" for t in TAGS))
    rate = len(puzzles) / total
    note = f"  ({rate / TARGET:.1f}x the target)" if n == 9 else ""
    print(
        f"{rate:,.1f} puzzles/CPU-s{note}; target {TARGET:.1f} 9x9 puzzles/CPU-s "
        "(1,000 in a minute)"
    )


if __name__ == "__main__":
    main()
