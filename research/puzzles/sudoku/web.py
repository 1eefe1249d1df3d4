"""Sudoku on the games page: cells hold 0 (empty) or a value 1..n; the givens are fixed; the
hints are :func:`.pack.deduction_path`, one cell per step."""

from __future__ import annotations

from typing import Any

from ludolab.research.puzzles.pack import PackPuzzle
from ludolab.research.puzzles.site.boards import WebGame
from ludolab.research.puzzles.sudoku.grid import geometry
from ludolab.research.puzzles.sudoku.pack import GAME, deduction_path, relabel


def board(p: PackPuzzle) -> dict[str, Any]:
    """The browser form of a Sudoku pack record (see research/puzzles/site/boards.py)."""
    n = p.size[0]
    grid = tuple(v for row in p.clues["grid"] for v in row)
    geo = geometry(n)
    return {
        "id": p.id,
        "level": relabel(p),  # the ladder's own (the site checks the stored label)
        "rows": n,
        "cols": n,
        "box": [geo.box_rows, geo.box_cols],
        "start": list(grid),
        "solution": [v for row in p.solution["grid"] for v in row],
        "hints": [
            {"rule": s.rule, "why": s.why, "set": [[s.cell, s.value]]}
            for s in deduction_path(grid, n)
        ],
    }


WEB = WebGame(
    puzzle=GAME,
    rules=(
        "Fill the grid so that every row, every column and every box holds each number once "
        "(1-9 on a 9 x 9 grid with 3 x 3 boxes; 1-6 on a 6 x 6 grid with 2 x 3 boxes)."
    ),
    controls=(
        "Click or tap a cell, then a number below the grid or on the keyboard. Keyboard: "
        "arrows move, <kbd>1</kbd>-<kbd>9</kbd> write, <kbd>Backspace</kbd> clear."
    ),
    board=board,
)
