"""Wend and Swend on the games page: each cell holds 0 (no word yet) or k + 1 when it lies in
the k-th word of the stored solution; the hints are the deductions of :mod:`.deduce` that
find a word."""

from __future__ import annotations

from typing import Any

from ludolab.research.puzzles.pack import PackPuzzle
from ludolab.research.puzzles.site.boards import WebGame, cell_index, step_hints
from ludolab.research.puzzles.wend.cli import GAME
from ludolab.research.puzzles.wend.deduce import deduce
from ludolab.research.puzzles.wend.words import LANGUAGES


def board(p: PackPuzzle, game: str = "wend") -> dict[str, Any]:
    """The browser form of a Wend or Swend pack record (research/puzzles/site/boards.py)."""
    n = p.size[0]
    letters = [list(row) for row in p.clues["letters"]]
    paths = [tuple(tuple(c) for c in path) for path in p.solution["paths"]]
    code = {path: k + 1 for k, path in enumerate(paths)}
    solution = [0] * (n * n)
    for path, k in code.items():
        for r, c in path:
            solution[r * n + c] = k
    result = deduce(game, letters, p.clues["lengths"])
    hints = step_hints(
        result.steps,
        lambda s: ((s.take, code[s.take]),) if s.take is not None else (),
        cell_index(n),
    )
    return {
        "id": p.id,
        "level": result.level,  # the deductions' own (the site checks the stored label)
        "rows": n,
        "cols": n,
        "letters": p.clues["letters"],
        "lengths": p.clues["lengths"],
        "paths": [[list(c) for c in path] for path in paths],
        "start": [0] * (n * n),
        "solution": solution,
        "hints": hints,
    }


def web_game(puzzle: Any, language: str) -> WebGame:
    return WebGame(
        puzzle=puzzle,
        rules=(
            f"The letters hide {language} words, each a path through side-by-side cells (no "
            "diagonals). Every letter belongs to exactly one word; the lengths of the words are "
            "listed under the grid. (LinkedIn's <i>Wend</i>; rules as wendplay.com states them. "
            f"Words from Debian's {LANGUAGES[puzzle.name].package} list.)"
        ),
        controls=(
            "Drag through the letters of a word and let go; a hidden word stays. Tap a found "
            "word to take it back. Keyboard: arrows move, <kbd>Space</kbd> adds a letter, "
            "<kbd>Enter</kbd> tries the word."
        ),
        board=lambda p: board(p, puzzle.name),
        script="wend.js",
    )


WEB = web_game(GAME, "English")
