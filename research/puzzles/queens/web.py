"""Queens on the games page: cells hold 0 (empty), 1 (a cross: no queen here, the player's
mark) or 2 (a queen); the hints are the deductions of :mod:`.deduce` that label the puzzle."""

from __future__ import annotations

from typing import Any

from ludolab.research.puzzles.pack import PackPuzzle
from ludolab.research.puzzles.queens.cli import GAME
from ludolab.research.puzzles.queens.deduce import deduce
from ludolab.research.puzzles.site.boards import WebGame, cell_index, step_hints

CROSS, QUEEN = 1, 2


def board(p: PackPuzzle) -> dict[str, Any]:
    """The browser form of a Queens pack record (see research/puzzles/site/boards.py)."""
    regions = p.clues["regions"]
    n = len(regions)
    queens = p.solution["queens"]
    result = deduce(regions)
    hints = step_hints(
        result.steps,
        lambda s: (([s.place] if s.place is not None else [], QUEEN), (s.remove, CROSS)),
        cell_index(n),
    )
    return {
        "id": p.id,
        "level": result.level,  # the deductions' own (the site checks the stored label)
        "rows": n,
        "cols": n,
        "regions": [k for row in regions for k in row],
        "start": [0] * (n * n),
        "solution": [QUEEN if queens[r] == c else CROSS for r in range(n) for c in range(n)],
        "hints": hints,
    }


WEB = WebGame(
    puzzle=GAME,
    rules=(
        "Place one queen in every row, every column and every coloured region. No two queens "
        "may touch, not even diagonally. (The rules of LinkedIn's <i>Queens</i> and of the "
        "older <i>Star Battle</i> with one star per line.)"
    ),
    controls=(
        "Click or tap a cell to cycle: cross (no queen), queen, empty. Keyboard: arrows move, "
        "<kbd>Q</kbd> queen, <kbd>X</kbd> cross, <kbd>Space</kbd> cycle, "
        "<kbd>Backspace</kbd> clear."
    ),
    board=board,
)
