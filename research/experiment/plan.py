"""Before a run: how many games, how long, and what the design can detect (``ludolab plan``).

A short **pilot** plays the config at a small size (a few setups per condition, a few games per
setup) into a temporary folder, with the same samplers, agents and rules. From it:

* the run's time: setup generation per setup and condition, and play per game, scaled to the
  config's size and divided over the workers;
* per lineup and tested metric, the variance components of games within setups
  (:func:`ludolab.research.stats.power.variance_components`, conditions centred), hence the standard
  deviation of a setup mean over the config's games per setup, planned on an 80% upper
  confidence bound of the between-setup variance (a small pilot often shows too little of it,
  and planning on the point estimate would then promise power the run does not have);
* the **minimum detectable difference** (80% power, two-sided, level ``alpha / m`` with ``m``
  the report's family size) for the config's setups per condition, in the metric's unit; and,
  where the config declares a margin (``comparisons.margins``), the setups per condition needed
  to detect a difference of that size.

The figures treat the comparison as unpaired, which is conservative for paired designs (common
random numbers can only remove variance), and rest on a small pilot: read them as the right
order of magnitude, and rerun the plan with ``--pilot-setups`` larger when a decision is close.
Nothing is written outside the temporary folder.
"""

from __future__ import annotations

import json
import math
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from ludolab.research.experiment.analysis import load_run, metric_column
from ludolab.research.experiment.config import (
    GAMES_PER_SETUP_KEY,
    SETUP_KEY,
    ExperimentConfig,
    load_experiment,
)
from ludolab.research.experiment.runner import run_experiment
from ludolab.research.metrics.registry import game_unit
from ludolab.research.stats.power import (
    minimum_detectable_difference,
    setups_for_a_finding,
    setups_needed,
    smallest_p,
    variance_components,
)

POWER = 0.8
CONFIDENCE = 0.8
"""The setup variance the plan uses is an upper bound at this confidence (Browne 1995)."""


@dataclass
class Plan:
    """What :func:`plan_experiment` found.

    Attributes:
        config: the config as it will run (overrides applied).
        family_size: tests in the report's confirmatory family (``m``).
        pilot_setups, pilot_games: the pilot's setups per condition and games per setup.
        setup_seconds: estimated seconds to generate every condition's setups (one process).
        play_seconds: estimated seconds to play every game on ``workers`` processes.
        table: one row per lineup and tested metric: ``family``, ``unit``, ``sd_between``,
            ``sd_within``, ``icc``, ``sd_setup_mean`` (at the config's games per setup, with
            the between-setup variance at its upper bound),
            ``mde`` (at the config's setups per condition), ``margin`` and ``setups_needed``
            (for a margin, else NaN).
        notes: remarks (e.g. a metric constant in the pilot).
    """

    config: ExperimentConfig
    family_size: int
    pilot_setups: int
    pilot_games: int
    setup_seconds: float
    play_seconds: float
    workers: int
    table: pd.DataFrame
    notes: list[str] = field(default_factory=list)


def family_size(config: ExperimentConfig) -> tuple[int, int]:
    """(tests in the confirmatory family, tests in all) of a run of ``config``."""
    k = len(config.conditions)
    pairs = k - 1 if config.comparisons.baseline else k * (k - 1) // 2
    lineups = len(config.lineups)
    tested = len(config.comparisons.metrics)
    primary = len(config.comparisons.primary) or tested
    return lineups * primary * pairs, lineups * tested * pairs


def plan_experiment(
    config_path: str | Path,
    *,
    overrides: Sequence[str] = (),
    pilot_setups: int = 20,
    pilot_games: int = 4,
    workers: int = 1,
    quiet: bool = True,
) -> Plan:
    """Run a pilot of the config and estimate time and detectable differences (see the module
    docstring). ConfigError for a bad config or override, as for a run."""
    config = load_experiment(config_path, overrides)
    setups = min(config.setups, pilot_setups)
    games = min(config.games_per_setup, pilot_games)
    pilot = [
        *overrides,
        f"{SETUP_KEY[config.game]}={setups}",
        f"{GAMES_PER_SETUP_KEY[config.game]}={games}",
    ]
    with tempfile.TemporaryDirectory(prefix="ludolab-plan-") as tmp:
        result = run_experiment(
            config_path,
            out=tmp,
            workers=1,
            analyse=False,
            quiet=quiet,
            overrides=pilot,
        )
        data = load_run(result.path)
        prov = json.loads((result.path / "provenance.json").read_text())
    setup_time = sum(
        s["seconds"] / max(s["count"], 1) * config.setups for s in data.state.get("setups", [])
    )
    per_game = float(prov.get("play_seconds") or 0.0) / max(len(data.per_game), 1)
    play_time = per_game * config.n_games / workers
    m, _ = family_size(config)
    level = config.comparisons.alpha / max(m, 1)
    primary = {metric_column(x) for x in config.comparisons.primary}
    margins = {metric_column(k): v for k, v in config.comparisons.margins.items()}
    rows, notes = [], []
    pg = data.per_game
    for lineup in data.lineups:
        games_of = pg[pg["lineup"] == lineup]
        labels = games_of["condition"].astype(str) + ":" + games_of["setup"].astype(str)
        for registry in config.comparisons.metrics:
            metric = metric_column(registry)
            values = games_of[metric].astype(float)
            centred = values - values.groupby(games_of["condition"], observed=True).transform(
                "mean"
            )
            vc = variance_components(centred, labels)
            # plan on an upper confidence bound of the setup variance, not the pilot's guess
            sd = vc.setup_mean_sd(config.games_per_setup, between=vc.between_upper(CONFIDENCE))
            margin = margins.get(metric, math.nan)
            needed = math.nan
            if math.isfinite(margin) and math.isfinite(sd) and sd > 0:
                needed = setups_needed(margin, sd, alpha=level, power=POWER)
            elif math.isfinite(sd) and sd == 0:
                notes.append(f"{lineup} / {metric}: constant in the pilot")
            rows.append(
                {
                    "lineup": lineup,
                    "metric": metric,
                    "family": ("primary" if metric in primary else "exploratory")
                    if primary
                    else "all",
                    "unit": game_unit(config.game, metric),
                    "sd_between": math.sqrt(vc.between) if vc.between >= 0 else math.nan,
                    "sd_within": math.sqrt(vc.within) if vc.within >= 0 else math.nan,
                    "icc": vc.icc,
                    "sd_setup_mean": sd,
                    "mde": minimum_detectable_difference(
                        sd, config.setups, config.setups, alpha=level, power=POWER
                    ),
                    "margin": margin,
                    "setups_needed": needed,
                }
            )
    return Plan(
        config,
        m,
        setups,
        games,
        setup_time,
        play_time,
        workers,
        pd.DataFrame(rows),
        notes,
    )


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.1f} min"
    return f"{seconds / 3600:.1f} h"


def plan_text(plan: Plan) -> str:
    """The plan for the terminal."""
    c = plan.config
    kind = c.setup_kind
    _, total = family_size(c)
    lines = [
        f"{c.name}: {len(c.conditions)} conditions x {c.setups} {kind} x {c.games_per_setup} "
        f"games per {kind[:-1]}, over {len(c.lineups)} lineup(s) and their seat rotations: "
        f"{c.n_games:,} games.",
        f"Estimated time (pilot of {plan.pilot_setups} {kind} x {plan.pilot_games} games per "
        f"condition): {kind} {_duration(plan.setup_seconds)}, games "
        f"{_duration(plan.play_seconds)} on {plan.workers} worker(s).",
        f"The report's family: {plan.family_size} test(s) of {total}; minimum detectable "
        f"difference at 80% power and alpha / m = {c.comparisons.alpha}/{plan.family_size}, for "
        f"{c.setups} {kind} per condition (unpaired: conservative for paired designs):",
        "",
    ]
    table = plan.table.copy()
    shown = pd.DataFrame(
        {
            "lineup": table["lineup"],
            "metric": table["metric"],
            "family": table["family"],
            "ICC": table["icc"].map(lambda v: f"{v:.2f}"),
            f"sd of a {kind[:-1]} mean": table["sd_setup_mean"].map(lambda v: f"{v:.3g}"),
            "MDE": [
                f"{v:.3g} {u}".strip() if "[" not in u and u != "count" else f"{v:.3g}"
                for v, u in zip(table["mde"], table["unit"], strict=True)
            ],
            "margin": table["margin"].map(lambda v: "—" if math.isnan(v) else f"{v:g}"),
            f"{kind} needed": table["setups_needed"].map(
                lambda v: "—" if math.isnan(v) else f"{int(v)}"
            ),
        }
    )
    lines.append(shown.to_string(index=False))
    needed = table.loc[table["family"] != "exploratory", "setups_needed"].dropna()
    if len(needed):
        lines += [
            "",
            f"Recommended: {SETUP_KEY[c.game]} = {int(needed.max())} (the most any declared "
            f"margin of the family needs for 80% power; now {c.setups}).",
        ]
    else:
        lines += [
            "",
            "Declare the smallest difference that matters per metric in comparisons.margins "
            "(in the metric's unit) to get the setups it needs.",
        ]
    level = c.comparisons.alpha / max(plan.family_size, 1)
    paired = c.comparisons.paired
    if smallest_p(c.setups, c.setups, paired=paired) >= level:
        lines.append(
            f"warning: with {c.setups} {kind} per condition the rank tests cannot reach "
            f"alpha / m = {level:.2g} at all: no finding is possible below "
            f"{setups_for_a_finding(level, paired=paired)} {kind} per condition."
        )
    lines += [f"note: {n}" for n in plan.notes]
    return "\n".join(lines)
