"""A run's findings across skill: whether each condition's effect changes with the lineups'
skill (``comparisons.skill`` names lineups, least skilled first).

For each primary metric (every tested metric when none is declared primary) and each condition
against the baseline, :func:`ludolab.research.stats.interaction.skill_interaction` gives the
effect within every lineup and the change of the effect from the least to the most skilled
lineup, tested on setup-level contrasts. Those tests are a family of their own, corrected by
the config's correction; each gets a verdict
(:func:`~ludolab.research.stats.interaction.skill_verdict`): holds across skill, grows,
shrinks, reverses, or present for one lineup only.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pandas as pd

from ludolab.research.stats.interaction import (
    EFFECT_COLUMNS,
    INTERACTION_COLUMNS,
    skill_interaction,
    skill_verdict,
)
from ludolab.research.stats.multiple import adjust_pvalues

SKILL_COLUMNS = [*INTERACTION_COLUMNS, "p_adj", "significant", "verdict"]


def skill_tables(
    by_setup: pd.DataFrame, comparisons: dict[str, Any], metrics: Sequence[str], paired: bool
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(effects, tests) across skill; both empty unless ``comparisons`` names two or more
    ``skill`` lineups and a baseline.

    ``by_setup``: setup means (:func:`ludolab.research.experiment.analysis.setup_means`);
    ``comparisons``: the run's resolved ``[comparisons]``; ``metrics``: the per-game columns
    tested across skill; ``paired``: setups pair by index across conditions. Effects: one row
    per metric, condition and lineup (:data:`~ludolab.research.stats.interaction.EFFECT_COLUMNS`);
    tests: one row per metric and condition (:data:`SKILL_COLUMNS`), ``p_adj`` corrected over
    this table, ``mde`` at the family's first-step level ``alpha / m``.
    """
    skill = list(comparisons.get("skill") or [])
    baseline = comparisons.get("baseline")
    alpha = float(comparisons["alpha"])
    effects, tests = [], []
    if len(skill) >= 2 and baseline is not None:
        others = by_setup["condition"].astype(str).nunique() - 1
        level = alpha / max(1, others * len(metrics))
        for metric in metrics:
            e, t = skill_interaction(
                by_setup, metric, skill, baseline, paired=paired, alpha=alpha, level=level
            )
            effects.append(e)
            tests.append(t)
    tests = [t for t in tests if not t.empty]
    if not tests:
        return pd.DataFrame(columns=EFFECT_COLUMNS), pd.DataFrame(columns=SKILL_COLUMNS)
    effect = pd.concat([e for e in effects if not e.empty], ignore_index=True)
    test = pd.concat(tests, ignore_index=True)
    test["p_adj"] = adjust_pvalues(test["p"].to_numpy(float), comparisons["correction"])
    test["significant"] = (test["p_adj"] < alpha).astype(bool)
    test["verdict"] = [
        skill_verdict(
            effect[(effect["metric"] == r.metric) & (effect["condition"] == r.condition)],
            r.change,
            r.p_adj,
            alpha,
        )
        for r in test.itertuples(index=False)
    ]
    return effect, test[SKILL_COLUMNS]
