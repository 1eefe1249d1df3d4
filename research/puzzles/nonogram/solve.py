"""Nonogram as SAT (python-sat): the solutions of a puzzle, counted up to a limit.

Variables: x(r, c) (the cell is shaded) and, per line and block, s(line, block, start) (the
block starts there). Each block starts exactly once; block j at s makes block j + 1 start at
s + len_j + 1 or later (a blank between); a block covers its cells, and a shaded cell is
covered by some block of its row and of its column. That the rest of a line is blank follows.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from pysat.formula import IDPool
from pysat.solvers import Solver

from ludolab.research.puzzles.nonogram.rules import Clue


def _line(cnf: list[list[int]], pool: IDPool, key: object, clue: Clue, cells: list[int]) -> None:
    n = len(cells)
    starts: list[dict[int, int]] = []
    lo = 0
    for j, length in enumerate(clue):
        hi = n - (sum(clue[j:]) + len(clue) - j - 1)  # the latest start leaving room after it
        starts.append({s: pool.id((key, j, s)) for s in range(lo, hi + 1)})
        lo += length + 1
    covering: list[list[int]] = [[] for _ in range(n)]
    for j, options in enumerate(starts):
        lits = list(options.values())
        cnf.append(lits)
        cnf += [[-a, -b] for a, b in combinations(lits, 2)]
        for s, v in options.items():
            for c in range(s, s + clue[j]):
                cnf.append([-v, cells[c]])
                covering[c].append(v)
            if j + 1 < len(starts):
                cnf.append([-v, *(w for t, w in starts[j + 1].items() if t >= s + clue[j] + 1)])
    for c in range(n):
        cnf.append([-cells[c], *covering[c]])


def solutions(rows: Sequence[Clue], cols: Sequence[Clue], limit: int = 2) -> list[list[list[int]]]:
    """Up to ``limit`` solutions (rows of 0/1); ``limit=2``: is the puzzle unique?"""
    pool = IDPool()
    x = [[pool.id(("x", r, c)) for c in range(len(cols))] for r in range(len(rows))]
    cnf: list[list[int]] = []
    for r, clue in enumerate(rows):
        _line(cnf, pool, ("row", r), clue, x[r])
    for c, clue in enumerate(cols):
        _line(cnf, pool, ("col", c), clue, [x[r][c] for r in range(len(rows))])
    found: list[list[list[int]]] = []
    with Solver(name="minisat22", bootstrap_with=cnf) as s:
        while len(found) < limit and s.solve():
            model = set(v for v in s.get_model() if v > 0)
            grid = [[int(v in model) for v in row] for row in x]
            found.append(grid)
            s.add_clause([-v if v in model else v for row in x for v in row])
    return found


__all__ = ["solutions"]
