"""Closed knight's tours from the MiniZinc successor model, solved by Gecode.

The model (``models/knights_circuit.mzn``) is the seed's: one successor variable per square
whose domain is the knight moves from that square, ``circuit`` (domain propagation) over the
successors, and the first move out of the corner fixed. The seed's Warnsdorff brancher cannot
be written as a MiniZinc annotation; ``first_fail`` (branch on the square with the fewest
possible successors) is the nearest standard one, ``input_order`` the plain one.
"""

from __future__ import annotations

from pathlib import Path

from ludolab.research.puzzles import PuzzleError
from ludolab.research.puzzles.knights.board import (
    check_closed_tour_size,
    check_square,
    successors_to_tour,
    tour_problems,
)
from ludolab.research.puzzles.knights.result import SearchStats, TourNotFound, TourResult
from ludolab.research.solve import UnknownResult, solve

MODEL = Path(__file__).parent / "models" / "knights_circuit.mzn"

# Annotation name -> the model's `search` parameter.
SEARCHES = {"first_fail": 1, "input_order": 2}


def minizinc_tour(
    n: int,
    *,
    start: int = 0,
    time_limit: float | None = None,
    search: str = "first_fail",
    fix_first_move: bool = True,
) -> TourResult:
    """Find a closed knight's tour of the n x n board with the MiniZinc circuit model.

    Args:
        n: board side; closed tours exist for even n >= 6 (else `PuzzleError`).
        start: the square the returned tour begins with (the cycle is read from it).
        time_limit: seconds of Gecode search (flattening not included).
        search: ``"first_fail"`` or ``"input_order"`` (both with ``indomain_min``).
        fix_first_move: fix the corner's successor as the seed does (breaks the direction
            symmetry only: the corner's two neighbours are in every closed tour).

    Raises `TourNotFound` when the time limit runs out first, `ludolab.research.solve.SolveError`
    subclasses for toolchain and model problems. The tour is verified before it is returned.
    """
    check_closed_tour_size(n)
    check_square(n, start)
    if search not in SEARCHES:
        raise PuzzleError(f"unknown MiniZinc search {search!r}: expected one of {list(SEARCHES)}")
    data = {"n": n, "search": SEARCHES[search], "fix_first": int(fix_first_move)}
    try:
        result = solve(MODEL, data, time_limit=time_limit, label=f"knight's tour {n} x {n}")
    except UnknownResult as exc:
        raise TourNotFound(
            f"no closed tour found on the {n} x {n} board by MiniZinc/Gecode: the time limit "
            f"of {time_limit:g} s ran out first. Raise --time-limit, or use --method warnsdorff"
        ) from exc
    tour = successors_to_tour(result.solution["succ"], start)
    problems = tour_problems(n, tour)
    if problems:  # the model is wrong, not the user's input
        raise AssertionError(f"the MiniZinc model returned an invalid tour: {problems}")
    raw = result.stats
    detail = f"int_search(succ, {search}, indomain_min); circuit :: domain" + (
        "; first move fixed" if fix_first_move else ""
    )
    stats = SearchStats(
        "minizinc",
        nodes=raw.nodes if raw else 0,
        time=raw.solve_time if raw else 0.0,
        failures=raw.failures if raw else 0,
        detail=detail,
    )
    return TourResult(n=n, tour=tour, stats=stats)
