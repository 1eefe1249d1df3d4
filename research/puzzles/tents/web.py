"""Tents on the games page: cells hold 0 (unknown), 1 (grass: the player's mark), 2 (a tent)
or 3 (a tree, fixed); the hints are the deductions of :mod:`.deduce` that label the puzzle."""

from __future__ import annotations

from typing import Any

from ludolab.research.puzzles.pack import PackPuzzle
from ludolab.research.puzzles.site.boards import WebGame, cell_index, step_hints
from ludolab.research.puzzles.tents.cli import GAME
from ludolab.research.puzzles.tents.deduce import deduce

GRASS, TENT, TREE = 1, 2, 3


def board(p: PackPuzzle) -> dict[str, Any]:
    """The browser form of a Tents pack record (see research/puzzles/site/boards.py)."""
    rows, cols = p.size
    trees = {(r, c) for r, c in p.clues["trees"]}
    tents = {(r, c) for r, c in p.solution["tents"]}
    result = deduce(rows, cols, sorted(trees), p.clues["row_counts"], p.clues["col_counts"])
    hints = step_hints(result.steps, lambda s: ((s.tents, TENT), (s.grass, GRASS)),
                       cell_index(cols))

    def code(cell: tuple[int, int]) -> int:
        return TREE if cell in trees else TENT if cell in tents else GRASS

    return {
        "id": p.id,
        "level": result.level,  # the deductions' own (the site checks the stored label)
        "rows": rows,
        "cols": cols,
        "row_counts": p.clues["row_counts"],
        "col_counts": p.clues["col_counts"],
        "start": [TREE if (r, c) in trees else 0 for r in range(rows) for c in range(cols)],
        "solution": [code((r, c)) for r in range(rows) for c in range(cols)],
        "hints": hints,
    }


WEB = WebGame(
    puzzle=GAME,
    rules=(
        "Put a tent beside every tree (above, below, left or right of it), so that trees and "
        "tents pair one to one. No two tents touch, not even diagonally. The numbers outside "
        "the grid say how many tents each row and column holds. (Rules as gridpuzzle.com and "
        "brainbashers.com state them.)"
    ),
    controls=(
        "Click or tap a cell to cycle: grass, tent, empty. Keyboard: arrows move, "
        "<kbd>T</kbd> tent, <kbd>G</kbd> grass, <kbd>Space</kbd> cycle, "
        "<kbd>Backspace</kbd> clear."
    ),
    board=board,
)
