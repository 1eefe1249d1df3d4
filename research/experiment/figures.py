"""The figures of a run (``ludolab plot RUN``): one set per lineup, in the paper style.

Each figure is saved as ``figures/<name>.pdf`` and ``.png`` by
:func:`ludolab.research.plots.figures.save_figure`; :func:`plot_run` returns them with captions for
the report, and a sentence for each figure it left out because the run cannot fill it (a trend
across conditions needs the conditions at :data:`MIN_TREND_POSITIONS` distinct x values or
more). A distribution a box or violin would hide (few distinct values, or most games at one
value) is drawn as counts or as a strip of the games, and its caption says which.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")  # files only; a run may be on a machine without a display

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from ludolab import games as registry  # noqa: E402
from ludolab.research.experiment.run_data import RunData, tested_metrics  # noqa: E402
from ludolab.research.experiment.trends import sweeps  # noqa: E402
from ludolab.research.metrics.registry import game_unit, label  # noqa: E402
from ludolab.research.plots.figure_kit import whole_numbers  # noqa: E402
from ludolab.research.plots.figures import (  # noqa: E402
    DistributionForm,
    distribution_form,
    dose_response,
    length_distributions,
    metric_vs_tightness,
    save_figure,
    score_distributions,
    spread_on_axis,
    win_rates_by_seat,
)
from ludolab.research.plots.style import FigureStyle, figure_style, style_from_table  # noqa: E402

TIGHTNESS_COLUMN = "tightness"

MIN_TREND_POSITIONS = 3
"""A metric-against-tightness figure is drawn only when the conditions sit at this many distinct
x values or more: through two points any line fits, and the two conditions' difference is
already in the comparisons."""


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


class RunFigures(list[RunFigure]):
    """:func:`plot_run`'s figures, in the report's order (a list), and ``left_out``: one
    sentence per kind of figure not drawn, saying why (for the report's figure list)."""

    def __init__(self, figures: list[RunFigure] | None = None, left_out: list[str] | None = None):
        super().__init__(figures or [])
        self.left_out: list[str] = list(left_out or [])


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


def parameter_label(game: str, condition: dict[str, Any]) -> str:
    """An axis label for a sweep's parameter, with what it counts: "intersection-cap max
    (pips)", "vp to win (VP), rule option". ``condition`` is one of the sweep's conditions
    from the resolved config (its ``sweep_parameter``, ``constraints`` and ``params``)."""
    parameter = str(condition["sweep_parameter"])
    if parameter.startswith("options."):
        name = parameter.removeprefix("options.")
        unit = registry.get(game).option_units.get(name, "")
        return f"{name.replace('_', ' ')}{_unit_suffix(unit)}, rule option"
    cname, _, pname = parameter.rpartition(".")
    return f"{cname} {pname.replace('_', ' ')}{_unit_suffix(_constraint_unit(game, condition))}"


def _constraint_unit(game: str, condition: dict[str, Any]) -> str:
    """What the swept constraint parameter counts, read from the constraint as the condition
    sets it (a cap on pips or on numbers counts different things); "" when unknown."""
    return registry.get(game).parameter_unit(
        condition["constraints"], condition.get("params") or {}, condition["sweep_parameter"]
    )


def _unit_suffix(unit: str) -> str:
    return f" ({unit})" if unit else ""


def plot_run(
    data: RunData, conditions: pd.DataFrame, style: FigureStyle | None = None
) -> RunFigures:
    """Draw and save the run's figures under ``<run>/figures``; return them, with a sentence
    for each figure left out (its old files, from an earlier drawing, are removed).
    ``conditions`` is the run's :func:`~ludolab.research.experiment.analysis.condition_table`
    (no statistics needed); ``style`` defaults to the config's ``[report]`` (the paper style
    when it has none)."""
    chosen = style or style_from_table(data.config.get("report"))
    with figure_style(chosen):
        return _plot_run(data, conditions)


def _plot_run(data: RunData, conditions: pd.DataFrame) -> RunFigures:
    out = data.path / "figures"
    order = data.conditions
    figures = RunFigures()
    # a trend figure left out: its description -> (the x positions, the lineups, the files)
    skipped: dict[str, tuple[list[float], list[str], list[str]]] = {}

    def save(fig: Figure, name: str, caption: str) -> None:
        save_figure(fig, out / name)
        figures.append(RunFigure(out / name, caption))

    def trend(means: pd.DataFrame, x: str, what: str, lineup: str, name: str) -> bool:
        """Whether the conditions' means sit at enough distinct x values for ``what``'s
        figure; when not, it is noted as left out."""
        positions = _positions(means, x)
        if len(positions) >= MIN_TREND_POSITIONS:
            return True
        _, lineups, names = skipped.setdefault(what, (positions, [], []))
        lineups.append(lineup)
        names.append(name)
        return False

    described = registry.get(data.game)
    feature = described.key_feature
    tight = _tightness(data) if feature is None else None
    tags: set[str] = set()
    for lineup in data.lineups:
        tag = slug(lineup)
        while tag in tags:  # two names with the same slug must not share files
            tag += "_"
        tags.add(tag)
        games = data.per_game[data.per_game["lineup"] == lineup]
        conds = conditions[conditions["lineup"] == lineup]
        who = f"lineup {lineup!r} ({len(games)} games)"
        title = f"lineup: {lineup}"
        kind = data.config["setup_kind"]
        means = (
            games.groupby(["condition", "setup"], observed=True)[["turns", "score_spread"]]
            .mean()
            .reset_index()
        )
        points = f"points: the mean of each {kind[:-1]}'s games (the unit the comparisons test)"
        save(
            length_distributions(
                games,
                column="turns",
                order=order,
                unit_means=means,
                label=f"game length ({game_unit(data.game, 'turns')})",
                title=title,
            ),
            f"length-{tag}",
            f"Game length per condition, {who}; {points}; "
            + _distribution_note(distribution_form(games, "turns", order=order), "violin"),
        )
        save(
            win_rates_by_seat(conds, order=order, title=title),
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
                title=title,
            ),
            f"score-spread-{tag}",
            f"Final score spread (best minus worst seat) per condition, {who}; {points}; "
            + _distribution_note(distribution_form(games, "score_spread", order=order), "box"),
        )
        if feature is not None:
            kinds = described.setup_plural
            metric = described.key_metric
            boards = (
                games.groupby(["condition", "setup"], observed=True)[[metric, feature]]
                .mean()
                .reset_index()
            )
            name = f"{metric}-vs-{feature}-{tag}"
            words, _, unit = described.key_feature_label.partition(" (")
            said = "game length" if metric == "turns" else label(metric)
            what = f"{said} against the {described.key_feature_label}"
            if trend(boards, feature, what, lineup, name):
                save(
                    metric_vs_tightness(
                        boards,
                        feature,
                        metric,
                        order=order,
                        means=True,
                        xlabel=described.key_feature_label,
                        ylabel=f"{said} ({game_unit(data.game, metric)}):\nmean ± 95% CI over "
                        f"{kinds}",
                        title=title,
                    ),
                    name,
                    f"{said[0].upper()}{said[1:]} against the {words} of each condition's {kinds} "
                    f"({unit.rstrip(')')}; the condition's mean over its {kinds}): the mean of "
                    f"the {described.setup_noun} means with its 95% interval over {kinds}, "
                    f"{who}." + _spread_note(boards, feature),
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
            name = f"score-spread-vs-tightness-{tag}"
            what = "score spread against the deal sets' tightness"
            if trend(deals, TIGHTNESS_COLUMN, what, lineup, name):
                save(
                    metric_vs_tightness(
                        deals,
                        TIGHTNESS_COLUMN,
                        "score_spread",
                        order=order,
                        means=True,
                        xlabel="tightness: -log10 P(fair deal qualifies)",
                        ylabel=f"score spread ({game_unit(data.game, 'score_spread')}):\n"
                        "mean ± 95% CI over deals",
                        title=title,
                    ),
                    name,
                    f"Mean score spread against each deal set's tightness (-log10 of the share "
                    f"of fair deals that satisfy it): the mean of the deal means with its 95% "
                    f"interval over deals, {who}." + _spread_note(deals, TIGHTNESS_COLUMN),
                )
    by_name = {c["name"]: c for c in data.config["conditions"]}
    metrics = tested_metrics(data)
    units = {m: game_unit(data.game, m) for m in metrics}
    kind = data.config["setup_kind"]
    baseline_name = data.config["comparisons"].get("baseline")
    for sweep, members in sweeps(data).items():
        value_of = dict(members)
        first = by_name[members[0][0]]
        parameter = first["sweep_parameter"]
        baseline = value_of.get(baseline_name)
        xlabel = parameter_label(data.game, first)  # reads the constraint set: once a sweep
        marked = f"; the baseline, {baseline_name}, is marked" if baseline is not None else ""
        for lineup in data.lineups:
            means = data.by_setup[
                (data.by_setup["lineup"] == lineup)
                & data.by_setup["condition"].astype(str).isin(value_of)
            ].copy()
            means["value"] = means["condition"].astype(str).map(value_of)
            errors = "clustered by setup (paired)" if data.paired else "HC3"
            save(
                dose_response(
                    means,
                    "value",
                    metrics,
                    xlabel=xlabel,
                    units=units,
                    baseline=baseline,
                    cluster="setup" if data.paired else None,
                    title=f"lineup: {lineup}",
                    setup_kind=kind[:-1],
                ),
                f"sweep-{slug(sweep)}-{slug(lineup)}",
                f"Dose-response of sweep {sweep!r} ({parameter}), lineup {lineup!r}: at each "
                f"value, the mean of the {kind[:-1]} means (each over its games) with its 95% "
                f"interval over {kind}; the line and band: the linear trend the report tests "
                f"(OLS on the {kind[:-1]} means, {errors} errors) with its 95% band{marked}.",
            )
    example = described.example_figure({c: data.setups[c] for c in order}, 3)
    if example is not None:
        save(
            example,
            f"example-{described.setup_plural}",
            f"The first three {described.setup_plural} of each condition.",
        )
    for what, (positions, lineups, names) in skipped.items():
        for name in names:  # an earlier drawing's files must not outlive the figure
            for suffix in (".pdf", ".png"):
                (out / f"{name}{suffix}").unlink(missing_ok=True)
        figures.left_out.append(_left_out_note(what, positions, lineups, data.lineups))
    return figures


def _positions(means: pd.DataFrame, x: str) -> list[float]:
    """The distinct x values the conditions' points sit at (each condition's mean of ``x``
    over its setups). Values closer than the step of
    :func:`~ludolab.research.plots.figure_kit.spread_coincident` count once: the figure would
    draw them slightly apart only because they coincide."""
    centres = np.sort(means.groupby("condition", observed=True)[x].mean().dropna().to_numpy(float))
    if not centres.size:
        return []
    span = float(np.ptp(centres))
    if whole_numbers(means[x].dropna()):
        span = max(span, 1.0)
    gap = 0.035 * (span or 1.0)  # spread_coincident's step
    kept = [float(centres[0])]
    for before, c in zip(centres[:-1], centres[1:], strict=True):
        if c - before >= gap:
            kept.append(float(c))
    return kept


def _left_out_note(what: str, positions: list[float], lineups: list[str], every: list[str]) -> str:
    """The report's sentence for a trend figure not drawn."""
    which = "every lineup" if lineups == every else "lineup " + ", ".join(map(repr, lineups))
    at = " and ".join(f"{p:.3g}" for p in positions) or "no value"
    count = {0: "no", 1: "one", 2: "two"}.get(len(positions), str(len(positions)))
    return (
        f"Not drawn: {what}, for {which}. The conditions sit at {count} distinct "
        f"value{'s' * (len(positions) != 1)} of it ({at}); a trend needs at least "
        f"{MIN_TREND_POSITIONS}, and the conditions are compared in the tables above."
    )


def _distribution_note(form: DistributionForm, shape: str) -> str:
    """The end of a distribution's caption: what stands for the single games (the ``shape``,
    or what replaced it) and which conditions' games all have one value."""
    if form.kind == "counts":
        note = (
            "circles: the single games, one circle per value a condition's games take, its "
            "area the share of the condition's games at that value (key above the plot; the "
            f"games take few values, so a {shape} would hide them)"
        )
    elif form.kind == "strip":
        note = (
            "grey dots: the single games (most of a condition's games share one value, so a "
            f"{shape} would collapse to a line)"
        )
    else:
        note = f"{'boxes' if shape == 'box' else 'violins'}: the distribution of single games"
    if form.constant:
        each = "; ".join(f"every game of {c} had {v:g}" for c, v in form.constant.items())
        note += f". Constant: {each}"
    return note + "."


def _spread_note(means: pd.DataFrame, x: str) -> str:
    """The caption's note when conditions' points sit at one x and are spread apart to stay
    readable (as :func:`~ludolab.research.plots.figures.metric_vs_tightness` draws them)."""
    centres = means.groupby("condition", observed=True)[x].mean().dropna().to_numpy(float)
    if centres.size < 2 or not spread_on_axis(centres, means[x].dropna()).any():
        return ""
    return (
        " Conditions at (almost) the same x are drawn slightly apart, so that no interval "
        "hides another."
    )
