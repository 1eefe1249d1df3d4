"""Pictures of Catan boards, drawn the way people draw them.

Pointy-top hexes in terrain colours on a blue sea frame; a cream number token on every producing
hex with its pips as dots (6 and 8 in red); the robber as a dark pawn; each harbor as a marker in
the sea beside its coastal path, with two piers to the intersections it serves ("3:1" in white,
"2:1" in the colour of its resource).

Only ``matplotlib.figure.Figure`` is used (no pyplot global state, no display needed). Files are
written atomically: a temporary file in the target directory, renamed when complete.
"""

from __future__ import annotations

import math
import os
from collections.abc import Hashable, Mapping, Sequence
from pathlib import Path

import matplotlib
from matplotlib.figure import Figure
from matplotlib.patches import Circle, Ellipse, Patch, Polygon

from ludolab.envs.catan.board import HARBOR_TYPES, TERRAINS, Board, pips
from ludolab.research.plots.figure_kit import finish_figure, new_figure, paper_style
from ludolab.research.plots.style import current_style

SUPPORTED_SUFFIXES: tuple[str, ...] = (".png", ".svg", ".pdf")

TERRAIN_COLOURS: dict[str, str] = {
    "lumber": "#2f6b2f",  # forest, dark green
    "wool": "#9ccc5a",  # pasture, light green
    "grain": "#e9c236",  # fields, gold
    "brick": "#c1592f",  # hills, terracotta
    "ore": "#8e9092",  # mountains, grey
    "desert": "#e8d6a6",  # sand
}
_TEXT_ON = {
    "lumber": "white",
    "wool": "black",
    "grain": "black",
    "brick": "white",
    "ore": "white",
    "generic": "black",
}
SEA = "#3b7dbd"
SEA_EDGE = "#24598c"
TOKEN = "#f6ebcd"
TOKEN_EDGE = "#6b5a3a"
RED_NUMBER = "#c62828"
PIER = "#7a5230"
ROBBER = "#2b2b2b"

_TOKEN_RADIUS = 0.40
_FRAME_APOTHEM = 5.25  # the island reaches 4 hex radii in each frame-side direction
_HARBOR_OFFSET = 0.62  # marker centre, beyond the coastal path's midpoint (hex radii)
_HARBOR_RADIUS = 0.36
_PNG_DPI = 150


def render_board(
    board: Board, path: str | Path, *, title: str | None = None, show_ids: bool = False
) -> Path:
    """Draw one board to ``path`` (.png, .svg or .pdf, by suffix); return the path.

    ``show_ids`` also writes the hex index in a corner of each hex (for debugging).
    Raises ValueError for any other suffix, before touching the file system.
    """
    path = _check_suffix(path)
    fig = Figure(figsize=(8.0, 7.6 if title else 7.3))
    ax = fig.add_axes((0.01, 0.06, 0.98, 0.87 if title else 0.93))
    _draw_board(ax, board, _points_per_unit(fig, ax), show_ids=show_ids)
    if title:
        fig.suptitle(title, fontsize=14, y=0.975)
    _legend(fig, ncol=6, fontsize=10)
    _save(fig, path)
    return path


def render_board_grid(
    boards: Sequence[Board],
    path: str | Path,
    *,
    titles: Sequence[str] | None = None,
    ncols: int = 4,
) -> Path:
    """Draw several boards side by side in one picture (``ncols`` per row); return the path."""
    path = _check_suffix(path)
    boards = list(boards)
    if not boards:
        raise ValueError("render_board_grid needs at least one board")
    if titles is not None and len(titles) != len(boards):
        raise ValueError(f"got {len(titles)} titles for {len(boards)} boards")
    if ncols < 1:
        raise ValueError(f"ncols must be at least 1, got {ncols}")
    ncols = min(ncols, len(boards))
    nrows = math.ceil(len(boards) / ncols)
    cell_w, cell_h = 4.0, 3.55 + (0.3 if titles else 0.0)
    legend_h = 0.45
    fig = Figure(figsize=(ncols * cell_w, nrows * cell_h + legend_h))
    fw, fh = fig.get_size_inches()
    for i, board in enumerate(boards):
        row, col = divmod(i, ncols)
        left = col * cell_w / fw
        bottom = (legend_h + (nrows - 1 - row) * cell_h) / fh
        ax = fig.add_axes((left + 0.05 / fw, bottom, (cell_w - 0.1) / fw, 3.5 / fh))
        _draw_board(ax, board, _points_per_unit(fig, ax))
        if titles is not None:
            fig.text(
                left + 0.5 * cell_w / fw,
                bottom + 3.55 / fh,
                titles[i],
                ha="center",
                va="bottom",
                fontsize=10,
            )
    _legend(fig, ncol=6, fontsize=9, y=0.5 * legend_h / fh)
    _save(fig, path)
    return path


# ---------------------------------------------------------------------------------------------


def draw_board(ax, board: Board, *, show_ids: bool = False) -> None:
    """Draw ``board`` into matplotlib axes ``ax`` (sizes follow the axes' size on its figure)."""
    _draw_board(ax, board, _points_per_unit(ax.figure, ax), show_ids=show_ids)


def terrain_legend(fig: Figure, *, ncol: int, fontsize: float, y: float = 0.03) -> None:
    """The terrain colours as a legend along the bottom of ``fig`` (``y`` in figure units)."""
    _legend(fig, ncol=ncol, fontsize=fontsize, y=y)


def board_extent() -> tuple[float, float]:
    """(width, height) of a framed board in hex radii, to size grid cells."""
    return 2 * _FRAME_APOTHEM / math.cos(math.pi / 6) + 0.2, 2 * _FRAME_APOTHEM + 0.2


def _check_suffix(path: str | Path) -> Path:
    path = Path(path)
    if path.suffix.lower() not in SUPPORTED_SUFFIXES:
        raise ValueError(
            f"cannot draw a board to {path.name!r}: unsupported suffix "
            f"{path.suffix or '(none)'!r}; use one of {', '.join(SUPPORTED_SUFFIXES)}"
        )
    return path


def _save(fig: Figure, path: Path) -> None:
    fmt = path.suffix.lower().lstrip(".")
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.partial")
    try:
        # svg.fonttype none: keep numbers and labels as <text> (searchable, smaller files)
        with (
            matplotlib.rc_context({"svg.fonttype": "none", "pdf.fonttype": 42}),
            tmp.open("wb") as fh,
        ):
            fig.savefig(fh, format=fmt, dpi=_PNG_DPI, facecolor="white")
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def _points_per_unit(fig: Figure, ax) -> float:
    """Typographic points per hex radius once the board fills the axes with equal aspect."""
    box = ax.get_position()
    w_in, h_in = box.width * fig.get_figwidth(), box.height * fig.get_figheight()
    span_x, span_y = board_extent()
    return 72.0 * min(w_in / span_x, h_in / span_y)


def _legend(fig: Figure, *, ncol: int, fontsize: float, y: float = 0.03) -> None:
    handles = [Patch(facecolor=TERRAIN_COLOURS[t], edgecolor="#444444", label=t) for t in TERRAINS]
    fig.legend(
        handles=handles,
        loc="center",
        bbox_to_anchor=(0.5, y),
        ncol=ncol,
        frameon=False,
        fontsize=fontsize,
        handlelength=1.2,
        columnspacing=1.2,
    )


def _draw_board(ax, board: Board, ppu: float, *, show_ids: bool = False) -> None:
    """Draw ``board`` into ``ax``; ``ppu`` = points per hex radius, to scale the text."""
    layout = board.topology
    ixy = layout.intersection_xy
    ax.set_aspect("equal")
    ax.set_axis_off()
    half_w = _FRAME_APOTHEM / math.cos(math.pi / 6)
    ax.set_xlim(-half_w - 0.1, half_w + 0.1)
    ax.set_ylim(_FRAME_APOTHEM + 0.1, -_FRAME_APOTHEM - 0.1)  # y grows downward, as in layouts

    # Sea frame: a flat-top hexagon around the island.
    frame = [
        (half_w * math.cos(a), half_w * math.sin(a))
        for a in (math.radians(60 * k) for k in range(6))
    ]
    ax.add_patch(
        Polygon(frame, closed=True, facecolor=SEA, edgecolor=SEA_EDGE, linewidth=2, zorder=0)
    )

    # Harbors first (piers run under the land).
    for slot, code in enumerate(board.harbors):
        _draw_harbor(ax, layout, slot, HARBOR_TYPES[code], ppu)

    for h, corners in enumerate(layout.hex_intersections):
        terrain = TERRAINS[board.terrain[h]]
        ax.add_patch(
            Polygon(
                [ixy[n] for n in corners],
                closed=True,
                facecolor=TERRAIN_COLOURS[terrain],
                edgecolor="#f3ecd8",
                linewidth=max(1.0, 0.05 * ppu),
                joinstyle="round",
                zorder=2,
            )
        )
        x, y = layout.hex_xy[h]
        number = board.numbers[h]
        if number:
            _draw_token(ax, x, y, number, ppu)
        if show_ids:
            ax.text(
                x - 0.55,
                y - 0.45,
                str(h),
                fontsize=0.16 * ppu,
                ha="center",
                va="center",
                color="black",
                zorder=6,
            )

    rx, ry = layout.hex_xy[board.robber]
    if board.numbers[board.robber]:
        _draw_robber(ax, rx + 0.62, ry, scale=0.8)  # beside the token, not on it
    else:
        _draw_robber(ax, rx, ry)


def _draw_token(ax, x: float, y: float, number: int, ppu: float) -> None:
    red = number in (6, 8)
    colour = RED_NUMBER if red else "black"
    ax.add_patch(
        Circle(
            (x, y),
            _TOKEN_RADIUS,
            facecolor=TOKEN,
            edgecolor=TOKEN_EDGE,
            linewidth=max(0.5, 0.02 * ppu),
            zorder=3,
        )
    )
    ax.text(
        x,
        y - 0.06,
        str(number),
        ha="center",
        va="center",
        color=colour,
        fontsize=(0.36 if red else 0.32) * ppu,
        fontweight="bold",
        zorder=4,
    )
    n = pips(number)
    step, r = 0.085, 0.032
    for k in range(n):
        dx = (k - (n - 1) / 2) * step
        ax.add_patch(Circle((x + dx, y + 0.22), r, facecolor=colour, edgecolor="none", zorder=4))


def _draw_robber(ax, x: float, y: float, scale: float = 1.0) -> None:
    """A dark pawn (base, body, head) centred at (x, y)."""
    k = scale
    style = {"facecolor": ROBBER, "edgecolor": "white", "linewidth": 0.8, "zorder": 5}
    ax.add_patch(Ellipse((x, y + 0.2 * k), 0.42 * k, 0.2 * k, **style))
    ax.add_patch(Ellipse((x, y + 0.02 * k), 0.28 * k, 0.42 * k, **style))
    ax.add_patch(Circle((x, y - 0.26 * k), 0.13 * k, **style))


def _draw_harbor(ax, layout, slot: int, kind: str, ppu: float) -> None:
    a, b = layout.harbor_intersections(slot)
    (ax_, ay), (bx, by) = layout.intersection_xy[a], layout.intersection_xy[b]
    mx, my = (ax_ + bx) / 2, (ay + by) / 2
    ((hx, hy),) = (layout.hex_xy[h] for h in layout.path_hexes[layout.harbor_slots[slot]])
    nx, ny = mx - hx, my - hy  # outward: from the land hex's centre through the path's midpoint
    norm = math.hypot(nx, ny)
    px, py = mx + nx / norm * _HARBOR_OFFSET, my + ny / norm * _HARBOR_OFFSET
    for ex, ey in ((ax_, ay), (bx, by)):
        ax.plot(
            [px, ex],
            [py, ey],
            color=PIER,
            linewidth=max(1.5, 0.09 * ppu),
            solid_capstyle="butt",
            zorder=1,
        )
    face = "white" if kind == "generic" else TERRAIN_COLOURS[kind]
    ax.add_patch(
        Circle(
            (px, py),
            _HARBOR_RADIUS,
            facecolor=face,
            edgecolor="#222222",
            linewidth=max(0.6, 0.025 * ppu),
            zorder=3,
        )
    )
    text_colour = _TEXT_ON[kind]
    if kind == "generic":
        ax.text(
            px,
            py,
            "3:1",
            ha="center",
            va="center",
            fontsize=0.24 * ppu,
            fontweight="bold",
            color=text_colour,
            zorder=4,
        )
    else:
        ax.text(
            px,
            py - 0.09,
            "2:1",
            ha="center",
            va="center",
            fontsize=0.22 * ppu,
            fontweight="bold",
            color=text_colour,
            zorder=4,
        )
        ax.text(
            px,
            py + 0.15,
            kind,
            ha="center",
            va="center",
            fontsize=0.13 * ppu,
            color=text_colour,
            zorder=4,
        )


def example_boards(
    boards_by_condition: Mapping[Hashable, Sequence[Board]],
    n: int = 3,
    *,
    width: float | None = None,
) -> Figure:
    """A grid of example boards: one row per condition (labelled on the left, in the mapping's
    order), its first ``n`` boards left to right, and the terrain legend below.

    Drawn with :func:`draw_board`, so boards look as in :func:`render_board`; one axes per board
    drawn. A condition with fewer boards leaves its remaining cells empty; the grid has as many
    columns as the fullest row (at most ``n``).
    Raises ValueError with no board at all or ``n`` < 1.
    """
    if n < 1:
        raise ValueError(f"n must be at least 1, got {n}")
    width = width or current_style().two_column
    rows = [(str(c), list(bs)[:n]) for c, bs in boards_by_condition.items()]
    if not any(bs for _, bs in rows):
        raise ValueError("example_boards needs at least one board")
    ncols = max(len(bs) for _, bs in rows)
    label_w, legend_h, gap = 0.22, 0.3, 0.04
    cell_w = (width - label_w) / ncols
    span_x, span_y = board_extent()
    cell_h = (cell_w - gap) * span_y / span_x + gap
    height = len(rows) * cell_h + legend_h
    with paper_style():
        fig = new_figure(width, height, constrained=False, scale_height=False)
        for r, (label, boards) in enumerate(rows):
            bottom = (legend_h + (len(rows) - 1 - r) * cell_h + gap / 2) / height
            fig.text(
                0.5 * label_w / width,
                bottom + (cell_h - gap) / 2 / height,
                label,
                rotation=90,
                ha="center",
                va="center",
                fontsize="small",
            )
            for c, board in enumerate(boards):
                left = (label_w + c * cell_w + gap / 2) / width
                ax = fig.add_axes((left, bottom, (cell_w - gap) / width, (cell_h - gap) / height))
                draw_board(ax, board)
        terrain_legend(fig, ncol=6, fontsize=6.5, y=0.5 * legend_h / height)
        return finish_figure(fig)
