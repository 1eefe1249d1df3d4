"""Solving Loopy by the deductions a person makes, weakest first: difficulty and hints.

Every edge is on the loop (``IN``), off it (``OUT``) or not known yet. The rules, tried in this
order at every step:

1. ``count``: a numbered cell with as many loop sides as its number closes its other sides; one
   whose open sides are exactly the loop sides it still needs uses them all. A dot with two
   loop edges closes its others; a dot with one loop edge and one open edge uses it; a dot
   with no loop edge and one open edge closes it (a loop never ends).
2. ``loop``: an edge that would close a loop while loop edges elsewhere would be left out of it
   is closed.
3. ``short trial``: an edge whose use (or closing) leads, within ``SHORT`` steps of rules 1-2,
   to a contradiction — a cell or dot that cannot be satisfied, or a loop closed too early —
   is the other.
4. ``trial``: the same, however many steps it takes.

Difficulty: ``easy`` (rules 1-2), ``medium`` (3), ``hard`` (4); ``search`` when the rules
cannot finish (the generator keeps none).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ludolab.research.puzzles.deductions import Contradiction, Graded
from ludolab.research.puzzles.loopy.rules import Dot, Edge, all_edges, ends, sides

LEVELS = ("easy", "medium", "hard")
RULES = ("count", "loop", "short trial", "trial")
LEVEL_OF_RULE = {"count": 0, "loop": 0, "short trial": 1, "trial": 2}
SHORT = 6  # steps of rules 1-2 a short trial may take
IN, OUT = 1, 0


@dataclass(frozen=True)
class Step:
    """One deduction: ``rule``, the edges it puts on the loop and takes off, and why."""

    rule: str
    use: tuple[Edge, ...]
    close: tuple[Edge, ...]
    why: str


@dataclass(frozen=True)
class Deduction(Graded):
    LEVELS = LEVELS
    LEVEL_OF_RULE = LEVEL_OF_RULE

    steps: tuple[Step, ...]
    solved: bool
    loop: frozenset[Edge] | None


def _edge_name(e: Edge) -> str:
    (r1, c1), (r2, c2) = ends(e)
    return f"the edge from dot ({r1 + 1}, {c1 + 1}) to ({r2 + 1}, {c2 + 1})"


class _Board:
    def __init__(self, rows: int, cols: int, clues: Sequence[Sequence[int | None]]) -> None:
        self.rows, self.cols = rows, cols
        self.state: dict[Edge, int | None] = dict.fromkeys(all_edges(rows, cols))
        self.at: dict[Dot, list[Edge]] = {}
        for e in self.state:
            for d in ends(e):
                self.at.setdefault(d, []).append(e)
        self.clued = [((r, c), k, sides(r, c)) for r, row in enumerate(clues)
                      for c, k in enumerate(row) if k is not None]

    def copy(self) -> _Board:
        other = _Board.__new__(_Board)
        other.__dict__ = {**self.__dict__, "state": dict(self.state)}
        return other

    def apply(self, step: Step) -> None:
        for e in step.use:
            self.state[e] = IN
        for e in step.close:
            self.state[e] = OUT

    def unknown(self) -> list[Edge]:
        return [e for e, v in self.state.items() if v is None]

    def count_step(self) -> Step | None:
        for (r, c), k, four in self.clued:
            used = sum(self.state[e] == IN for e in four)
            open_ = tuple(e for e in four if self.state[e] is None)
            if used > k or used + len(open_) < k:
                raise Contradiction(f"cell ({r + 1}, {c + 1})")
            if open_ and used == k:
                return Step("count", (), open_,
                            f"The {k} in row {r + 1}, column {c + 1} has all its loop sides.")
            if open_ and used + len(open_) == k:
                return Step("count", open_, (),
                            f"The {k} in row {r + 1}, column {c + 1} needs every side left.")
        for d, edges in self.at.items():
            used = sum(self.state[e] == IN for e in edges)
            open_ = tuple(e for e in edges if self.state[e] is None)
            if used > 2 or (used == 1 and not open_):
                raise Contradiction(f"dot {d}")
            where = f"dot (row {d[0] + 1}, column {d[1] + 1})"
            if open_ and used == 2:
                return Step("count", (), open_, f"The loop already passes {where}.")
            if used == 1 and len(open_) == 1:
                return Step("count", open_, (),
                            f"The loop comes into {where} and has one way on.")
            if used == 0 and len(open_) == 1:
                return Step("count", (), open_, f"A loop cannot end at {where}.")
        return None

    def loop_step(self) -> Step | None:
        piece_of: dict[Dot, int] = {}
        pieces = self._pieces()
        for k, piece in enumerate(pieces):
            for d in piece:
                piece_of[d] = k
        open_ = self.unknown()
        if len(pieces) == 1 and open_ and all(
            sum(self.state[e] == IN for e in self.at[d]) == 2 for d in pieces[0]
        ):
            return Step("loop", (), tuple(open_), "The loop is closed: no other edge is on it.")
        used = sum(v == IN for v in self.state.values())
        for e in open_:
            a, b = ends(e)
            if a in piece_of and piece_of.get(a) == piece_of.get(b):
                piece = piece_of[a]
                size = sum(1 for f, v in self.state.items() if v == IN and
                           piece_of.get(ends(f)[0]) == piece)
                if size < used:
                    return Step("loop", (), (e,),
                                f"Using {_edge_name(e)} would close a loop that leaves other "
                                "loop edges out.")
        return None

    def _pieces(self) -> list[set[Dot]]:
        """The dots of each piece of the loop drawn so far."""
        nbrs: dict[Dot, list[Dot]] = {}
        for e, v in self.state.items():
            if v == IN:
                a, b = ends(e)
                nbrs.setdefault(a, []).append(b)
                nbrs.setdefault(b, []).append(a)
        pieces, seen = [], set()
        for d in nbrs:
            if d in seen:
                continue
            piece, stack = {d}, [d]
            seen.add(d)
            while stack:
                for x in nbrs[stack.pop()]:
                    if x not in seen:
                        seen.add(x)
                        piece.add(x)
                        stack.append(x)
            pieces.append(piece)
        return pieces

    def check_closed(self) -> None:
        """A closed loop with loop edges elsewhere is a contradiction."""
        pieces = self._pieces()
        if len(pieces) < 2:
            return
        for piece in pieces:
            if all(sum(self.state[e] == IN for e in self.at[d]) == 2 for d in piece):
                raise Contradiction("a loop closed early")

    def propagate(self, budget: int | None) -> None:
        while budget is None or budget >= 0:
            self.check_closed()
            step = self.count_step() or self.loop_step()
            if step is None:
                return
            self.apply(step)
            if budget is not None:
                budget -= 1

    def trial_step(self, budget: int | None) -> Step | None:
        for e in self.unknown():
            for guess in (IN, OUT):
                trial = self.copy()
                trial.state[e] = guess
                try:
                    trial.propagate(budget)
                except Contradiction:
                    what = "Using" if guess == IN else "Leaving out"
                    soon = "" if budget is None else f" within {budget} steps"
                    return Step("trial" if budget is None else "short trial",
                                (e,) if guess == OUT else (), (e,) if guess == IN else (),
                                f"{what} {_edge_name(e)} leads{soon} to a contradiction.")
        return None


def _step(board: _Board) -> Step | None:
    board.check_closed()
    return (
        board.count_step()
        or board.loop_step()
        or board.trial_step(SHORT)
        or board.trial_step(None)
    )


def deduce(rows: int, cols: int, clues: Sequence[Sequence[int | None]]) -> Deduction:
    """Solve by the rules alone, weakest rule first at every step."""
    board = _Board(rows, cols, clues)
    steps: list[Step] = []
    try:
        while board.unknown():
            step = _step(board)
            if step is None:
                break
            steps.append(step)
            board.apply(step)
        if board.unknown():
            return Deduction(tuple(steps), False, None)
        board.count_step()
        board.check_closed()
    except Contradiction:
        return Deduction(tuple(steps), False, None)
    loop = frozenset(e for e, v in board.state.items() if v == IN)
    solved = bool(loop) and len(board._pieces()) == 1
    return Deduction(tuple(steps), solved, loop if solved else None)


__all__ = ["LEVELS", "RULES", "Deduction", "Step", "deduce"]
