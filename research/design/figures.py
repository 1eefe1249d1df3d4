"""The design search's figures: its history, its Pareto front (two objectives), the
parameters' importance, and the best candidate's setups."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.ticker import MaxNLocator

from ludolab.games import Game
from ludolab.research.design.spec import DesignSpec, Objective
from ludolab.research.plots.figure_kit import finish_figure, new_figure, save_figure

_STATE_STYLE = {
    "complete": {"marker": "o", "color": "#1f77b4", "label": "complete"},
    "pruned": {"marker": "x", "color": "#7f7f7f", "label": "stopped early (pruned)"},
}


def score_label(objective: Objective) -> str:
    """The score's name on an axis: ``|turns - 65|``, ``lead_change``."""
    if objective.target is not None:
        return f"|{objective.metric} - {objective.target:g}|"
    return objective.metric


def history_figure(
    spec: DesignSpec, trials: pd.DataFrame, baseline: dict[str, float], path: Path
) -> list[Path]:
    """Each objective's score by trial (complete and pruned trials; the score a pruned trial
    had when it stopped is not shown, its rungs' mean is), the best complete score so far, and
    the baseline's score. ``baseline`` maps each metric to the baseline's mean."""
    n = len(spec.objectives)
    fig = new_figure(3.3 * min(n, 2), 2.4 * math.ceil(n / 2))
    axes = fig.subplots(math.ceil(n / 2), min(n, 2), squeeze=False).ravel()
    for ax, o in zip(axes, spec.objectives, strict=False):
        column = f"mean:{o.metric}"
        done = trials[trials["state"].isin(list(_STATE_STYLE))]
        scores = done[column].map(o.score)
        for state, style in _STATE_STYLE.items():
            mask = done["state"] == state
            ax.scatter(
                done["number"][mask],
                scores[mask],
                s=14,
                marker=style["marker"],
                color=style["color"],
                label=style["label"],
                linewidths=1,
            )
        complete = done[done["state"] == "complete"].sort_values("number")
        if len(complete):
            best = complete[column].map(o.score)
            best = best.cummax() if o.direction == "maximize" else best.cummin()
            ax.step(complete["number"], best, where="post", color="#d62728", label="best so far")
        if o.metric in baseline:
            ax.axhline(
                o.score(baseline[o.metric]),
                color="black",
                linestyle="--",
                linewidth=0.8,
                label="baseline",
            )
        ax.set_xlabel("trial")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))  # trials are counted: no 2.5
        better = "higher" if o.direction == "maximize" else "lower"
        ax.set_ylabel(f"{score_label(o)}\n({better} is better)")
    for ax in axes[n:]:
        ax.set_visible(False)
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(
        handles, labels, loc="outside upper center", ncol=4, fontsize="x-small", frameon=False
    )
    finish_figure(fig, "Each trial's score, as the search estimated it")
    return save_figure(fig, path)


def pareto_figure(
    spec: DesignSpec, trials: pd.DataFrame, front: list[int], path: Path
) -> list[Path]:
    """The two objectives' scores of every complete trial, the Pareto front marked."""
    a, b = spec.objectives[:2]
    done = trials[trials["state"] == "complete"]
    x, y = done[f"mean:{a.metric}"].map(a.score), done[f"mean:{b.metric}"].map(b.score)
    on = done["number"].isin(front)
    fig = new_figure(3.3, 2.8)
    ax = fig.subplots()
    ax.scatter(x[~on], y[~on], s=12, color="#9ecae1", label="trial")
    ax.scatter(x[on], y[on], s=18, color="#d62728", label="Pareto front")
    order = np.argsort(x[on].to_numpy())
    ax.plot(x[on].to_numpy()[order], y[on].to_numpy()[order], color="#d62728", linewidth=0.8)
    ax.set_xlabel(score_label(a) + " (lower is better)" * (a.direction == "minimize"))
    ax.set_ylabel(score_label(b) + " (lower is better)" * (b.direction == "minimize"))
    ax.legend(fontsize="x-small", frameon=False)
    finish_figure(fig, "Two objectives: every complete trial")
    return save_figure(fig, path)


def importance_figure(importance: dict[str, dict[str, float]], path: Path) -> list[Path]:
    """Each parameter's fANOVA importance per objective (shares of the score's variance the
    fitted random forest attributes to it)."""
    frame = pd.DataFrame(importance).fillna(0.0)
    fig = new_figure(5.0, 1.0 + 0.3 * len(frame) * max(1, len(frame.columns)))
    ax = fig.subplots()
    height = 0.8 / len(frame.columns)
    for j, column in enumerate(frame.columns):
        ax.barh(np.arange(len(frame)) + j * height, frame[column], height=height, label=column)
    ax.set_yticks(np.arange(len(frame)) + height * (len(frame.columns) - 1) / 2, frame.index)
    ax.invert_yaxis()
    ax.set_xlabel("share of the score's variance (fANOVA)")
    ax.set_xlim(0, 1)
    if len(frame.columns) > 1:
        fig.legend(
            loc="outside upper center", ncol=len(frame.columns), fontsize="x-small", frameon=False
        )
    finish_figure(fig, "Which parameters move each score")
    return save_figure(fig, path)


def setups_figure(
    game: Game, setups: Mapping[str, Sequence[Any]], path: Path, n: int = 4
) -> list[Path] | None:
    """The first ``n`` setups of each entry of ``setups`` (one row each, labelled by its key),
    drawn by the game's ``example_figure`` and saved at ``path`` (PNG, and the formats
    ``save_figure`` writes); None when the game draws no pictures."""
    fig = game.example_figure(setups, n)
    if fig is None:
        return None
    return save_figure(fig, path)
