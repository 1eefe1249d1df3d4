"""A run's analysis as a record (:class:`Analysis`), and written out: the comparison tables as
CSV, Markdown and LaTeX, and the few lines ``ludolab compare`` prints."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd
import pyarrow as pa

from ludolab.research.experiment.run_data import RunData
from ludolab.research.experiment.skill import SKILL_COLUMNS
from ludolab.research.experiment.tables import journal_tables, write_journal_tables
from ludolab.research.experiment.trends import TREND_COLUMNS
from ludolab.research.files import write_parquet, write_text
from ludolab.research.numbers import (
    count,
    decimals_for,
    fixed,
    interval,
    median_scale,
    number,
    p_value,
    plain,
    plural,
)
from ludolab.research.stats import to_csv, to_markdown
from ludolab.research.stats.power import UNTESTABLE, setups_for_a_finding, smallest_p


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
    "p": "p (raw)",
    "p_adj": "p (Holm)",
    "mde": "MDE",
}
"""The headers of ``comparisons.md``'s pairwise table (``p_adj`` is headed by the run's
correction: :data:`SHORT_CORRECTION`)."""

SHORT_CORRECTION = {"holm": "Holm", "bonferroni": "Bonferroni", "fdr_bh": "BH", "none": "raw"}
"""Each correction as a column header names it: ``p (Holm)`` (as the journal tables do)."""


def verdict_text(verdict: str, decimals: int, margin: float = float("nan")) -> str:
    """A comparison's verdict (``comparisons.csv``) with its numbers written as the report
    writes them: the MDE at the metric's precision, the smallest possible p as a p-value,
    the level alpha / m to three significant figures, a margin as declared."""
    verdict = re.sub(
        r"\(MDE ([-+.\deE]+)\)", lambda m: f"(MDE {fixed(float(m.group(1)), decimals)})", verdict
    )
    verdict = re.sub(
        r"smallest possible p = ([-+.\deE]+)",
        lambda m: f"smallest possible p = {p_value(float(m.group(1)))}",
        verdict,
    )
    verdict = re.sub(
        r"alpha / m = ([-+.\deE]+)",
        lambda m: f"alpha / m = {number(float(m.group(1)), trim=True)}",
        verdict,
    )
    if math.isfinite(margin):
        verdict = re.sub(r"within ±[-+.\deE]+", f"within ±{plain(margin)}", verdict)
    return verdict


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


def metric_decimals(pairwise: pd.DataFrame) -> dict[str, int]:
    """The decimals every number of a tested metric is written with, in every table and
    sentence of a run's report (means, differences, intervals, shifts, MDEs, effects across
    skill): two significant figures of the metric's typical interval width (else of its MDE,
    else of its mean), between 0 and 4, as in the journal tables
    (:mod:`ludolab.research.experiment.tables`). One precision per metric, so a quantity reads
    the same wherever it appears."""
    out = {}
    for metric, rows in pairwise.groupby("metric", sort=False):
        width = rows["diff_high"] - rows["diff_low"]
        out[str(metric)] = decimals_for(median_scale(width, rows["mde"], rows["mean1"]))
    return out


def seat_decimals(seats: pd.DataFrame, pairwise: pd.DataFrame | None = None) -> int:
    """The decimals of the seat table's shares, advantages and balances: those of the metric
    ``first_seat_win`` when it is tested (seat 0's share is its mean), else two significant
    figures of the typical width of the advantage's interval (else of the shares)."""
    if pairwise is not None and len(pairwise) and (pairwise["metric"] == "first_seat_win").any():
        return metric_decimals(pairwise)["first_seat_win"]
    if seats.empty:
        return 2
    width = seats["advantage_high"] - seats["advantage_low"]
    return decimals_for(median_scale(width, seats["first_seat_share"]))


def pairwise_cells(table: pd.DataFrame) -> pd.DataFrame:
    """The pairwise table's :data:`PAIR_COLUMNS` as text: each metric's values at its
    precision (:func:`metric_decimals`), p-values as p-values, counts as counts, verdicts
    with their numbers written the same way (:func:`verdict_text`)."""
    dec = metric_decimals(table)
    cells = {}
    for col in PAIR_COLUMNS:
        values = table[col]
        if col == "verdict":
            margins = table["margin"] if "margin" in table else [float("nan")] * len(table)
            cells[col] = [
                verdict_text(str(v), dec[m], float(g))
                for v, m, g in zip(values, table["metric"], margins, strict=True)
            ]
            continue
        if col in ("mean1", "mean2", "diff", "diff_low", "diff_high", "mde"):
            cells[col] = [fixed(v, dec[m]) for v, m in zip(values, table["metric"], strict=True)]
        elif col in ("p", "p_adj"):
            cells[col] = [p_value(v) for v in values]
        elif col == "d":
            cells[col] = [fixed(v, 2) for v in values]
        elif col in ("n1", "n2"):
            cells[col] = [count(v) for v in values]
        else:
            cells[col] = [str(v) for v in values]
    return pd.DataFrame(cells, index=table.index)


def pairwise_markdown(table: pd.DataFrame, correction: str = "holm") -> str:
    """The pairwise table as Markdown (``comparisons.md``), each metric at its precision;
    the adjusted p-values headed by ``correction`` (``p (Holm)``)."""
    labels = {**PAIR_LABELS, "p_adj": f"p ({SHORT_CORRECTION.get(correction, correction)})"}
    return to_markdown(pairwise_cells(table), labels=labels)


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
            f"{count(cmp['n_boot'])}-resample bootstrap 95% interval (for each test alone)"
            if cmp["n_boot"]
            else "no interval (n_boot = 0)"
        )
        + f"; p adjusted by {cmp['correction']} over each family ("
        + ", ".join(f"{f}: {plural(m, 'test')}" for f, m in families.items())
        + "); MDE at 80% power and level alpha / m. Every column: comparisons.csv.\n",
        pairwise_markdown(result.pairwise, cmp["correction"]),
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
    parts += [
        "\nSeats, tested over setups (seats.csv); seats_p_adj adjusted over this table:\n",
        to_markdown(result.seats),
    ]
    if len(result.regression):
        parts += [
            "\nRegression of each metric's board means on board features (OLS, HC3 standard "
            "errors; one row per board); "
            "`std_coef`: standard deviations of the metric per standard deviation of the "
            "feature.\n",
            to_markdown(result.regression.drop(columns=["t"], errors="ignore")),
        ]
    if result.notes:
        parts.append("\n" + "\n".join(f"- Note: {n}" for n in result.notes))
    return "\n".join(parts) + "\n"


def untestable_words(data: RunData, group: pd.DataFrame) -> tuple[str, int]:
    """(``not testable at this size (smallest possible p = 0.125, level alpha / m =
    0.00625)``, the setups per condition a finding needs) for comparison rows of one family
    whose rank test could not find anything at their size."""
    level = float(data.config["comparisons"]["alpha"]) / int(group["family_size"].iloc[0])
    floor = smallest_p(int(group["n1"].min()), int(group["n2"].min()), paired=data.paired)
    words = (
        f"{UNTESTABLE} (smallest possible p = {p_value(floor)}, level alpha / m = "
        f"{number(level, trim=True)})"
    )
    return words, setups_for_a_finding(level, paired=data.paired)


def summary_lines(result: Analysis, limit: int = 12) -> list[str]:
    """A few lines for the terminal: the confirmed differences, largest first (or what the
    design could not detect), then the seats and the changes across skill, each line saying
    which tests it counts."""
    pw = result.pairwise
    confirm = pw[pw["family"] != "exploratory"]
    sig = confirm[confirm["significant"]]
    which = "primary tests" if (pw["family"] == "primary").any() else "tests of the conditions"
    untestable = pw["verdict"].str.startswith(UNTESTABLE)
    if sig.empty and len(pw) and untestable.all():
        words, need = untestable_words(result.data, confirm if len(confirm) else pw)
        detail = words.removeprefix(UNTESTABLE).strip()
        return [
            f"{UNTESTABLE}: none of the {plural(len(pw), 'test')} could reach its level "
            f"{detail}; at least {need} setups per condition are needed (comparisons.md)",
            *_seat_summary(result),
            *_skill_summary(result),
        ]
    if sig.empty:
        return [
            f"no difference between conditions detected ({plural(len(confirm), 'test')}: the "
            f"{which}, corrected together; what the design could detect: MDE in "
            "comparisons.md)",
            *_seat_summary(result),
            *_skill_summary(result),
        ]
    dec = metric_decimals(pw)
    sig = sig.reindex(sig["d"].abs().sort_values(ascending=False).index)
    lines = [f"differences found in {len(sig)} of the {plural(len(confirm), 'test')} ({which}):"]
    for _, r in sig.head(limit).iterrows():
        d = dec[r["metric"]]
        lines.append(
            f"  {r['lineup']}: {r['metric']} {r['condition1']} vs {r['condition2']}: "
            f"mean {fixed(r['mean1'], d)} vs {fixed(r['mean2'], d)}, difference "
            f"{fixed(r['diff'], d, sign=True)} {interval(r['diff_low'], r['diff_high'], d)}, "
            f"p (corrected) {p_value(r['p_adj'])}"
        )
    if len(sig) > limit:
        lines.append(f"  ... and {len(sig) - limit} more (comparisons.md)")
    return [*lines, *_seat_summary(result), *_skill_summary(result)]


def _seat_summary(result: Analysis) -> list[str]:
    """The line on the seats: in how many lineup and condition cells their win shares
    differ (the seat tests are corrected among themselves)."""
    seats = result.seats
    tested = seats[seats["seats_p_adj"].notna()] if len(seats) else seats
    if tested.empty:
        return []
    alpha = result.data.config["comparisons"]["alpha"]
    differ = int((tested["seats_p_adj"] < alpha).sum())
    return [
        f"seats: their win shares differ in {differ} of {plural(len(tested), 'test')} "
        "(one per lineup and condition, corrected among themselves; seats.csv)"
    ]


def _skill_summary(result: Analysis) -> list[str]:
    """The line on the findings across skill, when the run tests them."""
    t = result.skill
    if t.empty:
        return []
    found = t[t["significant"]]
    dec = metric_decimals(result.pairwise)
    head = (
        f"across skill: a change with skill detected in {len(found)} of "
        f"{plural(len(t), 'test')} (their own family; skill.csv)"
    )
    return [head] + [
        f"  {r['metric']} {r['condition']} vs {r['baseline']}: {r['verdict']}, change "
        f"{fixed(r['change'], dec.get(r['metric'], 2), sign=True)} "
        f"{interval(r['low'], r['high'], dec.get(r['metric'], 2))}, p (corrected) "
        f"{p_value(r['p_adj'])}"
        for _, r in found.iterrows()
    ]
