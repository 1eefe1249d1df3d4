"""Sudoku hardness by propagation strength (the seed's *Scaling Sudoku* case study).

Modules, one job each: :mod:`.grid` (sizes 6x6-36x36, geometry, text format), :mod:`.solver`
(counting search for uniqueness and random fills), :mod:`.generate` (fill, then remove clues
while unique), :mod:`.propagate` (the ladder val < bnd < dom < bs < ds), :mod:`.classify`
(hardness tags), :mod:`.symmetrify` (180-degree symmetry without changing tags),
:mod:`.study` (the experiment: config, runner, tables, figure), :mod:`.model` (the MiniZinc
face, ``sudoku.mzn``, for cross-checking uniqueness with Gecode) and :mod:`.cli`
(``ludolab puzzle sudoku ...``).
"""

from __future__ import annotations
