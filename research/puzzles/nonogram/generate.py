"""Generating Nonogram puzzles from glyph images, repaired until the deductions finish them.

1. An image: a random glyph (:mod:`.images`), rasterised at the size asked with a random
   threshold (0.35-0.6) and margin (0-0.1); kept when 20-75% of its cells are shaded.
2. Clues: the blocks of every row and column.
3. Repair: while the deductions (:mod:`.deduce`) stall, one cell they left unknown, drawn at
   random, is flipped in the image and the clues read again; after ``MAX_REPAIRS`` flips the
   candidate goes. A puzzle the deductions finish has one solution; the SAT counter checks it
   (counting to two) independently.

Every random choice comes from the ``random.Random`` passed in.
"""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import dataclass

from ludolab.research.puzzles.nonogram.deduce import Deduction, deduce
from ludolab.research.puzzles.nonogram.images import GLYPHS, rasterise
from ludolab.research.puzzles.nonogram.rules import runs
from ludolab.research.puzzles.nonogram.solve import solutions

SIZES = range(8, 16)
MAX_REPAIRS = 6


@dataclass(frozen=True)
class NonogramPuzzle:
    size: int
    glyph: str
    rows: tuple[tuple[int, ...], ...]
    cols: tuple[tuple[int, ...], ...]
    grid: tuple[tuple[int, ...], ...]
    repairs: int
    deduction: Deduction

    @property
    def id(self) -> str:
        key = json.dumps([self.size, self.rows, self.cols])
        return f"nonogram-{self.size}-{hashlib.sha1(key.encode()).hexdigest()[:10]}"


def clues_of(grid: list[list[int]]) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """(row clues, column clues) of a 0/1 grid."""
    rows = tuple(tuple(runs(row)) for row in grid)
    cols = tuple(tuple(runs([row[c] for row in grid])) for c in range(len(grid[0])))
    return rows, cols


def _known(deduction: Deduction, n: int) -> set[tuple[int, int]]:
    return {cell for s in deduction.steps for cell in (*s.shade, *s.blank)}


def generate_one(n: int, rng: random.Random) -> NonogramPuzzle | None:
    """One candidate of side ``n``; None when the image is too bare or too full, or the
    repairs run out."""
    if n not in SIZES:
        raise ValueError(f"the Nonogram generator makes {SIZES.start}..{SIZES.stop - 1} grids, "
                         f"not {n}")
    glyph = rng.choice(GLYPHS)
    grid = rasterise(glyph, n, threshold=rng.uniform(0.35, 0.6), margin=rng.uniform(0, 0.1))
    if not 0.2 <= sum(map(sum, grid)) / (n * n) <= 0.75:
        return None
    for repairs in range(MAX_REPAIRS + 1):  # noqa: B007 (read after the loop)
        rows, cols = clues_of(grid)
        result = deduce(rows, cols)
        if result.solved:
            break
        known = _known(result, n)
        unknown = [(r, c) for r in range(n) for c in range(n) if (r, c) not in known]
        r, c = rng.choice(unknown)
        grid[r][c] = 1 - grid[r][c]
    else:
        return None
    found = solutions(rows, cols, limit=2)
    assert found == [grid], "the deductions finished a puzzle the SAT counter disagrees with"
    return NonogramPuzzle(n, glyph, rows, cols, tuple(map(tuple, grid)), repairs, result)


__all__ = ["MAX_REPAIRS", "SIZES", "NonogramPuzzle", "clues_of", "generate_one"]
