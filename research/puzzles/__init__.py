"""Constraint case studies on puzzles, and puzzle games generated from constraint models.

The case studies: Hexiom (SAT and MiniZinc), closed knight's tours, Sudoku hardness by
propagation strength. The generated games, each a pack of puzzles with a unique solution:
queens, tents, nonogram, zip, loopy, patches, wend and swend (and Sudoku's packs); pack.py and
pack_cli.py hold what their packs share, deductions.py grades a puzzle's difficulty, study/
measures difficulty by size and clues, and site/ builds the static games page that plays the
packs in a browser.

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
