"""The README's Python recipes (the blocks after a ``<!-- recipe: NAME -->`` line) run as
written, from a fresh folder holding the shipped experiments."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RECIPE = re.compile(r"<!-- recipe: ([\w-]+) -->\n```python\n(.*?)\n```", re.S)


def recipes() -> dict[str, str]:
    return dict(RECIPE.findall((ROOT / "README.md").read_text()))


def test_the_readme_has_its_recipes() -> None:
    assert set(recipes()) == {"study", "figure", "observation"}


@pytest.mark.parametrize("name", sorted(recipes()))
def test_a_readme_recipe_runs_as_written(name: str, tmp_path: Path) -> None:
    shutil.copytree(ROOT / "experiments", tmp_path / "experiments")
    done = subprocess.run(
        [sys.executable, "-c", recipes()[name]],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={**os.environ, "MPLBACKEND": "Agg"},
    )
    assert done.returncode == 0, done.stderr[-3000:]
    if name == "figure":
        assert (tmp_path / "turns.png").stat().st_size > 10_000
    print(done.stdout)
