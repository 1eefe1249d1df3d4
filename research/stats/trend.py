"""A sweep's linear trend: setup means on the swept value, by OLS with robust errors.

One fit serves both the trend test (:func:`ludolab.research.experiment.analysis.trend_table`)
and the fitted line and band of the dose-response figure, so the figure draws what is tested.
"""

from __future__ import annotations

import numpy as np
import statsmodels.api as sm
from statsmodels.regression.linear_model import RegressionResultsWrapper


def linear_trend(
    x: np.ndarray, y: np.ndarray, groups: np.ndarray | None = None
) -> RegressionResultsWrapper | None:
    """``y ~ 1 + x`` by OLS: shapes (n,), one row per setup (its mean metric, in the metric's
    unit, at swept value ``x``). Standard errors are clustered by ``groups`` when given with at
    least two groups (paired setups: setup s of every value shares its game seeds), HC3
    otherwise. None when there is no trend to fit: fewer than two distinct ``x``, or a constant
    ``y``."""
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    if len(np.unique(x)) < 2 or np.ptp(y) == 0:
        return None
    design = sm.add_constant(x)
    if groups is not None and len(np.unique(groups)) >= 2:
        return sm.OLS(y, design).fit(cov_type="cluster", cov_kwds={"groups": groups})
    return sm.OLS(y, design).fit(cov_type="HC3")


def trend_band(
    fit: RegressionResultsWrapper, at: np.ndarray, confidence: float = 0.95
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The fitted line at ``at`` (shape (k,)) and its ``confidence`` interval for the mean
    (the same covariance as the fit's test): three arrays of shape (k,), in ``y``'s unit."""
    design = sm.add_constant(np.asarray(at, dtype=float), has_constant="add")
    pred = fit.get_prediction(design)
    band = pred.conf_int(alpha=1 - confidence)
    return pred.predicted_mean, band[:, 0], band[:, 1]
