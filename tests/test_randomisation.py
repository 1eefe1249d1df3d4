"""The randomisation test of a difference of means (research/stats/randomisation.py): its exact
p-values against a brute-force enumeration, its size on discrete data where a t-test's normal
reference is only an approximation, the degenerate designs, and its invariances."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from ludolab.research.stats.randomisation import (
    MIN_RESAMPLES,
    mean_difference_test,
    resamples_for,
)


def brute_force_paired(d: np.ndarray) -> float:
    """Two-sided p of the sign-flip test with the paired t statistic, by enumerating every
    sign pattern (2 * the smaller one-sided tail, as scipy reports it)."""

    def t(v: np.ndarray) -> float:
        return v.mean() / (v.std(ddof=1) / np.sqrt(len(v)))

    observed = t(d)
    null = np.array([t(d * np.array(s)) for s in itertools.product([1, -1], repeat=len(d))])
    tol = 1e-12 * abs(observed)
    less, greater = np.mean(null <= observed + tol), np.mean(null >= observed - tol)
    return min(1.0, 2 * min(less, greater))


def brute_force_independent(x: np.ndarray, y: np.ndarray) -> float:
    """Two-sided p of the relabelling test with Welch's t, by enumerating every split."""
    pooled = np.concatenate([x, y])

    def t(a: np.ndarray, b: np.ndarray) -> float:
        se = np.sqrt(a.var(ddof=1) / len(a) + b.var(ddof=1) / len(b))
        return (a.mean() - b.mean()) / se

    observed = t(x, y)
    null = []
    for chosen in itertools.combinations(range(len(pooled)), len(x)):
        mask = np.zeros(len(pooled), bool)
        mask[list(chosen)] = True
        null.append(t(pooled[mask], pooled[~mask]))
    null_arr = np.array(null)
    tol = 1e-12 * abs(observed)
    less, greater = np.mean(null_arr <= observed + tol), np.mean(null_arr >= observed - tol)
    return min(1.0, 2 * min(less, greater))


def test_exact_p_values_match_a_brute_force_enumeration() -> None:
    rng = np.random.default_rng(1)
    for _ in range(5):
        x, y = rng.normal(size=9), rng.normal(0.5, 1, size=9)
        result = mean_difference_test(x, y, paired=True)
        assert result.exact and result.resamples == 2**9
        assert result.p == pytest.approx(brute_force_paired(x - y))
        x, y = rng.normal(size=5), rng.exponential(size=6)
        result = mean_difference_test(x, y, paired=False)
        assert result.exact and result.resamples == 462  # C(11, 5)
        assert result.p == pytest.approx(brute_force_independent(x, y))


def test_a_large_design_is_tested_by_monte_carlo_close_to_the_t_test() -> None:
    rng = np.random.default_rng(2)
    x, y = rng.normal(size=60), rng.normal(0.4, 1, size=60)
    result = mean_difference_test(x, y, paired=False, seed=3)
    assert not result.exact and result.resamples == MIN_RESAMPLES
    # On normal data the randomisation distribution of Welch's t is close to Student's.
    import scipy.stats as st

    t = st.ttest_ind(x, y, equal_var=False)
    assert result.statistic == pytest.approx(t.statistic)
    assert abs(result.p - t.pvalue) < 0.01
    # The same seed, the same p; another seed, another Monte Carlo draw.
    assert mean_difference_test(x, y, paired=False, seed=3).p == result.p
    assert mean_difference_test(x, y, paired=False, seed=4).p != result.p


@pytest.mark.parametrize("paired", [True, False], ids=["paired", "independent"])
def test_its_size_is_at_most_alpha_on_binary_setups(paired: bool) -> None:
    """6 setups a condition, each the mean of 2 coin flips (three values, many ties): under
    identical conditions the exact test rejects at most 5% of the time (1,000 runs: at most
    6.7%, 2.5 standard errors above)."""
    rng = np.random.default_rng([5, paired])
    runs, hits = 1000, 0
    for _ in range(runs):
        x = rng.binomial(2, 0.3, 6) / 2
        y = rng.binomial(2, 0.3, 6) / 2
        hits += mean_difference_test(x, y, paired=paired, seed=0).p < 0.05
    assert hits <= 0.067 * runs, hits


def test_degenerate_designs_get_exact_answers() -> None:
    # Every paired difference the same: only all-plus and all-minus are that extreme.
    result = mean_difference_test([3.0] * 6, [1.0] * 6, paired=True)
    assert result.p == pytest.approx(2 / 64) and result.exact
    # Nothing differs at all.
    assert mean_difference_test([1.0] * 5, [1.0] * 5, paired=True).p == 1.0
    assert mean_difference_test([2.0] * 4, [2.0] * 6, paired=False).p == 1.0
    # Two constant groups with different values: one split of C(10, 4) and its mirror.
    result = mean_difference_test([1.0] * 4, [0.0] * 6, paired=False)
    assert result.p == pytest.approx(2 / 210)


def test_bad_input_is_refused() -> None:
    with pytest.raises(ValueError, match="unequal length|differ in length"):
        mean_difference_test([1.0, 2.0, 3.0], [1.0, 2.0], paired=True)
    with pytest.raises(ValueError, match="at least 2"):
        mean_difference_test([1.0], [1.0, 2.0], paired=False)
    with pytest.raises(ValueError, match="NaN"):
        mean_difference_test([1.0, np.nan], [1.0, 2.0], paired=False)
    with pytest.raises(ValueError, match="level"):
        resamples_for(0.0)


def test_resamples_reach_a_corrected_level() -> None:
    assert resamples_for(0.05) == MIN_RESAMPLES
    assert 1 / (resamples_for(1e-4) + 1) <= 1e-4 / 20


samples = hs.lists(hs.integers(-800, 800).map(lambda v: v / 8), min_size=3, max_size=7)


@settings(max_examples=30, deadline=None, derandomize=True)
@given(x=samples, y=samples, shift=hs.integers(-50, 50), power=hs.integers(-3, 3))
def test_p_is_a_probability_and_blind_to_the_unit(x, y, shift, power) -> None:
    """p lies in (0, 1], does not depend on the order of the two samples, and does not change
    when both are shifted or rescaled (a change of unit; values in eighths, so that the
    change is exact in floating point and ties stay ties)."""
    x_arr, y_arr = np.array(x), np.array(y)
    n = min(len(x_arr), len(y_arr))
    scale = 2.0**power
    for paired, (a, b) in ((False, (x_arr, y_arr)), (True, (x_arr[:n], y_arr[:n]))):
        p = mean_difference_test(a, b, paired=paired).p
        assert 0 < p <= 1
        assert mean_difference_test(b, a, paired=paired).p == pytest.approx(p)
        moved = mean_difference_test(a * scale + shift, b * scale + shift, paired=paired).p
        assert moved == pytest.approx(p, abs=1e-9)


def test_ties_survive_a_large_offset() -> None:
    """The failing case hypothesis once found: shifted and rescaled by 0.25 and 34, the
    relabellings that tie with the observed one in exact arithmetic still count as ties."""
    x, y = np.array([0.0, -2.0, -8.354]), np.array([0.0, -1.344, -7.93, -8.354])
    p = mean_difference_test(x, y, paired=False).p
    assert mean_difference_test(x * 0.25 + 34, y * 0.25 + 34, paired=False).p == pytest.approx(p)
