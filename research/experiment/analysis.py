"""A finished run's analysis: metrics per game and per condition, comparisons, regression.

Everything here reads only the run's folder (``games.parquet``, the setups file and
``config.resolved.json``), so ``ludolab compare RUN`` and ``ludolab plot RUN`` can be redone at
any time, e.g. after a change to a metric, without replaying a game.

Comparisons are made **within each lineup** (games played by different agents are not pooled)
on **setup means** (each metric averaged over the games on one board or deal, see
:func:`setup_means`): for every tested metric an omnibus test across the conditions
(Kruskal-Wallis; Friedman when setups are paired by common random numbers) and pairwise tests
(Mann-Whitney U; Wilcoxon signed-rank on pairs), with Cliff's delta (or the matched-pairs
rank-biserial correlation) and its bootstrap interval. With a ``baseline`` only the
comparisons against it are made, each oriented as *condition vs baseline* (a positive effect:
larger under the condition), and the correction runs over those. Corrections are per lineup
and metric, not across metrics.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa

from research.experiment.setups import SETUP_FILES, Setup, read_setups
from research.experiment.store import RunDir, RunError
from research.files import write_parquet, write_text
from research.metrics import condition_metrics, per_game_metrics, with_board_features
from research.stats import omnibus, pairwise, regress, to_csv, to_latex, to_markdown
from research.stats.compare import PAIRWISE_COLUMNS

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
        state: ``run.json`` (the run's state, with the setups' sampler reports).
        games: ``games.parquet`` as a DataFrame (one row per game).
        setups: the setups per condition.
        per_game: :func:`research.metrics.per_game_metrics` of the games plus the plan's
            columns and (Catan) the board features.
    """

    path: Path
    config: dict[str, Any]
    state: dict[str, Any]
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

    @cached_property
    def by_setup(self) -> pd.DataFrame:
        """:func:`setup_means` of this run (computed once; comparisons and regressions share
        it)."""
        return setup_means(self)


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
    return RunData(run.path, config, state, games, setups, per_game)


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
    # Mann-Whitney's statistic is U of condition1; the other side's U is n1 * n2 - U.
    mwu = ~keep & (rows["test"] == "mann-whitney")
    out["statistic"] = rows["statistic"].where(~mwu, rows["n1"] * rows["n2"] - rows["statistic"])
    return pd.DataFrame(out)[list(rows.columns)]


def setup_means(data: RunData) -> pd.DataFrame:
    """One row per lineup, condition and setup: each tested metric averaged over the games
    played on that setup (0/1 metrics become shares; NaN games are skipped), ``n_games``, and
    for Catan the board's features.

    The setup is the unit the conditions act on: games on one board share its layout, so they
    are repeated measurements of the board, not independent samples of the condition. Tests
    on games would count board-to-board variation as a condition effect (two conditions
    drawing from the same set come out "significant" with few boards and many games each);
    tests on setup means do not. Setup ``s`` of every condition is played with the same game
    seeds (common random numbers), so with ``paired = true`` setups pair by index.
    """
    metrics = tested_metrics(data)
    keys = ["lineup", "condition", "setup"]
    df = data.per_game[keys + metrics].copy()
    df[metrics] = df[metrics].astype(float)
    grouped = df.groupby(keys, observed=True, sort=True)
    out = grouped[metrics].mean()
    out["n_games"] = grouped.size()
    out = out.reset_index()
    if data.game == "catan":
        features = data.per_game.groupby(keys, observed=True)[list(REGRESSION_FEATURES)].first()
        out = out.merge(features.reset_index(), on=keys)
    out["condition"] = pd.Categorical(
        out["condition"].astype(str), categories=data.conditions, ordered=True
    )
    return out


OMNIBUS_COLUMNS = [
    "lineup",
    "metric",
    "test",
    "k",
    "n",
    "n_dropped",
    "statistic",
    "df",
    "p",
    "effect_measure",
    "effect",
    "note",
]


def compare(data: RunData) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(omnibus table, pairwise table) over every lineup and tested metric, on setup means
    (:func:`setup_means`): ``n1``/``n2``, the medians and means are over setups.

    Both have a leading ``lineup`` column; the pairwise table has the columns of
    :func:`research.stats.pairwise` (oriented against the baseline when there is one).
    """
    cmp = data.config["comparisons"]
    paired_on = "setup" if cmp["paired"] else None
    seed = int(data.config["seed"])
    table_by_setup = data.by_setup
    omni, pairs = [], []
    for li, lineup in enumerate(data.lineups):
        df = table_by_setup[table_by_setup["lineup"] == lineup]
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
                baseline=data.baseline,
            )
            if data.baseline is not None:
                table = _orient(table, data.baseline)
            pairs.append(table.assign(lineup=lineup))
    columns = ["lineup", *PAIRWISE_COLUMNS]
    omni_df = (
        pd.concat(omni, ignore_index=True)[OMNIBUS_COLUMNS]
        if omni
        else (pd.DataFrame(columns=OMNIBUS_COLUMNS))
    )
    pair_df = (
        pd.concat(pairs, ignore_index=True)[columns]
        if pairs
        else (pd.DataFrame(columns=columns).astype({"significant": bool}))
    )
    pair_df.attrs["level"] = 0.95
    return omni_df, pair_df


def regressions(data: RunData) -> tuple[pd.DataFrame, list[str]]:
    """Each tested metric's board means regressed on :data:`REGRESSION_FEATURES`, per lineup
    (Catan only; one row per board and lineup, see :func:`setup_means`).

    Returns the coefficient table (columns ``lineup``, ``metric``, ``term``, ``coef``, ``se``,
    ``t``, ``p``, ``ci_low``, ``ci_high``, ``std_coef``, plus ``n`` and ``r2``) and notes on
    fits that could not be made (e.g. a constant metric).
    """
    if data.game != "catan":
        return pd.DataFrame(), ["no regression: board features exist for Catan boards only"]
    frames, notes = [], []
    by_setup = data.by_setup
    for lineup in data.lineups:
        df = by_setup[by_setup["lineup"] == lineup]
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
    n_setups = result.data.config["setups"]
    kind = result.data.config["setup_kind"]
    parts = [
        f"# Comparisons: {result.data.config['name']}\n",
        f"Unit of analysis: the setup. Each metric is averaged over the games played on each of "
        f"the {n_setups} {kind} per condition, and the tests compare those means (games on one "
        f"setup are repeated measurements of it, not independent samples of the condition). "
        f"Within each lineup. Omnibus: "
        + (
            "Friedman test over setups paired by index (setup s of every condition is played "
            "with the same game seeds), effect Kendall's W (needs 3 or more conditions)."
            if paired
            else "Kruskal-Wallis H, effect epsilon-squared."
        )
        + "\n",
        to_markdown(result.omnibus),
        "\nPairwise: "
        + (
            "Wilcoxon signed-rank on the paired setups, effect = matched-pairs rank-biserial "
            "correlation"
            if paired
            else "Mann-Whitney U, effect = Cliff's delta"
        )
        + " (positive: larger under 'condition'), "
        + (
            f"{cmp['n_boot']} bootstrap resamples for the 95% interval"
            if cmp["n_boot"]
            else "no bootstrap intervals (n_boot = 0)"
        )
        + f", p adjusted by {cmp['correction']} within each lineup and metric.\n",
        pairwise_markdown(result.pairwise),
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
