"""Loopy on the games page: the elements are the grid's edges (in the order of
:func:`.rules.all_edges`), holding 0 (unknown), 1 (off the loop: the player's mark) or 2 (on
the loop); the hints are the deductions of :mod:`.deduce`."""

from __future__ import annotations

from typing import Any

from ludolab.research.puzzles.loopy.cli import GAME
from ludolab.research.puzzles.loopy.deduce import deduce
from ludolab.research.puzzles.loopy.rules import all_edges
from ludolab.research.puzzles.pack import PackPuzzle
from ludolab.research.puzzles.site.boards import WebGame, step_hints

OFF, ON = 1, 2


def board(p: PackPuzzle) -> dict[str, Any]:
    """The browser form of a Loopy pack record (see research/puzzles/site/boards.py)."""
    rows, cols = p.size
    numbers = p.clues["numbers"]
    order = all_edges(rows, cols)
    index = {e: i for i, e in enumerate(order)}
    loop = {tuple(e) for e in p.solution["loop"]}
    result = deduce(rows, cols, numbers)
    hints = step_hints(result.steps, lambda s: ((s.use, ON), (s.close, OFF)), index.__getitem__)
    return {
        "id": p.id,
        "level": result.level,  # the deductions' own (the site checks the stored label)
        "rows": rows,
        "cols": cols,
        "numbers": numbers,
        "edges": [list(e) for e in order],
        "start": [0] * len(order),
        "solution": [ON if e in loop else OFF for e in order],
        "hints": hints,
    }


WEB = WebGame(
    puzzle=GAME,
    rules=(
        "Draw one closed loop along the lines between the dots; it never crosses or touches "
        "itself. A number says how many of its cell's four sides the loop uses. (Rules as "
        "Simon Tatham's Portable Puzzle Collection gives them for <i>Loopy</i>, Nikoli's "
        "<i>Slitherlink</i>.)"
    ),
    controls=(
        "Click or tap the gap between two dots to cycle: line, no line (×), unknown. Keyboard: "
        "<kbd>Tab</kbd> moves between edges, <kbd>Space</kbd> cycles, <kbd>Backspace</kbd> "
        "clears."
    ),
    board=board,
)
