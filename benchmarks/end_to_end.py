"""End to end against the engine alone: games per CPU-second of the bare play loop, of
`ludolab simulate` and of `ludolab run --no-analysis`, side by side in one run, pinned to one
core.

    .venv/bin/python benchmarks/end_to_end.py [--games 2000] [--startup-only]

Three workloads: Catan with four random agents, Catan with four greedy agents, Masters Gallery
with four random agents (fair boards / deals). For each:

* **engine**: ``play_game`` in this process, fresh agents per game, seeds as ``simulate``
  gives them; CPU seconds of this process;
* **simulate**: ``ludolab simulate ... --games N --workers 1`` in a subprocess (start-up,
  agents, records to Arrow, Parquet batches, assembly and the summary included); CPU seconds
  of the subprocess;
* **run**: ``ludolab run CONFIG --no-analysis --workers 1`` on a config of N games (one
  condition, fair setups, the same agents): setups, the plan, chunks, assembly; CPU seconds of
  the subprocess.

It prints games per CPU-second and the ratio engine / pipeline (the issue's target: at most
1.3), and first the start-up: CPU seconds of ``import ludolab``, ``ludolab --help`` and the
light commands (:data:`STARTUP`) beside ``python -c pass`` (best of 5; target: well under 0.3 s;
``--startup-only`` stops there). Figures, not asserts: the script never fails on time.
"""

from __future__ import annotations

# isort: off
from one_core import PINNED_CPU  # before numpy

# isort: on
import argparse  # noqa: E402
import resource  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

TARGET = 1.3
LUDOLAB = str(Path(sys.executable).parent / "ludolab")

CONFIG = """\
name = "end-to-end-{name}"
game = "{game}"
seed = 1
players = 4
{kind} = 20
games_per_{unit} = {per_setup}
chunk_size = 1000
metrics = ["turns"]

[[conditions]]
name = "fair"
constraints = "{cset}"

[[lineups]]
name = "same"
seats = "{agent}"
"""

WORKLOADS = (
    ("catan-random", "catan", "random"),
    ("catan-greedy", "catan", "greedy"),
    ("gallery-random", "gallery", "random"),
)


def engine_rate(game: str, agent: str, n: int) -> float:
    """Games per CPU-second of the bare play loop (fair boards / deals, fresh agents)."""
    from ludolab.research.simulate import game_seed

    if game == "catan":
        from ludolab.envs.catan.agents import parse_agent_spec
        from ludolab.envs.catan.play import play_game
        from ludolab.research.catan.samplers import fair_board

        board = fair_board(1)

        def setup(seed: int):  # noqa: ANN202
            return board
    else:
        from ludolab.envs.gallery.agents import parse_agent_spec  # type: ignore[assignment]
        from ludolab.envs.gallery.deal import shuffled_deal
        from ludolab.envs.gallery.play import play_game  # type: ignore[assignment]

        def setup(seed: int):  # noqa: ANN202
            return shuffled_deal(4, seed)

    start = time.process_time()
    for i in range(n):
        seed = game_seed(1, i)
        play_game(setup(seed), [parse_agent_spec(agent) for _ in range(4)], seed, None)
    return n / (time.process_time() - start)


# The interpreter alone, the package, the parser, and the light commands people type often.
STARTUP = [
    ("python -c pass", [sys.executable, "-c", "pass"]),
    ("python -c 'import ludolab'", [sys.executable, "-c", "import ludolab"]),
    ("ludolab --help", [LUDOLAB, "--help"]),
    ("ludolab puzzle --help", [LUDOLAB, "puzzle", "--help"]),
    ("ludolab metrics", [LUDOLAB, "metrics"]),
    ("ludolab puzzle knights --n 8", [LUDOLAB, "puzzle", "knights", "--n", "8"]),
    ("ludolab constraints list", [LUDOLAB, "constraints", "list"]),
]


def child_cpu(args: list[str]) -> float:
    """CPU seconds (user + system) of a subprocess and its children."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--startup-only", action="store_true", help="only the start-up table")
    args = parser.parse_args()
    n = args.games
    where = f"CPU {PINNED_CPU}" if PINNED_CPU is not None else "unpinned"
    for what, command in STARTUP:
        best = min(child_cpu(command) for _ in range(5))
        print(f"start-up, {what}: {best:.3f} CPU-s (best of 5)")
    if args.startup_only:
        return 0
    print(f"games per CPU-second, {n:,} games each, one core ({where})")
    print(
        f"{'workload':<16} {'engine':>8} {'simulate':>9} {'run':>8} "
        f"{'engine/simulate':>16} {'engine/run':>11}"
    )
    with tempfile.TemporaryDirectory(prefix="ludolab-e2e-") as tmp:
        base = Path(tmp)
        for name, game, agent in WORKLOADS:
            engine = engine_rate(game, agent, n)
            sim = [LUDOLAB, "simulate", game, "--games", str(n), "--seed", "1"]
            sim += ["--agents", ",".join([agent] * 4), "--out", str(base / f"{name}.parquet")]
            simulate = n / child_cpu(sim)
            cfg = base / f"{name}.toml"
            cfg.write_text(
                CONFIG.format(
                    name=name,
                    game=game,
                    kind="boards" if game == "catan" else "deals",
                    unit="board" if game == "catan" else "deal",
                    per_setup=max(1, n // 20),
                    cset="random" if game == "catan" else "fair",
                    agent=agent,
                )
            )
            run = [LUDOLAB, "run", str(cfg), "--out", str(base / "results"), "--no-analysis"]
            ran = n / child_cpu([*run, "--quiet"])
            marks = [
                f"{engine / rate:.2f} {'OK' if engine / rate <= TARGET else 'MISS'}"
                for rate in (simulate, ran)
            ]
            print(
                f"{name:<16} {engine:>8.0f} {simulate:>9.0f} {ran:>8.0f} {marks[0]:>16} "
                f"{marks[1]:>11}",
                flush=True,
            )
    print(f"target: engine / pipeline <= {TARGET}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
