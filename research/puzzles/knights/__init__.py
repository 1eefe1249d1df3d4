"""Closed knight's tours on n x n boards: a case study in search heuristics.

    from ludolab.research.puzzles.knights import warnsdorff_tour, minizinc_tour, tour_problems
    result = warnsdorff_tour(50)            # TourResult: .tour (squares in order), .stats
    assert tour_problems(50, result.tour) == []

Modules: `board` (geometry, the independent verifier), `warnsdorff` (Warnsdorff-ordered
backtracking in Python), `minizinc` (the seed's successor + circuit model, solved by Gecode),
`result` (TourResult, SearchStats, TourNotFound), `render` (text board, PNG), `cli`.
"""

from __future__ import annotations

from ludolab.research.puzzles.knights.board import is_closed_tour, knight_neighbours, tour_problems
from ludolab.research.puzzles.knights.minizinc import minizinc_tour
from ludolab.research.puzzles.knights.result import SearchStats, TourNotFound, TourResult
from ludolab.research.puzzles.knights.warnsdorff import warnsdorff_tour

__all__ = [
    "SearchStats",
    "TourNotFound",
    "TourResult",
    "is_closed_tour",
    "knight_neighbours",
    "minizinc_tour",
    "tour_problems",
    "warnsdorff_tour",
]
