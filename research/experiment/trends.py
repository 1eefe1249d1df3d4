"""Dose-response over a run's sweeps: each tested metric's linear trend in the swept parameter, per
lineup, on setup means."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ludolab.research.experiment.run_data import RunData, tested_metrics
from ludolab.research.stats.multiple import adjust_pvalues
from ludolab.research.stats.trend import linear_trend

TREND_COLUMNS = [
    "sweep",
    "parameter",
    "lineup",
    "metric",
    "values",
    "setups",
    "slope",
    "slope_low",
    "slope_high",
    "p",
    "p_adj",
    "significant",
]


def sweeps(data: RunData) -> dict[str, list[tuple[str, float]]]:
    """Each ``[[sweep]]`` of the run: its conditions and their values, in value order."""
    out: dict[str, list[tuple[str, float]]] = {}
    for c in data.config["conditions"]:
        if c.get("sweep"):
            out.setdefault(c["sweep"], []).append((c["name"], float(c["sweep_value"])))
    return {k: sorted(v, key=lambda cv: cv[1]) for k, v in out.items()}


def trend_table(data: RunData) -> pd.DataFrame:
    """Dose-response per sweep, lineup and tested metric: the OLS slope of setup means on the
    swept value (metric units per unit of the parameter) with a 95% interval and a test of
    zero slope. Standard errors are clustered by setup index when setups are paired (setup s
    of every value shares its game seeds), HC3 otherwise. The p-values form one family of
    their own, adjusted by the config's correction."""
    rows = []
    cond_params = {c["name"]: c.get("sweep_parameter") for c in data.config["conditions"]}
    for sweep, members in sweeps(data).items():
        value_of = dict(members)
        for lineup in data.lineups:
            df = data.by_setup[
                (data.by_setup["lineup"] == lineup)
                & data.by_setup["condition"].astype(str).isin(value_of)
            ]
            for metric in tested_metrics(data):
                sub = df[["condition", "setup", metric]].dropna()
                x = sub["condition"].astype(str).map(value_of).to_numpy(float)
                y = sub[metric].to_numpy(float)
                row = {
                    "sweep": sweep,
                    "parameter": cond_params[members[0][0]],
                    "lineup": lineup,
                    "metric": metric,
                    "values": len(set(x)),
                    "setups": len(sub),
                }
                row.update(_slope(x, y, sub["setup"].to_numpy(), data.paired))
                rows.append(row)
    out = pd.DataFrame(
        rows, columns=[c for c in TREND_COLUMNS if c not in ("p_adj", "significant")]
    )
    out["p_adj"] = adjust_pvalues(
        out["p"].to_numpy(float), data.config["comparisons"]["correction"]
    )
    out["significant"] = (out["p_adj"] < data.config["comparisons"]["alpha"]).astype(bool)
    return out[TREND_COLUMNS]


def _slope(x: np.ndarray, y: np.ndarray, setup: np.ndarray, paired: bool) -> dict[str, float]:
    nan = float("nan")
    # the fit the dose-response figure draws (ludolab.research.stats.trend)
    fit = linear_trend(x, y, setup if paired else None)
    if fit is None:
        return {"slope": 0.0 if len(y) else nan, "slope_low": nan, "slope_high": nan, "p": nan}
    low, high = fit.conf_int(0.05)[1]
    return {
        "slope": float(fit.params[1]),
        "slope_low": float(low),
        "slope_high": float(high),
        "p": float(fit.pvalues[1]),
    }
