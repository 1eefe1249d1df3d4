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


def shapes_off_their_ticks(ax: Axes, tolerance: float = 0.05) -> list[str]:
    """A horizontal categorical plot: every violin (PolyCollection) and box (PathPatch) must be
    centred on a y tick, and every point collection must lie within half a category of one."""
    ticks = np.asarray(ax.get_yticks(), dtype=float)
    problems = []
    shapes = [c for c in ax.collections if isinstance(c, PolyCollection)]
    shapes += [p for p in ax.patches if isinstance(p, PathPatch)]
    for shape in shapes:
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
    if not shapes:
        problems.append("no violin or box drawn")
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


def non_integer_ticks(ax: Axes) -> list[str]:
    """The x axis of a whole-number quantity has only whole-number ticks inside the view."""
    lo, hi = sorted(ax.get_xlim())
    ticks = [t for t in ax.get_xticks() if lo <= t <= hi]
    return [f"a tick at {t:g} on a whole-number axis" for t in ticks if t != round(t)]
