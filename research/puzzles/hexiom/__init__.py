"""Hexiom: place numbered hexagonal tiles so that each number counts its occupied neighbours.

The case study of the seed "using an industrial-strength SAT solver to solve Hexiom": the 41
levels of slowfrog/hexiom, two backends behind one interface (a CNF encoding for python-sat's
CaDiCaL and a MiniZinc model for Gecode), lex-leader symmetry breaking over the rotations and
reflections a level allows, solution counting, and a verifier that shares no code with either
encoding.

    from ludolab.research.puzzles.hexiom import load_level, solve_level, verify
    result = solve_level(load_level(38), backend="sat", break_symmetry=True)
    assert verify(result.level, result.solution).ok
"""

from ludolab.research.puzzles.hexiom.geometry import HexGrid, Symmetry, hex_grid
from ludolab.research.puzzles.hexiom.level import (
    N_LEVELS,
    Board,
    Level,
    format_board,
    format_level,
    load_level,
    parse_level,
    read_level_file,
)
from ludolab.research.puzzles.hexiom.solve import BACKENDS, HexiomResult, solve_level
from ludolab.research.puzzles.hexiom.symmetry import allowed_symmetries, canonical, orbits
from ludolab.research.puzzles.hexiom.verify import Verification, verify

__all__ = [
    "BACKENDS",
    "N_LEVELS",
    "Board",
    "HexGrid",
    "HexiomResult",
    "Level",
    "Symmetry",
    "Verification",
    "allowed_symmetries",
    "canonical",
    "format_board",
    "format_level",
    "hex_grid",
    "load_level",
    "orbits",
    "parse_level",
    "read_level_file",
    "solve_level",
    "verify",
]
