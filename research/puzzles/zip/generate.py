"""Generating Zip puzzles: a random path through every cell, numbers along it, repaired until
the path is the only one and the deductions finish it.

1. A path: the serpentine through the grid, then ``40 n^2`` backbite moves (an end of the path
   steps to a random side-by-side cell of the path, and the stretch after that cell turns
   round; Mansfield 2006), which walk among the grid's paths through every cell.
2. Numbers: 1 on the path's first cell, the last number on its last, and ``n - 2`` more on
   cells drawn along it, numbered in the order the path meets them.
3. Repair: while the SAT counter finds a second path, information is added that the intended
   path keeps and the other breaks: a number on a cell the two paths reach in a different
   order, or (``walls``, half the time) a wall across a link the other path uses and the
   intended one does not. After ``MAX_REPAIRS`` additions, or if the deductions cannot finish
   the puzzle, the candidate goes.

Every random choice comes from the ``random.Random`` passed in.
"""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import dataclass
from itertools import pairwise

from ludolab.research.puzzles.zip.deduce import Deduction, deduce
from ludolab.research.puzzles.zip.rules import Cell
from ludolab.research.puzzles.zip.solve import solutions

SIZES = range(4, 10)
MAX_REPAIRS = 12


@dataclass(frozen=True)
class ZipPuzzle:
    size: int
    numbers: tuple[Cell, ...]
    walls: tuple[tuple[Cell, Cell], ...]
    path: tuple[Cell, ...]
    repairs: int
    deduction: Deduction

    @property
    def id(self) -> str:
        key = json.dumps([self.size, self.numbers, self.walls])
        return f"zip-{self.size}-{hashlib.sha1(key.encode()).hexdigest()[:10]}"


def random_path(n: int, rng: random.Random) -> list[Cell]:
    """A path through every cell of the n x n grid (module docstring, step 1)."""
    path = [(r, c if r % 2 == 0 else n - 1 - c) for r in range(n) for c in range(n)]
    for _ in range(40 * n * n):
        if rng.random() < 0.5:
            path.reverse()
        end = path[-1]
        r, c = end
        options = [(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)]
        w = rng.choice(options)
        if not (0 <= w[0] < n and 0 <= w[1] < n):
            continue
        i = path.index(w)
        if i == len(path) - 2:
            continue
        path[i + 1 :] = path[i + 1 :][::-1]
    return path


def generate_one(n: int, rng: random.Random, walls: bool = True) -> ZipPuzzle | None:
    """One candidate of side ``n``; None when the repairs run out or the deductions cannot
    finish it."""
    if n not in SIZES:
        raise ValueError(f"the Zip generator makes {SIZES.start}..{SIZES.stop - 1} grids, not {n}")
    path = random_path(n, rng)
    where = {cell: k for k, cell in enumerate(path)}
    marked = {0, len(path) - 1, *rng.sample(range(1, len(path) - 1), n - 2)}
    wall_list: list[tuple[Cell, Cell]] = []
    links = {frozenset(pair) for pair in pairwise(path)}
    for repairs in range(MAX_REPAIRS + 1):  # noqa: B007 (read after the loop)
        numbers = [path[k] for k in sorted(marked)]
        found = solutions(n, numbers, wall_list, limit=2)
        if found == [path]:
            break
        other = next(p for p in found if p != path)  # the intended path always fits
        used = [pair for pair in pairwise(other) if frozenset(pair) not in links]
        if walls and used and rng.random() < 0.5:
            a, b = rng.choice(used)
            wall_list.append(tuple(sorted((a, b))))
        else:
            moved = [k for k, cell in enumerate(other) if where[cell] != k and
                     where[cell] not in marked]
            marked.add(where[other[rng.choice(moved)]] if moved else rng.randrange(len(path)))
    else:
        return None
    numbers = [path[k] for k in sorted(marked)]
    result = deduce(n, numbers, wall_list)
    if not result.solved:
        return None
    assert list(result.path or ()) == path
    return ZipPuzzle(n, tuple(numbers), tuple(sorted(wall_list)), tuple(path), repairs, result)


__all__ = ["MAX_REPAIRS", "SIZES", "ZipPuzzle", "generate_one", "random_path"]
