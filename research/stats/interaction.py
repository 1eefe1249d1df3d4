"""Does a condition's effect change with the players' skill? The condition x lineup interaction,
tested on setup-level contrasts, and the words a report may use for it.

Lineups listed in order of increasing skill play the same setups (boards or deals) with the
same game seeds, so every setup has a mean of each metric under every lineup, and the
lineups' differences on one setup carry none of the setup-to-setup variation. Per setup, the
**skill contrast** is ``e = sum_L w_L y_L`` over the lineups' setup means, with linear-trend
weights (the skill ranks centred and scaled so that ``e`` is the change from the least to the
most skilled lineup under a straight-line trend; with two lineups, simply ``y_high - y_low``).
The **interaction** of a condition with skill is the mean skill contrast on its setups minus
that on the baseline's: how much larger the condition's effect is for the most skilled lineup
than for the least. The unit of analysis is the setup; games within a setup are averaged first.

**The test** is a randomisation test over setups (:mod:`ludolab.research.stats.randomisation`):
with common random numbers (setup ``s`` of every condition played with the same seeds) the
signs of the paired differences ``e(c, s) - e(base, s)`` are flipped, otherwise the setups'
contrasts are reassigned between the two conditions; the statistic is studentised (paired t,
Welch's t). Under identical conditions (an A/A run) the conditions' setups are exchangeable and
the test is exact whatever the metric's distribution. For the null of no interaction beside a
main effect it is only asymptotically valid, and relabelling unequal groups with unequal
variances can reject too often in small designs, so the p-value reported is the larger of the
randomisation test's and the t-test's on the same contrasts: exact under exchangeability, and
as reliable as Welch's or the paired t-test otherwise. Beside it: the change's t interval (per
test, not corrected), the change the design detects with 80% power at the family's first-step
level, and, where the config declares a margin for the metric, the equivalence test (TOST) of
the change within that margin: the only way a report may say the effect does *not* change with
skill.

**The verdict** (:func:`skill_verdict`) words a condition's effect across skill from the
corrected tests only: the report's main comparisons within each lineup (is the effect
established, or shown equivalent to zero, in that lineup?) and the interaction family (is a
change detected, or shown to lie within the margin?). An uncorrected interval never decides a
word, so a verdict never claims an effect the report's findings do not list.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from statsmodels.stats.weightstats import CompareMeans, DescrStatsW

from ludolab.research.stats.power import (
    equivalence_p,
    minimum_detectable_difference,
    smallest_p,
)
from ludolab.research.stats.randomisation import mean_difference_test, resamples_for

INTERACTION_COLUMNS = [
    "metric",
    "condition",
    "baseline",
    "lineups",
    "n",
    "n_baseline",
    "change",
    "low",
    "high",
    "p",
    "p_randomisation",
    "p_t",
    "resamples",
    "smallest_p",
    "mde",
    "margin",
    "equivalence_p",
]
"""Columns of :func:`skill_interaction`'s table, in order."""


def skill_weights(k: int) -> np.ndarray:
    """Linear-trend weights for ``k`` >= 2 lineups in order of skill: centred ranks scaled so
    that the weighted sum of a straight line through the lineups' values is its rise from the
    first to the last (``[-1, 1]`` for two lineups; ``[-1, 0, 1]`` for three)."""
    if k < 2:
        raise ValueError(f"a skill contrast needs at least 2 lineups, got {k}")
    ranks = np.arange(k, dtype=float)
    centred = ranks - ranks.mean()
    return centred / (centred @ centred) * (k - 1)


def skill_contrasts(
    means: pd.DataFrame, metric: str, skill: Sequence[str], baseline: str, *, paired: bool
) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Per condition other than ``baseline``: (its setups' skill contrasts, the baseline's), in
    the metric's unit (see the module docstring). Paired: the setups both conditions have, in
    the same order; setups that lack a lineup's mean are left out; conditions with fewer than
    2 usable setups (or without a baseline) are left out. ``means`` as for
    :func:`skill_interaction`."""
    skill = list(skill)
    weights = skill_weights(len(skill))
    wide = means[means["lineup"].isin(skill)].pivot_table(
        index=["condition", "setup"], columns="lineup", values=metric, observed=True
    )
    wide = wide.reindex(columns=skill).dropna()
    conditions = [str(c) for c in wide.index.get_level_values("condition").unique()]
    if baseline not in conditions:
        return {}
    base = wide.xs(baseline, level="condition")
    out = {}
    for condition in conditions:
        if condition == baseline:
            continue
        cond = wide.xs(condition, level="condition")
        ref = base
        if paired:
            shared = cond.index.intersection(base.index)
            cond, ref = cond.loc[shared], base.loc[shared]
        if len(cond) >= 2 and len(ref) >= 2:
            out[condition] = (cond.to_numpy(float) @ weights, ref.to_numpy(float) @ weights)
    return out


def _t_test(x: np.ndarray, y: np.ndarray, paired: bool, alpha: float) -> tuple[float, float, float]:
    """(low, high, p): the ``1 - alpha`` t interval of ``mean(x) - mean(y)`` and its two-sided
    t-test, paired over positions or Welch's. When nothing varies (no spread in the paired
    differences, or within either group) the interval has zero width and p is NaN (the
    randomisation test's exact answer stands alone)."""
    if paired:
        diff = x - y
        if np.ptp(diff) == 0:
            return float(diff.mean()), float(diff.mean()), float("nan")
        stats = DescrStatsW(diff)
        low, high = stats.tconfint_mean(alpha=alpha)
        p = stats.ttest_mean(0.0)[1]
    else:
        if np.ptp(x) == 0 and np.ptp(y) == 0:
            estimate = float(x.mean() - y.mean())
            return estimate, estimate, float("nan")
        cm = CompareMeans(DescrStatsW(x), DescrStatsW(y))
        low, high = cm.tconfint_diff(alpha=alpha, usevar="unequal")
        p = cm.ttest_ind(usevar="unequal")[1]
    return float(low), float(high), float(p)


def skill_interaction(
    means: pd.DataFrame,
    metric: str,
    skill: Sequence[str],
    baseline: str,
    *,
    paired: bool,
    alpha: float = 0.05,
    level: float | None = None,
    margin: float | None = None,
    seed: int | Sequence[int] = 0,
) -> pd.DataFrame:
    """The interaction test of every condition against ``baseline`` for ``metric``: one row
    per condition (:data:`INTERACTION_COLUMNS`).

    ``means``: one row per lineup, condition and setup, with columns ``lineup``,
    ``condition``, ``setup`` and ``metric`` (setup means, as
    :func:`ludolab.research.experiment.run_data.setup_means` makes them). ``skill``: the
    lineups compared, least skilled first. ``paired``: setup ``s`` of every condition shares
    its game seeds (pair setups by index); else the conditions' setups are independent.
    ``alpha``: the interval is ``1 - alpha``. ``level``: the level the test is held to in its
    family (default ``alpha``; a corrected family passes its first step's level ``alpha / m``):
    the minimum detectable change is computed at it, and the randomisation draws enough
    relabellings to reach it (:func:`~ludolab.research.stats.randomisation.resamples_for`).
    ``margin``: the smallest change that matters, in the metric's unit; with it,
    ``equivalence_p`` is the TOST p-value of ``|change| < margin`` (else NaN). ``seed``: the
    randomisation's seed (each condition's test adds its position to it).

    ``change`` is how much larger the condition's effect is for the most skilled lineup than
    for the least (see the module docstring), with its t interval (``low``, ``high``); ``p`` is
    the larger of the randomisation test's two-sided p-value (``p_randomisation``, over
    ``resamples`` relabellings) and the t-test's (``p_t``: paired, or Welch's); ``smallest_p``
    is the smallest p-value the test can return with this many setups (when it is not below
    the family's level, no change is detectable); ``mde`` the change detected with 80% power.
    Setups that lack a lineup's mean (a NaN metric on every game there) are left out of that
    condition's test; a condition with fewer than 2 usable setups has no row.
    """
    level = alpha if level is None else level
    seeds = [int(seed)] if np.isscalar(seed) else [int(s) for s in seed]  # type: ignore[arg-type]
    rows = []
    contrasts = skill_contrasts(means, metric, skill, baseline, paired=paired)
    for position, (condition, (e_cond, e_ref)) in enumerate(contrasts.items(), start=1):
        test = mean_difference_test(
            e_cond,
            e_ref,
            paired=paired,
            seed=[*seeds, position],
            n_resamples=resamples_for(level),
        )
        low, high, p_t = _t_test(e_cond, e_ref, paired, alpha)
        # The larger of the two: exact whenever the conditions are exchangeable (the
        # randomisation test), and no worse than the t-test where they are not but the change
        # is still zero (unequal variances with unequal group sizes, where relabelling alone
        # can reject too often).
        p = test.p if np.isnan(p_t) else max(test.p, p_t)
        if paired:
            sd = float(np.std(e_cond - e_ref, ddof=1))
            mde = minimum_detectable_difference(sd, len(e_cond), alpha=level, paired=True)
        else:
            pooled = float(np.sqrt((np.var(e_cond, ddof=1) + np.var(e_ref, ddof=1)) / 2))
            mde = minimum_detectable_difference(pooled, len(e_cond), len(e_ref), alpha=level)
        floor = smallest_p(len(e_cond), len(e_ref), paired=paired)
        equivalent = (
            equivalence_p(e_cond, e_ref, margin, paired=paired)
            if margin is not None
            else float("nan")
        )
        rows.append(
            [
                metric,
                condition,
                baseline,
                " < ".join(skill),
                len(e_cond),
                len(e_ref),
                test.estimate,
                low,
                high,
                p,
                test.p,
                p_t,
                test.resamples,
                floor,
                float("nan") if floor >= level else mde,
                float("nan") if margin is None else float(margin),
                equivalent,
            ]
        )
    return pd.DataFrame(rows, columns=INTERACTION_COLUMNS)


@dataclass(frozen=True)
class LineupEffect:
    """A condition's effect against the baseline within one lineup, as the report's corrected
    main comparison found it.

    Attributes:
        lineup: the lineup's name.
        direction: the sign the main comparison gives the effect (+1 higher, -1 lower, 0 none:
            the sign its finding is worded with, that of its rank effect size).
        established: the comparison is a finding (significant after the report's correction).
        equivalent: the comparison shows the effect within ``±margin`` of zero (TOST, corrected).
    """

    lineup: str
    direction: int
    established: bool
    equivalent: bool = False


@dataclass(frozen=True)
class SkillChange:
    """The interaction test of one condition and metric, corrected over its family.

    Attributes:
        change: the effect's change from the least to the most skilled lineup (metric's unit).
        detected: the test is significant after the family's correction.
        within_margin: the change is shown to lie within ``±margin`` (TOST, corrected).
    """

    change: float
    detected: bool
    within_margin: bool = False


HOLDS = "holds across skill"
GROWS = "grows with skill"
SHRINKS = "shrinks with skill"
REVERSES = "reverses with skill"
CHANGES = "changes with skill"
NO_CHANGE = "no change with skill"
NOT_DETECTED = "no change detected"
STATES_AN_INTERACTION = (GROWS, SHRINKS, REVERSES, CHANGES, "present for ")
"""Verdict beginnings that state a change with skill (an interaction)."""
ASSERTS_AN_EFFECT = (HOLDS, GROWS, SHRINKS, REVERSES, "present for ")
"""Verdict beginnings that assert an effect in some lineup (each needs a finding behind it)."""


def skill_verdict(effects: Sequence[LineupEffect], change: SkillChange) -> str:
    """How a condition's effect depends on skill, in words that the corrected tests support.

    ``effects``: the condition's effect in every lineup, least skilled first, from the report's
    main comparisons; ``change``: its interaction test.

    * ``reverses with skill``: findings of both signs, every one of one sign in less skilled
      lineups than every one of the other (the findings themselves show that the effect
      changes, whatever the change test says); findings of both signs in another order:
      ``changes with skill``.
    * With a detected change: ``present for L only`` when the effect is a finding for lineup L
      alone, shown equivalent to none in every other lineup, and the change points the way
      this implies; ``grows with skill`` / ``shrinks with skill`` when the findings (one sign)
      point the way of the change / against it; ``changes with skill`` when no lineup's effect
      is a finding (or "present for L only" would point the other way).
    * Without one: ``holds across skill`` when the effect is a finding, with one sign, in
      every lineup and the change is shown to lie within the margin; ``no change with skill``
      when the change is shown within the margin otherwise; else ``no change detected``
      (which is not evidence of none: the report gives the change the design would detect).
    """
    found = [(i, e) for i, e in enumerate(effects) if e.established]
    signs = {e.direction for _, e in found}
    if len(signs) > 1:
        rise = [i for i, e in found if e.direction > 0]
        fall = [i for i, e in found if e.direction < 0]
        return REVERSES if max(rise) < min(fall) or max(fall) < min(rise) else CHANGES
    if change.detected:
        if not found:
            return CHANGES
        direction = int(np.sign(change.change))
        sign = signs.pop()
        if len(found) == 1 and all(e.equivalent for e in effects if not e.established):
            i, only = found[0]
            implied = sign if i == len(effects) - 1 else -sign if i == 0 else direction
            return f"present for {only.lineup} only" if direction == implied else CHANGES
        return GROWS if direction == sign else SHRINKS
    if change.within_margin:
        return HOLDS if len(found) == len(effects) else NO_CHANGE
    return NOT_DETECTED


def states_an_interaction(verdict: str) -> bool:
    """Whether a :func:`skill_verdict` says that the effect changes with skill."""
    return verdict.startswith(STATES_AN_INTERACTION)


def asserts_an_effect(verdict: str) -> bool:
    """Whether a :func:`skill_verdict` says that the condition has an effect in some lineup."""
    return verdict.startswith(ASSERTS_AN_EFFECT)
