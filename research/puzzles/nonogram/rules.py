"""The rules of Nonogram, checked directly (independent of the solver and the deductions).

Rules as CSPLib's problem 012 states them (csplib.org/Problems/prob012): shade cells of a grid
so that the blocks of consecutive shaded cells of every row and column are, in order, the
lengths its clue lists (a blank between blocks; an empty clue, a line with none).

A puzzle is ``rows`` (a clue per row, top to bottom) and ``cols`` (a clue per column, left to
right), each clue a list of block lengths. A solution is ``grid``: rows of 0 (blank) and 1
(shaded).
"""

from __future__ import annotations

from collections.abc import Sequence

Clue = Sequence[int]


def runs(line: Sequence[int]) -> list[int]:
    """The lengths of the blocks of 1s in ``line``, in order."""
    out: list[int] = []
    count = 0
    for v in line:
        if v:
            count += 1
        elif count:
            out.append(count)
            count = 0
    if count:
        out.append(count)
    return out


def clue_problems(rows: Sequence[Clue], cols: Sequence[Clue]) -> list[str]:
    """What is wrong with a pair of clue lists (empty when they make a puzzle grid)."""
    problems = []
    for name, clues, length in (("row", rows, len(cols)), ("column", cols, len(rows))):
        for i, clue in enumerate(clues):
            if not isinstance(clue, list) or not all(
                isinstance(k, int) and not isinstance(k, bool) and k > 0 for k in clue
            ):
                problems.append(f"{name} {i}: a clue is a list of block lengths >= 1")
            elif sum(clue) + len(clue) - 1 > length:
                problems.append(f"{name} {i}: blocks {clue} do not fit in {length} cells")
    if not rows or not cols:
        problems.append("a puzzle needs at least one row and one column")
    return problems


def solution_problems(rows: Sequence[Clue], cols: Sequence[Clue], grid: Sequence[Sequence[int]]
                      ) -> list[str]:
    """Every way ``grid`` breaks the puzzle (empty when it solves it)."""
    if len(grid) != len(rows) or any(len(row) != len(cols) for row in grid):
        return [f"the grid must be {len(rows)} rows of {len(cols)} cells"]
    if any(v not in (0, 1) for row in grid for v in row):
        return ["cells are 0 (blank) or 1 (shaded)"]
    problems = []
    for r, clue in enumerate(rows):
        if runs(grid[r]) != list(clue):
            problems.append(f"row {r} has blocks {runs(grid[r])}, its clue says {list(clue)}")
    for c, clue in enumerate(cols):
        column = [row[c] for row in grid]
        if runs(column) != list(clue):
            problems.append(f"column {c} has blocks {runs(column)}, its clue says {list(clue)}")
    return problems


__all__ = ["Clue", "clue_problems", "runs", "solution_problems"]
