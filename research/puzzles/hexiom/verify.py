"""Check a Hexiom solution against the rules, independently of the solvers' encodings.

On purpose this module shares no code with `geometry`, `sat` or `minizinc`: it finds
neighbours from the printed picture itself (cell ``k`` of row ``i`` sits at column
``|i - middle| + 2k``; two cells touch when they are 2 columns apart in one row, or 1 column
apart in adjacent rows), so a wrong neighbour table in the solvers cannot hide behind a
verifier that uses the same table.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from ludolab.research.puzzles.hexiom.level import Level


@dataclass(frozen=True)
class Verification:
    """The verdict on one board: `ok` when `problems` (one sentence per broken rule) is empty."""

    problems: tuple[str, ...]

    @property
    def ok(self) -> bool:
        """True when the board breaks no rule."""
        return not self.problems


def _picture_positions(side: int) -> list[tuple[int, int]]:
    """(row, column) of every cell in the printed picture, in reading order."""
    middle = side - 1
    positions = []
    for row in range(2 * side - 1):
        indent = abs(row - middle)
        for k in range(2 * side - 1 - indent):
            positions.append((row, indent + 2 * k))
    return positions


def picture_neighbours(side: int) -> list[list[int]]:
    """For each cell, the cells it touches, found from picture positions (see module doc)."""
    positions = _picture_positions(side)
    at = {pos: i for i, pos in enumerate(positions)}
    steps = ((0, -2), (0, 2), (-1, -1), (-1, 1), (1, -1), (1, 1))
    return [
        [at[(r + dr, c + dc)] for dr, dc in steps if (r + dr, c + dc) in at] for r, c in positions
    ]


def verify(level: Level, board: Sequence[int | None]) -> Verification:
    """Check `board` (per cell, None or the tile number) as a solution of `level`.

    The rules: one value per cell; every tile is 0..6; locked cells keep their tile (or stay
    empty); the tiles on the board are exactly the level's tiles (as a multiset, since equal
    numbers are interchangeable); every tile's number equals its count of occupied neighbours.
    """
    problems: list[str] = []
    n = len(_picture_positions(level.side))
    if len(board) != n:
        return Verification((f"the board has {len(board)} cells, a side-{level.side} level {n}",))
    for c, v in enumerate(board):
        if v is not None and (not isinstance(v, int) or not 0 <= v <= 6):
            problems.append(f"cell {c} holds {v!r}, not a tile 0..6 or empty")
    if problems:
        return Verification(tuple(problems))
    for c, (start, lock) in enumerate(zip(level.tiles, level.locked, strict=True)):
        if lock and board[c] != start:
            want = "empty" if start is None else f"tile {start}"
            problems.append(f"cell {c} is locked as {want} but holds {_show(board[c])}")
    want_tiles = Counter(t for t in level.tiles if t is not None)
    have_tiles = Counter(t for t in board if t is not None)
    if want_tiles != have_tiles:
        missing = want_tiles - have_tiles
        extra = have_tiles - want_tiles
        problems.append(
            f"the tiles differ from the level's: missing {_multiset(missing)}, "
            f"extra {_multiset(extra)}"
        )
    for c, nbrs in enumerate(picture_neighbours(level.side)):
        v = board[c]
        if v is None:
            continue
        occupied = sum(board[m] is not None for m in nbrs)
        if occupied != v:
            problems.append(f"cell {c} holds tile {v} but has {occupied} occupied neighbours")
    return Verification(tuple(problems))


def _show(v: int | None) -> str:
    return "nothing" if v is None else f"tile {v}"


def _multiset(c: Counter[int]) -> str:
    return "{" + ", ".join(f"{c[k]} x tile {k}" for k in sorted(c)) + "}" if c else "nothing"
