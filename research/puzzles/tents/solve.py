"""Tents as SAT (python-sat): the tent placements of a puzzle, counted up to a limit.

Variables: t(cell) for every cell without a tree (a tent there) and p(tree, cell) for every
tree and free cell beside it (that tent is the tree's own). Every tree has exactly one own
tent; a cell holds a tent exactly when it is some tree's own tent, and is own to at most one
tree; no two tents on neighbouring cells (diagonals included); each row and column holds its
count (pysat's cardinality encodings). Solutions are told apart by their tents only: two
pairings of the same tents are one answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from pysat.card import CardEnc, EncType
from pysat.formula import IDPool
from pysat.solvers import Solver

from ludolab.research.puzzles.tents.rules import Cell, orthogonal


def solutions(
    rows: int,
    cols: int,
    trees: Sequence[Cell],
    row_counts: Sequence[int],
    col_counts: Sequence[int],
    limit: int = 2,
) -> list[list[Cell]]:
    """Up to ``limit`` tent placements (each sorted); ``limit=2``: is the puzzle unique?"""
    tree_set = set(map(tuple, trees))
    free = [(r, c) for r in range(rows) for c in range(cols) if (r, c) not in tree_set]
    pool = IDPool()
    t = {cell: pool.id(("t", cell)) for cell in free}
    cnf: list[list[int]] = []
    owners: dict[Cell, list[int]] = {cell: [] for cell in free}
    for tree in sorted(tree_set):
        mine = []
        for cell in orthogonal(tree, rows, cols):
            if cell in t:
                v = pool.id(("p", tree, cell))
                mine.append(v)
                owners[cell].append(v)
                cnf.append([-v, t[cell]])
        if not mine:
            return []
        cnf.append(mine)
        cnf += [[-a, -b] for a, b in combinations(mine, 2)]
    for cell, vs in owners.items():
        cnf.append([-t[cell], *vs])  # a tent is someone's own
        cnf += [[-a, -b] for a, b in combinations(vs, 2)]
    for (r, c), v in t.items():
        for dr, dc in ((0, 1), (1, -1), (1, 0), (1, 1)):
            nb = (r + dr, c + dc)
            if nb in t:
                cnf.append([-v, -t[nb]])
    lines = [[t[(r, c)] for c in range(cols) if (r, c) in t] for r in range(rows)]
    lines += [[t[(r, c)] for r in range(rows) if (r, c) in t] for c in range(cols)]
    for lits, k in zip(lines, [*row_counts, *col_counts], strict=True):
        if k > len(lits):
            return []
        if not lits:
            continue
        enc = CardEnc.equals(lits=lits, bound=k, vpool=pool, encoding=EncType.seqcounter)
        cnf += enc.clauses
    found: list[list[Cell]] = []
    with Solver(name="minisat22", bootstrap_with=cnf) as s:
        while len(found) < limit and s.solve():
            model = set(v for v in s.get_model() if v > 0)
            tents = sorted(cell for cell, v in t.items() if v in model)
            found.append(tents)
            s.add_clause([-t[cell] if cell in tents else t[cell] for cell in t])
    return found


__all__ = ["solutions"]
