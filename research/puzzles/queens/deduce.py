"""Solving Queens by the deductions a person makes, weakest first: the difficulty of a puzzle
and the hints the games page gives.

The state is the set of cells that may still hold a queen. Placing a queen removes its row,
column, region and the eight cells around it. The rules, in the order they are tried (each
step uses the weakest rule that makes progress):

1. ``single``: a row, column or region with one possible cell gets its queen there.
2. ``confined``: a region whose possible cells lie in one row (or one column) takes that
   row's queen: the row's other cells go; likewise a row or column whose possible cells lie
   in one region clears the rest of that region.
3. ``lockout``: k regions (2 <= k <= 4) whose possible cells lie in k rows (columns) take
   those rows' queens, clearing the other cells of the rows; and k rows (columns) whose cells
   lie in k regions clear the other cells of those regions.
4. ``trial``: a cell whose queen would leave some row, column or region without a possible
   cell goes.

The difficulty is the hardest rule the solve needs: ``easy`` (1), ``medium`` (2), ``hard``
(3), ``expert`` (4). A puzzle the rules cannot finish is ``search`` (the generator keeps
none). The score is the number of steps at that rule, then the number of steps (more: harder
within a level).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from itertools import combinations
from operator import itemgetter

from ludolab.research.puzzles.queens.rules import Regions

LEVELS = ("easy", "medium", "hard", "expert")
RULES = ("single", "confined", "lockout", "trial")
MAX_LOCKOUT = 4

Cell = tuple[int, int]


@dataclass(frozen=True)
class Step:
    """One deduction: ``rule`` (one of RULES), the queen it places (or None) and the cells it
    rules out, with a sentence saying why."""

    rule: str
    place: Cell | None
    remove: tuple[Cell, ...]
    why: str


@dataclass(frozen=True)
class Deduction:
    """A whole solve by the rules: the steps, whether it finished, the difficulty."""

    steps: tuple[Step, ...]
    solved: bool
    queens: tuple[int, ...] | None  # a column per row when solved

    @property
    def level(self) -> str:
        """The difficulty level's name ("search" if the rules did not finish)."""
        if not self.solved:
            return "search"
        hardest = max((RULES.index(s.rule) for s in self.steps), default=0)
        return LEVELS[hardest]

    @property
    def score(self) -> tuple[int, int]:
        """(steps at the hardest rule, all steps): larger is harder within a level."""
        if not self.steps:
            return (0, 0)
        hardest = max(RULES.index(s.rule) for s in self.steps)
        return (sum(RULES.index(s.rule) == hardest for s in self.steps), len(self.steps))


class _Board:
    def __init__(self, regions: Regions, queens: Iterable[Cell] = ()) -> None:
        self.n = n = len(regions)
        self.regions = regions
        self.possible = {(r, c) for r in range(n) for c in range(n)}
        self.queens: dict[int, int] = {}
        for cell in queens:
            self.place(cell)

    def units(self) -> list[tuple[str, set[Cell]]]:
        """Rows, columns and regions still without a queen, with their possible cells."""
        n, poss = self.n, self.possible
        done_regions = {self.regions[r][c] for r, c in self.queens.items()}
        done_cols = set(self.queens.values())
        out: list[tuple[str, set[Cell]]] = []
        for r in range(n):
            if r not in self.queens:
                out.append((f"row {r + 1}", {(r, c) for c in range(n) if (r, c) in poss}))
        for c in range(n):
            if c not in done_cols:
                out.append((f"column {c + 1}", {(r, c) for r in range(n) if (r, c) in poss}))
        for k in range(n):
            if k not in done_regions:
                cells = {cell for cell in poss if self.regions[cell[0]][cell[1]] == k}
                out.append((f"region {k + 1}", cells))
        return out

    def blocked_by(self, cell: Cell) -> set[Cell]:
        """The possible cells a queen on ``cell`` rules out (itself included)."""
        r, c = cell
        k = self.regions[r][c]
        return {
            (rr, cc)
            for rr, cc in self.possible
            if rr == r or cc == c or self.regions[rr][cc] == k or max(abs(rr - r), abs(cc - c)) <= 1
        }

    def place(self, cell: Cell) -> None:
        self.possible -= self.blocked_by(cell)
        self.queens[cell[0]] = cell[1]


def _single(board: _Board) -> Step | None:
    for name, cells in board.units():
        if len(cells) == 1:
            (cell,) = cells
            return Step("single", cell, (), f"{name} has one possible cell left")
    return None


def _locked(
    board: _Board,
    rule: str,
    k: int,
    units: list[tuple[str, set[Cell]]],
    container: Callable[[Cell], int],
    word: str,
) -> Step | None:
    """k of ``units`` whose possible cells lie within k containers (rows, columns or
    regions, as ``container`` numbers a cell) fill those containers: their other cells go."""
    for group in combinations(units, k):
        covered = {container(cell) for _, cells in group for cell in cells}
        if len(covered) != k:
            continue
        inside = set().union(*(cells for _, cells in group))
        remove = {cell for cell in board.possible if container(cell) in covered} - inside
        if remove:
            names = ", ".join(name for name, _ in group)
            return Step(
                rule,
                None,
                tuple(sorted(remove)),
                f"{names} lie within {k} {word}{'s' if k > 1 else ''}: their queens fill "
                f"{'them' if k > 1 else 'it'}",
            )
    return None


def _group_step(board: _Board, rule: str, sizes: range) -> Step | None:
    """``confined`` (size 1) and ``lockout`` (sizes 2..MAX_LOCKOUT) in both directions."""
    units = board.units()
    regions = [(name, cells) for name, cells in units if name.startswith("region")]

    def region_of(cell: Cell) -> int:
        return board.regions[cell[0]][cell[1]]

    for axis, word in ((0, "row"), (1, "column")):
        lines = [(name, cells) for name, cells in units if name.startswith(word)]
        line_of = itemgetter(axis)
        for k in sizes:
            step = _locked(board, rule, k, regions, line_of, word) or _locked(
                board, rule, k, lines, region_of, "region"
            )
            if step is not None:
                return step
    return None


def _trial(board: _Board) -> Step | None:
    for cell in sorted(board.possible):
        blocked = board.blocked_by(cell)
        for name, cells in board.units():
            if cell not in cells and cells <= blocked:
                return Step(
                    "trial",
                    None,
                    (cell,),
                    f"a queen on row {cell[0] + 1}, column {cell[1] + 1} would leave {name} "
                    f"without a cell",
                )
    return None


def next_step(regions: Regions, queens: Iterable[Cell] = (), removed: Iterable[Cell] = ()) -> (
    Step | None
):
    """The next deduction from a position (queens placed, cells ruled out): a hint. None when
    the rules find nothing (or the grid is full)."""
    board = _Board(regions, queens)
    board.possible -= set(removed)
    return _step(board)


def _step(board: _Board) -> Step | None:
    return (
        _single(board)
        or _group_step(board, "confined", range(1, 2))
        or _group_step(board, "lockout", range(2, MAX_LOCKOUT + 1))
        or _trial(board)
    )


def deduce(regions: Regions) -> Deduction:
    """Solve ``regions`` by the rules alone, weakest rule first at every step."""
    board = _Board(regions)
    steps: list[Step] = []
    while len(board.queens) < board.n:
        if any(not cells for _, cells in board.units()):
            break  # a contradiction: the grid has no solution
        step = _step(board)
        if step is None:
            break
        steps.append(step)
        if step.place is not None:
            board.place(step.place)
        board.possible -= set(step.remove)
    solved = len(board.queens) == board.n
    queens = tuple(board.queens[r] for r in range(board.n)) if solved else None
    return Deduction(steps=tuple(steps), solved=solved, queens=queens)


__all__ = ["LEVELS", "RULES", "Deduction", "Step", "deduce", "next_step"]
