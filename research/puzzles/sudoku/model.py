"""The MiniZinc face of the Sudoku model (``sudoku.mzn``): Gecode's count of solutions.

Box dimensions are data, so one model serves every size, as in the seed. Used to hold the
pure-Python solver's uniqueness verdicts against an independent solver (tests); one MiniZinc
call costs a few tenths of a second, so generation itself never calls it.
"""

from __future__ import annotations

from pathlib import Path

from ludolab.research.puzzles.sudoku.grid import BOXES, Grid, check_size
from ludolab.research.solve.run import solve

MODEL = Path(__file__).with_name("sudoku.mzn")


def count_solutions_minizinc(grid: Grid, n: int, limit: int = 2) -> tuple[int, list[Grid]]:
    """Solutions of a puzzle found by Gecode, up to ``limit``: (count, the grids)."""
    check_size(n)
    br, bc = BOXES[n]
    clues = [list(grid[r * n : (r + 1) * n]) for r in range(n)]
    result = solve(
        MODEL, {"br": br, "bc": bc, "clues": clues}, n_solutions=limit, label=f"{n}x{n} Sudoku"
    )
    grids = [tuple(v for row in s["x"] for v in row) for s in result.solutions]
    return len(grids), grids
