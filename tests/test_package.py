"""The installed package: one top-level name, `ludolab`, and nothing a user's project can shadow."""

from __future__ import annotations

import importlib.metadata
import os
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_installed_distribution_has_one_top_level_name() -> None:
    dist = importlib.metadata.distribution("ludolab")
    assert (dist.read_text("top_level.txt") or "").split() == ["ludolab"]
    mine = sorted(
        name
        for name, dists in importlib.metadata.packages_distributions().items()
        if "ludolab" in dists
    )
    assert mine == ["ludolab"]
    entry = {ep.name: ep.value for ep in dist.entry_points.select(group="console_scripts")}
    assert entry == {"ludolab": "ludolab.research.cli:main"}


def test_a_project_with_its_own_envs_and_research_packages_keeps_them(tmp_path: Path) -> None:
    """An RL project often has an `envs` package: it is its own, and ours still imports."""
    for name in ("envs", "research"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "__init__.py").write_text(f"OWNER = 'the user ({name})'\n")
    script = (
        "import envs, research, ludolab.envs.catan, ludolab.research.catan.samplers as s\n"
        "print(envs.OWNER, research.OWNER, type(s.fair_board(1)).__name__)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True, check=True
    )
    assert done.stdout.split("\n")[0] == "the user (envs) the user (research) Board"


def test_a_wheel_holds_ludolab_alone_with_its_data(tmp_path: Path) -> None:
    """A wheel of the project (the Python source; compiling is tested by test_compiled) has one
    top-level package, every module of envs/ and research/ under it, and the data files."""
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation",
         "-w", str(tmp_path), str(ROOT)],
        env={**os.environ, "LUDOLAB_PURE_PYTHON": "1"},
        check=True,
        capture_output=True,
    )
    (wheel,) = tmp_path.glob("ludolab-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    version = importlib.metadata.version("ludolab")
    assert {name.split("/")[0] for name in names} == {"ludolab", f"ludolab-{version}.dist-info"}
    shipped = (".py", ".toml", ".mzn", ".json", ".txt")
    expected = {"ludolab/__init__.py"} | {
        f"ludolab/{path.relative_to(ROOT).as_posix()}"
        for folder in ("envs", "research")
        for path in (ROOT / folder).rglob("*")
        if path.suffix in shipped and "__pycache__" not in path.parts
    }
    assert sorted(expected - names) == []
