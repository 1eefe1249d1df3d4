"""How long the generated puzzle games take: a pack of 50 per game, then the games page.

    .venv/bin/python benchmarks/puzzle_packs.py [--n 50] [--seed 1]

Runs the commands a user runs, end to end, one after the other: ``ludolab puzzle GAME generate
--n N --difficulty mixed --seed S`` for every game on the page (its default size), then
``ludolab site build`` with those packs. Printed per command: puzzles by level, candidates
drawn, wall seconds and CPU seconds (the command's process, from getrusage), and the ratio to
its target: a pack in at most a few minutes (180 s) per game, the site in seconds (10 s).
Figures, not asserts; a command that fails stops the script with its message.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ludolab.research.puzzles.site.boards import WEB_MODULES

PACK_TARGET_S = 180.0
SITE_TARGET_S = 10.0


def timed(argv: list[str]) -> tuple[float, float, str]:
    """(wall seconds, CPU seconds, stdout) of one command."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode:
        sys.exit(f"{' '.join(argv)} failed: {done.stderr.strip()}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    cli = [sys.executable, "-m", "ludolab.research.cli"]
    print(f"{'command':<34} {'levels':<36} {'candidates':>10} {'wall s':>7} {'CPU s':>7} "
          f"{'/ target':>8}")
    with tempfile.TemporaryDirectory() as tmp:
        packs = []
        for game in WEB_MODULES:
            out = Path(tmp) / f"{game}.json"
            wall, cpu, _ = timed([*cli, "puzzle", game, "generate", "--n", str(args.n),
                                  "--seed", str(args.seed), "--out", str(out), "-q"])
            pack = json.loads(out.read_text())
            levels: dict[str, int] = {}
            for p in pack["puzzles"]:
                levels[p["difficulty"]["level"]] = levels.get(p["difficulty"]["level"], 0) + 1
            spread = ", ".join(f"{k} {v}" for k, v in levels.items())
            print(f"{game + ' generate --n ' + str(args.n):<34} {spread:<36} "
                  f"{pack['generator']['candidates']:>10,} {wall:>7.1f} {cpu:>7.1f} "
                  f"{wall / PACK_TARGET_S:>8.2f}", flush=True)
            packs.append(str(out))
        wall, cpu, _ = timed([*cli, "site", "build", "--out", str(Path(tmp) / "site"), *packs])
        print(f"{'site build (' + str(len(packs)) + ' packs)':<34} {'':<36} {'':>10} "
              f"{wall:>7.1f} {cpu:>7.1f} {wall / SITE_TARGET_S:>8.2f}")


if __name__ == "__main__":
    main()
