"""Peak memory of `ludolab run` against the number of games: the slope should be small and
flat, not a record's worth per game.

    .venv/bin/python benchmarks/memory.py [--games 10000 100000 1000000] [--game gallery]
        [--workers 2] [--dask] [--keep DIR]

For each size N, the script writes an experiment config (two conditions drawn from the same
set, 100 setups each, N / 200 games per setup, four random agents), runs ``ludolab run`` on it
in a subprocess (``--workers``, the whole pipeline: setups, games, assembly, analysis and
report), and samples the memory of the runner process and of its worker processes every 0.2 s
(psutil, resident set size). It prints, per N: wall seconds, games per second, the runner's
peak and the workers' peak (largest sum over the worker processes at one time), and the
runner's peak growth per 1,000 games from the previous size. The issue's target: a
1,000,000-game run with the runner's peak under 2 GB on this machine (2 cores, 24 GB).

``--dask`` runs the largest size a second time on a local Dask cluster (``--workers``
processes, one thread each) and compares the sha256 of the two games.parquet files: the same
plan must give identical games whatever plays it.

Figures, not asserts: the script prints OK / MISS beside the target and never fails on time.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil

from ludolab.research.experiment.store import file_sha256

ROOT = Path(__file__).resolve().parent.parent
LUDOLAB = [str(Path(sys.executable).parent / "ludolab")]
TARGET_GB = 2.0

CONFIG = """\
name = "memory-{n}"
question = "Memory at {n} games (A/A: both conditions draw from one set)."
game = "{game}"
seed = 11
players = 4
{kind} = {setups}
games_per_{unit} = {per_setup}
chunk_size = {chunk}
metrics = ["turns", "score_spread", "lead_change", "drama", "condition.win_rate_<s>"]

[[conditions]]
name = "a"
constraints = "{cset}"
sampler = "{sampler}"

[[conditions]]
name = "b"
constraints = "{cset}"
sampler = "{sampler}"

[[lineups]]
name = "random"
seats = "random"

[comparisons]
baseline = "a"
metrics = ["turns", "score_spread"]
n_boot = 200
"""


def config_text(n: int, game: str, setups: int = 100) -> str:
    per_setup = max(1, n // (2 * setups))
    catan = game == "catan"
    return CONFIG.format(
        n=n,
        game=game,
        kind="boards" if catan else "deals",
        unit="board" if catan else "deal",
        setups=setups,
        per_setup=per_setup,
        chunk=min(5000, max(100, n // 100)),
        cset="official" if catan else "fair",
        sampler="uniform" if catan else "auto",
    )


def measure(args: list[str], env: dict[str, str]) -> tuple[float, float, float, int]:
    """Run ``args``; return wall seconds, the process's peak RSS and the peak of its
    descendants' summed RSS (bytes), and the exit code."""
    start = time.perf_counter()
    proc = subprocess.Popen(
        args, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    me = psutil.Process(proc.pid)
    runner_peak = workers_peak = 0
    while proc.poll() is None:
        try:
            runner_peak = max(runner_peak, me.memory_info().rss)
            total = 0
            for child in me.children(recursive=True):
                with contextlib.suppress(psutil.Error):
                    total += child.memory_info().rss
            workers_peak = max(workers_peak, total)
        except psutil.Error:
            pass
        time.sleep(0.2)
    err = proc.stderr.read() if proc.stderr else ""
    if proc.returncode:
        print(err, file=sys.stderr)
    return time.perf_counter() - start, runner_peak, workers_peak, proc.returncode


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, nargs="+", default=[10_000, 100_000, 1_000_000])
    parser.add_argument("--game", choices=("gallery", "catan"), default="gallery")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--dask", action="store_true", help="replay the largest size on Dask")
    parser.add_argument("--keep", type=Path, help="keep the run folders here")
    args = parser.parse_args()

    base = Path(tempfile.mkdtemp(prefix="ludolab-memory-"))
    out = args.keep or base / "results"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    print(f"ludolab run, {args.game}, 4 random agents, --workers {args.workers}")
    print(
        f"{'games':>10} {'wall s':>8} {'games/s':>8} {'runner peak MB':>15} "
        f"{'workers peak MB':>16} {'runner MB per 1k games':>23}"
    )
    previous: tuple[int, float] | None = None
    last_run: Path | None = None
    try:
        for n in sorted(args.games):
            cfg = base / f"memory-{n}.toml"
            cfg.write_text(config_text(n, args.game))
            run = [*LUDOLAB, "run", str(cfg), "--out", str(out), "--run-id", "local"]
            seconds, runner, workers, code = measure(
                [*run, "--workers", str(args.workers), "--quiet"], env
            )
            if code:
                print(f"{n:>10} failed (exit {code})")
                return 1
            slope = ""
            if previous is not None:
                slope = f"{(runner - previous[1]) / 2**20 / ((n - previous[0]) / 1000):.3f}"
            print(
                f"{n:>10,} {seconds:>8.0f} {n / seconds:>8.0f} {runner / 2**20:>15.0f} "
                f"{workers / 2**20:>16.0f} {slope:>23}",
                flush=True,
            )
            previous = (n, runner)
            last_run = out / f"memory-{n}" / "local"
        assert previous is not None and last_run is not None
        n, runner = previous
        verdict = "OK" if runner / 2**30 < TARGET_GB else "MISS"
        print(
            f"target: runner peak < {TARGET_GB:.0f} GB at {n:,} games: "
            f"{runner / 2**30:.2f} GB {verdict}"
        )
        if args.dask:
            dask_compare(n, base, out, env, args.workers, last_run)
    finally:
        shutil.rmtree(base, ignore_errors=True)
    return 0


def dask_compare(
    n: int, base: Path, out: Path, env: dict[str, str], workers: int, local_run: Path
) -> None:
    from distributed import LocalCluster

    with LocalCluster(
        n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        cfg = base / f"memory-{n}.toml"
        run = [*LUDOLAB, "run", str(cfg), "--out", str(out), "--run-id", "dask"]
        run += ["--backend", "dask", "--scheduler", cluster.scheduler_address, "--quiet"]
        seconds, runner, _, code = measure(run, env)
    if code:
        print(f"dask run failed (exit {code})")
        return
    dask_run = out / f"memory-{n}" / "dask"
    same = file_sha256(local_run / "games.parquet") == file_sha256(dask_run / "games.parquet")
    print(
        f"dask, {workers} workers: {n:,} games in {seconds:.0f} s, runner peak "
        f"{runner / 2**20:.0f} MB; games.parquet identical to the local run: "
        f"{'yes' if same else 'NO'}"
    )


if __name__ == "__main__":
    sys.exit(main())
