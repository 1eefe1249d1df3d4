"""Paper figures from games tables: lengths, win rate by seat, scores, metric vs tightness, boards.

Library behind ``ludolab plot RUN``. Every function takes tables (one row per game, as from
:func:`ludolab.research.metrics.per_game_metrics`, or one row per condition, as from
:func:`ludolab.research.metrics.condition_metrics`) and returns a :class:`matplotlib.figure.Figure`;
:func:`save_figure` writes it as a vector PDF (TrueType fonts embedded) and a PNG, atomically.

Style: :func:`paper_style` -- seaborn's ``ticks`` style and ``paper`` context, the colour-blind
palette, ``pdf.fonttype`` / ``ps.fonttype`` 42 (TrueType, as publishers ask) -- applied through
:func:`matplotlib.rc_context`, so nothing leaks into the caller's rcParams. Widths fit a paper:
:data:`ONE_COLUMN` (3.3 in) and :data:`TWO_COLUMN` (7 in), or the widths of the
:class:`~ludolab.research.plots.style.FigureStyle` in force (:func:`~ludolab.research.plots.style.
figure_style`; heights and fonts scale with it). A ``title`` (a run's figures name
their lineup there) is drawn small above the plot.

The style, the saving and the helpers every figure uses are in
:mod:`ludolab.research.plots.figure_kit`; this module holds the figures and names the whole API.

Figures are plain :class:`~matplotlib.figure.Figure` objects, never registered with pyplot: no
display or backend is needed (they render with Agg), nothing has to be closed, and
``plt.get_fignums()`` is unaffected. Conditions appear in the order of
:func:`ludolab.research.stats.condition_order` (``order`` if given, else category order, else first
appearance -- :func:`~ludolab.research.metrics.condition_metrics` sorts its rows, so pass the same
``order`` to every figure of a run). Each condition keeps one colour across figures: by default
:func:`condition_palette` of the sorted condition names, or an explicit ``palette``.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
import pandas as pd
import seaborn as sns
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch
from matplotlib.ticker import MaxNLocator

from ludolab.research.metrics.registry import short_unit
from ludolab.research.plots.figure_kit import (
    FORMATS,
    ONE_COLUMN,
    PALETTE,
    PNG_DPI,
    TWO_COLUMN,
    WIN_RATE,
    auto_width,
    condition_palette,
    constant_view,
    finish_figure,
    integer_ticks,
    is_sequence_column,
    mean_ci,
    metric_label,
    new_figure,
    ordered_conditions,
    palette_for,
    paper_rc,
    paper_style,
    quiet_seaborn,
    save_figure,
    spread_coincident,
    spread_on_axis,
    top_legend,
    whole_numbers,
)
from ludolab.research.plots.style import current_style
from ludolab.research.stats.compare import check_columns, numeric_column
from ludolab.research.stats.trend import linear_trend, trend_band

COUNTED_VALUES = 12
"""A distribution of at most this many distinct values is drawn as counts (see
:func:`distribution_form`): a score spread of whole VP takes a handful, and a box over them
collapses as soon as half the games share one value."""


@dataclass(frozen=True)
class DistributionForm:
    """How :func:`length_distributions` and :func:`score_distributions` draw a column (as
    :func:`distribution_form` decides it), so that a caption can say what the figure shows.

    ``kind``: ``"shape"`` (the violin or box asked for), ``"counts"`` (few distinct values:
    one circle per value and condition, its area the share of the condition's games there) or
    ``"strip"`` (many values but a box would collapse: every game as a small point).
    ``constant``: the conditions whose games all have one value, with that value."""

    kind: Literal["shape", "counts", "strip"]
    constant: dict[str, float] = field(default_factory=dict)


def distribution_form(
    table: pd.DataFrame,
    column: str,
    by: str = "condition",
    order: Sequence[Hashable] | None = None,
) -> DistributionForm:
    """How a per-game ``column`` can be drawn per condition without hiding its games.

    Counts when the games take at most :data:`COUNTED_VALUES` distinct values (a box or a
    violin over a few values is a line or a spike); a strip of the games when some condition
    has no spread between its quartiles (its box would be a line at the median, the games
    around it unseen); the shape otherwise."""
    check_columns(table, column)
    df, labels = ordered_conditions(table, by, order)
    values = numeric_column(df, column)
    finite = np.isfinite(values.to_numpy(dtype=float))
    df, values = df[finite], values[finite]
    constant = {
        lab: float(v.iloc[0])
        for lab in labels
        if len(v := values[df[by].astype(str) == lab]) and v.nunique() == 1
    }
    if values.nunique() <= COUNTED_VALUES:
        return DistributionForm("counts", constant)
    for lab in labels:
        v = values[df[by].astype(str) == lab].to_numpy(dtype=float)
        if v.size < 2 or np.percentile(v, 75) - np.percentile(v, 25) == 0:
            return DistributionForm("strip", constant)
    return DistributionForm("shape", constant)


def _count_axes(
    ax: Axes,
    df: pd.DataFrame,
    by: str,
    column: str,
    labels: list[str],
    palette: Mapping[str, Any],
) -> None:
    """One row per condition (the first on top): a circle at each value its games take, the
    circle's area the share of its games there; a key to the areas above the plot."""
    fig = ax.get_figure()
    assert fig is not None
    values = df[column].to_numpy(dtype=float)
    distinct = np.unique(values[np.isfinite(values)])
    lo, hi = (float(distinct.min()), float(distinct.max())) if distinct.size else (0.0, 1.0)
    # the mean gap between the values: a few values spread wide (money) keep readable circles,
    # where the smallest gap would shrink them all for two neighbours
    step = (hi - lo) / (distinct.size - 1) if distinct.size > 1 else 1.0
    # The widest circle fits between two values and two rows, measured on the figure's size
    # (the axes take about 70% of its width, and 40% of its height or more: the key and the
    # x label take the rest), in points.
    width_pt, height_pt = (fig.get_figwidth() * 0.7 * 72, fig.get_figheight() * 0.4 * 72)
    per_value = width_pt * step / (hi - lo + step)
    per_row = height_pt / len(labels)
    biggest = (0.9 * min(per_value, per_row)) ** 2  # marker size is an area in points^2
    for i, lab in enumerate(labels):
        x = df.loc[df[by].astype(str) == lab, column].to_numpy(dtype=float)
        x = x[np.isfinite(x)]
        if not x.size:
            continue
        at, n = np.unique(x, return_counts=True)
        share = n / n.sum()
        colour = palette[lab]
        # a floor on the size: a single game among thousands is still a visible dot
        ax.scatter(
            at,
            np.full(at.size, float(i)),
            s=np.maximum(share * biggest, 4.0),
            color=colour,
            alpha=0.55,
            edgecolors=[tuple(0.6 * c for c in colour[:3])],
            linewidths=0.5,
            zorder=2,
        )
    ax.set_yticks(range(len(labels)), labels)
    ax.set_ylim(len(labels) - 0.5, -0.5)  # the first condition on top, as in the shapes
    if distinct.size == 1:  # one value: an axis wide enough to read it as one
        ax.set_xlim(*constant_view(lo, whole_numbers(distinct)))
    else:
        ax.set_xlim(lo - 0.6 * step, hi + 0.6 * step)
    if whole_numbers(distinct):
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    # The key to the areas, above the plot (a Line2D's marker size is a diameter).
    key = [0.1, 0.5]
    fig.legend(
        handles=[
            Line2D(
                [],
                [],
                marker="o",
                linestyle="",
                markersize=math.sqrt(share * biggest),
                markerfacecolor="0.8",
                markeredgecolor="0.4",
                markeredgewidth=0.5,
                label=f"{share:.0%}",
            )
            for share in key
        ],
        title="circle area: share of games",
        loc="outside upper center",
        ncol=len(key),
        fontsize="x-small",
        title_fontsize="x-small",
        # room for the widest circle of the key beside its label (sizes in font sizes)
        handlelength=max(1.0, 1.1 * math.sqrt(max(key) * biggest) / 7.0),
        handleheight=max(0.7, 1.1 * math.sqrt(max(key) * biggest) / 7.0),
        handletextpad=0.4,
        columnspacing=1.4,
    )


def _distribution_axes(
    ax: Axes,
    df: pd.DataFrame,
    by: str,
    column: str,
    labels: list[str],
    kind: str,
    palette: Mapping[str, Any],
    seed: int,
    unit_means: pd.DataFrame | None = None,
    form: DistributionForm | None = None,
) -> None:
    """Conditions on the y axis, ``column`` on the x axis (violin/box + points, or ECDF; counts
    or a strip of the games when ``form`` says a shape would hide them).

    With ``unit_means`` (one row per setup: ``by`` and the setup's mean of ``column``), the
    points are those means, the unit the tests use, over the games' distribution."""
    common = {"data": df, "x": column, "y": by, "order": labels, "ax": ax}
    if kind == "ecdf":
        sns.ecdfplot(data=df, x=column, hue=by, hue_order=labels, palette=palette, ax=ax)
        ax.set_ylabel("share of games")
        return
    if kind not in ("violin", "box"):
        raise ValueError(f"kind must be 'violin', 'box' or 'ecdf', got {kind!r}")
    shown = "shape" if form is None else form.kind
    if shown == "counts":
        _count_axes(ax, df, by, column, labels, palette)
    elif shown == "strip":
        # every game, small and grey, under the setup means: no box to collapse
        rng = np.random.default_rng(seed + 1)
        for i, lab in enumerate(labels):
            x = df.loc[df[by].astype(str) == lab, column].to_numpy(dtype=float)
            x = x[np.isfinite(x)]
            y = i + rng.uniform(-0.25, 0.25, size=x.size)
            ax.scatter(x, y, s=2, color="0.55", alpha=0.35, linewidths=0, zorder=2)
        ax.set_yticks(range(len(labels)), labels)
        ax.set_ylim(len(labels) - 0.5, -0.5)
    elif kind == "violin":
        sns.violinplot(
            **common,
            hue=by,
            hue_order=labels,
            palette=palette,
            legend=False,
            dodge=False,  # hue is the category itself: each shape stays on its own tick
            orient="h",
            cut=0,
            inner="quart",
            linewidth=0.6,
            density_norm="width",
        )
    elif kind == "box":
        with quiet_seaborn():
            sns.boxplot(
                **common,
                hue=by,
                hue_order=labels,
                palette=palette,
                legend=False,
                dodge=False,  # as for the violins
                orient="h",
                width=0.6,
                linewidth=0.7,
                showfliers=False,
            )
    ax.set_ylabel("")
    if shown != "shape" and unit_means is None:
        return  # the circles or the strip already are the games
    rng = np.random.default_rng(seed)
    # Points on top, jittered by a seeded generator (seaborn's jitter uses the global one).
    source = df if unit_means is None else unit_means
    size, alpha = (3, 0.45) if unit_means is None else (9, 0.85)
    for i, lab in enumerate(labels):
        x = source.loc[source[by].astype(str) == lab, column].to_numpy(dtype=float)
        x = x[np.isfinite(x)]
        y = i + rng.uniform(-0.12, 0.12, size=x.size)
        ax.scatter(x, y, s=size, color="0.1", alpha=alpha, linewidths=0, zorder=3)
    ax.set_ylabel("")


def length_distributions(
    per_game: pd.DataFrame,
    by: str = "condition",
    column: str = "turns",
    *,
    order: Sequence[Hashable] | None = None,
    kind: Literal["violin", "box", "ecdf"] = "violin",
    palette: Mapping[Hashable, Any] | None = None,
    label: str | None = None,
    width: float | None = None,
    seed: int = 0,
    unit_means: pd.DataFrame | None = None,
    title: str | None = None,
) -> Figure:
    """Distribution of game length (``column``: ``turns`` or ``rounds``) per condition.

    ``kind="violin"`` (default) or ``"box"``: one horizontal violin/box per condition, top to
    bottom in ``order``, with the games as jittered points (jitter seeded by ``seed``; one
    :class:`~matplotlib.collections.PathCollection` per condition); ``"ecdf"``: one empirical
    CDF line per condition. When the table has a ``truncated`` column with any True (games cut
    off by the turn limit, drawn at that limit), a dashed vertical line marks the limit.
    ``palette`` maps conditions to colours (default: :func:`condition_palette` of the order),
    ``label`` overrides the x label. With ``unit_means`` (one row per setup: ``by`` and its
    mean ``column``) the points are the setup means, the unit the comparisons test, drawn over
    the games' distribution. Returns a one-axes figure ``width`` inches wide (default
    :data:`ONE_COLUMN` for up to 4 conditions, else :data:`TWO_COLUMN`).

    A violin or box that would hide the games (:func:`distribution_form`: few distinct values,
    or a condition with most games at one value) is not drawn: the games are drawn as counts
    (a circle per value, its area the share of the condition's games, with a key above) or as
    a strip of points.
    """
    return _distribution_figure(
        per_game,
        by,
        column,
        order,
        kind,
        palette,
        label,
        width,
        seed,
        "length",
        unit_means,
        title,
    )


def score_distributions(
    table: pd.DataFrame,
    by: str = "condition",
    column: str = "score_spread",
    *,
    order: Sequence[Hashable] | None = None,
    kind: Literal["violin", "box", "ecdf"] = "box",
    palette: Mapping[Hashable, Any] | None = None,
    label: str | None = None,
    width: float | None = None,
    seed: int = 0,
    unit_means: pd.DataFrame | None = None,
    title: str | None = None,
) -> Figure:
    """Distribution of a score per condition.

    A numeric per-game column (``score_spread``, ``winner_margin``, any per-game metric) is
    drawn as :func:`length_distributions` draws lengths (default ``kind="box"``; scores of
    few values are drawn as counts, as there). A column of per-seat sequences -- the games
    table's final scores, the record core's ``final_scores`` -- is
    drawn as one box per seat within each condition, the seats coloured and in a legend titled
    "seat" (``palette`` and ``kind`` do not apply). Returns a one-axes figure.
    """
    check_columns(table, column)
    if not is_sequence_column(table[column]):
        return _distribution_figure(
            table,
            by,
            column,
            order,
            kind,
            palette,
            label,
            width,
            seed,
            "score",
            unit_means,
            title,
        )
    df, labels = ordered_conditions(table, by, order)
    values = df[column].map(lambda v: [float(x) for x in v])
    long = pd.DataFrame(
        {
            by: np.repeat(df[by].to_numpy(), values.map(len).to_numpy()),
            "seat": [s for v in values for s in range(len(v))],
            column: [x for v in values for x in v],
        }
    )
    seats = [str(s) for s in sorted(long["seat"].unique())]
    long["seat"] = pd.Categorical(long["seat"].map(str), categories=seats)
    long[by] = pd.Categorical(long[by].astype(str), categories=labels)
    with paper_style():
        fig = new_figure(width or auto_width(len(labels)), 1.4 + 0.45 * len(labels))
        ax = fig.add_subplot()
        with quiet_seaborn():
            sns.boxplot(
                data=long,
                x=column,
                y=by,
                order=labels,
                hue="seat",
                hue_order=seats,
                palette=sns.color_palette(PALETTE, len(seats)),
                orient="h",
                width=0.75,
                linewidth=0.6,
                fliersize=1.5,
                legend=False,
                ax=ax,
            )
        handles = [
            Patch(facecolor=c, edgecolor="0.2", linewidth=0.5, label=s)
            for s, c in zip(seats, sns.color_palette(PALETTE, len(seats)), strict=True)
        ]
        fig.legend(
            handles=handles,
            title="seat",
            loc="outside upper center",
            ncol=len(seats),
            fontsize="x-small",
            title_fontsize="x-small",
            handlelength=1.0,
            columnspacing=1.0,
        )
        default = "final score" if column == "final_scores" else metric_label(column)
        ax.set_xlabel(label or default)
        ax.set_ylabel("")
        return finish_figure(fig, title)


def _distribution_figure(
    table: pd.DataFrame,
    by: str,
    column: str,
    order: Sequence[Hashable] | None,
    kind: str,
    palette: Mapping[Hashable, Any] | None,
    label: str | None,
    width: float | None,
    seed: int,
    what: str,
    unit_means: pd.DataFrame | None = None,
    title: str | None = None,
) -> Figure:
    check_columns(table, column)
    if kind not in ("violin", "box", "ecdf"):
        raise ValueError(f"kind must be 'violin', 'box' or 'ecdf', got {kind!r}")
    df, labels = ordered_conditions(table, by, order)
    df[column] = numeric_column(df, column)
    colours = palette_for(labels, palette)
    form = distribution_form(df, column, by, labels)
    with paper_style():
        height = 1.1 + 0.3 * len(labels) if kind != "ecdf" else 2.4
        if kind != "ecdf" and form.kind == "counts":
            height += 0.1 * len(labels)  # rows tall enough for a circle of most games
        fig = new_figure(width or auto_width(len(labels)), height)
        ax = fig.add_subplot()
        _distribution_axes(ax, df, by, column, labels, kind, colours, seed, unit_means, form)
        if what == "length" and "truncated" in df.columns and df["truncated"].astype(bool).any():
            limit = float(df.loc[df["truncated"].astype(bool), column].max())
            ax.axvline(limit, color="0.4", linestyle="--", linewidth=0.7, zorder=1)
        ax.set_xlabel(label or metric_label(column))
        if kind == "ecdf" and ax.get_legend() is not None:
            sns.move_legend(
                ax,
                "lower center",
                bbox_to_anchor=(0.5, 1.0),
                ncol=min(len(labels), 3),
                title=None,
                fontsize="x-small",
                frameon=False,
            )
        return finish_figure(fig, title)


def win_rates_by_seat(
    condition_table: pd.DataFrame,
    by: str = "condition",
    *,
    order: Sequence[Hashable] | None = None,
    palette: Mapping[Hashable, Any] | None = None,
    width: float | None = None,
    title: str | None = None,
) -> Figure:
    """Win rate of every seat per condition with its Wilson 95% interval, and the fair share.

    Reads the columns of :func:`ludolab.research.metrics.condition_metrics`: ``win_rate_<s>``,
    ``win_rate_<s>_low``, ``win_rate_<s>_high`` and, when present, ``n_players`` (seats of the
    condition; else the seats with a non-NaN rate) and ``n_decided`` (shown in the legend).
    Seats are on the x axis (0 moves first), conditions side by side within a seat, one
    :class:`~matplotlib.container.ErrorbarContainer` per condition (labelled with the condition)
    holding one point and one interval per seat of that condition. The fair share 1/n is a
    dashed grey line per distinct seat count n. The legend is above the plot.
    """
    seats = sorted(int(m.group(1)) for c in condition_table.columns if (m := WIN_RATE.match(c)))
    if not seats:
        raise KeyError("no win_rate_<s> columns: not a condition_metrics table")
    check_columns(condition_table, *(f"win_rate_{s}{x}" for s in seats for x in ("_low", "_high")))
    df, labels = ordered_conditions(condition_table, by, order)
    if df[by].duplicated().any():
        raise ValueError(f"more than one row per condition in column {by!r}")
    df = df.set_index(by).loc[labels]
    n_cond = len(labels)
    colours = palette_for(labels, palette)
    with paper_style():
        fig = new_figure(width or auto_width(n_cond), 2.5)
        ax = fig.add_subplot()
        span = min(0.6, 0.12 * n_cond)
        offsets = np.linspace(-span / 2, span / 2, n_cond) if n_cond > 1 else np.zeros(1)
        markers = ["o", "s", "D", "^", "v", "P", "X", "<", ">", "p"]
        fair: set[int] = set()
        for i, lab in enumerate(labels):
            row = df.loc[lab]
            if "n_players" in df.columns and pd.notna(row["n_players"]):
                n = int(row["n_players"])
            else:
                n = int(sum(pd.notna(row[f"win_rate_{s}"]) for s in seats))
            own = [s for s in seats if s < n]
            rate = np.array([row[f"win_rate_{s}"] for s in own], dtype=float)
            low = np.array([row[f"win_rate_{s}_low"] for s in own], dtype=float)
            high = np.array([row[f"win_rate_{s}_high"] for s in own], dtype=float)
            # clip: the Wilson ends can miss a rate of 0 or 1 by rounding
            yerr = np.clip(np.vstack([rate - low, high - rate]), 0.0, None)
            legend = lab
            if "n_decided" in df.columns and pd.notna(row["n_decided"]):
                legend = f"{lab} (n={int(row['n_decided'])})"
            ax.errorbar(
                np.asarray(own, dtype=float) + offsets[i],
                rate,
                yerr=yerr,
                fmt=markers[i % len(markers)],
                color=colours[lab],
                markersize=3.5,
                elinewidth=0.9,
                capsize=2.0,
                label=legend,
                zorder=3,
            )
            if n > 0:
                fair.add(n)
        for n in sorted(fair):
            ax.axhline(1.0 / n, color="0.5", linestyle="--", linewidth=0.8, zorder=1)
            ax.annotate(
                f"1/{n}",
                xy=(1.0, 1.0 / n),
                xycoords=("axes fraction", "data"),
                xytext=(2, 0),
                textcoords="offset points",
                va="center",
                fontsize="x-small",
                color="0.4",
            )
        ax.set_xticks(seats)
        ax.set_xlim(seats[0] - 0.5, seats[-1] + 0.5)
        ax.set_ylim(-0.02, max(ax.get_ylim()[1], 0.5))
        ax.set_xlabel("seat (0 moves first)")
        ax.set_ylabel("win rate (Wilson 95% CI)")
        top_legend(fig, ax, n_cond)
        return finish_figure(fig, title)


def metric_vs_tightness(
    table: pd.DataFrame,
    x: str,
    y: str,
    hue: str | None = "condition",
    *,
    order: Sequence[Hashable] | None = None,
    means: bool | None = None,
    confidence: float = 0.95,
    palette: Mapping[Hashable, Any] | None = None,
    xlabel: str | None = None,
    ylabel: str | None = None,
    width: float | None = None,
    seed: int = 0,
    join: bool = False,
    title: str | None = None,
) -> Figure:
    """A metric ``y`` against a numeric tightness ``x`` (a constraint's threshold, a board
    feature), coloured by ``hue`` (None: one group).

    ``means=False``: every row is a point (one scatter collection per ``hue`` group) and one
    least-squares line over all rows with its ``confidence`` band (bootstrap seeded by
    ``seed``, via :func:`seaborn.regplot`; no line when x is constant). ``means=True``: one
    point per group at the group's mean x, with the mean of y and its t-based ``confidence``
    interval (one :class:`~matplotlib.container.ErrorbarContainer` per group; no interval for a
    single-row group, e.g. from a condition table), joined in x order by a thin grey line only
    with ``join=True`` (conditions are categories: a line would suggest a trend between them).
    Group means closer in x than 3.5% of the axis are spread apart symmetrically
    (:func:`spread_coincident`), so that no interval hides another; the x values stay the data's
    otherwise. Whole-number x values (a threshold, a board's pips) get whole-number ticks.
    ``None`` (default) picks means when x takes one value within every group -- a tightness
    set per condition -- and points otherwise (a per-board feature). Rows with a missing x or
    y are dropped. Raises KeyError for a missing column, ValueError if no row is left.
    """
    check_columns(table, x, y)
    if hue is None:
        df = table.copy()
        hue = "_group"
        df[hue] = "all"
        labels = ["all"]
    else:
        df, labels = ordered_conditions(table, hue, order)
    df[x] = numeric_column(df, x)
    df[y] = numeric_column(df, y)
    df = df[np.isfinite(df[x]) & np.isfinite(df[y])]
    if df.empty:
        raise ValueError(f"no rows with both {x!r} and {y!r}")
    labels = [lab for lab in labels if (df[hue] == lab).any()]
    if means is None:
        means = bool((df.groupby(hue, observed=True)[x].nunique() <= 1).all())
    colours = palette_for(labels, palette)
    with paper_style():
        fig = new_figure(width or current_style().one_column, 2.6)
        ax = fig.add_subplot()
        if means:
            points = []
            for lab in labels:
                g = df[df[hue] == lab]
                m, lo, hi = mean_ci(g[y].to_numpy(), confidence)
                points.append((float(g[x].mean()), m, lo, hi, lab))
            shift = spread_on_axis([p[0] for p in points], df[x])
            for (px, m, lo, hi, lab), dx in zip(points, shift, strict=True):
                yerr = None if math.isnan(lo) else np.array([[m - lo], [hi - m]])
                ax.errorbar(
                    [px + dx],
                    [m],
                    yerr=yerr,
                    fmt="o",
                    color=colours[lab],
                    markersize=4,
                    capsize=2.0,
                    label=lab,
                    zorder=3,
                )
            if join:  # only for a real dose axis: a line through conditions implies a trend
                line = sorted(points, key=lambda p: p[0])
                ax.plot([p[0] for p in line], [p[1] for p in line], color="0.6", lw=0.7)
            default_y = metric_label(y)
            if len(df) > len(labels):  # some group averaged over several rows
                default_y += f", mean ± {confidence:.0%} CI"
        else:
            for lab in labels:
                g = df[df[hue] == lab]
                ax.scatter(g[x], g[y], s=6, color=colours[lab], alpha=0.6, linewidths=0, label=lab)
            if df[x].nunique() > 1:
                sns.regplot(
                    data=df,
                    x=x,
                    y=y,
                    scatter=False,
                    ci=round(confidence * 100),
                    seed=seed,
                    color="0.2",
                    line_kws={"linewidth": 1.0},
                    ax=ax,
                )
            default_y = metric_label(y)
        integer_ticks(ax, df[x])
        ax.set_xlabel(xlabel or metric_label(x))
        ax.set_ylabel(ylabel or default_y)
        if hue != "_group":
            top_legend(fig, ax, len(labels))
        return finish_figure(fig, title)


def dose_response(
    setup_means: pd.DataFrame,
    x: str,
    metrics: Sequence[str],
    *,
    xlabel: str | None = None,
    confidence: float = 0.95,
    units: Mapping[str, str] | None = None,
    baseline: float | None = None,
    cluster: str | None = None,
    title: str | None = None,
    setup_kind: str = "setup",
) -> Figure:
    """A sweep's dose-response: one panel per metric, the mean of the setup means at each value
    of ``x`` with its t-based ``confidence`` interval over setups, and the fitted linear trend
    with its ``confidence`` band: the fit the trend test makes (:func:`~ludolab.research.stats.
    trend.linear_trend` on the setup means; errors clustered by the ``cluster`` column, the
    setup index of paired designs, HC3 otherwise). ``setup_means`` has one row per setup (the
    unit the trend test uses) with columns ``x`` and the metrics; ``units`` names each metric's
    unit for its axis label; ticks sit at the swept values, the ``baseline`` value's marked
    "baseline". ``setup_kind`` names a setup in the legend ("board", "deal")."""
    check_columns(setup_means, x, *metrics, *([cluster] if cluster else []))
    n = len(metrics)
    cols = min(n, 3)
    rows = math.ceil(n / cols)
    with paper_style():
        style = current_style()
        fig = new_figure(style.two_column if cols > 1 else style.one_column, 2.1 * rows + 0.45)
        axes = fig.subplots(rows, cols, squeeze=False)
        for ax, metric in zip(axes.ravel(), metrics, strict=False):
            points = []
            for value, g in setup_means.groupby(x, sort=True):
                m, lo, hi = mean_ci(g[metric].to_numpy(dtype=float), confidence)
                points.append((float(value), m, lo, hi))
            xs = np.array([p[0] for p in points])
            ys = [p[1] for p in points]
            err = np.array(
                [
                    [0 if math.isnan(p[2]) else p[1] - p[2] for p in points],
                    [0 if math.isnan(p[3]) else p[3] - p[1] for p in points],
                ]
            )
            rows_used = setup_means[[x, metric, *([cluster] if cluster else [])]].dropna()
            fit = linear_trend(
                rows_used[x].to_numpy(float),
                rows_used[metric].to_numpy(float),
                None if cluster is None else rows_used[cluster].to_numpy(),
            )
            if fit is not None:
                grid = np.linspace(xs.min(), xs.max(), 50)
                line, low, high = trend_band(fit, grid, confidence)
                ax.fill_between(grid, low, high, color="0.85", linewidth=0, zorder=1)
                ax.plot(grid, line, color="0.35", lw=0.9, zorder=2, label="linear trend")
            ax.errorbar(
                xs, ys, yerr=err, fmt="o", color="C0", markersize=3.5, capsize=2.0, zorder=3
            )
            # the swept values, and only those; the baseline's tick says so (a mark on the
            # axis, where it cannot hide a point or an interval)
            ax.set_xticks(
                xs,
                [
                    f"{v:g}\nbaseline" if baseline is not None and v == baseline else f"{v:g}"
                    for v in xs
                ],
            )
            unit = short_unit((units or {}).get(metric, ""))
            label = metric.replace("_", " ")
            ax.set_ylabel(f"{label} ({unit})" if unit and len(unit) <= 14 else label)
            ax.set_xlabel(xlabel or x.replace("_", " "))
        for ax in axes.ravel()[n:]:
            ax.set_visible(False)
        fig.legend(
            handles=[
                Line2D(
                    [],
                    [],
                    color="C0",
                    marker="o",
                    markersize=3.5,
                    linestyle="",
                    label=f"mean of {setup_kind} means, {confidence:.0%} CI",
                ),
                Patch(
                    facecolor="0.85",
                    edgecolor="0.35",
                    linewidth=0.9,
                    label=f"linear trend, {confidence:.0%} band",
                ),
            ],
            loc="outside upper center",
            ncol=2,
            fontsize="x-small",
        )
        return finish_figure(fig, title)


__all__ = [
    "FORMATS",
    "ONE_COLUMN",
    "PALETTE",
    "COUNTED_VALUES",
    "PNG_DPI",
    "TWO_COLUMN",
    "DistributionForm",
    "condition_palette",
    "distribution_form",
    "dose_response",
    "length_distributions",
    "metric_label",
    "metric_vs_tightness",
    "paper_rc",
    "paper_style",
    "save_figure",
    "score_distributions",
    "spread_coincident",
    "spread_on_axis",
    "win_rates_by_seat",
]
