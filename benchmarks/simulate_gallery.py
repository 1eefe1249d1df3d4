"""Masters Gallery games per CPU-second on the plain path (play_game), pinned to one core.

The issue's target: at least 1,000 two-player games per CPU-second with random agents. The
script prints games/CPU-s, decisions/CPU-s and the ratio to that target for 2-5 players and
every shipped agent; it never fails on time.

    .venv/bin/python benchmarks/simulate_gallery.py               # 2,000 games per setting
    .venv/bin/python benchmarks/simulate_gallery.py --games 500
"""

from __future__ import annotations

# isort: off
# First, before numpy (imported by envs.* and research.*) creates any thread pool.
from one_core import PINNED_CPU

# isort: on
import argparse  # noqa: E402
import os  # noqa: E402
import platform  # noqa: E402
import time  # noqa: E402
from datetime import UTC, datetime  # noqa: E402

from ludolab.envs.gallery.agents import AGENTS, make_agent  # noqa: E402
from ludolab.envs.gallery.deal import shuffled_deal  # noqa: E402
from ludolab.envs.gallery.play import play_game  # noqa: E402

TARGET = 1000.0  # two-player random games per CPU-second


def measure(agent: str, players: int, games: int) -> tuple[float, float, float]:
    """(games per CPU-second, decisions per CPU-second, mean turns) over ``games`` games.

    Game k: a fair deal from seed k, fresh agents, seed k; the clock covers all three.
    """
    play_game(shuffled_deal(players, 10**9), [make_agent(agent) for _ in range(players)], 10**9)
    decisions = turns = 0
    start = time.process_time()
    for k in range(games):
        record = play_game(
            shuffled_deal(players, k), [make_agent(agent) for _ in range(players)], k
        )
        decisions += record.n_actions
        turns += sum(record.turns_per_round)
    cpu = time.process_time() - start
    return games / cpu, decisions / cpu, turns / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games per setting")
    args = parser.parse_args()
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(
        f"Masters Gallery simulation speed, {datetime.now(UTC):%Y-%m-%d %H:%M} UTC; "
        f"{os.cpu_count()} CPUs, load average {load}; pinned to CPU {PINNED_CPU}; "
        f"Python {platform.python_version()}"
    )
    print(
        f"{'agents':<10} {'players':>7} {'games':>6} {'games/CPU-s':>12} "
        f"{'decisions/CPU-s':>16} {'turns/game':>11}  vs target"
    )
    for agent in sorted(AGENTS):
        for players in (2, 3, 4, 5):
            rate, decisions, turns = measure(agent, players, args.games)
            note = f"{rate / TARGET:5.1f}x" if players == 2 and agent == "random" else ""
            print(
                f"{agent:<10} {players:>7} {args.games:>6} {rate:>12,.0f} {decisions:>16,.0f} "
                f"{turns:>11.1f}  {note}"
            )
    print(f"target: {TARGET:,.0f} two-player random games per CPU-second")


if __name__ == "__main__":
    main()
