"""Seat advantage and balance of a run, tested on setups: each seat's win rate against the fair
share, per condition and lineup."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import scipy.stats as st

from ludolab.research.experiment.run_data import RunData
from ludolab.research.stats.multiple import adjust_pvalues
from ludolab.research.stats.power import balance_null

SEAT_COLUMNS = [
    "lineup",
    "condition",
    "setups",
    "decided_games",
    "first_seat_share",
    "fair_share",
    "advantage",
    "advantage_low",
    "advantage_high",
    "advantage_p",
    "seats_test",
    "seats_p",
    "seats_p_adj",
    "balance",
    "balance_null",
    "balance_null_low",
    "balance_null_high",
]


def seat_table(data: RunData) -> pd.DataFrame:
    """Seat advantage and balance per lineup and condition, tested on setups, not games.

    Per setup, each seat's share of the wins (a k-way shared win counts 1/k; undecided games
    are left out). ``advantage``: mean over setups of seat 0's share minus ``1 / players``,
    with a t interval and one-sample t-test over setups. ``seats_p``: do the seats' shares
    differ (Friedman test over setups as blocks, or Wilcoxon signed-rank with 2 players),
    adjusted over the table's rows by the config's correction. ``balance``: 1 - (largest -
    smallest seat win rate) over all decided games, beside its expectation for fair seats at
    that number of games (:func:`ludolab.research.stats.power.balance_null`).
    """
    players = int(data.config["players"])
    rows = []
    pg = data.per_game
    for li, lineup in enumerate(data.lineups):
        for ci, cond in enumerate(data.conditions):
            games = pg[(pg["lineup"] == lineup) & (pg["condition"] == cond)]
            decided = games[games["winners"].map(len) > 0]
            shares = np.zeros((len(decided), players))
            for i, ws in enumerate(decided["winners"]):
                shares[i, list(ws)] = 1.0 / len(ws)
            per_setup = pd.DataFrame(shares).groupby(decided["setup"].to_numpy()).mean().to_numpy()
            rows.append(_seat_row(lineup, cond, per_setup, shares, players, [li, ci]))
    out = pd.DataFrame(rows, columns=SEAT_COLUMNS)
    out["seats_p_adj"] = adjust_pvalues(
        out["seats_p"].to_numpy(float), data.config["comparisons"]["correction"]
    )
    return out


def _seat_row(
    lineup: str,
    cond: str,
    per_setup: np.ndarray,
    shares: np.ndarray,
    players: int,
    seed: list[int],
) -> dict[str, Any]:
    fair = 1.0 / players
    nan = float("nan")
    row: dict[str, Any] = dict.fromkeys(SEAT_COLUMNS, nan)
    row.update(lineup=lineup, condition=cond, setups=len(per_setup), decided_games=len(shares))
    row["fair_share"] = fair
    if len(per_setup) >= 2:
        first = per_setup[:, 0]
        row["first_seat_share"] = float(first.mean())
        row["advantage"] = float(first.mean()) - fair
        if np.ptp(first) > 0:
            res = st.ttest_1samp(first, fair)
            ci = res.confidence_interval(0.95)
            row["advantage_p"] = float(res.pvalue)
            row["advantage_low"], row["advantage_high"] = ci.low - fair, ci.high - fair
        if players >= 3 and np.ptp(per_setup) > 0:
            row["seats_test"] = f"friedman (n = {len(per_setup)} setups)"
            row["seats_p"] = float(st.friedmanchisquare(*per_setup.T).pvalue)
        elif players == 2 and np.any(per_setup[:, 0] != per_setup[:, 1]):
            row["seats_test"] = f"wilcoxon (n = {len(per_setup)} setups)"
            row["seats_p"] = float(st.wilcoxon(per_setup[:, 0], per_setup[:, 1]).pvalue)
    if len(shares):
        rates = shares.mean(axis=0)
        row["balance"] = float(1.0 - (rates.max() - rates.min()))
        mean, low, high = balance_null(len(shares), players, seed=seed)
        row["balance_null"], row["balance_null_low"], row["balance_null_high"] = mean, low, high
    return row
