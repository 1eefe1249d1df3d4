"""Tents: generate packs of puzzles with unique solutions, and verify packs.

  ludolab puzzle tents generate --n 50 --size 8 --difficulty mixed --seed 1 --out tents.json
  ludolab puzzle tents verify tents.json

Every generated puzzle has one tent placement (the SAT counter finds it and proves there is no
second) that passes the rules checker; ``verify`` does both again and repeats the deductions
to check each stored difficulty label. Difficulty: the hardest deduction a solve needs (easy:
cells with no tree, full or needy lines, a tree with one cell left; medium: the room in a
line's open runs; hard: trying a cell); ``mixed`` spreads the pack over the three.
"""

from __future__ import annotations

from ludolab.research.puzzles import pack_cli
from ludolab.research.puzzles.pack import PackPuzzle
from ludolab.research.puzzles.tents.deduce import LEVELS, RULES, deduce
from ludolab.research.puzzles.tents.generate import SIZES, TentsPuzzle, generate_one
from ludolab.research.puzzles.tents.rules import puzzle_problems, solution_problems
from ludolab.research.puzzles.tents.solve import solutions

MEASURE = "the hardest deduction rule a solve needs: " + " < ".join(RULES)


def _entry(p: TentsPuzzle, attempt: int, seed: int) -> PackPuzzle:
    hardest, steps = p.deduction.score
    return PackPuzzle(
        id=p.id,
        size=(p.size, p.size),
        clues={
            "trees": [list(t) for t in p.trees],
            "row_counts": list(p.row_counts),
            "col_counts": list(p.col_counts),
        },
        solution={"tents": [list(t) for t in p.tents]},
        difficulty={"level": p.deduction.level, "score": [hardest, steps], "measure": MEASURE},
        provenance={"seed": seed, "candidate": attempt},
    )


def _cells(value: object) -> list[tuple[int, int]] | None:
    if not isinstance(value, list) or not all(
        isinstance(v, list) and len(v) == 2 and all(isinstance(k, int) for k in v) for v in value
    ):
        return None
    return [(v[0], v[1]) for v in value]


def _clues(p: PackPuzzle) -> tuple:
    """(rows, columns, trees, row counts, column counts) of a checked record."""
    rows, cols = p.size
    return rows, cols, _cells(p.clues["trees"]), p.clues["row_counts"], p.clues["col_counts"]


def check(p: PackPuzzle) -> str | None:
    """The first problem of a Tents pack record, or None."""
    rows, cols = p.size
    trees = _cells(p.clues.get("trees"))
    tents = _cells(p.solution.get("tents"))
    row_counts, col_counts = p.clues.get("row_counts"), p.clues.get("col_counts")
    if trees is None:
        return "clues.trees: expected a list of [row, column]"
    if tents is None:
        return "solution.tents: expected a list of [row, column]"
    if not isinstance(row_counts, list) or not isinstance(col_counts, list):
        return "clues.row_counts / col_counts: expected lists of counts"
    problems = puzzle_problems(rows, cols, trees, row_counts, col_counts)
    if problems:
        return f"clues: {problems[0]}"
    problems = solution_problems(rows, cols, trees, row_counts, col_counts, tents)
    if problems:
        return f"the stored solution breaks the rules: {problems[0]}"
    found = solutions(rows, cols, trees, row_counts, col_counts, limit=2)
    if len(found) > 1:
        return "not unique: a second tent placement exists"
    if found != [sorted(tents)]:
        return "the stored solution is not the puzzle's solution"
    return None


GAME = pack_cli.PuzzleGame(
    name="tents",
    title="Tents",
    sizes=SIZES,
    default_size=8,
    levels=LEVELS,
    method="random tents each with a tree beside it, kept when unique (SAT count to two) and "
    "the deductions finish it",
    draw=generate_one,
    level_of=lambda p: p.deduction.level,
    entry=_entry,
    check=check,
    relabel=lambda p: deduce(*_clues(p)).level,
    clues=lambda p: len(p.trees),
    clue_name="trees",
)

add_arguments, run = pack_cli.commands(GAME)
