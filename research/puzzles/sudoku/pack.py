"""Sudoku packs for the games page: puzzles by difficulty, with a deduction path for hints.

``ludolab puzzle sudoku generate --n 40 --size 9 --difficulty mixed --seed 1 --out sudoku.json``
(an ``--out`` ending in ``.json`` writes a pack; ``.jsonl`` keeps the corpus format of the
hardness study) and ``ludolab puzzle sudoku verify sudoku.json``.

**Generation.** A candidate is :func:`.generate.generate_puzzle` from a seed drawn from the
pack's seed, with clue removal stopped at a random target between the size's bounds
(:data:`CLUE_TARGETS`; ``None`` in the list removes to a minimal puzzle): fewer clues, harder
puzzles, so drawing the target spreads a pack over the levels. Its hardness tag
(:func:`.classify.classify`) gives the level; the seed's symmetrification pass then moves it
toward 180-degree symmetry without changing the tag. Puzzles tagged ``search`` are discarded:
the page's hints need a deduction path to the end.

**Levels** come from the propagation ladder (:mod:`.propagate`): ``easy`` = ``val`` (naked
singles finish it), ``medium`` = ``bnd``, ``hard`` = ``dom``, ``expert`` = ``bs`` or ``ds``.

**Hints** (:func:`deduction_path`): from the givens, the weakest reasoning that fixes a cell,
one cell per step: a naked single (the only value left once the cell's row, column and box are
read), a hidden single (the only cell of a row, column or box that can take a value), then the
cells the ladder's stronger levels fix (``bnd``, ``dom``, ``bs``, ``ds``).
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass

from ludolab.research.puzzles import pack_cli
from ludolab.research.puzzles.pack import PackPuzzle
from ludolab.research.puzzles.sudoku.classify import classify
from ludolab.research.puzzles.sudoku.generate import NODE_LIMITS, Puzzle, generate_puzzle
from ludolab.research.puzzles.sudoku.grid import Grid, cell_name, geometry, is_solution
from ludolab.research.puzzles.sudoku.propagate import LEVELS as TAG_LEVELS
from ludolab.research.puzzles.sudoku.propagate import initial_domains, propagate
from ludolab.research.puzzles.sudoku.solver import count_solutions
from ludolab.research.puzzles.sudoku.symmetrify import symmetrify_puzzle

LEVELS = ("easy", "medium", "hard", "expert")
LEVEL_OF_TAG = {"val": "easy", "bnd": "medium", "dom": "hard", "bs": "expert", "ds": "expert"}
SIZES = range(6, 10, 3)  # 6 and 9: the sizes the page lays out
CLUE_TARGETS: dict[int, tuple[int | None, ...]] = {
    6: (None, 10, 11, 12, 14, 16),
    9: (None, 22, 24, 26, 28, 30, 32, 34, 36),
}
MEASURE = (
    "the weakest propagation that solves it without search: val (easy) < bnd (medium) < dom "
    "(hard) < bs, ds (expert)"
)
RULES = ("naked single", "hidden single", *TAG_LEVELS[1:])


@dataclass(frozen=True)
class SudokuCandidate:
    """A generated, classified, symmetrified puzzle and its level."""

    id: str
    puzzle: Puzzle
    level: str


def draw(size: int, rng: random.Random) -> SudokuCandidate | None:
    """One candidate of ``size`` from ``rng`` (None when it needs search)."""
    seed = rng.getrandbits(63)
    target = rng.choice(CLUE_TARGETS[size])
    puzzle = generate_puzzle(size, seed, clues=target, node_limit=NODE_LIMITS[size])
    tag = classify(puzzle.grid, size).tag
    if tag not in LEVEL_OF_TAG:
        return None
    puzzle = symmetrify_puzzle(puzzle.with_tag(tag), seed=seed).puzzle
    digest = hashlib.sha256(bytes(puzzle.grid)).hexdigest()[:8]
    return SudokuCandidate(f"sudoku-{size}-{digest}", puzzle, LEVEL_OF_TAG[tag])


def entry(c: SudokuCandidate, attempt: int, seed: int) -> PackPuzzle:
    """The pack record: ``clues.grid`` row by row (0 = empty), ``solution.grid`` likewise."""
    p = c.puzzle
    return PackPuzzle(
        id=c.id,
        size=(p.size, p.size),
        clues={"grid": _rows(p.grid, p.size)},
        solution={"grid": _rows(p.solution, p.size)},
        difficulty={"level": c.level, "score": [p.tag, p.clues], "measure": MEASURE},
        provenance={"seed": seed, "candidate": attempt, "puzzle_seed": p.seed,
                    "clue_target": p.target},
    )


def _rows(grid: Grid, n: int) -> list[list[int]]:
    return [list(grid[r * n : (r + 1) * n]) for r in range(n)]


def _grid(record: PackPuzzle, key: str) -> tuple[int, Grid] | str:
    """(size, flat grid) of a record's clues or solution, or what is wrong with it."""
    where = "clues" if key == "clues" else "solution"
    rows = (record.clues if key == "clues" else record.solution).get("grid")
    n = record.size[0]
    if list(record.size) != [n, n] or n not in SIZES:
        return f"size {list(record.size)}: the Sudoku packs are 6 x 6 or 9 x 9"
    if (
        not isinstance(rows, list)
        or len(rows) != n
        or not all(isinstance(row, list) and len(row) == n for row in rows)
        or not all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= n
                   for row in rows for v in row)
    ):
        return f"{where}.grid: expected {n} rows of {n} numbers 0..{n}"
    return n, tuple(v for row in rows for v in row)


def check(record: PackPuzzle) -> str | None:
    """The first problem of a Sudoku pack record, or None: the solution passes the rules
    (:func:`.grid.is_solution`, which shares no code with the solver), agrees with the
    givens, and is the only one (the solver counts to two)."""
    given = _grid(record, "clues")
    if isinstance(given, str):
        return given
    solved = _grid(record, "solution")
    if isinstance(solved, str):
        return solved
    n, grid = given
    _, solution = solved
    if not is_solution(solution, n):
        return "the stored solution breaks the rules: a row, column or box repeats a value"
    bad = [i for i, v in enumerate(grid) if v and v != solution[i]]
    if bad:
        return f"the given at {cell_name(bad[0], n)} disagrees with the stored solution"
    if count_solutions(grid, n, limit=2) > 1:
        return "not unique: a second solution exists"
    return None


def relabel(record: PackPuzzle) -> str:
    """The level the propagation ladder gives a checked record."""
    n, grid = _grid(record, "clues")  # type: ignore[misc]
    return LEVEL_OF_TAG.get(classify(grid, n).tag, "search")


@dataclass(frozen=True)
class Step:
    """One hint: ``cell`` gets ``value`` by ``rule`` (one of :data:`RULES`), and why."""

    rule: str
    cell: int
    value: int
    why: str


def deduction_path(grid: Grid, n: int) -> list[Step]:
    """Steps from ``grid`` to its solution, each by the weakest reasoning that fixes a cell
    (see the module docstring); stops early if none does (a puzzle that needs search)."""
    geo = geometry(n)
    grid = list(grid)
    steps: list[Step] = []
    names = ("row", "column", "box")
    while 0 in grid:
        doms = initial_domains(tuple(grid), n)
        if not propagate(doms, n, "val"):
            break
        step = None
        # Naked single: the cell's own row, column and box leave one value (no chains).
        for cell, v in enumerate(grid):
            if v == 0:
                seen = {grid[p] for p in geo.peers[cell]}
                left = [x for x in range(1, n + 1) if x not in seen]
                if len(left) == 1:
                    step = Step("naked single", cell, left[0], (
                        f"{cell_name(cell, n)} can only be {left[0]}: every other value is "
                        "already in its row, column or box."))
                    break
        if step is None:  # hidden single: a value with one place left in a unit
            for u, unit in enumerate(geo.units):
                for x in range(1, n + 1):
                    places = [c for c in unit if grid[c] == 0 and doms[c] >> (x - 1) & 1]
                    if len(places) == 1 and x not in (grid[c] for c in unit):
                        cell = places[0]
                        step = Step("hidden single", cell, x, (
                            f"{x} has only one place in its {names[u // n]}: "
                            f"{cell_name(cell, n)}."))
                        break
                if step is not None:
                    break
        for level in TAG_LEVELS[1:]:
            if step is not None:
                break
            trial = doms.copy()
            if not propagate(trial, n, level):
                break
            fixed = [c for c in range(n * n) if grid[c] == 0 and not trial[c] & (trial[c] - 1)]
            if fixed:
                cell = fixed[0]
                value = trial[cell].bit_length()
                step = Step(level, cell, value, (
                    f"{cell_name(cell, n)} must be {value}: {_LEVEL_WHY[level]}"))
        if step is None:
            break
        steps.append(step)
        grid[step.cell] = step.value
    return steps


_LEVEL_WHY = {
    "bnd": "a range of values is held by as many cells of one row, column or box, which "
    "pushes the other cells' values out of that range.",
    "dom": "some values of a row, column or box can only be held by as many cells (a hidden "
    "or naked subset), which rules the others out.",
    "bs": "trying the smallest or largest value left in some cell leads to a contradiction.",
    "ds": "trying some value left in a cell leads to a contradiction.",
}


GAME = pack_cli.PuzzleGame(
    name="sudoku",
    title="Sudoku",
    sizes=SIZES,
    default_size=9,
    levels=LEVELS,
    method="random complete grid, clues removed while unique down to a random target, tagged "
    "by the propagation ladder, symmetrified (tag kept)",
    draw=draw,
    level_of=lambda c: c.level,
    entry=entry,
    check=check,
    relabel=relabel,
    clues=lambda c: c.puzzle.clues,
    clue_name="givens",
)

__all__ = ["GAME", "LEVELS", "RULES", "Step", "check", "deduction_path", "draw", "relabel"]
