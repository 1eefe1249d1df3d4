"""Masters Gallery exhibits: best found, proven bound and gap, per player count and rules,
pinned to one core.

The issue's targets: 2 players under the open model's assumptions (no extra card, awards on
any artist, one draw-one, double and award card per artist), 418 found and proven optimal
within 5 minutes on one core; 2 players under the default rules (the engine's: the published
rules, with the symbols table of ``ludolab.envs.gallery.cards``), proven or the gap printed;
3-5 players, best found and bound for each. Every
answer is replayed card by card in the rules engine (a failed replay is the only thing that
makes the exit code 1; the script never fails on time). Beside the MIP (HiGHS, after a few
seconds of Gecode's LNS for a first answer), the MiniZinc model's large neighbourhood search
alone for a minute (the CLI's default), which finds exhibits but no bound (``--no-gecode``
skips it).

    .venv/bin/python benchmarks/exhibits_bounds.py                      # 2-5 players, 300 s each
    .venv/bin/python benchmarks/exhibits_bounds.py --players 2 --time-limit 120
"""

from __future__ import annotations

# isort: off
from one_core import PINNED_CPU  # before numpy

# isort: on
import argparse  # noqa: E402
import os  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402

from ludolab.research.gallery.exhibits import (  # noqa: E402
    ExhibitRules,
    solve_exhibits,
    to_play_sequence,
)
from ludolab.research.gallery.replay import replay_in_engine  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4, 5])
    parser.add_argument("--time-limit", type=float, default=300.0, help="seconds per question")
    parser.add_argument("--no-gecode", action="store_true", help="skip the MiniZinc LNS rows")
    parser.add_argument(
        "--gecode-time-limit", type=float, default=60.0, help="seconds per LNS row (default 60)"
    )
    args = parser.parse_args()
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(
        f"exhibits benchmark: pinned to CPU {PINNED_CPU}, load average {load}, time limit "
        f"{args.time_limit:g} s per question, objective max-score (player 1's highest score)"
    )
    print(
        f"{'players':>7} {'rules':<10} {'solver':<11} {'best':>5} {'bound':>6} {'gap':>5} "
        f"{'proven':>7} {'seconds':>8} {'replay':>7}"
    )
    failed = 0
    for players in args.players:
        for name, rules in (
            ("open", ExhibitRules.open_model(players)),
            ("default", ExhibitRules(players)),
        ):
            solvers = [("mip", "mip")] + ([] if args.no_gecode else [("gecode-lns", "gecode")])
            for label, solver in solvers:
                start = time.perf_counter()
                limit = args.time_limit if solver == "mip" else args.gecode_time_limit
                solution = solve_exhibits(
                    players, rules=rules, time_limit=limit, solver=solver, random_seed=1
                )
                seconds = time.perf_counter() - start
                replay = replay_in_engine(to_play_sequence(solution))
                failed += not replay.ok
                bound = "-" if solution.bound is None else f"{solution.bound}"
                gap = "-" if solution.gap is None else f"{solution.gap}"
                print(
                    f"{players:>7} {name:<10} {label:<11} {solution.objective_value:>5} "
                    f"{bound:>6} {gap:>5} {'yes' if solution.optimal else 'no':>7} "
                    f"{seconds:>8.1f} {'ok' if replay.ok else 'FAILED':>7}",
                    flush=True,
                )
    if failed:
        print(f"{failed} answers did not replay in the engine", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
