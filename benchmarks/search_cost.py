"""What the search agents cost and how strong they are: now, against the budgets issue 52 began
with, on the same games in one run.

    .venv/bin/python benchmarks/search_cost.py [--games N] [--workers W] [--seed S]
        [--agent NAME ...] [--reference-games M]

Each agent plays its match of ``agent_strength.py`` (one search agent against copies of one
opponent, its seat rotating game by game, a fair setup from game g's seed) twice: as ``before``,
a spec that restates the agent's defaults when issue 52 was filed (on this commit's code, so the
ratio is what the budgets cost, not what the code's speed-ups saved: benchmarks/README.md,
"search_cost.py", times those across commits), and as ``now``, the agent's defaults. Two subjects
compare the agents a shipped study seats instead: ``catan-study-seat``, the search agent
catan-constraints seated before issue 52 (``before``) and the one it seats now;
``gallery-study-seat``, the default ``mcts`` (``before``) and the smaller budget gallery-deals
seats at its four-player table (``now``).
Printed per spec: the search agent's wins with a 95% Wilson interval (statsmodels), CPU seconds
per game (the whole game, every seat), the search agent's play-outs per game (iterations of its
search; sequential halving's trials count one each) and per CPU second, and the ratios of now to
before. Both specs meet the same setups, seats and seeds.

``--reference-games M`` plays the first M games of ``now`` once more with the native cores
switched off (the Python reference plays them, as ``LUDOLAB_PURE_PYTHON=1`` would have it for
the cores), and prints their CPU seconds a game against the core's on the same games, and
whether they are the same games (the same wins and play-outs, as they must be): what the cores
save, measured in the same run.
"""

from __future__ import annotations

import argparse
import os
import time
from contextlib import ExitStack
from dataclasses import dataclass
from unittest import mock

from joblib import Parallel, delayed
from statsmodels.stats.proportion import proportion_confint

from ludolab import games as games_registry
from ludolab.research.simulate import fair_setup, game_seed, winners


@dataclass(frozen=True)
class Subject:
    """A search agent's benchmark: its game, its opponent, the specs compared, and issue 52's
    target for it (CPU seconds a game at most, win rate at least), if it has one."""

    game: str
    opponent: str
    players: int
    before: str  # the defaults issue 52 began with, as a spec on today's code
    now: str
    target: tuple[float, float] | None = None


SUBJECTS = {
    "catan-mcts-value": Subject(
        "catan",
        "greedy",
        4,
        "mcts-value:setup_playouts=4000,setup_horizon=0,setup_flat=false",
        "mcts-value",
        (0.5, 0.55),
    ),
    # The agent catan-constraints seats four of (benchmarks/search_table.py times the table),
    # against the study's search agent before issue 52.
    "catan-study-seat": Subject(
        "catan",
        "greedy",
        4,
        "lookahead:playouts=32,finalists=3",
        "mcts-value:playouts=100,setup_playouts=250",
    ),
    "gallery-mcts": Subject("gallery", "lookahead", 2, "mcts", "mcts", (2.0, 0.65)),
    # The agent gallery-deals seats four of, against the default budget, at its 4-player table.
    "gallery-study-seat": Subject("gallery", "greedy", 4, "mcts", "mcts:playouts=250"),
    "splendor-mcts": Subject("splendor", "greedy", 2, "mcts", "mcts"),
}


def play(
    subject: Subject, spec: str, seed: int, g: int, reference: bool = False
) -> tuple[float, float, int | None]:
    """Game ``g``: (the search agent's share of the win, CPU seconds, its play-outs: None for an
    agent that does not count them, such as ``lookahead``); with ``reference``, the native cores
    switched off."""
    with ExitStack() as stack:
        if reference:
            from ludolab.envs.catan import native as catan_native
            from ludolab.envs.gallery import native as gallery_native

            for module in (catan_native, gallery_native):
                stack.enter_context(mock.patch.object(module, "native", lambda: None))
        return _play(subject, spec, seed, g)


def _play(subject: Subject, spec: str, seed: int, g: int) -> tuple[float, float, int | None]:
    start = time.process_time()
    s = game_seed(seed, g)
    seat = g % subject.players
    described = games_registry.get(subject.game)
    agents = [described.agents.parse(subject.opponent) for _ in range(subject.players)]
    agents[seat] = described.agents.parse(spec)
    record = described.play(fair_setup(subject.game, subject.players, s), agents, s, None)
    first = winners(record)
    won = 1.0 / len(first) if seat in first else 0.0
    return won, time.process_time() - start, getattr(agents[seat], "playouts_done", None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--agent", nargs="*", choices=sorted(SUBJECTS), default=list(SUBJECTS))
    parser.add_argument("--reference-games", type=int, default=0)
    args = parser.parse_args()
    print(f"{args.games} games per spec, seed {args.seed}, {args.workers} workers")
    print(
        f"{'agent':<18} {'':<7} {'wins':>6} {'win rate [95% Wilson]':>24} {'CPU s/game':>10} "
        f"{'play-outs/game':>14} {'play-outs/CPU s':>15}"
    )
    for name in args.agent:
        subject = SUBJECTS[name]
        rows = {}
        specs = {"before": subject.before, "now": subject.now}
        if subject.before == subject.now:  # (unchanged: played once)
            specs = {"now": subject.now}
        for label, spec in specs.items():
            results = Parallel(n_jobs=args.workers)(
                delayed(play)(subject, spec, args.seed, g) for g in range(args.games)
            )
            wins = sum(w for w, _, _ in results) / args.games
            cpu = sum(c for _, c, _ in results) / args.games
            counts = [p for _, _, p in results]
            playouts = None if None in counts else sum(counts) / args.games
            shown = (
                ("-", "-") if playouts is None else (f"{playouts:,.0f}", f"{playouts / cpu:,.0f}")
            )
            low, high = proportion_confint(round(wins * args.games), args.games, method="wilson")
            rows[label] = (cpu, playouts)
            print(
                f"{name:<18} {label:<7} {wins * args.games:>6g} {wins:>9.1%} "
                f"[{low:.1%}, {high:.1%}] {cpu:>10.3f} {shown[0]:>14} {shown[1]:>15}   {spec}",
                flush=True,
            )
        if args.reference_games > 0:
            m = min(args.reference_games, args.games)
            mine = results[:m]  # now's first m games, with the cores
            theirs = Parallel(n_jobs=args.workers)(
                delayed(play)(subject, subject.now, args.seed, g, True) for g in range(m)
            )
            same = [(w, p) for w, _, p in mine] == [(w, p) for w, _, p in theirs]
            core_cpu = sum(c for _, c, _ in mine) / m
            ref_cpu = sum(c for _, c, _ in theirs) / m
            print(
                f"{name:<18} reference, first {m} games: {ref_cpu:.3f} CPU s a game, the "
                f"cores {core_cpu:.3f} (x{core_cpu / ref_cpu:.3f}); the same games (wins and "
                f"play-outs): {'yes' if same else 'NO'}",
                flush=True,
            )
        if subject.target:
            most, least = subject.target
            met = cpu <= most and wins >= least
            print(
                f"{name:<18} target: at most {most} CPU s a game and at least {least:.0%} wins: "
                f"{'OK' if met else 'MISS'}",
                flush=True,
            )
        if "before" in rows:
            (cpu0, p0), (cpu1, p1) = rows["before"], rows["now"]
            ratios = f"CPU s/game x{cpu1 / cpu0:.2f}"
            if p0 is not None and p1 is not None:
                ratios += (
                    f", play-outs/game x{p1 / p0:.2f}, "
                    f"play-outs/CPU s x{(p1 / cpu1) / (p0 / cpu0):.2f}"
                )
            print(f"{name:<18} now/before: {ratios}", flush=True)


if __name__ == "__main__":
    main()
