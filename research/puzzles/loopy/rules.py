"""The rules of Loopy (Slitherlink), checked directly (independent of the solver and the
deductions).

Rules as Simon Tatham's Portable Puzzle Collection states them for *Loopy* (and Nikoli for
Slitherlink): draw a single closed loop along the lines between the grid's dots, never crossing
or touching itself; a number in a cell says how many of that cell's four sides the loop uses;
cells without a number may have any.

Edges are named by the dots they join: a horizontal edge ``("h", r, c)`` joins dots (r, c) and
(r, c + 1) (above cell (r, c) for r < rows), a vertical edge ``("v", r, c)`` joins dots (r, c)
and (r + 1, c) (left of cell (r, c) for c < cols). A puzzle: ``rows`` x ``cols`` cells and
``clues`` (rows of numbers 0-3, or None where no number is given). A solution: the loop's edges.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

Edge = tuple[str, int, int]
Dot = tuple[int, int]


def all_edges(rows: int, cols: int) -> list[Edge]:
    """Every edge of the grid: the horizontal ones row by row, then the vertical ones."""
    return [("h", r, c) for r in range(rows + 1) for c in range(cols)] + [
        ("v", r, c) for r in range(rows) for c in range(cols + 1)
    ]


def ends(edge: Edge) -> tuple[Dot, Dot]:
    kind, r, c = edge
    return ((r, c), (r, c + 1)) if kind == "h" else ((r, c), (r + 1, c))


def sides(r: int, c: int) -> tuple[Edge, Edge, Edge, Edge]:
    """The four edges around cell (r, c): top, bottom, left, right."""
    return ("h", r, c), ("h", r + 1, c), ("v", r, c), ("v", r, c + 1)


def clue_problems(rows: int, cols: int, clues: Sequence[Sequence[int | None]]) -> list[str]:
    """What is wrong with a clue grid (empty when it is a puzzle grid)."""
    if len(clues) != rows or any(len(row) != cols for row in clues):
        return [f"clues must be {rows} rows of {cols} entries"]
    bad = [(r, c) for r, row in enumerate(clues) for c, k in enumerate(row)
           if k is not None and (not isinstance(k, int) or isinstance(k, bool) or not 0 <= k <= 3)]
    return [f"cell {list(bad[0])}: a clue is 0, 1, 2, 3 or null"] if bad else []


def loop_problems(rows: int, cols: int, clues: Sequence[Sequence[int | None]],
                  loop: Iterable[Edge]) -> list[str]:
    """Every way the edges ``loop`` break the puzzle (empty when they solve it)."""
    edges = set(map(tuple, loop))
    valid = set(all_edges(rows, cols))
    if not edges or not edges <= valid:
        return ["the loop must be a non-empty set of the grid's edges"]
    degree: dict[Dot, list[Dot]] = {}
    for e in edges:
        a, b = ends(e)
        degree.setdefault(a, []).append(b)
        degree.setdefault(b, []).append(a)
    problems = [f"dot {list(d)} has {len(n)} loop edges (a loop passes a dot on 2 or none)"
                for d, n in degree.items() if len(n) != 2]
    if not problems:
        start = next(iter(degree))
        seen, stack = {start}, [start]
        while stack:
            for nxt in degree[stack.pop()]:
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append(nxt)
        if len(seen) != len(degree):
            problems.append("the edges make more than one loop")
    for r, row in enumerate(clues):
        for c, k in enumerate(row):
            if k is not None and sum(e in edges for e in sides(r, c)) != k:
                problems.append(f"cell {[r, c]} shows {k}; the loop uses "
                                f"{sum(e in edges for e in sides(r, c))} of its sides")
    return problems


__all__ = ["Dot", "Edge", "all_edges", "clue_problems", "ends", "loop_problems", "sides"]
