"""Where a run's numbers came from: config hash, code version, package and solver versions."""

from __future__ import annotations

import platform
import subprocess
import sys
from importlib import metadata
from pathlib import Path
from typing import Any

import ludolab.envs
from ludolab.research.solve import SolveError, find_toolchain

PACKAGES = (
    "ludolab",
    "numpy",
    "scipy",
    "pandas",
    "pyarrow",
    "matplotlib",
    "seaborn",
    "gymnasium",
    "pettingzoo",
    "minizinc",
    "joblib",
    "dask",
    "distributed",
)
REPO = Path(__file__).resolve().parents[2]


def git_state(repo: Path = REPO) -> dict[str, Any]:
    """``{"commit": sha or None, "dirty": bool or None}`` of the source tree this code runs from
    (None when it is not a git checkout, e.g. an installed wheel)."""

    def git(*args: str) -> str | None:
        try:
            out = subprocess.run(
                ["git", "-C", str(repo), *args], capture_output=True, text=True, timeout=10
            )
        except (OSError, subprocess.TimeoutExpired):
            return None
        return out.stdout if out.returncode == 0 else None

    commit = git("rev-parse", "HEAD")
    if commit is None:
        return {"commit": None, "dirty": None}
    status = git("status", "--porcelain", "--untracked-files=no")
    return {"commit": commit.strip(), "dirty": None if status is None else bool(status.strip())}


def package_versions(names: tuple[str, ...] = PACKAGES) -> dict[str, str | None]:
    """Installed versions of ``names`` (None for one not installed)."""
    out: dict[str, str | None] = {}
    for name in names:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = None
    return out


def solver_versions() -> dict[str, str | None]:
    """MiniZinc and Gecode versions (None when the toolchain is missing)."""
    try:
        tc = find_toolchain()
    except SolveError:
        return {"minizinc": None, "gecode": None}
    return {"minizinc": tc.minizinc_version, "gecode": tc.gecode_version}


def collect(config_hash: str, seeds: dict[str, Any]) -> dict[str, Any]:
    """The provenance record of a run (timings and backend are added by the runner)."""
    return {
        "config_hash": config_hash,
        "git": git_state(),
        "python": sys.version.split()[0],
        "platform": platform.platform(),
        "packages": package_versions(),
        "solvers": solver_versions(),
        # Compiled or source: the games are the same, the timings are not.
        "engine": ludolab.envs.COMPILED.describe(),
        "seeds": seeds,
    }
