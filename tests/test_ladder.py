"""`ludolab ladder`: the round robin's design, the finishing places, the ratings, and the
command as a user runs it."""

from __future__ import annotations

import subprocess
import sys

import pandas as pd
import pyarrow.parquet as pq
import pytest
from statsmodels.stats.proportion import proportion_confint

from ludolab.envs.agents import AgentSpecError
from ludolab.research.ladder import (
    _places,
    fit_ratings,
    head_to_head,
    ladder_tasks,
    lineups,
    play_ladder_task,
)


def test_places_put_winners_first_then_scores_with_ties_shared():
    assert _places([7, 10, 7, 5], [1]) == [1, 0, 1, 3]
    assert _places([40, 55, 55], [1, 2]) == [2, 0, 0]  # a shared win
    assert _places([9, 8, 9, 3], []) == [0, 2, 0, 3]  # cut off: by points only
    assert _places([12, 10, 9, 8], [3]) == [1, 2, 3, 0]  # the winner first whatever the points


def test_every_lineup_plays_in_every_seat_rotation_on_one_setup_and_seed():
    agents = ["random", "greedy", "leader", "mcts:playouts=4"]
    assert len(lineups(agents, 2)) == 6 and len(lineups(agents, 3)) == 4
    tasks = ladder_tasks("gallery", agents[:3], 2, rounds=2, seed=1, per_task=5)
    sets = [s for task in tasks for s in task.sets]
    assert len(sets) == 2 * 3 and [s[0] for s in sets] == list(range(6))
    table = play_ladder_task(tasks[0]).to_pandas()
    for _, games in table.groupby("set"):
        assert len(games) == 2 and games.seed.nunique() == 1 and games.setup_id.nunique() == 1
        first, second = (list(x) for x in games.seats)
        assert first == second[::-1]  # each agent has sat in each seat


@pytest.mark.parametrize(
    ("agents", "players", "message"),
    [
        (["random", "random"], 2, "once"),
        (["random", "greedy"], 3, "at least 3 agents"),
        (["random", "greedy"], 6, "2-5 players"),
        (["random", "greedyy"], 2, "unknown gallery agent 'greedyy'"),
    ],
)
def test_a_ladder_that_cannot_be_played_is_refused(agents, players, message):
    with pytest.raises((ValueError, AgentSpecError), match=message):
        ladder_tasks("gallery", agents, players, rounds=1, seed=0)


def test_ratings_order_agents_that_always_finish_in_one_order():
    rows = []
    for s in range(30):
        for k, seats in enumerate((["a", "b", "c"], ["c", "a", "b"], ["b", "c", "a"])):
            places = [{"a": 0, "b": 1, "c": 2}[x] for x in seats]
            rows.append({"set": s, "rotation": k, "seats": seats, "places": places})
    ratings = fit_ratings(pd.DataFrame(rows), ["c", "b", "a"], seed=0)
    assert list(ratings.agent) == ["a", "b", "c"]
    assert ratings.rating_low.iloc[0] > ratings.rating_high.iloc[1]  # the intervals separate
    assert list(ratings.wins) == [90, 0, 0] and list(ratings.mean_place) == [1, 2, 3]
    # 90 wins of 90: no spread to measure a design effect from, so the interval counts the
    # 30 rotation sets (Wilson 30 of 30), not the 90 games
    assert ratings.win_low.iloc[0] == pytest.approx(30 / (30 + 1.959964**2), abs=1e-6)
    assert ratings.fair_share.iloc[0] == pytest.approx(1 / 3)


def test_head_to_head_tells_apart_an_order_and_not_a_coin_toss():
    """a always finishes ahead of b; b and c take second place in turn, set by set."""
    rows = []
    for s in range(40):
        second = "b" if s % 2 else "c"
        order = {"a": 0, second: 1, ({"b", "c"} - {second}).pop(): 2}
        for k, seats in enumerate((["a", "b", "c"], ["c", "a", "b"], ["b", "c", "a"])):
            rows.append(
                {"set": s, "rotation": k, "seats": seats, "places": [order[x] for x in seats]}
            )
    pairs = head_to_head(pd.DataFrame(rows), ["a", "b", "c"], seed=0).set_index(["a", "b"])
    assert list(pairs.index) == [("a", "b"), ("a", "c"), ("b", "c")]
    assert (pairs.games == 120).all()
    ab, bc = pairs.loc[("a", "b")], pairs.loc[("b", "c")]
    assert ab.ahead == 1.0 and ab.ahead_low > 0.5 and ab.difference_low > 0
    assert bc.ahead == 0.5 and bc.ahead_low < 0.5 < bc.ahead_high
    assert bc.difference_low < 0 < bc.difference_high
    # the rotation sets are the clusters: 40 of them, each all-or-nothing for b against c,
    # so the interval is about Wilson's for 20 of 40, not for 60 of 120
    assert bc.ahead_low == pytest.approx(proportion_confint(20, 40, method="wilson")[0], abs=0.01)


def ladder(*args: str, cwd) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "ludolab.research.cli", "ladder", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
    )


def test_the_ladder_command_rates_gallery_agents_and_writes_its_folder(tmp_path):
    out = tmp_path / "ladder"
    args = ["gallery", "--agents", "random,leader,greedy", "--rounds", "12", "--seed", "3"]
    done = ladder(*args, "--out", str(out), "-q", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in out.iterdir()) == [
        "games.parquet",
        "head_to_head.csv",
        "ladder.md",
        "ladder.png",
        "ratings.csv",
    ]
    ratings = pd.read_csv(out / "ratings.csv")
    assert list(ratings.agent) == ["greedy", "leader", "random"]
    assert ratings.rating_low.iloc[0] > ratings.rating_high.iloc[2]
    games = pq.read_table(out / "games.parquet")
    assert games.num_rows == 12 * 3 * 2
    assert "| `greedy` |" in done.stdout and "95% interval" in (out / "ladder.md").read_text()
    pairs = pd.read_csv(out / "head_to_head.csv")
    assert len(pairs) == 3 and (pairs.games == 24).all()
    assert "| `greedy` | `random` | 24 |" in done.stdout
    # The same command again: refused without --force, the folder untouched; with two
    # workers and --force, the same games.
    again = ladder(*args, "--out", str(out), "-q", cwd=tmp_path)
    assert again.returncode == 2 and "--force" in again.stderr
    forced = ladder(*args, "--out", str(out), "--force", "--workers", "2", "-q", cwd=tmp_path)
    assert forced.returncode == 0, forced.stderr
    assert pq.read_table(out / "games.parquet").equals(games)


def test_a_bad_agent_stops_the_ladder_before_anything_is_written(tmp_path):
    out = tmp_path / "ladder"
    done = ladder(
        "catan",
        "--agents",
        "random,greedy,mcts:playouts=0",
        "--out",
        str(out),
        "--players",
        "3",
        cwd=tmp_path,
    )
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "playouts must be a whole number >= 1" in done.stderr
    assert not out.exists() and list(tmp_path.iterdir()) == []


def test_the_ladder_plays_given_deals_and_refuses_deals_for_other_tables(tmp_path):
    from ludolab.envs.gallery.deal import shuffled_deal, write_deals

    deals = [shuffled_deal(2, s) for s in range(3)]
    write_deals(deals, tmp_path / "deals.jsonl")
    out = tmp_path / "ladder"
    args = ["gallery", "--agents", "random,greedy", "--rounds", "5", "-q"]
    done = ladder(*args, "--setups", "deals.jsonl", "--out", str(out), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    games = pq.read_table(out / "games.parquet").to_pandas()
    assert list(games.setup_id[::2]) == [deals[s % 3].id for s in range(5)]
    write_deals([shuffled_deal(3, 1)], tmp_path / "three.jsonl")
    bad = ladder(*args, "--setups", "three.jsonl", "--out", str(tmp_path / "b"), cwd=tmp_path)
    assert bad.returncode == 2 and "deals for 2 players" in bad.stderr
    assert not (tmp_path / "b").exists()
