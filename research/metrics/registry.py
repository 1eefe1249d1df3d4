"""Definitions of every metric column, for reports: name -> (description, formula, unit).

Notation is that of :mod:`ludolab.research.metrics.core`: n seats; V[t, s] the score of seat s
after step t = 1..T (the record core's ``score_by_step``: for Catan, VP after each player turn,
hidden VP cards included; for Masters Gallery, money earned up to the end of each round); L_t
the leader set after step t (L_0 = all seats); W the winners; F the final scores (the record
core's ``final_scores``). Per-condition rows aggregate the games of one condition; a k-way
shared win counts 1/k win for each of the k winners. A game's own metrics come from its
description (:mod:`ludolab.games`).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ludolab import games
from ludolab.games import Metric

if TYPE_CHECKING:  # pandas only for metrics_table: `ludolab metrics` starts without it
    import pandas as pd

_TRAJ = "steps = the game's steps (record.score_by_step)"
SCORE = "score"
"""The unit of a score metric: the game's own (its description's ``score_unit``)."""

GAME_METRICS: dict[str, Metric] = {
    "n_players": Metric("seats in the game", "n", "seats"),
    "turns": Metric("game length in turns", "record.turns", "turns"),
    "rounds": Metric("game length in rounds", "record.rounds", "rounds"),
    "truncated": Metric(
        "the game was cut off by the turn limit (a timeout, no winner)",
        "record.truncated",
        "bool",
    ),
    "shared_win": Metric("more than one seat won", "|W| > 1", "bool"),
    "score_spread": Metric("final score spread", "max_s F[s] - min_s F[s]", SCORE),
    "winner_margin": Metric(
        "winner's final lead over the best other seat",
        "F[w] - max_{s != w} F[s] for a single winner w; 0 for a shared win; NaN if no winner",
        SCORE,
    ),
    "lead_changes": Metric(
        "steps that changed the leader set",
        f"#{{t in 1..T : L_t != L_{{t-1}}}}, L_0 = all seats ({_TRAJ})",
        "count",
    ),
    "lead_change": Metric(
        "share of steps that changed the leader set (Ludii Lead Change)",
        "#{t in 1..T : L_t != L_{t-1}} / T, L_t = argmax_s V[t, s] as a set, L_0 = all seats",
        "share [0, 1]",
    ),
    "winner_trailing": Metric(
        "share of steps after which the eventual winner was behind the leader",
        "#{t : gap_t > 0} / T, gap_t = (max_s V[t,s] - mean_{w in W} V[t,w]) / max_s V[t,s]",
        "share [0, 1]",
    ),
    "drama": Metric(
        "how far behind the eventual winner was, averaged over the steps it trailed "
        "(Ludii Drama, severity part, relative to the leader's score); 0 if never behind",
        "mean_{t : gap_t > 0} gap_t, gap_t = (max_s V[t,s] - mean_{w in W} V[t,w]) / "
        "max_s V[t,s] (gap 0 when max is 0); Ludii's Drama Average = drama * winner_trailing",
        "share of leader's score [0, 1]",
    ),
    "decisiveness": Metric(
        "when the winner took a lead it never lost, as a share of the game (smaller = "
        "decided earlier)",
        "t*/T, t* = min{t : for all u >= t, min_{w in W} V[u,w] > max_{s not in W} V[u,s]}; "
        "1 if the winners never lead strictly at the end; NaN if no winner",
        "share (0, 1]",
    ),
    "decisiveness_threshold": Metric(
        "Ludii Decisiveness Moves on scores: when a winner first beat the best score any "
        "other seat ever reached, as a share of the game",
        "t_theta/T, theta = max_{t, s not in W} V[t,s], "
        "t_theta = min{t : max_{w in W} V[t,w] > theta} (T if never)",
        "share (0, 1]",
    ),
    "lead_change_ludii": Metric(
        "Ludii's Lead Change exactly: leader-set changes over the states before each step, "
        "the first compared with an empty set (at least 1/T)",
        "#{t in 0..T-1 : L(s_t) != L(s_{t-1})} / T, s_0 = the start, s_t = V[t] (t < T), "
        "L(s_{-1}) = {} (Ludii LeadChange.java; scores for its state evaluation)",
        "share (0, 1]",
    ),
    "drama_ludii": Metric(
        "Ludii's Drama Average: the winners' mean shortfall below the leader, averaged over "
        "every state before a step (absolute, in score units)",
        "mean_{t in 0..T-1} (max_s s_t[s] - mean_{w in W} s_t[w]), s_t as for "
        "lead_change_ludii (Ludii Drama.java, Average); NaN if no winner",
        SCORE,
    ),
    "decisiveness_ludii": Metric(
        "Ludii's Decisiveness Moves: the share of the game before a winner first out-scored "
        "every score a non-winner reaches in the states before a step",
        "t/T, theta = max(-1, max_{t < T, s not in W} s_t[s]), t = min{t : max_{w in W} "
        "s_t[w] > theta} (T if none) (Ludii DecisivenessMoves.java); NaN if no winner",
        "share [0, 1]",
    ),
    "income_gini": Metric(
        "inequality of income between seats (Gini)",
        "sum_i sum_j |x_i - x_j| / (2 n^2 mean(x)); x_s = seat s's income, as the game "
        "counts it (its seat_income; without one, x_s = F[s]: the score is the income)",
        "Gini [0, (n-1)/n]",
    ),
    "first_seat_win": Metric(
        "the first player's share of the win (its mean over games is seat 0's win rate)",
        "1 / |W| if seat 0 in W else 0; NaN if no winner",
        "share [0, 1]",
    ),
}

CONDITION_METRICS: dict[str, Metric] = {
    "n_games": Metric("games in the condition", "N", "games"),
    "n_decided": Metric("games with at least one winner", "N_d = #{games : W non-empty}", "games"),
    "completion_rate": Metric(
        "share of games that ended with a winner (Ludii Completion)", "N_d / N", "share [0, 1]"
    ),
    "timeout_rate": Metric(
        "share of games cut off by the turn limit (Ludii Timeouts)",
        "#{truncated} / N",
        "share [0, 1]",
    ),
    "turns_mean": Metric("mean game length", "mean of turns", "turns"),
    "turns_median": Metric("median game length", "median of turns", "turns"),
    "turns_sd": Metric("sd of game length", "sample sd of turns (ddof = 1)", "turns"),
    "rounds_mean": Metric("mean game length in rounds", "mean of rounds", "rounds"),
    "rounds_median": Metric("median game length in rounds", "median of rounds", "rounds"),
    "rounds_sd": Metric("sd of game length in rounds", "sample sd of rounds (ddof = 1)", "rounds"),
    "wins_<s>": Metric(
        "wins of seat s (shared wins count 1/k)",
        "sum over decided games of [s in W] / |W|",
        "games",
    ),
    "win_rate_<s>": Metric(
        "win rate of seat s among decided games", "r_s = wins_s / N_d", "share [0, 1]"
    ),
    "win_rate_<s>_low": Metric(
        "lower end of the Wilson 95% interval for r_s (N_d: with several games per setup, "
        "the effective N_d / deff of the clustered design)",
        "(r + z^2/2N_d - z sqrt(r(1-r)/N_d + z^2/4N_d^2)) / (1 + z^2/N_d), z = 1.96",
        "share [0, 1]",
    ),
    "win_rate_<s>_high": Metric(
        "upper end of the Wilson 95% interval for r_s (N_d as for the lower end)",
        "(r + z^2/2N_d + z sqrt(r(1-r)/N_d + z^2/4N_d^2)) / (1 + z^2/N_d), z = 1.96",
        "share [0, 1]",
    ),
    "first_player_advantage": Metric(
        "seat 0's (the first player's) win rate above a fair share (Ludii AdvantageP1 - 1/n)",
        "r_0 - 1/n",
        "share [-1/n, 1 - 1/n]",
    ),
    "chi2": Metric(
        "Pearson chi-square of wins per seat against uniform",
        "sum_s (wins_s - N_d/n)^2 / (N_d/n), n - 1 degrees of freedom",
        "statistic",
    ),
    "chi2_p": Metric("p-value of chi2 (scipy.stats.chisquare)", "P(X^2_{n-1} >= chi2)", "p"),
    "balance": Metric(
        "similarity of the seats' win rates (Ludii Balance)",
        "1 - max_{a<b} |r_a - r_b|",
        "share [0, 1]",
    ),
    "<metric>_mean": Metric(
        "mean over the condition's games of a per-game metric (NaN games skipped)",
        "mean of the per-game column",
        "as the metric",
    ),
}

METRICS: dict[str, Metric] = {
    **GAME_METRICS,
    **{
        f"{name}.{k}": v
        for name in games.names()
        for k, v in games.get(name).metrics.items()
    },
    **{f"condition.{k}": v for k, v in CONDITION_METRICS.items()},
}
"""Every metric: per-game ones every game has under their column names, each registered game's
own as ``<game>.<column>`` (``catan.sevens``), per-condition ones as ``condition.<column>``
(``<s>`` stands for a seat number, ``<metric>`` for a per-game column)."""


_COMMON_LABELS: dict[str, str] = {
    "n_players": "players",
    "turns": "game length",
    "rounds": "game length in rounds",
    "truncated": "share of games cut off by the turn limit",
    "shared_win": "share of games with a shared win",
    "score_spread": "final score spread",
    "winner_margin": "winner's margin",
    "lead_changes": "lead changes",
    "lead_change": "share of turns that change the lead",
    "winner_trailing": "share of the game the winner trails",
    "drama": "how far behind the winner trails",
    "decisiveness": "point at which the game is decided",
    "decisiveness_threshold": "point at which a winner passes every other seat's best",
    "lead_change_ludii": "lead change (Ludii)",
    "drama_ludii": "drama (Ludii)",
    "decisiveness_ludii": "decisiveness (Ludii)",
    "income_gini": "inequality of income (Gini)",
    "first_seat_win": "first player's win rate",
}

LABELS: dict[str, str] = {
    # the first game to name a column labels it (reversed: earlier games overwrite later ones)
    **{
        column: words
        for name in reversed(games.names())
        for column, words in games.get(name).metric_labels.items()
    },
    **_COMMON_LABELS,
}
"""A short name for each per-game metric (by its column name; the games' own from their
descriptions), as a sentence of a report's summary says it: "game length", "first player's win
rate"."""


def label(column: str) -> str:
    """A per-game column's short name (:data:`LABELS`), else the column name itself."""
    return LABELS.get(column, column)


def definition(game: str, name: str) -> Metric | None:
    """The definition of a column of a report's tables for one game: a per-game metric
    (``turns``, ``sevens``), a per-condition one (``turns_mean``, ``win_rate_0``,
    ``completion_rate``, ``score_spread_mean``), or a registry name (``catan.sevens``); None
    when the registry does not hold it. Score units are the game's, and the record core's
    length and outcome fields carry the game's way of counting them."""
    described = games.get(game)
    own = described.metrics
    if name in METRICS:
        metric = METRICS[name]
    elif name in own or name in GAME_METRICS:
        metric = own.get(name) or GAME_METRICS[name]
    elif name in CONDITION_METRICS:
        metric = CONDITION_METRICS[name]
    elif seat := re.fullmatch(r"(wins|win_rate)_\d+(_low|_high)?", name):
        metric = CONDITION_METRICS[f"{seat.group(1)}_<s>{seat.group(2) or ''}"]
    elif name.endswith("_mean") and definition(game, name.removesuffix("_mean")) is not None:
        metric = CONDITION_METRICS["<metric>_mean"]
    else:
        return None
    if name in described.core_formulas:
        metric = metric._replace(formula=described.core_formulas[name])
    if metric.unit == SCORE:
        metric = metric._replace(unit=described.score_unit)
    return metric


def short_unit(unit: str) -> str:
    """A unit without its remark, as a label or a table header shows it: "share [0, 1]" is
    "share", "pips (a board feature)" is "pips"."""
    return re.sub(r"\s*[\[(].*$", "", unit).strip()


def game_unit(game: str, column: str) -> str:
    """The unit of a per-game column for one game, as a reader of that game says it: its score
    unit for scores (VP, money), its turn unit for game length (player turns, cards played)."""
    described = games.get(game)
    metric = described.metrics.get(column) or GAME_METRICS.get(column)
    if metric is None:
        return ""
    if column == "turns":
        return described.turn_unit
    return described.score_unit if metric.unit == SCORE else metric.unit


def metrics_table() -> pd.DataFrame:
    """:data:`METRICS` as a DataFrame (index ``name``; columns description, formula, unit, the
    unit as :func:`registry_unit` says it)."""
    import pandas as pd

    return pd.DataFrame.from_dict(
        {k: {**m._asdict(), "unit": registry_unit(k)} for k, m in METRICS.items()},
        orient="index",
    ).rename_axis("name")


def registry_unit(name: str) -> str:
    """The unit of the registered metric ``name``: a game's own metric counted in scores says
    its game's score unit (``goofspiel.points_unclaimed``: points); the metrics every game has
    say ``score``, each game's own."""
    metric = METRICS[name]
    game, _, _ = name.partition(".")
    if metric.unit == SCORE and games.known(game):
        return games.get(game).score_unit
    return metric.unit


__all__ = [
    "CONDITION_METRICS",
    "GAME_METRICS",
    "LABELS",
    "METRICS",
    "Metric",
    "definition",
    "game_unit",
    "label",
    "metrics_table",
    "registry_unit",
]
