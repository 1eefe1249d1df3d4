"""Helpers the generated puzzle games' tests share: their command line, and a check that a
tampered pack fails ``verify`` in one line."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path


def puzzle_cli(game: str, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    """``ludolab puzzle GAME ARGS...`` in a fresh process."""
    return subprocess.run(
        [sys.executable, "-m", "ludolab.research.cli", "puzzle", game, *args],
        capture_output=True,
        text=True,
        cwd=cwd,
    )


def tamperer(game: str, pack: Path) -> Callable[[Callable[[dict], object]], str]:
    """A function that applies a change to a copy of ``pack``'s JSON, runs ``verify`` on it,
    checks that it fails with one line on stderr, exit 2 and nothing on stdout, and returns
    that line."""
    good = json.loads(pack.read_text())

    def tampered(change: Callable[[dict], object]) -> str:
        data = json.loads(json.dumps(good))
        change(data)
        path = pack.parent / "tampered.json"
        path.write_text(json.dumps(data))
        done = puzzle_cli(game, "verify", str(path), cwd=pack.parent)
        assert done.returncode == 2 and done.stdout == "" and done.stderr.count("\n") == 1, done
        return done.stderr

    return tampered
