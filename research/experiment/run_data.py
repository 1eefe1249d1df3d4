"""A finished run's data as the analysis reads it (RunData): its games with their metrics, its
setups and resolved config, and the tables drawn from them: setup means, per-condition metrics,
the tested metrics' columns."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import pandas as pd

from ludolab import games
from ludolab.research.experiment.setups import Setup
from ludolab.research.metrics import condition_metrics


@dataclass
class RunData:
    """A finished run, loaded.

    Attributes:
        path: the run folder.
        config: ``config.resolved.json``.
        state: ``run.json`` (the run's state, with the setups' sampler reports).
        setups: the setups per condition.
        per_game: :func:`ludolab.research.metrics.per_game_metrics` of the games plus the plan's
            columns and (Catan) the board features.
    """

    path: Path
    config: dict[str, Any]
    state: dict[str, Any]
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
    def paired(self) -> bool:
        """Setups are compared in pairs: the config asks for it and every condition has as many
        distinct setups as the plan (a sampler that gave fewer has its setups replayed, and a
        replayed setup is the same unit, so it cannot pair with a new one)."""
        wanted = int(self.config["setups"])
        return bool(self.config["comparisons"]["paired"]) and all(
            len(s) == wanted for s in self.setups.values()
        )

    @property
    def baseline(self) -> str | None:
        return self.config["comparisons"].get("baseline")

    @cached_property
    def by_setup(self) -> pd.DataFrame:
        """:func:`setup_means` of this run (computed once; comparisons and regressions share
        it)."""
        return setup_means(self)


def metric_column(name: str) -> str:
    """A registry name (``catan.sevens``, ``turns``) as its per-game column (``sevens``)."""
    prefix, dot, column = name.partition(".")
    return column if dot and games.known(prefix) else name


def tested_metrics(data: RunData) -> list[str]:
    """The per-game columns the comparisons test (config ``comparisons.metrics``)."""
    return [metric_column(m) for m in data.config["comparisons"]["metrics"]]


def condition_table(data: RunData) -> pd.DataFrame:
    """:func:`ludolab.research.metrics.condition_metrics` per lineup and condition."""
    table = condition_metrics(data.per_game, data.game, by=["lineup", "condition"])
    table["condition"] = table["condition"].astype(str)
    return table


def setup_means(data: RunData) -> pd.DataFrame:
    """One row per lineup, condition and setup: each tested metric averaged over the games
    played on that setup (0/1 metrics become shares; NaN games are skipped), ``n_games``, and
    the setup's features the game regresses on (its ``regression_features``).

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
    regressors = list(games.get(data.game).regression_features)
    if regressors:
        features = data.per_game.groupby(keys, observed=True)[regressors].first()
        out = out.merge(features.reset_index(), on=keys)
    out["condition"] = pd.Categorical(
        out["condition"].astype(str), categories=data.conditions, ordered=True
    )
    return out
