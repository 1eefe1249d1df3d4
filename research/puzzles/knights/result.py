"""What a knight's tour search returns (`TourResult`) or raises (`TourNotFound`)."""

from __future__ import annotations

from dataclasses import dataclass

from ludolab.research.puzzles import PuzzleError


@dataclass(frozen=True)
class SearchStats:
    """What a search cost.

    ``nodes``: squares entered (Warnsdorff, the first square included) or Gecode's search
    nodes (MiniZinc). ``time``: seconds of search (Warnsdorff: process CPU time; MiniZinc:
    Gecode's solve time, flattening excluded). ``backtracks``: squares left again
    (Warnsdorff only). ``failures``: Gecode's failed nodes (MiniZinc only). ``restarts``:
    Warnsdorff attempts after the first. ``detail``: the heuristic or search annotation.
    """

    method: str
    nodes: int
    time: float
    backtracks: int | None = None
    failures: int | None = None
    restarts: int = 0
    detail: str = ""


@dataclass(frozen=True)
class TourResult:
    """A verified closed tour of the n x n board, in visiting order, and how it was found.

    ``tour`` lists the n*n squares (row-major numbers ``row * n + col``) in visiting order;
    the step from the last square back to the first is a knight's move too.
    """

    n: int
    tour: list[int]
    stats: SearchStats

    def as_json(self) -> dict[str, object]:
        """``{"n": N, "tour": [...]}``: the shape ``--format json`` prints."""
        return {"n": self.n, "tour": list(self.tour)}


class TourNotFound(PuzzleError):
    """The search stopped (node budget or time limit) before finding a closed tour."""

    def __init__(self, message: str, stats: SearchStats | None = None):
        self.stats = stats
        super().__init__(message)
