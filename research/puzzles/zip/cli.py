"""Zip: generate packs of puzzles with unique solutions, and verify packs.

  ludolab puzzle zip generate --n 40 --size 6 --difficulty mixed --seed 1 --out zip.json
  ludolab puzzle zip verify zip.json

A random path through every cell, numbers along it, and numbers or walls added until the SAT
counter finds that path alone (counting to two); the rules checker passes it. Difficulty: the
hardest deduction a solve needs (easy: a cell's links, loops and the numbers' order; medium: a
trial that fails within 8 steps; hard: a longer trial).
"""

from __future__ import annotations

from ludolab.research.puzzles import pack_cli
from ludolab.research.puzzles.pack import PackPuzzle
from ludolab.research.puzzles.zip.deduce import LEVELS, RULES, deduce
from ludolab.research.puzzles.zip.generate import SIZES, ZipPuzzle, generate_one
from ludolab.research.puzzles.zip.rules import puzzle_problems, solution_problems
from ludolab.research.puzzles.zip.solve import solutions

MEASURE = "the hardest deduction a solve needs: " + " < ".join(RULES)


def _entry(p: ZipPuzzle, attempt: int, seed: int) -> PackPuzzle:
    hardest, steps = p.deduction.score
    return PackPuzzle(
        id=p.id,
        size=(p.size, p.size),
        clues={"numbers": [list(c) for c in p.numbers],
               "walls": [[list(a), list(b)] for a, b in p.walls]},
        solution={"path": [list(c) for c in p.path]},
        difficulty={"level": p.deduction.level, "score": [hardest, steps], "measure": MEASURE},
        provenance={"seed": seed, "candidate": attempt, "repairs": p.repairs},
    )


def _cells(value: object) -> bool:
    return isinstance(value, list) and all(
        isinstance(v, list) and len(v) == 2 and all(isinstance(k, int) for k in v) for v in value
    )


def check(p: PackPuzzle) -> str | None:
    """The first problem of a Zip pack record, or None."""
    n = p.size[0]
    numbers, walls, path = p.clues.get("numbers"), p.clues.get("walls"), p.solution.get("path")
    if list(p.size) != [n, n] or n not in SIZES:
        return f"size {list(p.size)}: the Zip packs are square, {SIZES.start}..{SIZES.stop - 1}"
    if not _cells(numbers):
        return "clues.numbers: expected a list of [row, column]"
    if not isinstance(walls, list) or not all(_cells(w) and len(w) == 2 for w in walls):
        return "clues.walls: expected a list of [[row, column], [row, column]]"
    if not _cells(path):
        return "solution.path: expected a list of [row, column]"
    problems = puzzle_problems(n, numbers, walls)
    if problems:
        return f"clues: {problems[0]}"
    problems = solution_problems(n, numbers, walls, path)
    if problems:
        return f"the stored solution breaks the rules: {problems[0]}"
    found = solutions(n, numbers, walls, limit=2)
    if len(found) > 1:
        return "not unique: a second path exists"
    if [list(map(list, found[0]))] != [path]:
        return "the stored solution is not the puzzle's solution"
    return None


GAME = pack_cli.PuzzleGame(
    name="zip",
    title="Zip",
    sizes=SIZES,
    default_size=6,
    levels=LEVELS,
    method="random path through every cell (backbite moves), numbers along it, numbers or "
    "walls added until unique (SAT count to two), labelled by deductions",
    draw=generate_one,
    level_of=lambda p: p.deduction.level,
    entry=_entry,
    check=check,
    relabel=lambda p: deduce(p.size[0], p.clues["numbers"], p.clues["walls"]).level,
    clues=lambda p: len(p.numbers) + len(p.walls),
    clue_name="numbers and walls",
)

add_arguments, run = pack_cli.commands(GAME)
