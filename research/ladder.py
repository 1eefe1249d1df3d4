"""A rating ladder: a seat-rotated round robin among agents, and multiplayer ratings fitted
to its results.

Every combination of ``players`` agents from the pool plays ``rounds`` times; each time in
every seat rotation (agent i of the lineup in seat (i + k) mod players, k = 0..players-1), all
rotations on the same setup with the same game seed (the same dice, deck or deal), so that the
seat advantage and the setup's luck cancel within a rotation set. The unit of analysis is
therefore the *rotation set*: the intervals below resample rotation sets, not games.

Results per game are the finishing order: Catan by winner, then victory points (ties share a
place; a game cut off at the turn limit is ordered by points); Masters Gallery by money
(winners share first place). Ratings are Plackett-Luce ratings (Weng and Lin 2011) from the
``openskill`` package, fitted by passing over the games in a random order; the reported rating
is the mean over ``ORDERS`` such orders, and its 95% interval is the percentile interval over
``BOOTSTRAP`` resamples of the rotation sets (each refitted). Win rates carry Wilson intervals
over games (statsmodels); an agent's fair share is 1 / players. Two agents' ratings can be in
an order that the games cannot vouch for: :func:`head_to_head` says, for each pair, how often
one finished ahead of the other and how sure the rating difference is.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa

from ludolab import games
from ludolab.research.simulate import fair_setup, game_seed, play_one, winners

ORDERS = 10  # random game orders averaged for the point estimate
BOOTSTRAP = 200  # resamples of the rotation sets for the intervals


@dataclass(frozen=True)
class LadderTask:
    """Rotation sets of a ladder, as a worker plays them.

    Attributes:
        chunk: the task's number.
        game: ``"catan"`` or ``"gallery"``.
        sets: per rotation set, (set index, lineup of agent specs, game seed, setup or None
            for a fair one drawn from the game seed).
        options: the game's rule options (None: defaults).
    """

    chunk: int
    game: str
    sets: tuple[tuple[int, tuple[str, ...], int, Any], ...]
    options: Any = None


def lineups(agents: Sequence[str], players: int) -> list[tuple[str, ...]]:
    """Every combination of ``players`` distinct agents of the pool, in pool order."""
    return list(itertools.combinations(agents, players))


def ladder_tasks(
    game: str,
    agents: Sequence[str],
    players: int,
    rounds: int,
    seed: int,
    setups: Sequence[Any] | None = None,
    options: Any = None,
    per_task: int = 4,
) -> list[LadderTask]:
    """The ladder's rotation sets, ``per_task`` to a task. Set ``s`` has game seed
    ``game_seed(seed, s)`` and, when ``setups`` are given, setup ``s mod len(setups)``."""
    if len(set(agents)) != len(agents):
        raise ValueError("each agent may be in the ladder once; give distinct specs")
    described = games.get(game)
    described.check_players(players)
    if len(agents) < players:
        raise ValueError(f"{players}-player games need at least {players} agents in the ladder")
    registry = described.agents
    for spec in agents:  # each spec resolves, before anything is played or written
        registry.parse(spec)
    sets = []
    for _ in range(rounds):
        for lineup in lineups(agents, players):
            s = len(sets)
            setup = None if not setups else setups[s % len(setups)]
            sets.append((s, lineup, game_seed(seed, s), setup))
    return [
        LadderTask(k, game, tuple(sets[i : i + per_task]), options)
        for k, i in enumerate(range(0, len(sets), per_task))
    ]


def play_ladder_task(task: LadderTask) -> pa.Table:
    """Play a task's rotation sets; one row per game (set, rotation, seed, setup id, the agent
    in each seat, each seat's place (0 = first) and score)."""
    rows: dict[str, list] = {
        k: [] for k in ("set", "rotation", "seed", "setup_id", "seats", "places", "scores")
    }
    for s, lineup, seed, setup in task.sets:
        n = len(lineup)
        if setup is None:
            setup = fair_setup(task.game, n, seed)
        for k in range(n):
            seats = [lineup[(i - k) % n] for i in range(n)]  # lineup[i] sits in seat i + k
            scores, first = _play(task.game, setup, seats, seed, task.options)
            rows["set"].append(s)
            rows["rotation"].append(k)
            rows["seed"].append(seed)
            rows["setup_id"].append(setup.id)
            rows["seats"].append(seats)
            rows["places"].append(_places(scores, first))
            rows["scores"].append(scores)
    return pa.table(rows)


def _play(game: str, setup: Any, seats: list[str], seed: int, options: Any) -> tuple[list, list]:
    """Each seat's score (the record core's final scores) and the seats that won."""
    record = play_one(game, setup, seats, seed, options)
    return list(record.final_scores), winners(record)


def _places(scores: Sequence[float], won: Sequence[int]) -> list[int]:
    """0-based finishing places: the seats in ``won`` first, then by score; equal keys share
    a place."""
    keys = [(q in won, scores[q]) for q in range(len(scores))]
    return [sum(1 for other in keys if other > key) for key in keys]


def fit_ratings(
    games: pd.DataFrame, agents: Sequence[str], seed: int, fit: LadderFit | None = None
) -> pd.DataFrame:
    """Per agent: rating (Plackett-Luce mu, mean over ORDERS game orders), its 95% bootstrap
    interval over rotation sets, openskill's sigma, games, wins, win rate with its 95% Wilson
    interval (over the effective number of independent games: the games of one rotation set
    share a setup and seed, see :func:`ludolab.research.metrics.core.effective_sample_size`),
    the fair share and the mean place (1 = first). Sorted by rating. ``fit``: the
    :func:`fit_ladder` of these games, agents and seed, when it is at hand."""
    from ludolab.research.metrics.core import effective_sample_size, wilson_interval

    fit = fit or fit_ladder(games, agents, seed)
    table, mu, sigma, boot = fit.table, fit.mu, fit.sigma, fit.boot
    low, high = np.percentile(boot, [2.5, 97.5], axis=0)
    rows = []
    for j, agent in enumerate(agents):
        place_sum = 0
        won: list[float] = []
        sets: list[int] = []
        for (seats, places), rotation in zip(table, games["set"], strict=True):
            for seat, name in enumerate(seats):
                if name == agent:
                    place_sum += places[seat] + 1
                    won.append(float(places[seat] == 0))
                    sets.append(int(rotation))
        n_games, wins = len(won), int(sum(won))
        n_eff = effective_sample_size(np.array(won), np.array(sets)) if n_games else 0.0
        lo, hi = wilson_interval(wins / n_games * n_eff, n_eff) if n_games else (0, 0)
        rows.append(
            {
                "agent": agent,
                "rating": mu[j],
                "rating_low": low[j],
                "rating_high": high[j],
                "sigma": sigma[j],
                "games": n_games,
                "wins": wins,
                "win_rate": wins / n_games if n_games else float("nan"),
                "win_low": lo,
                "win_high": hi,
                "fair_share": 1 / len(table[0][0]) if table else float("nan"),
                "mean_place": place_sum / n_games if n_games else float("nan"),
            }
        )
    return pd.DataFrame(rows).sort_values("rating", ascending=False, ignore_index=True)


def head_to_head(
    games: pd.DataFrame, agents: Sequence[str], seed: int, fit: LadderFit | None = None
) -> pd.DataFrame:
    """Per pair of agents (a, b) that met, in the order of ``agents``: the games they played
    together; the share of them in which a finished ahead of b (a shared place counts half),
    with its 95% Wilson interval over the effective number of games (rotation sets as
    clusters); and the rating difference a - b with its 95% percentile interval over the
    bootstrap resamples of :func:`fit_ratings` (the difference within each resample, so the
    interval allows for two ratings fitted to the same games moving together). ``games`` as
    for :func:`fit_ratings`; the same ``seed`` gives the same ratings. ``fit``: the
    :func:`fit_ladder` of these games and seed (its agents in any order), when it is at hand."""
    from ludolab.research.metrics.core import effective_sample_size, wilson_interval

    fit = fit or fit_ladder(games, agents, seed)
    table = fit.table
    column = {a: k for k, a in enumerate(fit.agents)}
    mu, boot = fit.mu[[column[a] for a in agents]], fit.boot[:, [column[a] for a in agents]]
    sets = np.array([int(s) for s in games["set"]])
    rows = []
    for (i, a), (j, b) in itertools.combinations(enumerate(agents), 2):
        ahead, clusters = [], []
        for (seats, places), s in zip(table, sets, strict=True):
            if a in seats and b in seats:
                pa, pb = places[seats.index(a)], places[seats.index(b)]
                ahead.append(1.0 if pa < pb else 0.5 if pa == pb else 0.0)
                clusters.append(s)
        if not ahead:
            continue
        share = float(np.mean(ahead))
        n_eff = effective_sample_size(np.array(ahead), np.array(clusters))
        lo, hi = wilson_interval(share * n_eff, n_eff)
        d_low, d_high = np.percentile(boot[:, i] - boot[:, j], [2.5, 97.5])
        rows.append(
            {
                "a": a,
                "b": b,
                "games": len(ahead),
                "ahead": share,
                "ahead_low": lo,
                "ahead_high": hi,
                "difference": mu[i] - mu[j],
                "difference_low": d_low,
                "difference_high": d_high,
            }
        )
    return pd.DataFrame(rows)


@dataclass(frozen=True)
class LadderFit:
    """Ratings fitted to a ladder's games, as :func:`fit_ratings` and :func:`head_to_head`
    read them.

    Attributes:
        agents: the agents, in the order of the arrays.
        table: the games as (seats, places) rows.
        mu, sigma: per agent, means over ``ORDERS`` game orders; shape (agents,).
        boot: mu per agent in each of ``BOOTSTRAP`` resamples of the rotation sets; shape
            (BOOTSTRAP, agents).
    """

    agents: tuple[str, ...]
    table: list[tuple[list[str], list[int]]]
    mu: np.ndarray
    sigma: np.ndarray
    boot: np.ndarray


def fit_ladder(games: pd.DataFrame, agents: Sequence[str], seed: int) -> LadderFit:
    """Plackett-Luce ratings of ``agents`` from ``games`` (as for :func:`fit_ratings`), with
    the bootstrap over rotation sets; fit once for both the ratings and the head to head."""
    rng = random.Random(seed)
    table = [
        (list(seats), list(places)) for seats, places in zip(games.seats, games.places, strict=True)
    ]
    by_set: dict[int, list[int]] = {}
    for i, s in enumerate(games["set"]):
        by_set.setdefault(int(s), []).append(i)
    set_rows = list(by_set.values())
    mus, sigmas = zip(*(_fit(table, agents, rng) for _ in range(ORDERS)), strict=True)
    boot = np.empty((BOOTSTRAP, len(agents)))
    for b in range(BOOTSTRAP):
        picked = [i for _ in set_rows for i in set_rows[rng.randrange(len(set_rows))]]
        boot[b] = _fit([table[i] for i in picked], agents, rng)[0]
    return LadderFit(tuple(agents), table, np.mean(mus, axis=0), np.mean(sigmas, axis=0), boot)


def _fit(
    table: Sequence[tuple[list[str], list[int]]], agents: Sequence[str], rng: random.Random
) -> tuple[np.ndarray, np.ndarray]:
    """One pass of Plackett-Luce updates over ``table`` in a random order: (mu, sigma) per
    agent."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings = {a: model.rating(name=a) for a in agents}
    order = list(range(len(table)))
    rng.shuffle(order)
    for i in order:
        seats, places = table[i]
        teams = model.rate([[ratings[a]] for a in seats], ranks=[p + 1 for p in places])
        for a, team in zip(seats, teams, strict=True):
            ratings[a] = team[0]
    return (
        np.array([ratings[a].mu for a in agents]),
        np.array([ratings[a].sigma for a in agents]),
    )


def ladder_markdown(ratings: pd.DataFrame, title: str, how: str) -> str:
    """The ratings as a Markdown table, under ``title``, with ``how`` (what was played)."""
    lines = [
        f"# {title}",
        "",
        how,
        "",
        "| agent | rating | 95% interval | games | wins | win rate [95%] | mean place |",
        "|---|---:|---|---:|---:|---|---:|",
    ]
    for r in ratings.itertuples():
        lines.append(
            f"| `{r.agent}` | {r.rating:.1f} | [{r.rating_low:.1f}, {r.rating_high:.1f}] | "
            f"{r.games:,} | {r.wins:,} | {r.win_rate:.1%} [{r.win_low:.1%}, {r.win_high:.1%}] "
            f"| {r.mean_place:.2f} |"
        )
    fair = ratings.fair_share.iloc[0]
    lines += [
        "",
        f"Rating: Plackett-Luce mu (openskill; a new agent starts at 25), mean over {ORDERS} "
        f"game orders; interval: 95% percentile bootstrap over rotation sets ({BOOTSTRAP} "
        f"resamples). Win rate: Wilson interval over the effective number of independent "
        f"games (the games of a rotation set share a setup); the fair share is {fair:.0%}.",
        "",
    ]
    return "\n".join(lines)


def head_to_head_markdown(pairs: pd.DataFrame) -> str:
    """:func:`head_to_head` as a Markdown table with a line on how to read it."""
    lines = [
        "| a | b | games together | a finished ahead [95%] | rating a - b [95%] |",
        "|---|---|---:|---|---|",
    ]
    for r in pairs.itertuples():
        lines.append(
            f"| `{r.a}` | `{r.b}` | {r.games:,} | {r.ahead:.1%} [{r.ahead_low:.1%}, "
            f"{r.ahead_high:.1%}] | {r.difference:+.1f} [{r.difference_low:+.1f}, "
            f"{r.difference_high:+.1f}] |"
        )
    lines += [
        "",
        "Head to head, from the same games: a shared place counts half; Wilson interval over "
        "the effective number of games; the rating difference's interval is the bootstrap's "
        "(the difference within each resample). A share whose interval excludes 50% tells "
        "the two apart at 95%.",
        "",
    ]
    return "\n".join(lines)


def ladder_figure(ratings: pd.DataFrame, title: str, path: Path) -> None:
    """Ratings with their intervals, best at the top (PNG, SVG or PDF by ``path``'s suffix)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    shown = ratings.iloc[::-1]
    fig, ax = plt.subplots(figsize=(6.4, 0.5 * len(shown) + 1.4))
    y = np.arange(len(shown))
    ax.errorbar(
        shown.rating,
        y,
        # A percentile interval need not hold the point estimate (nor, by rounding, when
        # every resample gives the same rating): no negative bar lengths.
        xerr=[
            np.maximum(shown.rating - shown.rating_low, 0),
            np.maximum(shown.rating_high - shown.rating, 0),
        ],
        fmt="o",
        color="#1f4e79",
        capsize=4,
    )
    ax.set_yticks(y, [str(a) for a in shown.agent])
    ax.axvline(25, color="0.6", linewidth=0.8, linestyle="--", label="a new agent's rating")
    ax.legend(loc="lower right", fontsize="small", frameon=False)
    ax.set_xlabel("rating (Plackett-Luce mu, 95% bootstrap interval over rotation sets)")
    ax.set_title(title)
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
