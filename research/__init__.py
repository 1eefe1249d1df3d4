"""Everything around the games: MiniZinc, samplers, metrics, statistics, figures, experiments.

Importing the package first decides whether the compiled copy of the samplers' kernel may run
(see :mod:`envs.compiled`): ``research.COMPILED.describe()`` says what runs.
"""

from pathlib import Path

from envs.compiled import activate as _activate

COMPILED = _activate(Path(__file__).resolve().parent)
