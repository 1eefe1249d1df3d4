"""Memory of one Catan game: the native core against the reference engine, the same games.

    .venv/bin/python benchmarks/catan_game_memory.py [--games 20]

For four random and four greedy agents, games k = 0..N-1 on ``fair_board(k)`` with seed k,
played twice: by ``play_game`` (the native core, which has both agents) and by the reference
engine's own loop (``Game``, ``play_out``, ``game_record``). Each game is measured with
``tracemalloc`` (which sees the core's buffers too: it allocates through Python's allocator)
after an untimed warm-up game on the same board: the peak of memory allocated while the game is
played and its record made, per game. Issue 33's target: no more memory per game with the core.
Figures, not asserts.
"""

from __future__ import annotations

import argparse
import gc
import tracemalloc
from collections.abc import Callable
from typing import Any

from ludolab.envs.catan.agents import make_agent
from ludolab.envs.catan.engine import Game
from ludolab.envs.catan.play import game_record, play_game, play_out
from ludolab.research.catan.samplers import fair_board


def reference(board: Any, agents: list[Any], seed: int) -> Any:
    """The reference engine's game, never the core."""
    game = Game(board, len(agents), seed)
    play_out(game, agents, seed)
    return game_record(game, [agent.spec for agent in agents])


def peaks(play: Callable[..., Any], kind: str, games: int) -> list[int]:
    """Peak bytes allocated while each game is played, per game."""
    out = []
    for k in range(games):
        board = fair_board(k)
        play(board, [make_agent(kind) for _ in range(4)], k)  # warm-up: tables, caches
        gc.collect()
        tracemalloc.start()
        play(board, [make_agent(kind) for _ in range(4)], k)
        out.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20)
    args = parser.parse_args()
    print(f"peak KB allocated per game (tracemalloc), {args.games} games per row")
    print(f"{'agents':<8} {'engine':<10} {'mean':>8} {'max':>8}")
    for kind in ("random", "greedy"):
        means = {}
        for name, play in (("core", play_game), ("reference", reference)):
            sizes = peaks(play, kind, args.games)
            means[name] = sum(sizes) / len(sizes)
            print(f"{kind:<8} {name:<10} {means[name] / 1024:>8.0f} {max(sizes) / 1024:>8.0f}")
        verdict = "OK" if means["core"] <= means["reference"] else "MISS"
        print(f"{kind:<8} core / reference: {means['core'] / means['reference']:.2f} {verdict}")


if __name__ == "__main__":
    main()
