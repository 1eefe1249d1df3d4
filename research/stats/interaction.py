"""Does a condition's effect change with the players' skill? The condition x lineup interaction,
tested on setup-level contrasts.

Lineups listed in order of increasing skill play the same setups (boards or deals) with the
same game seeds, so every setup has a mean of each metric under every lineup, and the
lineups' differences on one setup carry none of the setup-to-setup variation. Per setup, the
**skill contrast** is ``e = sum_L w_L y_L`` over the lineups' setup means, with linear-trend
weights (the skill ranks centred and scaled so that ``e`` is the change from the least to the
most skilled lineup under a straight-line trend; with two lineups, simply ``y_high - y_low``).
The **interaction** of a condition with skill is then the mean skill contrast on its setups
minus that on the baseline's: how much larger the condition's effect is for the most skilled
lineup than for the least. With common random numbers (setup ``s`` of every condition played
with the same seeds) it is a paired t-test over setup indices on ``e(c, s) - e(base, s)``;
otherwise Welch's t-test between the conditions' setups; each with its t interval
(statsmodels). The unit of analysis is the setup; games within a setup are averaged first.

Each condition's effect within a lineup (condition minus baseline, over setups, with its t
interval) is reported beside it, and :func:`skill_verdict` words the finding: it holds across
skill (no change detected; with what change the design could have detected at 80% power),
grows, shrinks or reverses with skill, or is present for one lineup only.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
from statsmodels.stats.weightstats import CompareMeans, DescrStatsW

from ludolab.research.stats.power import minimum_detectable_difference

EFFECT_COLUMNS = ["metric", "condition", "baseline", "lineup", "n", "effect", "low", "high"]
INTERACTION_COLUMNS = [
    "metric",
    "condition",
    "baseline",
    "lineups",
    "n",
    "change",
    "low",
    "high",
    "p",
    "mde",
]


def skill_weights(k: int) -> np.ndarray:
    """Linear-trend weights for ``k`` >= 2 lineups in order of skill: centred ranks scaled so
    that the weighted sum of a straight line through the lineups' values is its rise from the
    first to the last (``[-1, 1]`` for two lineups; ``[-1, 0, 1]`` for three)."""
    if k < 2:
        raise ValueError(f"a skill contrast needs at least 2 lineups, got {k}")
    ranks = np.arange(k, dtype=float)
    centred = ranks - ranks.mean()
    return centred / (centred @ centred) * (k - 1)


def _mean_difference(
    x: np.ndarray, y: np.ndarray, paired: bool, alpha: float
) -> tuple[float, float, float, float]:
    """(mean of x - mean of y, interval low, high, two-sided p): paired over the positions of
    ``x`` and ``y``, or Welch's. Identical samples (no spread) give their difference with a
    zero-width interval, and p = 1 when it is 0."""
    diff = x - y if paired else None
    spread = np.ptp(diff) if paired else max(np.ptp(x), np.ptp(y))
    estimate = float(diff.mean()) if paired else float(x.mean() - y.mean())
    if spread == 0:
        return estimate, estimate, estimate, 1.0 if estimate == 0 else 0.0
    if paired:
        stats = DescrStatsW(diff)
        low, high = stats.tconfint_mean(alpha=alpha)
        _, p, _ = stats.ttest_mean(0.0)
    else:
        cm = CompareMeans(DescrStatsW(x), DescrStatsW(y))
        low, high = cm.tconfint_diff(alpha=alpha, usevar="unequal")
        _, p, _ = cm.ttest_ind(usevar="unequal")
    return estimate, float(low), float(high), float(p)


def skill_interaction(
    means: pd.DataFrame,
    metric: str,
    skill: Sequence[str],
    baseline: str,
    *,
    paired: bool,
    alpha: float = 0.05,
    level: float | None = None,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(effects, interactions) of every condition against ``baseline`` for ``metric``.

    ``means``: one row per lineup, condition and setup, with columns ``lineup``,
    ``condition``, ``setup`` and ``metric`` (setup means, as
    :func:`ludolab.research.experiment.analysis.setup_means` makes them). ``skill``: the
    lineups compared, least skilled first. ``paired``: setup ``s`` of every condition shares
    its game seeds (pair setups by index); else the conditions' setups are independent.
    ``alpha``: the intervals are ``1 - alpha``; ``level``: the test level the minimum
    detectable change is computed at (default ``alpha``; a corrected family passes its first
    step's level).

    Effects: one row per condition and lineup (:data:`EFFECT_COLUMNS`): the condition's mean
    minus the baseline's over setups, in the metric's unit, with its interval. Interactions:
    one row per condition (:data:`INTERACTION_COLUMNS`): ``change`` is how much larger the
    effect is for the most skilled lineup than for the least (see the module docstring), with
    its interval, p-value and ``mde``, the change the design detects with 80% power. Setups
    that lack a lineup's mean (a NaN metric on every game there) are left out of that
    condition's test.
    """
    skill = list(skill)
    weights = skill_weights(len(skill))
    level = alpha if level is None else level
    wide = means[means["lineup"].isin(skill)].pivot_table(
        index=["condition", "setup"], columns="lineup", values=metric, observed=True
    )
    wide = wide.reindex(columns=skill).dropna()
    conditions = [str(c) for c in wide.index.get_level_values("condition").unique()]
    if baseline not in conditions:
        return pd.DataFrame(columns=EFFECT_COLUMNS), pd.DataFrame(columns=INTERACTION_COLUMNS)
    base = wide.xs(baseline, level="condition")
    effects, tests = [], []
    for condition in conditions:
        if condition == baseline:
            continue
        cond = wide.xs(condition, level="condition")
        if paired:
            shared = cond.index.intersection(base.index)
            cond, ref = cond.loc[shared], base.loc[shared]
        else:
            ref = base
        if len(cond) < 2 or len(ref) < 2:
            continue
        for lineup in skill:
            effect, low, high, _ = _mean_difference(
                cond[lineup].to_numpy(float), ref[lineup].to_numpy(float), paired, alpha
            )
            effects.append([metric, condition, baseline, lineup, len(cond), effect, low, high])
        e_cond = cond.to_numpy(float) @ weights
        e_ref = ref.to_numpy(float) @ weights
        change, low, high, p = _mean_difference(e_cond, e_ref, paired, alpha)
        if paired:
            sd = float(np.std(e_cond - e_ref, ddof=1))
            mde = minimum_detectable_difference(sd, len(cond), alpha=level, paired=True)
        else:
            pooled = np.sqrt((np.var(e_cond, ddof=1) + np.var(e_ref, ddof=1)) / 2)
            mde = minimum_detectable_difference(float(pooled), len(cond), len(ref), alpha=level)
        tests.append(
            [metric, condition, baseline, " < ".join(skill), len(cond), change, low, high, p, mde]
        )
    return (
        pd.DataFrame(effects, columns=EFFECT_COLUMNS),
        pd.DataFrame(tests, columns=INTERACTION_COLUMNS),
    )


def skill_verdict(effects: pd.DataFrame, change: float, p_adj: float, alpha: float) -> str:
    """How a condition's effect depends on skill, in words, from its per-lineup ``effects``
    (rows of one condition and metric, least skilled lineup first, with ``effect``, ``low``,
    ``high``), the interaction's ``change`` and its adjusted p-value.

    Without a detected interaction (``p_adj >= alpha``): "holds across skill" when some lineup
    shows the effect, else "no effect at any skill level". With one: "present for LINEUP only"
    when exactly one lineup's interval excludes zero; "reverses with skill" when the least and
    the most skilled lineups' intervals exclude zero on opposite sides; else "grows" or
    "shrinks" with skill, by whether the change points the way of the effect.
    """
    rows = list(effects.itertuples(index=False))
    shown = [r for r in rows if r.low > 0 or r.high < 0]
    if not p_adj < alpha:
        if not shown:
            return "no effect at any skill level"
        if len({np.sign(r.effect) for r in shown}) > 1:
            return "opposite effects in different lineups, though no change with skill is detected"
        return "holds across skill"
    first, last = rows[0], rows[-1]
    if (first.low > 0 and last.high < 0) or (first.high < 0 and last.low > 0):
        return "reverses with skill"
    if len(shown) == 1:
        return f"present for {shown[0].lineup} only"
    if not shown:
        return "changes with skill, though no lineup's effect is distinguishable from zero"
    direction = np.sign(np.mean([r.effect for r in shown]))
    return "grows with skill" if np.sign(change) == direction else "shrinks with skill"
