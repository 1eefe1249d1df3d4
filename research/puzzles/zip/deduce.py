"""Solving Zip by the deductions a person makes, weakest first: difficulty and hints.

The state is, for every link between side-by-side cells without a wall, whether the path uses
it (``IN``), does not (``OUT``), or is not known yet. The number 1 and the last number have one
link on the path, every other cell two. The rules, tried in this order at every step:

1. ``degree``: a cell whose open links are exactly the links it still needs uses them all; a
   cell that has all its links closes the rest.
2. ``pieces``: a link that would join the two ends of one piece of path (a loop), join 1 to
   the last number before every cell is on the path, or put a piece's numbers out of order
   (they must run consecutively, 3 4 5, along any piece) is closed.
3. ``short trial``: a link whose use (or closing) leads, within ``SHORT`` steps of rules 1-2,
   to a contradiction — a cell without enough open links, cells cut off from the rest, a loop
   or numbers out of order — is the other.
4. ``trial``: the same, however many steps it takes.

Difficulty: ``easy`` (rules 1-2), ``medium`` (3), ``hard`` (4); ``search`` when the rules
cannot finish (the generator keeps none).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

from ludolab.research.puzzles.deductions import Contradiction, Graded
from ludolab.research.puzzles.zip.rules import Cell, wall_set
from ludolab.research.puzzles.zip.solve import neighbours

LEVELS = ("easy", "medium", "hard")
RULES = ("degree", "pieces", "short trial", "trial")
LEVEL_OF_RULE = {"degree": 0, "pieces": 0, "short trial": 1, "trial": 2}
SHORT = 8  # steps of rules 1-2 a short trial may take
IN, OUT = 1, 0

Link = tuple[Cell, Cell]  # sorted pair


@dataclass(frozen=True)
class Step:
    """One deduction: ``rule``, the links it puts on the path and takes off, and why."""

    rule: str
    use: tuple[Link, ...]
    close: tuple[Link, ...]
    why: str


@dataclass(frozen=True)
class Deduction(Graded):
    LEVELS = LEVELS
    LEVEL_OF_RULE = LEVEL_OF_RULE

    steps: tuple[Step, ...]
    solved: bool
    path: tuple[Cell, ...] | None


def _name(cell: Cell) -> str:
    return f"row {cell[0] + 1}, column {cell[1] + 1}"


class _Board:
    def __init__(self, n: int, numbers: Sequence[Sequence[int]],
                 walls: Sequence[Sequence[Sequence[int]]]) -> None:
        self.n = n
        blocked = wall_set(walls)
        self.cells = [(r, c) for r in range(n) for c in range(n)]
        self.links: dict[Cell, list[Link]] = {
            a: [tuple(sorted((a, b))) for b in neighbours(n, a, blocked)] for a in self.cells
        }
        self.state: dict[Link, int | None] = {
            link: None for links in self.links.values() for link in links
        }
        self.number = {tuple(c): k + 1 for k, c in enumerate(numbers)}
        ends = (tuple(numbers[0]), tuple(numbers[-1]))
        self.need = {c: 1 if c in ends else 2 for c in self.cells}

    def copy(self) -> _Board:
        other = _Board.__new__(_Board)
        other.__dict__ = {**self.__dict__, "state": dict(self.state)}
        return other

    def apply(self, step: Step) -> None:
        for link in step.use:
            self.state[link] = IN
        for link in step.close:
            self.state[link] = OUT

    def unknown(self) -> list[Link]:
        return [link for link, v in self.state.items() if v is None]

    # -- rule 1 -----------------------------------------------------------------------------
    def degree_step(self) -> Step | None:
        for c in self.cells:
            links = self.links[c]
            used = sum(self.state[x] == IN for x in links)
            open_ = [x for x in links if self.state[x] is None]
            need = self.need[c]
            if used > need or used + len(open_) < need:
                raise Contradiction(f"{_name(c)} cannot have {need} links")
            if open_ and used == need:
                return Step("degree", (), tuple(open_),
                            f"{_name(c)} already has its {need} link{'s' * (need > 1)}.")
            if open_ and used + len(open_) == need:
                return Step("degree", tuple(open_), (),
                            f"{_name(c)} needs {need} link{'s' * (need > 1)} and has only "
                            "these left.")
        return None

    # -- pieces -----------------------------------------------------------------------------
    def pieces(self) -> dict[Cell, list[Cell]]:
        """Each cell's piece of path (the cells in order along it)."""
        adjacent: dict[Cell, list[Cell]] = {c: [] for c in self.cells}
        for (a, b), v in self.state.items():
            if v == IN:
                adjacent[a].append(b)
                adjacent[b].append(a)
        piece_of: dict[Cell, list[Cell]] = {}
        for c in self.cells:
            if c in piece_of or len(adjacent[c]) > 1:
                continue
            chain, prev = [c], None
            while True:
                nxt = [x for x in adjacent[chain[-1]] if x != prev]
                if not nxt:
                    break
                prev = chain[-1]
                chain.append(nxt[0])
            for x in chain:
                piece_of[x] = chain
        if len(piece_of) < len(self.cells):
            raise Contradiction("a loop")
        return piece_of

    def _numbers_fit(self, chain: list[Cell]) -> bool:
        seq = [self.number[c] for c in chain if c in self.number]
        if len(seq) < 2:
            return True
        diffs = {b - a for a, b in pairwise(seq)}
        return diffs in ({1}, {-1})

    def pieces_step(self) -> Step | None:
        piece_of = self.pieces()
        last = len(self.number)
        for c in self.cells:
            if not self._numbers_fit(piece_of[c]):
                raise Contradiction("numbers out of order")
        for link in self.unknown():
            a, b = link
            pa, pb = piece_of[a], piece_of[b]
            if pa is pb:
                return Step("pieces", (), (link,),
                            f"Linking {_name(a)} and {_name(b)} would close a loop.")
            if a not in (pa[0], pa[-1]) or b not in (pb[0], pb[-1]):
                continue  # a middle cell: rule 1 closes such links
            joined = (pa if pa[-1] == a else pa[::-1]) + (pb if pb[0] == b else pb[::-1])
            if not self._numbers_fit(joined):
                return Step("pieces", (), (link,),
                            f"Linking {_name(a)} and {_name(b)} would pass the numbers out of "
                            "order.")
            marks = {self.number.get(x) for x in (joined[0], joined[-1])}
            if {1, last} <= marks and len(joined) < len(self.cells):
                return Step("pieces", (), (link,),
                            f"Linking {_name(a)} and {_name(b)} would join 1 to {last} before "
                            "the path has passed every cell.")
        return None

    def connected(self) -> bool:
        """Every cell reachable from 1 over links in use or open."""
        start = next(c for c, k in self.number.items() if k == 1)
        seen, stack = {start}, [start]
        while stack:
            a = stack.pop()
            for link in self.links[a]:
                if self.state[link] == OUT:
                    continue
                b = link[0] if link[1] == a else link[1]
                if b not in seen:
                    seen.add(b)
                    stack.append(b)
        return len(seen) == len(self.cells)

    def propagate(self, budget: int | None = None) -> None:
        """Rules 1-2 to a fixpoint, or for ``budget`` steps; Contradiction when the position
        cannot be finished."""
        while budget is None or budget >= 0:
            if not self.connected():
                raise Contradiction("cells cut off")
            step = self.degree_step() or self.pieces_step()
            if step is None:
                return
            self.apply(step)
            if budget is not None:
                budget -= 1

    def trial_step(self, budget: int | None) -> Step | None:
        for link in self.unknown():
            for guess in (IN, OUT):
                trial = self.copy()
                trial.state[link] = guess
                try:
                    trial.propagate(budget)
                except Contradiction:
                    a, b = link
                    what = "using" if guess == IN else "not using"
                    soon = "" if budget is None else f" within {budget} steps"
                    return Step("trial" if budget is None else "short trial",
                                (link,) if guess == OUT else (),
                                (link,) if guess == IN else (),
                                f"{what.capitalize()} the link between {_name(a)} and "
                                f"{_name(b)} leads{soon} to a contradiction.")
        return None

    def path(self) -> tuple[Cell, ...]:
        piece = self.pieces()[next(c for c, k in self.number.items() if k == 1)]
        return tuple(piece if self.number.get(piece[0]) == 1 else piece[::-1])


def _step(board: _Board) -> Step | None:
    if not board.connected():
        raise Contradiction("cells cut off")
    return (
        board.degree_step()
        or board.pieces_step()
        or board.trial_step(SHORT)
        or board.trial_step(None)
    )


def deduce(n: int, numbers: Sequence[Sequence[int]],
           walls: Sequence[Sequence[Sequence[int]]] = ()) -> Deduction:
    """Solve by the rules alone, weakest rule first at every step."""
    board = _Board(n, numbers, walls)
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
        board.degree_step()  # every cell's count checked once more
        path = board.path()
    except Contradiction:
        return Deduction(tuple(steps), False, None)
    return Deduction(tuple(steps), len(path) == n * n, path if len(path) == n * n else None)


__all__ = ["LEVELS", "RULES", "Deduction", "Link", "Step", "deduce"]
