"""Tasks for tests/test_worker_death.py, in a module of their own so that worker processes can
import them."""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class BigResult:
    """Chunk 0 writes its worker's pid to ``pid_file`` and returns ``megabytes`` of bytes (long
    enough to send that a kill can land halfway); the other chunks wait."""

    chunk: int
    pid_file: str
    megabytes: int = 200


def play_big(task: BigResult) -> bytes:
    if task.chunk == 0:
        Path(task.pid_file).write_text(str(os.getpid()))
        return b"x" * (task.megabytes * 2**20)
    time.sleep(600)  # (the test's kill ends the pool long before)
    return b""
