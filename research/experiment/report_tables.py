"""The tables a report shows: the main table of effects, the mixed-model check, the seats, a glance
at every condition."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ludolab.research.experiment.analysis import Analysis
from ludolab.research.experiment.report_findings import metric_unit_of
from ludolab.research.metrics.registry import short_unit
from ludolab.research.stats.report import (
    format_ci,
    format_fixed,
    format_number,
    format_p,
)


def main_table(analysis: Analysis) -> pd.DataFrame:
    """The report's main table, formatted: raw-unit differences with intervals first (no rows
    when there is nothing to compare: one condition)."""
    pw = analysis.pairwise
    if pw.empty:
        return pd.DataFrame({"comparison": ["none: the run has one condition"]})
    return pd.DataFrame(
        {
            "lineup": pw["lineup"],
            "metric": [
                f"{m} ({u})" if (u := short_unit(metric_unit_of(analysis, m))) else m
                for m in pw["metric"]
            ],
            "condition": pw["condition1"],
            "vs": pw["condition2"],
            "setups": [f"{a} / {b}" for a, b in zip(pw["n1"], pw["n2"], strict=True)],
            "games per setup": [format_number(g) for g in pw["games_per_setup"]],
            "mean": [format_number(v) for v in pw["mean1"]],
            "mean (vs)": [format_number(v) for v in pw["mean2"]],
            "difference [95% CI]": [
                f"{format_number(d)} {format_ci(lo, hi, None)}"
                for d, lo, hi in zip(pw["diff"], pw["diff_low"], pw["diff_high"], strict=True)
            ],
            "HL shift": [format_number(v) for v in pw["hl_shift"]],
            "d": [format_fixed(v) for v in pw["d"]],
            "ICC": [format_fixed(v) for v in pw["icc"]],
            "p": [format_p(v) for v in pw["p"]],
            "p (adj.)": [format_p(v) for v in pw["p_adj"]],
            "MDE": [format_number(v) for v in pw["mde"]],
            "verdict": pw["verdict"].str.replace(r" \(MDE [^)]*\)", "", regex=True),
        }
    )


def mixed_table(analysis: Analysis) -> pd.DataFrame:
    """The mixed-effects sensitivity check beside the setup-mean test."""
    pw = analysis.pairwise
    if pw.empty:
        return pd.DataFrame({"comparison": ["none: the run has one condition"]})
    mixed_sig = pw["mixed_p_adj"] < analysis.data.config["comparisons"]["alpha"]
    return pd.DataFrame(
        {
            "lineup": pw["lineup"],
            "metric": pw["metric"],
            "condition": pw["condition1"],
            "vs": pw["condition2"],
            "mixed-model difference [95% CI]": [
                f"{format_number(d)} {format_ci(lo, hi, None)}"
                for d, lo, hi in zip(
                    pw["mixed_diff"], pw["mixed_low"], pw["mixed_high"], strict=True
                )
            ],
            "p (adj.)": [format_p(v) for v in pw["mixed_p_adj"]],
            "agrees": [
                "—" if np.isnan(p) else "yes" if m == s else "NO"
                for p, m, s in zip(pw["mixed_p"], mixed_sig, pw["significant"], strict=True)
            ],
        }
    )


def seats_table(analysis: Analysis) -> pd.DataFrame:
    """Seat advantage and balance, tested on setups, formatted."""
    t = analysis.seats
    return pd.DataFrame(
        {
            "lineup": t["lineup"],
            "condition": t["condition"],
            "setups": t["setups"],
            "decided games": t["decided_games"],
            "seat 0 share": [format_fixed(v, 3) for v in t["first_seat_share"]],
            "advantage [95% CI]": [
                f"{format_fixed(a, 3)} {format_ci(lo, hi, 3)}"
                for a, lo, hi in zip(
                    t["advantage"], t["advantage_low"], t["advantage_high"], strict=True
                )
            ],
            "p": [format_p(v) for v in t["advantage_p"]],
            "seats differ": [v if isinstance(v, str) else "—" for v in t["seats_test"]],
            "p (adj.)": [format_p(v) for v in t["seats_p_adj"]],
            "balance": [format_fixed(v, 3) for v in t["balance"]],
            "balance if fair [95%]": [
                f"{format_fixed(m, 3)} {format_ci(lo, hi, 3)}"
                for m, lo, hi in zip(
                    t["balance_null"], t["balance_null_low"], t["balance_null_high"], strict=True
                )
            ],
        }
    )


def glance(analysis: Analysis) -> pd.DataFrame:
    """Mean of every tested metric per lineup and condition (means show shifts in the many
    small-integer and 0/1 metrics that medians hide); a confirmed difference from the
    baseline is marked ▲ (higher) or ▼ (lower)."""
    data = analysis.data
    metrics = list(dict.fromkeys(analysis.pairwise["metric"])) if len(analysis.pairwise) else []
    # condition_metrics already holds every per-game metric's mean as "<metric>_mean"
    means = analysis.conditions.set_index(["lineup", "condition"])
    marks: dict[tuple[str, str, str], str] = {}
    if data.baseline is not None:
        pw = analysis.pairwise
        for _, r in pw[pw["significant"] & (pw["family"] != "exploratory")].iterrows():
            marks[r["lineup"], r["condition1"], r["metric"]] = " ▲" if r["effect"] > 0 else " ▼"
    rows = []
    for lineup in data.lineups:
        for cond in data.conditions:
            if (lineup, cond) not in means.index:
                continue
            row = {"lineup": lineup, "condition": cond}
            for m in metrics:
                value = means.loc[(lineup, cond), f"{m}_mean"]
                row[m] = f"{value:.3g}{marks.get((lineup, cond, m), '')}"
            rows.append(row)
    return pd.DataFrame(rows)


CONDITION_SUMMARY = [
    "lineup",
    "condition",
    "n_games",
    "completion_rate",
    "turns_mean",
    "turns_median",
    "rounds_mean",
]


def condition_rows(analysis: Analysis, state: dict[str, Any]) -> pd.DataFrame:
    setups = {s["condition"]: s for s in state.get("setups", [])}
    rows = []
    for c in analysis.data.config["conditions"]:
        s = setups.get(c["name"], {})
        rows.append(
            {
                "condition": c["name"],
                "constraints": ", ".join(constraint_name(x) for x in c["set"]["constraints"])
                or "none",
                "rules": ", ".join(f"{k} = {v}" for k, v in c.get("options", {}).items())
                or "as the run",
                "sampler": s.get("sampler", c["sampler"]),
                "uniform": bool(s.get("uniform", False)),
                "setups": s.get("count", analysis.data.config["setups"]),
                "acceptance": s.get("acceptance"),
            }
        )
    return pd.DataFrame(rows)


def constraint_name(entry: Any) -> str:
    # Catan sets list each constraint as its description, Gallery sets as {"name": ...}
    return entry.get("name", "?") if isinstance(entry, dict) else str(entry)
