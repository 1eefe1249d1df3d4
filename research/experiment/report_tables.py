"""The tables a report shows: the main table of effects, the mixed-model check, the seats, a glance
at every condition, the condition summary, the omnibus tests and the regressions.

Every cell is text written by :mod:`ludolab.research.numbers`: a tested metric's numbers at its
one precision (:func:`~ludolab.research.experiment.result_tables.metric_decimals`), the seats'
at theirs, p-values as p-values, counts as counts."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ludolab.research.experiment.analysis import Analysis
from ludolab.research.experiment.report_findings import correction_short, metric_unit_of
from ludolab.research.experiment.result_tables import metric_decimals, seat_decimals
from ludolab.research.metrics.registry import short_unit
from ludolab.research.numbers import (
    MISSING,
    count,
    decimals_for,
    fixed,
    interval,
    median_scale,
    number,
    one_in,
    p_value,
    plain,
)


def _setups(n1: Any, n2: Any) -> str:
    """``20``, or ``20 / 18`` when the two conditions have different numbers of setups."""
    return count(n1) if n1 == n2 else f"{count(n1)} / {count(n2)}"


def verdict_word(verdict: str, margin: float = float("nan")) -> str:
    """A verdict without its parenthesis (the MDE, the smallest possible p): the Findings
    and the columns beside it say those; an equivalence names its margin as declared."""
    if verdict.startswith("equivalent") and np.isfinite(margin):
        return f"equivalent within ±{plain(margin)}"
    return verdict.split(" (", 1)[0]


def main_table(analysis: Analysis) -> pd.DataFrame:
    """The report's main table, formatted: raw-unit differences with intervals first (no rows
    when there is nothing to compare: one condition)."""
    pw = analysis.pairwise
    if pw.empty:
        return pd.DataFrame({"comparison": ["none: the run has one condition"]})
    dec = [metric_decimals(pw)[m] for m in pw["metric"]]
    adj = f"p ({correction_short(analysis)})"
    return pd.DataFrame(
        {
            "lineup": pw["lineup"],
            "metric": [
                f"{m} ({u})" if (u := short_unit(metric_unit_of(analysis, m))) else m
                for m in pw["metric"]
            ],
            "condition": pw["condition1"],
            "vs": pw["condition2"],
            "setups": [_setups(a, b) for a, b in zip(pw["n1"], pw["n2"], strict=True)],
            "games per setup": [count(g) for g in pw["games_per_setup"]],
            "mean": [fixed(v, d) for v, d in zip(pw["mean1"], dec, strict=True)],
            "mean (vs)": [fixed(v, d) for v, d in zip(pw["mean2"], dec, strict=True)],
            "difference [95% CI]": [
                f"{fixed(x, d)} {interval(lo, hi, d, na='')}".strip()
                for x, lo, hi, d in zip(
                    pw["diff"], pw["diff_low"], pw["diff_high"], dec, strict=True
                )
            ],
            "HL shift": [fixed(v, d) for v, d in zip(pw["hl_shift"], dec, strict=True)],
            "d": [fixed(v, 2) for v in pw["d"]],
            "ICC": [fixed(v, 2) for v in pw["icc"]],
            "p (raw)": [p_value(v) for v in pw["p"]],
            adj: [p_value(v) for v in pw["p_adj"]],
            "MDE": [fixed(v, d) for v, d in zip(pw["mde"], dec, strict=True)],
            "verdict": [
                verdict_word(v, m) for v, m in zip(pw["verdict"], pw["margin"], strict=True)
            ],
        }
    )


def mixed_table(analysis: Analysis) -> pd.DataFrame:
    """The mixed-effects sensitivity check beside the setup-mean test: one row per comparison
    a mixed model was fitted for (the notes say why the others have none); no rows if none
    was."""
    pw = analysis.pairwise
    if pw.empty:
        return pd.DataFrame({"comparison": ["none: the run has one condition"]})
    dec_of = metric_decimals(pw)
    pw = pw[pw["mixed_p"].notna()]
    mixed_sig = pw["mixed_p_adj"] < analysis.data.config["comparisons"]["alpha"]
    dec = [dec_of[m] for m in pw["metric"]]
    return pd.DataFrame(
        {
            "lineup": pw["lineup"],
            "metric": pw["metric"],
            "condition": pw["condition1"],
            "vs": pw["condition2"],
            "mixed-model difference [95% CI]": [
                f"{fixed(x, d)} {interval(lo, hi, d, na='')}".strip()
                for x, lo, hi, d in zip(
                    pw["mixed_diff"], pw["mixed_low"], pw["mixed_high"], dec, strict=True
                )
            ],
            f"p ({correction_short(analysis)})": [p_value(v) for v in pw["mixed_p_adj"]],
            "agrees": [
                "yes" if m == s else "NO" for m, s in zip(mixed_sig, pw["significant"], strict=True)
            ],
        }
    )


def seats_table(analysis: Analysis) -> pd.DataFrame:
    """Seat advantage and balance, tested on setups, formatted."""
    t = analysis.seats
    d = seat_decimals(t, analysis.pairwise)
    return pd.DataFrame(
        {
            "lineup": t["lineup"],
            "condition": t["condition"],
            "setups": [count(v) for v in t["setups"]],
            "decided games": [count(v) for v in t["decided_games"]],
            "seat 0 share": [fixed(v, d) for v in t["first_seat_share"]],
            "advantage [95% CI]": [
                f"{fixed(a, d)} {interval(lo, hi, d, na='')}".strip()
                for a, lo, hi in zip(
                    t["advantage"], t["advantage_low"], t["advantage_high"], strict=True
                )
            ],
            "p (raw)": [p_value(v) for v in t["advantage_p"]],
            "seats differ": [
                v.split(" (")[0].capitalize() if isinstance(v, str) else MISSING
                for v in t["seats_test"]
            ],
            f"p ({correction_short(analysis)})": [p_value(v) for v in t["seats_p_adj"]],
            "balance": [fixed(v, d) for v in t["balance"]],
            "balance if fair [95% range]": [
                f"{fixed(m, d)} {interval(lo, hi, d, na='')}".strip()
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
    dec = metric_decimals(analysis.pairwise) if metrics else {}
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
                row[m] = f"{fixed(value, dec[m])}{marks.get((lineup, cond, m), '')}"
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


def column_cells(values: pd.Series, decimals: int | None = None) -> list[str]:
    """One column as text at one precision: whole numbers as counts; otherwise ``decimals``,
    or three significant figures of the column's typical value."""
    numbers = pd.to_numeric(values, errors="coerce")
    finite = numbers[np.isfinite(numbers)]
    if decimals is None and len(finite) and (finite == finite.round()).all():
        return [count(v) for v in values]
    if decimals is None:
        decimals = decimals_for(median_scale(finite), sig=3)
    return [fixed(v, decimals) for v in values]


def condition_summary(analysis: Analysis) -> pd.DataFrame:
    """Per lineup and condition: games, completion and length, formatted (a tested metric's
    means at its precision)."""
    table = analysis.conditions[[c for c in CONDITION_SUMMARY if c in analysis.conditions]]
    dec = metric_decimals(analysis.pairwise) if len(analysis.pairwise) else {}
    out = {}
    for col in table.columns:
        if col in ("lineup", "condition"):
            out[col] = table[col].astype(str)
        elif col == "completion_rate":
            out[col] = column_cells(table[col], 2)
        elif col.endswith("_mean") and col.removesuffix("_mean") in dec:
            out[col] = column_cells(table[col], dec[col.removesuffix("_mean")])
        else:
            out[col] = column_cells(table[col])
    return pd.DataFrame(out)


EFFECT_NAMES = {"kendalls_w": "Kendall's W", "epsilon_squared": "epsilon-squared"}
"""The omnibus tests' effect sizes as the report names them."""


def omnibus_table(analysis: Analysis) -> pd.DataFrame:
    """The omnibus tests (three or more conditions), formatted."""
    t = analysis.omnibus
    return pd.DataFrame(
        {
            "lineup": t["lineup"],
            "metric": t["metric"],
            "test": t["test"].astype(str).str.capitalize(),
            "conditions": [count(v) for v in t["k"]],
            "n": [count(v) for v in t["n"]],
            "statistic": column_cells(t["statistic"]),
            "p (raw)": [p_value(v) for v in t["p"]],
            f"p ({correction_short(analysis)})": [p_value(v) for v in t["p_adj"]],
            "effect": [
                f"{fixed(v, 2)} ({EFFECT_NAMES.get(m, m)})"
                for v, m in zip(t["effect"], t["effect_measure"], strict=True)
            ],
        }
    )


def regression_table(analysis: Analysis) -> pd.DataFrame:
    """Standardised OLS coefficients per lineup and metric (features as columns) and R²,
    two decimals each."""
    reg = analysis.regression[analysis.regression["term"] != "const"]
    pivot = reg.pivot_table(
        index=["lineup", "metric"], columns="term", values="std_coef", sort=False
    ).reset_index()
    r2 = reg.groupby(["lineup", "metric"], sort=False)["r2"].first().reset_index()
    table = pivot.merge(r2, on=["lineup", "metric"])
    table.columns.name = None
    for col in table.columns[2:]:
        table[col] = [fixed(v, 2) for v in table[col]]
    return table.rename(columns={"r2": "R²"})


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
                "uniform": "yes" if s.get("uniform", False) else "no",
                "setups": count(s.get("count", analysis.data.config["setups"])),
                "acceptance": one_in(s.get("acceptance")),
            }
        )
    return pd.DataFrame(rows)


def constraint_name(entry: Any) -> str:
    # Catan sets list each constraint as its description, Gallery sets as {"name": ...}
    return entry.get("name", "?") if isinstance(entry, dict) else str(entry)


__all__ = [
    "CONDITION_SUMMARY",
    "column_cells",
    "condition_rows",
    "condition_summary",
    "glance",
    "main_table",
    "mixed_table",
    "number",
    "omnibus_table",
    "regression_table",
    "seats_table",
]
