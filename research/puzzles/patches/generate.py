"""Generating Patches puzzles: a random tiling by rectangles, a clue in each, then clue
information taken away while the tiling stays the only one.

1. A tiling: the first cell not yet covered (row by row) starts a rectangle of a random height
   and width (area 2 to ``MAX_AREA``, a single cell now and then) over cells not yet covered.
2. Clues: in each rectangle a random cell shows its shape (square, wide, tall) and area.
3. Removal: in a random order, a clue loses its area, or its shape (becoming ``any``), when the
   SAT counter still finds one tiling (counting to two); a random share of the removals
   (``keep``) is skipped, which spreads the levels: more information, easier.
4. Kept when the deductions (:mod:`.deduce`) finish the puzzle.

Every random choice comes from the ``random.Random`` passed in.
"""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import dataclass
from typing import Any

from ludolab.research.puzzles.patches.deduce import Deduction, deduce
from ludolab.research.puzzles.patches.rules import Rect, shape_of
from ludolab.research.puzzles.patches.solve import cells_of, solutions

SIZES = range(4, 10)
MAX_AREA = 8


@dataclass(frozen=True)
class PatchesPuzzle:
    size: int
    clues: tuple[dict[str, Any], ...]
    patches: tuple[Rect, ...]
    deduction: Deduction

    @property
    def id(self) -> str:
        key = json.dumps([self.size, self.clues], sort_keys=True)
        return f"patches-{self.size}-{hashlib.sha1(key.encode()).hexdigest()[:10]}"


def random_tiling(n: int, rng: random.Random) -> list[Rect]:
    """Rectangles covering the n x n grid (module docstring, step 1)."""
    covered: set[tuple[int, int]] = set()
    rects: list[Rect] = []
    for r in range(n):
        for c in range(n):
            if (r, c) in covered:
                continue
            shapes = [
                (h, w)
                for h in range(1, n - r + 1)
                for w in range(1, n - c + 1)
                if h * w <= MAX_AREA
                and all((r + i, c + j) not in covered for i in range(h) for j in range(w))
            ]
            big = [s for s in shapes if s[0] * s[1] > 1]
            h, w = rng.choice(big) if big and rng.random() > 0.08 else (1, 1)
            rect = (r, c, r + h - 1, c + w - 1)
            covered.update(cells_of(rect))
            rects.append(rect)
    return rects


def generate_one(n: int, rng: random.Random) -> PatchesPuzzle | None:
    """One candidate of side ``n``; None when the deductions cannot finish it."""
    if n not in SIZES:
        raise ValueError(f"the Patches generator makes {SIZES.start}..{SIZES.stop - 1} grids, "
                         f"not {n}")
    rects = random_tiling(n, rng)
    clues: list[dict[str, Any]] = []
    for rect in rects:
        cell = rng.choice(cells_of(rect))
        area = (rect[2] - rect[0] + 1) * (rect[3] - rect[1] + 1)
        clues.append({"cell": list(cell), "shape": shape_of(rect), "area": area})
    removals = [(i, key) for i in range(len(clues)) for key in ("area", "shape")]
    rng.shuffle(removals)
    skip = rng.uniform(0.0, 0.6)
    for i, key in removals:
        if rng.random() < skip:
            continue
        old = clues[i][key]
        clues[i][key] = None if key == "area" else "any"
        if len(solutions(n, clues, limit=2)) > 1:
            clues[i][key] = old
    result = deduce(n, clues)
    if not result.solved:
        return None
    assert list(result.patches or ()) == rects
    return PatchesPuzzle(n, tuple(clues), tuple(rects), result)


__all__ = ["MAX_AREA", "SIZES", "PatchesPuzzle", "generate_one", "random_tiling"]
