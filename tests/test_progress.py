"""Feedback of long commands: a bar or a live status line on stderr in a terminal, nothing with
-q, nothing when stderr is not a terminal (a log file gets no carriage-return noise)."""

from __future__ import annotations

import fcntl
import os
import pty
import re
import struct
import subprocess
import sys
import termios
from pathlib import Path

import pytest

LUDOLAB = str(Path(sys.executable).with_name("ludolab"))


def in_terminal(argv: list[str], cwd: Path) -> str:
    """What ``argv`` writes to a 120-column terminal (stdout and stderr), carriage returns as
    new lines."""
    pid, fd = pty.fork()
    if pid == 0:  # the child: its stdio is the terminal
        os.chdir(cwd)
        os.execv(argv[0], argv)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    chunks = []
    while True:
        try:
            data = os.read(fd, 65536)
        except OSError:  # the child closed the terminal
            break
        if not data:
            break
        chunks.append(data)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0, b"".join(chunks).decode(errors="replace")
    return b"".join(chunks).decode(errors="replace").replace("\r", "\n")


# Each stage lasts until the line's own thread has redrawn it twice (counted, not timed: a
# loaded machine may run the thread late), the second stage past one second.
STATUS_SCRIPT = """
import threading, time
from ludolab.research.progress import Status, bar

def redrawn(line, times=2):
    if line._thread is None:  # quiet, or not a terminal: nothing is drawn
        return
    drawn = threading.Semaphore(0)
    refresh = line._bar.refresh
    def counted(*args, **kwargs):
        refresh(*args, **kwargs)
        drawn.release()
    line._bar.refresh = counted
    for _ in range(times):
        drawn.acquire()
    line._bar.refresh = refresh

start = time.monotonic()
with Status("a long step", quiet={quiet}) as line:
    redrawn(line)
    line.set("second stage")
    time.sleep(max(0.0, start + 1.05 - time.monotonic()))
    redrawn(line)
for _ in bar(range(3), desc="counted", quiet={quiet}):
    time.sleep(0.1)
print("done")
"""


def test_a_status_line_moves_while_the_step_runs(tmp_path: Path) -> None:
    shown = in_terminal([sys.executable, "-c", STATUS_SCRIPT.format(quiet=False)], tmp_path)
    lines = shown.split("\n")
    # redrawn by its thread, not only at the end, with the time spent
    assert any(re.fullmatch(r"a long step \[\d\d:\d\d\]", line) for line in lines), lines
    # over a second in (the script sleeps past it); no upper bound, a loaded machine is slow
    second = r"a long step: second stage \[(?!00:00)\d\d:\d\d\]"
    assert any(re.fullmatch(second, line) for line in lines), lines
    assert any(line.startswith("counted: 100%") for line in lines)
    assert "done" in lines


def test_quiet_and_a_pipe_silence_it(tmp_path: Path) -> None:
    shown = in_terminal([sys.executable, "-c", STATUS_SCRIPT.format(quiet=True)], tmp_path)
    assert "long step" not in shown and "counted" not in shown and "done" in shown
    piped = subprocess.run(
        [sys.executable, "-c", STATUS_SCRIPT.format(quiet=False)],
        capture_output=True,
        text=True,
        check=True,
    )
    assert piped.stderr == "" and piped.stdout == "done\n"


# Each long command, small, and words of its feedback that its output never prints.
COMMANDS = [
    pytest.param(
        ["generate", "catan", "-c", "balanced", "-n", "40", "--out", "b.jsonl"],
        "chains, burn-in",
        marks=pytest.mark.slow,  # 2 x 5 s of chains
    ),
    (
        ["generate", "catan", "-c", "official", "-n", "2000", "--out", "o.jsonl"],
        "official: uniform sampler",  # done before the line is redrawn
    ),
    (
        ["generate", "gallery", "-c", "balanced-symbols", "-p", "3", "-n", "500", "--out",
         "d.jsonl"],
        "balanced-symbols: ",
    ),
    (["simulate", "gallery", "-p", "2", "--games", "300", "--out", "g.parquet"], "300/300"),
    (
        ["exhibits", "--players", "2", "--solver", "gecode", "--improving", "5"],
        "searching for the best exhibits (Gecode, time limit 60 s, 5 improving answers)",
    ),
    (["count", "-c", "seed-2019-tiles"], "counting the boards of seed-2019-tiles"),
    (["puzzle", "knights", "--n", "8"], "searching for a closed 8 x 8 tour"),
    (["puzzle", "hexiom", "--level", "3"], "solving Hexiom"),
    (["puzzle", "sudoku", "generate", "--size", "6", "-n", "30", "--out", "s.jsonl"],
     "generating:"),
]


def _command_id(value: object) -> str | None:
    return " ".join(value[:3]) if isinstance(value, list) else None


@pytest.mark.parametrize(("argv", "feedback"), COMMANDS, ids=_command_id)
def test_a_long_command_shows_progress_unless_quiet(
    argv: list[str], feedback: str, tmp_path: Path
) -> None:
    shown = in_terminal([LUDOLAB, *argv], tmp_path)
    assert feedback in shown, shown[-2000:]
    for path in tmp_path.iterdir():  # the second run writes the same files
        path.unlink()
    quiet = in_terminal([LUDOLAB, *argv, "-q"], tmp_path)
    assert feedback not in quiet, quiet[-2000:]
