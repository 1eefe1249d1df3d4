"""Modern Art: Masters Gallery: cards and deals, rules engine, agents, Gymnasium and PettingZoo.

Importing the package registers the Gymnasium id ``ludolab/MastersGallery-v0`` (the
environment module loads only when an environment is made).
"""

from gymnasium.envs.registration import register as _register
from gymnasium.envs.registration import registry as _registry

if "ludolab/MastersGallery-v0" not in _registry:
    _register(
        id="ludolab/MastersGallery-v0",
        entry_point="ludolab.envs.gallery.gym_env:MastersGalleryEnv",
    )
