"""Hexiom with MiniZinc and Gecode: models/hexiom.mzn, data from the level, via
ludolab.research.solve.

The model's lex-leader constraints use the same cell and value order as the SAT encoding,
so both backends return the same representative per orbit when breaking symmetry.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ludolab.research.puzzles.hexiom.geometry import hex_grid
from ludolab.research.puzzles.hexiom.level import Board, Level
from ludolab.research.puzzles.hexiom.symmetry import allowed_symmetries
from ludolab.research.solve import SolverStats, Status, UnknownResult, Unsatisfiable, solve

MODEL = Path(__file__).parent / "models" / "hexiom.mzn"


def model_data(
    level: Level, *, break_symmetry: bool = False, restarts: bool = True
) -> dict[str, Any]:
    """The model's data for `level`: 1-based neighbour table, counts, locked cells, symmetries."""
    grid = hex_grid(level.side)
    nbr = [[m + 1 for m in ns] + [0] * (6 - len(ns)) for ns in grid.neighbours]
    fixed = [
        (-1 if t is None else t) if lock else -2
        for t, lock in zip(level.tiles, level.locked, strict=True)
    ]
    syms = [s for s in allowed_symmetries(level) if not s.is_identity] if break_symmetry else []
    return {
        "n_cells": level.n_cells,
        "nbr": nbr,
        "deg": [len(ns) for ns in grid.neighbours],
        "counts": list(level.counts),
        "fixed": fixed,
        "n_syms": len(syms),
        "sym_flat": [p + 1 for s in syms for p in s.perm],
        "restarts": restarts,
    }


@dataclass(frozen=True)
class MiniZincRun:
    """What a MiniZinc run found: boards (1, or all), whether the search was complete, the
    time limit's verdict and Gecode's statistics (None if there were none)."""

    boards: tuple[Board, ...]
    complete: bool
    timed_out: bool
    stats: SolverStats | None


def solve_minizinc(
    level: Level,
    *,
    all_solutions: bool = False,
    break_symmetry: bool = False,
    time_limit: float | None = None,
) -> MiniZincRun:
    """Solve `level` with Gecode: the first board, or all of them.

    `time_limit` (seconds of search) may stop the run: then `timed_out` is True and `boards`
    holds whatever was found. A level without solutions gives no boards and `complete`.
    """
    label = f"{level.name}{', symmetry broken' if break_symmetry else ''}"
    try:
        result = solve(
            MODEL,
            model_data(level, break_symmetry=break_symmetry, restarts=not all_solutions),
            all_solutions=all_solutions,
            time_limit=time_limit,
            label=label,
        )
    except Unsatisfiable:
        return MiniZincRun((), True, False, None)
    except UnknownResult:
        return MiniZincRun((), False, True, None)
    boards = tuple(tuple(None if v < 0 else int(v) for v in sol["x"]) for sol in result.solutions)
    complete = result.status is Status.ALL_SOLUTIONS
    return MiniZincRun(boards, complete, result.time_limit_hit, result.stats)
