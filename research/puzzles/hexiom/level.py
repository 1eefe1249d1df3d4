"""Hexiom levels: the seed's text format (parse, load the shipped 41, write back) and the
hexagonal picture the seed prints for a board.

A level file (as in slowfrog/hexiom and the SAT seed)::

    3                 <- side length of the hexagon
       . .+1          <- 2 * side - 1 rows; each cell is two characters: ' ' or '+' (locked),
      2 . . .            then '.' (empty) or a digit 0..6 (a tile)
     . . 1 . .
      . . . 2
      +2 . .

Row ``i`` is indented by its distance from the middle row; the parser only counts cells, so
indentation and trailing blanks (the shipped files have CRLF line ends) do not matter.
Unlocked tiles may move to any unlocked cell; locked tiles stay, and a locked ``+.`` cell
stays empty. Tiles with the same number are interchangeable.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from ludolab.research.puzzles import PuzzleError
from ludolab.research.puzzles.hexiom.geometry import row_lengths

N_LEVELS = 41  # level00.txt .. level40.txt ship with the package
MAX_TILE = 6  # a cell has at most 6 neighbours
_LEVELS_PACKAGE = "ludolab.research.puzzles.hexiom.levels"

# A cell: an optional lock mark, then '.' or a digit. Digits 7..9 are matched so that the
# error can say why they are wrong instead of "unexpected character".
_CELL = re.compile(r"(\+?)([.0-9])")

# One board: per cell, None (empty) or the tile number 0..6.
Board = tuple[int | None, ...]


@dataclass(frozen=True)
class Level:
    """A Hexiom level: the hexagon's side, the starting board and the locked cells.

    `tiles[c]` is the tile on cell ``c`` at the start (None: empty) and `locked[c]` whether it
    stays there; cells in reading order (see `geometry`). `name` says where the level came
    from (``level38.txt`` or a path) and appears in messages.
    """

    side: int
    tiles: Board
    locked: tuple[bool, ...]
    name: str = "<level>"

    @property
    def n_cells(self) -> int:
        """Number of cells on the board."""
        return len(self.tiles)

    @property
    def n_tiles(self) -> int:
        """Number of tiles to place."""
        return sum(t is not None for t in self.tiles)

    @property
    def counts(self) -> tuple[int, ...]:
        """How many tiles carry each number 0..6 (a tuple of 7 counts)."""
        c = Counter(t for t in self.tiles if t is not None)
        return tuple(c[n] for n in range(MAX_TILE + 1))

    @property
    def fixed(self) -> dict[int, int | None]:
        """Locked cells: cell index -> its tile number, or None for a locked empty cell."""
        return {
            c: t for c, (t, lock) in enumerate(zip(self.tiles, self.locked, strict=True)) if lock
        }


def parse_level(text: str, source: str = "<string>") -> Level:
    """Parse a level in the seed's format; `source` names the file in error messages.

    Raises `PuzzleError` naming `source`, the line and what was expected.
    """
    lines = text.splitlines()
    if not lines or not lines[0].strip():
        raise PuzzleError(
            f"{source}, line 1: expected the hexagon's side length (e.g. 3), "
            f"found {'an empty file' if not lines else 'an empty line'}"
        )
    head = lines[0].strip()
    if not head.isdigit() or int(head) < 1:
        raise PuzzleError(
            f"{source}, line 1: expected the hexagon's side length, a whole number "
            f">= 1, found {head!r}"
        )
    side = int(head)
    lengths = row_lengths(side)
    tiles: list[int | None] = []
    locked: list[bool] = []
    for row, want in enumerate(lengths):
        lineno = row + 2
        if lineno > len(lines):
            raise PuzzleError(
                f"{source}: a side-{side} level has {len(lengths)} rows after the "
                f"side length, but the file ends after {len(lines) - 1}"
            )
        line = lines[lineno - 1]
        cells = list(_CELL.finditer(line))
        leftover = _CELL.sub("", line)
        if leftover.strip():
            bad = leftover.strip()[0]
            hint = " ('+' must be directly followed by '.' or a digit)" if bad == "+" else ""
            raise PuzzleError(
                f"{source}, line {lineno}: unexpected character {bad!r}; a cell is "
                f"'.', a digit 0..6, or either of them locked with '+'{hint}"
            )
        if len(cells) != want:
            raise PuzzleError(
                f"{source}, line {lineno}: expected {want} cells in row {row + 1} "
                f"of a side-{side} hexagon, found {len(cells)}"
            )
        for match in cells:
            lock, value = match.group(1), match.group(2)
            if value != "." and int(value) > MAX_TILE:
                raise PuzzleError(
                    f"{source}, line {lineno}: tile {value} is impossible, a cell "
                    f"has at most 6 neighbours (tiles are 0..6)"
                )
            tiles.append(None if value == "." else int(value))
            locked.append(lock == "+")
    for lineno in range(len(lengths) + 2, len(lines) + 1):
        if lines[lineno - 1].strip():
            raise PuzzleError(
                f"{source}, line {lineno}: unexpected text after the last of the "
                f"{len(lengths)} rows of a side-{side} hexagon"
            )
    return Level(side, tuple(tiles), tuple(locked), source)


def read_level_file(path: str | Path) -> Level:
    """Parse the level file at `path` (PuzzleError when missing, unreadable or malformed)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise PuzzleError(f"{path}: no such level file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise PuzzleError(f"{path}: cannot read the level file ({exc})") from None
    return parse_level(text, str(path))


def load_level(number: int) -> Level:
    """One of the 41 shipped levels, 0..40 (PuzzleError for any other number)."""
    if not 0 <= number < N_LEVELS:
        raise PuzzleError(
            f"unknown Hexiom level {number}: the shipped levels are 0..{N_LEVELS - 1}"
        )
    name = f"level{number:02d}.txt"
    text = resources.files(_LEVELS_PACKAGE).joinpath(name).read_text(encoding="utf-8")
    return parse_level(text, name)


def format_board(side: int, board: Sequence[int | None]) -> str:
    """The seed's hexagonal picture of a board: one line per row, '.' for an empty cell.

    Row ``i`` is indented by its distance from the middle row and cells are one space apart,
    exactly as the seed prints a solution (no trailing newline).
    """
    lengths = row_lengths(side)
    if len(board) != sum(lengths):
        raise ValueError(f"a side-{side} board has {sum(lengths)} cells, got {len(board)}")
    lines, start = [], 0
    for row, length in enumerate(lengths):
        values = board[start : start + length]
        start += length
        indent = abs(row - (side - 1))
        lines.append(" " * indent + " ".join("." if v is None else str(v) for v in values))
    return "\n".join(lines)


def format_level(level: Level) -> str:
    """The level in its file format (parses back to an equal `Level`), newline-terminated."""
    lines, start = [str(level.side)], 0
    for row, length in enumerate(row_lengths(level.side)):
        cells = range(start, start + length)
        start += length
        indent = abs(row - (level.side - 1))
        lines.append(
            " " * indent
            + "".join(
                ("+" if level.locked[c] else " ")
                + ("." if level.tiles[c] is None else str(level.tiles[c]))
                for c in cells
            )
        )
    return "\n".join(lines) + "\n"
