"""Constraint case studies on puzzles: Hexiom, the knight's tour, Sudoku hardness.

Each puzzle is a subpackage with its parser/verifier, its solvers and a ``cli`` module that
``ludolab puzzle NAME`` dispatches to (``add_arguments(parser)`` and ``run(args) -> int``).
"""

from __future__ import annotations


class PuzzleError(ValueError):
    """A puzzle request that cannot run as given: a bad level file, size, backend or option.

    The message names the file or option, what was expected and how to fix it; the CLI prints
    it on one line and exits with status 2.
    """


__all__ = ["PuzzleError"]
