"""Agents from outside the package: named by ``module:Class`` or by a ``ludolab.agents`` entry
point, in Python, on the command line, and in experiments with worker processes, each as a new
user would set one up (a module of their own on PYTHONPATH; a distribution that declares the
entry point)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from test_experiment_run import TINY, digest

from ludolab.envs.agents import AgentSpecError
from ludolab.envs.catan.agents import REGISTRY as CATAN
from ludolab.envs.catan.play import play_game
from ludolab.research.catan.samplers import fair_board

MODULE = '''
from ludolab.envs.agents import Agent
from ludolab.envs.gallery.agents import RandomAgent as GalleryRandom


class FirstLegal(Agent):
    """Plays the first legal action; with offset k, the k-th (wrapping round)."""

    name = "first-legal"
    game = "catan"

    def __init__(self, offset: int = 0) -> None:
        super().__init__()
        self.offset = offset

    def act(self, game, legal):
        return legal[self.offset % len(legal)]


class NotAnAgent:
    pass


class GalleryOnly(GalleryRandom):
    pass
'''

ENTRY_POINTS = "[ludolab.agents]\nfirst = labagents:FirstLegal\nbroken = labagents:Missing\n"


@pytest.fixture
def lab(tmp_path, monkeypatch) -> Path:
    """A folder holding the user's module ``labagents`` and a distribution ``lab`` whose
    metadata declares two ``ludolab.agents`` entry points; on sys.path and PYTHONPATH."""
    folder = tmp_path / "lab"
    folder.mkdir()
    (folder / "labagents.py").write_text(MODULE)
    info = folder / "lab-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: lab\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(ENTRY_POINTS)
    monkeypatch.syspath_prepend(str(folder))
    monkeypatch.setenv(
        "PYTHONPATH", os.pathsep.join([str(folder), os.environ.get("PYTHONPATH", "")])
    )
    return folder


def cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "ludolab.research.cli", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
    )


def test_a_class_spec_makes_the_agent_and_records_itself(lab):
    agent = CATAN.parse("labagents:FirstLegal?offset=1")
    assert type(agent).__name__ == "FirstLegal" and agent.offset == 1
    assert agent.spec == "labagents:FirstLegal?offset=1"
    agents = [agent, *(CATAN.parse("random") for _ in range(3))]
    record = play_game(fair_board(1), agents, seed=3)
    assert record.n_actions > 0
    assert CATAN.parse("greedy:trade=false").spec == "greedy:trade=false"  # shipped: unchanged


def test_an_entry_point_name_works_like_a_shipped_name(lab):
    agent = CATAN.parse("first:offset=2")
    assert type(agent).__name__ == "FirstLegal" and agent.offset == 2
    assert agent.spec == "first:offset=2"
    with pytest.raises(AgentSpecError, match="entry point 'labagents:Missing' does not load"):
        CATAN.parse("broken")
    with pytest.raises(
        AgentSpecError,
        match="known agents: alphabeta, greedy, lookahead, mcts, mcts-value, random, broken",
    ):
        CATAN.parse("ppo")


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("nolab.agents:PPO", "cannot import 'nolab.agents'"),
        ("labagents:Missing", "module 'labagents' has no 'Missing'"),
        ("labagents:NotAnAgent", "is not a ludolab Agent subclass"),
        ("labagents:GalleryOnly", "GalleryOnly plays gallery, not catan"),
        ("labagents:FirstLegal?speed=3", "bad parameters"),
        ("labagents:FirstLegal?offset", "expected key=value"),
        ("lab.agents:", "expected module.path:ClassName"),
        ("labagents", "unknown catan agent .labagents.*module.path:ClassName"),
    ],
)
def test_a_bad_class_spec_says_what_is_wrong(lab, spec, message):
    with pytest.raises(AgentSpecError, match=message):
        CATAN.parse(spec)


def test_the_command_line_plays_an_outside_agent_with_workers(lab, tmp_path):
    out = tmp_path / "games.parquet"
    agents = "labagents:FirstLegal?offset=1,first,random,random"
    args = ["simulate", "catan", "--agents", agents, "--games", "8", "--workers", "2", "-q"]
    done = cli(*args, "--out", str(out), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    meta = json.loads(pq.read_schema(out).metadata[b"ludolab"])
    assert meta["agents"] == ["labagents:FirstLegal?offset=1", "first", "random", "random"]
    assert pq.read_table(out).num_rows == 8
    bad = cli(
        *args[:3],
        "labagents:Nope,random",
        "--games",
        "2",
        "--out",
        str(tmp_path / "b.parquet"),
        cwd=tmp_path,
    )
    assert bad.returncode == 2 and bad.stderr.strip().count("\n") == 0
    assert "has no 'Nope'" in bad.stderr and not (tmp_path / "b.parquet").exists()


def test_an_experiment_runs_an_outside_agent_with_workers(lab, tmp_path):
    """``ludolab run --workers 2`` plays the same games as one process (``--workers 1``)."""
    from ludolab.research.experiment.runner import run_experiment

    config = tmp_path / "lab.toml"
    seats = '["labagents:FirstLegal?offset=1", "first", "greedy", "greedy"]'
    config.write_text(
        TINY.format(boards=2, games=2, chunk=4).replace(
            'seats = ["greedy", "greedy", "greedy", "random"]', f"seats = {seats}"
        )
    )
    done = cli(
        "run", str(config), "--out", str(tmp_path / "results"), "--workers", "2", "-q", cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    (run,) = (tmp_path / "results" / "tiny").iterdir()
    played = pq.read_table(run / "games.parquet").column("agents").to_pylist()
    assert any("labagents:FirstLegal?offset=1" in seats and "first" in seats for seats in played)
    one = run_experiment(config, out=tmp_path / "one", workers=1, analyse=False, quiet=True)
    assert digest(one.path / "games.parquet") == digest(run / "games.parquet")
    bad = tmp_path / "bad.toml"
    bad.write_text(config.read_text().replace('"first"', '"labagents:Nope"'))
    failed = cli("run", str(bad), "--out", str(tmp_path / "fresh"), cwd=tmp_path)
    assert failed.returncode == 2 and failed.stderr.strip().count("\n") == 0
    assert "has no 'Nope'" in failed.stderr and not (tmp_path / "fresh").exists()


def test_dask_workers_import_an_outside_agent_by_name(lab, tmp_path):
    distributed = pytest.importorskip("distributed")
    from ludolab.research.experiment.runner import run_experiment

    config = tmp_path / "lab.toml"
    config.write_text(
        TINY.format(boards=2, games=2, chunk=4).replace(
            'seats = ["greedy", "greedy", "greedy", "random"]',
            'seats = ["labagents:FirstLegal?offset=1", "first", "greedy", "greedy"]',
        )
    )
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        run = run_experiment(
            config,
            out=tmp_path / "results",
            backend="dask",
            scheduler=cluster.scheduler_address,
            analyse=False,
            quiet=True,
        )
    played = pq.read_table(run.path / "games.parquet").column("agents").to_pylist()
    assert any("labagents:FirstLegal?offset=1" in seats for seats in played)
    one = run_experiment(config, out=tmp_path / "one", workers=1, analyse=False, quiet=True)
    assert digest(one.path / "games.parquet") == digest(run.path / "games.parquet")


# ---------------------------------------------------------------------- the SB3 adapter

FAKE_SB3 = '''
import json

import numpy as np


class FakeMaskable:
    """Stands in for sb3_contrib.MaskablePPO (no torch here): a saved "model" is a JSON file
    with the action count and the observation size the env gives; ``predict`` checks the
    observation it gets and plays the highest action the mask allows."""

    def __init__(self, n, size):
        self.action_space = type("Space", (), {"n": n})()
        self.size = size

    @classmethod
    def load(cls, path, device="auto"):
        saved = json.load(open(path))
        return cls(saved["n"], saved["size"])

    def predict(self, obs, action_masks=None, deterministic=True):
        assert obs.shape == (self.size,) and obs.dtype == np.float32, obs.shape
        assert 0.0 <= obs.min() and obs.max() <= 1.0
        return np.int64(np.flatnonzero(action_masks)[-1]), None
'''


@pytest.mark.parametrize("game", ["gallery", "catan"])
def test_the_sb3_adapter_plays_a_saved_policy_with_workers(lab, tmp_path, game):
    """The adapter gives the policy the env's observation of its seat and the legal actions
    as the mask, and plays what it predicts: the same games with 1 and 2 workers."""
    if game == "gallery":
        from ludolab.envs.gallery.actions import N_ACTIONS
        from ludolab.envs.gallery.observation import observation_size

        size, seats = observation_size(2), 2
    else:
        from ludolab.envs.catan.actions import N_ACTIONS
        from ludolab.envs.catan.observation import observation_size

        size, seats = observation_size(4), 4
    (lab / "fakesb3.py").write_text(FAKE_SB3)
    model = tmp_path / "model.zip"
    model.write_text(json.dumps({"n": N_ACTIONS, "size": size}))
    spec = f"ludolab.envs.sb3:SB3Agent?path={model},algo=fakesb3:FakeMaskable"
    agents = ",".join([spec] + ["random"] * (seats - 1))
    tables = []
    for workers in ("1", "2"):
        out = tmp_path / f"{game}-{workers}.parquet"
        args = ["simulate", game, "--agents", agents, "--games", "6", "--workers", workers]
        done = cli(*args, "--batch", "2", "--out", str(out), "-q", cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        tables.append(pq.read_table(out))
    assert tables[0].equals(tables[1])
    assert tables[0].column("agents")[0].as_py()[0] == spec


def test_the_sb3_adapter_refuses_a_missing_model_before_playing(lab, tmp_path):
    out = tmp_path / "games.parquet"
    spec = f"ludolab.envs.sb3:SB3Agent?path={tmp_path / 'nothing.zip'}"
    done = cli("simulate", "gallery", "--agents", f"{spec},random", "--out", str(out), cwd=tmp_path)
    assert done.returncode == 2
    assert "no such model file" in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert not out.exists()
