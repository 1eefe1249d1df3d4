"""A finished run's analysis: metrics per game and per condition, comparisons, regression.

Everything here reads only the run's folder (``games.parquet``, the setups file and
``config.resolved.json``), so ``ludolab compare RUN`` and ``ludolab plot RUN`` can be redone at
any time, e.g. after a change to a metric, without replaying a game.

Comparisons are made **within each lineup** (games played by different agents are not pooled):
for every tested metric an omnibus test across the conditions (Kruskal-Wallis; Friedman when
games are paired by common random numbers) and pairwise tests (Mann-Whitney U; Wilcoxon
signed-rank on pairs), with Cliff's delta (or the matched-pairs rank-biserial correlation) and
its bootstrap interval. With a ``baseline`` only the comparisons against it are made, each
oriented as *condition vs baseline* (a positive effect: larger under the condition), and the
correction runs over those. Corrections are per lineup and metric, not across metrics.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa

from research.experiment.setups import SETUP_FILES, Setup, read_setups
from research.experiment.store import RunDir, RunError
from research.files import write_parquet, write_text
from research.metrics import condition_metrics, per_game_metrics, with_board_features
from research.stats import omnibus, pairwise, regress, to_csv, to_latex, to_markdown
from research.stats.multiple import adjust_pvalues

# Board features a metric is regressed on (Catan): richness of the best spot, how unevenly
# pips fall on resources, clumping, hot numbers next to each other, and the seats' start gap.
REGRESSION_FEATURES = (
    "int_pips_max",
    "resource_pips_std",
    "same_resource_adjacent_pairs",
    "red_adjacent_pairs",
    "start_seat_pips_spread",
)


@dataclass
class RunData:
    """A finished run, loaded.

    Attributes:
        path: the run folder.
        config: ``config.resolved.json``.
        games: ``games.parquet`` as a DataFrame (one row per game).
        setups: the setups per condition.
        per_game: :func:`research.metrics.per_game_metrics` of the games plus the plan's
            columns and (Catan) the board features.
    """

    path: Path
    config: dict[str, Any]
    games: pd.DataFrame
    setups: dict[str, list[Setup]]
    per_game: pd.DataFrame = field(repr=False)

    @property
    def game(self) -> str:
        return self.config["game"]

    @property
    def conditions(self) -> list[str]:
        return [c["name"] for c in self.config["conditions"]]

    @property
    def lineups(self) -> list[str]:
        return [x["name"] for x in self.config["lineups"]]

    @property
    def baseline(self) -> str | None:
        return self.config["comparisons"].get("baseline")


def load_run(path: str | Path) -> RunData:
    """Load a finished run; RunError if the folder is not one (or not finished)."""
    run = RunDir(Path(path))
    state = run.read_state()
    if not run.games_path.exists():
        raise RunError(
            f"{run.path}: the run is not finished (status {state.get('status')!r}); "
            f"finish it with 'ludolab run CONFIG --resume {run.path}'"
        )
    config = json.loads((run.path / "config.resolved.json").read_text())
    games = pd.read_parquet(run.games_path)
    setups = read_setups(run.path / SETUP_FILES[config["game"]], config["game"])
    per_game = per_game_metrics(games, config["game"])
    if config["game"] == "catan":
        boards = [b for bs in setups.values() for b in bs]
        per_game = with_board_features(per_game, boards)
    order = [c["name"] for c in config["conditions"]]
    per_game["condition"] = pd.Categorical(per_game["condition"], categories=order, ordered=True)
    return RunData(run.path, config, games, setups, per_game)


def metric_column(name: str) -> str:
    """A registry name (``catan.sevens``, ``turns``) as its per-game column (``sevens``)."""
    return name.partition(".")[2] if name.startswith(("catan.", "gallery.")) else name


def tested_metrics(data: RunData) -> list[str]:
    """The per-game columns the comparisons test (config ``comparisons.metrics``)."""
    return [metric_column(m) for m in data.config["comparisons"]["metrics"]]


def condition_table(data: RunData) -> pd.DataFrame:
    """:func:`research.metrics.condition_metrics` per lineup and condition."""
    table = condition_metrics(data.per_game, data.game, by=["lineup", "condition"])
    table["condition"] = table["condition"].astype(str)
    return table


def _orient(table: pd.DataFrame, baseline: str) -> pd.DataFrame:
    """Pairwise rows involving ``baseline``, as condition1 = the other, condition2 = baseline."""
    rows = table[(table["condition1"] == baseline) | (table["condition2"] == baseline)]
    rows = rows.reset_index(drop=True)
    keep = rows["condition1"] != baseline
    out = {col: rows[col] for col in rows.columns}
    # Column by column: pandas 3.1 loses one side of a multi-column .loc swap here.
    for a, b in (
        ("condition1", "condition2"),
        ("n1", "n2"),
        ("median1", "median2"),
        ("mean1", "mean2"),
        ("ci_low", "ci_high"),
    ):
        out[a] = rows[a].where(keep, rows[b])
        out[b] = rows[b].where(keep, rows[a])
    for col in ("effect", "ci_low", "ci_high"):
        out[col] = out[col].where(keep, -out[col]) + 0.0  # no "-0.00" in tables
    return pd.DataFrame(out)[list(rows.columns)]


def compare(data: RunData) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(omnibus table, pairwise table) over every lineup and tested metric.

    Both have a leading ``lineup`` column; the pairwise table has the columns of
    :func:`research.stats.pairwise` (oriented against the baseline when there is one).
    """
    cmp = data.config["comparisons"]
    paired_on = "pair" if cmp["paired"] else None
    seed = int(data.config["seed"])
    omni, pairs = [], []
    for li, lineup in enumerate(data.lineups):
        df = data.per_game[data.per_game["lineup"] == lineup]
        for mi, metric in enumerate(tested_metrics(data)):
            frame = omnibus(df, metric, paired_on=paired_on, order=data.conditions).to_frame()
            omni.append(frame.assign(lineup=lineup))
            table = pairwise(
                df,
                metric,
                paired_on=paired_on,
                correction=cmp["correction"],
                n_boot=cmp["n_boot"],
                seed=[seed, li, mi],
                alpha=cmp["alpha"],
                order=data.conditions,
            )
            if data.baseline is not None:
                table = _orient(table, data.baseline)
                table["p_adj"] = adjust_pvalues(table["p"].to_numpy(), cmp["correction"])
                table["significant"] = (table["p_adj"] < cmp["alpha"]).astype(bool)
            pairs.append(table.assign(lineup=lineup))
    omni_df = pd.concat(omni, ignore_index=True) if omni else pd.DataFrame()
    pair_df = pd.concat(pairs, ignore_index=True) if pairs else pd.DataFrame()
    for df in (omni_df, pair_df):
        if len(df):
            df.insert(0, "lineup", df.pop("lineup"))
    pair_df.attrs["level"] = 0.95
    return omni_df, pair_df


def regressions(data: RunData) -> tuple[pd.DataFrame, list[str]]:
    """Each tested metric regressed on :data:`REGRESSION_FEATURES`, per lineup (Catan only).

    Returns the coefficient table (columns ``lineup``, ``metric``, ``term``, ``coef``, ``se``,
    ``t``, ``p``, ``ci_low``, ``ci_high``, ``std_coef``, plus ``n`` and ``r2``) and notes on
    fits that could not be made (e.g. a constant metric).
    """
    if data.game != "catan":
        return pd.DataFrame(), ["no regression: board features exist for Catan boards only"]
    frames, notes = [], []
    for lineup in data.lineups:
        df = data.per_game[data.per_game["lineup"] == lineup]
        for metric in tested_metrics(data):
            try:
                fit = regress(df, metric, REGRESSION_FEATURES)
            except ValueError as exc:
                notes.append(f"{lineup} / {metric}: no fit ({exc})")
                continue
            frame = fit.to_frame()
            frames.append(frame.assign(lineup=lineup, metric=metric, n=fit.n, r2=fit.r2))
    if not frames:
        return pd.DataFrame(), notes
    out = pd.concat(frames, ignore_index=True)
    out = out[["lineup", "metric", *[c for c in out.columns if c not in ("lineup", "metric")]]]
    return out, notes


@dataclass
class Analysis:
    """Every table of a run's analysis (see :func:`analyse`)."""

    data: RunData
    conditions: pd.DataFrame
    omnibus: pd.DataFrame
    pairwise: pd.DataFrame
    regression: pd.DataFrame
    notes: list[str]


def analyse(data: RunData) -> Analysis:
    """Condition metrics, comparisons and regressions of a loaded run."""
    omni, pairs = compare(data)
    reg, notes = regressions(data)
    return Analysis(data, condition_table(data), omni, pairs, reg, notes)


PAIR_COLUMNS = [
    "lineup",
    "metric",
    "condition1",
    "condition2",
    "n1",
    "n2",
    "median1",
    "median2",
    "test",
    "p",
    "p_adj",
    "effect",
    "ci_low",
    "ci_high",
    "significant",
]
PAIR_LABELS = {
    "condition1": "condition",
    "condition2": "vs",
    "median1": "median",
    "median2": "median (vs)",
    "p_adj": "p (adj.)",
    "effect": "effect",
}


def write_tables(result: Analysis) -> list[Path]:
    """Write the metric tables and comparisons into the run folder; return the files.

    ``metrics/per_game.parquet`` and ``metrics/conditions.csv``; ``comparisons.md`` (every
    table), ``comparisons.csv`` (pairwise, full precision), ``comparisons.tex`` (pairwise,
    booktabs), ``omnibus.csv`` and, for Catan, ``regression.csv``.
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
    caption = "Pairwise comparisons" + (
        f" against {result.data.baseline}" if result.data.baseline else ""
    )
    write_text(
        path / "comparisons.tex",
        to_latex(
            result.pairwise[PAIR_COLUMNS],
            caption=caption,
            label="tab:comparisons",
            labels=PAIR_LABELS,
        ),
    )
    files += [
        path / f for f in ("comparisons.md", "comparisons.csv", "omnibus.csv", "comparisons.tex")
    ]
    if len(result.regression):
        write_text(path / "regression.csv", to_csv(result.regression) or "")
        files.append(path / "regression.csv")
    return files


def pairwise_markdown(table: pd.DataFrame) -> str:
    """The pairwise table as Markdown (the report's main table)."""
    return to_markdown(table[PAIR_COLUMNS], labels=PAIR_LABELS)


def comparisons_markdown(result: Analysis) -> str:
    """``comparisons.md``: omnibus, pairwise and regression tables with how to read them."""
    cmp = result.data.config["comparisons"]
    paired = cmp["paired"]
    parts = [
        f"# Comparisons: {result.data.config['name']}\n",
        "Within each lineup. Omnibus: "
        + (
            "Friedman test over games paired by common random numbers (same game seed and "
            "seats on every condition), effect Kendall's W."
            if paired
            else "Kruskal-Wallis H, effect epsilon-squared."
        )
        + "\n",
        to_markdown(result.omnibus.drop(columns=["note"], errors="ignore")),
        "\nPairwise: "
        + (
            "Wilcoxon signed-rank on the paired games, effect = matched-pairs rank-biserial "
            "correlation"
            if paired
            else "Mann-Whitney U, effect = Cliff's delta"
        )
        + f" (positive: larger under 'condition'), {cmp['n_boot']} bootstrap resamples for the "
        f"95% interval, p adjusted by {cmp['correction']} within each lineup and metric.\n",
        pairwise_markdown(result.pairwise),
    ]
    if len(result.regression):
        parts += [
            "\nRegression of each metric on board features (OLS, HC3 standard errors); "
            "`std_coef`: standard deviations of the metric per standard deviation of the "
            "feature.\n",
            to_markdown(result.regression.drop(columns=["t"], errors="ignore")),
        ]
    if result.notes:
        parts.append("\n" + "\n".join(f"- {n}" for n in result.notes))
    return "\n".join(parts) + "\n"


def summary_lines(result: Analysis, limit: int = 12) -> list[str]:
    """A few lines for the terminal: the significant comparisons, largest effects first."""
    sig = result.pairwise[result.pairwise["significant"]]
    if sig.empty:
        return ["no significant difference between conditions (after correction)"]
    sig = sig.reindex(sig["effect"].abs().sort_values(ascending=False).index)
    lines = []
    for _, r in sig.head(limit).iterrows():
        lines.append(
            f"  {r['lineup']}: {r['metric']} {r['condition1']} vs {r['condition2']}: "
            f"median {r['median1']:.3g} vs {r['median2']:.3g}, effect {r['effect']:+.2f} "
            f"[{r['ci_low']:+.2f}, {r['ci_high']:+.2f}], p adj. {r['p_adj']:.2g}"
        )
    if len(sig) > limit:
        lines.append(f"  ... and {len(sig) - limit} more (comparisons.md)")
    return lines
