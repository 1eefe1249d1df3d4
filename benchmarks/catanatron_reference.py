"""The catanatron side of `simulate_catan.py`, plus the per-game record both engines share.

This file is run by `simulate_catan.py` with the Python of a separate virtual environment
(`.venv-bench`) that has catanatron installed, so that catanatron never enters ludolab's own
environment. It must therefore import nothing from ludolab (nor numpy): only the standard
library, and catanatron inside the functions that need it. `simulate_catan.py` imports this
module too (without catanatron) for `GameStat` and `summarise`, so that both engines are
summarised by the same code.

Run on its own, it plays catanatron games and writes one JSON document to stdout:

    .venv-bench/bin/python benchmarks/catanatron_reference.py --games 200 --agents random weighted

What is timed per game, with `time.process_time` (CPU) and `time.perf_counter` (wall):
`Game(players, seed=k)` (which draws a random map, seats the players in random order and lists
the first actions) plus `game.play()`. Counting the log (turns, action types) happens after the
clock stops, so it costs the engine nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from collections import Counter
from dataclasses import asdict, dataclass
from typing import Any

# The catanatron release that `simulate_catan.py` installs. 3.2.1 (2022-07) is the newest on
# PyPI; pinning it keeps runs comparable over time.
CATANATRON_VERSION = "3.2.1"

# Our agent names -> catanatron player classes (module, class), imported lazily.
CATANATRON_AGENTS: dict[str, tuple[str, str]] = {
    "random": ("catanatron.models.player", "RandomPlayer"),
    "weighted-random": ("catanatron.players.weighted_random", "WeightedRandomPlayer"),
}

# An untimed game before the timed ones, so that one-time costs (lazy imports, caches, the
# first allocations) are not charged to game 0. Its seed is outside the timed range.
WARM_UP_SEED = 1_000_003


@dataclass
class GameStat:
    """One timed game, in units both engines share.

    Attributes:
        seed: the game's seed (0..N-1).
        cpu_s: CPU seconds for the whole game, setup included (`time.process_time`).
        wall_s: wall-clock seconds for the same span (`time.perf_counter`).
        setup_cpu_s: the part of `cpu_s` spent before the first decision (board, players).
        turns: player turns, i.e. dice rolls, all players together (ludolab's definition).
        actions: actions the engine applied, as that engine counts them (see the notes).
        truncated: the game hit the engine's turn limit without a winner.
        winner: the winner's seat (0..3, in playing order), None if nobody won.
        engine_turns: the engine's own turn counter where it differs from `turns`
            (catanatron's `state.num_turns`), else None.
    """

    seed: int
    cpu_s: float
    wall_s: float
    setup_cpu_s: float
    turns: int
    actions: int
    truncated: bool
    winner: int | None
    engine_turns: int | None = None


def summarise(engine: str, agents: str, stats: list[GameStat]) -> dict[str, Any]:
    """Aggregate figures for one (engine, agents) row of the table.

    Rates are totals over totals (games / total CPU s), not means of per-game rates: a mean of
    rates would overweight the short games.
    """
    n = len(stats)
    cpu = sum(s.cpu_s for s in stats)
    wall = sum(s.wall_s for s in stats)
    turns = sum(s.turns for s in stats)
    actions = sum(s.actions for s in stats)
    engine_turns = [s.engine_turns for s in stats if s.engine_turns is not None]
    return {
        "engine": engine,
        "agents": agents,
        "games": n,
        "cpu_s": cpu,
        "wall_s": wall,
        "cpu_share": cpu / wall if wall > 0 else float("nan"),
        "setup_cpu_share": sum(s.setup_cpu_s for s in stats) / cpu if cpu > 0 else float("nan"),
        "ms_per_game": 1e3 * cpu / n if n else float("nan"),
        "median_ms_per_game": 1e3 * statistics.median(s.cpu_s for s in stats) if n else None,
        "games_per_cpu_s": n / cpu if cpu > 0 else float("nan"),
        "games_per_wall_s": n / wall if wall > 0 else float("nan"),
        "turns_per_game": turns / n if n else float("nan"),
        "turns_per_cpu_s": turns / cpu if cpu > 0 else float("nan"),
        "actions_per_game": actions / n if n else float("nan"),
        "actions_per_cpu_s": actions / cpu if cpu > 0 else float("nan"),
        "truncated_share": sum(s.truncated for s in stats) / n if n else float("nan"),
        "engine_turns_per_game": (sum(engine_turns) / len(engine_turns) if engine_turns else None),
    }


def engine_facts() -> dict[str, Any]:
    """What the installed catanatron does, read from the package rather than assumed."""
    import importlib.metadata
    import inspect

    from catanatron.game import TURNS_LIMIT, Game
    from catanatron.models.enums import ActionType

    params = inspect.signature(Game.__init__).parameters
    return {
        "version": importlib.metadata.version("catanatron"),
        "turns_limit": TURNS_LIMIT,
        "vps_to_win": params["vps_to_win"].default,
        "discard_limit": params["discard_limit"].default,
        "action_types": [t.value for t in ActionType],
        # catanatron 3.2.1 has only MARITIME_TRADE (bank and harbours); a TODO in its enums
        # mentions player-to-player trade. Checked here so a newer release is reported right.
        "domestic_trade": any("OFFER" in t.value or "ACCEPT" in t.value for t in ActionType),
        "python": sys.version.split()[0],
    }


def _player_class(agents: str) -> type:
    """The catanatron Player subclass for one of our agent names."""
    import importlib

    module, name = CATANATRON_AGENTS[agents]
    return getattr(importlib.import_module(module), name)


def play_catanatron(agents: str, games: int, first_seed: int = 0) -> tuple[list[GameStat], Counter]:
    """Play `games` four-player games with four `agents` bots; time each one.

    Seeding: catanatron draws everything (map, seating, dice, bots' choices) from the global
    `random` module. `random.seed(k)` before the game, then `Game(..., seed=k)`, which calls
    `random.seed(k)` again, makes game k reproducible. `Game` treats seed 0 as "no seed" and
    draws one with `random.randrange`; after our `random.seed(0)` that draw is fixed too.

    Returns the per-game records and the count of every action type over all games.
    """
    from catanatron.game import Game
    from catanatron.models.enums import ActionType
    from catanatron.models.player import Color

    player_cls = _player_class(agents)
    colors = list(Color)
    roll = ActionType.ROLL

    random.seed(WARM_UP_SEED)
    Game([player_cls(c) for c in colors], seed=WARM_UP_SEED).play()

    stats: list[GameStat] = []
    action_types: Counter = Counter()
    for seed in range(first_seed, first_seed + games):
        random.seed(seed)
        c0, w0 = time.process_time(), time.perf_counter()
        game = Game([player_cls(c) for c in colors], seed=seed)
        c1 = time.process_time()
        winner = game.play()
        c2, w2 = time.process_time(), time.perf_counter()

        # Counted after the clock stopped. `state.actions` is the log of every applied action.
        log = game.state.actions
        action_types.update(a.action_type.value for a in log)
        stats.append(
            GameStat(
                seed=seed,
                cpu_s=c2 - c0,
                wall_s=w2 - w0,
                setup_cpu_s=c1 - c0,
                # One ROLL per player turn: the same unit as ludolab's `turns`.
                turns=sum(1 for a in log if a.action_type is roll),
                actions=len(log),
                truncated=winner is None,
                winner=None if winner is None else game.state.colors.index(winner),
                engine_turns=game.state.num_turns,
            )
        )
    return stats, action_types


# Set in the environment of the re-executed process (see `_make_reproducible`).
_REPRODUCIBLE_FLAG = "LUDOLAB_CATANATRON_REEXEC"
_ADDR_NO_RANDOMIZE = 0x0040000  # personality(2) flag, as `setarch -R` sets it


def _make_reproducible() -> bool:
    """Re-execute this script so that a seed gives the same catanatron game every time.

    `random.seed` is not enough. catanatron builds some option lists from sets, e.g. its
    maritime trades are a set of tuples like ("WOOD", "WOOD", "WOOD", "WOOD", "ORE") with
    None in the unused slots, and a random bot indexes into `list(that_set)`. Set order
    depends on the hashes: str hashes vary with PYTHONHASHSEED, and before Python 3.12
    hash(None) is None's memory address, which address-space randomisation moves on every
    run. So the process re-executes itself once with PYTHONHASHSEED=0 and without
    address randomisation (what `setarch -R` does), which makes games reproducible for a given
    Python build. Returns whether that holds; when the personality call is refused, the run
    goes on, and the JSON says it is not reproducible.
    """
    if os.environ.get(_REPRODUCIBLE_FLAG) == "1":
        return True
    if sys.platform != "linux":
        return False
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        persona = libc.personality(0xFFFFFFFF)  # 0xffffffff queries without changing
        if persona == -1 or libc.personality(persona | _ADDR_NO_RANDOMIZE) == -1:
            return False
    except (OSError, AttributeError):
        return False
    env = dict(os.environ, PYTHONHASHSEED="0", **{_REPRODUCIBLE_FLAG: "1"})
    os.execve(sys.executable, [sys.executable, *sys.argv], env)
    return True  # not reached: execve replaces the process


def _pin_to_one_core() -> int | None:
    """Pin to the first allowed CPU. A no-op when the parent already pinned us (inherited)."""
    if not hasattr(os, "sched_setaffinity"):
        return None
    cpu = min(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {cpu})
    return cpu


def main(argv: list[str] | None = None) -> int:
    """Play the requested settings and write one JSON document to stdout."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per setting")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument(
        "--agents", nargs="+", default=list(CATANATRON_AGENTS), choices=list(CATANATRON_AGENTS)
    )
    args = parser.parse_args(argv)

    reproducible = _make_reproducible()
    cpu = _pin_to_one_core()
    facts = engine_facts()
    facts["reproducible"] = reproducible
    out: dict[str, Any] = {"facts": facts, "pinned_cpu": cpu, "settings": []}
    for agents in args.agents:
        print(f"catanatron {agents}: {args.games} games ...", file=sys.stderr, flush=True)
        stats, action_types = play_catanatron(agents, args.games, args.first_seed)
        out["settings"].append(
            {
                "agents": agents,
                "games": [asdict(s) for s in stats],
                "action_types": dict(action_types.most_common()),
            }
        )
    json.dump(out, sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
