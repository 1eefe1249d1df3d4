"""Soak: many whole games on generated boards, every invariant checked after every action.

Slow (minutes); run with ``make test-all`` or ``pytest -m slow tests/test_catan_soak.py``. Set
LUDOLAB_SOAK_GAMES to play more games per (constraint set, agents) pair.
"""

from __future__ import annotations

import os
from collections import Counter

import pytest

from ludolab.envs.catan.agents import parse_agent_spec
from ludolab.envs.catan.engine import GameOptions
from ludolab.envs.catan.play import play_game
from ludolab.research.catan.constraint_set import load_constraint_set
from ludolab.research.catan.generate import generate_boards

GAMES = int(os.environ.get("LUDOLAB_SOAK_GAMES", "60"))
SETS = [
    ("random", "uniform"),
    ("official", "uniform"),
    ("balanced", "solver"),
    ("clumpy", "solver"),
]
# Small lookahead play-offs: every play-out runs with the invariant checks too.
MIXES = [
    ("random", "random", "random", "random"),
    ("greedy", "greedy", "greedy", "greedy"),
    ("greedy", "random", "lookahead:playouts=8", "greedy:trade=false,robber=production"),
    ("random", "greedy", "random"),
    ("greedy", "lookahead:playouts=8"),
]


@pytest.mark.slow
@pytest.mark.parametrize(("cset", "sampler"), SETS)
@pytest.mark.parametrize("mix", MIXES, ids="|".join)
def test_games_on_generated_boards_keep_every_invariant(cset, sampler, mix):
    boards, _ = generate_boards(load_constraint_set(cset), 10, sampler, seed=3)
    options = GameOptions(debug=True, friendly_robber=len(mix) == 3)
    outcomes = Counter()
    for k in range(GAMES):
        agents = [parse_agent_spec(spec) for spec in mix]
        record = play_game(boards[k % len(boards)], agents, seed=k, options=options)
        outcomes["truncated" if record.truncated else f"seat {record.winner}"] += 1
        assert record.truncated or record.final_scores[record.winner] >= 10
    assert sum(outcomes.values()) == GAMES
    if "random" not in mix[0]:
        assert outcomes["truncated"] == 0  # scripted play finishes its games
