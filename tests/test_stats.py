"""Tests for ludolab.research.stats: effect sizes, bootstrap, Holm, tests vs scipy, regression,
output."""

from __future__ import annotations

import io
import itertools
import math

import numpy as np
import pandas as pd
import pytest
import scipy.stats as st
from hypothesis import given, settings
from hypothesis import strategies as hs

from ludolab.research.stats import (
    PAIRWISE_COLUMNS,
    adjust_pvalues,
    bonferroni,
    bootstrap_ci,
    cliffs_delta,
    format_ci,
    format_p,
    format_table,
    holm,
    match_pairs,
    omnibus,
    omnibus_table,
    pairwise,
    rank_biserial_paired,
    regress,
    to_csv,
    to_latex,
    to_markdown,
)
from ludolab.research.stats.effects import _cliffs_delta_axis, _rank_biserial_axis

# ----------------------------------------------------------------------------- helpers


def brute_delta(x, y) -> float:
    """O(n m) Cliff's delta straight from the definition."""
    gt = sum(1 for a in x for b in y if a > b)
    lt = sum(1 for a in x for b in y if a < b)
    return (gt - lt) / (len(x) * len(y))


def brute_rank_biserial(d) -> float:
    """(T+ - T-) / (T+ + T-) with zeros dropped, ranks of |d| by scipy.rankdata."""
    d = np.asarray(d, dtype=float)
    d = d[d != 0]
    if d.size == 0:
        return 0.0
    r = st.rankdata(np.abs(d))
    tp, tm = r[d > 0].sum(), r[d < 0].sum()
    return (tp - tm) / (tp + tm)


def three_conditions(n: int = 40, seed: int = 0, shifts=(0.0, 0.5, 1.0)) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    frames = []
    common = rng.normal(size=n)  # common random numbers: shared per game index
    for cond, shift in zip(["a", "b", "c"], shifts, strict=True):
        frames.append(
            pd.DataFrame(
                {
                    "condition": cond,
                    "pair": np.arange(n),
                    "m": common + shift + 0.5 * rng.normal(size=n),
                }
            )
        )
    return pd.concat(frames, ignore_index=True)


samples = hs.lists(hs.integers(-5, 5), min_size=1, max_size=40)
float_samples = hs.lists(
    hs.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False), min_size=1, max_size=40
)

# ----------------------------------------------------------------------------- Cliff's delta


@settings(max_examples=200, deadline=None)
@given(samples, samples)
def test_cliffs_delta_matches_brute_force_with_ties(x, y):
    assert cliffs_delta(x, y) == pytest.approx(brute_delta(x, y), abs=1e-12)


@settings(max_examples=100, deadline=None)
@given(float_samples, float_samples)
def test_cliffs_delta_matches_brute_force_floats(x, y):
    assert cliffs_delta(x, y) == pytest.approx(brute_delta(x, y), abs=1e-12)


@settings(max_examples=100, deadline=None)
@given(samples, samples)
def test_vectorised_cliffs_delta_matches_brute_force(x, y):
    assert float(_cliffs_delta_axis(np.array(x), np.array(y))) == pytest.approx(
        brute_delta(x, y), abs=1e-12
    )


def test_cliffs_delta_known_cases():
    assert cliffs_delta([5, 6, 7], [1, 2, 3]) == 1.0
    assert cliffs_delta([1, 2, 3], [5, 6, 7]) == -1.0
    assert cliffs_delta([1, 2, 3], [1, 2, 3]) == 0.0
    assert cliffs_delta([2, 2], [2, 2, 2]) == 0.0
    # pairs: (1,0)>, (1,2)<, (3,0)>, (3,2)> -> (3 - 1) / 4
    assert cliffs_delta([1, 3], [0, 2]) == 0.5
    assert math.isnan(cliffs_delta([], [1.0]))
    with pytest.raises(ValueError, match="NaN"):
        cliffs_delta([1.0, np.nan], [1.0])


def test_cliffs_delta_equals_mann_whitney_u_and_is_fast():
    rng = np.random.default_rng(3)
    x, y = rng.normal(size=200_000), rng.normal(0.1, 1, size=150_000).round(2)
    u = st.mannwhitneyu(x, y).statistic
    assert cliffs_delta(x, y) == pytest.approx(2 * u / (x.size * y.size) - 1, abs=1e-9)


# ----------------------------------------------------------------------------- rank-biserial


@settings(max_examples=200, deadline=None)
@given(samples)
def test_rank_biserial_matches_brute_force(d):
    assert rank_biserial_paired(d) == pytest.approx(brute_rank_biserial(d), abs=1e-12)
    assert float(_rank_biserial_axis(np.array(d, dtype=float))) == pytest.approx(
        brute_rank_biserial(d), abs=1e-12
    )


def test_rank_biserial_known_cases_and_wilcoxon_link():
    assert rank_biserial_paired([3, 4, 5], [1, 1, 1]) == 1.0
    assert rank_biserial_paired([1, 1, 1], [3, 4, 5]) == -1.0
    assert rank_biserial_paired([0, 0]) == 0.0
    assert math.isnan(rank_biserial_paired([]))
    with pytest.raises(ValueError, match="length"):
        rank_biserial_paired([1, 2], [1])
    # min(T+, T-) is scipy's two-sided Wilcoxon statistic
    d = np.array([1.5, -0.5, 2.0, 3.0, -1.0, 0.0, 4.0, 2.0])
    r = rank_biserial_paired(d)
    nz = int((d != 0).sum())
    total = nz * (nz + 1) / 2
    assert total * (1 - abs(r)) / 2 == pytest.approx(st.wilcoxon(d).statistic)


# ----------------------------------------------------------------------------- Holm


def test_holm_hand_worked_example():
    # sorted: 0.005*4 = 0.02, 0.01*3 = 0.03, 0.03*2 = 0.06, 0.04*1 = 0.04 -> cummax 0.06
    p = [0.01, 0.04, 0.03, 0.005]
    np.testing.assert_allclose(holm(p), [0.03, 0.06, 0.06, 0.02])
    # capped at 1, monotone
    np.testing.assert_allclose(holm([0.5, 0.6]), [1.0, 1.0])
    # NaN stays NaN and does not count towards m
    np.testing.assert_allclose(holm([0.01, np.nan, 0.04]), [0.02, np.nan, 0.04])
    assert holm([]).size == 0
    with pytest.raises(ValueError):
        holm([1.5])


@settings(max_examples=100, deadline=None)
@given(hs.lists(hs.floats(0, 1), min_size=1, max_size=20))
def test_holm_between_raw_and_bonferroni_and_order_preserving(p):
    raw = np.array(p)
    adj = holm(raw)
    assert np.all(adj >= raw - 1e-15)
    assert np.all(adj <= bonferroni(raw) + 1e-15)
    order = np.argsort(raw, kind="stable")
    assert np.all(np.diff(adj[order]) >= -1e-15)


def test_adjust_pvalues_methods():
    p = [0.01, 0.02]
    np.testing.assert_allclose(adjust_pvalues(p, "none"), p)
    np.testing.assert_allclose(adjust_pvalues(p, "bonferroni"), [0.02, 0.04])
    with pytest.raises(ValueError, match="unknown correction"):
        adjust_pvalues(p, "bh")  # type: ignore[arg-type]


# ----------------------------------------------------------------------------- omnibus


def test_kruskal_matches_scipy():
    df = three_conditions()
    res = omnibus(df, "m")
    groups = [df.loc[df.condition == c, "m"] for c in "abc"]
    h, p = st.kruskal(*groups)
    assert res.test == "kruskal"
    assert res.statistic == pytest.approx(h)
    assert res.pvalue == pytest.approx(p)
    assert res.n == {"a": 40, "b": 40, "c": 40}
    assert res.effect == pytest.approx(h / (120 - 1))
    assert res.note == ""


def test_friedman_when_paired_matches_scipy_on_complete_blocks():
    df = three_conditions().drop(index=[0, 45])  # game 0 of a, game 5 of b incomplete
    res = omnibus(df, "m", paired_on="pair")
    wide = df.pivot(index="pair", columns="condition", values="m").dropna()
    chi2, p = st.friedmanchisquare(*wide.to_numpy().T)
    assert res.test == "friedman"
    assert res.statistic == pytest.approx(chi2)
    assert res.pvalue == pytest.approx(p)
    assert res.n == {"a": 38, "b": 38, "c": 38}
    assert res.n_dropped == 118 - 3 * 38


def test_omnibus_degenerate_inputs_give_nan_and_note():
    one = pd.DataFrame({"condition": ["a"] * 5, "m": range(5)})
    res = omnibus(one, "m")
    assert math.isnan(res.pvalue) and "fewer than two" in res.note
    const = pd.DataFrame({"condition": list("aabb"), "m": [1.0] * 4})
    res = omnibus(const, "m")
    assert math.isnan(res.statistic) and math.isnan(res.pvalue)
    assert res.note == "all values identical"
    missing = pd.DataFrame({"condition": list("aabb"), "m": [1.0, 2.0, np.nan, np.nan]})
    res = omnibus(missing, "m")
    assert math.isnan(res.pvalue) and "no data" in res.note and res.n_dropped == 2
    with pytest.raises(TypeError, match="not numeric"):
        omnibus(pd.DataFrame({"condition": list("ab"), "m": ["x", "y"]}), "m")
    with pytest.raises(KeyError):
        omnibus(one, "nope")


def test_omnibus_table_one_row_per_metric():
    df = three_conditions()
    df["m2"] = -df["m"]
    table = omnibus_table(df, ["m", "m2"])
    assert list(table["metric"]) == ["m", "m2"]
    assert table["statistic"].iloc[0] == pytest.approx(table["statistic"].iloc[1])


# ----------------------------------------------------------------------------- pairwise


def test_pairwise_unpaired_matches_scipy_and_holm():
    df = three_conditions()
    table = pairwise(df, "m", n_boot=200, seed=1)
    assert tuple(table.columns) == PAIRWISE_COLUMNS
    assert list(zip(table.condition1, table.condition2, strict=True)) == [
        ("a", "b"),
        ("a", "c"),
        ("b", "c"),
    ]
    for row in table.itertuples():
        x = df.loc[df.condition == row.condition1, "m"]
        y = df.loc[df.condition == row.condition2, "m"]
        res = st.mannwhitneyu(x, y, alternative="two-sided")
        assert row.test == "mann-whitney"
        assert row.statistic == pytest.approx(res.statistic)
        assert row.p == pytest.approx(res.pvalue)
        assert row.effect == pytest.approx(brute_delta(list(x), list(y)))
        assert row.effect_measure == "cliffs_delta"
        assert row.ci_low <= row.effect <= row.ci_high
        assert row.median1 == pytest.approx(np.median(x))
        assert row.mean2 == pytest.approx(np.mean(y))
        assert (row.n1, row.n2, row.n_dropped) == (40, 40, 0)
    np.testing.assert_allclose(table.p_adj, holm(table.p))
    assert list(table.significant) == list(table.p_adj < 0.05)
    assert table.attrs["correction"] == "holm" and table.attrs["n_boot"] == 200


def test_pairwise_paired_matches_scipy_wilcoxon():
    df = three_conditions()
    table = pairwise(df, "m", paired_on="pair", n_boot=200, seed=1)
    for row in table.itertuples():
        x = df.loc[df.condition == row.condition1].sort_values("pair")["m"].to_numpy()
        y = df.loc[df.condition == row.condition2].sort_values("pair")["m"].to_numpy()
        res = st.wilcoxon(x, y, alternative="two-sided")
        assert row.test == "wilcoxon"
        assert row.statistic == pytest.approx(res.statistic)
        assert row.p == pytest.approx(res.pvalue)
        assert row.effect_measure == "rank_biserial_paired"
        assert row.effect == pytest.approx(brute_rank_biserial(x - y))
        assert row.ci_low <= row.effect <= row.ci_high
    # common random numbers make the paired test far more powerful here
    unpaired = pairwise(df, "m", n_boot=0)
    assert (table.p < unpaired.p).all()


def test_paired_matching_drops_unmatched_rows_and_reports_them():
    df = pd.DataFrame(
        {
            "condition": ["a"] * 5 + ["b"] * 4,
            "pair": [0, 1, 2, 3, 4, 1, 2, 3, 9],
            # value encodes the key so alignment is checkable
            "m": [0.0, 1.0, 2.0, np.nan, 4.0, 11.0, 12.0, 13.0, 19.0],
        }
    )
    mp = match_pairs(df, "m", "a", "b", paired_on="pair")
    np.testing.assert_array_equal(mp.keys, [1, 2])  # 3 lost to NaN; 0, 4, 9 unmatched
    np.testing.assert_array_equal(mp.x, [1.0, 2.0])
    np.testing.assert_array_equal(mp.y, [11.0, 12.0])
    assert (mp.n_dropped1, mp.n_dropped2, mp.n_dropped) == (3, 2, 5)
    table = pairwise(df, "m", paired_on="pair", n_boot=50)
    row = table.iloc[0]
    assert (row.n1, row.n2, row.n_dropped) == (2, 2, 5)
    # the unpaired comparison only drops the NaN
    assert pairwise(df, "m", n_boot=0).iloc[0].n_dropped == 1


def test_paired_matching_rejects_duplicate_keys():
    df = pd.DataFrame({"condition": list("aab"), "pair": [0, 0, 0], "m": [1.0, 2.0, 3.0]})
    with pytest.raises(ValueError, match="not unique"):
        match_pairs(df, "m", "a", "b")


def test_pairwise_degenerate_cases():
    zero = pd.DataFrame(
        {"condition": list("aaabbb"), "pair": [0, 1, 2] * 2, "m": [1.0, 2.0, 3.0] * 2}
    )
    row = pairwise(zero, "m", paired_on="pair", n_boot=50).iloc[0]
    assert math.isnan(row.p) and "zero" in row.note
    assert row.effect == 0.0 and not row.significant
    empty = pd.DataFrame({"condition": list("aab"), "m": [1.0, 2.0, np.nan]})
    row = pairwise(empty, "m").iloc[0]
    assert math.isnan(row.p) and row.n2 == 0 and row.note
    assert pairwise(pd.DataFrame({"condition": ["a"], "m": [1.0]}), "m").empty


def test_pairwise_order_and_seed():
    df = three_conditions(n=30)
    df["condition"] = pd.Categorical(df.condition, categories=["c", "b", "a"])
    t1 = pairwise(df, "m", n_boot=300, seed=7)
    assert (t1.condition1.iloc[0], t1.condition2.iloc[0]) == ("c", "b")
    assert (t1.effect > 0).all()  # c > b > a
    t2 = pairwise(df, "m", n_boot=300, seed=7)
    pd.testing.assert_frame_equal(t1, t2)
    t3 = pairwise(df, "m", n_boot=300, seed=np.random.default_rng(7))
    pd.testing.assert_frame_equal(t1, t3)
    t4 = pairwise(df, "m", n_boot=300, seed=8)
    assert not np.allclose(t1.ci_low, t4.ci_low)
    t5 = pairwise(df, "m", order=["a", "c"], n_boot=0)
    assert len(t5) == 1 and np.isnan(t5.ci_low).all()
    with pytest.raises(ValueError, match="not found"):
        pairwise(df, "m", order=["a", "zzz"])


# ----------------------------------------------------------------------------- bootstrap


def test_bootstrap_ci_reproducible_by_seed():
    rng = np.random.default_rng(0)
    x, y = rng.normal(size=50), rng.normal(0.3, 1, size=60)
    a = bootstrap_ci(_cliffs_delta_axis, (x, y), n_boot=500, seed=11)
    b = bootstrap_ci(_cliffs_delta_axis, (x, y), n_boot=500, seed=11)
    c = bootstrap_ci(_cliffs_delta_axis, (x, y), n_boot=500, seed=12)
    assert a == b
    assert (a.low, a.high) != (c.low, c.high)
    assert a.estimate == pytest.approx(cliffs_delta(x, y))
    assert a.low < a.estimate < a.high
    # a non-vectorised statistic gives the same resamples, hence the same interval
    d = bootstrap_ci(cliffs_delta, (x, y), n_boot=500, seed=11, vectorized=False)
    assert (d.low, d.high) == pytest.approx((a.low, a.high))


def test_bootstrap_ci_covers_true_delta_in_simulation():
    # X ~ N(0.5, 1), Y ~ N(0, 1): delta = P(X>Y) - P(X<Y) = 2 Phi(0.5 / sqrt 2) - 1
    true = 2 * st.norm.cdf(0.5 / np.sqrt(2)) - 1
    master = np.random.default_rng(2024)
    reps, covered = 60, 0
    for _ in range(reps):
        x, y = master.normal(0.5, 1, 60), master.normal(0, 1, 60)
        ci = bootstrap_ci(_cliffs_delta_axis, (x, y), n_boot=500, seed=master)
        covered += ci.low <= true <= ci.high
    assert covered / reps >= 0.85  # nominal 0.95


def test_bootstrap_bca_and_degenerate_fallback():
    rng = np.random.default_rng(5)
    x, y = rng.normal(1, 1, 40), rng.normal(0, 1, 40)
    ci = bootstrap_ci(_cliffs_delta_axis, (x, y), 500, 1, method="bca")
    assert ci.method == "bca" and ci.low < ci.estimate < ci.high
    sep = bootstrap_ci(_cliffs_delta_axis, ([5.0, 6.0, 7.0], [1.0, 2.0]), 200, 1, method="bca")
    assert sep.method == "percentile (bca degenerate)"
    assert (sep.low, sep.high, sep.estimate) == (1.0, 1.0, 1.0)
    paired = bootstrap_ci(_rank_biserial_axis, (x - y,), 300, 1, paired=True)
    assert paired.low <= paired.estimate <= paired.high
    with pytest.raises(ValueError):
        bootstrap_ci(_cliffs_delta_axis, (x, y), 10, 0, level=1.5)


# ----------------------------------------------------------------------------- regression


def test_regression_recovers_known_coefficients():
    rng = np.random.default_rng(0)
    n = 2000
    df = pd.DataFrame({"f1": rng.normal(0, 2, n), "f2": rng.uniform(0, 10, n)})
    df["y"] = 1.0 + 2.0 * df.f1 - 0.5 * df.f2 + rng.normal(0, 1, n) * (1 + 0.1 * df.f2)
    df.loc[[3, 7], "f2"] = np.nan
    res = regress(df, "y", ["f1", "f2"])
    assert res.n == n - 2 and res.n_dropped == 2 and res.cov_type == "HC3"
    np.testing.assert_allclose(res.params.to_numpy(), [1.0, 2.0, -0.5], atol=0.15)
    assert (np.abs(res.params - [1.0, 2.0, -0.5]) < 4 * res.coef.se).all()
    assert (res.coef.ci_low < res.params).all() and (res.coef.ci_high > res.params).all()
    used = df.dropna()
    expected_std = res.params[["f1", "f2"]] * used[["f1", "f2"]].std() / used["y"].std()
    np.testing.assert_allclose(res.std_params, expected_std)
    assert 0.5 < res.r2 < 1 and res.adj_r2 < res.r2
    assert res.coef.loc["f1", "p"] < 1e-10 and res.f_pvalue < 1e-10
    np.testing.assert_allclose(res.coef.t, res.coef.coef / res.coef.se)


def test_regression_standard_errors_against_independent_computations():
    rng = np.random.default_rng(1)
    x = rng.normal(size=80)
    y = 0.7 * x + rng.normal(size=80) * (1 + np.abs(x))
    df = pd.DataFrame({"x": x, "y": y})
    classic = regress(df, "y", ["x"], cov_type="nonrobust")
    lr = st.linregress(x, y)
    assert classic.params["x"] == pytest.approx(lr.slope)
    assert classic.coef.loc["x", "se"] == pytest.approx(lr.stderr)
    assert classic.coef.loc["x", "p"] == pytest.approx(lr.pvalue)
    assert classic.r2 == pytest.approx(lr.rvalue**2)
    # HC3 by an explicit loop over observations
    X = np.column_stack([np.ones_like(x), x])
    inv = np.linalg.inv(X.T @ X)
    e = y - X @ inv @ X.T @ y
    meat = np.zeros((2, 2))
    for xi, ei in zip(X, e, strict=True):
        h = xi @ inv @ xi
        meat += np.outer(xi, xi) * ei**2 / (1 - h) ** 2
    hc3 = np.sqrt(np.diag(inv @ meat @ inv))
    np.testing.assert_allclose(regress(df, "y", ["x"]).coef.se, hc3)


def test_regression_rejects_bad_designs():
    df = pd.DataFrame({"a": [1.0, 2, 3, 4, 5], "b": [2.0, 4, 6, 8, 10], "c": [1.0] * 5})
    df["y"] = [1.0, 3, 2, 5, 4]
    with pytest.raises(ValueError, match="constant"):
        regress(df, "y", ["a", "c"])
    with pytest.raises(ValueError, match="collinear"):
        regress(df, "y", ["a", "b"])
    with pytest.raises(ValueError, match="rows"):
        regress(df.head(2), "y", ["a"])
    with pytest.raises(KeyError):
        regress(df, "y", ["zzz"])


# ----------------------------------------------------------------------------- formatting


def test_format_p_and_ci():
    assert format_p(0.0031) == "0.003"
    assert format_p(0.25) == "0.250"
    assert format_p(0.0004) == "< 0.001"
    assert format_p(1e-30) == "< 0.001"
    assert format_p(float("nan")) == "—"
    assert format_ci(-0.123, 0.456) == "[-0.12, 0.46]"
    assert format_ci(-0.001, 0.2) == "[0.00, 0.20]"  # no negative zero
    assert format_ci(0.00123, 0.00456, decimals=None) == "[0.00123, 0.00456]"


def _small_table() -> pd.DataFrame:
    df = three_conditions(n=25, shifts=(0.0, 0.1, 2.0))
    df["condition"] = df.condition.map({"a": "base_line", "b": "50% & more", "c": "x|y"})
    return pairwise(df, "m", n_boot=200, seed=0)


def test_markdown_output_rows_and_escaping():
    table = _small_table()
    md = to_markdown(
        table, columns=["condition1", "condition2", "n1", "p_adj", "effect", "ci_low", "ci_high"]
    )
    lines = md.strip().split("\n")
    assert len(lines) == 2 + len(table)
    assert lines[0] == "| condition1 | condition2 | n1 | p\\_adj | effect | 95% CI |"
    assert lines[1] == "| :--- | :--- | ---: | ---: | ---: | ---: |"
    assert lines[2].startswith("| base\\_line | 50% & more | 25 |")
    assert "| base\\_line | x\\|y | 25 | < 0.001 |" in md
    eff = table.iloc[0]
    assert f"{format_ci(eff.ci_low, eff.ci_high)} |" in lines[2]


def test_latex_output_booktabs_and_escaping():
    table = _small_table()
    tex = to_latex(table, caption="Pairwise: 95% CIs & Holm", label="tab:pw")
    for cmd in (r"\toprule", r"\midrule", r"\bottomrule", r"\begin{tabular}", r"\end{table}"):
        assert cmd in tex
    assert r"\caption{Pairwise: 95\% CIs \& Holm}" in tex and r"\label{tab:pw}" in tex
    assert r"base\_line & 50\% \& more & 25 & 25 & 0 &" in tex
    assert r"x\textbar{}y" in tex and r"\textless{} 0.001" in tex
    assert r"p\_adj" in tex and r"95\% CI" in tex
    assert "{}[" in tex  # CI cells guarded against being read as \\[...]
    body = [ln for ln in tex.splitlines() if ln.endswith(r"\\")]
    assert len(body) == 1 + len(table)
    assert all(ln.count(" & ") == len(format_table(table).columns) - 1 for ln in body)
    bare = to_latex(omnibus(three_conditions(), "m"))
    assert bare.startswith(r"\begin{tabular}") and "kruskal" in bare


def test_csv_keeps_full_precision_and_regression_tables_format():
    table = _small_table()
    back = pd.read_csv(io.StringIO(to_csv(table)))
    np.testing.assert_allclose(back.p, table.p)
    assert list(back.columns) == list(PAIRWISE_COLUMNS)
    rng = np.random.default_rng(0)
    df = pd.DataFrame({"pip_var": rng.normal(size=50), "desert_centre": rng.integers(0, 2, 50)})
    df["y"] = df.pip_var + rng.normal(size=50)
    res = regress(df, "y", ["pip_var", "desert_centre"])
    md = to_markdown(res)
    assert "| pip\\_var |" in md and "| desert\\_centre |" in md and "| const |" in md
    assert "95% CI" in md
    assert "R²" in res.summary()


def test_format_table_labels_and_types():
    df = pd.DataFrame({"name": ["a"], "k": [3], "x": [1234.567], "ok": [True], "p": [0.5]})
    out = format_table(df, labels={"p": "p-value"})
    assert out.iloc[0].tolist() == ["a", "3", "1,235", "yes", "0.500"]
    assert list(out.columns) == ["name", "k", "x", "ok", "p-value"]


def test_all_pairs_present_for_many_conditions():
    rng = np.random.default_rng(0)
    conds = [f"c{i}" for i in range(5)]
    df = pd.DataFrame({"condition": np.repeat(conds, 10), "m": rng.normal(size=50)})
    table = pairwise(df, "m", n_boot=0)
    assert set(zip(table.condition1, table.condition2, strict=True)) == set(
        itertools.combinations(conds, 2)
    )


# ----------------------------------------------------------------------------- raw effects, power


def test_hodges_lehmann_by_hand():
    from ludolab.research.stats.effects import hodges_lehmann

    # differences x_i - y_j: {0, -1, 1, 0, 2, 1} -> median 0.5
    assert hodges_lehmann([1, 2, 3], [1, 2], paired=False) == 0.5
    # paired differences 1, 2, 6: Walsh averages 1, 1.5, 3.5, 2, 4, 6 -> median 2.75
    assert hodges_lehmann([2, 4, 9], [1, 2, 3], paired=True) == 2.75


def test_standardised_difference_matches_formulas():
    from ludolab.research.stats.effects import standardised_difference

    x, y = np.array([1.0, 2, 3, 4]), np.array([2.0, 2, 5, 7])
    pooled = math.sqrt((3 * x.var(ddof=1) + 3 * y.var(ddof=1)) / 6)
    assert standardised_difference(x, y) == pytest.approx((x.mean() - y.mean()) / pooled)
    d = x - y
    assert standardised_difference(x, y, paired=True) == pytest.approx(d.mean() / d.std(ddof=1))


def test_pairwise_reports_the_raw_difference_with_an_interval_in_its_unit():
    rng = np.random.default_rng(3)
    df = pd.DataFrame(
        {
            "condition": ["a"] * 40 + ["b"] * 40,
            "turns": np.r_[rng.normal(80, 4, 40), rng.normal(75, 4, 40)],
        }
    )
    row = pairwise(df, "turns", n_boot=500, seed=1, margin=1.0).iloc[0]
    assert row["diff"] == pytest.approx(row["mean1"] - row["mean2"])
    assert row["diff_low"] < row["diff"] < row["diff_high"]
    assert 3 < row["diff"] < 7 and row["diff_low"] > 0
    assert row["equivalence_p"] > 0.5  # 5 turns apart is not within +-1


def test_variance_components_recover_a_known_icc():
    from ludolab.research.stats.power import variance_components

    rng = np.random.default_rng(0)
    boards = np.repeat(np.arange(400), 25)
    values = rng.normal(0, 1.0, 400)[boards] + rng.normal(0, 2.0, boards.size)
    vc = variance_components(values, boards)
    assert vc.between == pytest.approx(1.0, rel=0.2) and vc.within == pytest.approx(4.0, rel=0.05)
    assert vc.icc == pytest.approx(0.2, abs=0.04)
    assert vc.setup_mean_sd(25) == pytest.approx(math.sqrt(1 + 4 / 25), rel=0.1)


def test_minimum_detectable_difference_has_the_promised_power():
    from ludolab.research.stats.power import minimum_detectable_difference, setups_needed

    mde = minimum_detectable_difference(2.0, 30, 30, alpha=0.05, power=0.8)
    rng = np.random.default_rng(5)
    hits = sum(
        st.ttest_ind(rng.normal(mde, 2.0, 30), rng.normal(0, 2.0, 30)).pvalue < 0.05
        for _ in range(2000)
    )
    assert 0.76 < hits / 2000 < 0.84
    assert setups_needed(mde, 2.0) == 30
    paired = minimum_detectable_difference(2.0, 30, alpha=0.05, power=0.8, paired=True)
    assert paired < mde  # one sample of 30 differences vs two samples of 30


def test_the_power_solver_answers_where_statsmodels_falls_back():
    """150 setups at alpha = 0.025: statsmodels' first root finder fails and its fallback
    answers with a one-element array (a TypeError in ludolab plan before it was read)."""
    from statsmodels.stats.power import TTestIndPower

    from ludolab.research.stats.power import minimum_detectable_difference

    mde = minimum_detectable_difference(1.0, 150, 150, alpha=0.025, power=0.8)
    assert TTestIndPower().power(mde, nobs1=150, ratio=1, alpha=0.025) == pytest.approx(0.8)


def test_equivalence_test_by_statsmodels():
    from ludolab.research.stats.power import equivalence_p

    rng = np.random.default_rng(2)
    x, y = rng.normal(0, 1, 200), rng.normal(0.05, 1, 200)
    assert equivalence_p(x, y, 0.5) < 0.01
    assert equivalence_p(x, y, 0.01) > 0.3


def test_balance_of_fair_seats_falls_short_of_one_and_less_so_with_more_games():
    from ludolab.research.stats.power import balance_null

    small, big = balance_null(600, 4)[0], balance_null(2400, 4)[0]
    assert 0.94 < small < big < 0.99


def test_mixed_model_contrast_matches_the_difference_of_means_on_balanced_data():
    from ludolab.research.stats.mixed import mixed_contrasts

    rng = np.random.default_rng(4)
    rows = []
    for cond, shift in (("a", 0.0), ("b", 3.0)):
        for setup in range(15):
            board = rng.normal(0, 2)
            for game in range(10):
                rows.append((cond, setup, game, 50 + shift + board + rng.normal(0, 4)))
    games = pd.DataFrame(rows, columns=["condition", "setup", "game", "turns"])
    table, note = mixed_contrasts(games, "turns", [("b", "a")], paired=False)
    row = table.iloc[0]
    means = games.groupby("condition")["turns"].mean()
    assert row["mixed_diff"] == pytest.approx(means["b"] - means["a"], rel=1e-6)
    assert row["mixed_low"] < row["mixed_diff"] < row["mixed_high"] and row["mixed_p"] < 0.05


def test_adjust_pvalues_benjamini_hochberg_by_hand():
    # sorted 0.01, 0.02, 0.03, 0.5 (m = 4): 0.04, 0.04, 0.04, 0.5
    np.testing.assert_allclose(
        adjust_pvalues([0.03, 0.5, 0.01, 0.02], "fdr_bh"), [0.04, 0.5, 0.04, 0.04]
    )
    assert np.isnan(adjust_pvalues([np.nan, 0.01], "holm")[0])
