"""ludolab: which constraints on a game's setup make the game better to play?

The installed package has one top-level name. Its two halves are the repository's two folders:

* ``ludolab.envs`` (``envs/``): the game engines, their agents and their Gymnasium / PettingZoo
  faces; no solver, experiment or plotting code.
* ``ludolab.research`` (``research/``): everything around the games — constraint sets and
  samplers, MiniZinc, metrics, statistics, figures, experiments and the command line.
"""

__version__ = "0.1.0"
