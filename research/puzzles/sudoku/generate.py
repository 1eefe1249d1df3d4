"""Sudoku generation: fill a random grid, then remove clues while the solution stays unique.

**Fill.** A randomised complete search from the empty grid (:func:`.solver.random_fill`: the
solver with a shuffled value order at every branch, restarted when a run takes more than 20,000
nodes). It fills every supported size (36x36 in about a second), so no pattern-based fill is
needed; the grids follow the search's distribution, which is not uniform over all grids.

**Removal.** The cells are visited once in a random order; a clue is removed when the puzzle
without it has no solution other than the filled grid (:func:`.solver.has_other_solution`).
A clue found necessary stays necessary as more clues go (removing clues only adds solutions),
so one pass ends at a *minimal* puzzle -- unless ``clues`` (a target clue count) stops it
early. Each check is capped at ``node_limit`` search nodes: a check that hits the cap keeps its
clue (uniqueness is never put at risk) and the puzzle is no longer called minimal. The cap is
counted in nodes, not seconds, so the same seed gives the same puzzle on every machine. For
9x9 and smaller the checks are fast and the default cap is never reached in practice; for
25x25 and 36x36 a target clue count keeps generation to seconds.

Every random choice of puzzle ``i`` comes from its own seed, spawned from the master seed with
:func:`ludolab.research.simulate.game_seeds`.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import asdict, dataclass, replace
from pathlib import Path

from ludolab.envs.jsonl import iter_records, write_records
from ludolab.research.puzzles import PuzzleError
from ludolab.research.puzzles.sudoku.grid import (
    Grid,
    check_size,
    clue_count,
    format_grid,
    is_solution,
    parse_grid,
)
from ludolab.research.puzzles.sudoku.solver import has_other_solution, random_fill, solve

NODE_LIMIT = 20_000
"""Default cap on search nodes per uniqueness check during removal."""

NODE_LIMITS: dict[int, int] = {6: 20_000, 9: 20_000, 16: 500, 25: 100, 36: 20}
"""Default search nodes per uniqueness check during generation, by size: large enough that
6x6 and 9x9 puzzles reach minimality; small for 25x25/36x36, whose nodes are costly (a capped
check keeps its clue, so uniqueness is never at risk)."""


@dataclass(frozen=True)
class Puzzle:
    """A uniquely solvable puzzle with its solution and where it came from.

    ``target`` is the clue count removal aimed for (None: as few as possible); ``minimal``
    says every remaining clue was shown necessary; ``tag`` is the hardness tag when classified.
    """

    size: int
    grid: Grid
    solution: Grid
    seed: int | None = None
    target: int | None = None
    minimal: bool = False
    tag: str | None = None

    @property
    def clues(self) -> int:
        """Number of given cells."""
        return clue_count(self.grid)

    def with_tag(self, tag: str | None) -> Puzzle:
        """A copy carrying hardness ``tag``."""
        return replace(self, tag=tag)

    def to_dict(self) -> dict:
        """Plain-data form: grids as one-line text (see :mod:`.grid`)."""
        d = asdict(self)
        d["grid"] = format_grid(self.grid, self.size, one_line=True)
        d["solution"] = format_grid(self.solution, self.size, one_line=True)
        d["clues"] = self.clues
        return d

    def to_json(self) -> str:
        """One line of JSON (a ``.jsonl`` record)."""
        return json.dumps(self.to_dict(), separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str, source: str = "puzzle") -> Puzzle:
        """Read a record written by :meth:`to_json` (``solution`` may be missing: then it is
        solved for, and must be unique); errors name ``source``."""
        try:
            d = json.loads(text)
        except json.JSONDecodeError as exc:
            raise PuzzleError(f"{source}: not valid JSON ({exc.msg})") from exc
        if not isinstance(d, dict) or not isinstance(d.get("grid"), str):
            raise PuzzleError(
                f"{source}: expected an object with a 'grid' text, e.g. "
                '{"size": 9, "grid": "53..7....6..195...."}'
            )
        size = d.get("size")
        if size is not None:
            if not isinstance(size, int):
                raise PuzzleError(f"{source}: 'size' must be an integer, got {size!r}")
            check_size(size, f"{source}: 'size'")
        grid = parse_grid(d["grid"], size, f"{source}: 'grid'")
        n = size or int(round(len(grid) ** 0.5))
        if d.get("solution"):
            solution = parse_grid(d["solution"], n, f"{source}: 'solution'")
            if not is_solution(solution, n):
                raise PuzzleError(f"{source}: 'solution' is not a complete valid grid")
            bad = [i for i, v in enumerate(grid) if v and v != solution[i]]
            if bad:
                raise PuzzleError(
                    f"{source}: the grid's clue at cell {bad[0]} disagrees with its 'solution'"
                )
        else:
            solution = unique_solution(grid, n, source)
        return cls(
            size=n,
            grid=grid,
            solution=solution,
            seed=d.get("seed"),
            target=d.get("target"),
            minimal=bool(d.get("minimal", False)),
            tag=d.get("tag"),
        )


def unique_solution(grid: Grid, n: int, source: str = "grid") -> Grid:
    """The solution of a puzzle, or :class:`PuzzleError` if it has none or several."""
    res = solve(grid, n, limit=2)
    if res.count == 0:
        raise PuzzleError(f"{source}: the puzzle has no solution")
    if res.count > 1:
        raise PuzzleError(
            f"{source}: the puzzle has more than one solution (a Sudoku needs "
            "exactly one); add clues"
        )
    return res.solutions[0]


def puzzle_from_grid(grid: Grid, n: int, source: str = "grid") -> Puzzle:
    """A :class:`Puzzle` for a given grid, solved (it must have exactly one solution)."""
    return Puzzle(size=n, grid=grid, solution=unique_solution(grid, n, source))


def generate_puzzle(
    size: int, seed: int, clues: int | None = None, node_limit: int = NODE_LIMIT
) -> Puzzle:
    """One uniquely solvable puzzle from ``seed`` (module docstring for the method).

    ``clues`` stops removal at that many clues (a puzzle may keep more when no further clue can
    go: then it is minimal and ``clues`` was below its minimum).
    """
    check_size(size)
    if clues is not None and not 0 <= clues <= size * size:
        raise PuzzleError(f"clues {clues}: a {size}x{size} Sudoku has 0 to {size * size} cells")
    rng = random.Random(seed)
    solution = random_fill(size, rng)
    grid = list(solution)
    order = list(range(size * size))
    rng.shuffle(order)
    remaining = size * size
    capped = False
    stopped = False
    for cell in order:
        if clues is not None and remaining <= clues:
            stopped = True
            break
        value = grid[cell]
        grid[cell] = 0
        other = has_other_solution(tuple(grid), size, cell, value, node_limit)
        if other is False:
            remaining -= 1
        else:
            grid[cell] = value
            capped = capped or other is None
    return Puzzle(
        size=size,
        grid=tuple(grid),
        solution=solution,
        seed=seed,
        target=clues,
        minimal=not (capped or stopped),
    )


def generate_puzzles(
    size: int,
    count: int,
    seed: int,
    clues: int | None = None,
    node_limit: int = NODE_LIMIT,
) -> Iterator[Puzzle]:
    """``count`` puzzles; puzzle ``i`` from the ``i``-th seed spawned from ``seed``."""
    # Imported here: ludolab.research.simulate pulls in pyarrow, which plain generation does not
    # need.
    from ludolab.research.simulate import game_seeds

    if count < 0:
        raise PuzzleError(f"count {count}: must be 0 or more")
    for s in game_seeds(seed, count):
        yield generate_puzzle(size, s, clues, node_limit)


def read_puzzles(path: str | Path) -> list[Puzzle]:
    """Puzzles from a ``.jsonl`` file (one per line), with errors naming file and line."""
    return list(iter_records(path, Puzzle.from_json, PuzzleError, "puzzle"))


def write_puzzles(puzzles: list[Puzzle], path: str | Path) -> int:
    """Write puzzles atomically, one JSON object per line; return how many."""
    return write_records(puzzles, path)
