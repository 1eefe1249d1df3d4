"""Loopy as SAT (python-sat): the loops of a puzzle, counted up to a limit.

A variable per edge. Each dot has 0 or 2 loop edges; each numbered cell has that many loop
edges among its four sides (pysat's cardinality encodings). One loop rather than several is
enforced lazily: when a model holds more than one loop, each of them, say C, gets the clauses
"if all of C is used, no other edge is" (C alone may still be the answer), and the solver runs
again.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from pysat.card import CardEnc, EncType
from pysat.formula import IDPool
from pysat.solvers import Solver

from ludolab.research.puzzles.loopy.rules import Edge, all_edges, ends, sides


def loops_of(edges: set[Edge]) -> list[set[Edge]]:
    """The edges of each connected piece of ``edges``."""
    at: dict[tuple[int, int], list[Edge]] = {}
    for e in edges:
        for d in ends(e):
            at.setdefault(d, []).append(e)
    pieces, seen = [], set()
    for e in edges:
        if e in seen:
            continue
        piece, stack = {e}, [e]
        seen.add(e)
        while stack:
            for d in ends(stack.pop()):
                for f in at[d]:
                    if f not in seen:
                        seen.add(f)
                        piece.add(f)
                        stack.append(f)
        pieces.append(piece)
    return pieces


def solutions(rows: int, cols: int, clues: Sequence[Sequence[int | None]], limit: int = 2
              ) -> list[set[Edge]]:
    """Up to ``limit`` loops (sets of edges); ``limit=2``: is the puzzle unique?"""
    pool = IDPool()
    edges = all_edges(rows, cols)
    x = {e: pool.id(e) for e in edges}
    cnf: list[list[int]] = []
    at: dict[tuple[int, int], list[int]] = {}
    for e in edges:
        for d in ends(e):
            at.setdefault(d, []).append(x[e])
    for lits in at.values():  # degree 0 or 2: not 1, not 3 or more
        for v in lits:
            cnf.append([-v, *(w for w in lits if w != v)])
        cnf += [[-a, -b, -c] for a, b, c in combinations(lits, 3)]
    for r, row in enumerate(clues):
        for c, k in enumerate(row):
            if k is not None:
                lits = [x[e] for e in sides(r, c)]
                cnf += CardEnc.equals(lits=lits, bound=k, vpool=pool,
                                      encoding=EncType.seqcounter).clauses
    cnf.append(list(x.values()))  # a loop exists
    found: list[set[Edge]] = []
    with Solver(name="minisat22", bootstrap_with=cnf) as s:
        while len(found) < limit and s.solve():
            model = set(v for v in s.get_model() if v > 0)
            used = {e for e, v in x.items() if v in model}
            pieces = loops_of(used)
            if len(pieces) == 1:
                found.append(used)
                s.add_clause([-x[e] if e in used else x[e] for e in edges])
                continue
            for piece in pieces:
                cut = [-x[e] for e in piece]
                for e in edges:
                    if e not in piece:
                        s.add_clause([*cut, -x[e]])
    return found


__all__ = ["loops_of", "solutions"]
