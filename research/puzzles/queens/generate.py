"""Generating Queens puzzles: a random solution first, regions grown around its queens, then
repaired until the solution is the only one (or the candidate is discarded).

1. A solution: a random permutation of the columns with no two queens of neighbouring rows in
   neighbouring columns (randomised backtracking).
2. Regions: each queen seeds its region; a random frontier cell joins a random neighbouring
   region until the grid is covered (so regions are connected and each holds one queen).
3. Uniqueness: the SAT counter (``solve.solutions``, to two). While a second solution exists,
   one of its queens that is not a queen of the intended solution moves to a neighbouring
   region, provided its own region stays connected: that second solution then has two queens
   in one region and fails, and the intended one is untouched. After ``max_repairs`` moves the
   candidate is discarded.
4. Difficulty: the deductions of ``deduce``; a candidate they cannot finish is discarded.

Every random choice comes from the ``random.Random`` passed in.
"""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import dataclass

from ludolab.research.puzzles.queens.deduce import Deduction, deduce
from ludolab.research.puzzles.queens.rules import region_problems
from ludolab.research.puzzles.queens.solve import solutions

SIZES = range(5, 13)  # 4 x 4 has no solution; above 12 the deductions get slow


@dataclass(frozen=True)
class QueensPuzzle:
    """A generated puzzle: regions, its one solution, the deductions' verdict."""

    regions: tuple[tuple[int, ...], ...]
    queens: tuple[int, ...]
    deduction: Deduction
    repairs: int

    @property
    def id(self) -> str:
        digest = hashlib.sha1(json.dumps(self.regions).encode()).hexdigest()[:10]
        return f"queens-{len(self.regions)}-{digest}"


def random_solution(n: int, rng: random.Random) -> list[int]:
    """Columns of n queens, one per row and column, no two of neighbouring rows touching."""
    cols: list[int] = []

    def extend() -> bool:
        if len(cols) == n:
            return True
        options = [c for c in range(n) if c not in cols and (not cols or abs(c - cols[-1]) > 1)]
        rng.shuffle(options)
        for c in options:
            cols.append(c)
            if extend():
                return True
            cols.pop()
        return False

    if not extend():
        raise ValueError(f"no {n} x {n} Queens solution exists")
    return cols


def grow_regions(queens: list[int], rng: random.Random) -> list[list[int]]:
    """Regions grown from the queens (region k holds the queen of row k) by random frontier
    steps until every cell belongs to one."""
    n = len(queens)
    regions = [[-1] * n for _ in range(n)]
    for r, c in enumerate(queens):
        regions[r][c] = r
    left = n * n - n
    while left:
        frontier = [
            (r, c, regions[rr][cc])
            for r in range(n)
            for c in range(n)
            if regions[r][c] < 0
            for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
            if 0 <= rr < n and 0 <= cc < n and regions[rr][cc] >= 0
        ]
        r, c, k = rng.choice(frontier)
        regions[r][c] = k
        left -= 1
    return regions


def _connected_without(regions: list[list[int]], cell: tuple[int, int]) -> bool:
    r0, c0 = cell
    k = regions[r0][c0]
    n = len(regions)
    members = {(r, c) for r in range(n) for c in range(n) if regions[r][c] == k} - {cell}
    if not members:
        return False
    start = next(iter(members))
    seen, todo = {start}, [start]
    while todo:
        r, c = todo.pop()
        for nb in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if nb in members and nb not in seen:
                seen.add(nb)
                todo.append(nb)
    return len(seen) == len(members)


def _repair(
    regions: list[list[int]], intended: list[int], other: list[int], rng: random.Random
) -> bool:
    """Move one of ``other``'s queens (not an intended queen) to a neighbouring region whose
    move keeps its region connected; False if no such move exists."""
    n = len(regions)
    cells = [(r, c) for r, c in enumerate(other) if intended[r] != c]
    rng.shuffle(cells)
    for r, c in cells:
        if not _connected_without(regions, (r, c)):
            continue
        targets = sorted(
            {
                regions[rr][cc]
                for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
                if 0 <= rr < n and 0 <= cc < n and regions[rr][cc] != regions[r][c]
            }
        )
        if targets:
            regions[r][c] = rng.choice(targets)
            return True
    return False


def generate_one(n: int, rng: random.Random, max_repairs: int = 40) -> QueensPuzzle | None:
    """One candidate puzzle of side ``n``; None when it cannot be made unique or the
    deductions cannot finish it (the caller draws another)."""
    if n not in SIZES:
        low, high = SIZES.start, SIZES.stop - 1
        raise ValueError(f"the Queens generator makes {low}..{high} grids, not {n}")
    queens = random_solution(n, rng)
    regions = grow_regions(queens, rng)
    for repairs in range(max_repairs + 1):
        found = solutions(regions, limit=2)
        if len(found) == 1:
            break
        other = next(s for s in found if s != queens)
        if repairs == max_repairs or not _repair(regions, queens, other, rng):
            return None
    assert not region_problems(regions)
    result = deduce(regions)
    if not result.solved:
        return None
    assert list(result.queens or ()) == queens
    return QueensPuzzle(
        regions=tuple(tuple(row) for row in regions),
        queens=tuple(queens),
        deduction=result,
        repairs=repairs,
    )


__all__ = ["SIZES", "QueensPuzzle", "generate_one", "grow_regions", "random_solution"]
