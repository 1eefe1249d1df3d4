"""Play many Masters Gallery games on deals and keep their records as a Parquet table."""

from __future__ import annotations

from collections.abc import Sequence
from statistics import mean, median, pstdev

import pyarrow as pa
from scipy.stats import binomtest

from envs.gallery.agents import parse_agent_spec
from envs.gallery.deal import Deal, shuffled_deal
from envs.gallery.engine import GalleryOptions
from envs.gallery.play import play_game
from envs.gallery.record import GalleryRecord
from research import simulate as simulate_common
from research.simulate import game_seeds

SCHEMA = "ludolab.gallery.games/1"


def simulate(
    deals: Sequence[Deal] | None,
    agent_specs: Sequence[str],
    games: int,
    seed: int,
    options: GalleryOptions | None = None,
) -> list[GalleryRecord]:
    """Play ``games`` games with seat ``k`` played by ``agent_specs[k]``.

    Game ``i`` is played on ``deals[i % len(deals)]``, or, with ``deals=None``, on a fair
    shuffled deal drawn from game ``i``'s seed; its seed is ``game_seeds(seed, games)[i]``.
    Raises ValueError for unknown agents or deals for another number of players.
    """
    if games < 1:
        raise ValueError(f"games must be at least 1, got {games}")
    agents = [parse_agent_spec(spec) for spec in agent_specs]
    if not 2 <= len(agents) <= 5:
        raise ValueError(f"Masters Gallery needs 2-5 agents, one per seat; got {len(agents)}")
    if deals is not None:
        if not deals:
            raise ValueError("no deals to play")
        wrong = [d.id for d in deals if d.n_players != len(agents)]
        if wrong:
            raise ValueError(
                f"{len(wrong)} deals (e.g. {wrong[0]}) are not for {len(agents)} players"
            )
    records = []
    for i, game_seed in enumerate(game_seeds(seed, games)):
        deal = shuffled_deal(len(agents), game_seed) if deals is None else deals[i % len(deals)]
        records.append(play_game(deal, agents, game_seed, options))
    return records


def records_table(records: Sequence[GalleryRecord], metadata: dict | None = None) -> pa.Table:
    """One row per game (see :func:`research.simulate.records_table`)."""
    return simulate_common.records_table(records, SCHEMA, metadata)


def summarise(records: Sequence[GalleryRecord]) -> str:
    """A few lines: length, win rate per seat (Wilson 95%), shared wins, scores and margins."""
    n = len(records)
    seats = records[0].n_players
    turns = [sum(r.turns_per_round) for r in records]
    shared = sum(len(r.winners) > 1 for r in records)
    lines = [
        f"  games {n}: won outright {n - shared}, shared wins {shared}",
        f"  turns per game: mean {mean(turns):.1f}, median {median(turns):g}, "
        f"sd {pstdev(turns):.1f}; decisions per game {mean(r.n_actions for r in records):.1f}",
    ]
    parts = []
    for seat in range(seats):
        wins = sum(r.winners == (seat,) for r in records)
        ci = binomtest(wins, n).proportion_ci(method="wilson")
        parts.append(
            f"seat {seat} ({records[0].agents[seat]}) {wins / n:.1%} [{ci.low:.1%}, {ci.high:.1%}]"
        )
    lines.append("  outright win rate (Wilson 95%): " + "; ".join(parts))
    score_means = [mean(r.final_scores[s] for r in records) for s in range(seats)]
    margins = [
        sorted(r.final_scores, reverse=True)[0] - sorted(r.final_scores, reverse=True)[1]
        for r in records
    ]
    lines.append(
        "  final score by seat: "
        + " ".join(f"{v:.1f}" for v in score_means)
        + f"; winner's margin mean {mean(margins):.1f}"
    )
    return "\n".join(lines)
