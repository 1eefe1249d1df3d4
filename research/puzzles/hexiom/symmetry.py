"""Which of the hexagon's 12 symmetries a level allows, and solution orbits under them.

A symmetry is allowed when it maps the level onto itself: every locked cell onto a locked cell
with the same content (the same tile, or locked-empty onto locked-empty). Unlocked tiles move
freely and all tiles of one number are alike, so the level's rules are then unchanged by the
symmetry, and it maps solutions to solutions. The allowed symmetries form a subgroup.
"""

from __future__ import annotations

from collections.abc import Iterable

from ludolab.research.puzzles.hexiom.geometry import Symmetry, hex_grid
from ludolab.research.puzzles.hexiom.level import Board, Level


def allowed_symmetries(level: Level) -> tuple[Symmetry, ...]:
    """The symmetries of the hexagon that map `level` onto itself; identity first, always."""
    grid = hex_grid(level.side)
    fixed = level.fixed
    return tuple(
        sym
        for sym in grid.symmetries
        if all(sym.perm[c] in fixed and fixed[sym.perm[c]] == v for c, v in fixed.items())
    )


def canonical(board: Board, symmetries: Iterable[Symmetry]) -> Board:
    """The representative of `board`'s orbit: the smallest image under `symmetries`.

    Order: cell by cell in reading order, empty before tile 0 before tile 1 ... (the same
    order as the solvers' lex-leader constraints, so a symmetry-broken solve returns exactly
    these representatives).
    """
    return min((sym.apply(board) for sym in symmetries), key=board_key)


def board_key(board: Board) -> tuple[int, ...]:
    """Sort key of a board: per cell, -1 for empty or the tile number."""
    return tuple(-1 if v is None else v for v in board)


def orbits(boards: Iterable[Board], symmetries: Iterable[Symmetry]) -> set[Board]:
    """The distinct orbits among `boards`, each given by its `canonical` representative."""
    syms = tuple(symmetries)
    return {canonical(tuple(b), syms) for b in boards}
