"""Multiple-comparison corrections of p-values (family-wise error rate)."""

from __future__ import annotations

from typing import Literal

import numpy as np
from numpy.typing import ArrayLike

Correction = Literal["holm", "bonferroni", "none"]


def holm(pvalues: ArrayLike) -> np.ndarray:
    """Holm (1979) step-down adjusted p-values, in the input order.

    With the ``m`` finite p-values sorted ascending, ``p_(1) <= ... <= p_(m)``, the adjusted value
    of the ``i``-th is ``max_{j <= i} min(1, (m - j + 1) p_(j))``. Rejecting where the adjusted
    p-value is below ``alpha`` controls the family-wise error rate at ``alpha``. NaN entries (tests
    that could not be run) are left NaN and do not count towards ``m``.
    """
    p = np.asarray(pvalues, dtype=float)
    if p.ndim != 1:
        raise ValueError(f"pvalues must be one-dimensional, got shape {p.shape}")
    ok = ~np.isnan(p)
    if ((p[ok] < 0) | (p[ok] > 1)).any():
        raise ValueError("p-values must lie in [0, 1]")
    out = np.full_like(p, np.nan)
    finite = p[ok]
    m = finite.size
    if m == 0:
        return out
    order = np.argsort(finite, kind="stable")
    scaled = (m - np.arange(m)) * finite[order]
    adjusted = np.minimum(1.0, np.maximum.accumulate(scaled))
    back = np.empty(m)
    back[order] = adjusted
    out[ok] = back
    return out


def bonferroni(pvalues: ArrayLike) -> np.ndarray:
    """Bonferroni adjusted p-values ``min(1, m p)``; NaN entries stay NaN and are not counted."""
    p = np.asarray(pvalues, dtype=float)
    m = int((~np.isnan(p)).sum())
    return np.minimum(1.0, p * m)


def adjust_pvalues(pvalues: ArrayLike, method: Correction = "holm") -> np.ndarray:
    """Adjust a family of p-values: ``"holm"`` (default), ``"bonferroni"`` or ``"none"``."""
    if method == "holm":
        return holm(pvalues)
    if method == "bonferroni":
        return bonferroni(pvalues)
    if method == "none":
        return np.asarray(pvalues, dtype=float).copy()
    raise ValueError(f"unknown correction {method!r}; use 'holm', 'bonferroni' or 'none'")
