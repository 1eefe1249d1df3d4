"""A run's analysis as a record (:class:`Analysis`), and written out: the comparison tables as
CSV, Markdown and LaTeX, and the few lines ``ludolab compare`` prints."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd
import pyarrow as pa

from ludolab.research.experiment.run_data import RunData
from ludolab.research.experiment.skill import SKILL_COLUMNS
from ludolab.research.experiment.tables import journal_tables, write_journal_tables
from ludolab.research.experiment.trends import TREND_COLUMNS
from ludolab.research.files import write_parquet, write_text
from ludolab.research.stats import to_csv, to_markdown
from ludolab.research.stats.power import UNTESTABLE


@dataclass
class Analysis:
    """Every table of a run's analysis (:func:`ludolab.research.experiment.analysis.analyse`)."""

    data: RunData
    conditions: pd.DataFrame
    omnibus: pd.DataFrame
    pairwise: pd.DataFrame
    regression: pd.DataFrame
    notes: list[str]
    seats: pd.DataFrame
    trends: pd.DataFrame = field(default_factory=lambda: pd.DataFrame(columns=TREND_COLUMNS))
    skill_effects: pd.DataFrame = field(default_factory=pd.DataFrame)
    skill: pd.DataFrame = field(default_factory=lambda: pd.DataFrame(columns=SKILL_COLUMNS))


PAIR_COLUMNS = [
    "lineup",
    "metric",
    "condition1",
    "condition2",
    "n1",
    "n2",
    "mean1",
    "mean2",
    "diff",
    "diff_low",
    "diff_high",
    "d",
    "test",
    "p",
    "p_adj",
    "family",
    "mde",
    "verdict",
]


PAIR_LABELS = {
    "condition1": "condition",
    "condition2": "vs",
    "mean1": "mean",
    "mean2": "mean (vs)",
    "diff": "difference",
    "diff_low": "95% CI low",
    "diff_high": "95% CI high",
    "p_adj": "p (adj.)",
    "mde": "MDE",
}


def write_tables(result: Analysis) -> list[Path]:
    """Write the metric tables and comparisons into the run folder; return the files.

    ``metrics/per_game.parquet`` and ``metrics/conditions.csv``; ``comparisons.md`` (every
    table), ``comparisons.csv`` (pairwise, full precision), ``omnibus.csv``, ``seats.csv``,
    ``trends.csv`` (with sweeps), ``skill.csv`` and ``skill-effects.csv`` (with
    ``comparisons.skill``) and, for Catan, ``regression.csv``. The journal tables
    (:mod:`ludolab.research.experiment.tables`): ``tables/comparisons-METRIC.tex`` per tested
    metric and ``tables/trends.tex`` (with sweeps), each with a ``.csv`` of its rows beside
    it, and ``comparisons.tex`` holding them all.
    """
    path = result.data.path
    files = []
    per_game = result.data.per_game.copy()
    per_game["condition"] = per_game["condition"].astype(str)
    for col in per_game.columns:  # tuples (seats, winners) as lists for Parquet
        if per_game[col].dtype == object and per_game[col].map(type).eq(tuple).any():
            per_game[col] = per_game[col].map(lambda v: list(v) if isinstance(v, tuple) else v)
    write_parquet(path / "metrics" / "per_game.parquet", pa.Table.from_pandas(per_game))
    files.append(path / "metrics" / "per_game.parquet")
    write_text(path / "metrics" / "conditions.csv", to_csv(result.conditions) or "")
    files.append(path / "metrics" / "conditions.csv")
    write_text(path / "comparisons.md", comparisons_markdown(result))
    write_text(path / "comparisons.csv", to_csv(result.pairwise) or "")
    write_text(path / "omnibus.csv", to_csv(result.omnibus) or "")
    write_text(path / "seats.csv", to_csv(result.seats) or "")
    if len(result.trends):
        write_text(path / "trends.csv", to_csv(result.trends) or "")
        files.append(path / "trends.csv")
    if len(result.skill):
        write_text(path / "skill.csv", to_csv(result.skill) or "")
        write_text(path / "skill-effects.csv", to_csv(result.skill_effects) or "")
        files += [path / "skill.csv", path / "skill-effects.csv"]
    files += [path / f for f in ("comparisons.md", "comparisons.csv", "omnibus.csv", "seats.csv")]
    files += write_journal_tables(
        journal_tables(
            result.pairwise, result.trends, result.data.config, paired=result.data.paired
        ),
        path,
    )
    if len(result.regression):
        write_text(path / "regression.csv", to_csv(result.regression) or "")
        files.append(path / "regression.csv")
    return files


def pairwise_markdown(table: pd.DataFrame) -> str:
    """The pairwise table as Markdown (the report's main table)."""
    return to_markdown(table[PAIR_COLUMNS], labels=PAIR_LABELS)


def comparisons_markdown(result: Analysis) -> str:
    """``comparisons.md``: pairwise, omnibus, seat and regression tables with how to read them."""
    cmp = result.data.config["comparisons"]
    paired = result.data.paired
    n_setups = result.data.config["setups"]
    kind = result.data.config["setup_kind"]
    families = result.pairwise.groupby("family", sort=False)["family_size"].first()
    parts = [
        f"# Comparisons: {result.data.config['name']}\n",
        f"Unit of analysis: the setup. Each metric is averaged over the games played on each of "
        f"the {n_setups} {kind} per condition, and the tests compare those means (games on one "
        f"setup are repeated measurements of it, not independent samples of the condition). "
        f"Within each lineup.\n",
        "Pairwise: "
        + (
            "Wilcoxon signed-rank on the paired setups, effect = matched-pairs rank-biserial "
            "correlation"
            if paired
            else "Mann-Whitney U, effect = Cliff's delta"
        )
        + " (positive: larger under 'condition'); difference of means with a "
        + (
            f"{cmp['n_boot']}-resample bootstrap 95% interval"
            if cmp["n_boot"]
            else "no interval (n_boot = 0)"
        )
        + f"; p adjusted by {cmp['correction']} over each family ("
        + ", ".join(f"{f}: {m} tests" for f, m in families.items())
        + "); MDE at 80% power and level alpha / m. Every column: comparisons.csv.\n",
        pairwise_markdown(result.pairwise),
    ]
    if len(result.omnibus):
        parts += [
            "\nOmnibus (descriptive; "
            + (
                "Friedman over setups matched by index, n = blocks, effect Kendall's W"
                if paired
                else "Kruskal-Wallis H, effect epsilon-squared"
            )
            + "), adjusted over the table:\n",
            to_markdown(result.omnibus),
        ]
    parts += ["\nSeats, tested over setups (seats.csv):\n", to_markdown(result.seats)]
    if len(result.regression):
        parts += [
            "\nRegression of each metric's board means on board features (OLS, HC3 standard "
            "errors; one row per board); "
            "`std_coef`: standard deviations of the metric per standard deviation of the "
            "feature.\n",
            to_markdown(result.regression.drop(columns=["t"], errors="ignore")),
        ]
    if result.notes:
        parts.append("\n" + "\n".join(f"- {n}" for n in result.notes))
    return "\n".join(parts) + "\n"


def summary_lines(result: Analysis, limit: int = 12) -> list[str]:
    """A few lines for the terminal: the confirmed differences, largest first."""
    pw = result.pairwise
    sig = pw[pw["significant"] & (pw["family"] != "exploratory")]
    untestable = pw["verdict"].str.startswith(UNTESTABLE)
    if sig.empty and len(pw) and untestable.all():
        detail = pw["verdict"].iloc[0].removeprefix(UNTESTABLE).strip()
        return [
            f"{UNTESTABLE}: none of the {len(pw)} tests could reach its level {detail}; more "
            "setups per condition are needed (comparisons.md)",
            *_skill_summary(result),
        ]
    if sig.empty:
        return [
            f"no difference between conditions detected ({len(pw)} tests, corrected as one "
            "family; what the design could detect: MDE in comparisons.md)",
            *_skill_summary(result),
        ]
    sig = sig.reindex(sig["d"].abs().sort_values(ascending=False).index)
    lines = []
    for _, r in sig.head(limit).iterrows():
        lines.append(
            f"  {r['lineup']}: {r['metric']} {r['condition1']} vs {r['condition2']}: "
            f"mean {r['mean1']:.3g} vs {r['mean2']:.3g}, difference {r['diff']:+.3g} "
            f"[{r['diff_low']:+.3g}, {r['diff_high']:+.3g}], p adj. {r['p_adj']:.2g}"
        )
    if len(sig) > limit:
        lines.append(f"  ... and {len(sig) - limit} more (comparisons.md)")
    return [*lines, *_skill_summary(result)]


def _skill_summary(result: Analysis) -> list[str]:
    """The line on the findings across skill, when the run tests them."""
    t = result.skill
    if t.empty:
        return []
    found = t[t["significant"]]
    head = (
        f"across skill: a change with skill detected in {len(found)} of {len(t)} tests "
        "(their own family; skill.csv)"
    )
    return [head] + [
        f"  {r['metric']} {r['condition']} vs {r['baseline']}: {r['verdict']}, change "
        f"{r['change']:+.3g} [{r['low']:+.3g}, {r['high']:+.3g}], p adj. {r['p_adj']:.2g}"
        for _, r in found.iterrows()
    ]
