"""Generating Loopy puzzles: a random loop, every cell's number, then numbers taken away while
the loop stays the only one.

1. A loop: the boundary of a random region of cells grown from one cell, a side-by-side cell
   at a time, keeping the cells outside it connected to the grid's edge (no holes) and never
   letting two of its cells meet only at a corner (the boundary would touch itself); it stops
   at a size drawn between 30% and 60% of the grid. Such a region's boundary is one loop.
2. Clues: every cell's count of loop sides; then, in a random order, each number is taken away
   when the SAT counter still finds one loop only (counting to two). Removal stops early at a
   random share (35-90%) of numbers kept, which spreads the levels: more numbers, easier.
3. Kept when the deductions (:mod:`.deduce`) finish the puzzle.

Every random choice comes from the ``random.Random`` passed in.
"""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import dataclass

from ludolab.research.puzzles.loopy.deduce import Deduction, deduce
from ludolab.research.puzzles.loopy.rules import Edge, sides
from ludolab.research.puzzles.loopy.solve import solutions

SIZES = range(4, 11)
Clues = tuple[tuple[int | None, ...], ...]


@dataclass(frozen=True)
class LoopyPuzzle:
    size: int
    clues: Clues
    loop: frozenset[Edge]
    deduction: Deduction

    @property
    def id(self) -> str:
        key = json.dumps([self.size, self.clues])
        return f"loopy-{self.size}-{hashlib.sha1(key.encode()).hexdigest()[:10]}"


def _outside_connected(region: set[tuple[int, int]], n: int) -> bool:
    outside = [(r, c) for r in range(n) for c in range(n) if (r, c) not in region]
    if not outside:
        return False
    border = [(r, c) for r, c in outside if r in (0, n - 1) or c in (0, n - 1)]
    seen, stack = set(border), list(border)
    while stack:
        r, c = stack.pop()
        for nb in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if 0 <= nb[0] < n and 0 <= nb[1] < n and nb not in region and nb not in seen:
                seen.add(nb)
                stack.append(nb)
    return len(seen) == len(outside)


def _pinched(region: set[tuple[int, int]], cell: tuple[int, int]) -> bool:
    """Whether some corner of ``cell`` has region cells only on one diagonal."""
    r, c = cell
    for dr in (-1, 1):
        for dc in (-1, 1):
            diag, side1, side2 = (r + dr, c + dc), (r + dr, c), (r, c + dc)
            if diag in region and side1 not in region and side2 not in region:
                return True
    return False


def random_region(n: int, rng: random.Random) -> set[tuple[int, int]]:
    """A region of cells whose boundary is one loop (module docstring, step 1)."""
    region = {(rng.randrange(n), rng.randrange(n))}
    target = round(rng.uniform(0.3, 0.6) * n * n)
    stuck = 0
    while len(region) < target and stuck < 200:
        r, c = rng.choice(sorted(region))
        cell = rng.choice(((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)))
        if (not (0 <= cell[0] < n and 0 <= cell[1] < n) or cell in region
                or _pinched(region, cell) or not _outside_connected(region | {cell}, n)):
            stuck += 1
            continue
        region.add(cell)
        stuck = 0
    return region


def boundary(region: set[tuple[int, int]]) -> frozenset[Edge]:
    """The edges between the region and the rest."""
    out: set[Edge] = set()
    for r, c in region:
        top, bottom, left, right = sides(r, c)
        for edge, nb in ((top, (r - 1, c)), (bottom, (r + 1, c)), (left, (r, c - 1)),
                         (right, (r, c + 1))):
            if nb not in region:
                out.add(edge)
    return frozenset(out)


def generate_one(n: int, rng: random.Random) -> LoopyPuzzle | None:
    """One candidate of side ``n``; None when the deductions cannot finish it."""
    if n not in SIZES:
        raise ValueError(f"the Loopy generator makes {SIZES.start}..{SIZES.stop - 1} grids, "
                         f"not {n}")
    loop = boundary(random_region(n, rng))
    clues: list[list[int | None]] = [
        [sum(e in loop for e in sides(r, c)) for c in range(n)] for r in range(n)
    ]
    keep = round(rng.uniform(0.35, 0.9) * n * n)
    cells = [(r, c) for r in range(n) for c in range(n)]
    rng.shuffle(cells)
    given = n * n
    for r, c in cells:
        if given <= keep:
            break
        k, clues[r][c] = clues[r][c], None
        if len(solutions(n, n, clues, limit=2)) > 1:
            clues[r][c] = k
        else:
            given -= 1
    result = deduce(n, n, clues)
    if not result.solved:
        return None
    assert result.loop == loop
    return LoopyPuzzle(n, tuple(map(tuple, clues)), loop, result)


__all__ = ["SIZES", "LoopyPuzzle", "boundary", "generate_one", "random_region"]
