"""The constraint library: named, parameterised constraints on a Catan setup, each with two faces.

* The **Python face** ``check(terrain, numbers, harbors)`` takes a batch of boards as integer
  arrays — terrain (B, n_hexes), numbers (B, n_hexes), harbors (B, n_slots), codes as in
  :mod:`ludolab.envs.catan.board` — and returns a (B,) bool array. Vectorised, so the uniform
  sampler can test many thousands of shuffles per call.
* The **MiniZinc face** ``minizinc()`` returns one MiniZinc boolean expression over the arrays
  ``terrain``, ``number`` and ``harbor`` (1-based hexes), calling the predicates of
  ``models/library.mzn``. Used to generate, enumerate, count and optimise.

Tests hold the two faces against each other on thousands of random boards.

To add a constraint: subclass :class:`Constraint`, declare ``name``, ``summary``, ``reads`` and
``params``, write both faces, and register it with ``@register``, in the module of the part it
constrains: :mod:`.terrain`, :mod:`.numbers`, :mod:`.harbors`, or :mod:`.fixed` (parts given
outright, the seed model's own constraints); :mod:`.base` holds what they share and
:mod:`.objectives` the objectives of ``--sampler optimise``. Importing the package registers
every one.
"""

# Importing them registers their constraints, in the library's order (REGISTRY keeps it).
# isort: off
from ludolab.research.catan.constraints import terrain
from ludolab.research.catan.constraints import numbers
from ludolab.research.catan.constraints import harbors
from ludolab.research.catan.constraints import fixed

# isort: on
from ludolab.research.catan.constraints.base import (
    PARTS,
    REGISTRY,
    Constraint,
    ConstraintError,
    Param,
    make_constraint,
    register,
)
from ludolab.research.catan.constraints.fixed import Fixed
from ludolab.research.catan.constraints.objectives import OBJECTIVES, Objective

__all__ = [
    "OBJECTIVES",
    "PARTS",
    "REGISTRY",
    "Constraint",
    "ConstraintError",
    "Fixed",
    "Objective",
    "Param",
    "fixed",
    "harbors",
    "make_constraint",
    "numbers",
    "register",
    "terrain",
]
