"""Soak (slow): thousands of Masters Gallery games, every invariant checked after every action.

Run with ``make test-all`` or ``pytest -m slow tests/test_gallery_soak.py``; set
LUDOLAB_SOAK_GAMES to play more games per (players, agents, deals) case.
"""

from __future__ import annotations

import os

import pytest

from ludolab.envs.gallery.agents import parse_agent_spec
from ludolab.envs.gallery.engine import GalleryOptions
from ludolab.envs.gallery.play import play_game
from ludolab.envs.gallery.record import recompute_scores
from ludolab.research.gallery.deals import generate_deals

GAMES = int(os.environ.get("LUDOLAB_SOAK_GAMES", "150"))
MIXES = {
    2: ("greedy", "random"),
    3: ("leader", "greedy", "random"),
    4: ("random", "random", "greedy", "leader"),
    5: ("greedy",) * 5,
}


@pytest.mark.slow
@pytest.mark.parametrize("deal_set", ["fair", "balanced-symbols", "skewed-seat0"])
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_games_keep_every_invariant_and_scores_recompute(players, deal_set):
    deals, _ = generate_deals(deal_set, players, 20, seed=players)
    options = GalleryOptions(debug=True)
    for k in range(GAMES):
        agents = [parse_agent_spec(spec) for spec in MIXES[players]]
        record = play_game(deals[k % len(deals)], agents, seed=k, options=options)
        _, round_scores, final = recompute_scores(record)
        assert final == record.final_scores and round_scores == record.round_scores
        assert record.winners and all(
            record.final_scores[w] == max(record.final_scores) for w in record.winners
        )
