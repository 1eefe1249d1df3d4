"""Closed knight's tours: Warnsdorff search for every even n from 6 to 200, MiniZinc for a few.

The issue's target: a closed tour for every even n from 6 to 200 in under 1 s each. The seed's
figures for Gecode with its own Warnsdorff brancher: a 50 x 50 tour in about 2 s, none for
100 x 100 within a minute. The script prints, pinned to one core, per n: Warnsdorff nodes,
backtracks, restarts and CPU seconds (the search, and the whole call including the
independent verification), then the max, the total and the ratio to the 1 s target; then the
MiniZinc model for a few n with a time limit. It never fails on time: a target missed is
printed as MISS. The exit code is 1 only when something crashed (e.g. an invalid tour).

    .venv/bin/python benchmarks/knights_tour.py                   # n = 6..200, MiniZinc 6..50
    .venv/bin/python benchmarks/knights_tour.py --mzn-sizes 6,50,100 --mzn-time-limit 60
    .venv/bin/python benchmarks/knights_tour.py --max-n 60 --mzn-sizes none
"""

from __future__ import annotations

# isort: off
# First, before numpy (imported by research.*) creates any thread pool.
from one_core import PINNED_CPU

# isort: on
import argparse  # noqa: E402
import os  # noqa: E402
import platform  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
import traceback  # noqa: E402
from datetime import UTC, datetime  # noqa: E402

from ludolab.research.puzzles.knights.board import tour_problems  # noqa: E402
from ludolab.research.puzzles.knights.minizinc import SEARCHES, minizinc_tour  # noqa: E402
from ludolab.research.puzzles.knights.result import TourNotFound  # noqa: E402
from ludolab.research.puzzles.knights.warnsdorff import warnsdorff_tour  # noqa: E402

TARGET = 1.0  # seconds per closed tour, every even n in 6..200


def bench_warnsdorff(max_n: int) -> bool:
    """Print one row per even n; return False if anything crashed."""
    print(
        f"\nWarnsdorff search (Python), every even n from 6 to {max_n}; CPU seconds, "
        f"'call' includes the tie ranks and the verification"
    )
    print(
        f"{'n':>4} {'squares':>7} {'nodes':>7} {'backtracks':>10} {'restarts':>8} "
        f"{'search s':>9} {'call s':>7}  vs 1 s"
    )
    calls: list[tuple[int, float]] = []
    ok = True
    for n in range(6, max_n + 1, 2):
        t0 = time.process_time()
        try:
            result = warnsdorff_tour(n)
        except TourNotFound as exc:
            cpu = time.process_time() - t0
            print(f"{n:>4} {n * n:>7} MISS: {exc}")
            calls.append((n, cpu))
            continue
        except Exception:  # a crash, e.g. an invalid tour caught by the verifier
            traceback.print_exc()
            ok = False
            continue
        cpu = time.process_time() - t0
        if tour_problems(n, result.tour):
            print(f"{n:>4} INVALID TOUR")
            ok = False
            continue
        s = result.stats
        calls.append((n, cpu))
        print(
            f"{n:>4} {n * n:>7} {s.nodes:>7} {s.backtracks:>10} {s.restarts:>8} "
            f"{s.time:>9.3f} {cpu:>7.3f}  {cpu / TARGET:5.2f}x"
        )
    if calls:
        worst_n, worst = max(calls, key=lambda x: x[1])
        total = sum(c for _, c in calls)
        over = [n for n, c in calls if c >= TARGET]
        verdict = "OK" if not over else f"MISS (n = {over})"
        print(
            f"max {worst:.3f} s (n = {worst_n}, {worst / TARGET:.2f} of the 1 s target), "
            f"total {total:.2f} s for {len(calls)} boards, mean {total / len(calls):.3f} s; "
            f"every n under 1 s: {verdict}"
        )
    return ok


def bench_minizinc(sizes: list[int], time_limit: float) -> bool:
    """Print one row per n and search annotation; return False if anything crashed."""
    print(
        f"\nMiniZinc circuit model (Gecode), time limit {time_limit:g} s of search; "
        f"'wall s' includes MiniZinc's process start and flattening"
    )
    print(f"{'n':>4} {'search':<12} {'nodes':>7} {'failures':>8} {'solve s':>8} {'wall s':>7}")
    ok = True
    for n in sizes:
        for search in SEARCHES:
            t0 = time.perf_counter()
            try:
                result = minizinc_tour(n, time_limit=time_limit, search=search)
            except TourNotFound:
                wall = time.perf_counter() - t0
                print(f"{n:>4} {search:<12} none within {time_limit:g} s (wall {wall:.1f} s)")
                continue
            except Exception:
                traceback.print_exc()
                ok = False
                continue
            wall = time.perf_counter() - t0
            s = result.stats
            print(f"{n:>4} {search:<12} {s.nodes:>7} {s.failures:>8} {s.time:>8.3f} {wall:>7.2f}")
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--max-n", type=int, default=200, help="largest even n (default 200)")
    parser.add_argument(
        "--mzn-sizes",
        default="6,8,10,20,30,50",
        help="comma-separated n for MiniZinc, or 'none' (default 6,8,10,20,30,50)",
    )
    parser.add_argument(
        "--mzn-time-limit", type=float, default=30.0, help="seconds of Gecode search per run"
    )
    args = parser.parse_args()
    sizes = [] if args.mzn_sizes == "none" else [int(x) for x in args.mzn_sizes.split(",")]
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(
        f"Closed knight's tours, {datetime.now(UTC):%Y-%m-%d %H:%M} UTC; {os.cpu_count()} CPUs, "
        f"load average {load}; pinned to CPU {PINNED_CPU}; Python {platform.python_version()}"
    )
    ok = bench_warnsdorff(args.max_n)
    if sizes:
        ok = bench_minizinc(sizes, args.mzn_time_limit) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
