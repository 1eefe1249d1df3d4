"""Solving Nonogram by the deductions a person makes, weakest first: difficulty and hints.

A cell is unknown (-1), blank (0) or shaded (1). The rules, tried in this order at every step
(a step is one line, or one cell for ``trial``):

1. ``overlap``: slide the line's blocks as far left as they go and as far right, given the
   cells known: a cell that the same block covers in both is shaded; a cell in the same gap
   (before the first block, between blocks j and j + 1, after the last) in both is blank. The
   classic "simple boxes" and "simple spaces".
2. ``line``: every placement of the line's blocks that agrees with its known cells: a cell
   shaded in all of them is shaded, blank in all of them is blank (complete line solving).
3. ``short trial``: a cell whose shading (or blank) leads, within ``SHORT`` line steps of
   rule 2, to a line with no placement left is the other.
4. ``trial``: the same, however many line steps it takes.

Difficulty: ``easy`` (rules 1-2: every line on its own), ``medium`` (3), ``hard`` (4);
``search`` when the rules cannot finish (the generator repairs or discards such images). On
these grids the overlap of rule 1, applied line after line, almost always does what rule 2
does, so line solving is one level. A puzzle the rules finish has one solution: every step
holds in every solution.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache

from ludolab.research.puzzles.deductions import Contradiction, Graded

LEVELS = ("easy", "medium", "hard")
RULES = ("overlap", "line", "short trial", "trial")
LEVEL_OF_RULE = {"overlap": 0, "line": 0, "short trial": 1, "trial": 2}
SHORT = 10  # line steps a short trial may take
UNKNOWN = -1

Line = tuple[int, ...]


@dataclass(frozen=True)
class Step:
    """One deduction: ``rule``, the cells it shades and blanks ((row, column) each), why."""

    rule: str
    shade: tuple[tuple[int, int], ...]
    blank: tuple[tuple[int, int], ...]
    why: str


@dataclass(frozen=True)
class Deduction(Graded):
    LEVELS = LEVELS
    LEVEL_OF_RULE = LEVEL_OF_RULE

    steps: tuple[Step, ...]
    solved: bool
    grid: tuple[tuple[int, ...], ...] | None  # rows of 0/1 when solved


@lru_cache(maxsize=200_000)
def line_solve(clue: tuple[int, ...], cells: Line) -> Line | None:
    """Rule 2 on one line: the cells every placement agrees on (UNKNOWN elsewhere); None when
    no placement fits the known cells."""
    n, k = len(cells), len(clue)
    feasible = _feasible(clue, cells)
    if not feasible(0, 0):
        return None
    can = [[False, False] for _ in range(n)]  # can be blank, can be shaded
    seen = set()
    stack = [(0, 0)]
    while stack:
        i, j = stack.pop()
        if (i, j) in seen:
            continue
        seen.add((i, j))
        if j == k:
            for c in range(i, n):
                can[c][0] = True
            continue
        for s, nxt in _starts(clue, cells, i, j):
            if feasible(nxt, j + 1):
                for c in range(i, s):
                    can[c][0] = True
                for c in range(s, s + clue[j]):
                    can[c][1] = True
                if s + clue[j] < n:
                    can[s + clue[j]][0] = True
                stack.append((nxt, j + 1))
    return tuple(UNKNOWN if a and b else (1 if b else 0) for a, b in can)


def _starts(clue: tuple[int, ...], cells: Line, i: int, j: int) -> list[tuple[int, int]]:
    """Where block ``j`` may start at or after ``i`` (cells i..start-1 blank), with the
    position after its blank separator."""
    n, length = len(cells), clue[j]
    out = []
    for s in range(i, n - length + 1):
        if all(cells[c] != 0 for c in range(s, s + length)) and (
            s + length == n or cells[s + length] != 1
        ):
            out.append((s, min(n, s + length + 1)))
        if cells[s] == 1:
            break  # a shaded cell cannot be left before the block
    return out


def _feasible(clue: tuple[int, ...], cells: Line):  # -> Callable[[int, int], bool]
    @cache
    def feasible(i: int, j: int) -> bool:
        if j == len(clue):
            return all(cells[c] != 1 for c in range(i, len(cells)))
        return any(feasible(nxt, j + 1) for _, nxt in _starts(clue, cells, i, j))

    return feasible


def _leftmost(clue: tuple[int, ...], cells: Line) -> list[int] | None:
    """The starts of the blocks pushed as far left as the known cells allow."""
    feasible = _feasible(clue, cells)
    if not feasible(0, 0):
        return None
    out, i = [], 0
    for j in range(len(clue)):
        s, nxt = next((s, nxt) for s, nxt in _starts(clue, cells, i, j) if feasible(nxt, j + 1))
        out.append(s)
        i = nxt
    return out


@lru_cache(maxsize=200_000)
def overlap(clue: tuple[int, ...], cells: Line) -> Line | None:
    """Rule 1 on one line (see the module docstring); None when no placement fits."""
    n = len(cells)
    left = _leftmost(clue, cells)
    flipped = _leftmost(clue[::-1], cells[::-1])
    if left is None or flipped is None:
        return None
    right = [n - (s + length) for s, length in zip(flipped[::-1], clue, strict=True)]
    out = list(cells)
    for j, length in enumerate(clue):
        for c in range(right[j], left[j] + length):
            out[c] = 1
    # The gap index of a cell in a placement: blocks that end before it (-1 inside a block).
    def gaps(starts: list[int]) -> list[int]:
        g = [0] * n
        for j, (s, length) in enumerate(zip(starts, clue, strict=True)):
            for c in range(s, s + length):
                g[c] = -1
            for c in range(s + length, n):
                if g[c] != -1:
                    g[c] = j + 1
        return g

    for c, (a, b) in enumerate(zip(gaps(left), gaps(right), strict=True)):
        if a == b and a != -1:
            out[c] = 0
    return tuple(out)


class _Board:
    def __init__(self, rows: Sequence[Sequence[int]], cols: Sequence[Sequence[int]]) -> None:
        self.rows = [tuple(c) for c in rows]
        self.cols = [tuple(c) for c in cols]
        self.grid = [[UNKNOWN] * len(cols) for _ in rows]

    def lines(self):
        for r, clue in enumerate(self.rows):
            yield f"row {r + 1}", clue, [(r, c) for c in range(len(self.cols))]
        for c, clue in enumerate(self.cols):
            yield f"column {c + 1}", clue, [(r, c) for r in range(len(self.rows))]

    def unknown(self) -> int:
        return sum(v == UNKNOWN for row in self.grid for v in row)

    def line_step(self, rule: str) -> Step | None:
        solve = overlap if rule == "overlap" else line_solve
        for name, clue, where in self.lines():
            cells = tuple(self.grid[r][c] for r, c in where)
            if UNKNOWN not in cells:
                continue
            found = solve(clue, cells)
            if found is None:
                raise Contradiction(name)
            changed = [(p, b) for p, a, b in zip(where, cells, found, strict=True) if a != b]
            shade = tuple(p for p, b in changed if b == 1)
            blank = tuple(p for p, b in changed if b == 0)
            if shade or blank:
                how = ("its blocks slid left and right overlap there"
                       if rule == "overlap" else "every placement of its blocks agrees there")
                return Step(rule, shade, blank, f"In {name} ({' '.join(map(str, clue)) or '0'}), "
                            f"{how}.")
        return None

    def apply(self, step: Step) -> None:
        for r, c in step.shade:
            self.grid[r][c] = 1
        for r, c in step.blank:
            self.grid[r][c] = 0

    def propagate(self, budget: int | None = None) -> None:
        """Rule 2 to a fixpoint, or for ``budget`` line steps; Contradiction if a line has no
        placement left."""
        while budget is None or budget > 0:
            step = self.line_step("line")
            if step is None:
                return
            self.apply(step)
            if budget is not None:
                budget -= 1

    def copy(self) -> _Board:
        other = _Board.__new__(_Board)
        other.rows, other.cols = self.rows, self.cols
        other.grid = [row[:] for row in self.grid]
        return other

    def trial_step(self, budget: int | None) -> Step | None:
        for r, row in enumerate(self.grid):
            for c, v in enumerate(row):
                if v != UNKNOWN:
                    continue
                for guess in (1, 0):
                    trial = self.copy()
                    trial.grid[r][c] = guess
                    try:
                        trial.propagate(budget)
                    except Contradiction:
                        what = "shaded" if guess else "blank"
                        cell = ((r, c),)
                        rule = "trial" if budget is None else "short trial"
                        soon = "" if budget is None else f" within {budget} line steps"
                        return Step(rule, cell if not guess else (), cell if guess else (),
                                    f"Row {r + 1}, column {c + 1} {what} would leave, "
                                    f"line by line{soon}, a line with no way to place its "
                                    "blocks.")
        return None


def _step(board: _Board) -> Step | None:
    return (
        board.line_step("overlap")
        or board.line_step("line")
        or board.trial_step(SHORT)
        or board.trial_step(None)
    )


def deduce(rows: Sequence[Sequence[int]], cols: Sequence[Sequence[int]]) -> Deduction:
    """Solve by the rules alone, weakest rule first at every step."""
    board = _Board(rows, cols)
    steps: list[Step] = []
    try:
        while board.unknown():
            step = _step(board)
            if step is None:
                break
            steps.append(step)
            board.apply(step)
    except Contradiction:
        return Deduction(tuple(steps), False, None)
    solved = not board.unknown()
    grid = tuple(tuple(row) for row in board.grid) if solved else None
    return Deduction(tuple(steps), solved, grid)


__all__ = ["LEVELS", "RULES", "Deduction", "Step", "deduce", "line_solve", "overlap"]
