"""Splendor (Marc André, Space Cowboys 2014): components, rules engine, agents, Gymnasium and
PettingZoo.

Importing the package registers the Gymnasium id ``ludolab/Splendor-v0`` (the environment
module loads only when an environment is made).
"""

from gymnasium.envs.registration import register as _register
from gymnasium.envs.registration import registry as _registry

if "ludolab/Splendor-v0" not in _registry:
    _register(id="ludolab/Splendor-v0", entry_point="ludolab.envs.splendor.gym_env:SplendorEnv")
