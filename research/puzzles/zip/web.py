"""Zip on the games page: the elements are the links between side-by-side cells without a
wall (in the order :func:`links` lists them), holding 0 (unknown), 1 (no link: the player's
mark) or 2 (on the path); the hints are the deductions of :mod:`.deduce`."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

from ludolab.research.puzzles.pack import PackPuzzle
from ludolab.research.puzzles.site.boards import WebGame, step_hints
from ludolab.research.puzzles.zip.cli import GAME
from ludolab.research.puzzles.zip.deduce import deduce
from ludolab.research.puzzles.zip.rules import Cell, wall_set
from ludolab.research.puzzles.zip.solve import neighbours

NO_LINK, LINK = 1, 2


def links(n: int, walls: list) -> list[tuple[Cell, Cell]]:
    """The links of the grid, each (cell, the cell right of it or below it), row by row."""
    blocked = wall_set(walls)
    return [
        ((r, c), b)
        for r in range(n)
        for c in range(n)
        for b in neighbours(n, (r, c), blocked)
        if b > (r, c)
    ]


def board(p: PackPuzzle) -> dict[str, Any]:
    """The browser form of a Zip pack record (see research/puzzles/site/boards.py)."""
    n = p.size[0]
    numbers, walls = p.clues["numbers"], p.clues["walls"]
    order = links(n, walls)
    index = {link: i for i, link in enumerate(order)}
    path = [tuple(c) for c in p.solution["path"]]
    on_path = {tuple(sorted(pair)) for pair in pairwise(path)}
    result = deduce(n, numbers, walls)
    hints = step_hints(result.steps, lambda s: ((s.use, LINK), (s.close, NO_LINK)),
                       index.__getitem__)
    return {
        "id": p.id,
        "level": result.level,  # the deductions' own (the site checks the stored label)
        "rows": n,
        "cols": n,
        "numbers": numbers,
        "walls": walls,
        "links": [[list(a), list(b)] for a, b in order],
        "start": [0] * len(order),
        "solution": [LINK if link in on_path else NO_LINK for link in order],
        "hints": hints,
    }


WEB = WebGame(
    puzzle=GAME,
    rules=(
        "Draw one path through every cell, moving between cells side by side: start on 1, pass "
        "the numbers in order and end on the highest. The path cannot cross a wall (thick "
        "line). (LinkedIn's <i>Zip</i>.)"
    ),
    controls=(
        "Drag across the cells to draw the path (back over it to erase), or click or tap the "
        "gap between two cells to cycle: link, no link (×), unknown. Keyboard: arrows move "
        "between cells, <kbd>Shift</kbd>+arrow draws or erases a link."
    ),
    board=board,
)
