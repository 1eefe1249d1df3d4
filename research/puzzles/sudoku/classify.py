"""Hardness tags: the weakest propagation level that solves a puzzle without branching.

:func:`classify` climbs the ladder of :mod:`.propagate` (``val``, ``bnd``, ``dom``, ``bs``,
``ds``) and stops at the first level whose fixpoint fixes every cell; that level is the tag,
and ``search`` when even ``ds`` leaves a choice. The climb is incremental -- each level starts
from the previous level's fixpoint, which gives the same fixpoint as starting afresh, because
every level's fixpoint lies inside the weaker ones' (see :mod:`.propagate`) -- and it records the
candidates left and the seconds spent at each level. :func:`ladder` runs every level from
scratch instead (for display and for the tests that hold the levels against each other).

Tags are relative, mechanical measures of propagation strength, as in the seed: they order
puzzles within a size, not by how hard people find them.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from ludolab.research.puzzles import PuzzleError
from ludolab.research.puzzles.sudoku.grid import Grid
from ludolab.research.puzzles.sudoku.propagate import (
    LEVELS,
    TAGS,
    candidates,
    initial_domains,
    is_solved,
    propagate,
    propagate_grid,
)


@dataclass(frozen=True)
class Classification:
    """A puzzle's tag, with the candidates left and seconds spent at each level climbed."""

    tag: str
    candidates: dict[str, int] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)

    @property
    def rank(self) -> int:
        """Position of the tag in :data:`~.propagate.TAGS` (0 = ``val``, 5 = ``search``)."""
        return TAGS.index(self.tag)


def classify(grid: Grid, n: int, max_level: str = "ds") -> Classification:
    """The hardness tag of a puzzle (module docstring).

    ``max_level`` stops the climb early (a puzzle not solved by then is tagged ``search``,
    meaning "needs more than ``max_level``"). Raises :class:`PuzzleError` when propagation
    proves the puzzle has no solution.
    """
    if max_level not in LEVELS:
        raise PuzzleError(f"max level {max_level!r}: must be one of {', '.join(LEVELS)}")
    doms = initial_domains(grid, n)
    cands: dict[str, int] = {}
    secs: dict[str, float] = {}
    for level in LEVELS[: LEVELS.index(max_level) + 1]:
        start = time.perf_counter()
        ok = propagate(doms, n, level)
        secs[level] = time.perf_counter() - start
        if not ok:
            raise PuzzleError(f"the puzzle has no solution ({level} propagation wipes out a cell)")
        cands[level] = candidates(doms)
        if is_solved(doms):
            return Classification(level, cands, secs)
    return Classification("search", cands, secs)


def ladder(grid: Grid, n: int, levels: tuple[str, ...] = LEVELS) -> dict[str, list[int] | None]:
    """Each level's fixpoint from the puzzle's initial domains, independently (None: wiped out)."""
    return {level: propagate_grid(grid, n, level) for level in levels}
