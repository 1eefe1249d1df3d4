"""The documentation's commands run as written: every ``bash`` block of the site's pages
(``docs/*.md``, ``docs/guides/*.md``) is run from the root of the checkout, one block one shell
(``set -euo pipefail``), and must exit 0. A block right after a line ``<!-- slow -->`` (a whole
study, say) runs in the slow suite (``make test-all``); one after ``<!-- setup -->`` may hold only
``make setup``, which every run of the suite has run first (``make test`` does), and is checked,
not run again (a nested ``make`` could reinstall the package under the running tests)."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GUIDES = sorted([*(ROOT / "docs").glob("*.md"), *(ROOT / "docs" / "guides").glob("*.md")])
BLOCK = re.compile(r"^(?:<!-- (slow|setup) -->\n)?```bash\n(.*?)^```$", re.S | re.M)


def blocks() -> list[tuple[str, str, str]]:
    """(page:block number, the block's commands, its mark: "slow", "setup" or "") for every bash
    block of every page."""
    return [
        (f"{guide.name}:{i}", text, mark)
        for guide in GUIDES
        for i, (mark, text) in enumerate(BLOCK.findall(guide.read_text()))
    ]


def test_the_guides_have_commands() -> None:
    assert GUIDES and len(blocks()) >= 5


@pytest.mark.parametrize(
    ("where", "commands"),
    [
        pytest.param(where, text, marks=[pytest.mark.slow] if mark == "slow" else [], id=where)
        for where, text, mark in blocks()
        if mark != "setup"
    ],
)
def test_a_guide_s_commands_run_as_written(where: str, commands: str, tmp_path: Path) -> None:
    env = {**os.environ, "TMPDIR": str(tmp_path)}  # mktemp -d lands in the test's folder
    done = subprocess.run(
        ["bash", "-c", "set -euo pipefail\n" + commands],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, (
        f"{where}:\n{commands}\nstdout:\n{done.stdout}\nstderr:\n{done.stderr}"
    )


def test_a_setup_block_is_only_what_make_test_runs_first() -> None:
    setup = [(where, text) for where, text, mark in blocks() if mark == "setup"]
    assert setup
    for where, text in setup:
        commands = [line.split("#")[0].strip() for line in text.splitlines()]
        assert [c for c in commands if c] == ["make setup"], where
