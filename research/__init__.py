"""Everything around the games: MiniZinc, samplers, metrics, statistics, figures, experiments.

The repository's folder ``research/``, installed as ``ludolab.research`` (setup.py mounts it
under the one top-level name): the module ``ludolab.research.x.y`` is the file ``research/x/y.py``.

Importing the package first decides whether the compiled copy of the samplers' kernel may run
(see :mod:`ludolab.envs.compiled`): ``ludolab.research.COMPILED.describe()`` says what runs.
"""

from pathlib import Path

from ludolab.envs.compiled import activate as _activate

COMPILED = _activate(Path(__file__).resolve().parent, __name__)
