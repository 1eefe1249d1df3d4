"""Queens as SAT (python-sat): the solutions of a region grid, counted up to a limit.

Why SAT rather than MiniZinc: uniqueness checks run thousands of times while a pack is
generated, each on a small grid; a SAT solver kept in process answers in well under a
millisecond, where a MiniZinc call costs its start-up (tens of milliseconds) every time.

Variables: x(r, c) true when a queen stands on (r, c). Exactly one per row, column and region
(pairwise at-most-one plus one at-least-one clause: N <= 12, so at most 66 pairs a group);
no two on diagonal neighbours (rows and columns already keep side neighbours apart).
"""

from __future__ import annotations

from itertools import combinations

from pysat.solvers import Solver

from ludolab.research.puzzles.queens.rules import Regions


def _var(n: int, r: int, c: int) -> int:
    return r * n + c + 1


def clauses(regions: Regions) -> list[list[int]]:
    """The CNF of a Queens grid (see the module docstring)."""
    n = len(regions)
    groups: list[list[int]] = []
    groups += [[_var(n, r, c) for c in range(n)] for r in range(n)]
    groups += [[_var(n, r, c) for r in range(n)] for c in range(n)]
    by_region: dict[int, list[int]] = {}
    for r in range(n):
        for c in range(n):
            by_region.setdefault(regions[r][c], []).append(_var(n, r, c))
    groups += list(by_region.values())
    out: list[list[int]] = []
    for g in groups:
        out.append(list(g))
        out += [[-a, -b] for a, b in combinations(g, 2)]
    for r in range(n - 1):
        for c in range(n):
            for dc in (-1, 1):
                if 0 <= c + dc < n:
                    out.append([-_var(n, r, c), -_var(n, r + 1, c + dc)])
    return out


def solutions(regions: Regions, limit: int = 2) -> list[list[int]]:
    """Up to ``limit`` solutions of the grid, each a column per row (``limit=2``: is it
    unique?)."""
    n = len(regions)
    found: list[list[int]] = []
    with Solver(name="minisat22", bootstrap_with=clauses(regions)) as s:
        while len(found) < limit and s.solve():
            model = set(v for v in s.get_model() if v > 0)
            queens = [next(c for c in range(n) if _var(n, r, c) in model) for r in range(n)]
            found.append(queens)
            s.add_clause([-_var(n, r, c) for r, c in enumerate(queens)])
    return found


__all__ = ["clauses", "solutions"]
