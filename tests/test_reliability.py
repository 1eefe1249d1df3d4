"""Careless and hurried use: every write stays where it belongs, bad input is one line."""

from __future__ import annotations

from pathlib import Path

import pytest

from ludolab.research.cli import main

ROOT = Path(__file__).resolve().parents[1]

CONFIGS = {
    "catan": """
name = "NAME"
game = "catan"
seed = 1
players = 4
boards = 1
games_per_board = 1
[[conditions]]
constraints = "random"
[[lineups]]
seats = "random"
""",
    "gallery": """
name = "NAME"
game = "gallery"
seed = 1
players = 3
deals = 1
games_per_deal = 1
[[conditions]]
constraints = "fair"
[[lineups]]
seats = "random"
""",
    "sudoku": """
name = "NAME"
game = "sudoku"
seed = 1
[[sizes]]
size = 6
clues = [8]
puzzles = 1
""",
}


def _everything_under(root: Path) -> set[Path]:
    return {p for p in root.rglob("*")}


@pytest.mark.parametrize("game", sorted(CONFIGS))
@pytest.mark.parametrize(
    ("name", "run_id"), [("../../escaped", None), ("ok", "../../../elsewhere"), ("ok", "/tmp/x")]
)
def test_no_write_escapes_the_results_folder(tmp_path, capsys, game, name, run_id) -> None:
    work = tmp_path / "work"
    work.mkdir()
    cfg = work / "exp.toml"
    cfg.write_text(CONFIGS[game].replace("NAME", name))
    before = _everything_under(tmp_path)
    args = ["run", str(cfg), "--out", str(work / "results")]
    if run_id:
        args += ["--run-id", run_id]
    assert main(args) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "cannot be a folder name" in err[0], err
    assert _everything_under(tmp_path) == before


def test_a_sudoku_study_refuses_flags_it_cannot_honour(tmp_path, capsys) -> None:
    cfg = tmp_path / "s.toml"
    cfg.write_text(CONFIGS["sudoku"].replace("NAME", "s"))
    assert main(["run", str(cfg), "--out", str(tmp_path / "r"), "--resume"]) == 2
    assert "a Sudoku study takes --out, --run-id and --workers only, not --resume" in (
        capsys.readouterr().err
    )
    assert not (tmp_path / "r").exists()


def test_an_existing_output_is_kept_unless_forced(tmp_path, capsys) -> None:
    out = tmp_path / "boards.jsonl"
    out.write_text("precious\n")
    args = ["generate", "catan", "-c", "random", "-n", "2", "--out", str(out)]
    assert main(args) == 2
    assert "the file exists; pass --force to replace it" in capsys.readouterr().err
    assert out.read_text() == "precious\n"
    assert main([*args, "--force"]) == 0 and len(out.read_text().splitlines()) == 2
    assert main(["generate", "catan", "-c", "random", "-n", "2", "--out", str(tmp_path)]) == 2
    assert "is a folder; name the file to write" in capsys.readouterr().err


def test_two_writers_of_one_path_leave_one_whole_file(tmp_path) -> None:
    import subprocess
    import sys

    out = tmp_path / "same.jsonl"
    code = "import sys; from ludolab.research.cli import main; sys.exit(main())"
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                "-c",
                code,
                "generate",
                "catan",
                "-c",
                "random",
                "-n",
                "20000",
                "--seed",
                str(seed),
                "--out",
                str(out),
                "--force",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        for seed in (1, 2)
    ]
    codes = [p.wait(timeout=300) for p in procs]
    assert codes == [0, 0], [p.stderr.read() for p in procs]
    from ludolab.envs.catan.board import iter_boards

    boards = list(iter_boards(out))  # every line parses: one whole file, from one writer
    assert len(boards) == 20000
    assert not [p for p in tmp_path.iterdir() if p.name != "same.jsonl"]  # no temporaries left


def _bad_inputs(tmp: Path) -> list[tuple[list[str], str]]:
    latin = tmp / "latin1.toml"
    latin.write_bytes('name = "caf\xe9"\n'.encode("latin-1"))
    boards = tmp / "latin1.jsonl"
    boards.write_bytes(b'{"x": "\xe9"}\n')
    out = str(tmp / "out.jsonl")
    gen = ["generate", "catan", "-c", "official", "--out", out]
    return [
        ([*gen, "-n", "2", "--seed", "-1"], "--seed: expected an integer >= 0"),
        ([*gen, "--sampler", "solver", "--time-limit", "nan"], "--time-limit: expected a finite"),
        ([*gen, "--sampler", "solver", "--time-limit", "inf"], "--time-limit: expected a finite"),
        ([*gen, "--sampler", "solver", "--time-limit", "-3"], "--time-limit: expected a finite"),
        ([*gen, "-n", "0"], "-n must be at least 1"),
        ([*gen, "-n", "1000000000000"], "GiB is available"),
        (["generate", "catan", "-c", "official", "--out", str(tmp)], "is a folder"),
        (
            [
                "simulate",
                "catan",
                "--vp-to-win",
                "25",
                "--turn-limit",
                "0",
                "--out",
                str(tmp / "g.parquet"),
            ],
            "vp_to_win must be at most 22",
        ),
        (
            [
                "simulate",
                "catan",
                "--agents",
                "lookahead:w_prod=nan,random,random,random",
                "--out",
                str(tmp / "g.parquet"),
            ],
            "must be a finite number",
        ),
        *(
            (
                ["simulate", game, "--agents", f"{spec},random", "--out", str(tmp / "g.parquet")],
                fragment,
            )
            for game, spec, fragment in (  # agent budgets: zero, negative, NaN
                ("catan", "mcts:playouts=0", "playouts must be a whole number >= 1, got 0"),
                ("catan", "mcts:playouts=-5", "playouts must be a whole number >= 1, got -5"),
                ("catan", "mcts:seconds=nan", "seconds must be a finite number, got nan"),
                ("catan", "alphabeta:depth=0", "depth must be a whole number >= 1, got 0"),
                ("catan", "mcts-value:horizon=-1", "horizon must be a whole number >= 0, got -1"),
                ("catan", "lookahead:playouts=-1", "playouts must be a whole number >= 0"),
                ("gallery", "mcts:playouts=nan", "playouts must be a finite number, got nan"),
            )
        ),
        (
            ["ladder", "catan", "--agents", "random,greedy,lookahead,mcts:playouts=-1", "--out",
             str(tmp / "ladder")],
            "playouts must be a whole number >= 1, got -1",
        ),  # fmt: skip
        (
            ["simulate", "catan", "--games", "1000000000000", "--out", str(tmp / "g.parquet")],
            "GiB is available",
        ),
        (
            ["simulate", "catan", "--seed", "-5", "--out", str(tmp / "g.parquet")],
            "--seed: expected an integer >= 0",
        ),
        (
            ["simulate", "catan", "--boards", str(boards), "--out", str(tmp / "g.parquet")],
            str(boards),
        ),
        (["constraints", "show", "random", "--model"], "constrains nothing"),
        (["exhibits", "--players", "2", "--time-limit", "nan"], "--time-limit: expected"),
        (["count", "-c", "official", "--seed", "-2"], "--seed"),
        (["check-uniformity", "-c", "seed-2019-tiles", "--draws", "1"], "fewer than 5 expected"),
        (["run", str(latin), "--out", str(tmp / "r")], "not UTF-8"),
        (
            [
                "run",
                str(ROOT / "experiments" / "quickstart.toml"),
                "--out",
                str(tmp / "r"),
                "--set",
                "nope=1",
            ],
            "'nope' is not a config key",
        ),
    ]


def test_every_bad_input_is_one_clear_line_and_exit_2(tmp_path, capsys) -> None:
    failures = []
    for args, fragment in _bad_inputs(tmp_path):
        try:
            code = main(args)
        except SystemExit as exc:  # argparse's own errors
            code = exc.code
        err = capsys.readouterr().err
        last = err.strip().splitlines()[-1] if err.strip() else ""
        if code != 2 or "Traceback" in err or fragment not in last:
            failures.append((args, code, err[-400:]))
    assert not failures, failures
    assert not (tmp_path / "out.jsonl").exists() and not (tmp_path / "r").exists()


def test_a_game_seed_is_an_integer_not_a_truncated_float() -> None:
    import gymnasium as gym

    import ludolab.envs.catan  # noqa: F401  (registers the environment)

    env = gym.make("ludolab/Catan-v0")
    for bad in (2.9, -1, "3", True):
        with pytest.raises(ValueError, match="game_seed"):
            env.reset(seed=1, options={"game_seed": bad})
    env.reset(seed=1, options={"game_seed": 3})
    assert env.unwrapped.game_seed == 3


def test_an_unreachable_victory_target_is_refused() -> None:
    from ludolab.envs.catan.options import MAX_VP, GameOptions

    assert MAX_VP == 22 and GameOptions(vp_to_win=22).vp_to_win == 22
    with pytest.raises(ValueError, match="at most 22"):
        GameOptions(vp_to_win=23, turn_limit=None)


def test_a_finished_run_that_lost_its_games_replays_them(tmp_path, capsys) -> None:
    import hashlib

    from ludolab.research.experiment.runner import run_experiment

    cfg = tmp_path / "exp.toml"
    cfg.write_text(CONFIGS["catan"].replace("NAME", "lost").replace("boards = 1", "boards = 2"))
    first = run_experiment(cfg, out=tmp_path / "r", quiet=True)
    games = first.path / "games.parquet"
    digest = hashlib.sha256(games.read_bytes()).hexdigest()
    games.unlink()
    assert main(["report", str(first.path)]) == 2
    err = capsys.readouterr().err
    assert "games.parquet is missing from this finished run; replay its games" in err
    again = run_experiment(cfg, out=tmp_path / "r", resume=first.path, quiet=True)
    assert again.played == first.n_games
    assert hashlib.sha256(games.read_bytes()).hexdigest() == digest
    assert (first.path / "report.md").is_file()


def test_a_run_folder_detects_edited_setups_and_games(tmp_path) -> None:
    from ludolab.research.experiment.analysis import load_run
    from ludolab.research.experiment.runner import run_experiment
    from ludolab.research.experiment.store import RunError

    cfg = tmp_path / "exp.toml"
    cfg.write_text(CONFIGS["catan"].replace("NAME", "edit").replace("boards = 1", "boards = 2"))
    run = run_experiment(cfg, out=tmp_path / "r", quiet=True, analyse=False)
    games = run.path / "games.parquet"
    games.write_bytes(games.read_bytes()[:-100])  # truncated
    with pytest.raises(RunError, match="not the file this run assembled"):
        load_run(run.path)
    games.unlink()
    boards = run.path / "boards.jsonl"
    lines = boards.read_text().splitlines()
    boards.write_text("\n".join(reversed(lines)) + "\n")  # the same boards, swapped
    with pytest.raises(RunError, match="changed since the run drew its setups"):
        run_experiment(cfg, out=tmp_path / "r", resume=run.path, quiet=True)


def test_a_run_killed_while_analysing_is_resumed(tmp_path, monkeypatch) -> None:
    import ludolab.research.experiment.report as report
    from ludolab.research.experiment.runner import run_experiment

    cfg = tmp_path / "exp.toml"
    cfg.write_text(CONFIGS["catan"].replace("NAME", "killed"))

    def killed(*args, **kwargs):
        raise KeyboardInterrupt

    with monkeypatch.context() as m:
        m.setattr(report, "analyse_run", killed)
        with pytest.raises(KeyboardInterrupt):
            run_experiment(cfg, out=tmp_path / "r", quiet=True)
    again = run_experiment(cfg, out=tmp_path / "r", resume=True, quiet=True)
    assert again.played == 0 and (again.path / "report.md").is_file()


def test_check_uniformity_picks_its_draws_and_says_what_it_does(capsys) -> None:
    from ludolab.research.catan.constraint_set import load_constraint_set
    from ludolab.research.catan.uniformity import check_uniformity

    lines: list[str] = []
    result = check_uniformity(
        load_constraint_set("seed-2019-tiles"), "uniform", None, 3, progress=lines.append
    )
    assert result.draws == 20_000  # 96 cells: 20,000 is above 10 per cell
    assert [line.split(" ")[0] for line in lines] == ["listing", "96", "testing"]


def test_a_full_disk_while_assembling_keeps_the_chunks(tmp_path, monkeypatch) -> None:
    import errno
    import hashlib

    import ludolab.research.experiment.store as store
    from ludolab.research.experiment.runner import run_experiment
    from ludolab.research.experiment.store import RunError

    cfg = tmp_path / "exp.toml"
    cfg.write_text(CONFIGS["catan"].replace("NAME", "full").replace("boards = 1", "boards = 3"))
    reference = run_experiment(cfg, out=tmp_path / "ref", quiet=True, analyse=False)

    write = store.write_parquet_stream

    def full(path, schema, tables):  # the disk fills up half way through the games
        def some():
            yield next(iter(tables))
            raise OSError(errno.ENOSPC, "No space left on device")

        write(path, schema, some())

    with monkeypatch.context() as m:
        m.setattr(store, "write_parquet_stream", full)
        with pytest.raises(RunError, match="No space left on device.*every played chunk is kept"):
            run_experiment(cfg, out=tmp_path / "r", run_id="x", quiet=True, analyse=False)
    again = run_experiment(
        cfg, out=tmp_path / "r", resume=tmp_path / "r" / "full" / "x", quiet=True
    )
    assert again.played == 0  # nothing replayed: the chunks were kept
    digest = [
        hashlib.sha256(r.read_bytes()).hexdigest()
        for r in (reference.path / "games.parquet", again.path / "games.parquet")
    ]
    assert digest[0] == digest[1]
