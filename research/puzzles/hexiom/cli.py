"""Solve Hexiom levels with a SAT solver (python-sat) or MiniZinc/Gecode, verify the solutions
independently, and count them (as boards and up to the symmetries the level allows).

    ludolab puzzle hexiom --level 38
    ludolab puzzle hexiom --level 12 --all-solutions --break-symmetry
    ludolab puzzle hexiom --level all --backend minizinc --time-limit 10
    ludolab puzzle hexiom --file my-level.txt
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

from ludolab.research.cli_types import add_quiet_option
from ludolab.research.puzzles import PuzzleError
from ludolab.research.puzzles.hexiom.level import (
    N_LEVELS,
    Level,
    format_board,
    format_level,
    load_level,
    read_level_file,
)
from ludolab.research.puzzles.hexiom.sat import DEFAULT_SOLVER, SAT_SOLVERS
from ludolab.research.puzzles.hexiom.solve import BACKENDS, HexiomResult, solve_level
from ludolab.research.puzzles.hexiom.verify import verify

# Counters shown on the statistics line, in this order, when the backend reports them.
_COUNTERS = (
    "conflicts",
    "decisions",
    "nodes",
    "failures",
    "propagations",
    "restarts",
    "peak_depth",
    "variables",
    "clauses",
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``ludolab puzzle hexiom``."""
    parser.formatter_class = argparse.RawDescriptionHelpFormatter  # keep the examples' lines
    parser.add_argument(
        "--level", metavar="N", help=f"a shipped level, 0..{N_LEVELS - 1}, or 'all' for a table"
    )
    parser.add_argument("--file", metavar="PATH", help="solve a level file instead")
    parser.add_argument(
        "--backend", default="sat", metavar="NAME", help="sat (default) or minizinc (Gecode)"
    )
    parser.add_argument(
        "--all-solutions",
        action="store_true",
        help="count every solution (and the solutions up to symmetry)",
    )
    parser.add_argument(
        "--break-symmetry",
        action="store_true",
        help="add lex-leader constraints for the rotations/reflections the level allows",
    )
    parser.add_argument(
        "--time-limit",
        type=float,
        metavar="SECONDS",
        help="per level; MiniZinc: search time, SAT: checked between solutions when counting",
    )
    parser.add_argument(
        "--max-solutions", type=int, metavar="N", help="stop a SAT count after N solutions"
    )
    add_quiet_option(parser)
    parser.add_argument(
        "--sat-solver",
        default=DEFAULT_SOLVER,
        metavar="NAME",
        help=f"python-sat solver: {', '.join(SAT_SOLVERS)} (default {DEFAULT_SOLVER})",
    )


def run(args: argparse.Namespace) -> int:
    """Solve as asked and print; 0 when every level was solved and verified, else 1."""
    if args.backend not in BACKENDS:
        raise PuzzleError(f"--backend {args.backend!r}: choose one of {', '.join(BACKENDS)}")
    if args.sat_solver not in SAT_SOLVERS:
        raise PuzzleError(
            f"--sat-solver {args.sat_solver!r}: choose one of {', '.join(SAT_SOLVERS)}"
        )
    if args.time_limit is not None and args.time_limit <= 0:
        raise PuzzleError(f"--time-limit {args.time_limit:g}: give a positive number of seconds")
    if args.max_solutions is not None and args.max_solutions < 1:
        raise PuzzleError(f"--max-solutions {args.max_solutions}: give a number >= 1")
    if args.max_solutions is not None and not args.all_solutions:
        raise PuzzleError("--max-solutions caps a count: use it with --all-solutions")

    def solve(level: Level) -> HexiomResult:
        return solve_level(
            level,
            backend=args.backend,
            all_solutions=args.all_solutions,
            break_symmetry=args.break_symmetry,
            time_limit=args.time_limit,
            max_solutions=args.max_solutions,
            sat_solver=args.sat_solver,
        )

    if args.file is not None and args.level is not None:
        raise PuzzleError("give --level or --file, not both")
    if args.file is not None:
        return _run_one(read_level_file(args.file), solve, args)
    if args.level is None:
        raise PuzzleError(f"give --level N (0..{N_LEVELS - 1} or 'all') or --file PATH")
    if args.level.strip().lower() == "all":
        return _run_all(solve, args)
    try:
        number = int(args.level)
    except ValueError:
        raise PuzzleError(
            f"--level {args.level!r}: expected a level number 0..{N_LEVELS - 1} or 'all'"
        ) from None
    return _run_one(load_level(number), solve, args)


def _describe_backend(args: argparse.Namespace) -> str:
    name = f"SAT ({args.sat_solver})" if args.backend == "sat" else "MiniZinc (Gecode)"
    return f"{name}, symmetry breaking {'on' if args.break_symmetry else 'off'}"


def _verified(result: HexiomResult) -> tuple[bool, str]:
    """(all boards pass, a one-line verdict)."""
    for board in result.boards:
        report = verify(result.level, board)
        if not report.ok:
            return False, "FAILED: " + "; ".join(report.problems)
    n = len(result.boards)
    what = "the solution passes" if n == 1 else f"all {n} boards found pass"
    return True, (
        f"{what} (every tile has as many occupied neighbours as its number; the level's "
        f"tiles and locked cells are respected)"
    )


def _count_line(result: HexiomResult) -> str:
    group = len(result.symmetries)
    if result.complete:
        status = "search complete"
    elif result.timed_out:
        status = "time limit reached, at least this many"
    else:
        status = "count capped, at least this many"
    return (
        f"solutions: {result.n_solutions} ({result.n_orbits} up to the level's {group} "
        f"symmetr{'y' if group == 1 else 'ies'}), {status}"
    )


def _stats_line(result: HexiomResult) -> str:
    stats = result.stats
    parts = [f"{stats[k]} {k.replace('_', ' ')}" for k in _COUNTERS if k in stats]
    timing = f"{result.seconds:.3f} s in all"
    if "search_s" in stats:
        timing += f", {stats['search_s']:.3f} s in the solver"
    return f"search: {timing}" + ("; " + ", ".join(parts) if parts else "")


def _run_one(level: Level, solve: Callable[[Level], HexiomResult], args: argparse.Namespace) -> int:
    from ludolab.research.progress import Status

    with Status(f"solving Hexiom {level.name}", quiet=args.quiet):
        result = solve(level)
    counts = " ".join(f"{n}:{c}" for n, c in enumerate(level.counts) if c)
    tiles = f"{level.n_tiles} tiles" + (f" (number:count {counts})" if counts else "")
    print(
        f"Hexiom {level.name}: side {level.side}, {level.n_cells} cells, {tiles}, "
        f"{sum(level.locked)} locked cells, {len(result.symmetries)} symmetries allowed"
    )
    print(f"backend: {_describe_backend(args)}")
    print("=== Initial input: ===")
    print(format_level(level), end="")
    if result.solution is None:
        if result.complete:
            print("*** No solution: the search proved the level unsolvable ***")
        else:
            print("*** No solution found before the time limit ***")
        print(_stats_line(result))
        return 1
    print("=== Solution ===")
    print()
    print(format_board(level.side, result.solution))
    print()
    ok, verdict = _verified(result)
    print(f"verified: {verdict}")
    if args.all_solutions:
        print(_count_line(result))
    print(_stats_line(result))
    return 0 if ok else 1


def _run_all(solve: Callable[[Level], HexiomResult], args: argparse.Namespace) -> int:
    print(f"Hexiom, all {N_LEVELS} levels; backend: {_describe_backend(args)}")
    head = (
        f"{'level':>5}  {'side':>4}  {'cells':>5}  {'tiles':>5}  {'syms':>4}  "
        f"{'solutions':>10}  {'orbits':>8}  {'time (s)':>9}  verified"
    )
    print(head)
    good = 0
    total = 0.0
    for number in range(N_LEVELS):
        level = load_level(number)
        result = solve(level)
        total += result.seconds
        if result.solution is None:
            verdict = "no solution" if result.complete else "not solved (time limit)"
            ok = False
        else:
            ok, text = _verified(result)
            verdict = "yes" if ok else text
        if args.all_solutions and result.boards:
            more = "" if result.complete else ">="
            sols, orbs = f"{more}{result.n_solutions}", f"{more}{result.n_orbits}"
        else:
            sols = orbs = "-"
        good += ok
        print(
            f"{number:>5}  {level.side:>4}  {level.n_cells:>5}  {level.n_tiles:>5}  "
            f"{len(result.symmetries):>4}  {sols:>10}  {orbs:>8}  {result.seconds:>9.3f}  "
            f"{verdict}",
            flush=True,
        )
    print(f"{good}/{N_LEVELS} levels solved and verified in {total:.2f} s")
    return 0 if good == N_LEVELS else 1
