"""A run's findings across skill: whether each condition's effect changes with the lineups'
skill (``comparisons.skill`` names lineups, least skilled first).

For each primary metric (every tested metric when none is declared primary) and each condition
against the baseline, :func:`ludolab.research.stats.interaction.skill_interaction` tests the
change of the effect from the least to the most skilled lineup on setup-level contrasts (a
randomisation test), with an equivalence test where the config declares a margin for the
metric (``comparisons.margins``: the smallest difference that matters is also the smallest
change across skill that matters). Those tests are a family of their own, corrected by the
config's correction. Each condition's effect within a lineup is not tested again: it is the
report's main comparison (same setups, same correction), so the words across skill
(:func:`~ludolab.research.stats.interaction.skill_verdict`) rest on the same findings the report
lists.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from ludolab.research.stats.interaction import (
    INTERACTION_COLUMNS,
    LineupEffect,
    SkillChange,
    skill_interaction,
    skill_verdict,
)
from ludolab.research.stats.multiple import adjust_pvalues
from ludolab.research.stats.power import UNTESTABLE

SKILL_COLUMNS = [
    *INTERACTION_COLUMNS,
    "p_adj",
    "significant",
    "equivalence_p_adj",
    "equivalent",
    "verdict",
]
"""Columns of ``skill.csv``: the interaction tests, corrected, with their verdicts."""

EFFECT_COLUMNS = [
    "metric",
    "condition",
    "baseline",
    "lineup",
    "n",
    "effect",
    "low",
    "high",
    "p_adj",
    "direction",
    "status",
]
"""Columns of ``skill-effects.csv``: each condition's effect per lineup, as the report's main
comparison found it (``effect`` the difference of means with its interval; ``direction`` the
sign its finding is worded with, that of the rank effect size; ``status``: established,
equivalent, not detected or not testable)."""


def effect_status(row: Mapping[str, Any]) -> str:
    """A main comparison's outcome in one word: ``established`` (a finding), ``equivalent``
    (shown within its margin), ``not testable`` or ``not detected``."""
    verdict = str(row["verdict"])
    if bool(row["significant"]):
        return "established"
    if verdict.startswith("equivalent"):
        return "equivalent"
    if verdict.startswith(UNTESTABLE):
        return "not testable"
    return "not detected"


def lineup_effects(
    pairwise: pd.DataFrame, metrics: Sequence[str], skill: Sequence[str], baseline: str
) -> pd.DataFrame:
    """The main comparisons of every condition against ``baseline`` in the ``skill`` lineups,
    for ``metrics``: one row per metric, condition and lineup (:data:`EFFECT_COLUMNS`), lineups
    in skill order. ``pairwise``: the run's comparisons (oriented condition vs baseline)."""
    rows = pairwise[
        pairwise["metric"].isin(metrics)
        & pairwise["lineup"].isin(skill)
        & (pairwise["condition2"] == baseline)
    ]
    if rows.empty:
        return pd.DataFrame(columns=EFFECT_COLUMNS)
    out = pd.DataFrame(
        {
            "metric": rows["metric"],
            "condition": rows["condition1"].astype(str),
            "baseline": baseline,
            "lineup": rows["lineup"],
            "n": rows["n1"],
            "effect": rows["diff"],
            "low": rows["diff_low"],
            "high": rows["diff_high"],
            "p_adj": rows["p_adj"],
            "direction": np.sign(rows["effect"].to_numpy(float)).astype(int),
            "status": [effect_status(r) for _, r in rows.iterrows()],
        }
    )
    rank = {name: i for i, name in enumerate(skill)}
    order = out["lineup"].map(rank)
    return (
        out.assign(_rank=order)
        .sort_values(["metric", "condition", "_rank"], kind="stable")
        .drop(columns="_rank")
        .reset_index(drop=True)
    )


def _per_lineup(
    effects: pd.DataFrame, metric: str, condition: str, skill: Sequence[str]
) -> list[LineupEffect]:
    """One condition's effect in every ``skill`` lineup, in skill order; a lineup without a
    main comparison (no usable setups) is neither a finding nor shown equivalent."""
    rows = effects[(effects["metric"] == metric) & (effects["condition"] == condition)]
    by = {r.lineup: r for r in rows.itertuples(index=False)}
    return [
        LineupEffect(
            name,
            int(by[name].direction),
            by[name].status == "established",
            by[name].status == "equivalent",
        )
        if name in by
        else LineupEffect(name, 0, False, False)
        for name in skill
    ]


def skill_tables(
    by_setup: pd.DataFrame,
    pairwise: pd.DataFrame,
    comparisons: dict[str, Any],
    metrics: Sequence[str],
    paired: bool,
    *,
    margins: Mapping[str, float] | None = None,
    seed: int = 0,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(effects, tests) across skill; both empty unless ``comparisons`` names two or more
    ``skill`` lineups and a baseline.

    ``by_setup``: setup means (:func:`ludolab.research.experiment.run_data.setup_means`);
    ``pairwise``: the run's main comparisons, corrected (the effects per lineup and whether
    each is established come from them); ``comparisons``: the run's resolved
    ``[comparisons]``; ``metrics``: the per-game columns tested across skill; ``paired``: setups
    pair by index across conditions; ``margins``: equivalence margins by per-game column;
    ``seed``: the run's master seed (the randomisation tests' seeds derive from it and the
    metric's position). Effects: :data:`EFFECT_COLUMNS`; tests: one row per metric and
    condition (:data:`SKILL_COLUMNS`), ``p_adj`` and ``equivalence_p_adj`` corrected over this
    table, ``mde`` at the family's first-step level ``alpha / m``.
    """
    skill = list(comparisons.get("skill") or [])
    baseline = comparisons.get("baseline")
    alpha = float(comparisons["alpha"])
    margins = dict(margins or {})
    if len(skill) < 2 or baseline is None:
        return pd.DataFrame(columns=EFFECT_COLUMNS), pd.DataFrame(columns=SKILL_COLUMNS)
    others = by_setup["condition"].astype(str).nunique() - 1
    level = alpha / max(1, others * len(metrics))
    tests = [
        skill_interaction(
            by_setup,
            metric,
            skill,
            baseline,
            paired=paired,
            alpha=alpha,
            level=level,
            margin=margins.get(metric),
            seed=[seed, i],
        )
        for i, metric in enumerate(metrics)
    ]
    tests = [t for t in tests if not t.empty]
    if not tests:
        return pd.DataFrame(columns=EFFECT_COLUMNS), pd.DataFrame(columns=SKILL_COLUMNS)
    test = pd.concat(tests, ignore_index=True)
    method = comparisons["correction"]
    test["p_adj"] = adjust_pvalues(test["p"].to_numpy(float), method)
    test["significant"] = (test["p_adj"] < alpha).astype(bool)
    test["equivalence_p_adj"] = adjust_pvalues(test["equivalence_p"].to_numpy(float), method)
    test["equivalent"] = (test["equivalence_p_adj"] < alpha).astype(bool)
    effects = lineup_effects(pairwise, metrics, skill, baseline)
    test["verdict"] = [
        skill_verdict(
            _per_lineup(effects, r.metric, r.condition, skill),
            SkillChange(float(r.change), bool(r.significant), bool(r.equivalent)),
        )
        for r in test.itertuples(index=False)
    ]
    return effects, test[SKILL_COLUMNS]


__all__ = [
    "EFFECT_COLUMNS",
    "SKILL_COLUMNS",
    "effect_status",
    "lineup_effects",
    "skill_tables",
]
