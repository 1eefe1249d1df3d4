"""The public API (`import ludolab`): the same games as the engines' own loops, tidy tables that
agree with the records, and runs from a dict or a file."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

import ludolab
from ludolab import games
from ludolab.research.catan.samplers import fair_board
from ludolab.research.catan.simulate import simulate as catan_simulate
from ludolab.research.experiment.config import ConfigError
from ludolab.research.experiment.store import RunError
from ludolab.research.simulate import per_seat_table, records_table

REGISTERED = ", ".join(games.names())
"""The registered games as the unknown-game message lists them (an installed example too)."""

SMALL_RUN = {
    "name": "api-test",
    "game": "catan",
    "seed": 3,
    "players": 3,
    "boards": 3,
    "games_per_board": 4,
    "conditions": [
        {"name": "official", "constraints": "official"},
        {"name": "random", "constraints": "random"},
    ],
    "lineups": [{"name": "greedy", "seats": "greedy"}],
    "comparisons": {"baseline": "official"},
}


def test_import_ludolab_is_light() -> None:
    """`import ludolab` loads neither the engines nor pandas: each function imports its own."""
    code = "import sys, ludolab; print(sorted(m for m in sys.modules if m.split('.')[0] in " \
        "('pandas', 'numpy', 'pyarrow') or m.startswith('ludolab.')))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "['ludolab.api', 'ludolab.games']"


def test_simulate_plays_the_games_of_the_engine_loop_with_keys() -> None:
    boards = [fair_board(1), fair_board(2)]
    games = ludolab.simulate("catan", "greedy,random,random", 7, setups=boards, seed=5,
                             condition="fair")
    expected = records_table(catan_simulate(boards, ["greedy", "random", "random"], 7, 5), "x")
    table = games.table
    assert table.column_names[:3] == ["condition", "setup", "game"]
    assert table.drop_columns(["condition", "setup"]).to_pylist() == expected.to_pylist()
    frame = games.games
    assert list(frame["condition"]) == ["fair"] * 7
    assert list(frame["setup"]) == [0, 1, 0, 1, 0, 1, 0]
    assert list(frame["setup_id"]) == [boards[i % 2].id for i in range(7)]


def test_simulate_gives_the_same_games_for_any_number_of_workers() -> None:
    one = ludolab.simulate("gallery", ["greedy", "random", "random"], 12, seed=9)
    two = ludolab.simulate("gallery", ["greedy", "random", "random"], 12, seed=9, workers=2)
    assert one.table.to_pylist() == two.table.to_pylist()
    assert len(set(one.games["setup_id"])) == 12  # None: a fair deal per game


def test_the_per_seat_table_agrees_with_the_records() -> None:
    games = ludolab.simulate("catan", ["greedy", "random", "greedy", "random"], 10, seed=2)
    seats = games.per_seat
    frame = games.games
    assert len(seats) == 4 * 10
    assert list(seats["seat"]) == [0, 1, 2, 3] * 10
    assert list(seats["agent"]) == ["greedy", "random", "greedy", "random"] * 10
    for row in frame.itertuples():
        mine = seats[seats["game"] == row.game]
        assert list(mine["final_score"]) == list(row.final_scores)
        assert list(mine["won"]) == [s in row.winners for s in range(4)]
        assert list(mine["longest_road"]) == [row.longest_road == s for s in range(4)]
        produced = np.stack(row.produced)
        assert (mine[[f"produced_{r}" for r in ("lumber", "wool", "grain", "brick", "ore")]]
                .to_numpy() == produced).all()
    assert seats.groupby("game")["won"].sum().le(1).all()


def test_the_gallery_per_seat_table_marks_every_seat_of_a_shared_win() -> None:
    table = pa.table({
        "game": [0, 1],
        "agents": [["a", "b", "c"], ["a", "b"]],
        "winners": [[0, 2], [1]],
        "final_scores": [[50, 40, 50], [10, 30]],
        "cards_dealt": [[20, 20, 20], [30, 30]],
        "cards_drawn": [[1, 0, 2], [0, 0]],
    })
    seats = per_seat_table(table, "gallery")
    assert list(seats["game"]) == [0, 0, 0, 1, 1]
    assert list(seats["seat"]) == [0, 1, 2, 0, 1]
    assert list(seats["won"]) == [True, False, True, False, True]
    assert list(seats["shared_win"]) == [True, False, True, False, False]
    assert list(seats["final_score"]) == [50, 40, 50, 10, 30]


def test_metrics_of_simulated_games() -> None:
    games = ludolab.simulate("gallery", ["greedy", "random"], 6, seed=1, condition="x")
    metrics = games.metrics
    assert len(metrics) == 6 and {"condition", "setup", "score_spread"} <= set(metrics.columns)


def test_generate_knows_which_game_a_set_is_for(tmp_path: Path) -> None:
    boards = ludolab.generate("official", 3, seed=1)
    assert len(boards) == 3 and boards.report.uniform
    assert type(boards[0]).__name__ == "Board"
    assert [b.id for b in boards] == [b.id for b in ludolab.generate("official", 3, seed=1)]
    deals = ludolab.generate("balanced-symbols", 2, seed=1, players=3)
    assert [d.n_players for d in deals] == [3, 3] and deals.report.uniform
    own = tmp_path / "mine.toml"
    own.write_text('name = "mine"\n[[constraint]]\nname = "balanced-artists"\n')
    assert type(ludolab.generate(own, 1, players=2)[0]).__name__ == "Deal"
    two = ludolab.generate("balanced-symbols", 2)  # the game's default players
    assert [d.n_players for d in two] == [2, 2]
    with pytest.raises(ValueError, match="Masters Gallery takes 2-5 players, got 6"):
        ludolab.generate("balanced-symbols", 2, players=6)
    with pytest.raises(ValueError, match="did you mean 'official'"):
        ludolab.generate("offical", 2)
    with pytest.raises(ValueError, match="no registered game .* has every constraint"):
        ludolab.generate(tmp_path / "none.toml", 2)
    (tmp_path / "none.toml").write_text('[[constraint]]\nname = "nobody"\n')
    with pytest.raises(ValueError, match="no registered game .* has every constraint"):
        ludolab.generate(tmp_path / "none.toml", 2)
    with pytest.raises(ValueError, match="sampler 'exact': Catan samplers are"):
        ludolab.generate("official", 2, sampler="exact")


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"game": "chess"}, "unknown game .chess.; the registered games are " + REGISTERED),
        ({"agents": ["nobody", "random"]}, "unknown catan agent 'nobody'"),
        ({"agents": ["random"]}, r"one agent spec \('random'\) for every seat: .* players=2..4"),
        ({"agents": ["random"], "players": 5}, "2-4 agents"),
        ({"options": {"vp": 8}}, "no field 'vp'; its fields: vp_to_win"),
        ({"setups": []}, "the list is empty"),
        ({"game": "gallery", "setups": [fair_board(1)]}, "Board is not a gallery Deal"),
    ],
)
def test_simulate_refuses_bad_arguments_before_playing(kwargs: dict, message: str) -> None:
    arguments = {"game": "catan", "agents": ["random", "random"], "games": 2, **kwargs}
    with pytest.raises(ValueError, match=message):
        ludolab.simulate(**arguments)


def test_a_run_from_a_dict_is_the_run_from_its_file(tmp_path: Path) -> None:
    from_dict = ludolab.run(SMALL_RUN, out=tmp_path / "a", analyse=False)
    path = tmp_path / "api-test.toml"
    path.write_text((from_dict.path / "config.toml").read_text())
    from_file = ludolab.run(path, out=tmp_path / "b", analyse=False)
    assert json.loads((from_dict.path / "run.json").read_text())["config"] == "the config dict"
    assert from_dict.games.drop(columns="index").equals(from_file.games.drop(columns="index"))
    assert from_dict.state["play_hash"] == from_file.state["play_hash"]
    with pytest.raises(RunError, match="not analysed"):
        _ = from_dict.comparisons


def test_a_loaded_run_has_its_tables(tmp_path: Path) -> None:
    run = ludolab.run(SMALL_RUN, out=tmp_path)
    loaded = ludolab.load_run(run.path)
    assert loaded.game == "catan" and len(loaded.games) == 2 * 3 * 4
    assert set(loaded.games["condition"]) == {"official", "random"}
    assert len(loaded.per_seat) == 3 * len(loaded.games)
    assert {"condition", "setup", "seat", "agent", "won"} <= set(loaded.per_seat.columns)
    assert len(loaded.metrics) == len(loaded.games)
    assert set(loaded.conditions["condition"]) == {"official", "random"}
    assert {"metric", "diff", "diff_low", "diff_high", "mde"} <= set(loaded.comparisons.columns)
    assert isinstance(loaded.seat_advantage, pd.DataFrame)


def test_bad_runs_are_refused_with_one_clear_message(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="name: missing"):
        ludolab.run({k: v for k, v in SMALL_RUN.items() if k != "name"}, out=tmp_path)
    with pytest.raises(ConfigError, match="no None"):
        ludolab.run({**SMALL_RUN, "description": None}, out=tmp_path)
    with pytest.raises(ConfigError, match="players"):
        ludolab.run({**SMALL_RUN, "players": 9}, out=tmp_path)
    assert not any(tmp_path.iterdir())  # nothing left behind
    run = ludolab.run(SMALL_RUN, out=tmp_path, analyse=False)
    (run.path / "games.parquet").write_bytes(b"not the games")
    with pytest.raises(RunError, match="sha256"):
        ludolab.load_run(run.path)


def test_the_env_ids_make_environments() -> None:
    import gymnasium

    ids = ludolab.register_envs()
    assert set(ids) == set(games.names())  # every registered game, () when it has none
    assert ids["catan"] == ("ludolab/Catan-v0",)
    assert ids["gallery"] == ("ludolab/MastersGallery-v0",)
    env = gymnasium.make("ludolab/MastersGallery-v0")
    observation, info = env.reset(seed=1)
    assert info["action_mask"].any() and observation.dtype == np.float32
    assert set(ludolab.constraint_sets()) == set(games.names())
