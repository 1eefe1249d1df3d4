"""The condition x skill interaction (research/stats/interaction.py) on planted data: an effect
present for one lineup only is reported as such, growing, shrinking and reversing effects are
told apart, and lineups that differ only by chance show no interaction in A/A runs."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from ludolab.research.stats.interaction import skill_interaction, skill_verdict, skill_weights
from ludolab.research.stats.multiple import adjust_pvalues


def planted(
    effects: dict[str, float],
    seed: int,
    setups: int = 100,
    board_sd: float = 6.0,
    noise_sd: float = 2.0,
    paired: bool = True,
) -> pd.DataFrame:
    """Setup means of a metric for conditions ``base`` and ``cond`` under the lineups of
    ``effects`` (lineup -> the condition's true effect for it): a mean per lineup, a board
    effect shared by every lineup on a board (and, paired, a seed effect shared by setup
    index across conditions), and independent noise per lineup and setup."""
    rng = np.random.default_rng(seed)
    seeds = rng.normal(0, board_sd, setups)
    rows = []
    for condition in ("base", "cond"):
        boards = rng.normal(0, board_sd, setups)
        for i, (lineup, effect) in enumerate(effects.items()):
            shift = 60.0 + 5 * i + (effect if condition == "cond" else 0.0)
            noise = rng.normal(0, noise_sd, setups)
            y = shift + boards + (seeds if paired else 0.0) + noise
            rows += [(lineup, condition, s, y[s]) for s in range(setups)]
    return pd.DataFrame(rows, columns=["lineup", "condition", "setup", "turns"])


def verdict_of(means: pd.DataFrame, skill: list[str], paired: bool = True) -> tuple[str, float]:
    effects, tests = skill_interaction(means, "turns", skill, "base", paired=paired)
    [test] = tests.itertuples(index=False)
    return skill_verdict(effects, test.change, test.p, 0.05), test.p


def test_weights_measure_the_rise_from_least_to_most_skilled() -> None:
    assert skill_weights(2) == pytest.approx([-1, 1])
    assert skill_weights(3) == pytest.approx([-1, 0, 1])
    line = np.array([2.0, 5.0, 8.0, 11.0])  # rises by 9 from first to last
    assert skill_weights(4) @ line == pytest.approx(9.0)
    with pytest.raises(ValueError):
        skill_weights(1)


def test_an_effect_present_for_one_lineup_only_is_reported_as_such() -> None:
    means = planted({"weak": 0.0, "mid": 0.0, "strong": 4.0}, seed=1)
    verdict, p = verdict_of(means, ["weak", "mid", "strong"])
    assert p < 0.001 and verdict == "present for strong only"


@pytest.mark.parametrize(
    ("effects", "expected"),
    [
        ({"weak": 4.0, "strong": 10.0}, "grows with skill"),
        ({"weak": -10.0, "strong": -4.0}, "shrinks with skill"),
        ({"weak": 5.0, "strong": -5.0}, "reverses with skill"),
        ({"weak": 5.0, "strong": 5.0}, "holds across skill"),
        ({"weak": 0.0, "strong": 0.0}, "no effect at any skill level"),
    ],
)
def test_growing_shrinking_reversing_and_steady_effects(effects, expected) -> None:
    assert verdict_of(planted(effects, seed=2), list(effects))[0] == expected


def test_unpaired_setups_are_tested_too() -> None:
    means = planted({"weak": 0.0, "strong": 4.0}, seed=3, paired=False)
    verdict, p = verdict_of(means, ["weak", "strong"], paired=False)
    assert p < 0.001 and verdict == "present for strong only"


@pytest.mark.parametrize("paired", [True, False])
def test_lineups_that_differ_by_chance_only_rarely_interact(paired) -> None:
    """A/A: both lineups have the same true effect; at most 2 of 20 runs find an interaction
    at the 5% level (about 1 expected)."""
    found = 0
    for seed in range(20):
        means = planted({"a": 3.0, "b": 3.0}, seed=100 + seed, paired=paired)
        _, tests = skill_interaction(means, "turns", ["a", "b"], "base", paired=paired)
        found += bool(tests["p"].iloc[0] < 0.05)
    assert found <= 2


def test_identical_lineups_show_no_interaction_at_all() -> None:
    means = planted({"a": 6.0}, seed=4)
    twin = means.assign(lineup="b")
    effects, tests = skill_interaction(
        pd.concat([means, twin]), "turns", ["a", "b"], "base", paired=True
    )
    [test] = tests.itertuples(index=False)
    assert test.change == 0 and test.low == test.high == 0 and test.p == 1.0
    assert skill_verdict(effects, test.change, test.p, 0.05) == "holds across skill"


def test_effects_are_in_the_metrics_unit_with_intervals() -> None:
    means = planted({"weak": 2.0, "strong": 6.0}, seed=5, setups=400)
    effects, tests = skill_interaction(means, "turns", ["weak", "strong"], "base", paired=True)
    by = effects.set_index("lineup")
    for lineup, true in (("weak", 2.0), ("strong", 6.0)):
        assert by.loc[lineup, "low"] < true < by.loc[lineup, "high"]
    test = tests.iloc[0]
    assert test["low"] < 4.0 < test["high"] and test["n"] == 400
    # The design detects a change a little under 3 standard errors of it.
    se = (test["high"] - test["low"]) / (2 * 1.966)
    assert 2.5 * se < test["mde"] < 3.1 * se


def test_a_family_of_interaction_tests_is_corrected_together() -> None:
    ps = [verdict_of(planted({"a": 0.0, "b": e}, seed=6 + i), ["a", "b"])[1] for i, e in
          enumerate([0.0, 0.0, 5.0])]  # fmt: skip
    adjusted = adjust_pvalues(np.array(ps), "holm")
    assert adjusted[2] < 0.05 and all(adjusted >= ps)
