"""The rules of Queens, checked directly (independent of the solver and the deductions).

A puzzle is ``regions``: N rows of N region numbers 0..N-1, each region a connected set of
cells (side by side). A solution is ``queens``: for each row the column of its queen.
"""

from __future__ import annotations

from collections.abc import Sequence

Regions = Sequence[Sequence[int]]


def region_problems(regions: Regions) -> list[str]:
    """What is wrong with a region grid (empty when it is a valid Queens puzzle grid)."""
    n = len(regions)
    if n < 1 or any(len(row) != n for row in regions):
        return [f"regions must be a square grid; got {n} rows of lengths "
                f"{sorted({len(row) for row in regions})}"]
    problems = []
    cells: dict[int, list[tuple[int, int]]] = {}
    for r, row in enumerate(regions):
        for c, k in enumerate(row):
            if not isinstance(k, int) or isinstance(k, bool) or not 0 <= k < n:
                problems.append(f"cell ({r}, {c}) has region {k!r}; regions are 0..{n - 1}")
            else:
                cells.setdefault(k, []).append((r, c))
    missing = [k for k in range(n) if k not in cells]
    if missing:
        problems.append(f"regions {missing} have no cell; a {n} x {n} grid has {n} regions")
    for k, members in sorted(cells.items()):
        todo, seen = [members[0]], {members[0]}
        inside = set(members)
        while todo:
            r, c = todo.pop()
            for nb in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if nb in inside and nb not in seen:
                    seen.add(nb)
                    todo.append(nb)
        if len(seen) != len(members):
            problems.append(f"region {k} is not connected")
    return problems


def solution_problems(regions: Regions, queens: Sequence[int]) -> list[str]:
    """What breaks the rules in ``queens`` (a column per row) on ``regions``; empty if none."""
    n = len(regions)
    if len(queens) != n or not all(
        isinstance(c, int) and not isinstance(c, bool) and 0 <= c < n for c in queens
    ):
        return [f"a solution gives one column 0..{n - 1} for each of the {n} rows; got {queens!r}"]
    problems = []
    if len(set(queens)) != n:
        problems.append("two queens share a column")
    owners = [regions[r][c] for r, c in enumerate(queens)]
    if len(set(owners)) != n:
        problems.append("two queens share a region")
    for r in range(n - 1):
        if abs(queens[r] - queens[r + 1]) <= 1:
            problems.append(f"the queens of rows {r} and {r + 1} touch")
    return problems


__all__ = ["Regions", "region_problems", "solution_problems"]
