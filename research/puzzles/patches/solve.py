"""Patches as SAT (python-sat): the tilings of a puzzle, counted up to a limit.

A variable per clue and candidate rectangle: inside the grid, holding the clue's cell and no
other clue's, of the clue's shape and area. Each clue takes exactly one candidate; each cell is
covered by exactly one chosen candidate (an exact cover).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Any

from pysat.card import CardEnc, EncType
from pysat.formula import IDPool
from pysat.solvers import Solver

from ludolab.research.puzzles.patches.rules import Rect, fits


def candidates(n: int, clues: Sequence[Mapping[str, Any]]) -> list[list[Rect]]:
    """Per clue, every rectangle it may take (see the module docstring)."""
    at = {tuple(clue["cell"]): i for i, clue in enumerate(clues)}
    out: list[list[Rect]] = []
    for i, clue in enumerate(clues):
        r, c = clue["cell"]
        mine = []
        for top in range(r + 1):
            for bottom in range(r, n):
                for left in range(c + 1):
                    for right in range(c, n):
                        rect = (top, left, bottom, right)
                        if fits(clue, rect) and all(
                            at.get((rr, cc), i) == i
                            for rr in range(top, bottom + 1)
                            for cc in range(left, right + 1)
                        ):
                            mine.append(rect)
        out.append(mine)
    return out


def cells_of(rect: Rect) -> list[tuple[int, int]]:
    top, left, bottom, right = rect
    return [(r, c) for r in range(top, bottom + 1) for c in range(left, right + 1)]


def _exactly_one(lits: list[int], pool: IDPool) -> list[list[int]]:
    if len(lits) <= 6:
        return [lits, *([-a, -b] for a, b in combinations(lits, 2))]
    return CardEnc.equals(lits=lits, bound=1, vpool=pool, encoding=EncType.ladder).clauses


def solutions(n: int, clues: Sequence[Mapping[str, Any]], limit: int = 2) -> list[list[Rect]]:
    """Up to ``limit`` tilings (a rectangle per clue); ``limit=2``: is the puzzle unique?"""
    options = candidates(n, clues)
    pool = IDPool()
    var: dict[tuple[int, Rect], int] = {}
    cover: dict[tuple[int, int], list[int]] = {(r, c): [] for r in range(n) for c in range(n)}
    cnf: list[list[int]] = []
    for i, rects in enumerate(options):
        lits = []
        for rect in rects:
            v = var[i, rect] = pool.id((i, rect))
            lits.append(v)
            for cell in cells_of(rect):
                cover[cell].append(v)
        if not lits:
            return []
        cnf += _exactly_one(lits, pool)
    for lits in cover.values():
        if not lits:
            return []
        cnf += _exactly_one(lits, pool)
    found: list[list[Rect]] = []
    with Solver(name="minisat22", bootstrap_with=cnf) as s:
        while len(found) < limit and s.solve():
            model = set(v for v in s.get_model() if v > 0)
            chosen = {i: rect for (i, rect), v in var.items() if v in model}
            found.append([chosen[i] for i in range(len(clues))])
            s.add_clause([-var[i, rect] for i, rect in chosen.items()])
    return found


__all__ = ["candidates", "cells_of", "solutions"]
