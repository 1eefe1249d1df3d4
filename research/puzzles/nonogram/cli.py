"""Nonogram: generate packs of puzzles with unique solutions from glyph images, and verify packs.

  ludolab puzzle nonogram generate --n 40 --size 10 --difficulty mixed --seed 1 --out nonogram.json
  ludolab puzzle nonogram verify nonogram.json

Pictures are glyphs of the DejaVu fonts that ship with matplotlib, rasterised (free licence;
see research/puzzles/nonogram/images.py); a picture the deductions cannot finish has cells
flipped (at most 6) until they can, or is discarded. Every puzzle in a pack has one solution
(the SAT counter finds it and proves there is no second) that passes the rules checker.
Difficulty: the hardest deduction a solve needs (easy: line by line; medium: a trial that fails
within 10 line steps; hard: a longer trial).
"""

from __future__ import annotations

from ludolab.research.puzzles import pack_cli
from ludolab.research.puzzles.nonogram.deduce import LEVELS, RULES, deduce
from ludolab.research.puzzles.nonogram.generate import SIZES, NonogramPuzzle, generate_one
from ludolab.research.puzzles.nonogram.rules import clue_problems, solution_problems
from ludolab.research.puzzles.nonogram.solve import solutions
from ludolab.research.puzzles.pack import PackPuzzle

MEASURE = "the hardest deduction a solve needs: " + " < ".join(RULES)


def _entry(p: NonogramPuzzle, attempt: int, seed: int) -> PackPuzzle:
    hardest, steps = p.deduction.score
    return PackPuzzle(
        id=p.id,
        size=(p.size, p.size),
        clues={"rows": [list(c) for c in p.rows], "cols": [list(c) for c in p.cols]},
        solution={"grid": [list(row) for row in p.grid]},
        difficulty={"level": p.deduction.level, "score": [hardest, steps], "measure": MEASURE},
        provenance={"seed": seed, "candidate": attempt, "glyph": p.glyph, "repairs": p.repairs,
                    "font": "DejaVu (matplotlib's mpl-data/fonts, DejaVu licence)"},
    )


def check(p: PackPuzzle) -> str | None:
    """The first problem of a Nonogram pack record, or None."""
    rows, cols, grid = p.clues.get("rows"), p.clues.get("cols"), p.solution.get("grid")
    if not isinstance(rows, list) or not isinstance(cols, list):
        return "clues.rows / clues.cols: expected a list of block lengths per line"
    problems = clue_problems(rows, cols)
    if problems:
        return f"clues: {problems[0]}"
    if list(p.size) != [len(rows), len(cols)]:
        return f"size {list(p.size)} but the clues are for {len(rows)} x {len(cols)}"
    if not isinstance(grid, list) or not all(isinstance(row, list) for row in grid):
        return "solution.grid: expected rows of 0/1"
    problems = solution_problems(rows, cols, grid)
    if problems:
        return f"the stored solution breaks the rules: {problems[0]}"
    found = solutions(rows, cols, limit=2)
    if len(found) > 1:
        return "not unique: a second solution exists"
    if found != [grid]:
        return "the stored solution is not the puzzle's solution"
    return None


GAME = pack_cli.PuzzleGame(
    name="nonogram",
    title="Nonogram",
    sizes=SIZES,
    default_size=10,
    levels=LEVELS,
    method="glyph pictures (DejaVu fonts) rasterised, cells flipped until the deductions finish "
    "them (SAT count to two)",
    draw=generate_one,
    level_of=lambda p: p.deduction.level,
    entry=_entry,
    check=check,
    relabel=lambda p: deduce(p.clues["rows"], p.clues["cols"]).level,
    clues=lambda p: sum(map(len, p.rows)) + sum(map(len, p.cols)),
    clue_name="blocks",
)

add_arguments, run = pack_cli.commands(GAME)
