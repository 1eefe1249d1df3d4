"""Definitions of every metric column, for reports: name -> (description, formula, unit).

Notation is that of :mod:`ludolab.research.metrics.core`: n seats; V[t, s] the score of seat s after
step t = 1..T (Catan: VP after each player turn, hidden VP cards included; Gallery: money earned
after each round); L_t the leader set after step t (L_0 = all seats); W the winners; F the
final scores (the record core's ``final_scores``). Per-condition rows aggregate the
games of one condition; a k-way shared win counts 1/k win for each of the k winners.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:  # pandas only for metrics_table: `ludolab metrics` starts without it
    import pandas as pd


class Metric(NamedTuple):
    """How a metric column is defined (unpacks as ``description, formula, unit``)."""

    description: str
    formula: str
    unit: str


_TRAJ = "steps = Catan player turns / Gallery rounds"

GAME_METRICS: dict[str, Metric] = {
    "n_players": Metric("seats in the game", "n", "seats"),
    "turns": Metric(
        "game length in turns",
        "Catan: player turns after setup, winning turn included; Gallery: cards played from "
        "hand, sum of turns_per_round",
        "turns",
    ),
    "rounds": Metric(
        "game length in rounds",
        "Catan: ceil(turns / n); Gallery: rounds played",
        "rounds",
    ),
    "truncated": Metric(
        "the game was cut off by the turn limit (a timeout, no winner)",
        "Catan: record.truncated; Gallery: always False",
        "bool",
    ),
    "shared_win": Metric("more than one seat won", "|W| > 1", "bool"),
    "score_spread": Metric("final score spread", "max_s F[s] - min_s F[s]", "VP / money"),
    "winner_margin": Metric(
        "winner's final lead over the best other seat",
        "F[w] - max_{s != w} F[s] for a single winner w; 0 for a shared win; NaN if no winner",
        "VP / money",
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
        "VP / money",
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
        "sum_i sum_j |x_i - x_j| / (2 n^2 mean(x)); Catan x_s = resource cards produced by "
        "seat s (setup income included, all 5 resources summed); Gallery x_s = F[s] (money "
        "is the only income)",
        "Gini [0, (n-1)/n]",
    ),
    "first_seat_win": Metric(
        "the first player's share of the win (its mean over games is seat 0's win rate)",
        "1 / |W| if seat 0 in W else 0; NaN if no winner",
        "share [0, 1]",
    ),
}

CATAN_METRICS: dict[str, Metric] = {
    "n_actions": Metric("decisions taken by all seats", "record.n_actions", "decisions"),
    "sevens": Metric("sevens rolled", "record.sevens", "count"),
    "robber_moves": Metric("robber moves (7s and knights)", "record.robber_moves", "count"),
    "maritime_trades": Metric("trades with the bank", "record.maritime_trades", "count"),
    "domestic_trades": Metric("trades between seats", "record.domestic_trades", "count"),
    "trades": Metric("all trades", "maritime_trades + domestic_trades", "count"),
    "first_city_turn": Metric(
        "turn of the game's first city (0-based)",
        "min_s first_city_turn[s]; NaN if nobody built a city",
        "turn",
    ),
    "winner_first_city_turn": Metric(
        "turn of the winner's first city (0-based)",
        "first_city_turn[w]; NaN if no winner or no city",
        "turn",
    ),
}

GALLERY_METRICS: dict[str, Metric] = {
    "n_actions": Metric("decisions taken by all seats", "record.n_actions", "decisions"),
    "n_winners": Metric("seats sharing the win", "|W|", "seats"),
    "deck_ran_out": Metric(
        "the deck could not supply a deal, extra card or draw", "record.deck_ran_out", "bool"
    ),
    "missed_draws": Metric(
        "draw-one cards played on an empty deck", "record.missed_draws", "count"
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
    **{f"catan.{k}": v for k, v in CATAN_METRICS.items()},
    **{f"gallery.{k}": v for k, v in GALLERY_METRICS.items()},
    **{f"condition.{k}": v for k, v in CONDITION_METRICS.items()},
}
"""Every metric: per-game ones shared by both games under their column names, game-specific
ones as ``catan.<column>`` / ``gallery.<column>``, per-condition ones as
``condition.<column>`` (``<s>`` stands for a seat number, ``<metric>`` for a per-game column)."""


LABELS: dict[str, str] = {
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
    "n_actions": "decisions per game",
    "sevens": "sevens rolled",
    "robber_moves": "robber moves",
    "maritime_trades": "trades with the bank",
    "domestic_trades": "trades between players",
    "trades": "trades",
    "first_city_turn": "turn of the first city",
    "winner_first_city_turn": "turn of the winner's first city",
    "n_winners": "winners per game",
    "deck_ran_out": "share of games whose deck ran out",
    "missed_draws": "missed draws",
}
"""A short name for each per-game metric (by its column name), as a sentence of a report's
summary says it: "game length", "first player's win rate"."""


def label(column: str) -> str:
    """A per-game column's short name (:data:`LABELS`), else the column name itself."""
    return LABELS.get(column, column)


def definition(game: str, name: str) -> Metric | None:
    """The definition of a column of a report's tables for one game: a per-game metric
    (``turns``, ``sevens``), a per-condition one (``turns_mean``, ``win_rate_0``,
    ``completion_rate``, ``score_spread_mean``), or a registry name (``catan.sevens``); None
    when the registry does not hold it."""
    if name in METRICS:
        return METRICS[name]
    own = CATAN_METRICS if game == "catan" else GALLERY_METRICS
    if name in own or name in GAME_METRICS:
        return own.get(name) or GAME_METRICS[name]
    if name in CONDITION_METRICS:
        return CONDITION_METRICS[name]
    seat = re.fullmatch(r"(wins|win_rate)_\d+(_low|_high)?", name)
    if seat:
        return CONDITION_METRICS[f"{seat.group(1)}_<s>{seat.group(2) or ''}"]
    if name.endswith("_mean") and definition(game, name.removesuffix("_mean")) is not None:
        return CONDITION_METRICS["<metric>_mean"]
    return None


def short_unit(unit: str) -> str:
    """A unit without its remark, as a label or a table header shows it: "share [0, 1]" is
    "share", "pips (a board feature)" is "pips"."""
    return re.sub(r"\s*[\[(].*$", "", unit).strip()


def game_unit(game: str, column: str) -> str:
    """The unit of a per-game column for one game, as a reader of that game says it: VP for
    Catan scores, money for Masters Gallery, player turns for Catan game length."""
    own = CATAN_METRICS if game == "catan" else GALLERY_METRICS
    metric = own.get(column) or GAME_METRICS.get(column)
    if metric is None:
        return ""
    unit = metric.unit.replace("VP / money", "VP" if game == "catan" else "money")
    if game == "catan" and column == "turns":
        return "player turns"
    if game == "gallery" and column == "turns":
        return "cards played"
    return unit


def metrics_table() -> pd.DataFrame:
    """:data:`METRICS` as a DataFrame (index ``name``; columns description, formula, unit)."""
    import pandas as pd

    return pd.DataFrame.from_dict(
        {k: m._asdict() for k, m in METRICS.items()}, orient="index"
    ).rename_axis("name")


__all__ = [
    "CATAN_METRICS",
    "CONDITION_METRICS",
    "GALLERY_METRICS",
    "GAME_METRICS",
    "LABELS",
    "METRICS",
    "Metric",
    "definition",
    "game_unit",
    "label",
    "metrics_table",
]
