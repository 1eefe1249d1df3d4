"""Randomisation tests of a difference of means over setups, with a studentised statistic.

Two designs, as the comparisons have them:

* **paired** (setup ``s`` of both conditions played with the same game seeds): the statistic
  is the one-sample t of the differences ``x_s - y_s``; under the null each pair's two members
  are exchangeable, so the reference distribution flips the sign of each difference
  independently (every one of the ``2**n`` flips when there are few enough, else a Monte Carlo
  sample of them).
* **independent**: the statistic is Welch's t of ``x`` against ``y``; the reference
  distribution reassigns the pooled values to the two groups.

Why this and not Student's t distribution: when the two conditions are exchangeable (an A/A
test; more generally any null under which relabelling the setups changes nothing) the test is
exact at every sample size, whatever the metric's distribution: discrete, binary, zero-heavy, or
with ties from agents that play a setup the same way every time. With a studentised statistic it
is also asymptotically valid for the weaker null of equal means with unequal variances or
shapes (Janssen 1997; Chung and Romano 2013, "Exact and asymptotically robust permutation
tests", Ann. Statist. 41), where a raw mean difference would not be. The resampling is
:func:`scipy.stats.permutation_test`'s; a Monte Carlo p-value counts the observed labelling
among the resamples (``(hits + 1) / (resamples + 1)``), so it is itself a valid p-value at any
number of resamples.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import scipy.stats as st
from numpy.typing import ArrayLike

from ludolab.research.stats.effects import SeedLike

MIN_RESAMPLES = 9_999
"""The fewest random relabellings a Monte Carlo test draws."""


@dataclass(frozen=True)
class RandomisationResult:
    """A randomisation test of ``mean(x) - mean(y)``.

    Attributes:
        estimate: the difference of means (paired: the mean difference), in the data's unit.
        statistic: the observed studentised statistic (t; ``inf`` when the groups do not vary).
        p: the two-sided p-value.
        resamples: the relabellings in the reference distribution (every one when ``exact``).
        exact: whether every relabelling was enumerated.
    """

    estimate: float
    statistic: float
    p: float
    resamples: int
    exact: bool


def resamples_for(level: float) -> int:
    """Relabellings for a test held to ``level`` (e.g. a corrected family's ``alpha / m``):
    at least :data:`MIN_RESAMPLES`, and enough that the smallest Monte Carlo p-value is a
    twentieth of the level, so that a corrected family does not lose power to the resampling."""
    if not 0 < level < 1:
        raise ValueError(f"level must be in (0, 1), got {level}")
    return max(MIN_RESAMPLES, math.ceil(20.0 / level) - 1)


def _paired_t(x: np.ndarray, y: np.ndarray, axis: int = -1) -> np.ndarray:
    d = x - y
    n = d.shape[axis]
    with np.errstate(divide="ignore", invalid="ignore"):
        return d.mean(axis=axis) / (d.std(axis=axis, ddof=1) / np.sqrt(n))


def _welch_t(x: np.ndarray, y: np.ndarray, axis: int = -1) -> np.ndarray:
    nx, ny = x.shape[axis], y.shape[axis]
    se = np.sqrt(x.var(axis=axis, ddof=1) / nx + y.var(axis=axis, ddof=1) / ny)
    with np.errstate(divide="ignore", invalid="ignore"):
        return (x.mean(axis=axis) - y.mean(axis=axis)) / se


def mean_difference_test(
    x: ArrayLike,
    y: ArrayLike,
    *,
    paired: bool,
    seed: SeedLike = 0,
    n_resamples: int = MIN_RESAMPLES,
) -> RandomisationResult:
    """Randomisation test of equal means of ``x`` and ``y`` (see the module docstring).

    ``x``, ``y``: one value per setup (paired: equal lengths, position ``s`` of each a pair).
    ``seed``: the Monte Carlo relabellings' seed (an ``int``, a sequence of ints or a numpy
    ``Generator``); exact tests do not use it. ``n_resamples``: relabellings drawn when there
    are more than that many in all (the test is then Monte Carlo; otherwise every relabelling
    is enumerated: with 9,999, up to 13 paired setups or 7 per condition).

    A constant difference (paired), or groups that do not vary within (independent), leave the
    statistic undefined or infinite: p is then 1 when the means are equal, else the exact share
    of the relabellings as extreme as the observed one (it and its mirror).
    Raises ValueError on a sample with fewer than 2 values, or paired samples of unequal length.
    """
    xs, ys = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if xs.ndim != 1 or ys.ndim != 1 or xs.size < 2 or ys.size < 2:
        raise ValueError("need two one-dimensional samples of at least 2 values each")
    if paired and xs.size != ys.size:
        raise ValueError(f"paired samples differ in length: {xs.size} and {ys.size}")
    if np.isnan(xs).any() or np.isnan(ys).any():
        raise ValueError("the samples hold NaN: drop the setups without a value first")
    estimate = float((xs - ys).mean()) if paired else float(xs.mean() - ys.mean())
    total = 2**xs.size if paired else math.comb(xs.size + ys.size, xs.size)
    statistic = _paired_t if paired else _welch_t
    # Relabellings that tie with the observed one in exact arithmetic must tie in floating
    # point too (scipy counts a null value as extreme within 100 ulps): test the differences
    # against zero (a sign flip is then exact), or the pooled values centred and scaled, so
    # that a large offset does not leave rounding errors beyond that tolerance.
    if paired:
        d = xs - ys
        xs, ys = d / max(float(np.abs(d).max()), 1e-300), np.zeros_like(d)
    else:
        pooled = np.concatenate([xs, ys])
        spread = float(np.ptp(pooled)) or 1.0
        xs, ys = (xs - pooled.mean()) / spread, (ys - pooled.mean()) / spread
    observed = float(statistic(xs, ys))
    if not np.isfinite(observed):
        # No spread within the pairs' differences (paired) or within either group: t is 0/0 or
        # infinite. With equal means nothing differs; otherwise only the observed labelling and
        # its mirror are this extreme, and their share of all labellings is the exact p-value.
        p = 1.0 if estimate == 0 else min(1.0, 2.0 / total)
        return RandomisationResult(estimate, observed, p, total, True)
    result = st.permutation_test(
        (xs, ys),
        statistic,
        permutation_type="samples" if paired else "independent",
        vectorized=True,
        n_resamples=n_resamples,
        batch=1_000,
        alternative="two-sided",
        rng=np.random.default_rng(seed),
    )
    return RandomisationResult(
        estimate, observed, float(result.pvalue), min(total, n_resamples), total <= n_resamples
    )
