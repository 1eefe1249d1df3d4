"""Comparing a game-quality metric between experimental conditions.

Input is a tidy :class:`pandas.DataFrame` with one row per game: a condition column (``by``,
default ``"condition"``), one column per metric and, optionally, a key column (e.g. ``"pair"``,
the game index or seed) that identifies games played with common random numbers across
conditions.

* :func:`omnibus` -- is there any difference between conditions? Kruskal-Wallis H for independent
  games; Friedman's chi-square when games are paired (``paired_on``).
* :func:`pairwise` -- which conditions differ? Every pair of conditions: Mann-Whitney U (or
  Wilcoxon signed-rank on matched pairs), Holm-adjusted p-values, an ordinal effect size with a
  bootstrap confidence interval.

Conditions appear in the order given by ``order``, else in category order for a categorical
column, else in order of first appearance. Rows with a missing metric value are dropped and
counted.
"""

from __future__ import annotations

import contextlib
import itertools
import warnings
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Literal

import numpy as np
import pandas as pd
import scipy.stats as st

from ludolab.research.stats.effects import (
    SeedLike,
    _cliffs_delta_axis,
    _mean_difference_axis,
    _rank_biserial_axis,
    bootstrap_ci,
    cliffs_delta,
    difference_sd,
    hodges_lehmann,
)
from ludolab.research.stats.multiple import Correction, adjust_pvalues
from ludolab.research.stats.power import equivalence_p

PAIRWISE_COLUMNS: tuple[str, ...] = (
    "metric",
    "condition1",
    "condition2",
    "n1",
    "n2",
    "n_dropped",
    "median1",
    "median2",
    "mean1",
    "mean2",
    "diff",
    "diff_low",
    "diff_high",
    "hl_shift",
    "d",
    "sd",
    "test",
    "statistic",
    "p",
    "p_adj",
    "effect_measure",
    "effect",
    "ci_low",
    "ci_high",
    "significant",
    "equivalence_p",
    "note",
)
"""Columns of the :func:`pairwise` table, in order."""


# ----------------------------------------------------------------------------- helpers


def check_columns(df: pd.DataFrame, *cols: str | None) -> None:
    """KeyError naming the columns (None entries ignored) that ``df`` lacks."""
    missing = [c for c in cols if c is not None and c not in df.columns]
    if missing:
        raise KeyError(f"column(s) {missing} not in the table (have {list(df.columns)})")


def numeric_column(df: pd.DataFrame, column: str) -> pd.Series:
    """``df[column]`` as floats (booleans as 0/1); TypeError if it is not numeric."""
    col = df[column]
    if not (pd.api.types.is_numeric_dtype(col) or pd.api.types.is_bool_dtype(col)):
        raise TypeError(f"column {column!r} is not numeric (dtype {col.dtype})")
    return col.astype(float)


def condition_order(
    df: pd.DataFrame, by: str = "condition", order: Sequence[Hashable] | None = None
) -> list[Hashable]:
    """The conditions to compare, in reporting order (see the module docstring)."""
    check_columns(df, by)
    present = list(pd.unique(df[by].dropna()))
    if order is not None:
        unknown = [c for c in order if c not in present]
        if unknown:
            raise ValueError(f"conditions {unknown} not found in column {by!r} (have {present})")
        return list(order)
    col = df[by]
    if isinstance(col.dtype, pd.CategoricalDtype):
        return [c for c in col.cat.categories if c in present]
    return present


@dataclass(frozen=True)
class MatchedPairs:
    """Values of one metric for two conditions, matched on a pairing key.

    ``x[i]`` and ``y[i]`` belong to the games with key ``keys[i]`` (sorted). ``n_dropped1`` and
    ``n_dropped2`` count the rows of each condition that were not used: missing metric value, or
    no partner with the same key in the other condition.
    """

    keys: np.ndarray
    x: np.ndarray
    y: np.ndarray
    n_dropped1: int
    n_dropped2: int

    @property
    def n_dropped(self) -> int:
        """Rows of both conditions left out of the comparison."""
        return self.n_dropped1 + self.n_dropped2


def match_pairs(
    df: pd.DataFrame,
    metric: str,
    condition1: Hashable,
    condition2: Hashable,
    *,
    by: str = "condition",
    paired_on: str = "pair",
) -> MatchedPairs:
    """Match the games of two conditions on the key column ``paired_on``.

    Games whose key has no partner in the other condition (or whose metric, or partner's metric, is
    missing) are dropped and counted. A key that occurs twice within one condition is ambiguous and
    raises ``ValueError``.
    """
    check_columns(df, metric, by, paired_on)
    values = numeric_column(df, metric)
    sides = []
    for cond in (condition1, condition2):
        rows = df[by] == cond
        keys = df.loc[rows, paired_on]
        dup = keys[keys.duplicated()]
        if len(dup):
            raise ValueError(
                f"pairing key {paired_on!r} is not unique within condition {cond!r} "
                f"(e.g. {dup.iloc[0]!r}); cannot match games"
            )
        side = pd.DataFrame({"key": keys.to_numpy(), "v": values[rows].to_numpy()})
        sides.append(side)
    total1, total2 = len(sides[0]), len(sides[1])
    clean = [s.dropna() for s in sides]
    merged = clean[0].merge(clean[1], on="key", suffixes=("1", "2"), validate="one_to_one")
    with contextlib.suppress(TypeError):  # keys of mixed, unorderable types: keep merge order
        merged = merged.sort_values("key", kind="stable")
    n = len(merged)
    return MatchedPairs(
        keys=merged["key"].to_numpy(),
        x=merged["v1"].to_numpy(dtype=float),
        y=merged["v2"].to_numpy(dtype=float),
        n_dropped1=total1 - n,
        n_dropped2=total2 - n,
    )


# ----------------------------------------------------------------------------- omnibus


@dataclass(frozen=True)
class OmnibusResult:
    """Result of :func:`omnibus`.

    ``statistic`` is Kruskal-Wallis H (``test == "kruskal"``) or Friedman's chi-square
    (``test == "friedman"``); ``effect`` is epsilon-squared ``H / (n - 1)`` for Kruskal-Wallis and
    Kendall's W ``chi2 / (N (k - 1))`` for Friedman. NaN values come with an explanatory ``note``.
    """

    metric: str
    test: str
    statistic: float
    pvalue: float
    n: dict[Hashable, int]
    effect_measure: str
    effect: float
    n_dropped: int = 0
    note: str = ""
    df: int = field(default=0)

    @property
    def k(self) -> int:
        """Number of conditions compared."""
        return len(self.n)

    def to_frame(self) -> pd.DataFrame:
        """One-row table (for :func:`ludolab.research.stats.to_markdown` and friends)."""
        row = {
            "metric": self.metric,
            "test": self.test,
            "k": self.k,
            # Friedman's n is its blocks (matched setups), each counted once
            "n": (
                next(iter(self.n.values()), 0) if self.test == "friedman" else sum(self.n.values())
            ),
            "n_dropped": self.n_dropped,
            "statistic": self.statistic,
            "df": self.df,
            "p": self.pvalue,
            "effect_measure": self.effect_measure,
            "effect": self.effect,
            "note": self.note,
        }
        return pd.DataFrame([row])


def omnibus(
    df: pd.DataFrame,
    metric: str,
    by: str = "condition",
    *,
    paired_on: str | None = None,
    order: Sequence[Hashable] | None = None,
) -> OmnibusResult:
    """Test whether ``metric`` differs between any of the conditions in ``by``.

    Independent games: Kruskal-Wallis H test (:func:`scipy.stats.kruskal`, chi-square
    approximation with tie correction). With ``paired_on`` (games matched by common random
    numbers): Friedman test (:func:`scipy.stats.friedmanchisquare`) on the keys present, with a
    metric value, in *every* condition; other rows are dropped and counted in ``n_dropped``.

    Degenerate inputs do not raise: fewer than two conditions, an empty condition or all values
    identical give NaN ``statistic``/``pvalue`` and a ``note`` saying why.
    """
    check_columns(df, metric, by, paired_on)
    conds = condition_order(df, by, order)
    values = numeric_column(df, metric)
    if paired_on is not None:
        return _friedman(df, metric, values, by, paired_on, conds)
    groups = [values[df[by] == c].dropna().to_numpy() for c in conds]
    n = {c: int(g.size) for c, g in zip(conds, groups, strict=True)}
    used = sum(n.values())
    dropped = int(df[by].isin(conds).sum()) - used
    nan = float("nan")

    def result(stat: float, p: float, eff: float, note: str = "") -> OmnibusResult:
        return OmnibusResult(
            metric, "kruskal", stat, p, n, "epsilon_squared", eff, dropped, note, len(conds) - 1
        )

    if len(conds) < 2:
        return result(nan, nan, nan, "fewer than two conditions")
    empty = [c for c, g in zip(conds, groups, strict=True) if g.size == 0]
    if empty:
        return result(nan, nan, nan, f"no data for condition(s) {empty}")
    pooled = np.concatenate(groups)
    if np.all(pooled == pooled[0]):
        return result(nan, nan, nan, "all values identical")
    h, p = st.kruskal(*groups)
    return result(float(h), float(p), float(h) / (used - 1))


def _friedman(
    df: pd.DataFrame,
    metric: str,
    values: pd.Series,
    by: str,
    paired_on: str,
    conds: list[Hashable],
) -> OmnibusResult:
    rows = df[by].isin(conds)
    sub = pd.DataFrame({"key": df.loc[rows, paired_on], "c": df.loc[rows, by], "v": values[rows]})
    if sub.duplicated(["key", "c"]).any():
        raise ValueError(f"pairing key {paired_on!r} is not unique within a condition")
    wide = sub.pivot(index="key", columns="c", values="v").reindex(columns=conds).dropna()
    n_blocks = len(wide)
    n = {c: n_blocks for c in conds}
    dropped = len(sub) - n_blocks * len(conds)
    nan = float("nan")

    def result(stat: float, p: float, eff: float, note: str = "") -> OmnibusResult:
        return OmnibusResult(
            metric, "friedman", stat, p, n, "kendalls_w", eff, dropped, note, len(conds) - 1
        )

    if len(conds) < 3:
        return result(nan, nan, nan, "Friedman test needs three or more conditions; use pairwise")
    if n_blocks < 2:
        return result(nan, nan, nan, "fewer than two games matched across all conditions")
    block = wide.to_numpy()
    if np.all(block == block[0, 0]):
        return result(nan, nan, nan, "all values identical")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        chi2, p = st.friedmanchisquare(*block.T)
    return result(float(chi2), float(p), float(chi2) / (n_blocks * (len(conds) - 1)))


def omnibus_table(
    df: pd.DataFrame,
    metrics: Sequence[str],
    by: str = "condition",
    *,
    paired_on: str | None = None,
    order: Sequence[Hashable] | None = None,
) -> pd.DataFrame:
    """:func:`omnibus` for several metrics, one row each (no correction across metrics)."""
    frames = [omnibus(df, m, by, paired_on=paired_on, order=order).to_frame() for m in metrics]
    return pd.concat(frames, ignore_index=True)


# ----------------------------------------------------------------------------- pairwise


def pairwise(
    df: pd.DataFrame,
    metric: str,
    by: str = "condition",
    paired_on: str | None = None,
    correction: Correction = "holm",
    n_boot: int = 2000,
    seed: SeedLike = 0,
    alpha: float = 0.05,
    *,
    level: float = 0.95,
    ci_method: Literal["percentile", "bca", "basic"] = "percentile",
    order: Sequence[Hashable] | None = None,
    baseline: Hashable | None = None,
    margin: float | None = None,
) -> pd.DataFrame:
    """Compare ``metric`` between every pair of conditions (or every pair with ``baseline``).

    One row per unordered pair ``(condition1, condition2)`` (in condition order), with columns
    :data:`PAIRWISE_COLUMNS`:

    * ``n1``, ``n2`` -- games used; ``n_dropped`` -- rows of the two conditions not used (missing
      metric; when paired, also games without a partner under the same key).
    * ``median1/2``, ``mean1/2`` -- of the games used.
    * ``test``/``statistic``/``p`` -- independent games: two-sided Mann-Whitney U
      (:func:`scipy.stats.mannwhitneyu`, ``statistic`` = U of condition1). With ``paired_on``:
      two-sided Wilcoxon signed-rank test on the matched differences ``condition1 - condition2``
      (:func:`scipy.stats.wilcoxon`, zero differences dropped, ``statistic`` = min(T+, T-)).
    * ``diff`` -- ``mean1 - mean2`` in the metric's unit, with a bootstrap interval
      ``diff_low``/``diff_high`` (resampled as the effect's); ``hl_shift`` -- the Hodges-Lehmann
      shift (median of all differences ``x_i - y_j``; paired: median of the Walsh averages of
      the matched differences); ``d`` -- Cohen's d, the difference over ``sd``: the pooled
      standard deviation (paired: of the differences, d_z).
    * ``p_adj`` -- adjusted over all pairs of this metric (``correction``: Holm by default).
    * ``effect`` -- positive when condition1 tends to be larger. Independent: Cliff's delta.
      Paired: matched-pairs rank-biserial correlation (see
      :func:`ludolab.research.stats.effects.rank_biserial_paired`), the effect size consistent with
      the Wilcoxon test. ``effect_measure`` names which.
    * ``ci_low``/``ci_high`` -- bootstrap CI of the effect (``ci_method`` percentile by default,
      ``n_boot`` resamples, games resampled within each condition, or pairs resampled together
      when paired). ``n_boot=0`` skips the bootstrap (NaN bounds).
    * ``significant`` -- ``p_adj < alpha``; ``note`` explains NaN results.
    * ``equivalence_p`` -- with ``margin`` (in the metric's unit): the TOST p-value of
      ``|difference| < margin`` (:func:`ludolab.research.stats.power.equivalence_p`); NaN without.

    ``seed`` (int or ``numpy.random.Generator``) seeds one child generator per pair, so results
    are reproducible. With ``baseline``, only the pairs that include it are compared and
    adjusted (among themselves); each keeps the generator it has among all pairs, so its
    bootstrap is the same either way. Settings are recorded in ``result.attrs``.
    """
    check_columns(df, metric, by, paired_on)
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be in (0, 1), got {alpha}")
    conds = condition_order(df, by, order)
    values = numeric_column(df, metric)
    pairs = list(itertools.combinations(conds, 2))
    rngs = np.random.default_rng(seed).spawn(len(pairs)) if pairs else []
    wanted = [
        (pair, rng)
        for pair, rng in zip(pairs, rngs, strict=True)
        if baseline is None or baseline in pair
    ]
    rows = []
    for (c1, c2), rng in wanted:
        if paired_on is None:
            x = values[df[by] == c1].dropna().to_numpy()
            y = values[df[by] == c2].dropna().to_numpy()
            dropped = int((df[by] == c1).sum() + (df[by] == c2).sum()) - x.size - y.size
            row = _unpaired_row(x, y, n_boot, rng, level, ci_method)
            row.update(_difference(x, y, False, n_boot, rng, level, ci_method, margin))
        else:
            mp = match_pairs(df, metric, c1, c2, by=by, paired_on=paired_on)
            x, y, dropped = mp.x, mp.y, mp.n_dropped
            row = _paired_row(x, y, n_boot, rng, level, ci_method)
            row.update(_difference(x, y, True, n_boot, rng, level, ci_method, margin))
        rows.append(
            {
                "metric": metric,
                "condition1": c1,
                "condition2": c2,
                "n1": int(x.size),
                "n2": int(y.size),
                "n_dropped": int(dropped),
                "median1": float(np.median(x)) if x.size else np.nan,
                "median2": float(np.median(y)) if y.size else np.nan,
                "mean1": float(np.mean(x)) if x.size else np.nan,
                "mean2": float(np.mean(y)) if y.size else np.nan,
                **row,
            }
        )
    out = pd.DataFrame(rows, columns=[c for c in PAIRWISE_COLUMNS if c not in ("p_adj",)])
    out.insert(out.columns.get_loc("p") + 1, "p_adj", adjust_pvalues(out["p"], correction))
    out["significant"] = (out["p_adj"] < alpha).astype(bool)
    out = out[list(PAIRWISE_COLUMNS)]
    out.attrs.update(
        {
            "metric": metric,
            "by": by,
            "paired_on": paired_on,
            "correction": correction,
            "alpha": alpha,
            "level": level,
            "ci_method": ci_method,
            "n_boot": n_boot,
            "baseline": baseline,
            "margin": margin,
        }
    )
    return out


def _difference(
    x: np.ndarray,
    y: np.ndarray,
    paired: bool,
    n_boot: int,
    rng: np.random.Generator,
    level: float,
    method: str,
    margin: float | None,
) -> dict[str, float]:
    """The raw-unit columns of a pairwise row: difference of means with its interval, the
    Hodges-Lehmann shift, Cohen's d and the equivalence p-value."""
    nan = float("nan")
    if x.size == 0 or y.size == 0:
        keys = ("diff", "diff_low", "diff_high", "hl_shift", "d", "sd", "equivalence_p")
        return dict.fromkeys(keys, nan)
    low, high = nan, nan
    if x.size > 1 and y.size > 1 and np.ptp(np.concatenate([x, y])) > 0:
        low, high = _ci(_mean_difference_axis, (x, y), paired, n_boot, rng, level, method)
    diff = float(np.mean(x) - np.mean(y))
    sd = difference_sd(x, y, paired=paired)
    return {
        "diff": diff,
        "diff_low": low,
        "diff_high": high,
        "hl_shift": hodges_lehmann(x, y, paired=paired),
        "d": diff / sd if sd > 0 else nan,
        "sd": sd,
        "equivalence_p": nan if margin is None else equivalence_p(x, y, margin, paired=paired),
    }


def _ci(
    stat, samples, paired: bool, n_boot: int, rng, level: float, method: str
) -> tuple[float, float]:
    if n_boot <= 0:
        return float("nan"), float("nan")
    ci = bootstrap_ci(stat, samples, n_boot, rng, level, paired=paired, method=method)
    return ci.low, ci.high


def _unpaired_row(
    x: np.ndarray, y: np.ndarray, n_boot: int, rng: np.random.Generator, level: float, method: str
) -> dict[str, object]:
    row: dict[str, object] = {
        "test": "mann-whitney",
        "effect_measure": "cliffs_delta",
        "statistic": np.nan,
        "p": np.nan,
        "effect": np.nan,
        "ci_low": np.nan,
        "ci_high": np.nan,
        "note": "",
    }
    if x.size == 0 or y.size == 0:
        row["note"] = "no data for a condition"
        return row
    res = st.mannwhitneyu(x, y, alternative="two-sided")
    row["statistic"], row["p"] = float(res.statistic), float(res.pvalue)
    row["effect"] = cliffs_delta(x, y)
    row["ci_low"], row["ci_high"] = _ci(
        _cliffs_delta_axis, (x, y), False, n_boot, rng, level, method
    )
    return row


def _paired_row(
    x: np.ndarray, y: np.ndarray, n_boot: int, rng: np.random.Generator, level: float, method: str
) -> dict[str, object]:
    row: dict[str, object] = {
        "test": "wilcoxon",
        "effect_measure": "rank_biserial_paired",
        "statistic": np.nan,
        "p": np.nan,
        "effect": np.nan,
        "ci_low": np.nan,
        "ci_high": np.nan,
        "note": "",
    }
    if x.size == 0:
        row["note"] = "no matched pairs"
        return row
    d = x - y
    if np.all(d == 0):
        row["note"] = "all paired differences are zero"
    else:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            res = st.wilcoxon(x, y, alternative="two-sided")
        row["statistic"], row["p"] = float(res.statistic), float(res.pvalue)
    row["effect"] = float(_rank_biserial_axis(d))
    row["ci_low"], row["ci_high"] = _ci(_rank_biserial_axis, (d,), True, n_boot, rng, level, method)
    return row
