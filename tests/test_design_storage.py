"""The design search's study storage (``[design].storage``): a search and its kill-and-resume
on a real PostgreSQL server this module starts, one clear line for a storage that cannot be
opened (a driver not installed, an unknown database, a bad URL, a server that does not answer),
and no folder left behind by a start that failed."""

from __future__ import annotations

import hashlib
import os
import pwd
import re
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from ludolab.research.cli import main
from ludolab.research.design.evaluate import RungGames
from ludolab.research.design.search import search, shown_url, trials_frame
from ludolab.research.design.spec import load_design

TESTS = Path(__file__).resolve().parent

# A tiny design with real games: two trials of one rung of two boards, two games each.
REAL = """
name = "{name}"
game = "catan"
seed = 1
players = 4
boards = 2
games_per_board = 2

[[lineups]]
name = "greedy"
seats = "greedy"

[design]
constraints = "tournament"
trials = 2
rungs = 1

[[design.parameters]]
name = "intersection-cap.max"
low = 11
high = 14

[[design.objectives]]
metric = "turns"
goal = "minimize"
"""

# A design searched with synthetic games (synthetic_play): the search's storage at work, with
# no game played; two rungs, so that successive halving prunes and a kill can fall mid-trial.
SYNTHETIC = """
name = "{name}"
game = "catan"
seed = 3
players = 4
boards = 4
games_per_board = 5

[[lineups]]
name = "greedy"
seats = "greedy"

[design]
constraints = "tournament"
trials = 10
rungs = 2
startup_trials = 4

[[design.parameters]]
name = "intersection-cap.max"
low = 8
high = 20

[[design.parameters]]
name = "no-resource-triangles"
choices = ["on", "off"]

[[design.objectives]]
metric = "turns"
goal = "minimize"
"""


def synthetic_play(values: dict, rung: int) -> RungGames:
    """Turns with mean 60 + (cap - 13)^2 + 5 (rule off), noise of sd 2 seeded by the candidate
    and the rung: the same candidate gives the same games in any process."""
    cap = values["intersection-cap.max"]
    mean = 60 + (cap - 13) ** 2 + 5 * (values["no-resource-triangles"] == "off")
    key = hashlib.sha256(repr((sorted(values.items()), rung)).encode()).digest()
    rng = np.random.default_rng(int.from_bytes(key[:8], "little"))
    setups = np.repeat(np.arange(4), 5)
    games = pd.DataFrame(
        {"rung": rung, "setup": setups, "turns": mean + rng.normal(0, 2, len(setups))}
    )
    return RungGames(rung, games, "synthetic")


def _write(folder: Path, text: str, name: str = "design.toml") -> Path:
    path = folder / name
    path.write_text(text)
    return path


def _storage(url: str) -> str:
    """``--set`` of ``design.storage``."""
    return f'design.storage="{url}"'


def _one_line(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1, err
    assert err.startswith("ludolab: error: "), err
    return err


def _finished(frame: pd.DataFrame) -> pd.DataFrame:
    """A trials table less what differs between equal searches (numbers, times)."""
    return frame.drop(columns=["number", "seconds"]).reset_index(drop=True)


# -- A real PostgreSQL server ------------------------------------------------------------------


class Postgres:
    """A PostgreSQL server on a Unix socket in a folder of its own, for this module only."""

    def __init__(self, socket_dir: Path) -> None:
        self.socket_dir = socket_dir

    def database(self, name: str) -> str:
        """A new, empty database ``name``; its URL, with no driver named (``postgresql://``)."""
        import psycopg

        with psycopg.connect(
            host=str(self.socket_dir), user="ludolab", dbname="postgres", autocommit=True
        ) as con:
            con.execute(f'CREATE DATABASE "{name}"')
        return f"postgresql://ludolab@/{name}?host={self.socket_dir}"

    def count(self, url: str, sql: str) -> int:
        """The one number ``sql`` selects in the database of ``url``."""
        import psycopg

        name = url.split("/")[3].split("?")[0]
        with psycopg.connect(host=str(self.socket_dir), user="ludolab", dbname=name) as con:
            row = con.execute(sql).fetchone()
        assert row is not None
        return int(row[0])


def _server_binaries() -> Path | None:
    """The newest Debian PostgreSQL's bin folder (/usr/lib/postgresql/N/bin), or the folder
    of an initdb on PATH."""
    found = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"),
        key=lambda p: [int(x) for x in re.findall(r"\d+", p.parent.parent.name)],
    )
    if found:
        return found[-1].parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb and shutil.which("pg_ctl") else None


@pytest.fixture(scope="module")
def postgres() -> Iterator[Postgres]:
    """A PostgreSQL server started for these tests (initdb and pg_ctl in a temporary folder,
    as ``nobody`` when the tests run as root, since PostgreSQL refuses to run as root);
    skipped, with the reason, where one cannot start."""
    pytest.importorskip("psycopg", reason="psycopg is not installed (pip install -e '.[dev]')")
    binaries = _server_binaries()
    if binaries is None:
        pytest.skip("no PostgreSQL server binaries (initdb, pg_ctl): make setup installs them")
    as_user: list[str] = []
    folder = Path(tempfile.mkdtemp(prefix="ludolab-pg-"))
    if os.geteuid() == 0:
        runuser = shutil.which("runuser")
        if runuser is None:
            shutil.rmtree(folder)
            pytest.skip("running as root, and no runuser to start PostgreSQL as nobody")
        nobody = pwd.getpwnam("nobody")
        os.chown(folder, nobody.pw_uid, nobody.pw_gid)
        as_user = [runuser, "-u", "nobody", "--"]
    data = folder / "data"

    def run(*command: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*as_user, *command], capture_output=True, text=True)

    init = run(
        str(binaries / "initdb"), "-D", str(data), "-U", "ludolab", "--auth=trust", "--no-sync"
    )
    started = init.returncode == 0 and (
        run(
            str(binaries / "pg_ctl"),
            "-D",
            str(data),
            "-l",
            str(folder / "server.log"),
            "-w",
            "-t",
            "60",
            "-o",
            f"-k {folder} -c listen_addresses='' -F",
            "start",
        ).returncode
        == 0
    )
    if not started:
        log = folder / "server.log"
        why = init.stderr if init.returncode else (log.read_text() if log.exists() else "")
        shutil.rmtree(folder)
        pytest.skip(f"the PostgreSQL server did not start: {why.strip()[-300:]}")
    try:
        yield Postgres(folder)
    finally:
        run(str(binaries / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(folder, ignore_errors=True)


def test_a_design_search_runs_on_postgresql_and_resumes(
    postgres: Postgres, tmp_path: Path
) -> None:
    """``ludolab design`` with ``design.storage = "postgresql://..."`` (no driver named: the
    extra's psycopg): the study lives in the server, none in the folder; ``--resume`` with a
    larger budget keeps the trials and plays one more."""
    url = postgres.database("design_cli")
    path = _write(tmp_path, REAL.format(name="shared"))
    out = tmp_path / "out"
    args = ["design", str(path), "--out", str(out), "-q", "--no-confirm", "--set", _storage(url)]
    assert main(args) == 0
    folder = out / "shared"
    assert not (folder / "study.db").exists()
    before = pd.read_csv(folder / "trials.csv")
    assert len(before) == 2
    assert postgres.count(url, "select count(*) from trials where state = 'COMPLETE'") == 2
    assert main([*args, "--resume", "--set", "design.trials=3"]) == 0
    after = pd.read_csv(folder / "trials.csv")
    assert len(after) == 3
    pd.testing.assert_frame_equal(
        after.iloc[:2].drop(columns="seconds"), before.drop(columns="seconds")
    )
    assert postgres.count(url, "select count(*) from trials") == 3


CHILD = """
import os, signal, sys
from pathlib import Path
sys.path.insert(0, {tests!r})
from test_design_storage import synthetic_play
from ludolab.research.design.search import search
from ludolab.research.design.spec import load_design

spec = load_design({path!r}, [{storage!r}])
calls = 0

def play(values, rung):
    global calls
    calls += 1
    if calls == {kill_at}:  # in the middle of a trial: it is RUNNING in the database
        os.kill(os.getpid(), signal.SIGKILL)
    return synthetic_play(values, rung)

search(spec, Path({folder!r}), play, [80.0], say=lambda line: None)
"""


def test_a_search_killed_on_postgresql_resumes_to_the_same_trials(
    postgres: Postgres, tmp_path: Path
) -> None:
    """A search process SIGKILLed in the middle of a trial (its connection to the server cut,
    its trial left RUNNING) and resumed finishes with the trials of one never killed."""
    path = _write(tmp_path, SYNTHETIC.format(name="killed"))
    whole_url = postgres.database("design_whole")
    whole_spec = load_design(path, [_storage(whole_url)])
    whole = search(whole_spec, tmp_path / "whole", synthetic_play, [80.0], say=lambda _: None)

    url = postgres.database("design_killed")
    child = CHILD.format(
        tests=str(TESTS),
        path=str(path),
        storage=_storage(url),
        kill_at=9,
        folder=str(tmp_path / "cut"),
    )
    proc = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True)
    assert proc.returncode == -signal.SIGKILL, proc.stderr
    assert postgres.count(url, "select count(*) from trials where state = 'RUNNING'") == 1
    said: list[str] = []
    spec = load_design(path, [_storage(url)])
    resumed = search(spec, tmp_path / "cut", synthetic_play, [80.0], say=said.append)
    assert any("was interrupted: its parameters are played again" in line for line in said)
    assert len(trials_frame(whole, whole_spec)) == 10
    pd.testing.assert_frame_equal(
        _finished(trials_frame(resumed, spec)), _finished(trials_frame(whole, whole_spec))
    )


# -- A storage that cannot be opened: one line, nothing left behind ----------------------------


def test_a_missing_postgresql_driver_names_the_extra(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The issue's case: a PostgreSQL URL where no driver is installed. One line naming psycopg
    and the pip command, the password hidden, and no folder left, so the next attempt (here
    with SQLite) starts as if the first had not been made."""
    monkeypatch.setitem(sys.modules, "psycopg", None)  # an import of either now fails
    monkeypatch.setitem(sys.modules, "psycopg2", None)
    path = _write(tmp_path, REAL.format(name="nodriver"))
    out = tmp_path / "new" / "results"
    url = "postgresql://ana:s3cret@db.example.org/optuna"
    args = ["design", str(path), "--out", str(out), "-q", "--no-confirm"]
    assert main([*args, "--set", _storage(url)]) == 2
    err = _one_line(capsys)
    assert str(path) in err and "'design.storage'" in err, err
    assert "psycopg" in err and "pip install 'ludolab[postgres]'" in err, err
    assert "s3cret" not in err and "ana:***@db.example.org" in err, err
    assert not (tmp_path / "new").exists()  # the folders it made, parents included
    monkeypatch.undo()
    assert main([*args, "--set", _storage(f"sqlite:///{tmp_path / 'study.db'}")]) == 0
    assert len(pd.read_csv(out / "nodriver" / "trials.csv")) == 2


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        # a driver SQLAlchemy knows whose module is not installed
        ("postgresql+pg8000://u@localhost/db", ["pg8000", "pip install pg8000", "[postgres]"]),
        ("mysql+pymysql://u:pw@localhost/db", ["pymysql", "pip install pymysql", "u:***@"]),
        # a database or driver SQLAlchemy does not know
        ("postgres://u@localhost/db", ["knows no database 'postgres'", "postgresql://"]),
        ("postgresql+nosuch://u@localhost/db", ["'postgresql+nosuch'"]),
        # not a URL
        ("study.db", ["'study.db' is not a database URL", "sqlite:///"]),
        # a database that cannot be opened
        ("sqlite:////nonexistent-folder/study.db", ["cannot open the study", "unable to open"]),
    ],
)
def test_a_storage_that_cannot_be_opened_gives_one_line_and_leaves_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], url: str, expected: list[str]
) -> None:
    path = _write(tmp_path, REAL.format(name="bad"))
    out = tmp_path / "out"
    args = ["design", str(path), "--out", str(out), "-q", "--set", _storage(url)]
    assert main(args) == 2
    err = _one_line(capsys)
    assert str(path) in err and "'design.storage'" in err, err
    for part in expected:
        assert part in err, (part, err)
    assert not out.exists()


def test_a_server_that_does_not_answer_gives_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("psycopg", reason="psycopg is not installed (pip install -e '.[dev]')")
    path = _write(tmp_path, REAL.format(name="refused"))
    out = tmp_path / "out"
    url = "postgresql://u:pw@127.0.0.1:1/db"  # port 1: nothing listens, refused at once
    assert main(["design", str(path), "--out", str(out), "-q", "--set", _storage(url)]) == 2
    err = _one_line(capsys)
    assert "cannot open the study at postgresql+psycopg://u:***@127.0.0.1:1/db" in err, err
    assert "Connection refused" in err and "pw@" not in err, err
    assert not out.exists()


def test_a_folder_that_held_a_search_is_never_removed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--resume`` of a search whose database cannot be opened now: the error, and the
    folder as it was; once the database is back, the resume works."""
    shared = tmp_path / "db" / "shared.db"
    shared.parent.mkdir()
    path = _write(tmp_path, REAL.format(name="kept"))
    out = tmp_path / "out"
    args = ["design", str(path), "--out", str(out), "-q", "--no-confirm"]
    args += ["--set", _storage(f"sqlite:///{shared}")]
    assert main(args) == 0
    folder = out / "kept"
    files = {p: p.read_bytes() for p in folder.rglob("*") if p.is_file()}
    assert folder / "trials.csv" in files
    shared.parent.rename(tmp_path / "away")  # the database's folder is gone
    assert main([*args, "--resume", "--set", "design.trials=3"]) == 2
    assert "cannot open the study" in _one_line(capsys)
    assert {p: p.read_bytes() for p in folder.rglob("*") if p.is_file()} == files
    (tmp_path / "away").rename(shared.parent)
    assert main([*args, "--resume", "--set", "design.trials=3"]) == 0
    assert len(pd.read_csv(folder / "trials.csv")) == 3


def test_a_baseline_that_cannot_be_played_leaves_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A baseline whose setups cannot be drawn is one line (not a traceback), and the folder
    goes. (Infeasible is what play_rung raises for a set no board satisfies; a real one takes
    the sampler its time to give up.)"""
    from ludolab.research.design import run
    from ludolab.research.design.evaluate import Infeasible

    def infeasible(*args: object, **kwargs: object) -> RungGames:
        raise Infeasible("no setup satisfies the set")

    monkeypatch.setattr(run, "play_rung", infeasible)
    path = _write(tmp_path, REAL.format(name="nobase"))
    out = tmp_path / "out"
    assert main(["design", str(path), "--out", str(out), "-q"]) == 2
    err = _one_line(capsys)
    assert str(path) in err, err
    assert "the baseline's setups cannot be drawn (no setup satisfies the set)" in err, err
    assert not out.exists()


def test_an_interrupted_start_keeps_its_folder_for_resume(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An interrupt during the baseline is a kill, not a failed start: the folder, which names
    its search, stays for ``--resume``."""
    from ludolab.research.design import run

    def interrupted(*args: object, **kwargs: object) -> RungGames:
        raise KeyboardInterrupt

    monkeypatch.setattr(run, "play_rung", interrupted)
    path = _write(tmp_path, REAL.format(name="stopped"))
    with pytest.raises(KeyboardInterrupt):
        run.run_design(path, out=tmp_path / "out", quiet=True, confirm=False)
    assert (tmp_path / "out" / "stopped" / "design.json").exists()
    monkeypatch.undo()
    result = run.run_design(path, out=tmp_path / "out", quiet=True, confirm=False, resume=True)
    assert len(result.trials) == 2


def test_a_password_is_hidden_in_messages() -> None:
    hidden = "postgresql://ana:***@host:5432/db"
    assert shown_url("postgresql://ana:pa/ss%40w:rd@host:5432/db") == hidden
    assert shown_url("postgresql://ana@host/db?host=/tmp") == "postgresql://ana@host/db?host=/tmp"
    assert shown_url("sqlite:////tmp/study.db") == "sqlite:////tmp/study.db"
