"""What a design can detect: variance components, minimum detectable differences, sample sizes,
equivalence tests, and the null distribution of seat balance.

The unit is the setup (a board or a deal): a condition's effect is estimated from setup means,
each the mean of ``g`` games on one setup. With a between-setup variance ``var_b`` and a
within-setup (game-to-game) variance ``var_w``, a setup mean varies with
``var_b + var_w / g``; the intraclass correlation ``icc = var_b / (var_b + var_w)`` says how
much of a game's variation belongs to its setup. Power is that of a two-sided t-test on setup
means (:mod:`statsmodels.stats.power`); the rank tests the comparisons use have about 95% of its
efficiency on normal data, so the figures are a close, slightly optimistic guide.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
import scipy.stats as st
from numpy.typing import ArrayLike
from statsmodels.stats.power import TTestIndPower, TTestPower
from statsmodels.stats.weightstats import ttost_ind, ttost_paired

from ludolab.research.stats.effects import SeedLike


@dataclass(frozen=True)
class VarianceComponents:
    """One-way random-effects ANOVA of games within setups.

    Attributes:
        between: variance of the setup effects (``var_b``, >= 0), in squared metric units.
        within: variance of games around their setup's mean (``var_w``).
        games_per_setup: the mean number of games per setup (``g``).
        setups: number of setups.
        ms_between, ms_within: the ANOVA mean squares; n0: the effective games per setup of
            the between-setup mean square (``E[ms_between] = within + n0 * between``).
    """

    between: float
    within: float
    games_per_setup: float
    setups: int
    ms_between: float = float("nan")
    ms_within: float = float("nan")
    n0: float = float("nan")

    def between_upper(self, confidence: float = 0.8) -> float:
        """A one-sided upper confidence bound for ``between`` (chi-square bound on the
        between-setup mean square, ``setups - 1`` degrees of freedom): planning with it guards
        the promised power against a pilot that happened to show little setup variance."""
        df = self.setups - 1
        if df < 1 or not np.isfinite(self.ms_between):
            return float("nan")
        ms_upper = self.ms_between * df / st.chi2.ppf(1.0 - confidence, df)
        return max(0.0, (ms_upper - self.ms_within) / self.n0)

    @property
    def icc(self) -> float:
        """Share of a game's variance that is between setups, in [0, 1] (NaN if undefined)."""
        total = self.between + self.within
        return self.between / total if total > 0 else float("nan")

    def setup_mean_sd(
        self, games_per_setup: float | None = None, between: float | None = None
    ) -> float:
        """Standard deviation of a setup mean over ``games_per_setup`` games (default: as
        observed): ``sqrt(var_b + var_w / g)``, with ``between`` in place of ``var_b`` when
        given (e.g. :meth:`between_upper`)."""
        g = self.games_per_setup if games_per_setup is None else games_per_setup
        b = self.between if between is None else between
        return float(np.sqrt(b + self.within / g))


def variance_components(values: ArrayLike, setups: ArrayLike) -> VarianceComponents:
    """ANOVA estimates of ``var_b`` and ``var_w`` from games (``values``) grouped by setup.

    ``setups`` labels each game's setup (distinct labels for setups of different conditions,
    so that condition effects are not counted as setup variance: centre each condition first,
    or label setups by condition and index and pass condition-centred values). Unequal group
    sizes use the usual ``n0`` adjustment; a negative ``var_b`` estimate is set to 0. NaN values
    are dropped.
    """
    df = pd.DataFrame({"v": np.asarray(values, dtype=float), "s": np.asarray(setups)}).dropna()
    groups = df.groupby("s", sort=False)["v"]
    n_i = groups.size().to_numpy(dtype=float)
    k, n = len(n_i), float(n_i.sum())
    if k < 2 or n <= k:
        return VarianceComponents(float("nan"), float("nan"), n / max(k, 1), k)
    means = groups.mean().to_numpy()
    grand = float(df["v"].mean())
    ss_between = float((n_i * (means - grand) ** 2).sum())
    ss_within = float(((df["v"] - groups.transform("mean")) ** 2).sum())
    ms_between = ss_between / (k - 1)
    ms_within = ss_within / (n - k)
    n0 = (n - (n_i**2).sum() / n) / (k - 1)
    between = max(0.0, (ms_between - ms_within) / n0)
    return VarianceComponents(between, ms_within, n / k, k, ms_between, ms_within, n0)


def minimum_detectable_difference(
    sd: float,
    n1: int,
    n2: int | None = None,
    *,
    alpha: float = 0.05,
    power: float = 0.8,
    paired: bool = False,
) -> float:
    """The smallest true difference of condition means (in the metric's unit) that a two-sided
    t-test at level ``alpha`` detects with probability ``power``.

    Paired: ``n1`` pairs and ``sd`` the standard deviation of the paired differences.
    Independent: ``n1`` and ``n2`` setups and ``sd`` the (pooled) standard deviation of setup
    means. NaN when a sample is too small or ``sd`` is not a positive number.
    """
    if not np.isfinite(sd) or sd <= 0:
        return float("nan")
    if paired:
        if n1 < 2:
            return float("nan")
        d = TTestPower().solve_power(nobs=n1, alpha=alpha, power=power, alternative="two-sided")
    else:
        n2 = n1 if n2 is None else n2
        if n1 < 2 or n2 < 2:
            return float("nan")
        d = TTestIndPower().solve_power(
            nobs1=n1, ratio=n2 / n1, alpha=alpha, power=power, alternative="two-sided"
        )
    return _scalar(d) * sd


def _scalar(value: Any) -> float:
    """statsmodels' ``solve_power`` answer as a float: when its first root finder fails it
    falls back to another that returns a one-element array (seen with 150 setups at alpha =
    0.025), which ``float()`` refuses."""
    return float(np.asarray(value, dtype=float).reshape(-1)[0])


def smallest_p(n1: int, n2: int | None = None, *, paired: bool = False) -> float:
    """The smallest two-sided p-value the exact rank test can return: Wilcoxon signed-rank on
    ``n1`` pairs (``2 / 2**n1``) or Mann-Whitney U on ``n1`` and ``n2`` setups
    (``2 / C(n1 + n2, n1)``). When it is not below the level a test is held to, that test
    cannot find anything, however large the effect."""
    if paired:  # (ldexp: 2 / 2**n1 exactly, and 0.0 rather than an overflow past n1 = 1023)
        return min(1.0, math.ldexp(1.0, 1 - n1)) if n1 > 0 else 1.0
    n2 = n1 if n2 is None else n2
    if n1 <= 0 or n2 <= 0:
        return 1.0
    ways = math.comb(n1 + n2, n1)
    # A float holds 2 / ways until ways passes about 2**1024; beyond, the p-value is 0.0.
    return min(1.0, 2.0 / ways) if ways.bit_length() < 1000 else 0.0


def setups_for_a_finding(level: float, *, paired: bool = False) -> int:
    """The fewest setups per condition whose :func:`smallest_p` is below ``level``."""
    n = 2
    while smallest_p(n, n, paired=paired) >= level:
        n += 1
    return n


UNTESTABLE = "not testable at this size"
"""How a verdict starts when the family's level is below the rank test's smallest p-value."""


def untestable_verdict(floor: float, level: float) -> str:
    """The verdict of a test that could not find anything: its smallest possible p-value
    (``floor``, from :func:`smallest_p`) is not below the family's first-step level
    ``alpha / m`` (``level``). It names no MDE: no difference, however large, is detectable
    at this number of setups."""
    return f"{UNTESTABLE} (smallest possible p = {floor:.3g}, level alpha / m = {level:.3g})"


def setups_needed(
    difference: float,
    sd: float,
    *,
    alpha: float = 0.05,
    power: float = 0.8,
    paired: bool = False,
) -> int:
    """Setups per condition for a two-sided t-test at ``alpha`` to detect ``difference`` (in
    the metric's unit) with probability ``power``; ``sd`` as in
    :func:`minimum_detectable_difference`. At least 2."""
    if difference <= 0 or not np.isfinite(sd) or sd <= 0:
        raise ValueError(f"need a positive difference and sd, got {difference} and {sd}")
    effect = difference / sd
    if paired:
        n = TTestPower().solve_power(effect_size=effect, alpha=alpha, power=power)
    else:
        n = TTestIndPower().solve_power(effect_size=effect, alpha=alpha, power=power)
    return max(2, int(np.ceil(_scalar(n) - 1e-3)))  # the solver lands a hair above an integer


def equivalence_p(x: ArrayLike, y: ArrayLike, margin: float, *, paired: bool = False) -> float:
    """Two one-sided tests (TOST) of ``|mean(x) - mean(y)| < margin``: the larger of the two
    one-sided p-values (:func:`statsmodels.stats.weightstats.ttost_paired` /
    :func:`~statsmodels.stats.weightstats.ttost_ind` with Welch's variance). A small p-value
    supports equivalence within ``±margin``. NaN when a sample has fewer than 2 values."""
    xs, ys = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if xs.size < 2 or ys.size < 2:
        return float("nan")
    if paired:
        if np.all(xs - ys == xs[0] - ys[0]):  # constant differences: t undefined
            return 0.0 if abs(xs[0] - ys[0]) < margin else 1.0
        p = ttost_paired(xs, ys, -margin, margin)[0]
    else:
        p = ttost_ind(xs, ys, -margin, margin, usevar="unequal")[0]
    return float(p)


def balance_null(
    n_games: int, players: int, *, draws: int = 4000, seed: SeedLike = 0
) -> tuple[float, float, float]:
    """Balance ``1 - (max - min seat win rate)`` expected when every seat wins with chance
    ``1 / players``, over ``n_games`` decided games: (mean, 2.5% and 97.5% quantiles) from
    ``draws`` multinomial draws. Balance below 1 is expected from chance alone, the more so
    the fewer the games."""
    if n_games < 1:
        return float("nan"), float("nan"), float("nan")
    rng = np.random.default_rng(seed)
    wins = rng.multinomial(n_games, [1.0 / players] * players, size=draws) / n_games
    bal = 1.0 - (wins.max(axis=1) - wins.min(axis=1))
    low, high = np.quantile(bal, [0.025, 0.975])
    return float(bal.mean()), float(low), float(high)
