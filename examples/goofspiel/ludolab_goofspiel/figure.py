"""A picture of prize orders, for a run's figures: one row per condition, one small bar chart
per order (the prize revealed in each round)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ludolab_goofspiel.engine import PrizeOrder

CELL_WIDTH, CELL_HEIGHT = 2.2, 1.2
"""The size of one order's chart, in inches."""


def example_orders(orders: Mapping[str, Sequence[PrizeOrder]], n: int = 3) -> Any:
    """A matplotlib Figure of the first ``n`` orders of each condition (rows in the mapping's
    order); None when there is no order at all."""
    from matplotlib.figure import Figure

    rows = [(str(name), list(found)[:n]) for name, found in orders.items()]
    cols = max((len(found) for _, found in rows), default=0)
    if not cols:
        return None
    fig = Figure(figsize=(CELL_WIDTH * cols + 0.6, CELL_HEIGHT * len(rows) + 0.4))
    axes = fig.subplots(len(rows), cols, squeeze=False, sharey=True)
    for r, (name, found) in enumerate(rows):
        for c in range(cols):
            ax = axes[r][c]
            if c >= len(found):
                ax.set_axis_off()
                continue
            prizes = found[c].prizes
            k = len(prizes)
            # the last third shaded darker: where a back-loaded order puts its points
            colours = ["0.35" if i >= k - max(1, round(k / 3)) else "0.7" for i in range(k)]
            ax.bar(range(1, k + 1), prizes, color=colours, width=0.8)
            ax.set_xticks([1, k])
            ax.tick_params(labelsize=6)
            if c == 0:
                ax.set_ylabel(name, fontsize=7)
            if r == len(rows) - 1:
                ax.set_xlabel("round", fontsize=6)
    fig.suptitle("prize revealed in each round (last third darker)", fontsize=8)
    fig.tight_layout()
    return fig


__all__ = ["example_orders"]
