"""Generating Tents puzzles: random tents, each with its tree beside it, the counts read off,
kept when the SAT counter finds one placement and the deductions finish it.

1. Pairs: up to ``round(density * rows * cols)`` times, a random free cell that touches no
   tent (diagonals included) gets a tent, and a random free cell beside it gets its tree.
2. Clues: the trees and the tents per row and column.
3. Kept when the tents are the only placement (``solve.solutions``, counting to two) and the
   deductions of ``deduce`` finish the puzzle; otherwise the caller draws another.

Every random choice comes from the ``random.Random`` passed in.
"""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import dataclass

from ludolab.research.puzzles.tents.deduce import Deduction, deduce
from ludolab.research.puzzles.tents.rules import Cell, orthogonal
from ludolab.research.puzzles.tents.solve import solutions

SIZES = range(5, 13)
DENSITY = 0.19  # pairs per cell: about what published Tents grids use (7 on 6 x 6, 12 on 8 x 8)


@dataclass(frozen=True)
class TentsPuzzle:
    size: int
    trees: tuple[Cell, ...]
    row_counts: tuple[int, ...]
    col_counts: tuple[int, ...]
    tents: tuple[Cell, ...]
    deduction: Deduction

    @property
    def id(self) -> str:
        key = json.dumps([self.size, self.trees, self.row_counts, self.col_counts])
        return f"tents-{self.size}-{hashlib.sha1(key.encode()).hexdigest()[:10]}"


def random_pairs(n: int, rng: random.Random, density: float = DENSITY) -> tuple[set, set]:
    """Tents and trees placed at random (see the module docstring)."""
    tents: set[Cell] = set()
    trees: set[Cell] = set()
    for _ in range(round(density * n * n)):
        free = [
            (r, c)
            for r in range(n)
            for c in range(n)
            if (r, c) not in trees
            and not any((r + dr, c + dc) in tents for dr in (-1, 0, 1) for dc in (-1, 0, 1))
        ]
        rng.shuffle(free)
        for cell in free:
            spots = [nb for nb in orthogonal(cell, n, n) if nb not in trees and nb not in tents]
            if spots:
                tents.add(cell)
                trees.add(rng.choice(spots))
                break
    return tents, trees


def generate_one(n: int, rng: random.Random) -> TentsPuzzle | None:
    """One candidate of side ``n``; None when it is not unique or the deductions cannot
    finish it."""
    if n not in SIZES:
        low, high = SIZES.start, SIZES.stop - 1
        raise ValueError(f"the Tents generator makes {low}..{high} grids, not {n}")
    tents, trees = random_pairs(n, rng)
    rows = tuple(sum(1 for t in tents if t[0] == r) for r in range(n))
    cols = tuple(sum(1 for t in tents if t[1] == c) for c in range(n))
    found = solutions(n, n, sorted(trees), rows, cols, limit=2)
    if len(found) != 1:
        return None
    result = deduce(n, n, sorted(trees), rows, cols)
    if not result.solved:
        return None
    assert set(result.tents or ()) == tents
    return TentsPuzzle(n, tuple(sorted(trees)), rows, cols, tuple(sorted(tents)), result)


__all__ = ["DENSITY", "SIZES", "TentsPuzzle", "generate_one", "random_pairs"]
