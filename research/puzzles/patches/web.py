"""Patches on the games page: each cell holds 0 (no patch yet) or k + 1 when it lies in the
patch of clue k; the hints are the deductions of :mod:`.deduce` that give cells to clues."""

from __future__ import annotations

from typing import Any

from ludolab.research.puzzles.pack import PackPuzzle
from ludolab.research.puzzles.patches.cli import GAME
from ludolab.research.puzzles.patches.deduce import deduce
from ludolab.research.puzzles.patches.solve import cells_of
from ludolab.research.puzzles.site.boards import WebGame


def board(p: PackPuzzle) -> dict[str, Any]:
    """The browser form of a Patches pack record (see research/puzzles/site/boards.py)."""
    n = p.size[0]
    clues = p.clues["clues"]
    solution = [0] * (n * n)
    for k, rect in enumerate(p.solution["patches"]):
        for r, c in cells_of(tuple(rect)):
            solution[r * n + c] = k + 1
    result = deduce(n, clues)

    def cell(k: int) -> list[int]:  # the clue's own cell, in its patch from the start
        r, c = clues[k]["cell"]
        return [r * n + c, k + 1]

    hints = [
        {"rule": step.rule, "why": step.why,
         "set": [*map(cell, sorted({k for _, k in step.give})),
                 *([r * n + c, k + 1] for (r, c), k in step.give)]}
        for step in result.steps
        if step.give
    ]
    return {
        "id": p.id,
        "level": result.level,  # the deductions' own (the site checks the stored label)
        "rows": n,
        "cols": n,
        "clues": clues,
        "start": [0] * (n * n),
        "solution": solution,
        "hints": hints,
    }


WEB = WebGame(
    puzzle=GAME,
    rules=(
        "Cover the grid with rectangles that do not overlap, each holding exactly one clue. "
        "The clue's symbol says the rectangle's shape (■ square, ▬ wider than tall, ▮ taller "
        "than wide, ✱ any) and its number, when shown, the rectangle's area in cells. (LinkedIn's "
        "<i>Patches</i>, after Nikoli's <i>Shikaku</i>; rules as playpatchesunlimited.com "
        "states them.)"
    ),
    controls=(
        "Drag from one corner of a rectangle to the other (it must hold one clue); tap a patch "
        "to take it away. Keyboard: arrows move, <kbd>Enter</kbd> on two corners draws, "
        "<kbd>Backspace</kbd> takes a patch away."
    ),
    board=board,
)
