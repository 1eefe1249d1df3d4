"""OpenSpiel's games through ludolab's adapter (the family ``openspiel``): the protocol's
conformance suite on games of different kinds, chance from ludolab's streams, sets of game
parameters and openings, and the commands a researcher runs (run, plan, design, ladder)."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest

from ludolab import games
from ludolab.envs.openspiel.engine import (
    IllegalActionError,
    OpenSpielOptions,
    OpenSpielSetup,
    OpenSpielState,
    chance_stream,
    draw_chance,
    load,
)
from ludolab.games import SetupSetError, UnknownGameError
from ludolab.research.cli import main
from ludolab.research.metrics import per_game_metrics
from ludolab.testing import check_game

KINDS = {
    "openspiel:tic_tac_toe": "perfect information, no chance",
    "openspiel:pig": "perfect information, dice rolled during play",
    "openspiel:kuhn_poker": "imperfect information, cards dealt before play",
    "openspiel:goofspiel": "simultaneous moves, played turn-based",
}


# --- the family on the registry ---------------------------------------------------------------


def test_a_family_s_members_are_games_by_name_without_being_listed() -> None:
    assert "openspiel" in games.families()
    assert not any(name.startswith("openspiel") for name in games.names())
    go = games.get("openspiel:go")
    assert go.name == "openspiel:go" and go.title == "Go (OpenSpiel)"
    assert games.known("openspiel:go") and not games.known("openspiel:goo")
    assert not games.known("openspiel") and not games.known(3)
    assert "openspiel:<game> (OpenSpiel)" in games.unknown_game_message("chess")
    assert games.source("openspiel:go")["entry_point"] == "ludolab.research.openspiel.game:FAMILY"


def test_an_unknown_member_says_which_names_are_near() -> None:
    with pytest.raises(UnknownGameError) as info:
        games.get("openspiel:conect_four")
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith("openspiel:conect_four: OpenSpiel has no game 'conect_four'")
    assert "connect_four" in message


@pytest.mark.parametrize("name", KINDS, ids=lambda n: KINDS[n])
def test_games_of_every_kind_pass_the_conformance_suite(name: str) -> None:
    report = check_game(name, games=3)
    assert "run" in report.checks and report.decisions > 0


# --- the engine around OpenSpiel --------------------------------------------------------------


def _pig(winscore: int = 20) -> OpenSpielSetup:
    return OpenSpielSetup("pig", (("winscore", winscore),), 2)


def _play_random(setup: OpenSpielSetup, seed: int, options: OpenSpielOptions | None = None):
    game = games.get(f"openspiel:{setup.game}")
    agents = [game.agents.make("random") for _ in range(setup.n_players)]
    return game.play(setup, agents, seed, options)


def test_every_roll_during_play_comes_from_the_game_seed_s_stream() -> None:
    """Replay a game's history: each chance outcome is the one ludolab's stream for the seed
    draws at that node, so equal seeds roll equal dice in every condition."""
    record = _play_random(_pig(), seed=11)
    rng = chance_stream(11)
    spiel = load(_pig()).new_initial_state()
    rolls = 0
    for action in record.history:
        if spiel.is_chance_node():
            assert draw_chance(spiel, rng) == action
            rolls += 1
        spiel.apply_action(action)
    assert spiel.is_terminal() and rolls > 5


def test_mcts_refuses_a_game_that_hides_cards_and_ismcts_plays_it_the_same_twice() -> None:
    game = games.get("openspiel:leduc_poker")
    setup = game.fair_setup(2, 0)
    with pytest.raises(ValueError, match="mcts reads the whole state, and Leduc Poker hides"):
        game.play(setup, [game.agents.parse("mcts"), game.agents.make("random")], 1)
    lineup = ["ismcts:playouts=30", "ismcts:playouts=30,root=halving"]
    one, two = (
        [game.play(setup, [game.agents.parse(a) for a in lineup], s) for s in range(8)]
        for _ in range(2)
    )
    assert one == two


def test_a_game_is_a_function_of_its_setup_agents_and_seed() -> None:
    setup = _pig()
    game = games.get("openspiel:pig")

    def lineup() -> list:
        return [game.agents.parse("mcts:simulations=20"), game.agents.make("random")]

    one = game.play(setup, lineup(), 5)
    two = game.play(setup, lineup(), 5)
    assert one == two
    other = game.play(setup, lineup(), 6)
    assert other.history != one.history


def test_a_draw_is_a_win_shared_by_every_seat() -> None:
    """X and O fill the board without three in a row: OpenSpiel's returns are 0 and 0, and
    ludolab counts the draw as a win shared by both seats (half a win each)."""
    state = OpenSpielState(OpenSpielSetup("tic_tac_toe", (), 2), seed=0)
    for cell in (0, 1, 2, 4, 3, 5, 7, 6, 8):  # x o x / x o o / o x x
        state.step(cell)
    assert state.done and state.spiel.returns() == [0.0, 0.0]
    assert state.winners == (0, 1)
    record = games.get("openspiel:tic_tac_toe").state_record(state, ["random", "random"])
    frame = per_game_metrics([record], "openspiel:tic_tac_toe")
    assert frame.loc[0, "first_seat_win"] == 0.5 and bool(frame.loc[0, "shared_win"])


def test_a_win_by_three_in_a_row_ends_the_game_with_one_winner() -> None:
    state = OpenSpielState(OpenSpielSetup("tic_tac_toe", (), 2), seed=0)
    for cell in (0, 3, 1, 4, 2):  # x takes the top row
        state.step(cell)
    assert state.done and state.winners == (0,) and state.decisions == 5
    assert state.scores[-1] == (1.0, -1.0) and state.scores[0] == (0.0, 0.0)


def test_an_illegal_action_is_refused_and_changes_nothing() -> None:
    state = OpenSpielState(OpenSpielSetup("tic_tac_toe", (), 2), seed=0)
    state.step(4)
    before = str(state.spiel)
    with pytest.raises(IllegalActionError, match="action 4 is not legal"):
        state.step(4)
    assert str(state.spiel) == before and state.decisions == 1


def test_the_move_limit_cuts_a_game_off_with_no_winner() -> None:
    record = _play_random(_pig(100), seed=3, options=OpenSpielOptions(move_limit=10))
    assert record.truncated and record.winners == () and record.turns == 10


def test_a_setup_survives_json_and_refuses_a_malformed_one() -> None:
    setup = OpenSpielSetup("kuhn_poker", (), 2, (2, 0), 3)
    game = games.get("openspiel:kuhn_poker")
    assert game.setup_from_dict(json.loads(json.dumps(setup.to_dict()))) == setup
    with pytest.raises(ValueError, match="deals.jsonl:4: n_players"):
        game.setup_from_dict({"game": "kuhn_poker", "n_players": 0}, "deals.jsonl:4")
    with pytest.raises(ValueError, match="opening\\[0\\] = 7 is not a chance outcome"):
        OpenSpielState(OpenSpielSetup("kuhn_poker", (), 2, (7,)), seed=0)


# --- sets: parameters and openings ------------------------------------------------------------


def _set(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "set.toml"
    path.write_text('name = "t"\n' + body)
    return path


def test_an_opening_constraint_pins_the_deal_and_its_share_is_counted(tmp_path: Path) -> None:
    """Kuhn poker deals seat 0 one of three cards, then seat 1 one of the other two: a set
    that gives seat 0 the king (Deal:2) allows exactly a third of the deals."""
    game = games.get("openspiel:kuhn_poker")
    path = _set(tmp_path, '[[constraint]]\nname = "opening"\nallow = [["Deal:2"], []]\n')
    cset = game.load_set(path, {}, players=2, options=None)
    drawn = game.draw_setups(cset, 30, "rejection", 4, players=2, options=None, settings={})
    assert [s.opening[0] for s in drawn.setups] == [2] * 30
    assert {s.opening[1] for s in drawn.setups} == {0, 1}
    assert math.isclose(drawn.acceptance, 1 / 3)
    assert len({s.id for s in drawn.setups}) == 30  # equal deals, kept apart as replicates


def test_an_opening_no_deal_can_have_is_refused(tmp_path: Path) -> None:
    game = games.get("openspiel:kuhn_poker")
    path = _set(tmp_path, '[[constraint]]\nname = "opening"\nallow = [["Deal:2"], ["Deal:2"]]\n')
    cset = game.load_set(path, {}, players=2, options=None)
    with pytest.raises(SetupSetError, match="no opening satisfies"):
        game.draw_setups(cset, 3, "rejection", 0, players=2, options=None, settings={})
    bad = _set(tmp_path, '[[constraint]]\nname = "opening"\nallow = [["Deal:9"]]\n')
    cset = game.load_set(bad, {}, players=2, options=None)
    with pytest.raises(SetupSetError, match="no outcome Deal:9; this chance event's outcomes"):
        game.draw_setups(cset, 3, "rejection", 0, players=2, options=None, settings={})


def test_parameters_are_checked_against_the_game(tmp_path: Path) -> None:
    game = games.get("openspiel:go")
    ok = _set(tmp_path, '[[constraint]]\nname = "parameters"\nboard_size = 7\nkomi = 6\n')
    cset = game.load_set(ok, {"parameters.komi": 5}, players=2, options=None)
    assert dict(cset.parameters) == {"board_size": 7, "komi": 5.0}  # a float, as Go takes it
    assert game.set_parameters(ok) == ["parameters.board_size", "parameters.komi"]
    with pytest.raises(SetupSetError, match="takes no parameter 'komii'; its parameters: "):
        game.load_set(ok, {"parameters.komii": 5}, players=2, options=None)
    with pytest.raises(
        SetupSetError, match="board_size: expected a whole number .the default is 19., got 'big'"
    ):
        game.load_set(ok, {"parameters.board_size": "big"}, players=2, options=None)


def test_metrics_a_game_cannot_support_are_nan_and_a_config_naming_one_is_refused(
    tmp_path: Path,
) -> None:
    record = _play_random(_pig(), seed=1)
    frame = per_game_metrics([record], "openspiel:pig")
    game = games.get("openspiel:pig")
    assert "lead_change" in game.unsupported_metrics
    assert all(np.isnan(frame.loc[0, m]) for m in game.unsupported_metrics)
    assert frame.loc[0, "turns"] == record.turns > 0
    config = tmp_path / "c.toml"
    config.write_text(
        _config("openspiel:pig", "defaults") + '[comparisons]\nmetrics = ["lead_change"]\n'
    )
    done = _cli("run", str(config), "--out", str(tmp_path / "out"), cwd=tmp_path)
    assert done.returncode == 2
    assert "'lead_change' is not supported by Pig (OpenSpiel): OpenSpiel's game pays" in (
        done.stderr
    )


# --- the commands -------------------------------------------------------------------------------


def _search(game: str) -> str:
    """A cheap search agent for the game: OpenSpiel's MCTS, or ISMCTS where it hides cards."""
    return "ismcts:playouts=10" if "poker" in game else "mcts:simulations=10"


def _config(game: str, constraints: str, extra: str = "") -> str:
    return (
        f'name = "t"\ngame = "{game}"\nseed = 3\nplayers = 2\nsetups = 4\ngames_per_setup = 2\n'
        f'{extra}\n[[conditions]]\nname = "a"\nconstraints = "{constraints}"\n\n'
        '[[lineups]]\nname = "random"\nseats = "random"\n\n'
        f'[[lineups]]\nname = "search-vs-random"\nseats = ["{_search(game)}", "random"]\n\n'
    )


def _cli(*argv: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ludolab.research.cli", *argv],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
    )


RUNS = {
    "openspiel:connect_four": ("parameters", "columns = 5\nrows = 4\n"),
    "openspiel:pig": ("parameters", "winscore = 15\n"),
    "openspiel:kuhn_poker": ("opening", 'allow = [["Deal:2"], []]\n'),
}


@pytest.mark.parametrize("game", RUNS)
def test_a_run_of_an_openspiel_game_reruns_byte_identical(game: str, tmp_path: Path) -> None:
    constraint, body = RUNS[game]
    (tmp_path / "set.toml").write_text(f'name = "s"\n[[constraint]]\nname = "{constraint}"\n{body}')
    text = _config(game, "set.toml").replace('name = "a"', 'name = "a"', 1)
    text += '[[conditions]]\nname = "b"\nconstraints = "defaults"\n'
    (tmp_path / "c.toml").write_text(text.replace("[[lineups]]", "[[lineups]]", 1))
    paths = []
    for out in ("one", "two"):
        assert main(["run", str(tmp_path / "c.toml"), "--out", str(tmp_path / out), "-q"]) == 0
        paths.append(next((tmp_path / out).glob("t/*/games.parquet")))
    assert paths[0].read_bytes() == paths[1].read_bytes()
    table = pq.read_table(paths[0])
    assert table.num_rows == 2 * 4 * 2 * 3  # conditions x setups x games x (1 + 2 rotations)
    assert set(table.column("truncated").to_pylist()) == {False}
    report = next((tmp_path / "one").glob("t/*/report.md")).read_text()
    assert "lead_change" not in report and "first_seat_win" in report


@pytest.mark.parametrize("game", RUNS)
def test_plan_sizes_an_openspiel_study(game: str, tmp_path: Path, capsys) -> None:
    constraint, body = RUNS[game]
    (tmp_path / "set.toml").write_text(f'name = "s"\n[[constraint]]\nname = "{constraint}"\n{body}')
    (tmp_path / "c.toml").write_text(
        _config(game, "set.toml")
        + '[[conditions]]\nname = "b"\nconstraints = "defaults"\n'
        + "[comparisons]\nmargins = { first_seat_win = 0.2 }\n"
    )
    assert main(["plan", str(tmp_path / "c.toml"), "--pilot-seeds", "1"]) == 0
    out = capsys.readouterr().out
    assert "Recommended: setups = " in out and "first_seat_win" in out


# Per game, a design parameter: a game parameter, or an opening constraint on or off.
DESIGNS = {
    "openspiel:connect_four": (
        "parameters",
        "rows = 4\ncolumns = 5\n",
        'name = "parameters.rows"\nlow = 4\nhigh = 6\n',
    ),
    "openspiel:pig": (
        "parameters",
        "winscore = 20\n",
        'name = "parameters.winscore"\nlow = 5\nhigh = 40\n',
    ),
    "openspiel:kuhn_poker": (
        "opening",
        'allow = [["Deal:2"], []]\n',
        'name = "opening"\nchoices = ["on", "off"]\n',
    ),
}


@pytest.mark.parametrize("game", DESIGNS)
def test_a_design_search_varies_a_game_s_setup(game: str, tmp_path: Path) -> None:
    constraint, body, parameter = DESIGNS[game]
    (tmp_path / "s.toml").write_text(f'name = "s"\n[[constraint]]\nname = "{constraint}"\n{body}')
    (tmp_path / "d.toml").write_text(
        f'name = "d"\ngame = "{game}"\nseed = 2\nplayers = 2\nsetups = 6\n'
        'games_per_setup = 2\n[[lineups]]\nname = "random"\nseats = "random"\n'
        '[design]\nconstraints = "s.toml"\ntrials = 3\nrungs = 1\nstartup_trials = 3\n'
        f"[[design.parameters]]\n{parameter}"
        '[[design.objectives]]\nmetric = "first_seat_win"\ntarget = 0.5\nmargin = 0.2\n'
        "[design.confirm]\ncandidates = 1\ngames_per_setup = 2\nmin_setups = 6\n"
        "max_setups = 6\n"
    )
    assert main(["design", str(tmp_path / "d.toml"), "--out", str(tmp_path / "out"), "-q"]) == 0
    trials = (tmp_path / "out" / "d" / "trials.csv").read_text()
    assert parameter.split('"')[1] in trials
    assert "## Confirmation" in (tmp_path / "out" / "d" / "report.md").read_text()


@pytest.mark.parametrize(
    "game", ["openspiel:connect_four", "openspiel:pig", "openspiel:leduc_poker"]
)
def test_the_ladder_rates_openspiel_s_bots(game: str, tmp_path: Path) -> None:
    argv = ["ladder", game, "--agents", f"random,{_search(game)}", "--rounds", "2"]
    assert main([*argv, "--out", str(tmp_path / "lad"), "-q"]) == 0
    ratings = (tmp_path / "lad" / "ratings.csv").read_text()
    assert _search(game) in ratings and "random" in ratings


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["ladder", "openspiel:goo", "--agents", "random", "--out", "x"],
            "ludolab: error: openspiel:goo: OpenSpiel has no game 'goo'; did you mean go",
        ),
        (
            ["ladder", "openspiel:go", "--players", "3", "--agents", "random", "--out", "x"],
            "ludolab: error: Go (OpenSpiel) takes 2 players, got 3",
        ),
        (
            ["run", "c.toml"],
            "takes no parameter 'komii'; its parameters: board_size, handicap, komi",
        ),
    ],
)
def test_a_bad_game_or_parameter_is_one_line_exit_2(
    argv: list[str], message: str, tmp_path: Path
) -> None:
    (tmp_path / "s.toml").write_text('name = "s"\n[[constraint]]\nname = "parameters"\nkomii = 6\n')
    (tmp_path / "c.toml").write_text(_config("openspiel:go", "s.toml"))
    done = _cli(*argv, cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and message in done.stderr, done.stderr
    assert not (tmp_path / "x").exists() and not (tmp_path / "results").exists()


def test_without_openspiel_installed_a_member_is_one_line_saying_how_to_install(
    tmp_path: Path,
) -> None:
    code = (
        "import sys; sys.modules['pyspiel'] = None\n"
        "from ludolab.research.cli import main\n"
        "sys.exit(main(['ladder', 'openspiel:go', '--agents', 'random', '--out', 'x']))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, check=False
    )
    assert done.returncode == 2
    assert done.stderr == (
        "ludolab: error: openspiel:go: OpenSpiel is not installed: pip install -e "
        "'.[openspiel]' (make setup installs it)\n"
    )


def test_the_openspiel_command_lists_the_games_and_one_game_s_parameters(capsys) -> None:
    assert main(["openspiel"]) == 0
    listed = capsys.readouterr().out
    assert "connect_four" in listed and "kuhn_poker" in listed
    assert main(["openspiel", "connect_four"]) == 0
    shown = capsys.readouterr().out
    assert "columns = 7" in shown and "rows = 6" in shown and "seats: 2" in shown
