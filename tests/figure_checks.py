"""Checks that read a drawn figure's artists back: what a reader would see wrong, as code.

Each check returns a list of problems (empty when the figure passes), so a test can print them
all. They read positions and bounding boxes after a draw with matplotlib's Agg renderer.
"""

from __future__ import annotations

import re

import numpy as np
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.collections import PathCollection, PolyCollection
from matplotlib.container import ErrorbarContainer
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import PathPatch
from matplotlib.text import Text

# A unit in an axis label: "(player turns)", "(VP)", "(pips)", "(Wilson 95% CI)" for a share.
UNIT = re.compile(r"\([^()]+\)")


def _renderer(fig: Figure):
    """Agg, as the figure is saved (the run's figures are never given a pyplot canvas), with
    every artist placed and tick labels made."""
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    return canvas.get_renderer()


def shapes_off_their_ticks(ax: Axes, tolerance: float = 0.05, shapes: bool = True) -> list[str]:
    """A horizontal categorical plot: every violin (PolyCollection) and box (PathPatch) must be
    centred on a y tick, and every point collection must lie within half a category of one.
    ``shapes``: the plot should have violins or boxes (False: it has none, only points, as a
    distribution drawn as counts or as a strip of its games)."""
    ticks = np.asarray(ax.get_yticks(), dtype=float)
    problems = []
    drawn = [c for c in ax.collections if isinstance(c, PolyCollection)]
    drawn += [p for p in ax.patches if isinstance(p, PathPatch)]
    for shape in drawn:
        paths = shape.get_paths() if isinstance(shape, PolyCollection) else [shape.get_path()]
        for path in paths:
            ys = path.vertices[:, 1]
            if not ys.size:
                continue
            centre = (ys.min() + ys.max()) / 2
            if np.min(np.abs(ticks - centre)) > tolerance:
                problems.append(f"a shape centred at y={centre:.3f}, ticks at {ticks.tolist()}")
    for points in (c for c in ax.collections if isinstance(c, PathCollection)):
        ys = points.get_offsets()[:, 1]
        if ys.size:
            far = np.min(np.abs(ys[:, None] - ticks[None, :]), axis=1)
            if far.max() >= 0.5:
                problems.append(f"points {far.max():.2f} categories away from their tick")
    if shapes and not drawn:
        problems.append("no violin or box drawn")
    if not shapes and drawn:
        problems.append(f"{len(drawn)} violin(s) or box(es) drawn where none should be")
    if not shapes and not any(isinstance(c, PathCollection) for c in ax.collections):
        problems.append("no points drawn")
    return problems


def hidden_intervals(ax: Axes, closeness: float = 0.01) -> list[str]:
    """No two error bars drawn at (almost) one x with overlapping y ranges: one would hide the
    other. ``closeness`` is a share of the x axis's span."""
    bars = []
    for container in ax.containers:
        if not isinstance(container, ErrorbarContainer):
            continue
        _, _, lines = container.lines
        for collection in lines:
            for seg in collection.get_segments():
                (x0, y0), (x1, y1) = seg[0], seg[-1]
                if abs(x0 - x1) < 1e-12:  # a vertical interval
                    bars.append((x0, min(y0, y1), max(y0, y1)))
    lo, hi = ax.get_xlim()
    near = closeness * abs(hi - lo)
    problems = []
    for i, (xa, la, ha) in enumerate(bars):
        for xb, lb, hb in bars[i + 1 :]:
            if abs(xa - xb) < near and la <= hb and lb <= ha:
                problems.append(f"intervals at x={xa:.3g} and x={xb:.3g} overlap")
    return problems


def clipped_text(fig: Figure) -> list[str]:
    """Every visible, non-empty text (labels, ticks, legend, titles) lies inside the canvas."""
    renderer = _renderer(fig)
    canvas = fig.bbox
    problems = []
    for text in fig.findobj(Text):
        if not text.get_visible() or not text.get_text().strip() or _unshown_tick(text):
            continue
        box = text.get_window_extent(renderer)
        if (
            box.x0 < canvas.x0 - 1
            or box.y0 < canvas.y0 - 1
            or box.x1 > canvas.x1 + 1
            or box.y1 > canvas.y1 + 1
        ):
            problems.append(f"{text.get_text()!r} is cut by the edge of the figure")
    return problems


def _unshown_tick(text: Text) -> bool:
    """A tick label whose tick lies outside its axis's view: matplotlib keeps it but never
    draws it."""
    for ax in text.figure.axes if text.figure else ():
        for axis in (ax.xaxis, ax.yaxis):
            for tick in axis.get_major_ticks() + axis.get_minor_ticks():
                if text in (tick.label1, tick.label2):
                    lo, hi = sorted(axis.get_view_interval())
                    return not lo - 1e-9 <= tick.get_loc() <= hi + 1e-9
    return False


def labels_without_units(ax: Axes, axes: str = "xy") -> list[str]:
    """The named value axes (``"x"``, ``"y"`` or both) have a label with a unit in brackets."""
    problems = []
    for which in axes:
        label = ax.get_xlabel() if which == "x" else ax.get_ylabel()
        if not UNIT.search(label):
            problems.append(f"the {which} axis label {label!r} names no unit")
    return problems


def non_integer_ticks(ax: Axes, which: str = "x") -> list[str]:
    """The ``which`` axis of a whole-number quantity (pips, a trial's number) has only
    whole-number ticks inside the view."""
    lo, hi = sorted(ax.get_xlim() if which == "x" else ax.get_ylim())
    ticks = ax.get_xticks() if which == "x" else ax.get_yticks()
    shown = [t for t in ticks if lo <= t <= hi]
    return [f"a tick at {t:g} on a whole-number axis" for t in shown if t != round(t)]


def collapsed_shapes(ax: Axes, share: float = 0.01) -> list[str]:
    """A horizontal categorical plot: no box (PathPatch) or violin (PolyCollection) narrower
    along x than ``share`` of the view: a box whose quartiles meet is a line that hides every
    game around it."""
    lo, hi = sorted(ax.get_xlim())
    problems = []
    paths = [p.get_path() for p in ax.patches if isinstance(p, PathPatch)]
    paths += [q for c in ax.collections if isinstance(c, PolyCollection) for q in c.get_paths()]
    for path in paths:
        xs = path.vertices[:, 0]
        if xs.size and xs.max() - xs.min() < share * (hi - lo):
            problems.append(f"a shape collapsed to a line at x={xs.mean():.3g}")
    return problems


def _data_positions(ax: Axes, which: str) -> np.ndarray:
    """Where the axes' points, lines and shapes sit along ``which`` (data coordinates)."""
    k = 0 if which == "x" else 1
    found = [c.get_offsets()[:, k] for c in ax.collections if isinstance(c, PathCollection)]
    found += [np.asarray(line.get_xydata())[:, k] for line in ax.lines if isinstance(line, Line2D)]
    found += [p.get_path().vertices[:, k] for p in ax.patches if isinstance(p, PathPatch)]
    values = np.concatenate([np.asarray(f, dtype=float).ravel() for f in found] or [[]])
    return values[np.isfinite(values)]


def sliver_axis(ax: Axes, which: str = "x") -> list[str]:
    """An axis whose data are one value must be wide enough to read as one value: a whole
    number at least one whole number either side, any value at least 10% of it either side
    (matplotlib alone zooms to ±5%, with ticks at 7.9, 8.0, 8.1 around a constant 8)."""
    values = _data_positions(ax, which)
    if not values.size:
        return []
    v = float(values.mean())
    if np.ptp(values) > 1e-9 * max(1.0, abs(v)):
        return []
    whole = v == round(v)
    need = max(0.1 * abs(v), 1.0 if whole else (0.1 if v == 0 else 0.0))
    lo, hi = sorted(ax.get_xlim() if which == "x" else ax.get_ylim())
    if min(v - lo, hi - v) < need - 1e-9:
        return [f"the {which} axis {lo:.3g}-{hi:.3g} is a sliver around the constant {v:g}"]
    return []


def too_few_x(ax: Axes, minimum: int = 3, closeness: float = 0.01) -> list[str]:
    """A scatter or a plot of means against x: its points (scatter collections, error bars'
    markers) sit at ``minimum`` distinct x values or more; points closer than ``closeness`` of
    the axis's span count as one. Fewer cannot show a trend."""
    xs = [c.get_offsets()[:, 0] for c in ax.collections if isinstance(c, PathCollection)]
    for container in ax.containers:
        if isinstance(container, ErrorbarContainer) and container.lines[0] is not None:
            xs.append(np.asarray(container.lines[0].get_xdata(), dtype=float))
    values = np.sort(np.concatenate([np.asarray(x, dtype=float).ravel() for x in xs] or [[]]))
    values = values[np.isfinite(values)]
    if not values.size:
        return ["no points drawn"]
    lo, hi = sorted(ax.get_xlim())
    distinct = 1 + int(np.sum(np.diff(values) >= closeness * (hi - lo)))
    if distinct < minimum:
        return [f"points at {distinct} distinct x value(s); a trend needs {minimum}"]
    return []
