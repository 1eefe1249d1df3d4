"""Catan: board topology and Board type, rules engine, agents, Gymnasium and PettingZoo faces.

Importing the package registers the Gymnasium id ``ludolab/Catan-v0`` (Gymnasium 1.x no longer
loads plugins by itself), so ``gymnasium.make("ludolab/Catan-v0", ...)`` works after any
``import ludolab.envs.catan...``. The registration names the environment class by string; the
environment module (and its observation encoder) loads only when an environment is made.
"""

from gymnasium.envs.registration import register as _register
from gymnasium.envs.registration import registry as _registry

if "ludolab/Catan-v0" not in _registry:
    _register(id="ludolab/Catan-v0", entry_point="ludolab.envs.catan.gym_env:CatanEnv")
