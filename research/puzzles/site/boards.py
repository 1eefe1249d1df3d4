"""What the games page needs from each game: its browser form of a pack record and its texts.

A game's ``web`` module (e.g. :mod:`ludolab.research.puzzles.queens.web`) defines ``WEB``, a
:class:`WebGame`. Its ``board(record)`` turns a pack record into the browser's form::

    {"id": ..., "level": ..., "rows": R, "cols": C,
     "start": [code per element],     # the fixed elements' codes (a Tents tree), 0 elsewhere
     "solution": [code per element],  # the one answer; optional codes (marks) may stay 0
     "hints": [{"rule": ..., "why": ..., "set": [[element, code], ...]}, ...],
     ...}                             # the game's clues, read by its script games/NAME.js

Element codes are small integers, 0 meaning "nothing yet". ``hints`` is the game's deductions
in the order they solve the puzzle (the same deductions that give its difficulty), so a hint
in the browser is the first step the player's position does not show yet.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from ludolab.research.puzzles.pack import PackPuzzle
from ludolab.research.puzzles.pack_cli import PuzzleGame

# The games on the page, in the index's order: name -> the module that defines WEB.
WEB_MODULES = {
    "sudoku": "ludolab.research.puzzles.sudoku.web",
    "queens": "ludolab.research.puzzles.queens.web",
    "tents": "ludolab.research.puzzles.tents.web",
    "nonogram": "ludolab.research.puzzles.nonogram.web",
    "zip": "ludolab.research.puzzles.zip.web",
    "loopy": "ludolab.research.puzzles.loopy.web",
    "patches": "ludolab.research.puzzles.patches.web",
    "wend": "ludolab.research.puzzles.wend.web",
    "swend": "ludolab.research.puzzles.swend.web",
}


@dataclass(frozen=True)
class WebGame:
    """One game on the page: ``puzzle`` its pack commands (name, title, levels, checks),
    ``rules`` the rules as the page states them (HTML, source named), ``controls`` how to play
    (HTML), ``board`` the browser form of a pack record (see the module docstring), and
    ``script`` the page's game script when it is another game's (Swend plays as Wend)."""

    puzzle: PuzzleGame
    rules: str
    controls: str
    board: Callable[[PackPuzzle], dict[str, Any]]
    script: str = ""  # static/games/SCRIPT (default NAME.js): games that share one

    @property
    def script_file(self) -> str:
        return self.script or f"{self.name}.js"

    @property
    def name(self) -> str:
        return self.puzzle.name

    @property
    def title(self) -> str:
        return self.puzzle.title


def web_game(name: str) -> WebGame:
    """The page's entry for game ``name`` (one of :data:`WEB_MODULES`)."""
    return importlib.import_module(WEB_MODULES[name]).WEB


def step_hints(
    steps: Iterable[Any],
    changes: Callable[[Any], Iterable[tuple[Iterable[Any], int]]],
    index: Callable[[Any], int],
) -> list[dict]:
    """A game's deduction steps as hints: ``changes(step)`` gives the step's groups of
    (elements, code), each non-empty group one hint; ``index`` turns an element (a (row,
    column) cell, a link, an edge) into its place in the board's list."""
    out = []
    for step in steps:
        for elements, code in changes(step):
            chosen = [[index(e), code] for e in elements]
            if chosen:
                out.append({"rule": step.rule, "why": step.why, "set": chosen})
    return out


def cell_index(cols: int) -> Callable[[tuple[int, int]], int]:
    """The place of a (row, column) cell in a board of ``cols`` columns, row by row."""
    return lambda cell: cell[0] * cols + cell[1]


__all__ = ["WEB_MODULES", "WebGame", "cell_index", "step_hints", "web_game"]
