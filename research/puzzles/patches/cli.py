"""Patches: generate packs of puzzles with unique solutions, and verify packs.

  ludolab puzzle patches generate --n 40 --size 6 --difficulty mixed --seed 1 --out patches.json
  ludolab puzzle patches verify patches.json

A random tiling by rectangles, a clue (shape and area) in each, then clue information taken
away while the SAT counter (an exact cover of candidate rectangles) still finds that tiling
alone; the rules checker passes it. Difficulty: the hardest deduction a solve needs (easy: a
clue with one fit, cells every fit covers, a cell one clue alone reaches; medium: a trial that
fails within 2 steps; hard: a longer one).
"""

from __future__ import annotations

from ludolab.research.puzzles import pack_cli
from ludolab.research.puzzles.pack import PackPuzzle
from ludolab.research.puzzles.patches.deduce import LEVELS, RULES, deduce
from ludolab.research.puzzles.patches.generate import SIZES, PatchesPuzzle, generate_one
from ludolab.research.puzzles.patches.rules import clue_problems, solution_problems
from ludolab.research.puzzles.patches.solve import solutions

MEASURE = "the hardest deduction a solve needs: " + " < ".join(RULES)


def _entry(p: PatchesPuzzle, attempt: int, seed: int) -> PackPuzzle:
    hardest, steps = p.deduction.score
    return PackPuzzle(
        id=p.id,
        size=(p.size, p.size),
        clues={"clues": [dict(c) for c in p.clues]},
        solution={"patches": [list(r) for r in p.patches]},
        difficulty={"level": p.deduction.level, "score": [hardest, steps], "measure": MEASURE},
        provenance={"seed": seed, "candidate": attempt},
    )


def check(p: PackPuzzle) -> str | None:
    """The first problem of a Patches pack record, or None."""
    n = p.size[0]
    clues, patches = p.clues.get("clues"), p.solution.get("patches")
    if list(p.size) != [n, n] or n not in SIZES:
        return f"size {list(p.size)}: Patches packs are square, {SIZES.start}..{SIZES.stop - 1}"
    if not isinstance(clues, list):
        return "clues.clues: expected a list of {cell, shape, area}"
    problems = clue_problems(n, clues)
    if problems:
        return f"clues: {problems[0]}"
    if not isinstance(patches, list) or not all(
        isinstance(r, list) and len(r) == 4 and all(isinstance(k, int) for k in r)
        for r in patches
    ):
        return "solution.patches: expected [top, left, bottom, right] per clue"
    problems = solution_problems(n, clues, patches)
    if problems:
        return f"the stored solution breaks the rules: {problems[0]}"
    found = solutions(n, clues, limit=2)
    if len(found) > 1:
        return "not unique: a second tiling exists"
    if [list(map(list, found[0]))] != [patches]:
        return "the stored solution is not the puzzle's solution"
    return None


GAME = pack_cli.PuzzleGame(
    name="patches",
    title="Patches",
    sizes=SIZES,
    default_size=6,
    levels=LEVELS,
    method="random tiling by rectangles, a shape-and-area clue in each, information removed "
    "while unique (SAT exact cover, count to two), labelled by deductions",
    draw=generate_one,
    level_of=lambda p: p.deduction.level,
    entry=_entry,
    check=check,
    relabel=lambda p: deduce(p.size[0], p.clues["clues"]).level,
    clues=lambda p: sum((c["area"] is not None) + (c["shape"] != "any") for c in p.clues),
    clue_name="areas and shapes shown",
)

add_arguments, run = pack_cli.commands(GAME)
