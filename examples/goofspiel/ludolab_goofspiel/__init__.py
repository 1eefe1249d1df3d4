"""Goofspiel (the Game of Pure Strategy) for ludolab: a game registered from outside the
package, through the ``ludolab.games`` entry-point group.

Modules: :mod:`.engine` (rules, prize orders, the state), :mod:`.agents`, :mod:`.play` (one game
and its record), :mod:`.constraints` (constraints on the prize order, sets, the sampler),
:mod:`.metrics` (own metrics and setup features), :mod:`.figure` and :mod:`.game` (the
description, ``GAME``). The rules are in the distribution's ``README.md``.
"""

__version__ = "0.1.0"
