"""Sudoku geometry, grids and their text format.

A Sudoku of size ``n`` has ``n * n`` cells, numbered row-major (cell ``r * n + c``), and
``3 * n`` units (rows, columns, boxes), each an all-different over ``n`` cells. Supported
sizes and box shapes (rows x columns of a box)::

    6: 2x3    9: 3x3    16: 4x4    25: 5x5    36: 6x6

A grid is a tuple of ``n * n`` ints: ``0`` for an empty cell, ``1..n`` for a value.

**Text format** (:func:`parse_grid`, :func:`format_grid`). Two forms, told apart by counting
whitespace-separated tokens:

* *compact* (sizes up to 25): one character per cell -- ``1``-``9``, then ``A``-``Z`` for 10-35
  (case-insensitive), ``.`` or ``0`` for an empty cell. Whitespace and the drawing characters
  ``| + -`` are ignored, so rows may be written one per line or all on one line.
* *numbers* (any size; the only form for 36x36): exactly ``n * n`` whitespace-separated tokens,
  each an integer ``0..n`` or ``.`` (``0``/``.`` empty). Drawing tokens (``|``, ``+``, ``--``)
  are skipped.

Text with exactly ``n * n`` tokens for a supported ``n`` is read as *numbers*; anything else as
*compact*. Both forms read a 9x9 grid the same way. :func:`format_grid` writes compact text for
``n <= 35`` and numbers for 36.
"""

from __future__ import annotations

import functools
import string
from dataclasses import dataclass

from ludolab.research.puzzles import PuzzleError

BOXES: dict[int, tuple[int, int]] = {6: (2, 3), 9: (3, 3), 16: (4, 4), 25: (5, 5), 36: (6, 6)}
"""Supported sizes and their box shapes (rows, columns)."""
SIZES: tuple[int, ...] = tuple(BOXES)

_DIGITS = string.digits[1:] + string.ascii_uppercase  # value v -> _DIGITS[v - 1], v <= 35
_CHAR_VALUE = {ch: i + 1 for i, ch in enumerate(_DIGITS)} | {".": 0, "0": 0}
_DRAWING = set("|+-")

Grid = tuple[int, ...]


@dataclass(frozen=True)
class Geometry:
    """The static facts of one size: units, the units of each cell, the peers of each cell.

    Everything is a tuple of small ints, precomputed once per size (:func:`geometry`), so the
    propagators' inner loops only index.
    """

    n: int
    box_rows: int
    box_cols: int
    units: tuple[tuple[int, ...], ...]
    """Rows ``0..n-1``, then columns ``n..2n-1``, then boxes ``2n..3n-1``; cells in order."""
    cell_units: tuple[tuple[int, int, int], ...]
    """For each cell: its row, column and box unit index."""
    peers: tuple[tuple[int, ...], ...]
    """For each cell: the other cells sharing a unit with it (sorted)."""

    @property
    def cells(self) -> int:
        """Number of cells, ``n * n``."""
        return self.n * self.n

    @property
    def full(self) -> int:
        """The bitmask of every value: bit ``v - 1`` stands for value ``v``."""
        return (1 << self.n) - 1


@functools.cache
def geometry(n: int) -> Geometry:
    """The :class:`Geometry` of size ``n``; raises :class:`PuzzleError` for other sizes."""
    check_size(n)
    br, bc = BOXES[n]
    rows = [tuple(r * n + c for c in range(n)) for r in range(n)]
    cols = [tuple(r * n + c for r in range(n)) for c in range(n)]
    boxes = []
    for b in range(n):
        r0, c0 = (b // (n // bc)) * br, (b % (n // bc)) * bc
        boxes.append(tuple((r0 + i) * n + c0 + j for i in range(br) for j in range(bc)))
    units = tuple(rows + cols + boxes)
    cell_units: list[tuple[int, int, int]] = []
    peers: list[tuple[int, ...]] = []
    for cell in range(n * n):
        r, c = divmod(cell, n)
        b = (r // br) * (n // bc) + c // bc
        cell_units.append((r, n + c, 2 * n + b))
        seen = set(rows[r]) | set(cols[c]) | set(boxes[b])
        seen.discard(cell)
        peers.append(tuple(sorted(seen)))
    return Geometry(n, br, bc, units, tuple(cell_units), tuple(peers))


def check_size(n: int, option: str = "size") -> int:
    """``n`` if it is a supported size, else a :class:`PuzzleError` naming ``option``."""
    if n not in BOXES:
        shapes = ", ".join(f"{k} ({r}x{c} boxes)" for k, (r, c) in BOXES.items())
        raise PuzzleError(f"{option} {n!r}: a Sudoku size must be one of {shapes}")
    return n


def cell_name(cell: int, n: int) -> str:
    """``r3c7`` style name of a cell (1-based), for messages."""
    r, c = divmod(cell, n)
    return f"r{r + 1}c{c + 1}"


def parse_grid(text: str, size: int | None = None, source: str = "grid") -> Grid:
    """Read a grid in either text form (module docstring); ``source`` names it in errors.

    ``size``, when given, must match the grid's cell count. Clues that repeat a value in a unit
    are an error (such a grid has no solution), as is any character or number outside the
    size's values.
    """
    tokens = [t for t in text.split() if not set(t) <= _DRAWING]
    numbers_n = next((k for k in BOXES if k * k == len(tokens)), None)
    if numbers_n is not None and (size is None or size == numbers_n):
        n = numbers_n
        grid = []
        for i, tok in enumerate(tokens):
            if tok == ".":
                grid.append(0)
                continue
            if not tok.isdigit() or int(tok) > n:
                raise PuzzleError(
                    f"{source}: token {tok!r} at {cell_name(i, n)} is not a value of a "
                    f"{n}x{n} Sudoku (expected 1-{n}, or 0 or . for an empty cell)"
                )
            grid.append(int(tok))
    else:
        chars = [ch for ch in text if not ch.isspace() and ch not in _DRAWING]
        n = next((k for k in BOXES if k * k == len(chars)), None)
        if n is None or (size is not None and n != size):
            expected = size * size if size is not None else None
            want = (
                f"{expected} cells for a {size}x{size} Sudoku"
                if expected
                else "36, 81, 256 or 625 cells (6x6, 9x9, 16x16, 25x25; 36x36 needs the "
                "whitespace-separated numbers form)"
            )
            raise PuzzleError(
                f"{source}: found {len(chars)} cells in compact form (and {len(tokens)} "
                f"whitespace-separated tokens); expected {want}"
            )
        grid = []
        for i, ch in enumerate(chars):
            v = _CHAR_VALUE.get(ch.upper())
            if v is None or v > n:
                top = _DIGITS[n - 1]
                raise PuzzleError(
                    f"{source}: character {ch!r} at {cell_name(i, n)} is not a value of a "
                    f"{n}x{n} Sudoku (expected 1-{top}, or . or 0 for an empty cell)"
                )
            grid.append(v)
    result = tuple(grid)
    check_clues(result, n, source)
    return result


def check_clues(grid: Grid, n: int, source: str = "grid") -> None:
    """Raise :class:`PuzzleError` if a value repeats within a row, column or box."""
    geo = geometry(n)
    kinds = ("row", "column", "box")
    for u, unit in enumerate(geo.units):
        seen: dict[int, int] = {}
        for cell in unit:
            v = grid[cell]
            if v:
                if v in seen:
                    raise PuzzleError(
                        f"{source}: value {v} appears twice in {kinds[u // n]} {u % n + 1} "
                        f"(at {cell_name(seen[v], n)} and {cell_name(cell, n)}); "
                        "such a grid has no solution"
                    )
                seen[v] = cell


def format_grid(grid: Grid, n: int | None = None, *, one_line: bool = False) -> str:
    """Text of a grid: compact (``.`` for empty) for ``n <= 35``, numbers for 36.

    ``one_line`` writes everything on one line (rows separated by nothing in compact form, by
    single spaces in numbers form): the form stored in ``.jsonl`` files.
    """
    if n is None:
        n = next((k for k in BOXES if k * k == len(grid)), 0)
    check_size(n)
    if n <= 35:
        rows = [
            "".join(_DIGITS[v - 1] if v else "." for v in grid[r * n : (r + 1) * n])
            for r in range(n)
        ]
        return "".join(rows) if one_line else "\n".join(rows)
    width = len(str(n))
    rows = [" ".join(str(v).rjust(width) for v in grid[r * n : (r + 1) * n]) for r in range(n)]
    return " ".join(" ".join(r.split()) for r in rows) if one_line else "\n".join(rows)


def clue_count(grid: Grid) -> int:
    """Number of filled cells."""
    return sum(1 for v in grid if v)


def is_solution(grid: Grid, n: int) -> bool:
    """True if ``grid`` is full and every unit holds each value once."""
    geo = geometry(n)
    if len(grid) != geo.cells or not all(1 <= v <= n for v in grid):
        return False
    return all(len({grid[c] for c in unit}) == n for unit in geo.units)
