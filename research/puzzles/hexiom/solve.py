"""One interface over the two backends: `solve_level(level, backend="sat" | "minizinc", ...)`.

Both backends return boards (per cell, None or the tile number, reading order). With
symmetry breaking they return one board per orbit (the same representative: the
lexicographically smallest image); the result then also gives the full count, by the
orbit-stabiliser theorem (an orbit has |G| / |stabiliser| boards). Without symmetry breaking
it gives the orbit count by applying the group to every board. Verification is not done
here: it is `verify.verify`, kept apart from both encodings on purpose.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Literal

from ludolab.research.puzzles import PuzzleError
from ludolab.research.puzzles.hexiom.geometry import Symmetry
from ludolab.research.puzzles.hexiom.level import Board, Level
from ludolab.research.puzzles.hexiom.minizinc import solve_minizinc
from ludolab.research.puzzles.hexiom.sat import DEFAULT_SOLVER, solve_sat
from ludolab.research.puzzles.hexiom.symmetry import allowed_symmetries, orbits

Backend = Literal["sat", "minizinc"]
BACKENDS: tuple[Backend, ...] = ("sat", "minizinc")


@dataclass(frozen=True)
class HexiomResult:
    """The outcome of one solve of one level.

    `boards`: the solutions found (the first one, or all of them when counting; one per orbit
    with `break_symmetry`). `complete`: the search proved there are no others (so an empty
    `boards` with `complete` means the level has no solution). `timed_out`: the time limit
    stopped the search. `symmetries`: the symmetries the level allows (identity included).
    `stats`: the backend's search counters (SAT: conflicts, decisions, propagations,
    restarts, variables, clauses; Gecode: nodes, failures, propagations, peak depth...).
    `seconds`: wall time of the whole call, encoding (or MiniZinc's flattening) included.
    """

    level: Level
    backend: Backend
    all_solutions: bool
    break_symmetry: bool
    boards: tuple[Board, ...]
    complete: bool
    timed_out: bool
    symmetries: tuple[Symmetry, ...]
    stats: dict[str, int | float]
    seconds: float

    @property
    def solution(self) -> Board | None:
        """The first board found, None if there is none."""
        return self.boards[0] if self.boards else None

    @property
    def n_orbits(self) -> int:
        """Boards found, counted up to the level's symmetries."""
        if self.break_symmetry:
            return len(self.boards)
        return len(orbits(self.boards, self.symmetries))

    @property
    def n_solutions(self) -> int:
        """Boards found, counted as boards (each orbit with all its members)."""
        if not self.break_symmetry:
            return len(self.boards)
        group = len(self.symmetries)
        return sum(group // _stabiliser(b, self.symmetries) for b in self.boards)


def _stabiliser(board: Board, symmetries: tuple[Symmetry, ...]) -> int:
    """How many of `symmetries` leave `board` unchanged (at least 1, the identity)."""
    return sum(sym.apply(board) == board for sym in symmetries)


def solve_level(
    level: Level,
    *,
    backend: Backend = "sat",
    all_solutions: bool = False,
    break_symmetry: bool = False,
    time_limit: float | None = None,
    max_solutions: int | None = None,
    sat_solver: str = DEFAULT_SOLVER,
) -> HexiomResult:
    """Solve `level`: the first solution, or all of them (`all_solutions`).

    `break_symmetry` adds lex-leader constraints for every symmetry the level allows.
    `time_limit` in seconds: MiniZinc stops Gecode's search; SAT checks it between solutions
    while counting. `max_solutions` caps a SAT count (MiniZinc counts always run to the end
    or the time limit). `sat_solver`: a python-sat solver name (see `sat.SAT_SOLVERS`).
    Raises `PuzzleError` for an unknown backend or solver, or a non-positive limit.
    """
    if backend not in BACKENDS:
        raise PuzzleError(f"unknown backend {backend!r}; choose one of {', '.join(BACKENDS)}")
    if time_limit is not None and time_limit <= 0:
        raise PuzzleError(f"time limit must be positive seconds, got {time_limit}")
    if max_solutions is not None and max_solutions < 1:
        raise PuzzleError(f"max solutions must be at least 1, got {max_solutions}")
    symmetries = allowed_symmetries(level)
    t0 = time.perf_counter()
    stats: dict[str, int | float]
    if backend == "sat":
        run = solve_sat(
            level,
            all_solutions=all_solutions,
            break_symmetry=break_symmetry,
            solver=sat_solver,
            max_solutions=max_solutions,
            time_limit=time_limit,
        )
        boards, complete, timed_out = run.boards, run.complete, run.timed_out
        stats = {**run.counters, "encode_s": run.build_seconds, "search_s": run.solve_seconds}
    else:
        mzn = solve_minizinc(
            level,
            all_solutions=all_solutions,
            break_symmetry=break_symmetry,
            time_limit=time_limit,
        )
        boards, complete, timed_out = mzn.boards, mzn.complete, mzn.timed_out
        stats = {}
        if mzn.stats is not None:
            s = mzn.stats
            stats = {
                "nodes": s.nodes,
                "failures": s.failures,
                "propagations": s.propagations,
                "peak_depth": s.peak_depth,
                "restarts": s.restarts,
                "search_s": s.solve_time,
            }
    return HexiomResult(
        level=level,
        backend=backend,
        all_solutions=all_solutions,
        break_symmetry=break_symmetry,
        boards=boards,
        complete=complete,
        timed_out=timed_out,
        symmetries=symmetries,
        stats=stats,
        seconds=time.perf_counter() - t0,
    )
