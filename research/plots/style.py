"""Figure styles: the sizes of every figure of a run, set in one place.

A :class:`FigureStyle` holds the one- and two-column widths (inches), a scale for heights and
one for fonts. :data:`STYLES` names the shipped ones: ``paper`` (3.3 in and 7 in, a journal's
columns; the default) and ``screen`` (wider and larger, for slides and the HTML report). A run
picks one with ``[report] style = "paper"`` in its config or ``--style`` on ``ludolab plot`` /
``ludolab report``, and may override any size (``[report] one_column = 3.5``). Inside
:func:`figure_style` every figure function draws with it; fonts stay TrueType in PDFs and the
palette colour-blind safe whatever the style.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Iterator, Mapping
from contextvars import ContextVar
from dataclasses import dataclass, fields, replace
from typing import Any


@dataclass(frozen=True)
class FigureStyle:
    """The sizes of a set of figures: widths in inches, scales as factors."""

    name: str
    one_column: float
    """Width of a figure one column wide (inches)."""
    two_column: float
    """Width of a figure across the page (inches)."""
    height_scale: float = 1.0
    """Heights are the paper style's times this."""
    font_scale: float = 1.0
    """Font sizes are seaborn's ``paper`` context times this."""


STYLES: dict[str, FigureStyle] = {
    "paper": FigureStyle("paper", one_column=3.3, two_column=7.0),
    "screen": FigureStyle(
        "screen", one_column=5.0, two_column=10.0, height_scale=1.45, font_scale=1.4
    ),
}
"""The shipped styles by name."""
DEFAULT_STYLE = "paper"
OPTIONS: tuple[str, ...] = ("style", "one_column", "two_column", "height_scale", "font_scale")
"""The keys of a config's ``[report]`` table."""

_CURRENT: ContextVar[FigureStyle] = ContextVar("figure_style", default=STYLES[DEFAULT_STYLE])


def current_style() -> FigureStyle:
    """The style figures are drawn in now (``paper`` outside :func:`figure_style`)."""
    return _CURRENT.get()


@contextlib.contextmanager
def figure_style(style: FigureStyle | str) -> Iterator[FigureStyle]:
    """Within the block, figures are drawn in ``style`` (a :class:`FigureStyle` or a name of
    :data:`STYLES`); the previous style is back after."""
    chosen = style if isinstance(style, FigureStyle) else style_from_table({"style": style})
    token = _CURRENT.set(chosen)
    try:
        yield chosen
    finally:
        _CURRENT.reset(token)


def style_from_table(table: Mapping[str, Any] | None, where: str = "report") -> FigureStyle:
    """The style a config's ``[report]`` table asks for: ``style`` (a name of :data:`STYLES`,
    default ``paper``) and any of its sizes overridden. Raises ValueError naming
    ``<where>.<key>``, what was expected and what was given."""
    table = dict(table or {})
    for key in table:
        if key not in OPTIONS:
            raise ValueError(f"{where}.{key}: not a report option; allowed: {', '.join(OPTIONS)}")
    name = table.pop("style", DEFAULT_STYLE)
    if not isinstance(name, str) or name not in STYLES:
        raise ValueError(
            f"{where}.style: expected one of {', '.join(STYLES)}, got {name!r}"
        )
    sizes: dict[str, float] = {}
    for key, value in table.items():
        number = isinstance(value, int | float) and not isinstance(value, bool)
        if not number or not math.isfinite(value) or value <= 0:
            raise ValueError(f"{where}.{key}: expected a number > 0, got {value!r}")
        sizes[key] = float(value)
    return replace(STYLES[name], **sizes)


def style_table(style: FigureStyle) -> dict[str, Any]:
    """``style`` as a ``[report]`` table (what a resolved config records)."""
    return {"style": style.name} | {
        f.name: getattr(style, f.name) for f in fields(style) if f.name != "name"
    }
