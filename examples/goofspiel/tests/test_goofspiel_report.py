"""The game's own section of a run's report (``Goofspiel.report_section``)."""

from __future__ import annotations

import pandas as pd

from ludolab.games import ReportSection
from ludolab_goofspiel.game import GAME


def test_the_ties_section_gives_the_means_per_lineup_and_condition() -> None:
    per_game = pd.DataFrame(
        {
            "lineup": ["random", "random", "greedy", "greedy", "greedy"],
            "condition": pd.Categorical(
                ["fair", "late", "fair", "fair", "late"], categories=["fair", "late"], ordered=True
            ),
            "tied_rounds": [1, 3, 2, 5, 0],
            "points_unclaimed": [4, 10, 6, 15, 0],
        }
    )
    section = GAME.report_section(per_game)
    assert isinstance(section, ReportSection) and section.title == "Ties"
    rows = section.table.to_dict("records")
    assert [(r["lineup"], r["condition"], r["games"]) for r in rows] == [
        ("greedy", "fair", 2),
        ("greedy", "late", 1),
        ("random", "fair", 1),
        ("random", "late", 1),
    ]
    assert rows[0]["tied rounds per game"] == "3.50"
    assert rows[0]["points nobody took per game"] == "10.5"
