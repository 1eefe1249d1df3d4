"""What every paper figure shares: the column widths and palette, the paper style, metric labels,
saving as PDF and PNG, and the helpers that order conditions, size axes and place legends and
points."""

from __future__ import annotations

import contextlib
import math
import os
import re
import warnings
from collections.abc import Hashable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import matplotlib
import numpy as np
import pandas as pd
import seaborn as sns
from cycler import cycler
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator
from scipy import stats as st

from ludolab import games
from ludolab.research.metrics.registry import METRICS, short_unit
from ludolab.research.plots.style import current_style
from ludolab.research.stats.compare import check_columns, condition_order

ONE_COLUMN: float = 3.3
"""Width in inches of a figure spanning one column of a two-column paper (3.3 in: the column
of IEEE and ACM double-column templates, within Springer's and Elsevier's)."""


TWO_COLUMN: float = 7.0
"""Width in inches of a figure spanning the full text width."""


FORMATS: tuple[str, ...] = ("pdf", "png")
"""What :func:`save_figure` writes by default, in this order."""


PNG_DPI: int = 300


PALETTE: str = "colorblind"
"""The seaborn palette every figure uses."""


WIN_RATE = re.compile(r"^win_rate_(\d+)$")


def paper_rc(font_scale: float | None = None) -> dict[str, Any]:
    """The rcParams of the paper style (see :func:`paper_style`), as a dict; ``font_scale``
    defaults to the current :class:`~ludolab.research.plots.style.FigureStyle`'s."""
    if font_scale is None:
        font_scale = current_style().font_scale
    rc: dict[str, Any] = {}
    rc.update(sns.axes_style("ticks"))
    rc.update(sns.plotting_context("paper", font_scale=font_scale))
    rc.update(
        {
            "axes.prop_cycle": cycler(color=sns.color_palette(PALETTE)),
            "pdf.fonttype": 42,  # TrueType (Type 42), not Type 3
            "ps.fonttype": 42,
            "svg.fonttype": "none",
            "font.family": "sans-serif",
            "font.sans-serif": ["DejaVu Sans", "Arial", "Helvetica", "sans-serif"],
            "mathtext.fontset": "dejavusans",
            "figure.dpi": 100,
            "savefig.dpi": PNG_DPI,
            "savefig.facecolor": "white",
            "figure.facecolor": "white",
            "axes.spines.top": False,
            "axes.spines.right": False,
            "legend.frameon": False,
            "errorbar.capsize": 2.0,
        }
    )
    return rc


@contextlib.contextmanager
def paper_style(font_scale: float | None = None) -> Iterator[dict[str, Any]]:
    """Within the block, matplotlib draws in the paper style; rcParams are restored after.

    Seaborn ``ticks`` style and ``paper`` context (scaled by ``font_scale``), the
    ``colorblind`` palette as the colour cycle, DejaVu Sans, and ``pdf.fonttype`` =
    ``ps.fonttype`` = 42 so PDF/PS files embed TrueType fonts. Yields the rc dict applied.
    """
    rc = paper_rc(font_scale)
    with matplotlib.rc_context(rc):
        yield rc


def condition_palette(conditions: Sequence[Hashable]) -> dict[Hashable, tuple[float, ...]]:
    """One colour of the colour-blind palette per condition, in order (cycling after 10)."""
    colours = sns.color_palette(PALETTE, max(len(conditions), 1))
    return {c: colours[i] for i, c in enumerate(conditions)}


def metric_label(column: str) -> str:
    """An axis label for a metric column: its name in words and its unit from
    :data:`ludolab.research.metrics.METRICS` (left out when longer than 12 characters);
    ``<metric>_mean`` of a known metric reads "mean <metric>"; other columns (board features)
    are their name in words."""
    words = column.replace("_", " ")
    if column.endswith("_mean") and metric_of(column[: -len("_mean")]) is not None:
        return "mean " + metric_label(column[: -len("_mean")])
    meta = metric_of(column)
    if meta is None:
        return words
    unit = short_unit(meta.unit)
    if not unit or len(unit) > 12 or unit in ("bool", "as the metric") or unit in words.split():
        return words
    return f"{words} ({unit})"


def metric_of(column: str) -> Any:
    own = [f"{game}.{column}" for game in games.names()]
    for key in (column, *own, f"condition.{column}"):
        if key in METRICS:
            return METRICS[key]
    return None


def save_figure(
    fig: Figure,
    path: str | Path,
    formats: Sequence[str] = FORMATS,
    *,
    dpi: int = PNG_DPI,
) -> list[Path]:
    """Write ``fig`` as ``<path>.pdf`` and ``<path>.png`` (``formats``); return the paths.

    ``path`` is given without a suffix (a trailing ``.pdf``/``.png``/``.svg`` is dropped).
    Every file is first written to a temporary file in the target directory; only when all
    formats have rendered are they renamed into place, so an error leaves no file (nor any
    temporary) behind. Saved in :func:`paper_style` (TrueType fonts in the PDF), with a white
    background, ``dpi`` for the PNG, and no creation date in the PDF (reproducible bytes).
    """
    formats = [f.lower().lstrip(".") for f in formats]
    bad = [f for f in formats if f not in ("pdf", "png", "svg")]
    if bad or not formats:
        raise ValueError(f"cannot save figures as {bad or formats}; use pdf, png or svg")
    path = Path(path)
    if path.suffix.lower() in (".pdf", ".png", ".svg"):
        path = path.with_suffix("")
    path.parent.mkdir(parents=True, exist_ok=True)
    targets = [path.with_name(f"{path.name}.{fmt}") for fmt in formats]
    temps = [t.with_name(f".{t.name}.{os.getpid()}.partial") for t in targets]
    metadata = {"pdf": {"CreationDate": None}, "png": None, "svg": {"Date": None}}
    try:
        with paper_style():
            for fmt, tmp in zip(formats, temps, strict=True):
                with tmp.open("wb") as fh:
                    fig.savefig(fh, format=fmt, dpi=dpi, facecolor="white", metadata=metadata[fmt])
        for tmp, target in zip(temps, targets, strict=True):
            os.replace(tmp, target)
    finally:
        for tmp in temps:
            tmp.unlink(missing_ok=True)
    return targets


def ordered_conditions(
    df: pd.DataFrame, by: str, order: Sequence[Hashable] | None
) -> tuple[pd.DataFrame, list[str]]:
    """A copy of ``df`` restricted to the ordered conditions, with ``by`` as strings (seaborn
    treats them as categories), and the ordered condition labels."""
    check_columns(df, by)
    conds = condition_order(df, by, order)
    if not conds:
        raise ValueError(f"no conditions in column {by!r}")
    out = df[df[by].isin(conds)].copy()
    labels = [str(c) for c in conds]
    out[by] = pd.Categorical(out[by].map(str), categories=labels)
    return out, labels


def new_figure(
    width: float, height: float, *, constrained: bool = True, scale_height: bool = True
) -> Figure:
    """A pyplot-free figure (rendered with Agg when saved); ``height`` (inches, as the paper
    style draws it) is scaled by the current style unless ``scale_height`` is False (a height
    that follows from the width, as the boards' aspect)."""
    if scale_height:
        height *= current_style().height_scale
    return Figure(figsize=(width, height), layout="constrained" if constrained else None)


def finish_figure(fig: Figure, title: str | None = None) -> Figure:
    """Title the figure, then lay out and draw once inside the style, so lazily created artists
    (ticks) get it too. The title heads the figure's legend when it has one above the plot
    (a separate title there would collide with it), else it stands small above the plot."""
    if title:
        if fig.legends:
            legend = fig.legends[0]
            own = legend.get_title().get_text()
            legend.set_title(f"{title}; {own}" if own else title, prop={"size": "small"})
        else:
            fig.suptitle(title, fontsize="small")
    fig.draw_without_rendering()
    return fig


def integer_ticks(ax: Axes, values: pd.Series | np.ndarray) -> None:
    """Whole-number ticks on the x axis when every value is a whole number (a parameter, pips):
    no tick at 11.25 between two integers."""
    if not whole_numbers(values):
        return
    v = np.asarray(values, dtype=float)
    v = v[np.isfinite(v)]
    lo, hi = ax.get_xlim()
    if math.floor(hi) - math.ceil(lo) < 1:  # under two whole numbers in view: widen to two
        first = math.floor(min(lo, v.min()))
        ax.set_xlim(first - 0.2, max(math.ceil(max(hi, v.max())), first + 1) + 0.2)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))


def constant_view(value: float, whole: bool) -> tuple[float, float]:
    """The x limits of an axis whose data are one ``value``: wide enough to read as a single
    value, not matplotlib's sliver (±5%, ticks at 7.9, 8.0, 8.1 for a score of 8): at least one
    whole number either side of a whole ``value``, and 10% of it either side in any case."""
    half = max(0.1 * abs(value), 1.0 if whole else (0.1 if value == 0 else 0.0))
    return value - half, value + half


def whole_numbers(values: pd.Series | np.ndarray) -> bool:
    v = np.asarray(values, dtype=float)
    v = v[np.isfinite(v)]
    return bool(v.size) and bool(np.all(v == np.round(v)))


def spread_on_axis(centres: Sequence[float], values: pd.Series | np.ndarray) -> np.ndarray:
    """:func:`spread_coincident` for group means ``centres`` drawn on an axis of ``values`` (the
    rows behind them): a whole-number axis spans at least one unit (see ``integer_ticks``)."""
    span = float(np.ptp(np.asarray(centres, dtype=float))) if len(centres) else 0.0
    if whole_numbers(values):
        span = max(span, 1.0)
    return spread_coincident(centres, span)


def spread_coincident(xs: Sequence[float], span: float, step: float = 0.035) -> np.ndarray:
    """Offsets (shape (len(xs),), in x units) that spread points closer than ``step * span``
    apart symmetrically about their mean x, so that their intervals do not hide each other;
    zeros where points are apart. ``span`` is the axis's data range (1 when it is 0)."""
    xs = np.asarray(xs, dtype=float)
    gap = step * (span if span > 0 else 1.0)
    offsets = np.zeros(xs.size)
    order = np.argsort(xs, kind="stable")
    cluster: list[int] = []
    for i in [*order, -1]:
        if i >= 0 and (not cluster or xs[i] - xs[cluster[-1]] < gap):
            cluster.append(int(i))
            continue
        if len(cluster) > 1:
            offsets[cluster] = (np.arange(len(cluster)) - (len(cluster) - 1) / 2) * gap
        cluster = [int(i)] if i >= 0 else []
    return offsets


def is_sequence_column(col: pd.Series) -> bool:
    first = col.dropna()
    return bool(len(first)) and isinstance(first.iloc[0], list | tuple | np.ndarray)


def mean_ci(values: np.ndarray, confidence: float) -> tuple[float, float, float]:
    """Mean and its t-based confidence interval (NaN ends with fewer than 2 values)."""
    v = values[np.isfinite(values)]
    if v.size == 0:
        return math.nan, math.nan, math.nan
    m = float(v.mean())
    if v.size < 2:
        return m, math.nan, math.nan
    half = float(st.t.ppf(0.5 + confidence / 2, v.size - 1) * v.std(ddof=1) / math.sqrt(v.size))
    return m, m - half, m + half


@contextlib.contextmanager
def quiet_seaborn() -> Iterator[None]:
    """Silence seaborn 0.13's use of Matplotlib's deprecated ``boxplot(vert=...)`` (3.11+)."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=r"vert: bool was deprecated")
        yield


def palette_for(labels: list[str], palette: Mapping[Hashable, Any] | None) -> dict[str, Any]:
    """Colours by condition label: ``palette`` (keys are conditions or their str) for the
    conditions it names; the rest get :func:`condition_palette` of the labels *sorted*, so a
    condition keeps its colour across tables whatever their row order."""
    auto = condition_palette(sorted(labels))
    if palette is None:
        return auto
    given = {str(k): v for k, v in palette.items()}
    return {lab: given.get(lab, auto[lab]) for lab in labels}


def top_legend(fig: Figure, ax: Axes, n: int) -> None:
    """The axes' legend above the plot, across the figure (constrained layout makes room)."""
    handles, labels = ax.get_legend_handles_labels()
    if handles:
        # three columns of long labels ("balanced-symbols (n=1400)") overrun a one-column figure
        per_row = 3 if max(len(lab) for lab in labels) <= 18 else 2
        # rows as full as each other: a legend fills column by column, so 4 entries in 3
        # columns would be 2 + 1 + 1, a grid with holes
        rows = math.ceil(min(n, len(handles)) / per_row)
        fig.legend(
            handles,
            labels,
            loc="outside upper center",
            ncol=math.ceil(min(n, len(handles)) / rows),
            fontsize="x-small",
            handletextpad=0.3,
            columnspacing=1.0,
        )


def auto_width(n_conditions: int) -> float:
    style = current_style()
    return style.one_column if n_conditions <= 4 else style.two_column
