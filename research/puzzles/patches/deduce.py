"""Solving Patches by the deductions a person makes, weakest first: difficulty and hints.

Each clue keeps the rectangles it may still take (its *candidates*: inside the grid, around its
cell, of its shape and area, over no other clue and no cell already given to another clue).
The rules, tried in this order at every step:

1. ``one fit``: a clue with one candidate left takes it; a cell that every candidate of a clue
   covers belongs to that clue (the other clues' candidates over it go).
2. ``one reach``: a cell that only one clue's candidates reach belongs to that clue (its
   candidates that miss the cell go).
3. ``short trial``: a candidate that, taken, leaves (within ``SHORT`` steps of rules 1-2) some
   clue without a candidate or some cell out of every clue's reach, goes.
4. ``trial``: the same, however many steps it takes.

Difficulty: ``easy`` (rules 1-2), ``medium`` (3), ``hard`` (4); ``search`` when the rules
cannot finish (the generator keeps none).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ludolab.research.puzzles.deductions import Contradiction, Graded
from ludolab.research.puzzles.patches.rules import Rect
from ludolab.research.puzzles.patches.solve import candidates, cells_of

LEVELS = ("easy", "medium", "hard")
RULES = ("one fit", "one reach", "short trial", "trial")
LEVEL_OF_RULE = {"one fit": 0, "one reach": 0, "short trial": 1, "trial": 2}
SHORT = 2  # steps of rules 1-2 a short trial may take

Cell = tuple[int, int]


@dataclass(frozen=True)
class Step:
    """One deduction: ``rule``, the cells it gives to a clue (``give``: (cell, clue) pairs),
    the candidates it drops ((clue, rectangle) pairs), and why."""

    rule: str
    give: tuple[tuple[Cell, int], ...]
    drop: tuple[tuple[int, Rect], ...]
    why: str


@dataclass(frozen=True)
class Deduction(Graded):
    LEVELS = LEVELS
    LEVEL_OF_RULE = LEVEL_OF_RULE

    steps: tuple[Step, ...]
    solved: bool
    patches: tuple[Rect, ...] | None


def _cell(cell: Cell) -> str:
    return f"row {cell[0] + 1}, column {cell[1] + 1}"


class _Board:
    def __init__(self, n: int, clues: Sequence[Mapping[str, Any]]) -> None:
        self.n = n
        self.clues = clues
        self.options = [set(rects) for rects in candidates(n, clues)]
        self.owner: dict[Cell, int] = {tuple(c["cell"]): i for i, c in enumerate(clues)}

    def copy(self) -> _Board:
        other = _Board.__new__(_Board)
        other.n, other.clues = self.n, self.clues
        other.options = [set(o) for o in self.options]
        other.owner = dict(self.owner)
        return other

    def name(self, i: int) -> str:
        clue = self.clues[i]
        area = "" if clue.get("area") is None else f" {clue['area']}"
        return f"the {clue['shape']}{area} clue at {_cell(tuple(clue['cell']))}"

    def apply(self, step: Step) -> None:
        for i, rect in step.drop:
            self.options[i].discard(rect)
        for cell, i in step.give:
            self.owner[cell] = i
        # Candidates over a cell given to another clue go.
        for i, rects in enumerate(self.options):
            self.options[i] = {
                rect for rect in rects
                if all(self.owner.get(cell, i) == i for cell in cells_of(rect))
            }

    def check(self) -> None:
        reach: set[Cell] = set()
        for i, rects in enumerate(self.options):
            if not rects:
                raise Contradiction(f"clue {i} has no rectangle left")
            for rect in rects:
                reach.update(cells_of(rect))
        if len(reach) < self.n * self.n:
            raise Contradiction("a cell out of reach")

    def unsolved(self) -> bool:
        return any(len(rects) > 1 for rects in self.options) or len(self.owner) < self.n ** 2

    def fit_step(self) -> Step | None:
        for i, rects in enumerate(self.options):
            common = set.intersection(*(set(cells_of(r)) for r in rects))
            new = tuple(sorted((cell, i) for cell in common if cell not in self.owner))
            if new:
                if len(rects) == 1:
                    why = f"Only one rectangle fits {self.name(i)}."
                else:
                    why = f"Every rectangle that fits {self.name(i)} covers these cells."
                return Step("one fit", new, (), why)
        return None

    def reach_step(self) -> Step | None:
        reach: dict[Cell, set[int]] = {}
        for i, rects in enumerate(self.options):
            for rect in rects:
                for cell in cells_of(rect):
                    reach.setdefault(cell, set()).add(i)
        for cell, who in sorted(reach.items()):
            if len(who) == 1 and cell not in self.owner:
                (i,) = who
                drop = tuple((i, r) for r in sorted(self.options[i]) if cell not in cells_of(r))
                return Step("one reach", ((cell, i),), drop,
                            f"Only {self.name(i)} can reach {_cell(cell)}.")
        return None

    def propagate(self, budget: int | None) -> None:
        while budget is None or budget >= 0:
            self.check()
            step = self.fit_step() or self.reach_step()
            if step is None:
                return
            self.apply(step)
            if budget is not None:
                budget -= 1

    def trial_step(self, budget: int | None) -> Step | None:
        for i, rects in enumerate(self.options):
            if len(rects) < 2:
                continue
            for rect in sorted(rects):
                trial = self.copy()
                trial.options[i] = {rect}
                trial.apply(Step("given", tuple((cell, i) for cell in cells_of(rect)), (), ""))
                try:
                    trial.propagate(budget)
                except Contradiction:
                    top, left, bottom, right = rect
                    soon = "" if budget is None else f" within {budget} steps"
                    return Step("trial" if budget is None else "short trial", (), ((i, rect),),
                                f"Giving {self.name(i)} rows {top + 1}-{bottom + 1}, columns "
                                f"{left + 1}-{right + 1} leads{soon} to a contradiction.")
        return None


def _step(board: _Board) -> Step | None:
    board.check()
    return (
        board.fit_step()
        or board.reach_step()
        or board.trial_step(SHORT)
        or board.trial_step(None)
    )


def deduce(n: int, clues: Sequence[Mapping[str, Any]]) -> Deduction:
    """Solve by the rules alone, weakest rule first at every step."""
    board = _Board(n, clues)
    steps: list[Step] = []
    try:
        while board.unsolved():
            step = _step(board)
            if step is None:
                break
            steps.append(step)
            board.apply(step)
        board.check()
    except Contradiction:
        return Deduction(tuple(steps), False, None)
    if board.unsolved():
        return Deduction(tuple(steps), False, None)
    return Deduction(tuple(steps), True, tuple(next(iter(r)) for r in board.options))


__all__ = ["LEVELS", "RULES", "Deduction", "Step", "deduce"]
