"""Evaluating one candidate of a design search: its setups drawn, its games played, its
objectives estimated.

A candidate is evaluated rung by rung. Rung ``r`` is an ordinary experiment of one condition
(the candidate, always named ``candidate``) whose master seed is :func:`rung_seed` of the
design's seed and ``r``: every candidate draws its setups from the same setup seed and plays
the same game seeds, rung by rung (common random numbers). Where two candidates' sets overlap,
the uniform sampler's rejection stream then gives them many of the same boards, and every
comparison of two candidates is paired game seed by game seed. Nothing here depends on the
worker count: a rung's games are played in the runner's chunks (:mod:`..experiment.play`).
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa

from ludolab.games import Game, SetupSetError
from ludolab.research.design.spec import DesignSpec, Objective
from ludolab.research.experiment.backends import run_dask, run_local
from ludolab.research.experiment.config import (
    ConfigError,
    ExperimentConfig,
    GamePlan,
    parse_experiment,
    setup_seed,
)
from ludolab.research.experiment.play import chunk_ranges, make_task
from ludolab.research.files import write_text
from ludolab.research.metrics import per_game_metrics
from ludolab.research.solve import SolveError

CANDIDATE = "candidate"
"""Every candidate's condition name: its setup seed (a function of the name) is then shared."""
Z95 = 1.959964
"""The normal quantile of a two-sided 95% interval."""
_RUNG_TAG = 0x6465_7369_676E  # "design": keeps rung seeds apart from plan pilots' seeds


class Infeasible(Exception):
    """The candidate's setups cannot be drawn: no setup satisfies its set, or the sampler
    found none within the design's ``sampling_seconds``."""


def rung_seed(seed: int, rung: int) -> int:
    """Rung ``rung``'s master seed: ``SeedSequence([seed, tag, rung])``'s first 32 bits."""
    return int(np.random.SeedSequence([seed, _RUNG_TAG, rung]).generate_state(1)[0])


def write_parquet(frame: pd.DataFrame, path: Path) -> None:
    """``frame`` to ``path`` as Parquet, whole or not at all (a temporary file renamed)."""
    tmp = path.with_suffix(".tmp")
    frame.to_parquet(tmp, index=False)
    tmp.replace(path)


def set_file(spec: DesignSpec, off: tuple[str, ...], folder: Path) -> str | None:
    """The file of the set with constraints ``off`` switched off, written under ``folder/sets``
    (named by its content's digest, so the same set is written once); None when none is off."""
    if not off:
        return None
    text = spec.set_text(off)
    digest = hashlib.sha256(text.encode()).hexdigest()[:12]
    path = folder / "sets" / f"{digest}{spec.described.set_suffix}"
    if not path.exists():
        write_text(path, text)
    return str(path.resolve())


@dataclass(frozen=True)
class RungGames:
    """One rung of a candidate: its per-game metrics.

    Attributes:
        rung: the rung's index.
        games: one row per game: ``rung``, ``setup``, ``slot``, ``lineup``, ``rotation``,
            ``setup_id`` and every per-game metric column.
        sampler: the method the sampler used (e.g. ``uniform (rejection)``).
    """

    rung: int
    games: pd.DataFrame
    sampler: str


def rung_setups(
    spec: DesignSpec, values: Mapping[str, Any], rung: int, folder: Path
) -> tuple[ExperimentConfig, list[Any], str]:
    """Rung ``rung`` of the candidate with parameter ``values``: its one-condition config, its
    setups (from the shared setup seed) and the sampler's method (e.g. ``uniform
    (rejection)``). Raises :class:`Infeasible` when its setups cannot be drawn."""
    described = spec.described
    _, _, off = spec.split(values)
    condition = spec.condition(values, CANDIDATE, set_file(spec, off, folder))
    data = spec.experiment_data(
        [condition],
        seed=rung_seed(spec.seed, rung),
        **{
            described.setups_key: spec.setups,
            described.games_per_setup_key: spec.games_per_setup,
        },
    )
    try:
        config = parse_experiment(data, spec.label, spec.base)
    except ConfigError as exc:  # values inside the checked ranges that the set still rejects
        raise Infeasible(str(exc).split(": key ", 1)[-1]) from None
    cond = config.conditions[0]
    try:
        draw = described.draw_setups(
            cond.constraint_set,
            config.setups,
            cond.sampler,
            setup_seed(config, CANDIDATE),
            players=config.players,
            options=config.options,
            settings={**cond.settings, "time_limit": spec.sampling_seconds},
        )
    except Exception as exc:
        if not _cannot_draw(exc, described):
            raise
        raise Infeasible(str(exc)) from None
    return config, list(draw.setups), draw.method


def _cannot_draw(exc: Exception, game: Game) -> bool:
    """Whether ``exc`` says the setups cannot be drawn (a set without a setup, a solver out
    of time): a SetupSetError, a SolveError or one of the game's ``user_errors``."""
    return isinstance(exc, SetupSetError | SolveError) or game.raised_user_error(exc)


def play_rung(
    spec: DesignSpec,
    values: Mapping[str, Any],
    rung: int,
    folder: Path,
    *,
    workers: int = 1,
    client: Any = None,
) -> RungGames:
    """Play rung ``rung`` of the candidate with parameter ``values`` (see the module
    docstring). Raises :class:`Infeasible` when its setups cannot be drawn."""
    config, drawn, sampler = rung_setups(spec, values, rung, folder)
    plan = GamePlan(config)
    ranges = chunk_ranges(len(plan), config.chunk_size)
    options = {CANDIDATE: config.conditions[0].options or config.options}
    setups: dict[str, list[Any]] = {CANDIDATE: drawn}
    tasks = (
        make_task(c, config.game, options, plan.games(ranges[c]), setups)
        for c in range(len(ranges))
    )
    results = run_local(tasks, workers) if client is None else run_dask(tasks, client)
    tables = dict(results)
    table = pa.concat_tables([tables[c] for c in sorted(tables)])
    games = per_game_metrics(table, config.game)
    games.insert(0, "rung", rung)
    return RungGames(rung, games, sampler)


@dataclass(frozen=True)
class Estimate:
    """A metric's mean over a candidate's games, and its standard error.

    The unit of analysis is the setup: the standard error is that of the mean of the setups'
    means (games on one board are not independent of each other).
    """

    mean: float
    se: float
    setups: int
    games: int

    def interval(self, z: float = Z95) -> tuple[float, float]:
        """The normal 95% interval (``z`` for another level)."""
        return self.mean - z * self.se, self.mean + z * self.se


def setup_means(games: pd.DataFrame, column: str) -> pd.Series:
    """The metric's mean per setup, indexed by ``(rung, setup)`` (NaN games skipped)."""
    values = games[column].astype(float)
    return values.groupby([games["rung"], games["setup"]]).mean()


def estimate(games: pd.DataFrame, objective: Objective) -> Estimate:
    """The objective metric's mean over ``games`` with its setup-level standard error."""
    return _mean_of(setup_means(games, objective.column).dropna(), len(games))


def paired_difference(
    games: pd.DataFrame, baseline: pd.DataFrame, objective: Objective
) -> Estimate:
    """The candidate's mean minus the baseline's on the setups both played (paired by rung and
    setup index: the same setup seed and game seeds), with the standard error of the mean of
    the paired differences."""
    a = setup_means(games, objective.column)
    b = setup_means(baseline, objective.column)
    return _mean_of((a - b).dropna(), len(games))


def _mean_of(values: pd.Series, games: int) -> Estimate:
    """The mean of per-setup ``values`` and its standard error (NaN where undefined)."""
    n = len(values)
    se = float(values.std(ddof=1) / math.sqrt(n)) if n > 1 else math.nan
    return Estimate(float(values.mean()) if n else math.nan, se, n, games)
