"""A complete Sudoku solver for counting solutions (up to a limit) and filling grids.

Depth-first search over bitmask domains (bit ``v - 1`` = value ``v``) with two propagation
rules at every node -- *naked singles* (a fixed cell removes its value from its peers) and
*hidden singles* (a value with one place left in a unit goes there) -- and branching on a cell
with the fewest candidates (first such cell: deterministic). This is the workhorse behind the
generator's uniqueness checks; the hardness ladder (:mod:`.propagate`) is separate and never
branches.

Searches can be capped by ``node_limit`` (search nodes, not seconds, so a capped run gives the
same answer on every machine); a capped search reports ``complete=False``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from ludolab.research.puzzles.sudoku.grid import Geometry, Grid, geometry


@dataclass
class SolveResult:
    """What a search found: ``count`` solutions (at most the limit asked for), the solutions
    themselves, the search nodes used and whether the search space was exhausted or the
    limit reached (``complete``) rather than cut by ``node_limit``."""

    count: int
    solutions: list[Grid] = field(default_factory=list)
    nodes: int = 0
    complete: bool = True


def domains_of(grid: Grid, geo: Geometry) -> list[int] | None:
    """Bitmask domains of a grid after removing each clue's value from its peers (None if a
    clue conflicts with another)."""
    full = geo.full
    doms = [full] * geo.cells
    peers = geo.peers
    for cell, v in enumerate(grid):
        if v:
            bit = 1 << (v - 1)
            if not doms[cell] & bit:
                return None
            doms[cell] = bit
    for cell, v in enumerate(grid):
        if v:
            keep = ~(1 << (v - 1))
            for p in peers[cell]:
                if grid[p] == 0:
                    doms[p] &= keep
    if any(d == 0 for d in doms):
        return None
    return doms


def _propagate(
    doms: list[int], geo: Geometry, queue: list[int], done: list[bool], dirty: bytearray
) -> bool:
    """Naked and hidden singles to a fixpoint; ``queue`` holds newly fixed cells not yet pushed
    to their peers, ``done`` marks cells already pushed, ``dirty`` the units with a changed
    domain since their last hidden-single scan (the others are at their fixpoint, so the scan
    skips them). False on a wipe-out."""
    peers = geo.peers
    units = geo.units
    cell_units = geo.cell_units
    full = geo.full
    while True:
        while queue:
            cell = queue.pop()
            if done[cell]:
                continue
            done[cell] = True
            d = doms[cell]
            keep = ~d
            for u in cell_units[cell]:
                dirty[u] = 1
            for p in peers[cell]:
                pd = doms[p]
                if pd & d:
                    pd &= keep
                    if not pd:
                        return False
                    doms[p] = pd
                    for u in cell_units[p]:
                        dirty[u] = 1
                    if not pd & (pd - 1):
                        queue.append(p)
        found = False
        for u, unit in enumerate(units):
            if not dirty[u]:
                continue
            dirty[u] = 0
            once = twice = 0
            for cell in unit:
                d = doms[cell]
                twice |= once & d
                once |= d
            if once != full:
                return False
            hidden = once & ~twice
            if not hidden:
                continue
            for cell in unit:
                d = doms[cell] & hidden
                if d and not done[cell]:
                    if d & (d - 1):  # two values pinned to one cell: contradiction
                        return False
                    doms[cell] = d
                    queue.append(cell)
                    found = True
        if not found:
            return True


def solve_domains(
    doms: list[int],
    n: int,
    limit: int = 2,
    node_limit: int | None = None,
    rng: random.Random | None = None,
) -> SolveResult:
    """Search from bitmask domains (not modified) for up to ``limit`` solutions.

    ``rng`` shuffles the value order at each branch (used to fill random grids); without it
    values are tried in increasing order.
    """
    geo = geometry(n)
    result = SolveResult(0)
    done = [False] * geo.cells
    queue = [c for c, d in enumerate(doms) if not d & (d - 1)]
    doms = list(doms)
    if any(d == 0 for d in doms):
        return result
    cells = range(geo.cells)
    # An explicit stack, not recursion: a 36x36 search may be 1,296 levels deep.
    nunits = len(geo.units)
    stack: list[tuple[list[int], list[bool], list[int], bytearray]] = [
        (doms, done, queue, bytearray(b"\x01" * nunits))
    ]
    while stack:
        doms, done, queue, dirty = stack.pop()
        result.nodes += 1
        if node_limit is not None and result.nodes > node_limit:
            result.complete = False
            break
        if not _propagate(doms, geo, queue, done, dirty):
            continue
        best, best_size = -1, n + 1
        for cell in cells:
            if not done[cell]:
                size = doms[cell].bit_count()
                if size < best_size:
                    best, best_size = cell, size
                    if size == 2:
                        break
        if best < 0:
            result.count += 1
            result.solutions.append(tuple(d.bit_length() for d in doms))
            if result.count >= limit:
                break
            continue
        d = doms[best]
        values = []
        while d:
            low = d & -d
            values.append(low)
            d ^= low
        if rng is not None:
            rng.shuffle(values)
        for bit in reversed(values):  # pushed in reverse: the first value is tried first
            child = list(doms)
            child[best] = bit
            # The parent is at its fixpoint: only units the branch touches need a scan.
            stack.append((child, list(done), [best], bytearray(nunits)))
    return result


def solve(grid: Grid, n: int, limit: int = 2, node_limit: int | None = None) -> SolveResult:
    """Up to ``limit`` solutions of a puzzle (``count`` 0 for a puzzle with none)."""
    geo = geometry(n)
    doms = domains_of(grid, geo)
    if doms is None:
        return SolveResult(0)
    return solve_domains(doms, n, limit, node_limit)


def count_solutions(grid: Grid, n: int, limit: int = 2) -> int:
    """Number of solutions of a puzzle, counted up to ``limit`` (2: "is it unique?")."""
    return solve(grid, n, limit).count


def is_unique(grid: Grid, n: int) -> bool:
    """True if the puzzle has exactly one solution."""
    return count_solutions(grid, n, 2) == 1


def has_other_solution(
    grid: Grid, n: int, cell: int, value: int, node_limit: int | None = None
) -> bool | None:
    """Does the puzzle have a solution with ``cell`` != ``value``? (None: node limit hit.)

    The generator's removal test: if a puzzle is unique with solution ``s`` and cell ``c`` is
    emptied, the result is still unique exactly when no solution has ``c != s[c]`` -- one
    satisfiability search instead of counting to two.
    """
    geo = geometry(n)
    doms = domains_of(grid, geo)
    if doms is None:
        return False
    doms[cell] &= ~(1 << (value - 1))
    if not doms[cell]:
        return False
    res = solve_domains(doms, n, 1, node_limit)
    if not res.complete:
        return None
    return res.count > 0


def random_fill(n: int, rng: random.Random, node_limit: int = 20_000, tries: int = 50) -> Grid:
    """A random full grid by randomised search from the empty grid (restarts when a run uses
    more than ``node_limit`` nodes). Not uniform over all grids: the distribution is that of
    this search's value shuffling."""
    geo = geometry(n)
    for _ in range(tries):
        res = solve_domains([geo.full] * geo.cells, n, 1, node_limit, rng)
        if res.count:
            return res.solutions[0]
    raise RuntimeError(f"no {n}x{n} grid filled within {tries} runs of {node_limit} nodes")
