"""Findings across skill (research/stats/interaction.py, research/experiment/skill.py).

On planted data: an effect given to one lineup only, and an effect that grows with skill, are
reported as such at the power the design states; identical conditions (A/A) rarely show an
interaction, with binary, discrete and continuous metrics, paired and unpaired; and no verdict
claims an effect that the report's corrected main comparisons do not find."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import ludolab.research.experiment.analysis as analysis
from ludolab.research.experiment.analysis import RunData, compare, skill_analysis
from ludolab.research.stats.interaction import (
    CHANGES,
    GROWS,
    HOLDS,
    NO_CHANGE,
    NOT_DETECTED,
    REVERSES,
    SHRINKS,
    LineupEffect,
    SkillChange,
    asserts_an_effect,
    skill_interaction,
    skill_verdict,
    skill_weights,
    states_an_interaction,
)
from ludolab.research.stats.mixed import MIXED_COLUMNS
from ludolab.research.stats.multiple import adjust_pvalues
from ludolab.research.stats.power import minimum_detectable_difference


@pytest.fixture(autouse=True)
def no_mixed_model(monkeypatch: pytest.MonkeyPatch) -> None:
    """The mixed model is a sensitivity check of the main comparisons, never a finding, and
    no part of the skill analysis: skip its fits for speed."""

    def nan_contrasts(games, metric, pairs, **_):  # type: ignore[no-untyped-def]
        rows = [(c1, c2, np.nan, np.nan, np.nan, np.nan) for c1, c2 in pairs]
        return pd.DataFrame(rows, columns=MIXED_COLUMNS), ""

    monkeypatch.setattr(analysis, "mixed_contrasts", nan_contrasts)


def planted_run(
    rng: np.random.Generator,
    effects: dict[str, dict[str, float]],
    *,
    setups: int = 40,
    games: int = 4,
    kind: str = "continuous",
    paired: bool = True,
    board_sd: float = 0.5,
    lineup_sd: float = 1.0,
    noise_sd: float = 2.0,
    margin: float | None = None,
) -> RunData:
    """A finished run of planted games. ``effects``: condition -> lineup -> the condition's true
    effect for that lineup (the baseline ``base`` has none); lineups in skill order.

    Per game: a lineup mean, the condition's effect, a board effect shared by every lineup on a
    board, a board x lineup effect (``lineup_sd``), a seed effect shared by every game with that
    seed (paired: by setup index and game across conditions and lineups), and noise. ``kind``:
    ``continuous`` (that sum), ``discrete`` (a Poisson count with that mean plus 20) or
    ``binary`` (a win with probability 0.3 plus a twentieth of it, clipped to [0.02, 0.98])."""
    conditions = ["base", *effects]
    lineups = list(next(iter(effects.values())))
    shared = rng.normal(0, noise_sd / 2, (setups, games))
    rows = []
    for c in conditions:
        boards = rng.normal(0, board_sd, setups)
        seeds = shared if paired else rng.normal(0, noise_sd / 2, (setups, games))
        for i, lineup in enumerate(lineups):
            shift = 2.0 * i + (effects[c][lineup] if c != "base" else 0.0)
            y = (
                shift
                + boards[:, None]
                + rng.normal(0, lineup_sd, setups)[:, None]
                + seeds
                + rng.normal(0, noise_sd / 2, (setups, games))
            )
            if kind == "discrete":
                y = rng.poisson(np.maximum(y + 20.0, 0.1)).astype(float)
            elif kind == "binary":
                y = (rng.random(y.shape) < np.clip(0.3 + y / 20.0, 0.02, 0.98)).astype(float)
            for s in range(setups):
                for g in range(games):
                    rows.append((lineup, c, s, s * games + g, y[s, g]))
    per_game = pd.DataFrame(rows, columns=["lineup", "condition", "setup", "seed", "m"])
    per_game["condition"] = pd.Categorical(per_game["condition"], categories=conditions)
    config = {
        "game": "gallery",
        "seed": int(rng.integers(1 << 30)),
        "setups": setups,
        "conditions": [{"name": c} for c in conditions],
        "lineups": [{"name": x} for x in lineups],
        "comparisons": {
            "baseline": "base",
            "paired": paired,
            "correction": "holm",
            "alpha": 0.05,
            "n_boot": 0,
            "metrics": ["m"],
            "skill": lineups,
            "margins": {} if margin is None else {"m": margin},
        },
    }
    return RunData(Path("."), config, {}, {}, per_game)


def analyse_skill(data: RunData) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """(main comparisons, effects per lineup, interaction tests) of a run."""
    _, pairs = compare(data)
    effects, tests = skill_analysis(data, pairs)
    return pairs, effects, tests


def interaction_sd(lineup_sd: float, noise_sd: float, games: int) -> float:
    """The sd of a paired setup's interaction contrast under :func:`planted_run` (two lineups):
    four board x lineup effects and four means of ``games`` noises; the rest cancels."""
    return 2.0 * float(np.sqrt(lineup_sd**2 + (noise_sd / 2) ** 2 / games))


# ------------------------------------------------------------------------------- the words


def effects_of(*pairs: tuple[float, str]) -> list[LineupEffect]:
    """Lineups L0, L1, ... with (effect, status) where status is "found", "equiv" or ""."""
    return [
        LineupEffect(f"L{i}", int(np.sign(effect)), status == "found", status == "equiv")
        for i, (effect, status) in enumerate(pairs)
    ]


WITHIN = SkillChange(0.0, False, True)  # no change detected, and shown within the margin


@pytest.mark.parametrize(
    ("effects", "change", "expected"),
    [
        # A detected change.
        (effects_of((0.1, "equiv"), (4.0, "found")), SkillChange(3.9, True), "present for L1 only"),
        (effects_of((0.1, ""), (4.0, "found")), SkillChange(3.9, True), GROWS),
        (effects_of((2.0, "found"), (6.0, "found")), SkillChange(4.0, True), GROWS),
        (effects_of((-6.0, "found"), (-2.0, "found")), SkillChange(4.0, True), SHRINKS),
        (effects_of((5.0, "found"), (1.0, "")), SkillChange(-4.0, True), SHRINKS),
        (effects_of((5.0, "found"), (-5.0, "found")), SkillChange(-10.0, True), REVERSES),
        (effects_of((5.0, "found"), (0.0, ""), (-5.0, "found")), SkillChange(-10, True), REVERSES),
        (effects_of((1.0, ""), (-1.0, "")), SkillChange(-2.0, True), CHANGES),
        # A finding for the one lineup, pointing the way the change does not: no "only".
        (effects_of((0.1, "equiv"), (4.0, "found")), SkillChange(-3.9, True), CHANGES),
        (effects_of((4, "found"), (0.1, "equiv")), SkillChange(-3.9, True), "present for L0 only"),
        # Findings of both signs show a change by themselves, detected or not.
        (effects_of((0.6, "found"), (-0.6, "found")), SkillChange(-1.2, False, True), REVERSES),
        (effects_of((2, "found"), (-2, "found"), (2, "found")), SkillChange(0, False), CHANGES),
        # No detected change: an absence is only said through the equivalence test, and the
        # effect only "holds" where it is a finding in every lineup.
        (effects_of((5.0, "found"), (5.0, "found")), SkillChange(0.0, False, True), HOLDS),
        (effects_of((5.0, "found"), (5.0, "")), SkillChange(0.0, False, True), NO_CHANGE),
        (effects_of((2, "found"), (0, "equiv"), (2, "found")), WITHIN, NO_CHANGE),
        (effects_of((5.0, "found"), (5.0, "found")), SkillChange(0.0, False), NOT_DETECTED),
        (effects_of((0.0, ""), (0.5, "")), SkillChange(0.5, False, True), NO_CHANGE),
        (effects_of((0.0, ""), (3.0, "")), SkillChange(3.0, False), NOT_DETECTED),
    ],
)
def test_the_words_come_from_the_corrected_tests(effects, change, expected) -> None:
    assert skill_verdict(effects, change) == expected


def test_one_lineups_interval_is_not_a_finding() -> None:
    """The old rule said 'holds across skill' when some lineup's uncorrected interval excluded
    zero; the words now depend only on the corrected tests, so an effect that is not a finding
    in any lineup never 'holds', however the intervals fall."""
    effects = effects_of((4.0, ""), (4.5, ""))
    assert skill_verdict(effects, SkillChange(0.5, False)) == NOT_DETECTED
    assert skill_verdict(effects, SkillChange(0.5, False, True)) == NO_CHANGE
    assert not states_an_interaction(NO_CHANGE) and not states_an_interaction(NOT_DETECTED)
    assert states_an_interaction("present for strong only") and states_an_interaction(GROWS)


def test_weights_measure_the_rise_from_least_to_most_skilled() -> None:
    assert skill_weights(2) == pytest.approx([-1, 1])
    assert skill_weights(3) == pytest.approx([-1, 0, 1])
    line = np.array([2.0, 5.0, 8.0, 11.0])  # rises by 9 from first to last
    assert skill_weights(4) @ line == pytest.approx(9.0)
    with pytest.raises(ValueError):
        skill_weights(1)


# ------------------------------------------------------------------------- planted effects


@pytest.mark.parametrize(
    ("weak", "strong", "expected"),
    [(0.0, 1.0, "present for strong only"), (1.0, 2.0, GROWS)],
    ids=["one-lineup-only", "grows"],
)
def test_planted_interactions_are_reported_at_the_stated_power(weak, strong, expected) -> None:
    """The planted change is the one the design states it detects with 80% power (the MDE at
    the family's level, from the planted variances), and the margin (the smallest difference
    that matters) is that change too. Over 100 runs the change is detected in about 80% of
    them (at least 70%: 2.5 standard errors below), and when it is, the verdict says
    what was planted in at least 80% of them: it also needs the main comparisons, each with
    its own power (the effect a finding for ``strong``; for ``one lineup only``, ``weak``'s
    effect also shown within the margin of none: about 0.96 x 0.91 here). A verdict pointing
    the other way (shrinks, reverses) comes only from a false finding in ``weak``'s main
    comparison, which its family allows in at most 5% of runs (at most 9 of 100)."""
    setups, games = 40, 4
    change = minimum_detectable_difference(
        interaction_sd(1.0, 2.0, games), setups, alpha=0.05, paired=True
    )
    rng = np.random.default_rng(47)
    detected = right = false_weak = 0
    runs = 100
    for _ in range(runs):
        data = planted_run(
            rng,
            {"cond": {"weak": weak * change, "strong": strong * change}},
            setups=setups,
            games=games,
            margin=change,
        )
        _, effects, tests = analyse_skill(data)
        [test] = tests.itertuples(index=False)
        assert test.mde == pytest.approx(change, rel=0.35)  # what the report states
        detected += bool(test.significant)
        right += bool(test.significant) and test.verdict == expected
        weak_row = effects[effects["lineup"] == "weak"].iloc[0]
        falsely = weak_row["status"] == "established" and (
            weak == 0 or np.sign(weak_row["effect"]) != np.sign(weak)
        )
        false_weak += bool(falsely)
        if test.verdict in (SHRINKS, REVERSES):
            assert falsely, (test.verdict, effects)
    assert detected >= 0.70 * runs, detected
    assert right >= 0.80 * detected, (right, detected)
    assert false_weak <= 9, false_weak


def test_an_unpaired_design_and_three_lineups_find_a_planted_change() -> None:
    rng = np.random.default_rng(3)
    data = planted_run(
        rng, {"cond": {"weak": 0.0, "mid": 2.0, "strong": 4.0}}, setups=60, paired=False
    )
    pairs, effects, tests = analyse_skill(data)
    [test] = tests.itertuples(index=False)
    assert test.lineups == "weak < mid < strong" and test.n == test.n_baseline == 60
    assert test.low < 4.0 < test.high and test.p_adj < 0.001
    assert test.verdict == GROWS
    # The effects per lineup are the main comparisons' own rows, in skill order.
    assert list(effects["lineup"]) == ["weak", "mid", "strong"]
    strong = pairs[(pairs["lineup"] == "strong") & (pairs["metric"] == "m")].iloc[0]
    assert effects.iloc[2]["effect"] == strong["diff"] and effects.iloc[2]["status"] == (
        "established" if strong["significant"] else "not detected"
    )


def test_a_steady_effect_holds_only_with_a_margin() -> None:
    """The same planted effect for both lineups: with a margin the change is shown within it
    (holds across skill); without one, the report can only say that none was detected."""
    rng = np.random.default_rng(5)
    effects = {"cond": {"weak": 3.0, "strong": 3.0}}
    with_margin = planted_run(rng, effects, setups=60, margin=2.0)
    [test] = analyse_skill(with_margin)[2].itertuples(index=False)
    assert test.equivalent and not test.significant and test.verdict == HOLDS
    without = planted_run(np.random.default_rng(5), effects, setups=60)
    [test] = analyse_skill(without)[2].itertuples(index=False)
    assert np.isnan(test.equivalence_p) and test.verdict == NOT_DETECTED
    assert test.mde > 0


def test_too_few_setups_say_so() -> None:
    """With 4 paired setups the smallest p-value of the sign-flip test is 2 / 16: no change is
    detectable at any level below it, and the table gives no MDE."""
    rng = np.random.default_rng(7)
    data = planted_run(rng, {"cond": {"weak": 0.0, "strong": 50.0}}, setups=4)
    [test] = analyse_skill(data)[2].itertuples(index=False)
    assert test.smallest_p == pytest.approx(2 / 16) and test.p >= 2 / 16
    assert np.isnan(test.mde) and not test.significant


# --------------------------------------------------------------------------------- the null


def test_identical_conditions_rarely_interact() -> None:
    """A/A: three conditions with no effect, three lineups of different means, 10 setups of 3
    games, for a binary, a discrete and a continuous metric, paired and unpaired (six designs;
    a binary metric's setup mean takes 4 values). 60 runs of each (720 interaction tests):
    raw p < 0.05 in at most 6.9% of them (5% expected, 2.3 standard errors above; a test that
    rejected 10% of the time would fail by some 3) and in at most 11% of each design's 120; at
    most 6 of a design's 60 runs (3 expected) with a change detected after Holm over its two."""
    none = {"weak": 0.0, "mid": 0.0, "strong": 0.0}
    total = 0
    for kind in ("binary", "discrete", "continuous"):
        for paired in (True, False):
            rng = np.random.default_rng([47, kind == "binary", kind == "discrete", paired])
            runs, raw, stating = 60, 0, 0
            for i in range(runs):
                data = planted_run(
                    rng, {"b": none, "c": none}, setups=10, games=3, kind=kind, paired=paired
                )
                tests = skill_interaction(
                    data.by_setup, "m", list(none), "base", paired=paired, level=0.025, seed=i
                )
                assert len(tests) == 2
                raw += int((tests["p"] < 0.05).sum())
                stating += bool((adjust_pvalues(tests["p"].to_numpy(), "holm") < 0.05).any())
            assert raw <= 0.11 * 2 * runs, (kind, paired, raw)
            assert stating <= 6, (kind, paired, stating)
            total += raw
    assert total <= 0.069 * 720, total


def test_identical_games_on_every_setup_are_not_a_certainty() -> None:
    """Agents that play a setup the same way every time can make every setup's contrast
    differ by the same amount: the t statistic is undefined (the old test then returned
    p = 0). The sign-flip test's exact answer is 2 / 2**10 with 10 setups."""
    rows = []
    for s in range(10):
        for condition, lift in (("base", 0.0), ("cond", 1.0)):
            rows += [("weak", condition, s, 5.0 + s), ("strong", condition, s, 7.0 + s + lift)]
    means = pd.DataFrame(rows, columns=["lineup", "condition", "setup", "m"])
    [test] = skill_interaction(
        means, "m", ["weak", "strong"], "base", paired=True
    ).itertuples(index=False)
    assert test.change == 1.0 and test.low == test.high == 1.0
    assert test.p == pytest.approx(2 / 2**10) and np.isnan(test.p_t)


@pytest.mark.parametrize("paired", [True, False], ids=["paired", "unpaired"])
def test_no_verdict_claims_an_effect_the_comparisons_do_not_find(paired) -> None:
    """Condition ``b`` shifts every lineup by the same amount (no interaction), about what the
    main comparisons detect with 50% power, so each lineup's comparison finds it in some runs
    and not in others; ``c`` is identical to the baseline. Over 30 runs: a verdict that
    asserts an effect (holds, grows, shrinks, reverses, present for one lineup) always has a
    main comparison that lists it as a finding; ``holds`` always has its equivalence test
    behind it; ``c`` never gets such a verdict unless its comparisons made a false finding;
    and at most 4 runs (1.5 expected) state an interaction, as none was planted."""
    rng = np.random.default_rng([48, paired])
    steady = {"weak": 1.6, "strong": 1.6}
    none = {"weak": 0.0, "strong": 0.0}
    runs, stating, asserted = 30, 0, 0
    for _ in range(runs):
        data = planted_run(
            rng, {"b": steady, "c": none}, setups=16, games=3, paired=paired, margin=2.0
        )
        pairs, _, tests = analyse_skill(data)
        assert len(tests) == 2
        stating += bool(tests["verdict"].map(states_an_interaction).any())
        for t in tests.itertuples(index=False):
            found = pairs[(pairs["condition1"] == t.condition) & pairs["significant"]]
            if asserts_an_effect(t.verdict):
                asserted += 1
                assert len(found), (t.condition, t.verdict, "with no finding behind it")
            if t.verdict == HOLDS:
                assert t.equivalent and not t.significant
    assert stating <= 4, stating
    assert asserted >= 5  # the check above was exercised


def test_interaction_rows_are_reproducible_by_seed() -> None:
    data = planted_run(np.random.default_rng(11), {"c": {"a": 0.0, "b": 1.0}}, setups=30)
    means = data.by_setup
    first = skill_interaction(means, "m", ["a", "b"], "base", paired=False, seed=[3, 1])
    again = skill_interaction(means, "m", ["a", "b"], "base", paired=False, seed=[3, 1])
    other = skill_interaction(means, "m", ["a", "b"], "base", paired=False, seed=[4, 1])
    pd.testing.assert_frame_equal(first, again)
    # Monte Carlo over C(60, 30) relabellings: another seed, another draw.
    assert first["p_randomisation"].iloc[0] != other["p_randomisation"].iloc[0]
