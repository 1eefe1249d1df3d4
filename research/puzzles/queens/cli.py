"""Queens: generate packs of puzzles with unique solutions, and verify packs.

  ludolab puzzle queens generate --n 50 --size 8 --difficulty mixed --seed 1 --out queens.json
  ludolab puzzle queens verify queens.json

Every generated puzzle is unique (the SAT counter finds one solution and proves there is no
second) and its solution passes the rules checker; ``verify`` does both again, and also
repeats the deductions to check each stored difficulty label. Difficulty: the hardest
deduction a solve needs (easy: singles; medium: a region confined to a line; hard: k regions
locked into k lines; expert: trying a cell); ``mixed`` spreads the pack evenly over the four.
"""

from __future__ import annotations

from ludolab.research.puzzles import pack_cli
from ludolab.research.puzzles.pack import PackPuzzle
from ludolab.research.puzzles.queens.deduce import LEVELS, RULES, deduce
from ludolab.research.puzzles.queens.generate import SIZES, QueensPuzzle, generate_one
from ludolab.research.puzzles.queens.rules import region_problems, solution_problems
from ludolab.research.puzzles.queens.solve import solutions

MEASURE = "the hardest deduction rule a solve needs: " + " < ".join(RULES)


def _entry(p: QueensPuzzle, attempt: int, seed: int) -> PackPuzzle:
    hardest, steps = p.deduction.score
    return PackPuzzle(
        id=p.id,
        size=(len(p.regions), len(p.regions)),
        clues={"regions": [list(row) for row in p.regions]},
        solution={"queens": list(p.queens)},
        difficulty={"level": p.deduction.level, "score": [hardest, steps], "measure": MEASURE},
        provenance={"seed": seed, "candidate": attempt, "repairs": p.repairs},
    )


def check(p: PackPuzzle) -> str | None:
    """The first problem of a Queens pack record, or None."""
    regions = p.clues.get("regions")
    queens = p.solution.get("queens")
    if not isinstance(regions, list) or not all(isinstance(row, list) for row in regions):
        return "clues.regions: expected rows of region numbers"
    problems = region_problems(regions)
    if problems:
        return f"clues.regions: {problems[0]}"
    if list(p.size) != [len(regions), len(regions)]:
        return f"size {list(p.size)} but the grid is {len(regions)} x {len(regions)}"
    if not isinstance(queens, list):
        return "solution.queens: expected a column per row"
    problems = solution_problems(regions, queens)
    if problems:
        return f"the stored solution breaks the rules: {problems[0]}"
    found = solutions(regions, limit=2)
    if len(found) > 1:
        return f"not unique: a second solution {found[1]} exists"
    if found != [queens]:
        return "the stored solution is not the grid's solution"
    return None


GAME = pack_cli.PuzzleGame(
    name="queens",
    title="Queens",
    sizes=SIZES,
    default_size=8,
    levels=LEVELS,
    method="random solution, regions grown around its queens, repaired until unique (SAT count "
    "to two), labelled by deductions",
    draw=generate_one,
    level_of=lambda p: p.deduction.level,
    entry=_entry,
    check=check,
    relabel=lambda p: deduce(p.clues["regions"]).level,
    clues=lambda p: p.repairs,
    clue_name="repairs (queens moved)",
)

add_arguments, run = pack_cli.commands(GAME)
