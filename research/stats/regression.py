"""Ordinary least squares of a game-quality metric on board features (numpy/scipy only)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
import pandas as pd
import scipy.stats as st

from ludolab.research.stats.report import format_p

CovType = Literal["HC3", "nonrobust"]

COEF_COLUMNS: tuple[str, ...] = ("term", "coef", "se", "t", "p", "ci_low", "ci_high", "std_coef")
"""Columns of :meth:`RegressionResult.to_frame`."""


@dataclass(frozen=True)
class RegressionResult:
    """Fitted ``metric ~ 1 + features`` by OLS.

    ``coef`` is indexed by term (``"const"`` then the features) with columns ``coef`` (raw units),
    ``se`` (HC3 heteroscedasticity-robust by default), ``t``, ``p`` (two-sided, t distribution with
    ``df_resid`` degrees of freedom), ``ci_low``/``ci_high`` (``level`` CI of ``coef``) and
    ``std_coef`` -- the standardised ("beta") coefficient ``coef * sd(feature) / sd(metric)``:
    the change in the metric, in standard deviations, per standard deviation of the feature
    (NaN for the intercept). ``t`` and ``p`` are the same for raw and standardised coefficients.
    ``f_stat``/``f_pvalue`` is the Wald test that all feature coefficients are zero, using the same
    covariance estimate.
    """

    metric: str
    features: tuple[str, ...]
    coef: pd.DataFrame
    n: int
    n_dropped: int
    df_resid: int
    r2: float
    adj_r2: float
    f_stat: float
    f_pvalue: float
    cov_type: str
    level: float

    @property
    def params(self) -> pd.Series:
        """Raw coefficients by term."""
        return self.coef["coef"]

    @property
    def std_params(self) -> pd.Series:
        """Standardised coefficients by feature (intercept excluded)."""
        return self.coef["std_coef"].drop("const")

    def to_frame(self) -> pd.DataFrame:
        """Coefficient table with a ``term`` column; fit statistics in ``attrs``."""
        out = self.coef.reset_index(names="term")[list(COEF_COLUMNS)]
        out.attrs.update(
            {
                "metric": self.metric,
                "n": self.n,
                "r2": self.r2,
                "adj_r2": self.adj_r2,
                "f_stat": self.f_stat,
                "f_pvalue": self.f_pvalue,
                "cov_type": self.cov_type,
                "level": self.level,
            }
        )
        return out

    def summary(self) -> str:
        """One line of fit statistics, e.g. for a table caption."""
        return (
            f"{self.metric}: n = {self.n}, R² = {self.r2:.3f} (adj. {self.adj_r2:.3f}), "
            f"F = {self.f_stat:.2f}, p {_p_text(self.f_pvalue)}, {self.cov_type} standard errors"
        )


def _p_text(p: float) -> str:
    text = format_p(p)
    return text if text.startswith("<") else f"= {text}"


def regress(
    df: pd.DataFrame,
    metric: str,
    features: Sequence[str],
    *,
    cov_type: CovType = "HC3",
    level: float = 0.95,
) -> RegressionResult:
    """OLS regression of ``metric`` on ``features`` with an intercept.

    Rows with a missing value in any used column are dropped (``n_dropped``). Standard errors are
    HC3 heteroscedasticity-consistent (MacKinnon & White 1985) by default, or the classical
    ``s^2 (X'X)^-1`` with ``cov_type="nonrobust"``. Raises ``ValueError`` for constant features,
    collinear features, or too few rows (need more rows than coefficients).
    """
    features = tuple(features)
    if not features:
        raise ValueError("need at least one feature")
    if len(set(features)) != len(features):
        raise ValueError(f"duplicate features in {features}")
    missing = [c for c in (metric, *features) if c not in df.columns]
    if missing:
        raise KeyError(f"column(s) {missing} not in DataFrame")
    if cov_type not in ("HC3", "nonrobust"):
        raise ValueError(f"cov_type must be 'HC3' or 'nonrobust', got {cov_type!r}")
    if not 0 < level < 1:
        raise ValueError(f"level must be in (0, 1), got {level}")
    data = df[[metric, *features]].astype(float).dropna()
    n, k = len(data), len(features) + 1
    if n <= k:
        raise ValueError(f"{n} complete rows for {k} coefficients; need more rows than that")
    y = data[metric].to_numpy()
    xf = data[list(features)].to_numpy()
    sd_x = xf.std(axis=0, ddof=1)
    constant = [f for f, s in zip(features, sd_x, strict=True) if s == 0]
    if constant:
        raise ValueError(f"feature(s) {constant} are constant; drop them")
    x = np.column_stack([np.ones(n), xf])
    if np.linalg.matrix_rank(x) < k:
        raise ValueError(f"features {list(features)} are collinear (design matrix rank-deficient)")

    xtx_inv = np.linalg.inv(x.T @ x)
    beta = xtx_inv @ x.T @ y
    resid = y - x @ beta
    df_resid = n - k
    if cov_type == "nonrobust":
        cov = xtx_inv * (resid @ resid / df_resid)
    else:
        leverage = np.einsum("ij,jk,ik->i", x, xtx_inv, x)
        with np.errstate(divide="ignore", invalid="ignore"):
            omega = resid**2 / (1.0 - leverage) ** 2
        cov = xtx_inv @ (x.T * omega) @ x @ xtx_inv
    se = np.sqrt(np.diag(cov))
    with np.errstate(divide="ignore", invalid="ignore"):
        t = beta / se
        p = 2.0 * st.t.sf(np.abs(t), df_resid)
        crit = st.t.ppf(0.5 + level / 2.0, df_resid)
        sd_y = y.std(ddof=1)
        std_coef = np.concatenate([[np.nan], beta[1:] * sd_x / sd_y])
        tss = ((y - y.mean()) ** 2).sum()
        r2 = 1.0 - (resid @ resid) / tss
        adj_r2 = 1.0 - (1.0 - r2) * (n - 1) / df_resid
    b, v = beta[1:], cov[1:, 1:]
    try:
        f_stat = float(b @ np.linalg.solve(v, b) / (k - 1))
        f_pvalue = float(st.f.sf(f_stat, k - 1, df_resid))
    except np.linalg.LinAlgError:
        f_stat = f_pvalue = float("nan")
    coef = pd.DataFrame(
        {
            "coef": beta,
            "se": se,
            "t": t,
            "p": p,
            "ci_low": beta - crit * se,
            "ci_high": beta + crit * se,
            "std_coef": std_coef,
        },
        index=pd.Index(["const", *features], name="term"),
    )
    return RegressionResult(
        metric=metric,
        features=features,
        coef=coef,
        n=n,
        n_dropped=len(df) - n,
        df_resid=df_resid,
        r2=float(r2),
        adj_r2=float(adj_r2),
        f_stat=f_stat,
        f_pvalue=f_pvalue,
        cov_type=cov_type,
        level=level,
    )
