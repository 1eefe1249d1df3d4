"""Knight's tours for people: the board with visit numbers, the statistics, a PNG drawing."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ludolab.research.puzzles.knights.board import coords, is_knight_move
from ludolab.research.puzzles.knights.result import SearchStats, TourResult

METHOD_NAMES = {"warnsdorff": "Warnsdorff search", "minizinc": "MiniZinc/Gecode circuit model"}


def board_text(n: int, tour: Sequence[int]) -> str:
    """The n x n board, each square showing when it is visited (1 = the tour's first square).

    Row 0 (squares 0..n-1) is printed first, so square numbers read row-major as in JSON.
    """
    visit = [0] * (n * n)
    for i, sq in enumerate(tour):
        visit[sq] = i + 1
    width = len(str(n * n))
    return "\n".join(" ".join(f"{visit[r * n + c]:>{width}}" for c in range(n)) for r in range(n))


def stats_text(stats: SearchStats) -> str:
    """One or two lines of search statistics."""
    parts = [f"nodes {stats.nodes:,}"]
    if stats.backtracks is not None:
        parts += [f"backtracks {stats.backtracks:,}", f"restarts {stats.restarts}"]
        parts.append(f"time {stats.time:.3f} s CPU")
    if stats.failures is not None:
        parts += [f"failures {stats.failures:,}", f"solve time {stats.time:.3f} s (Gecode)"]
    lines = ["  " + ", ".join(parts)]
    if stats.detail:
        lines.append(f"  search: {stats.detail}")
    return "\n".join(lines)


def tour_report(result: TourResult) -> str:
    """``--format text``: heading, the numbered board and the statistics."""
    n, tour = result.n, result.tour
    name = METHOD_NAMES.get(result.stats.method, result.stats.method)
    first = coords(n, tour[0])
    closed = "closed" if is_knight_move(n, tour[-1], tour[0]) else "OPEN"
    head = (
        f"Closed knight's tour, {n} x {n}, by {name}: verified ({n * n} squares, {closed}); "
        f"starts at square {tour[0]} (row {first[0]}, column {first[1]})"
    )
    return f"{head}\n{board_text(n, tour)}\n{stats_text(result.stats)}\n"


def save_tour_png(result: TourResult, out: str | Path) -> Path:
    """Draw the tour on a chequered board and write it to ``out`` (a .png path), atomically.

    The tour is one closed polyline through the square centres; the first square is marked.
    Written with `ludolab.research.plots.figures.save_figure` (paper style, temporary file renamed
    into place), so a failure leaves no file behind.
    """
    # Imported here: plotting pulls in matplotlib/seaborn, which text and JSON output skip.
    import numpy as np
    from matplotlib.figure import Figure

    from ludolab.research.plots.figures import paper_style, save_figure

    n, tour = result.n, result.tour
    rows, cols = np.divmod(np.asarray([*tour, tour[0]]), n)
    with paper_style():
        fig = Figure(figsize=(5.0, 5.0), layout="constrained")
        ax = fig.add_subplot()
        chequer = (np.add.outer(np.arange(n), np.arange(n)) % 2).astype(float)
        ax.imshow(chequer, cmap="Greys", vmin=0, vmax=4, extent=(-0.5, n - 0.5, n - 0.5, -0.5))
        # Thinner lines on big boards, so neighbouring jumps stay apart.
        width = max(0.15, min(1.5, 12.0 / n))
        ax.plot(cols, rows, color="C0", linewidth=width, solid_joinstyle="round")
        ax.plot(cols[0], rows[0], "o", color="C3", markersize=max(2.0, min(6.0, 60.0 / n)))
        ax.set_xlim(-0.5, n - 0.5)
        ax.set_ylim(n - 0.5, -0.5)
        ax.set_aspect("equal")
        ax.set_xticks([])
        ax.set_yticks([])
        for spine in ax.spines.values():  # the paper style hides the top and right ones
            spine.set_visible(True)
            spine.set_linewidth(0.6)
        name = METHOD_NAMES.get(result.stats.method, result.stats.method)
        ax.set_title(f"Closed knight's tour, {n} x {n} ({name})")
        fig.draw_without_rendering()
    (path,) = save_figure(fig, out, formats=["png"])
    return path
