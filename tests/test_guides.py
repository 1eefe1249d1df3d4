"""The guides run as written: every ``bash`` block of ``docs/guides/*.md`` is run from the root
of the checkout, one block one shell (``set -euo pipefail``), and must exit 0. A block right
after a line ``<!-- slow -->`` (a whole study, say) runs in the slow suite (``make test-all``)."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GUIDES = sorted((ROOT / "docs" / "guides").glob("*.md"))
BLOCK = re.compile(r"^(<!-- slow -->\n)?```bash\n(.*?)^```$", re.S | re.M)


def blocks() -> list[tuple[str, str, bool]]:
    """(guide:block number, the block's commands, whether it is slow) for every bash block of
    every guide."""
    return [
        (f"{guide.name}:{i}", text, bool(slow))
        for guide in GUIDES
        for i, (slow, text) in enumerate(BLOCK.findall(guide.read_text()))
    ]


def test_the_guides_have_commands() -> None:
    assert GUIDES and len(blocks()) >= 5


@pytest.mark.parametrize(
    ("where", "commands"),
    [
        pytest.param(where, text, marks=[pytest.mark.slow] if slow else [], id=where)
        for where, text, slow in blocks()
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
