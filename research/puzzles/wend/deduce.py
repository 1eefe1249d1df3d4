"""Solving Wend by the deductions a person makes, weakest first: difficulty and hints.

The state is the placements still possible (:func:`.solve.placements`: a path spelling a word
of a listed length) and how many words of each length are still to find. The rules, tried in
this order at every step:

1. ``one way``: a cell that only one possible placement covers belongs to that word: it is
   taken, the placements over its cells go, and a length with all its words found takes no
   more.
2. ``trial``: a placement that, taken, leaves (by rule 1) a cell no placement covers, or a
   length with fewer placements than words still to find, goes.

Difficulty: ``easy`` (rule 1), ``hard`` (2); ``search`` when the rules cannot finish (the
generator keeps none). Two levels, not three: on the grids made here every trial that fails
fails at once, so a short and a long trial (as the other games tell apart) are one rule.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from ludolab.research.puzzles.deductions import Contradiction, Graded
from ludolab.research.puzzles.wend.solve import Path, placements

LEVELS = ("easy", "hard")
RULES = ("one way", "trial")
LEVEL_OF_RULE = {"one way": 0, "trial": 1}


@dataclass(frozen=True)
class Step:
    """One deduction: ``rule``, the placement it takes (or None) and those it drops, and why."""

    rule: str
    take: Path | None
    drop: tuple[Path, ...]
    why: str


@dataclass(frozen=True)
class Deduction(Graded):
    LEVELS = LEVELS
    LEVEL_OF_RULE = LEVEL_OF_RULE

    steps: tuple[Step, ...]
    solved: bool
    paths: tuple[Path, ...] | None  # sorted, when solved


class _Board:
    def __init__(self, options: list[Path], lengths: Sequence[int], cells: int,
                 letters: Sequence[Sequence[str]]) -> None:
        self.options = set(options)
        self.need = Counter(lengths)
        self.taken: list[Path] = []
        self.free = cells
        self.letters = letters

    def copy(self) -> _Board:
        other = _Board.__new__(_Board)
        other.options, other.need = set(self.options), Counter(self.need)
        other.taken, other.free, other.letters = list(self.taken), self.free, self.letters
        return other

    def word(self, path: Path) -> str:
        return "".join(self.letters[r][c] for r, c in path).upper()

    def apply(self, step: Step) -> None:
        self.options -= set(step.drop)
        if step.take is not None:
            cells = set(step.take)
            self.taken.append(step.take)
            self.free -= len(cells)
            self.need[len(step.take)] -= 1
            self.options = {
                p for p in self.options
                if not cells & set(p) and self.need[len(p)] > 0
            }

    def check(self) -> None:
        covered = {c for p in self.options for c in p}
        if len(covered) < self.free:
            raise Contradiction("a cell out of reach")
        have = Counter(len(p) for p in self.options)
        if any(have[k] < v for k, v in self.need.items()):
            raise Contradiction("too few words of a length")

    def one_way(self) -> Step | None:
        cover: dict[tuple[int, int], list[Path]] = {}
        for p in self.options:
            for c in p:
                cover.setdefault(c, []).append(p)
        for cell, paths in sorted(cover.items()):
            if len(paths) == 1:
                (p,) = paths
                return Step("one way", p, (), f"Only {self.word(p)} can take the letter in row "
                            f"{cell[0] + 1}, column {cell[1] + 1}.")
        return None

    def propagate(self) -> None:
        while True:
            self.check()
            step = self.one_way() if self.options else None
            if step is None:
                return
            self.apply(step)

    def trial(self) -> Step | None:
        for p in sorted(self.options):
            trial = self.copy()
            trial.apply(Step("given", p, (), ""))
            try:
                trial.propagate()
            except Contradiction:
                return Step("trial", None, (p,), f"{self.word(p)} there leads to a "
                            "contradiction.")
        return None


def deduce(game: str, letters: Sequence[Sequence[str]], lengths: Sequence[int]) -> Deduction:
    """Solve by the rules alone, weakest rule first at every step."""
    rows, cols = len(letters), len(letters[0])
    board = _Board(placements(game, letters, lengths), lengths, rows * cols, letters)
    steps: list[Step] = []
    try:
        while board.free:
            board.check()
            step = board.one_way() or board.trial()
            if step is None:
                break
            steps.append(step)
            board.apply(step)
    except Contradiction:
        return Deduction(tuple(steps), False, None)
    solved = board.free == 0 and not +board.need
    return Deduction(tuple(steps), solved, tuple(sorted(board.taken)) if solved else None)


__all__ = ["LEVELS", "RULES", "Deduction", "Step", "deduce"]
