"""Catan on the research side: the constraint library (Python faces in constraints.py, MiniZinc
faces in models/), constraint sets (constraint_sets/*.toml), the samplers and counters of their
boards, board features, simulations, and the win model the search agent cuts play-outs with.

The Masters Gallery side (:mod:`ludolab.research.gallery`) is its sibling: neither imports the
other (tests/test_layout.py); each knows the other only through the game registry
(:mod:`ludolab.games`). Catan's description there is :mod:`.game`.
"""
