"""What ``--sampler optimise`` can optimise: objectives with a Python and a MiniZinc face."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ludolab.research.catan.constraints.base import mzn_hex_sets
from ludolab.research.catan.geometry import (
    PIPS_TABLE,
    LayoutArrays,
    with_zero_column,
)


@dataclass(frozen=True)
class Objective:
    """Something to optimise: a MiniZinc expression and its Python twin (one board at a time)."""

    name: str
    summary: str
    sense: str  # "minimize" or "maximize"
    minizinc: Callable[[LayoutArrays], str]
    python: Callable[[LayoutArrays, np.ndarray, np.ndarray], np.ndarray]


def _pip_sums(g: LayoutArrays, numbers: np.ndarray) -> np.ndarray:
    return PIPS_TABLE[with_zero_column(numbers)][:, g.triples].sum(axis=2)


def _mzn_inland_pips(g: LayoutArrays) -> str:
    return f"[sum(h in I)(PIPS[number[h]]) | I in {mzn_hex_sets(g.triples.tolist())}]"


OBJECTIVES: dict[str, Objective] = {
    o.name: o
    for o in [
        Objective(
            "pip-spread",
            "max minus min pips over the inland (three-hex) intersections",
            "minimize",
            lambda g: (
                f"let {{ array[int] of var int: s = {_mzn_inland_pips(g)} }} in max(s) - min(s)"
            ),
            lambda g, t, n: _pip_sums(g, n).max(axis=1) - _pip_sums(g, n).min(axis=1),
        ),
        Objective(
            "max-intersection-pips",
            "the richest inland intersection's pips",
            "minimize",
            lambda g: f"max({_mzn_inland_pips(g)})",
            lambda g, t, n: _pip_sums(g, n).max(axis=1),
        ),
        Objective(
            "resource-pip-spread",
            "max minus min total pips over the five resources",
            "minimize",
            lambda g: (
                "let { array[0..4] of var int: p = array1d(0..4, [sum(h in index_set("
                "terrain))(bool2int(terrain[h] = r) * PIPS[number[h]]) | r in 0..4]) } "
                "in max(p) - min(p)"
            ),
            lambda g, t, n: np.ptp(
                np.stack(
                    [np.where(t == r, PIPS_TABLE[n], 0).sum(axis=1) for r in range(5)], axis=1
                ),
                axis=1,
            ),
        ),
    ]
}
