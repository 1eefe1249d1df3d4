"""The hexagonal Hexiom board: cells, neighbours, and the 12 symmetries of the hexagon.

Cells are numbered in reading order, as in the level files and the printed board: row by row
from the top, left to right within a row. Internally each cell also has axial coordinates
``(q, r)`` with ``max(|q|, |r|, |q + r|) <= side - 1``; ``r`` is the row (-R at the top, R at the
bottom, R = side - 1) and ``q`` grows to the right. In those coordinates a rotation by 60
degrees is ``(q, r) -> (-r, q + r)`` and ``(q, r) -> (r, q)`` is a reflection, so the
dihedral group of the hexagon (6 rotations, 6 reflections) acts on cells as permutations.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import TypeVar

T = TypeVar("T")

# The six axial directions: right, left, up-right, down-left, up-left, down-right.
_DIRECTIONS = ((1, 0), (-1, 0), (1, -1), (-1, 1), (0, -1), (0, 1))


@dataclass(frozen=True)
class Symmetry:
    """One of the 12 rotations/reflections, as a permutation of cell indices.

    ``perm[c]`` is the cell that cell ``c`` moves to. A board ``b`` (one value per cell) moves
    to the board ``b'`` with ``b'[perm[c]] = b[c]``; see `apply`.
    """

    name: str
    perm: tuple[int, ...]

    @property
    def is_identity(self) -> bool:
        """True for the permutation that moves nothing."""
        return all(i == p for i, p in enumerate(self.perm))

    def apply(self, board: Sequence[T]) -> tuple[T, ...]:
        """The board moved by this symmetry (same length as `board`, one value per cell)."""
        out = list(board)
        for cell, image in enumerate(self.perm):
            out[image] = board[cell]
        return tuple(out)


@dataclass(frozen=True)
class HexGrid:
    """The cells of a hexagon of the given side length, and how they touch.

    `coords[c]` is cell ``c``'s axial ``(q, r)``, cells numbered row by row as printed (see
    :func:`row_lengths`); `neighbours[c]` the adjacent cells, ascending (3..6 of them
    once side >= 2); `symmetries` the 12 dihedral symmetries as distinct permutations,
    identity first (for side 1 only the identity is left: all of them fix the single cell).
    """

    side: int
    coords: tuple[tuple[int, int], ...]
    neighbours: tuple[tuple[int, ...], ...]
    symmetries: tuple[Symmetry, ...]


def row_lengths(side: int) -> list[int]:
    """Cells per printed row, top to bottom: side, side + 1, ..., 2 side - 1, ..., side."""
    radius = side - 1
    return [side + radius - abs(r) for r in range(-radius, radius + 1)]


@cache
def hex_grid(side: int) -> HexGrid:
    """The grid for a hexagon with `side` cells per edge (side >= 1); cached per side."""
    if side < 1:
        raise ValueError(f"a hexagon needs side >= 1, got {side}")
    radius = side - 1
    coords: list[tuple[int, int]] = []
    for r in range(-radius, radius + 1):
        for q in range(max(-radius, -radius - r), min(radius, radius - r) + 1):
            coords.append((q, r))
    index = {qr: i for i, qr in enumerate(coords)}
    neighbours = tuple(
        tuple(
            sorted(index[(q + dq, r + dr)] for dq, dr in _DIRECTIONS if (q + dq, r + dr) in index)
        )
        for q, r in coords
    )

    def rotate(qr: tuple[int, int]) -> tuple[int, int]:
        q, r = qr
        return (-r, q + r)

    symmetries: list[Symmetry] = []
    for reflect in (False, True):
        for k in range(6):
            perm = []
            for qr in coords:
                image = (qr[1], qr[0]) if reflect else qr
                for _ in range(k):
                    image = rotate(image)
                perm.append(index[image])
            turn = f"rotate {60 * k} degrees"
            name = ("reflect, then " + turn) if reflect else turn
            if all(tuple(perm) != s.perm for s in symmetries):  # side 1: all are identity
                symmetries.append(Symmetry("identity" if not symmetries else name, tuple(perm)))
    return HexGrid(side, tuple(coords), neighbours, tuple(symmetries))
