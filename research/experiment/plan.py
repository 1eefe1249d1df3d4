"""Before a run: how many games, how long, and how many setups to play (``ludolab plan``).

A short **pilot** plays the config at a small size (a few setups per condition, a few games per
setup) into a temporary folder, with the same samplers, agents and rules. It is played
``pilot_seeds`` times (default 3), pilot ``i`` with the master seed
``numpy.random.SeedSequence([seed, i]).generate_state(1)[0]`` (``seed`` the config's, which
``--set seed=N`` changes): fresh setups and dice each time, printed so that any pilot can be
replayed as a run. From each pilot:

* the run's time: setup generation per setup and condition, and play per game, scaled to the
  config's size and divided over the workers (the mean over the pilots);
* per lineup and tested metric, the variance components of games within setups
  (:func:`ludolab.research.stats.power.variance_components`, conditions centred), hence the standard
  deviation of a setup mean over the config's games per setup, planned on an 80% upper
  confidence bound of the between-setup variance (a small pilot often shows too little of it,
  and planning on the point estimate would then promise power the run does not have);
* the **minimum detectable difference** (80% power, two-sided, level ``alpha / m`` with ``m``
  the report's family size) for the config's setups per condition, in the metric's unit;
* the **setups per condition needed** (same power and level): where the config declares margins
  (``comparisons.margins``), to detect a difference of each margin's size, in the metric's
  unit; without margins, to detect a standardised difference of Cohen's ``d = 0.5`` between
  two conditions' setup means, ``d`` in units of the standard deviation of one setup mean,
  ``sqrt(var_between + var_within / g)`` at the config's ``g`` games per setup
  (:func:`setups_for_effect_size`). Because ``d`` is relative to that standard deviation, the
  setups it needs depend only on the level and the power, not on the pilot; the pilot says what
  ``d = 0.5`` is in each metric's unit.

A pilot's recommendation is the most any metric of the report's family needs. Over the pilot
seeds these form an interval (min to max of the per-seed recommendations), and the plan
recommends its upper end. Without margins the interval is one number (see above). A margin's
recommendation rests on the pilot's variance estimate and moves with it: on quickstart.toml with
a 5-turn margin the upper ends for three base seeds were 86, 90 and 71 boards; the upper end of
three pilots errs towards too many setups, not too few.

The figures treat the comparison as unpaired, which is conservative for paired designs (common
random numbers can only remove variance), and rest on small pilots: read them as the right
order of magnitude, and rerun the plan with ``--pilot-setups`` or ``--pilot-seeds`` larger when
a decision is close. Nothing is written outside the temporary folders.
"""

from __future__ import annotations

import json
import math
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from ludolab.games import get as get_game
from ludolab.research.experiment.analysis import RunData, load_run, metric_column
from ludolab.research.experiment.config import (
    ExperimentConfig,
    load_experiment,
)
from ludolab.research.experiment.runner import run_experiment
from ludolab.research.metrics.registry import game_unit
from ludolab.research.numbers import with_article
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
EFFECT_SIZE = 0.5
"""Cohen's d planned for when the config declares no margins (a "medium" effect), in standard
deviations of a setup mean (:func:`setups_for_effect_size`)."""
PILOT_SEEDS = 3
"""Pilots played by default, each with its own seed (:func:`derive_pilot_seeds`)."""


@dataclass
class Plan:
    """What :func:`plan_experiment` found.

    Attributes:
        config: the config as it will run (overrides applied).
        family_size: tests in the report's confirmatory family (``m``).
        pilot_setups, pilot_games: each pilot's setups per condition and games per setup
            (at least 2, whatever the config plays, so that the variance components are
            estimable).
        setup_seconds: estimated seconds to generate every condition's setups (one process;
            mean over the pilots).
        play_seconds: estimated seconds to play every game on ``workers`` processes (mean
            over the pilots).
        table: one row per lineup and tested metric, over the pilots: ``family``, ``unit``,
            ``sd_between``, ``sd_within`` and ``icc`` (from the pilots' mean variance
            components, metric units), ``sd_setup_mean`` (the largest over the pilots, at the
            config's games per setup, with the between-setup variance at its upper bound),
            ``mde`` (at that sd and the config's setups per condition, metric units),
            ``effect`` (``d = EFFECT_SIZE`` in metric units at that sd), ``margin`` (NaN if
            none), ``needed_low`` and ``setups_needed`` (the fewest and the most setups per
            condition any pilot needs for the margin, or for ``d`` without one).
        pilots: one row per pilot seed, lineup and tested metric: ``seed``, ``lineup``,
            ``metric``, ``sd_setup_mean``, ``mde``, ``effect`` and ``setups_needed``.
        seeds: the pilots' master seeds (:func:`derive_pilot_seeds`).
        basis: ``"margins"`` (the family declares margins) or ``"effect size"``.
        effect_size: the Cohen's d planned for without margins (:func:`setups_for_effect_size`).
        recommendations: per pilot seed, the setups per condition it recommends (the most any
            metric of the family needs; NaN when no metric could be planned).
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
    pilots: pd.DataFrame = field(default_factory=pd.DataFrame)
    seeds: list[int] = field(default_factory=list)
    basis: str = "effect size"
    effect_size: float = EFFECT_SIZE
    recommendations: list[float] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def interval(self) -> tuple[float, float]:
        """(min, max) over the pilot seeds of the per-seed recommendations, in setups per
        condition; NaN when no pilot gave one."""
        found = [r for r in self.recommendations if math.isfinite(r)]
        return (min(found), max(found)) if found else (math.nan, math.nan)

    @property
    def recommended(self) -> float:
        """The setups per condition recommended: the interval's upper end (NaN if none)."""
        return self.interval[1]


def family_size(config: ExperimentConfig) -> tuple[int, int]:
    """(tests in the confirmatory family, tests in all) of a run of ``config``."""
    k = len(config.conditions)
    pairs = k - 1 if config.comparisons.baseline else k * (k - 1) // 2
    lineups = len(config.lineups)
    tested = len(config.comparisons.metrics)
    primary = len(config.comparisons.primary) or tested
    return lineups * primary * pairs, lineups * tested * pairs


def derive_pilot_seeds(seed: int, n: int) -> list[int]:
    """The master seeds of ``n`` pilots of a config whose seed is ``seed``: pilot ``i`` gets
    ``numpy.random.SeedSequence([seed, i]).generate_state(1)[0]`` (a 32-bit integer), so the
    pilots of nearby config seeds share no setups and no dice."""
    return [int(np.random.SeedSequence([seed, i]).generate_state(1)[0]) for i in range(n)]


def setups_for_effect_size(
    d: float,
    between: float,
    within: float,
    games_per_setup: float,
    *,
    alpha: float,
    power: float = POWER,
) -> tuple[int, float]:
    """Setups per condition for a two-sided unpaired t-test on setup means at level ``alpha``
    to detect a standardised difference ``d`` with probability ``power``, and that difference
    in the metric's unit.

    ``d`` is Cohen's d on setup means: the difference of two conditions' means over the standard
    deviation of one setup mean, ``sqrt(between + within / games_per_setup)`` (``between`` and
    ``within`` the variance components in squared metric units, ``games_per_setup`` games per
    setup). The setups come from :func:`ludolab.research.stats.power.setups_needed` (statsmodels'
    t-test power) and depend on ``d``, ``alpha`` and ``power`` only; the raw difference grows
    with either variance. ValueError when ``d`` or that standard deviation is not positive.
    """
    sd = math.sqrt(between + within / games_per_setup)
    difference = d * sd
    return setups_needed(difference, sd, alpha=alpha, power=power), difference


def plan_experiment(
    config_path: str | Path,
    *,
    overrides: Sequence[str] = (),
    pilot_setups: int = 20,
    pilot_games: int = 4,
    pilot_seeds: int = PILOT_SEEDS,
    workers: int = 1,
    effect_size: float = EFFECT_SIZE,
    quiet: bool = True,
) -> Plan:
    """Run ``pilot_seeds`` pilots of the config and estimate time, detectable differences and
    the setups per condition to play (see the module docstring). ConfigError for a bad config
    or override, as for a run; ValueError for fewer than 1 pilot."""
    if pilot_seeds < 1:
        raise ValueError(f"need at least 1 pilot seed, got {pilot_seeds}")
    config = load_experiment(config_path, overrides)
    setups = min(config.setups, pilot_setups)
    # At least two games per setup, even for a config that plays one: the pilot must separate
    # the setups' variance from the games' to size any games per setup (it sizes the config's).
    games = max(2, min(config.games_per_setup, pilot_games))
    seeds = derive_pilot_seeds(config.seed, pilot_seeds)
    m, _ = family_size(config)
    level = config.comparisons.alpha / max(m, 1)
    margins = {metric_column(k): v for k, v in config.comparisons.margins.items()}
    primary = {metric_column(x) for x in config.comparisons.primary}
    in_family = {
        metric_column(x) for x in (config.comparisons.primary or config.comparisons.metrics)
    }
    basis = "margins" if any(k in margins for k in in_family) else "effect size"
    frames, times, notes = [], [], []
    for seed in seeds:
        described = get_game(config.game)
        pilot = [
            *overrides,
            f"seed={seed}",
            f"{described.setups_key}={setups}",
            f"{described.games_per_setup_key}={games}",
        ]
        with tempfile.TemporaryDirectory(prefix="ludolab-plan-") as tmp:
            result = run_experiment(
                config_path, out=tmp, workers=1, analyse=False, quiet=quiet, overrides=pilot
            )
            data = load_run(result.path)
            prov = json.loads((result.path / "provenance.json").read_text())
        setup_time = sum(
            s["seconds"] / max(s["count"], 1) * config.setups for s in data.state.get("setups", [])
        )
        per_game = float(prov.get("play_seconds") or 0.0) / max(len(data.per_game), 1)
        times.append((setup_time, per_game * config.n_games / workers))
        frame, constant = _pilot_rows(config, data, level, margins, effect_size)
        frames.append(frame.assign(seed=seed))
        notes += [f"{n} (pilot seed {seed})" for n in constant]
    pilots = pd.concat(frames, ignore_index=True)
    pilots["family"] = [
        ("primary" if m_ in primary else "exploratory") if primary else "all"
        for m_ in pilots["metric"]
    ]
    table = _over_pilots(config, pilots, level, effect_size)
    family = pilots[pilots["family"] != "exploratory"]
    if basis == "margins":
        family = family[family["margin"].notna()]
    per_seed = family.groupby("seed", sort=False)["setups_needed"].max()
    recommendations = [float(per_seed.get(seed, math.nan)) for seed in seeds]
    return Plan(
        config,
        m,
        setups,
        games,
        float(np.mean([t[0] for t in times])),
        float(np.mean([t[1] for t in times])),
        workers,
        table,
        pilots.drop(columns=["sd_between", "sd_within", "between", "within", "icc"]),
        seeds,
        basis,
        effect_size,
        recommendations,
        list(dict.fromkeys(notes)),
    )


def _pilot_rows(
    config: ExperimentConfig,
    data: RunData,
    level: float,
    margins: dict[str, float],
    effect_size: float,
) -> tuple[pd.DataFrame, list[str]]:
    """One pilot's row per lineup and tested metric (see :attr:`Plan.pilots`), and the
    metrics constant in it."""
    rows, constant = [], []
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
            between = vc.between_upper(CONFIDENCE)
            sd = vc.setup_mean_sd(config.games_per_setup, between=between)
            margin = margins.get(metric, math.nan)
            needed = effect = math.nan
            if math.isfinite(sd) and sd > 0:
                needed, effect = setups_for_effect_size(
                    effect_size, between, vc.within, config.games_per_setup, alpha=level
                )
                if math.isfinite(margin):
                    needed = setups_needed(margin, sd, alpha=level, power=POWER)
            elif math.isfinite(sd) and sd == 0:
                constant.append(f"{lineup} / {metric}: constant in the pilot")
            rows.append(
                {
                    "lineup": lineup,
                    "metric": metric,
                    "unit": game_unit(config.game, metric),
                    "between": vc.between,
                    "within": vc.within,
                    "sd_between": math.sqrt(vc.between) if vc.between >= 0 else math.nan,
                    "sd_within": math.sqrt(vc.within) if vc.within >= 0 else math.nan,
                    "icc": vc.icc,
                    "sd_setup_mean": sd,
                    "mde": minimum_detectable_difference(
                        sd, config.setups, config.setups, alpha=level, power=POWER
                    ),
                    "effect": effect,
                    "margin": margin,
                    "setups_needed": needed,
                }
            )
    return pd.DataFrame(rows), constant


def _over_pilots(
    config: ExperimentConfig, pilots: pd.DataFrame, level: float, effect_size: float
) -> pd.DataFrame:
    """:attr:`Plan.table` from :attr:`Plan.pilots` (with its variance columns)."""
    keys = ["lineup", "metric"]
    g = pilots.groupby(keys, sort=False)
    table = g[["family", "unit", "margin"]].first()
    between, within = g["between"].mean(), g["within"].mean()
    table["sd_between"] = np.sqrt(between)
    table["sd_within"] = np.sqrt(within)
    total = between + within
    table["icc"] = (between / total).where(total > 0)
    table["sd_setup_mean"] = g["sd_setup_mean"].max()
    table["mde"] = [
        minimum_detectable_difference(sd, config.setups, config.setups, alpha=level, power=POWER)
        for sd in table["sd_setup_mean"]
    ]
    table["effect"] = effect_size * table["sd_setup_mean"]
    table["needed_low"] = g["setups_needed"].min()
    table["setups_needed"] = g["setups_needed"].max()
    return table.reset_index()


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.1f} min"
    return f"{seconds / 3600:.1f} h"


def _with_unit(value: float, unit: str) -> str:
    """``value`` to 3 significant digits, with its unit when that is a plain unit."""
    if math.isnan(value):
        return "—"
    return f"{value:.3g} {unit}".strip() if "[" not in unit and unit != "count" else f"{value:.3g}"


def _span(low: float, high: float) -> str:
    if math.isnan(high):
        return "—"
    return f"{int(high)}" if low == high else f"{int(low)}–{int(high)}"


def plan_text(plan: Plan) -> str:
    """The plan for the terminal."""
    c = plan.config
    kind = c.setup_kind
    one = get_game(c.game).setup_noun
    key = get_game(c.game).setups_key
    _, total = family_size(c)
    n_seeds = len(plan.seeds)
    alpha_m = f"alpha / m = {c.comparisons.alpha}/{plan.family_size}"
    d = f"{plan.effect_size:g}"
    lines = [
        f"{c.name}: {len(c.conditions)} conditions x {c.setups} {kind} x {c.games_per_setup} "
        f"games per {one}, over {len(c.lineups)} lineup(s) and their seat rotations: "
        f"{c.n_games:,} games.",
        f"Pilots: {n_seeds} x ({plan.pilot_setups} {kind} x {plan.pilot_games} games per "
        f"condition), seeds {', '.join(map(str, plan.seeds))} "
        f"(numpy SeedSequence([{c.seed}, i]).generate_state(1)[0], i = 0..{n_seeds - 1}, from "
        f"the config's seed {c.seed}; change it with --set seed=N).",
        f"Estimated time (mean over the pilots): {kind} {_duration(plan.setup_seconds)}, games "
        f"{_duration(plan.play_seconds)} on {plan.workers} worker(s).",
        f"The report's family: {plan.family_size} test(s) of {total}; minimum detectable "
        f"difference at 80% power and {alpha_m}, for {c.setups} {kind} per condition "
        f"(unpaired: conservative for paired designs; sd and MDE: the largest over the pilots):",
        "",
    ]
    table = plan.table
    columns = {
        "lineup": table["lineup"],
        "metric": table["metric"],
        "family": table["family"],
        "ICC": table["icc"].map(lambda v: f"{v:.2f}"),
        f"sd of {with_article(one)} mean": table["sd_setup_mean"].map(lambda v: f"{v:.3g}"),
        "MDE": [_with_unit(v, u) for v, u in zip(table["mde"], table["unit"], strict=True)],
    }
    if plan.basis == "margins":
        columns["margin"] = table["margin"].map(lambda v: "—" if math.isnan(v) else f"{v:g}")
        columns[f"{kind} needed"] = [
            _span(lo, hi) if math.isfinite(m) else "—"
            for lo, hi, m in zip(
                table["needed_low"], table["setups_needed"], table["margin"], strict=True
            )
        ]
    else:
        columns[f"d = {d} is"] = [
            _with_unit(v, u) for v, u in zip(table["effect"], table["unit"], strict=True)
        ]
    lines.append(pd.DataFrame(columns).to_string(index=False))
    low, high = plan.interval
    over = (
        f"over the {n_seeds} pilot seeds the per-seed recommendations ranged "
        f"{low:.0f}–{high:.0f} (min–max); recommended: the upper end"
    )
    lines.append("")
    if math.isnan(high):
        lines.append("No recommendation: no metric of the family varied in the pilots.")
    elif plan.basis == "margins":
        lines.append(
            f"Recommended: {key} = {int(high)} per condition (now {c.setups}): the most any "
            f"declared margin of the family needs for 80% power, two-sided, at {alpha_m}; "
            f"{over}."
        )
    else:
        lines += [
            f"Recommended: {key} = {int(high)} per condition (now {c.setups}), to detect a "
            f"standardised difference of Cohen's d = {d} between two conditions' {one} "
            f"means with 80% power, two-sided, at {alpha_m}; {over}.",
            f"Here d is in standard deviations of {with_article(one)} mean, sqrt(var_between + "
            f"var_within / g) with g = {c.games_per_setup} games per {one} (the between-{one} "
            f"variance at its {CONFIDENCE:.0%} upper bound); as d is relative to that sd, the "
            f"{kind} it needs do not depend on the pilot. Column 'd = {d} is' gives it "
            "in each metric's unit.",
            "To plan on a raw-unit difference instead, declare the smallest difference that "
            "matters per metric (in its unit) under [comparisons], e.g.: "
            f"{_margin_example(plan)}",
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


def _margin_example(plan: Plan) -> str:
    """A one-line TOML margin for the first metric of the family, at its ``d`` in raw units."""
    c = plan.config
    name = (c.comparisons.primary or c.comparisons.metrics)[0]
    rows = plan.table[plan.table["metric"] == metric_column(name)]
    value = float(rows["effect"].max()) if len(rows) else math.nan
    shown = repr(float(f"{value:.2g}")) if math.isfinite(value) and value > 0 else "1.0"
    return f'margins = {{ "{name}" = {shown} }}'
