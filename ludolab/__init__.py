"""ludolab: which constraints on a game's setup make the game better to play?

A study in a few lines (the tutorial docs/tutorials/constraint-study.md has more):

    import ludolab

    boards = ludolab.generate("balanced", n=50, seed=1)           # uniform draws from the set
    games = ludolab.simulate("catan", ["greedy"] * 4, 200, setups=boards, condition="balanced")
    games.games        # one row per game (pandas)
    games.per_seat     # one row per seat of every game: seat, agent, won, final_score, ...
    games.metrics      # the game-quality metrics per game

    run = ludolab.run("experiments/quickstart.toml")   # or a dict with the file's contents
    run.comparisons    # every comparison with intervals, adjusted p-values and the MDE

The public names are those below; they are stable. The installed package has one top-level
name, and two halves that are the repository's two folders:

* ``ludolab.envs`` (``envs/``): the game engines, their agents and their Gymnasium / PettingZoo
  faces; no solver, experiment or plotting code.
* ``ludolab.research`` (``research/``): everything around the games — constraint sets and
  samplers, MiniZinc, metrics, statistics, figures, experiments and the command line.

Importing ``ludolab`` loads neither of them: each function imports what it needs.
"""

from ludolab.api import (
    GAMES,
    Games,
    Run,
    Setups,
    compare,
    constraint_sets,
    generate,
    load_run,
    register_envs,
    run,
    simulate,
)

__version__ = "0.1.0"

__all__ = [
    "GAMES",
    "Games",
    "Run",
    "Setups",
    "compare",
    "constraint_sets",
    "generate",
    "load_run",
    "register_envs",
    "run",
    "simulate",
]
