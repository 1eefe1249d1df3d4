"""Zip as SAT (python-sat): the paths of a puzzle, counted up to a limit.

Variables: e(a, b) for each ordered pair of side-by-side cells without a wall (the path steps
from a to b), and the order encoding of each cell's position on the path, u(c, t) for
t = 1..N-1 ("c comes t-th or later"). Every cell but the last number has one step out, every
cell but 1 one step in; a step from a to b puts b right after a (u(b, t + 1) <-> u(a, t));
1 comes first and the last number last, and each number before the next. Steps raise the
position by one, so there is no loop: the steps form one path through every cell.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations, pairwise

from pysat.formula import IDPool
from pysat.solvers import Solver

from ludolab.research.puzzles.zip.rules import Cell, wall_set


def neighbours(n: int, cell: Cell, blocked: set[frozenset[Cell]]) -> list[Cell]:
    r, c = cell
    out = []
    for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
        if 0 <= rr < n and 0 <= cc < n and frozenset((cell, (rr, cc))) not in blocked:
            out.append((rr, cc))
    return out


def solutions(n: int, numbers: Sequence[Sequence[int]],
              walls: Sequence[Sequence[Sequence[int]]] = (), limit: int = 2) -> list[list[Cell]]:
    """Up to ``limit`` paths (cells in order); ``limit=2``: is the puzzle unique?"""
    blocked = wall_set(walls)
    cells = [(r, c) for r in range(n) for c in range(n)]
    total = len(cells)
    marks = [tuple(c) for c in numbers]
    first, last = marks[0], marks[-1]
    pool = IDPool()

    def u(c: Cell, t: int) -> int:  # position of c >= t, for 1 <= t <= total - 1
        return pool.id(("u", c, t))

    cnf: list[list[int]] = []
    for c in cells:
        for t in range(1, total - 1):
            cnf.append([-u(c, t + 1), u(c, t)])
    step: dict[tuple[Cell, Cell], int] = {}
    for a in cells:
        for b in neighbours(n, a, blocked):
            step[a, b] = pool.id(("e", a, b))
    for c in cells:
        outs = [v for (a, _), v in step.items() if a == c]
        ins = [v for (_, b), v in step.items() if b == c]
        for lits, end in ((outs, last), (ins, first)):
            if c == end:
                cnf += [[-v] for v in lits]
            else:
                cnf.append(lits)
                cnf += [[-x, -y] for x, y in combinations(lits, 2)]
    for (a, b), v in step.items():
        cnf.append([-v, u(b, 1)])  # position(b) >= 1
        for t in range(1, total - 1):
            cnf.append([-v, -u(a, t), u(b, t + 1)])
            cnf.append([-v, u(a, t), -u(b, t + 1)])
        cnf.append([-v, -u(a, total - 1)])  # the last cell has no step after it
    cnf += [[-u(first, 1)], [u(last, total - 1)]]
    for a, b in pairwise(marks):
        cnf.append([u(b, 1)])
        for t in range(1, total - 1):
            cnf.append([-u(a, t), u(b, t + 1)])
        cnf.append([-u(a, total - 1)])
    found: list[list[Cell]] = []
    with Solver(name="minisat22", bootstrap_with=cnf) as s:
        while len(found) < limit and s.solve():
            model = set(v for v in s.get_model() if v > 0)
            nxt = {a: b for (a, b), v in step.items() if v in model}
            path = [first]
            while path[-1] in nxt:
                path.append(nxt[path[-1]])
            found.append(path)
            s.add_clause([-v for v in step.values() if v in model])
    return found


__all__ = ["neighbours", "solutions"]
