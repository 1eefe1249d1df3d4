"""The `ludolab` command as a user meets it: results, and one clear error for each bad input."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from ludolab.envs.catan.board import iter_boards
from ludolab.research.cli import main


def run_cli(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "ludolab.research.cli", *args],
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
    )


def test_generate_is_reproducible_and_checked(tmp_path, capsys):
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    assert (
        main(["generate", "catan", "-c", "official", "-n", "50", "--seed", "7", "--out", str(a)])
        == 0
    )
    assert (
        main(["generate", "catan", "-c", "official", "-n", "50", "--seed", "7", "--out", str(b)])
        == 0
    )
    assert a.read_text() == b.read_text()
    boards = list(iter_boards(a))
    assert len(boards) == 50 and len({x.id for x in boards}) == 50
    assert "50 boards for constraint set 'official'" in capsys.readouterr().out


def test_seed_96_layouts_from_the_cli(tmp_path):
    out = tmp_path / "tiles.jsonl"
    assert (
        main(
            [
                "generate",
                "catan",
                "-c",
                "seed-2019-tiles",
                "--sampler",
                "enumerate",
                "--out",
                str(out),
            ]
        )
        == 0
    )
    boards = list(iter_boards(out))
    assert len(boards) == 96
    assert len({b.terrain for b in boards}) == 96


def test_show_draws_a_board_counted_from_0(tmp_path, capsys):
    boards = tmp_path / "b.jsonl"
    main(["generate", "catan", "-c", "random", "-n", "3", "--out", str(boards)])
    capsys.readouterr()
    png = tmp_path / "b.png"
    assert main(["show", f"{boards}:2", "--out", str(png)]) == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert list(iter_boards(boards))[2].id in capsys.readouterr().out  # the third board
    assert main(["show", f"{boards}:3", "--out", str(tmp_path / "c.png")]) == 2
    assert "0 to 2" in capsys.readouterr().err


def test_constraints_list_shows_both_games_whole(capsys):
    from ludolab.research.catan.constraints import REGISTRY
    from ludolab.research.gallery.deals import DEAL_CONSTRAINTS, load_deal_set

    assert main(["constraints", "list"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert max(len(line) for line in lines) <= 100  # wrapped, not cut
    starts = {line.split()[0] for line in lines if line and not line[0].isspace()}
    assert set(REGISTRY) <= starts and set(DEAL_CONSTRAINTS) <= starts
    flat = " ".join(out.split())
    assert " ".join(load_deal_set("balanced-symbols").description.split()) in flat


def test_constraints_show_takes_deal_sets_and_suggests_names(capsys):
    assert main(["constraints", "show", "balanced-symbols"]) == 0
    assert "balanced-symbols(tolerance=0, by='kind')" in capsys.readouterr().out
    assert main(["constraints", "show", "balanced-symbols", "--model"]) == 2
    assert "deal set" in capsys.readouterr().err
    assert main(["constraints", "show", "balansed"]) == 2
    assert "did you mean 'balanced'" in capsys.readouterr().err  # (another game's sets too)
    args = ["generate", "gallery", "--players", "4", "-c", "skewed-seat", "--out", "x.jsonl"]
    assert main(args) == 2
    assert "did you mean 'skewed-seat0'" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("setup", "args", "message"),
    [
        (None, ["-c", "no-such-set"], "unknown constraint set 'no-such-set'; shipped sets:"),
        ("bad.toml", ["-c", "{dir}/bad.toml"], "bad.toml: not valid TOML"),
        ("unknown.toml", ["-c", "{dir}/unknown.toml"], "unknown constraint 'six-eight'"),
        (
            None,
            ["-c", "official", "--param", "red-numbers-apart.colour=1"],
            "has no parameter 'colour'",
        ),
        (
            None,
            [
                "-c",
                "seed-2019-markers",
                "--sampler",
                "enumerate",
                "--param",
                "seed-2019-marker-threshold.threshold=21",
            ],
            "proved that none exists",
        ),
        (
            None,
            ["-c", "balanced", "--sampler", "rejection", "--max-draws", "100000", "-n", "5"],
            "rejection sampling is too slow",
        ),
        ("raw.toml", ["-c", "{dir}/raw.toml"], "has raw MiniZinc constraints; use 'solver'"),
    ],
)
def test_bad_generate_inputs_fail_cleanly(tmp_path, setup, args, message):
    (tmp_path / "bad.toml").write_text("[[constraint]\nname = ")
    (tmp_path / "unknown.toml").write_text('[[constraint]]\nname = "six-eight"\n')
    (tmp_path / "raw.toml").write_text(
        '[[constraint]]\nname = "minizinc"\ncode = "terrain[1] != terrain[19]"\n'
    )
    out = tmp_path / "out.jsonl"
    args = [a.replace("{dir}", str(tmp_path)) for a in args]
    proc = run_cli("generate", "catan", *args, "--out", str(out))
    assert proc.returncode == 2
    assert message in proc.stderr
    assert proc.stderr.count("\n") == 1, proc.stderr  # one message, no traceback
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.toml", "raw.toml", "unknown.toml"]


def test_bad_board_file_names_file_and_field(tmp_path):
    board = tmp_path / "board.json"
    board.write_text(
        json.dumps(
            {
                "terrain": ["lumber"] * 19,
                "numbers": [None] * 19,
                "harbors": ["generic"] * 9,
                "robber": 0,
            }
        )
    )
    png = tmp_path / "board.png"
    proc = run_cli("show", str(board), "--out", str(png))
    assert proc.returncode == 2
    assert "board.json: field 'terrain' has 19 lumber hexes" in proc.stderr
    assert not png.exists()


def test_missing_minizinc_says_how_to_install(tmp_path):
    out = tmp_path / "out.jsonl"
    proc = run_cli(
        "generate",
        "catan",
        "-c",
        "official",
        "--sampler",
        "solver",
        "--out",
        str(out),
        env={"LUDOLAB_MINIZINC": str(tmp_path / "nope" / "minizinc")},
    )
    assert proc.returncode == 2
    assert "apt-get install minizinc flatzinc" in proc.stderr
    assert not out.exists()


def test_missing_output_folder(tmp_path):
    proc = run_cli(
        "generate",
        "catan",
        "-c",
        "official",
        "--out",
        str(Path(tmp_path) / "no" / "such" / "dir" / "b.jsonl"),
    )
    assert proc.returncode == 2
    assert "does not exist" in proc.stderr


def test_solver_sampler_is_reproducible(tmp_path):
    paths = [tmp_path / f"{k}.jsonl" for k in range(2)]
    for p in paths:
        assert (
            main(
                [
                    "generate",
                    "catan",
                    "-c",
                    "tournament",
                    "--sampler",
                    "solver",
                    "-n",
                    "30",
                    "--seed",
                    "11",
                    "--out",
                    str(p),
                ]
            )
            == 0
        )
    assert paths[0].read_text() == paths[1].read_text()


def test_simulate_writes_one_row_per_game_and_is_reproducible(tmp_path, capsys):
    import pandas as pd

    boards = tmp_path / "b.jsonl"
    main(["generate", "catan", "-c", "official", "-n", "3", "--seed", "1", "--out", str(boards)])
    runs = []
    for name in ("a", "b"):
        out = tmp_path / f"{name}.parquet"
        assert (
            main(
                [
                    "simulate",
                    "catan",
                    "--boards",
                    str(boards),
                    "--agents",
                    "random,random,random",
                    "--games",
                    "12",
                    "--seed",
                    "4",
                    "--out",
                    str(out),
                ]
            )
            == 0
        )
        runs.append(pd.read_parquet(out))
    text = capsys.readouterr().out
    assert "12 games of 3 players on 3 boards" in text and "win rate" in text
    assert "VP spread" in text
    a, b = runs
    assert len(a) == 12 and list(a["game"]) == list(range(12))
    assert (
        a.drop(columns=["score_by_step"])
        .astype(str)
        .equals(b.drop(columns=["score_by_step"]).astype(str))
    )
    ids = [x.id for x in iter_boards(boards)]
    assert list(a["setup_id"]) == [ids[i % 3] for i in range(12)]
    assert a["seed"].nunique() == 12
    assert all(len(vp) == 3 for vp in a["final_scores"])
    assert ((a["winners"].map(len) == 0) == a["truncated"]).all()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--agents", "random,bogus"], "unknown catan agent 'bogus'"),
        (["--agents", "random"], "2-4 agents"),
        (["--agents", "random:speed=3,random"], "bad parameters"),
        (["--games", "0"], "--games must be at least 1"),
        (["--turn-limit", "-5"], "turn_limit"),
        (["--boards", "{dir}/missing.jsonl"], "missing.jsonl"),
    ],
)
def test_simulate_errors_are_one_line_and_leave_nothing(tmp_path, args, message):
    out = tmp_path / "games.parquet"
    args = [a.replace("{dir}", str(tmp_path)) for a in args]
    result = run_cli("simulate", "catan", "--games", "2", *args, "--out", str(out))
    assert result.returncode == 2, result.stderr
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert not out.exists() and list(tmp_path.iterdir()) == []


def test_simulate_gallery_writes_games_and_reads_deals(tmp_path, capsys):
    import pandas as pd

    from ludolab.envs.gallery.deal import shuffled_deal, write_deals

    deals = tmp_path / "deals.jsonl"
    write_deals([shuffled_deal(3, k) for k in range(4)], deals)
    out = tmp_path / "g.parquet"
    assert (
        main(
            [
                "simulate",
                "gallery",
                "--players",
                "3",
                "--deals",
                str(deals),
                "--games",
                "10",
                "--seed",
                "2",
                "--out",
                str(out),
            ]
        )
        == 0
    )
    assert "10 games of 3 players on 4 deals from" in capsys.readouterr().out
    table = pd.read_parquet(out)
    assert len(table) == 10 and all(len(s) == 3 for s in table["final_scores"])
    assert table["setup_id"].nunique() == 4


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "3", "--agents", "random,random"], "--players 3 but --agents names 2"),
        (["--agents", "random,clever"], "unknown gallery agent 'clever'"),
        (["--agents", "random"], "2-5 agents"),
        (["--players", "2", "--deals", "{dir}/missing.jsonl"], "missing.jsonl"),
        ([], "give --players P or --agents"),
    ],
)
def test_simulate_gallery_errors(tmp_path, args, message):
    out = tmp_path / "games.parquet"
    args = [a.replace("{dir}", str(tmp_path)) for a in args]
    result = run_cli("simulate", "gallery", "--games", "2", *args, "--out", str(out))
    assert result.returncode == 2, result.stderr
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert not out.exists()


def test_generate_gallery_deals_feed_simulations(tmp_path, capsys):
    deals = tmp_path / "deals.jsonl"
    assert (
        main(
            [
                "generate",
                "gallery",
                "--players",
                "3",
                "-c",
                "balanced-symbols",
                "-n",
                "6",
                "--seed",
                "4",
                "--out",
                str(deals),
            ]
        )
        == 0
    )
    assert "6 deals for 3 players" in capsys.readouterr().out
    out = tmp_path / "g.parquet"
    assert (
        main(
            [
                "simulate",
                "gallery",
                "--deals",
                str(deals),
                "--agents",
                "greedy,random,leader",
                "--games",
                "6",
                "--out",
                str(out),
            ]
        )
        == 0
    )
    assert "6 games of 3 players" in capsys.readouterr().out


def test_generate_gallery_unknown_set_is_one_line(tmp_path):
    out = tmp_path / "d.jsonl"
    result = run_cli("generate", "gallery", "--players", "2", "-c", "nope", "--out", str(out))
    assert result.returncode == 2 and "unknown deal set or constraint 'nope'" in result.stderr
    assert not out.exists()


def test_exhibits_answers_with_a_bound_and_replays_in_the_engine(capsys):
    # Stopped by counts, not the clock: 5 improving answers from Gecode, then HiGHS' root node.
    argv = ["exhibits", "--players", "2", "--open-model", "--improving", "5", "--nodes", "1"]
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert "2 players, objective max-score:" in text
    found = re.search(r"best found (\d+) in [\d.]+ s; proven bound (\d+), gap (\d+)", text)
    assert found, text  # the root node proves nothing here: the best found, the bound, the gap
    best, bound, gap = map(int, found.groups())
    assert bound >= 418 >= best and gap == bound - best
    assert "replay: the rules engine accepted all" in text
    assert main(["exhibits", "--improving", "5", "--solver", "gecode"]) == 0
    assert "not proven optimal, and no bound (--solver mip gives one)" in capsys.readouterr().out


def test_exhibits_bad_options_say_which_and_exit_2(tmp_path):
    tables = {
        "too-many.toml": ("[Yoko]\ndraw = 19\n", "puts 19 symbols on its 18 cards"),
        "no-artist.toml": ("[Vermeer]\ndraw = 1\n", "no artist 'Vermeer'"),
        "no-symbol.toml": ("[Yoko]\nwild = 1\n", "no symbol 'wild'"),
        "not-toml.toml": ("[Yoko\n", "not valid TOML"),
    }
    cases = {
        "--players": (["--players", "6"], "must be 2..5"),
        "--complete": (["--complete"], "--solver gecode"),
        "--time-limit": (["--time-limit", "0"], "seconds > 0"),
        "--improving": (["--improving", "0"], "integer >= 1"),
        "--nodes": (["--nodes", "5", "--solver", "gecode"], "--solver mip"),
        "--symbols": (["--symbols", str(tmp_path / "missing.toml")], "no such file"),
    }
    for name, (text, says) in tables.items():
        (tmp_path / name).write_text(text)
        cases[name] = (["--symbols", str(tmp_path / name)], says)
    for option, (argv, says) in cases.items():
        proc = run_cli("exhibits", *argv)
        assert proc.returncode == 2 and proc.stdout == "", proc
        lines = proc.stderr.strip().splitlines()
        if "--symbols" in argv:  # (argparse's own errors print the usage first)
            assert len(lines) == 1, proc.stderr
        assert "error:" in lines[-1] and option in lines[-1] and says in lines[-1], proc.stderr


def test_exhibits_read_a_symbols_table(tmp_path):
    table = tmp_path / "small.toml"
    table.write_text("[Yoko]\ndraw = 3\naward = 2\n\n[Krypto]\ndouble = 4\n")
    proc = run_cli("exhibits", "--symbols", str(table), "--improving", "5", "--solver", "gecode")
    assert proc.returncode == 0, proc.stderr
    assert "replay: the rules engine accepted all" in proc.stdout
    symbols = re.findall(r"\[([^\]]*)\]", proc.stdout)
    used = " ".join(symbols)
    assert "draw:A" not in used and "double:B" not in used and "award:E" not in used


def test_count_replicates_the_seed_and_states_the_share(tmp_path):
    proc = run_cli("count", "-c", "seed-2019-tiles")
    assert proc.returncode == 0, proc.stderr
    assert "depth-first (exact)" in proc.stdout
    assert "over the constrained parts (terrain): 96" in proc.stdout
    assert "tightness -log10(share) = 9.41" in proc.stdout
    (tmp_path / "raw.toml").write_text(
        '[[constraint]]\nname = "minizinc"\ncode = "terrain[1] != terrain[19]"\n'
    )
    proc = run_cli("count", "-c", str(tmp_path / "raw.toml"))
    assert proc.returncode == 2 and "no Python face" in proc.stderr
    assert proc.stderr.count("\n") == 1, proc.stderr


def test_generate_says_which_method_drew_the_boards(tmp_path):
    out = tmp_path / "b.jsonl"
    proc = run_cli("generate", "catan", "-c", "seed-2019-tiles", "-n", "5", "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    assert "distribution: uniform (enumeration)" in proc.stdout
    assert "note: exact: drew uniformly from all 96" in proc.stdout


def test_the_command_line_starts_without_the_heavy_libraries() -> None:
    """`ludolab --help` builds its parser from ludolab.research.catan.catalog alone; numpy, pandas,
    the solver and the engines load inside the subcommand that uses them."""
    import subprocess
    import sys

    code = (
        "import sys; from ludolab.research.cli import _parser; _parser(['--help']); "
        "print(sorted(m for m in ('numpy', 'pandas', 'scipy', 'pyarrow', 'minizinc', "
        "'gymnasium', 'matplotlib') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize(
    ("argv", "loaded"),
    [
        (["metrics"], []),
        (["puzzle", "knights", "--n", "8"], []),
        (["completion", "bash"], []),
        (["constraints", "list"], ["gymnasium", "numpy"]),  # the constraints are numpy code
    ],
)
def test_light_commands_run_without_the_heavy_libraries(argv: list[str], loaded: list) -> None:
    """The commands people type often load only what they use (benchmarks/end_to_end.py
    times them)."""
    code = (
        "import contextlib, io, sys; from ludolab.research.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()): assert main(sys.argv[1:]) == 0\n"
        "print(sorted(m for m in ('numpy', 'pandas', 'scipy', 'pyarrow', 'minizinc', "
        "'gymnasium', 'matplotlib') if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, *argv], capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == str(loaded)


def test_completion_scripts_cover_every_command_and_option(tmp_path) -> None:
    script = tmp_path / "ludolab.bash"
    done = subprocess.run(
        [str(Path(sys.executable).with_name("ludolab")), "completion", "bash"],
        capture_output=True, text=True, check=True,
    )
    script.write_text(done.stdout)
    subprocess.run(["bash", "-n", str(script)], check=True)  # valid bash
    complete = (
        f"source {script}; COMP_WORDS=(ludolab puzzle knights --m); COMP_CWORD=3; "
        "_shtab_ludolab; echo ${COMPREPLY[@]}"
    )
    done = subprocess.run(["bash", "-c", complete], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["--method", "--max-nodes", "--mzn-search"]
    for shell, words in (("zsh", ("--constraints", "hexiom")), ("tcsh", ("hexiom",))):
        done = subprocess.run(
            [str(Path(sys.executable).with_name("ludolab")), "completion", shell],
            capture_output=True, text=True, check=True,
        )
        assert all(word in done.stdout for word in words)  # tcsh: commands only


def test_the_catalog_names_what_the_library_defines() -> None:
    from ludolab.research.catan.catalog import OBJECTIVE_NAMES
    from ludolab.research.catan.constraints import OBJECTIVES

    assert tuple(sorted(OBJECTIVES)) == OBJECTIVE_NAMES


def test_a_reader_that_goes_away_stops_the_command_quietly():
    """`ludolab ... | head -1`: no traceback about a broken pipe, the status a shell gives a
    process stopped by SIGPIPE. (`true` reads nothing and is gone before the command, which
    takes a fifth of a second to start, writes: the pipe is broken every time.)"""
    command = f"{sys.executable} -m ludolab.research.cli constraints list | true"
    done = subprocess.run(
        ["bash", "-c", command + '; echo "status ${PIPESTATUS[0]}" >&2'],
        capture_output=True,
        text=True,
    )
    assert "Traceback" not in done.stderr and "status 141" in done.stderr
