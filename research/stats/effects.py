"""Effect sizes and bootstrap confidence intervals.

Two ordinal effect sizes, both in ``[-1, 1]`` and both positive when the *first* sample tends to
be larger:

* :func:`cliffs_delta` -- for two independent samples, ``P(X > Y) - P(X < Y)``. It is the effect
  size that goes with the Mann-Whitney U test (``delta = 2 U / (n m) - 1``).
* :func:`rank_biserial_paired` -- for matched pairs, the matched-pairs rank-biserial correlation
  ``(T+ - T-) / (T+ + T-)`` (Kerby 2014), where ``T+``/``T-`` are the sums of the ranks of
  ``|x_i - y_i|`` over positive/negative differences, zero differences dropped. It is the effect
  size that goes with the Wilcoxon signed-rank test (same ranks, same zero handling), so it is 0
  exactly when the Wilcoxon statistic sits at its null expectation.

:func:`bootstrap_ci` wraps :func:`scipy.stats.bootstrap` with a caller-provided seed.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
import scipy.stats as st
from numpy.typing import ArrayLike

SeedLike = int | np.random.Generator | np.random.SeedSequence | None
"""Anything :func:`numpy.random.default_rng` accepts; ``None`` means fresh OS entropy."""


def _as_1d(a: ArrayLike, name: str) -> np.ndarray:
    arr = np.asarray(a, dtype=float)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, got shape {arr.shape}")
    if np.isnan(arr).any():
        raise ValueError(f"{name} contains NaN; drop missing values first")
    return arr


def cliffs_delta(x: ArrayLike, y: ArrayLike) -> float:
    """Cliff's delta ``(#{x_i > y_j} - #{x_i < y_j}) / (n m)`` over all ``n m`` pairs.

    Exact, in ``O((n + m) log m)``: ``y`` is sorted once and every ``x_i`` is located in it with
    :func:`numpy.searchsorted`. Ties count as neither greater nor smaller. Returns NaN when either
    sample is empty; raises ``ValueError`` on NaN input.

    >>> cliffs_delta([3, 4], [1, 2])
    1.0
    """
    xs = _as_1d(x, "x")
    ys = np.sort(_as_1d(y, "y"))
    n, m = xs.size, ys.size
    if n == 0 or m == 0:
        return float("nan")
    below = np.searchsorted(ys, xs, side="left")  # number of y strictly smaller than x_i
    above = m - np.searchsorted(ys, xs, side="right")  # number of y strictly larger than x_i
    return float((below.sum() - above.sum()) / (n * m))


def _cliffs_delta_axis(x: np.ndarray, y: np.ndarray, axis: int = -1) -> np.ndarray:
    """Vectorised Cliff's delta along ``axis`` via mid-ranks (for the bootstrap)."""
    x = np.moveaxis(np.asarray(x, dtype=float), axis, -1)
    y = np.moveaxis(np.asarray(y, dtype=float), axis, -1)
    lead = np.broadcast_shapes(x.shape[:-1], y.shape[:-1])
    x = np.broadcast_to(x, lead + x.shape[-1:])
    y = np.broadcast_to(y, lead + y.shape[-1:])
    n, m = x.shape[-1], y.shape[-1]
    ranks = st.rankdata(np.concatenate([x, y], axis=-1), axis=-1)
    u1 = ranks[..., :n].sum(axis=-1) - n * (n + 1) / 2  # #{x > y} + #{x == y} / 2
    return 2.0 * u1 / (n * m) - 1.0


def rank_biserial_paired(x: ArrayLike, y: ArrayLike | None = None) -> float:
    """Matched-pairs rank-biserial correlation of the differences ``d = x - y``.

    ``r = (T+ - T-) / (T+ + T-)``, with ``T+`` (``T-``) the sum of the mid-ranks of ``|d|`` over
    positive (negative) differences; zero differences are dropped (Wilcoxon's ``"wilcox"`` zero
    method). If ``y`` is omitted, ``x`` is taken to be the differences. 0 when every difference
    is zero (no pair favours either side); NaN when there are no pairs.
    """
    xs = _as_1d(x, "x")
    if y is not None:
        ys = _as_1d(y, "y")
        if ys.shape != xs.shape:
            raise ValueError(f"paired samples differ in length: {xs.size} vs {ys.size}")
        xs = xs - ys
    return float(_rank_biserial_axis(xs))


def _rank_biserial_axis(d: np.ndarray, axis: int = -1) -> np.ndarray:
    """Vectorised matched-pairs rank-biserial of differences ``d`` along ``axis``.

    Ranking all ``|d|`` gives the ``z`` zeros the lowest ranks, so the rank of a non-zero
    difference among the non-zero ones is its overall rank minus ``z``.
    """
    d = np.moveaxis(np.asarray(d, dtype=float), axis, -1)
    ranks = st.rankdata(np.abs(d), axis=-1)
    zeros = (d == 0).sum(axis=-1, keepdims=True)
    signed = (np.sign(d) * (ranks - zeros)).sum(axis=-1)
    n_nonzero = d.shape[-1] - zeros[..., 0]
    total = n_nonzero * (n_nonzero + 1) / 2.0
    safe = np.where(total > 0, total, 1.0)
    r = np.where(total > 0, signed / safe, 0.0)  # every difference zero: no side favoured
    return np.where(d.shape[-1] > 0, r, np.nan)


def hodges_lehmann(x: ArrayLike, y: ArrayLike | None = None, *, paired: bool = False) -> float:
    """Hodges-Lehmann shift of ``x`` over ``y``, in the data's unit.

    Independent samples: the median of all ``n m`` differences ``x_i - y_j`` (the shift the
    Mann-Whitney test estimates). Paired (or ``y`` omitted: ``x`` are the differences): the
    median of the Walsh averages ``(d_i + d_j) / 2, i <= j`` of ``d = x - y`` (the centre the
    Wilcoxon signed-rank test estimates). NaN when a sample is empty.
    """
    xs = _as_1d(x, "x")
    if y is not None and not paired:
        ys = _as_1d(y, "y")
        if xs.size == 0 or ys.size == 0:
            return float("nan")
        return float(np.median(np.subtract.outer(xs, ys)))
    d = xs - _as_1d(y, "y") if y is not None else xs
    if d.size == 0:
        return float("nan")
    i, j = np.triu_indices(d.size)
    return float(np.median((d[i] + d[j]) / 2.0))


def _mean_difference_axis(x: np.ndarray, y: np.ndarray, axis: int = -1) -> np.ndarray:
    return np.mean(x, axis=axis) - np.mean(y, axis=axis)


def difference_sd(x: ArrayLike, y: ArrayLike, *, paired: bool = False) -> float:
    """The standard deviation a comparison of ``x`` and ``y`` works with: of the differences
    ``x - y`` (paired), or pooled over the two samples (independent). NaN when a sample has
    fewer than two values."""
    xs, ys = _as_1d(x, "x"), _as_1d(y, "y")
    if paired:
        return float(np.std(xs - ys, ddof=1)) if xs.size > 1 else float("nan")
    n1, n2 = xs.size, ys.size
    if n1 < 2 or n2 < 2:
        return float("nan")
    pooled = ((n1 - 1) * np.var(xs, ddof=1) + (n2 - 1) * np.var(ys, ddof=1)) / (n1 + n2 - 2)
    return float(np.sqrt(pooled))


def standardised_difference(x: ArrayLike, y: ArrayLike, *, paired: bool = False) -> float:
    """Cohen's d of ``x`` over ``y``: the mean difference over :func:`difference_sd` (pooled
    for independent samples; d_z, over the differences' SD, when paired). NaN when that
    standard deviation is 0 or undefined."""
    sd = difference_sd(x, y, paired=paired)
    diff = float(np.mean(_as_1d(x, "x"))) - float(np.mean(_as_1d(y, "y")))
    return diff / sd if sd > 0 else float("nan")


@dataclass(frozen=True)
class ConfidenceInterval:
    """A bootstrap confidence interval for ``estimate`` (the statistic on the original data)."""

    estimate: float
    low: float
    high: float
    level: float
    method: str
    n_boot: int

    def __str__(self) -> str:
        return f"{self.estimate:.3f} [{self.low:.3f}, {self.high:.3f}]"


def bootstrap_ci(
    stat: Callable[..., float | np.ndarray],
    samples: Sequence[ArrayLike],
    n_boot: int = 2000,
    seed: SeedLike = 0,
    level: float = 0.95,
    *,
    paired: bool = False,
    method: Literal["percentile", "bca", "basic"] = "percentile",
    vectorized: bool | None = None,
) -> ConfidenceInterval:
    """Bootstrap confidence interval of ``stat(*samples)``.

    Thin wrapper around :func:`scipy.stats.bootstrap`. Unpaired samples are resampled
    independently of each other (stratified bootstrap); with ``paired=True`` all samples must have
    the same length and are resampled with common indices (pairs stay together).

    ``method="percentile"`` (default) takes the ``(1 - level) / 2`` and ``(1 + level) / 2``
    quantiles of the bootstrap distribution; ``"bca"`` applies the bias-corrected and accelerated
    adjustment and falls back to percentile (``method`` then reports ``"percentile (bca
    degenerate)"``) when the bootstrap or jackknife distribution is degenerate, e.g. Cliff's delta
    of completely separated samples.

    ``stat`` may accept an ``axis`` keyword (vectorised, like numpy reductions); ``vectorized=None``
    lets scipy detect that from its signature. ``seed`` is an ``int`` or a numpy ``Generator``; the
    same seed gives the same interval.
    """
    if not 0 < level < 1:
        raise ValueError(f"level must be in (0, 1), got {level}")
    data = tuple(np.asarray(s, dtype=float) for s in samples)
    if not data or any(s.size == 0 for s in data):
        raise ValueError("bootstrap_ci needs at least one sample, all non-empty")
    estimate = float(stat(*data))
    rng = np.random.default_rng(seed)
    kinds = {"percentile": "percentile", "bca": "BCa", "basic": "basic"}
    if method not in kinds:
        raise ValueError(f"method must be one of {sorted(kinds)}, got {method!r}")

    def run(kind: str, generator: np.random.Generator) -> tuple[float, float]:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            res = st.bootstrap(
                data,
                stat,
                n_resamples=n_boot,
                paired=paired,
                vectorized=vectorized,
                confidence_level=level,
                method=kind,
                rng=generator,
            )
        return float(res.confidence_interval.low), float(res.confidence_interval.high)

    state = rng.bit_generator.state
    low, high = run(kinds[method], rng)
    used = method
    if method == "bca" and not (np.isfinite(low) and np.isfinite(high)):
        rng.bit_generator.state = state  # same resamples as the failed BCa attempt
        low, high = run("percentile", rng)
        used = "percentile (bca degenerate)"
    return ConfidenceInterval(estimate, low, high, level, used, n_boot)
