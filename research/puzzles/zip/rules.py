"""The rules of Zip, checked directly (independent of the solver and the deductions).

Rules as LinkedIn's Zip states them (linkedin.com/games/zip; described by askdavetaylor.com and
by rodrigo-cl-porto.github.io's "Solving LinkedIn Zip by Linear Optimization"): draw one path
that passes through every cell of the grid once, moving between cells side by side, starting
on the cell numbered 1, passing the numbered cells in ascending order and ending on the highest
number; a wall between two cells cannot be crossed.

A puzzle: ``size`` (an n x n grid), ``numbers`` (the cells numbered 1, 2, ..., K, in that
order, each [r, c]) and ``walls`` (pairs of side-by-side cells with a wall between). A
solution: ``path``, the cells in the order the path visits them.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

Cell = tuple[int, int]


def wall_set(walls: Sequence[Sequence[Sequence[int]]]) -> set[frozenset[Cell]]:
    return {frozenset((tuple(a), tuple(b))) for a, b in walls}


def puzzle_problems(n: int, numbers: Sequence[Sequence[int]],
                    walls: Sequence[Sequence[Sequence[int]]]) -> list[str]:
    """What is wrong with a puzzle's clues (empty when they make a puzzle)."""
    problems = []
    cells = [tuple(c) for c in numbers]
    if len(cells) < 2:
        problems.append("a Zip puzzle needs at least the numbers 1 and 2")
    if any(not (0 <= r < n and 0 <= c < n) for r, c in cells):
        problems.append(f"a number lies outside the {n} x {n} grid")
    if len(set(cells)) != len(cells):
        problems.append("two numbers on one cell")
    for a, b in walls:
        (r1, c1), (r2, c2) = a, b
        if abs(r1 - r2) + abs(c1 - c2) != 1 or not all(0 <= k < n for k in (r1, c1, r2, c2)):
            problems.append(f"wall {[list(a), list(b)]} is not between side-by-side cells")
    return problems


def solution_problems(n: int, numbers: Sequence[Sequence[int]],
                      walls: Sequence[Sequence[Sequence[int]]],
                      path: Sequence[Sequence[int]]) -> list[str]:
    """Every way ``path`` breaks the puzzle (empty when it solves it)."""
    cells = [tuple(c) for c in path]
    if sorted(cells) != [(r, c) for r in range(n) for c in range(n)]:
        return [f"the path must pass every cell of the {n} x {n} grid exactly once"]
    problems = []
    blocked = wall_set(walls)
    for a, b in pairwise(cells):
        if abs(a[0] - b[0]) + abs(a[1] - b[1]) != 1:
            problems.append(f"the path jumps from {list(a)} to {list(b)}")
        elif frozenset((a, b)) in blocked:
            problems.append(f"the path crosses the wall between {list(a)} and {list(b)}")
    order = [cells.index(tuple(c)) for c in numbers]
    if order[0] != 0 or order[-1] != len(cells) - 1:
        problems.append("the path must start on 1 and end on the highest number")
    if order != sorted(order):
        problems.append("the path passes the numbers out of order")
    return problems


__all__ = ["Cell", "puzzle_problems", "solution_problems", "wall_set"]
