"""The game engines, their agents and their Gymnasium / PettingZoo faces; no solver, experiment
or plotting code.

The repository's folder ``envs/``, installed as ``ludolab.envs`` (setup.py mounts it under the
one top-level name): the module ``ludolab.envs.x.y`` is the file ``envs/x/y.py``.

Importing the package first decides whether the compiled copies of the hot modules may run (see
:mod:`ludolab.envs.compiled`): ``ludolab.envs.COMPILED.describe()`` says what runs.
"""

from ludolab.envs.compiled import activate as _activate

COMPILED = _activate(package=__name__)
