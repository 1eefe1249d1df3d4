"""Loopy (Slitherlink): generate packs of puzzles with unique solutions, and verify packs.

  ludolab puzzle loopy generate --n 40 --size 7 --difficulty mixed --seed 1 --out loopy.json
  ludolab puzzle loopy verify loopy.json

A random loop (the boundary of a random region without holes), every cell's number, then
numbers taken away while the SAT counter still finds that loop alone (counting to two); the
rules checker passes it. Difficulty: the hardest deduction a solve needs (easy: counts around
cells and dots, early loops; medium: a trial that fails within 6 steps; hard: a longer one).
"""

from __future__ import annotations

from ludolab.research.puzzles import pack_cli
from ludolab.research.puzzles.loopy.deduce import LEVELS, RULES, deduce
from ludolab.research.puzzles.loopy.generate import SIZES, LoopyPuzzle, generate_one
from ludolab.research.puzzles.loopy.rules import all_edges, clue_problems, loop_problems
from ludolab.research.puzzles.loopy.solve import solutions
from ludolab.research.puzzles.pack import PackPuzzle

MEASURE = "the hardest deduction a solve needs: " + " < ".join(RULES)


def _entry(p: LoopyPuzzle, attempt: int, seed: int) -> PackPuzzle:
    hardest, steps = p.deduction.score
    order = all_edges(p.size, p.size)
    return PackPuzzle(
        id=p.id,
        size=(p.size, p.size),
        clues={"numbers": [list(row) for row in p.clues]},
        solution={"loop": [list(e) for e in order if e in p.loop]},
        difficulty={"level": p.deduction.level, "score": [hardest, steps], "measure": MEASURE},
        provenance={"seed": seed, "candidate": attempt},
    )


def _loop(value: object) -> list[tuple[str, int, int]] | None:
    if not isinstance(value, list) or not all(
        isinstance(e, list) and len(e) == 3 and e[0] in ("h", "v")
        and all(isinstance(k, int) for k in e[1:]) for e in value
    ):
        return None
    return [(e[0], e[1], e[2]) for e in value]


def check(p: PackPuzzle) -> str | None:
    """The first problem of a Loopy pack record, or None."""
    rows, cols = p.size
    numbers = p.clues.get("numbers")
    loop = _loop(p.solution.get("loop"))
    if not isinstance(numbers, list):
        return "clues.numbers: expected rows of 0-3 or null"
    problems = clue_problems(rows, cols, numbers)
    if problems:
        return f"clues.numbers: {problems[0]}"
    if loop is None:
        return 'solution.loop: expected a list of edges ["h" or "v", row, column]'
    problems = loop_problems(rows, cols, numbers, loop)
    if problems:
        return f"the stored solution breaks the rules: {problems[0]}"
    found = solutions(rows, cols, numbers, limit=2)
    if len(found) > 1:
        return "not unique: a second loop exists"
    if found != [set(loop)]:
        return "the stored solution is not the puzzle's solution"
    return None


GAME = pack_cli.PuzzleGame(
    name="loopy",
    title="Loopy",
    sizes=SIZES,
    default_size=7,
    levels=LEVELS,
    method="random loop (a hole-free region's boundary), every cell's number, numbers removed "
    "while unique (SAT count to two, loops cut lazily), labelled by deductions",
    draw=generate_one,
    level_of=lambda p: p.deduction.level,
    entry=_entry,
    check=check,
    relabel=lambda p: deduce(p.size[0], p.size[1], p.clues["numbers"]).level,
    clues=lambda p: sum(k is not None for row in p.clues for k in row),
    clue_name="numbers",
)

add_arguments, run = pack_cli.commands(GAME)
