"""Feedback of long commands: a bar or a live status line on stderr in a terminal, nothing with
-q, nothing when stderr is not a terminal (a log file gets no carriage-return noise)."""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import struct
import subprocess
import sys
import termios
from collections.abc import Iterator
from pathlib import Path
from typing import IO

import pytest

from ludolab.research import progress
from ludolab.research.progress import Status

LUDOLAB = str(Path(sys.executable).with_name("ludolab"))
ROOT = Path(__file__).resolve().parents[1]

# What a drawn tqdm bar leaves in a log: carriage returns, a bar's edge ("|█", "| 3/3"), a rate
# ("game/s]", "it/s]") or a percentage before the bar ("40%|").
BAR_NOISE = re.compile(r"\r|\|█|\d+%\||\| *\d+/\d+ \[|[a-z]+/s\]|\?[a-z]+/s")


def bar_noise(text: str) -> list[str]:
    """The pieces of ``text`` that only a drawn progress bar or status line writes."""
    return [m.group(0) for m in BAR_NOISE.finditer(text)]


def test_bar_noise_finds_a_drawn_bar() -> None:
    # the check itself, on a bar as tqdm draws it and on a run's ordinary lines
    drawn = "\rquickstart:  40%|████      | 100/250 [00:01<00:01, 95.2game/s]"
    assert bar_noise(drawn)
    assert bar_noise("\rstep [00:03]")
    plain = "generating boards for 'official'\n200 games (200 played now) -> results/q\n"
    assert bar_noise(plain) == []


# ---- the helper, in this process: stderr swapped for a pipe or a pseudo-terminal -------------

SENTINEL = "<end of feedback>\n"


def _read_until(fd: int, marker: bytes) -> bytes:
    """What arrives on ``fd`` up to ``marker`` (a pty delivers writes asynchronously, so the
    marker, written last, says that everything before it has arrived)."""
    got = b""
    while marker not in got:
        ready, _, _ = select.select([fd], [], [], 30)  # a guard against hangs only
        assert ready, f"no {marker!r} after {got!r}"
        got += os.read(fd, 65536)
    return got[: got.index(marker)]


def _draw_everything(quiet: bool) -> tuple[bool, bool]:
    """A bar and a status line, as the commands make them; whether each was drawn."""
    # left on the screen: the 100% line is drawn at the end however fast the steps go
    counted = progress.bar(range(3), desc="counted", unit="game", quiet=quiet, leave=True)
    drawn = not counted.disable  # read now: tqdm's close sets disable
    for _ in counted:
        pass
    with Status("a step", quiet=quiet) as line:
        line.set("detail")
        started = line._thread is not None
    return drawn, started


# The tests swap sys.stderr themselves: pytest's capture sets it again between a fixture's
# setup and the test's call.


@pytest.fixture
def terminal() -> Iterator[tuple[IO[str], int]]:
    """The slave side of a fresh 120-column pseudo-terminal, as a stream; the master fd."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    stream = os.fdopen(slave, "w")
    yield stream, master
    stream.close()
    os.close(master)


@pytest.fixture
def pipe() -> Iterator[tuple[IO[str], int]]:
    """The write end of a pipe, as a stream; the read end's fd."""
    read, write = os.pipe()
    stream = os.fdopen(write, "w")
    yield stream, read
    if not stream.closed:
        stream.close()
    os.close(read)


def test_the_helper_draws_on_a_terminal(
    terminal: tuple[IO[str], int], monkeypatch: pytest.MonkeyPatch
) -> None:
    stream, master = terminal
    monkeypatch.setattr(sys, "stderr", stream)
    assert progress.on_terminal() and progress.shown()
    assert _draw_everything(quiet=False) == (True, True)
    stream.write(SENTINEL)
    stream.flush()
    drawn = _read_until(master, b"<end of feedback>").decode()
    assert "\r" in drawn and "counted: 100%" in drawn and "3/3" in drawn
    assert "a step" in drawn


def test_the_helper_is_silent_on_a_terminal_when_quiet(
    terminal: tuple[IO[str], int], monkeypatch: pytest.MonkeyPatch
) -> None:
    stream, master = terminal
    monkeypatch.setattr(sys, "stderr", stream)
    assert not progress.shown(quiet=True)
    assert _draw_everything(quiet=True) == (False, False)
    stream.write(SENTINEL)
    stream.flush()
    assert _read_until(master, b"<end of feedback>") == b""


def test_the_helper_is_off_for_a_pipe(
    pipe: tuple[IO[str], int], monkeypatch: pytest.MonkeyPatch
) -> None:
    stream, read = pipe
    monkeypatch.setattr(sys, "stderr", stream)
    assert not progress.on_terminal() and not progress.shown()
    assert _draw_everything(quiet=False) == (False, False)
    stream.write(SENTINEL)
    stream.close()
    written = b""
    while chunk := os.read(read, 65536):
        written += chunk
    assert written.decode() == SENTINEL


def test_a_stream_that_cannot_say_is_not_a_terminal(tmp_path: Path) -> None:
    # a wrapper without isatty, and a closed file: neither gets a bar
    assert not progress.on_terminal(object())  # type: ignore[arg-type]
    closed = (tmp_path / "log").open("w")
    closed.close()
    assert not progress.on_terminal(closed)


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


# ---- whole runs through a pipe, as `make demo > log 2>&1` or `ludolab run ... 2>&1 | tail` --


def piped(argv: list[str], cwd: Path) -> str:
    """What ``argv`` writes with stdout and stderr both on one pipe (as ``2>&1 | tail``)."""
    done = subprocess.run(
        argv, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, check=False,
    )
    text = done.stdout.decode(errors="replace")
    assert done.returncode == 0, text[-3000:]
    return text


def test_the_quickstart_run_writes_no_bar_into_a_pipe(tmp_path: Path) -> None:
    # the quickstart, smaller (4 boards x 5 games a condition), analysis and figures included
    out = piped(
        [LUDOLAB, "run", str(ROOT / "experiments/quickstart.toml"), "--out", str(tmp_path),
         "--workers", "2", "--set", "boards=4", "--set", "games_per_board=5"],
        tmp_path,
    )
    assert "200 games (200 played now)" in out and "report:" in out, out
    assert bar_noise(out) == [], out[-3000:]


GALLERY_RUN = [
    "run", str(ROOT / "experiments/gallery-deals.toml"), "--workers", "2", "--no-analysis",
    "--set", "deals=6", "--set", "games_per_deal=1",
    # the bar is what is tested, not the search: its agents at a budget that plays in a moment
    "--set", "lineups.search.seats=mcts:playouts=10",
]


def test_a_gallery_run_writes_no_bar_into_a_pipe(tmp_path: Path) -> None:
    out = piped([LUDOLAB, *GALLERY_RUN, "--out", str(tmp_path)], tmp_path)
    assert "72 games (72 played now)" in out, out
    assert bar_noise(out) == [], out[-3000:]
    sim = piped(
        [LUDOLAB, "simulate", "gallery", "-p", "3", "--games", "200", "--batch", "50",
         "--workers", "2", "--out", str(tmp_path / "g.parquet")],
        tmp_path,
    )
    assert "200 games of 3 players" in sim, sim
    assert bar_noise(sim) == [], sim[-3000:]


def test_the_same_gallery_run_draws_its_bar_in_a_terminal(tmp_path: Path) -> None:
    # the counterpart of the pipe test: the bar the pipe must not get is there on a terminal
    shown = in_terminal([LUDOLAB, *GALLERY_RUN, "--out", str(tmp_path)], tmp_path)
    assert "gallery-deals: 100%" in shown and "72/72" in shown, shown[-2000:]
