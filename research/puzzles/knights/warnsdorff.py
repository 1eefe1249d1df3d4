"""Closed knight's tours by depth-first search in Warnsdorff order, with backtracking.

The seed's Gecode brancher follows the partial tour and tries first the successor with the
fewest remaining moves. This is the same idea as a plain search, without a constraint solver:

* **Order.** From the current square, try the unvisited knight neighbours by increasing
  *degree* (number of unvisited neighbours, kept up to date incrementally). Ties are broken by
  Roth's rule, farther from the board's centre first (keeps the knight on the rim so that the
  interior stays connected), then by square number; ``seed`` instead breaks exact ties by a
  seeded random rank. The order only decides which branch comes first.
* **Closure.** The tour must end on a knight's move from its first square ``s``. Its
  unvisited neighbours are counted like any degree; when only one is left, that square is
  *reserved* as the last square and is not entered before every other square is visited. So
  the last square is always a neighbour of ``s``.
* **Pruning (sound).** An unvisited neighbour ``u`` of the current square with no unvisited
  neighbour of its own can never be left again, so unless it is the last square the branch is
  dead. One with exactly one unvisited neighbour must be entered now (it could otherwise only
  be the tour's end, allowed only for the start's neighbours); two such squares: dead.
* **Backtracking** over all remaining candidates makes the search complete: with an unlimited
  budget it finds a closed tour whenever one exists (every closed tour passes through ``s``).
  ``max_nodes`` bounds the work; when it runs out, `TourNotFound` says so with the statistics.

The search starts in the corner (square 0) by default. A corner has only two neighbours, so
every closed tour enters it from one and leaves to the other: fixing the first move (to the
Warnsdorff-first neighbour), as the seed does, loses no tours, only their direction, and the
other neighbour is reserved at once as the last square. The tour found is then rotated to
begin at the requested ``start`` square.
"""

from __future__ import annotations

import random
import time

from ludolab.research.puzzles import PuzzleError
from ludolab.research.puzzles.knights.board import (
    check_closed_tour_size,
    check_square,
    knight_neighbours,
    rotate_to,
    tour_problems,
)
from ludolab.research.puzzles.knights.result import SearchStats, TourNotFound, TourResult


def default_max_nodes(n: int) -> int:
    """The default total node budget: 100 nodes per square, at least 1,000,000.

    A first attempt on the boards benchmarked (even n up to 200) needs about 1.2 nodes per
    square, so this leaves room for several restarts.
    """
    return max(1_000_000, 100 * n * n)


def first_attempt_budget(n: int) -> int:
    """Nodes for the first attempt: 2 per square plus 10,000 (later attempts double it)."""
    return 2 * n * n + 10_000


def _tie_rank(n: int, seed: int | str | None) -> list[int]:
    """Rank of each square for breaking degree ties (smaller first).

    Roth's rule: larger squared distance from the centre first; then square number. With a
    seed, a seeded shuffle replaces the square number as the last key, so ties of equal
    degree *and* distance are broken at random, reproducibly.
    """
    size = n * n
    order = list(range(size))
    if seed is not None:
        random.Random(seed).shuffle(order)
    last = [0] * size
    for i, sq in enumerate(order):
        last[sq] = i
    # Doubled coordinates keep the centre (n-1)/2 integral; one int key per square (distance
    # major, tie order minor) sorts much faster than tuples.
    centre = n - 1
    keys = [
        -((2 * (sq // n) - centre) ** 2 + (2 * (sq % n) - centre) ** 2) * size + last[sq]
        for sq in range(size)
    ]
    rank = [0] * size
    for i, sq in enumerate(sorted(range(size), key=keys.__getitem__)):
        rank[sq] = i
    return rank


def _attempt_seed(seed: int | None, attempt: int) -> int | str | None:
    """The tie-break seed of an attempt: the caller's for the first, derived ones after."""
    if attempt == 0:
        return seed
    return f"knights-restart:{seed}:{attempt}"  # str seeds hash stably (random, version 2)


def warnsdorff_tour(
    n: int,
    *,
    start: int = 0,
    max_nodes: int | None = None,
    time_limit: float | None = None,
    seed: int | None = None,
    search_start: int = 0,
) -> TourResult:
    """Find a closed knight's tour of the n x n board by Warnsdorff-ordered backtracking.

    Args:
        n: board side; closed tours exist for even n >= 6 (else `PuzzleError`).
        start: the square the returned tour begins with (the closed tour is rotated to it).
        max_nodes: total node budget over all attempts (default `default_max_nodes`).
        time_limit: optional CPU seconds for the whole search.
        seed: break exact ties at random (reproducibly) instead of by square number.
        search_start: the square the search grows the tour from (default the corner 0).

    Restarts: an attempt that uses up its budget (`first_attempt_budget`, doubled for each
    new attempt) is abandoned and the search starts over with a tie-break from a derived seed.
    Each attempt is a complete depth-first search, and the budgets grow without bound, so with
    unlimited ``max_nodes`` some attempt searches the whole tree: the method stays complete.
    Raises `TourNotFound` (with the statistics) when ``max_nodes`` or ``time_limit`` runs out.
    The tour is checked by the independent verifier before it is returned.
    """
    check_closed_tour_size(n)
    check_square(n, start)
    check_square(n, search_start, "search_start")
    if max_nodes is None:
        max_nodes = default_max_nodes(n)
    if max_nodes < 1:
        raise PuzzleError(f"max_nodes must be at least 1, got {max_nodes}")
    if time_limit is not None and time_limit <= 0:
        raise PuzzleError(f"time limit must be positive seconds, got {time_limit}")

    t0 = time.process_time()
    deadline = None if time_limit is None else t0 + time_limit
    nodes = backtracks = attempt = 0
    budget = first_attempt_budget(n)
    path: list[int] | None = None
    timed_out = False
    while nodes < max_nodes:
        rank = _tie_rank(n, _attempt_seed(seed, attempt))
        limit = min(budget, max_nodes - nodes)
        path, used, undone, timed_out = _search(n, search_start, rank, limit, deadline)
        nodes += used
        backtracks += undone
        if path is not None or timed_out:
            break
        attempt += 1
        budget *= 2
    elapsed = time.process_time() - t0
    tie = f"seeded random rank (seed {seed})" if seed is not None else "square number"
    detail = (
        f"Warnsdorff order (fewest onward moves first), ties: farther from the centre first "
        f"(Roth), then {tie}; start square's last free neighbour reserved as the end"
    )
    stats = SearchStats(
        "warnsdorff", nodes, elapsed, backtracks=backtracks, restarts=attempt, detail=detail
    )
    if path is None:
        why = (
            f"the time limit of {time_limit:g} s ran out"
            if timed_out
            else f"the node budget of {max_nodes:,} ran out"
        )
        raise TourNotFound(
            f"no closed tour found on the {n} x {n} board: {why} after {nodes:,} nodes, "
            f"{backtracks:,} backtracks and {attempt} restarts ({elapsed:.2f} s CPU). "
            f"Raise the budget (--max-nodes / --time-limit), or try another --seed",
            stats,
        )
    tour = rotate_to(path, start)
    problems = tour_problems(n, tour)
    if problems:  # a bug in the search, never a user error
        raise AssertionError(f"Warnsdorff search returned an invalid tour: {problems}")
    return TourResult(n=n, tour=tour, stats=stats)


def _search(
    n: int, s: int, rank: list[int], max_nodes: int, deadline: float | None
) -> tuple[list[int] | None, int, int, bool]:
    """One depth-first attempt: (closed path from ``s`` or None, nodes, backtracks, timed out).

    Stops after ``max_nodes`` nodes or at process time ``deadline``.

    Written for speed (it is the hot loop): flat lists, precomputed neighbour tuples, degrees
    updated incrementally on entering and leaving a square, candidates packed into one int
    (degree, tie rank, square) so that ordering them is a sort of small ints.
    """
    size = n * n
    nbrs = knight_neighbours(n)
    deg = [len(x) for x in nbrs]
    visited = bytearray(size)
    start_nbrs = frozenset(nbrs[s])

    def enter(sq: int) -> None:
        visited[sq] = 1
        for v in nbrs[sq]:
            deg[v] -= 1

    enter(s)
    path = [s]
    nodes, backtracks = 1, 0
    check_every = 4096  # nodes between clock reads

    def candidates(c: int, remaining: int) -> list[int]:
        """Squares to try after ``c`` in Warnsdorff order (empty: dead end)."""
        reserved = -1
        if deg[s] == 1 and remaining > 1:
            # Only one neighbour of the start is left: it must be the last square.
            for v in start_nbrs:
                if not visited[v]:
                    reserved = v
                    break
        forced = -1
        keys = []
        for u in nbrs[c]:
            if visited[u]:
                continue
            d = deg[u]
            if d <= 1:
                if d == 0:
                    if remaining == 1:
                        return [u]  # the last square
                    return []  # u could never be left again
                if u not in start_nbrs:
                    # u has one way out, so it must be entered now: otherwise it could only
                    # be the tour's end, and only the start's neighbours can be that.
                    if forced >= 0:
                        return []
                    forced = u
            if u != reserved:
                keys.append((d * size + rank[u]) * size + u)
        if forced >= 0:
            return [forced]
        # Packed keys (degree, tie rank, square) sort as ints, faster than tuples.
        keys.sort()
        return [k % size for k in keys]

    first = candidates(s, size - 1)
    if len(nbrs[s]) == 2:
        # A corner: every closed tour uses both its neighbours, so the second first move
        # would only search the same tours backwards (the seed's "fix first move").
        first = first[:1]
    stack = [first]
    index = [0]
    while True:
        cands = stack[-1]
        i = index[-1]
        if i == len(cands):
            # Every branch below this square failed: leave it.
            stack.pop()
            index.pop()
            if not stack:
                return None, nodes, backtracks, False
            sq = path.pop()
            visited[sq] = 0
            for v in nbrs[sq]:
                deg[v] += 1
            backtracks += 1
            continue
        index[-1] = i + 1
        w = cands[i]
        visited[w] = 1
        for v in nbrs[w]:
            deg[v] -= 1
        path.append(w)
        nodes += 1
        remaining = size - len(path)
        if remaining == 0:
            if w in start_nbrs:
                return path, nodes, backtracks, False
            stack.append([])
            index.append(0)
            continue
        if nodes >= max_nodes:
            return None, nodes, backtracks, False
        if deadline is not None and nodes % check_every == 0 and time.process_time() > deadline:
            return None, nodes, backtracks, True
        stack.append(candidates(w, remaining))
        index.append(0)
