"""How strong the search agents are: head-to-head win rates with Wilson intervals.

    .venv/bin/python benchmarks/agent_strength.py [--games N] [--workers W] [--seed S]
        [--match NAME ...] [--challenger SPEC] [--quick]

Each match seats one agent (the challenger) against copies of one opponent (or, in the mixed
match, a given lineup in a fixed order round the table), the challenger's seat rotating game by
game (seat g mod n in game g), on a fair setup drawn from game g's seed
(board or deal; ludolab.research.simulate.game_seed). Printed per match: the challenger's wins,
its win rate with a 95% Wilson interval (statsmodels), the fair share (1 / players; none for the
mixed match, whose comparison is the same match with ``--challenger greedy``), whether the
interval lies wholly above the fair share, and the challenger's CPU seconds per game
(the whole game, all seats, divided by games; ``--workers`` runs games in parallel processes).

The issue's targets: one search agent against three greedy ones in 4-player Catan, clearly
above the fair 25%; the search agent against greedy in 2-player Masters Gallery, clearly above
50%. The rest are context (the same opponents, the shipped non-search agents).
"""

from __future__ import annotations

import argparse
import os
import time

from joblib import Parallel, delayed
from statsmodels.stats.proportion import proportion_confint

from ludolab.research.simulate import fair_setup, game_seed, play_one, winners

MATCHES = {
    "catan-mcts-vs-greedy": ("catan", "mcts", ("greedy",) * 3),
    "catan-lookahead-vs-greedy": ("catan", "lookahead", ("greedy",) * 3),
    # Every decision of a turn searched, play-outs cut off by the win model (issue 34).
    "catan-mcts-value-vs-greedy": ("catan", "mcts-value", ("greedy",) * 3),
    "catan-greedy-vs-random": ("catan", "greedy", ("random",) * 3),
    # The outside anchor: catanatron's alpha-beta player, re-implemented (envs/catan/agents).
    "catan-alphabeta-vs-greedy": ("catan", "alphabeta", ("greedy",) * 3),
    "catan-alphabeta-vs-random": ("catan", "alphabeta", ("random",) * 3),
    # Catanatron's games have no domestic trade: the anchor against greedy agents that neither
    # offer nor accept one (its A/A run: --challenger greedy:offers=false).
    "catan-alphabeta-vs-greedy-no-offers": ("catan", "alphabeta", ("greedy:offers=false",) * 3),
    "gallery-mcts-vs-greedy": ("gallery", "mcts", ("greedy",)),
    "gallery-lookahead-vs-greedy": ("gallery", "lookahead", ("greedy",)),
    "gallery-greedy-vs-random": ("gallery", "greedy", ("random",)),
    "gallery-greedy-vs-leader": ("gallery", "greedy", ("leader",)),
    "gallery-mcts-vs-greedy-4p": ("gallery", "mcts", ("greedy",) * 3),
    "gallery-mcts-vs-lookahead": ("gallery", "mcts", ("lookahead",)),
    "catan-mcts-vs-lookahead": ("catan", "mcts", ("lookahead",) * 3),
    "splendor-mcts-vs-greedy": ("splendor", "mcts", ("greedy",)),
    "splendor-greedy-vs-random": ("splendor", "greedy", ("random",)),
    # Greedy, random, greedy (the ladder's table has a random seat): no fair share to compare
    # with; the comparison is the same match with ``--challenger greedy`` (an A/A run).
    "catan-lookahead-vs-mixed": ("catan", "lookahead", ("greedy", "random", "greedy")),
}
DEFAULT = ("catan-mcts-vs-greedy", "gallery-mcts-vs-greedy")


def play(game: str, challenger: str, opponents: tuple[str, ...], seed: int, g: int):
    """Game ``g`` of a match: (the challenger's share of the win, CPU seconds). The challenger
    sits in seat g mod players and opponent i in the seat i + 1 after it (round the table)."""
    start = time.process_time()
    s = game_seed(seed, g)
    players = len(opponents) + 1
    seat = g % players
    specs = [""] * players
    for i, spec in enumerate((challenger, *opponents)):
        specs[(seat + i) % players] = spec
    record = play_one(game, fair_setup(game, players, s), specs, s)
    first = winners(record)
    won = 1.0 / len(first) if seat in first else 0.0
    return won, time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--match", nargs="*", choices=sorted(MATCHES), default=list(DEFAULT))
    parser.add_argument(
        "--challenger",
        help="play this agent spec instead of each match's challenger (a strength level: "
        "mcts:playouts=3000)",
    )
    parser.add_argument("--quick", action="store_true", help="40 games per match")
    args = parser.parse_args()
    games = 40 if args.quick else args.games
    print(f"{games} games per match, seed {args.seed}, {args.workers} workers")
    print(
        f"{'match':<28} {'challenger':<12} {'wins':>7} {'win rate [95% Wilson]':>24} "
        f"{'fair':>5} {'above':>6} {'CPU s/game':>10}"
    )
    for name in args.match:
        game, challenger, opponents = MATCHES[name]
        challenger = args.challenger or challenger
        results = Parallel(n_jobs=args.workers)(
            delayed(play)(game, challenger, opponents, args.seed, g) for g in range(games)
        )
        wins = sum(w for w, _ in results)
        cpu = sum(c for _, c in results) / games
        low, high = proportion_confint(round(wins), games, method="wilson")
        # No fair share when the opponents differ: compare with --challenger greedy.
        fair = 1 / (len(opponents) + 1) if len(set(opponents)) == 1 else None
        versus = (
            f"{fair:>5.0%} {'yes' if low > fair else 'no':>6}" if fair else f"{'-':>5} {'-':>6}"
        )
        print(
            f"{name:<28} {challenger:<12} {wins:>7g} "
            f"{wins / games:>9.1%} [{low:.1%}, {high:.1%}] {versus} {cpu:>10.3f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
