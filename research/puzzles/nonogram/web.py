"""Nonogram on the games page: cells hold 0 (unknown), 1 (blank: the player's mark) or 2
(shaded); the hints are the deductions of :mod:`.deduce` that label the puzzle."""

from __future__ import annotations

from typing import Any

from ludolab.research.puzzles.nonogram.cli import GAME
from ludolab.research.puzzles.nonogram.deduce import deduce
from ludolab.research.puzzles.pack import PackPuzzle
from ludolab.research.puzzles.site.boards import WebGame, cell_index, step_hints

BLANK, SHADED = 1, 2


def board(p: PackPuzzle) -> dict[str, Any]:
    """The browser form of a Nonogram pack record (see research/puzzles/site/boards.py)."""
    rows, cols = p.clues["rows"], p.clues["cols"]
    width = len(cols)
    result = deduce(rows, cols)
    hints = step_hints(
        result.steps, lambda s: ((s.shade, SHADED), (s.blank, BLANK)), cell_index(width)
    )
    return {
        "id": p.id,
        "level": result.level,  # the deductions' own (the site checks the stored label)
        "rows": len(rows),
        "cols": width,
        "row_clues": rows,
        "col_clues": cols,
        "start": [0] * (len(rows) * width),
        "solution": [SHADED if v else BLANK for row in p.solution["grid"] for v in row],
        "hints": hints,
    }


WEB = WebGame(
    puzzle=GAME,
    rules=(
        "Shade cells so that each row and column shows, in order, blocks of shaded cells of "
        "the lengths its clue lists, with at least one blank cell between blocks. The shaded "
        "cells draw a picture. (Rules as CSPLib problem 012 states them.)"
    ),
    controls=(
        "Click or tap a cell to cycle: shaded, blank (×), unknown. Keyboard: arrows move, "
        "<kbd>F</kbd> shade, <kbd>X</kbd> blank, <kbd>Space</kbd> cycle, "
        "<kbd>Backspace</kbd> clear."
    ),
    board=board,
)
