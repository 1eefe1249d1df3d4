"""The figures of a run (``ludolab plot RUN``): one set per lineup, in the paper style.

Each figure is saved as ``figures/<name>.pdf`` and ``.png`` by
:func:`ludolab.research.plots.figures.save_figure`; :func:`plot_run` returns them with captions for
the report.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # files only; a run may be on a machine without a display

import pandas as pd  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from ludolab.research.experiment.analysis import RunData, sweeps, tested_metrics  # noqa: E402
from ludolab.research.metrics.registry import game_unit  # noqa: E402
from ludolab.research.plots.figures import (  # noqa: E402
    dose_response,
    example_boards,
    length_distributions,
    metric_vs_tightness,
    save_figure,
    score_distributions,
    win_rates_by_seat,
)

# The board feature a Catan metric is drawn against: the richest intersection's pips, the
# quantity the "balanced" constraints push down.
CATAN_TIGHTNESS = "int_pips_max"
TIGHTNESS_COLUMN = "tightness"


@dataclass(frozen=True)
class RunFigure:
    """A saved figure: its files' common path (no suffix) and a caption for the report."""

    stem: Path
    caption: str

    @property
    def png(self) -> Path:
        # with_name, not with_suffix: a lineup name may hold a dot ("greedy-v1.5")
        return self.stem.with_name(self.stem.name + ".png")

    @property
    def pdf(self) -> Path:
        return self.stem.with_name(self.stem.name + ".pdf")


def slug(name: str) -> str:
    """A file-name-safe form of a lineup name."""
    return re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip("-") or "lineup"


def _tightness(data: RunData) -> pd.DataFrame:
    """Per-game table with the condition's tightness: ``-log10 P(a fair shuffle satisfies its
    set)`` from the sampler's report, where the sampler measured it."""
    setups = data.state.get("setups", [])
    accept = {s["condition"]: s.get("acceptance") for s in setups}
    df = data.per_game.copy()
    df[TIGHTNESS_COLUMN] = (
        df["condition"]
        .astype(str)
        .map(lambda c: -math.log10(accept[c]) if accept.get(c) else math.nan)
    )
    return df


def plot_run(data: RunData, conditions: pd.DataFrame) -> list[RunFigure]:
    """Draw and save the run's figures under ``<run>/figures``; return them. ``conditions`` is
    the run's :func:`~ludolab.research.experiment.analysis.condition_table` (no statistics
    needed)."""
    out = data.path / "figures"
    order = data.conditions
    figures: list[RunFigure] = []

    def save(fig: Figure, name: str, caption: str) -> None:
        save_figure(fig, out / name)
        figures.append(RunFigure(out / name, caption))

    tight = _tightness(data) if data.game == "gallery" else None
    tags: set[str] = set()
    for lineup in data.lineups:
        tag = slug(lineup)
        while tag in tags:  # two names with the same slug must not share files
            tag += "_"
        tags.add(tag)
        games = data.per_game[data.per_game["lineup"] == lineup]
        conds = conditions[conditions["lineup"] == lineup]
        who = f"lineup {lineup!r} ({len(games)} games)"
        kind = data.config["setup_kind"]
        means = (
            games.groupby(["condition", "setup"], observed=True)[["turns", "score_spread"]]
            .mean()
            .reset_index()
        )
        unit_note = (
            f"points: the mean of each {kind[:-1]}'s games (the unit the comparisons test); "
            f"shapes: the distribution of single games"
        )
        save(
            length_distributions(
                games,
                column="turns",
                order=order,
                unit_means=means,
                label=f"game length ({game_unit(data.game, 'turns')})",
            ),
            f"length-{tag}",
            f"Game length per condition, {who}; {unit_note}.",
        )
        save(
            win_rates_by_seat(conds, order=order),
            f"win-rates-{tag}",
            f"Win rate by seat (0 moves first) with Wilson 95% intervals over the effective "
            f"number of independent games (games on one of the {kind} are not independent); "
            f"dashed: the fair share. {who}.",
        )
        save(
            score_distributions(
                games,
                column="score_spread",
                order=order,
                unit_means=means,
                label=f"final score spread ({game_unit(data.game, 'score_spread')})",
            ),
            f"score-spread-{tag}",
            f"Final score spread (best minus worst seat) per condition, {who}; {unit_note}.",
        )
        if data.game == "catan":
            boards = (
                games.groupby(["condition", "setup"], observed=True)[["turns", CATAN_TIGHTNESS]]
                .mean()
                .reset_index()
            )
            save(
                metric_vs_tightness(
                    boards,
                    CATAN_TIGHTNESS,
                    "turns",
                    order=order,
                    means=True,
                    xlabel="richest intersection (pips, mean)",
                    ylabel="game length (player turns),\nmean of board means ± 95% CI",
                ),
                f"turns-vs-{CATAN_TIGHTNESS}-{tag}",
                f"Game length against the richest intersection of each condition's boards: "
                f"the mean of the board means with its 95% interval over boards, {who}.",
            )
        elif tight is not None and tight[TIGHTNESS_COLUMN].notna().sum() > 0:
            games_t = tight[tight["lineup"] == lineup].dropna(subset=[TIGHTNESS_COLUMN])
            # the deal is the unit: games on one deal are not independent (greedy games on a
            # deal all play out the same), so the interval is over deal means
            deals = (
                games_t.groupby(["condition", "setup"], observed=True)[
                    [TIGHTNESS_COLUMN, "score_spread"]
                ]
                .mean()
                .reset_index()
            )
            save(
                metric_vs_tightness(
                    deals,
                    TIGHTNESS_COLUMN,
                    "score_spread",
                    order=order,
                    means=True,
                    xlabel="tightness: -log10 P(fair deal qualifies)",
                    ylabel=f"score spread ({game_unit(data.game, 'score_spread')}),\n"
                    "mean of deal means ± 95% CI",
                ),
                f"score-spread-vs-tightness-{tag}",
                f"Mean score spread against each deal set's tightness (-log10 of the share of "
                f"fair deals that satisfy it): the mean of the deal means with its 95% interval "
                f"over deals, {who}.",
            )
    params = {c["name"]: c.get("sweep_parameter") for c in data.config["conditions"]}
    metrics = tested_metrics(data)
    units = {m: game_unit(data.game, m) for m in metrics}
    for sweep, members in sweeps(data).items():
        value_of = dict(members)
        parameter = params[members[0][0]]
        for lineup in data.lineups:
            means = data.by_setup[
                (data.by_setup["lineup"] == lineup)
                & data.by_setup["condition"].astype(str).isin(value_of)
            ].copy()
            means["value"] = means["condition"].astype(str).map(value_of)
            save(
                dose_response(
                    means,
                    "value",
                    metrics,
                    xlabel=parameter.removeprefix("options.").replace("_", " ")
                    + (" (rule option)" if parameter.startswith("options.") else ""),
                    units=units,
                ),
                f"sweep-{slug(sweep)}-{slug(lineup)}",
                f"Dose-response of sweep {sweep!r} ({parameter}), lineup {lineup!r}: mean of "
                f"the {data.config['setup_kind']} means (each over its games) with 95% "
                f"intervals over {data.config['setup_kind']}, at each value.",
            )
    if data.game == "catan":
        save(
            example_boards({c: data.setups[c] for c in order}, n=3),
            "example-boards",
            "The first three boards of each condition.",
        )
    return figures
