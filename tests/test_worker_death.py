"""A worker killed while it sends a chunk's result must not hang the runner: loky's manager
thread would wait for the rest of a half-written message for ever (and the interpreter with it,
at exit). backends.run_local notices the dead worker, ends the others and the pipe, and raises
WorkerDied (the case test_experiment_run.py's interrupted runs hit now and then)."""

from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path

import pytest
from worker_tasks import BigResult, play_big

from ludolab.research.experiment import backends


@pytest.mark.parametrize("delay", [0.0, 0.1, 0.2, 0.3, 0.4])
def test_a_worker_killed_while_sending_its_result_raises_worker_died(tmp_path, delay) -> None:
    pid_file = tmp_path / "pid"

    def kill_the_sender() -> None:
        while not pid_file.exists() or not pid_file.read_text():
            time.sleep(0.001)
        time.sleep(delay)  # (somewhere in making or sending the result: any point will do)
        os.kill(int(pid_file.read_text()), signal.SIGKILL)

    threading.Thread(target=kill_the_sender, daemon=True).start()
    tasks = [BigResult(0, str(pid_file)), BigResult(1, str(pid_file))]
    with pytest.raises(backends.WorkerDied, match="a worker process died"):
        for _ in backends.run_local(tasks, 2, play_big):
            pass
    assert Path(pid_file).exists()
