"""Board geometry for knight's tours and the independent tour verifier.

Squares are numbered row-major, ``square = row * n + col`` with ``0 <= square < n * n``; square
0 is the top-left corner. A *closed tour* is a list of all ``n * n`` squares, each once, in
which every step and the step from the last square back to the first is a knight's move.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from ludolab.research.puzzles import PuzzleError

# The eight knight jumps as (row, column) offsets.
KNIGHT_JUMPS: tuple[tuple[int, int], ...] = (
    (-2, -1),
    (-2, 1),
    (-1, -2),
    (-1, 2),
    (1, -2),
    (1, 2),
    (2, -1),
    (2, 1),
)

MAX_N = 1000  # 10^6 squares: far beyond what a search here can do, but keeps memory bounded


def check_closed_tour_size(n: object) -> int:
    """Return ``n`` if closed tours exist on the n x n board, else raise `PuzzleError`.

    Closed tours exist exactly for even n >= 6 (Schwenk 1991). Odd boards have none because
    the knight alternates colours and an odd number of squares cannot close a two-colour
    cycle; n = 4 (and smaller) have none by exhaustion.
    """
    if isinstance(n, bool) or not isinstance(n, int):
        raise PuzzleError(f"board size must be an integer, got {n!r}")
    if n % 2 == 1:
        raise PuzzleError(
            f"--n {n}: no closed knight's tour exists on an odd board (a knight alternates "
            f"square colours, so a closed tour needs an even number of squares); "
            f"use an even n >= 6"
        )
    if n < 6:
        raise PuzzleError(
            f"--n {n}: no closed knight's tour exists on boards smaller than 6 x 6; "
            f"use an even n >= 6"
        )
    if n > MAX_N:
        raise PuzzleError(f"--n {n}: boards larger than {MAX_N} x {MAX_N} are not supported")
    return n


def check_square(n: int, value: object, name: str = "start") -> int:
    """Return ``value`` if it is a square of the n x n board (0..n*n-1), else `PuzzleError`
    naming it as the ``name`` square."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < n * n:
        raise PuzzleError(f"{name} square {value!r} is off the board: expected 0..{n * n - 1}")
    return value


def coords(n: int, sq: int) -> tuple[int, int]:
    """(row, col) of square ``sq`` on the n x n board."""
    return divmod(sq, n)


@lru_cache(maxsize=32)
def knight_neighbours(n: int) -> tuple[tuple[int, ...], ...]:
    """For every square, the squares a knight's move away, in `KNIGHT_JUMPS` order.

    Cached per n: tuples of small ints, shared by the search, the model data and the verifier.
    """
    out: list[tuple[int, ...]] = []
    for r in range(n):
        for c in range(n):
            out.append(
                tuple(
                    (r + dr) * n + (c + dc)
                    for dr, dc in KNIGHT_JUMPS
                    if 0 <= r + dr < n and 0 <= c + dc < n
                )
            )
    return tuple(out)


def is_knight_move(n: int, a: int, b: int) -> bool:
    """Whether squares ``a`` and ``b`` of the n x n board are a knight's move apart."""
    ra, ca = divmod(a, n)
    rb, cb = divmod(b, n)
    # |dr| * |dc| == 2 holds exactly for {|dr|, |dc|} == {1, 2}.
    return abs(ra - rb) * abs(ca - cb) == 2


def tour_problems(n: int, tour: Sequence[int], *, closed: bool = True) -> list[str]:
    """Everything wrong with ``tour`` as a (closed) knight's tour of the n x n board.

    Checks, from scratch and without the search's data structures: the length is n*n, every
    entry is an int square on the board, no square repeats, every step is a knight's move and,
    for a closed tour, the last square is a knight's move from the first. Returns an empty
    list for a valid tour; at most a few messages per rule otherwise.
    """
    problems: list[str] = []
    size = n * n
    if len(tour) != size:
        problems.append(f"the tour has {len(tour)} squares, expected n*n = {size}")
    bad = [s for s in tour if isinstance(s, bool) or not isinstance(s, int) or not 0 <= s < size]
    if bad:
        problems.append(f"squares off the board (expected 0..{size - 1}): {bad[:5]}")
        return problems
    seen: dict[int, int] = {}
    for i, s in enumerate(tour):
        if s in seen:
            problems.append(f"square {s} is visited twice (steps {seen[s]} and {i})")
            if len(problems) > 5:
                break
        else:
            seen[s] = i
    steps = [(i, tour[i], tour[i + 1]) for i in range(len(tour) - 1)]
    bad_steps = [(i, a, b) for i, a, b in steps if not is_knight_move(n, a, b)]
    for i, a, b in bad_steps[:3]:
        problems.append(
            f"step {i} -> {i + 1} ({coords(n, a)} to {coords(n, b)}) is not a knight's move"
        )
    if len(bad_steps) > 3:
        problems.append(f"... and {len(bad_steps) - 3} more non-knight steps")
    if closed and tour and not is_knight_move(n, tour[-1], tour[0]):
        problems.append(
            f"the tour is not closed: the last square {coords(n, tour[-1])} is not a knight's "
            f"move from the first {coords(n, tour[0])}"
        )
    return problems


def is_closed_tour(n: int, tour: Sequence[int]) -> bool:
    """Whether ``tour`` is a valid closed knight's tour of the n x n board."""
    return not tour_problems(n, tour, closed=True)


def rotate_to(tour: Sequence[int], start: int) -> list[int]:
    """The closed tour ``tour`` read from ``start`` onwards (same cycle, same direction)."""
    i = list(tour).index(start)
    return list(tour[i:]) + list(tour[:i])


def successors_to_tour(succ: Sequence[int], start: int = 0) -> list[int]:
    """Follow a successor array (``succ[s]`` = square after ``s``) from ``start``.

    Stops after ``len(succ)`` squares or when the cycle returns to ``start``, so a successor
    array with sub-cycles yields a short tour that the verifier then rejects.
    """
    tour = [start]
    s = succ[start]
    while s != start and len(tour) < len(succ):
        tour.append(s)
        s = succ[s]
    return tour
