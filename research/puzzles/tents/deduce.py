"""Solving Tents by deductions, weakest first: the difficulty of a puzzle and its hints.

Every cell without a tree is a tent, grass, or not yet known. A tent turns its eight
neighbours to grass. The rules, tried in this order at every step:

1. ``no-tree``: a cell with no tree beside it is grass.
2. ``line``: a row or column with all its tents placed is grass elsewhere; one whose unknown
   cells are exactly the tents it still needs gets them.
3. ``lone-tree``: a tree with no tent beside it and one unknown cell beside it gets its tent
   there.
4. ``capacity``: in a row or column, a run of L unknown cells side by side holds at most
   ceil(L / 2) tents; when the runs' room is exactly the tents still needed, each run of odd
   length has its tents on its first, third, ... cells.
5. ``trial``: a cell whose tent (or grass) leads, by rules 1-4, to a contradiction — a line
   over or under its count, a tree with no cell left for its tent, or trees that cannot all
   be paired with tents or unknown cells beside them — is the other.

Difficulty: ``easy`` (rules 1-3), ``medium`` (4), ``hard`` (5); ``search`` when the rules
cannot finish (the generator keeps none).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ludolab.research.puzzles.deductions import Contradiction, Graded
from ludolab.research.puzzles.tents.rules import Cell, orthogonal, pairing_size

RULES = ("no-tree", "line", "lone-tree", "capacity", "trial")
LEVEL_OF_RULE = {"no-tree": 0, "line": 0, "lone-tree": 0, "capacity": 1, "trial": 2}
LEVELS = ("easy", "medium", "hard")
TENT, GRASS = 1, 0


@dataclass(frozen=True)
class Step:
    """One deduction: ``rule``, the cells it makes tents and grass, and why."""

    rule: str
    tents: tuple[Cell, ...]
    grass: tuple[Cell, ...]
    why: str


@dataclass(frozen=True)
class Deduction(Graded):
    LEVELS = LEVELS
    LEVEL_OF_RULE = LEVEL_OF_RULE

    steps: tuple[Step, ...]
    solved: bool
    tents: tuple[Cell, ...] | None


class _Board:
    def __init__(
        self,
        rows: int,
        cols: int,
        trees: Sequence[Cell],
        row_counts: Sequence[int],
        col_counts: Sequence[int],
    ) -> None:
        self.rows, self.cols = rows, cols
        self.trees = sorted(map(tuple, trees))  # type: ignore[arg-type]
        self.tree_set = set(self.trees)
        self.row_counts, self.col_counts = list(row_counts), list(col_counts)
        self.state: dict[Cell, int | None] = {
            (r, c): None for r in range(rows) for c in range(cols) if (r, c) not in self.tree_set
        }

    def copy(self) -> _Board:
        other = object.__new__(_Board)
        other.__dict__ = {**self.__dict__, "state": dict(self.state)}
        return other

    def unknown(self) -> list[Cell]:
        return [cell for cell, v in self.state.items() if v is None]

    def lines(self) -> list[tuple[str, list[Cell], int]]:
        out = []
        for r in range(self.rows):
            cells = [(r, c) for c in range(self.cols) if (r, c) in self.state]
            out.append((f"row {r + 1}", cells, self.row_counts[r]))
        for c in range(self.cols):
            cells = [(r, c) for r in range(self.rows) if (r, c) in self.state]
            out.append((f"column {c + 1}", cells, self.col_counts[c]))
        return out

    def apply(self, step: Step) -> None:
        for cell in step.grass:
            if self.state[cell] == TENT:
                raise Contradiction
            self.state[cell] = GRASS
        for cell in step.tents:
            if self.state[cell] == GRASS:
                raise Contradiction
            self.state[cell] = TENT
            r, c = cell
            for dr in (-1, 0, 1):
                for dc in (-1, 0, 1):
                    nb = (r + dr, c + dc)
                    if (dr or dc) and nb in self.state:
                        if self.state[nb] == TENT:
                            raise Contradiction
                        self.state[nb] = GRASS

    def check(self) -> None:
        """Raise Contradiction if the position cannot be completed (see the module doc)."""
        for _, cells, k in self.lines():
            tents = sum(self.state[c] == TENT for c in cells)
            open_ = sum(self.state[c] is None for c in cells)
            if tents > k or tents + open_ < k:
                raise Contradiction
        possible = [cell for cell, v in self.state.items() if v != GRASS]
        for tree in self.trees:
            if not any(nb in self.state and self.state[nb] != GRASS
                       for nb in orthogonal(tree, self.rows, self.cols)):
                raise Contradiction
        if pairing_size(self.trees, possible, self.rows, self.cols) < len(self.trees):
            raise Contradiction


def _runs(cells: list[Cell], state: dict[Cell, int | None], axis: int) -> list[list[Cell]]:
    runs: list[list[Cell]] = []
    for cell in cells:
        if state[cell] is not None:
            continue
        if runs and runs[-1][-1][1 - axis] == cell[1 - axis] - 1:
            runs[-1].append(cell)
        else:
            runs.append([cell])
    return runs


def _easy(board: _Board) -> Step | None:
    rows, cols = board.rows, board.cols
    lonely = [
        cell for cell in board.unknown()
        if not any(nb in board.tree_set for nb in orthogonal(cell, rows, cols))
    ]
    if lonely:
        return Step("no-tree", (), tuple(lonely), "no tree beside these cells")
    for name, cells, k in board.lines():
        tents = sum(board.state[c] == TENT for c in cells)
        open_ = [c for c in cells if board.state[c] is None]
        if open_ and tents == k:
            return Step("line", (), tuple(open_), f"{name} has its {k} tents")
        if open_ and tents + len(open_) == k:
            return Step("line", tuple(open_), (), f"{name} needs all its {len(open_)} open cells")
    for tree in board.trees:
        around = [nb for nb in orthogonal(tree, rows, cols) if nb in board.state]
        if any(board.state[nb] == TENT for nb in around):
            continue
        open_ = [nb for nb in around if board.state[nb] is None]
        if len(open_) == 1:
            return Step(
                "lone-tree", tuple(open_), (), f"the tree at {tree} has one cell left for its tent"
            )
    return None


def _capacity(board: _Board) -> Step | None:
    for i, (name, cells, k) in enumerate(board.lines()):
        axis = 0 if i < board.rows else 1  # rows run along columns (axis 1 varies)
        need = k - sum(board.state[c] == TENT for c in cells)
        runs = _runs(cells, board.state, axis)
        room = sum((len(run) + 1) // 2 for run in runs)
        if need <= 0 or room != need:
            continue
        forced = tuple(cell for run in runs if len(run) % 2 for cell in run[::2])
        if forced:
            return Step("capacity", forced, (), f"{name}'s open runs have room for exactly {need}")
    return None


def _simple(board: _Board) -> Step | None:
    return _easy(board) or _capacity(board)


def _propagate(board: _Board) -> None:
    """Rules 1-4 to a fixpoint; Contradiction if the position fails."""
    while True:
        board.check()
        step = _simple(board)
        if step is None:
            return
        board.apply(step)


def _trial(board: _Board) -> Step | None:
    for cell in board.unknown():
        for value, other in ((TENT, GRASS), (GRASS, TENT)):
            trial = board.copy()
            guess = ((cell,), ()) if value == TENT else ((), (cell,))
            try:
                trial.apply(Step("trial", *guess, ""))
                _propagate(trial)
            except Contradiction:
                what = "a tent" if value == TENT else "grass"
                return Step(
                    "trial",
                    (cell,) if other == TENT else (),
                    (cell,) if other == GRASS else (),
                    f"{what} at {cell} leads to a contradiction",
                )
    return None


def _step(board: _Board) -> Step | None:
    return _simple(board) or _trial(board)


def next_step(
    rows: int,
    cols: int,
    trees: Sequence[Cell],
    row_counts: Sequence[int],
    col_counts: Sequence[int],
    tents: Sequence[Cell] = (),
    grass: Sequence[Cell] = (),
) -> Step | None:
    """The next deduction from a position (tents placed, cells marked grass): a hint. None
    when the rules find nothing, or the position is already wrong."""
    board = _Board(rows, cols, trees, row_counts, col_counts)
    try:
        board.apply(Step("given", tuple(map(tuple, tents)), tuple(map(tuple, grass)), ""))
    except Contradiction:
        return None
    return _step(board)


def deduce(
    rows: int,
    cols: int,
    trees: Sequence[Cell],
    row_counts: Sequence[int],
    col_counts: Sequence[int],
) -> Deduction:
    """Solve by the rules alone, weakest rule first at every step."""
    board = _Board(rows, cols, trees, row_counts, col_counts)
    steps: list[Step] = []
    try:
        while board.unknown():
            board.check()
            step = _step(board)
            if step is None:
                break
            steps.append(step)
            board.apply(step)
        board.check()
    except Contradiction:
        return Deduction(tuple(steps), False, None)
    solved = not board.unknown()
    tents = tuple(sorted(c for c, v in board.state.items() if v == TENT)) if solved else None
    return Deduction(tuple(steps), solved, tents)


__all__ = ["LEVELS", "RULES", "Deduction", "Step", "deduce", "next_step"]
