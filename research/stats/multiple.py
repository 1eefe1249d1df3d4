"""Multiple-comparison corrections of p-values, by statsmodels' ``multipletests``.

``holm`` and ``bonferroni`` control the family-wise error rate (the chance of any false
finding in the family); ``fdr_bh`` (Benjamini-Hochberg) controls the false discovery rate (the
expected share of false findings among the findings), which equals the family-wise rate when
every null hypothesis is true. NaN entries (tests that could not be run) stay NaN and do not
count towards the family's size.
"""

from __future__ import annotations

from typing import Literal

import numpy as np
from numpy.typing import ArrayLike

Correction = Literal["holm", "bonferroni", "fdr_bh", "none"]
CORRECTIONS: tuple[str, ...] = ("holm", "fdr_bh", "bonferroni", "none")
CORRECTION_NAMES = {
    "holm": "Holm (family-wise error rate)",
    "bonferroni": "Bonferroni (family-wise error rate)",
    "fdr_bh": "Benjamini-Hochberg (false discovery rate)",
    "none": "no correction",
}


def adjust_pvalues(pvalues: ArrayLike, method: Correction = "holm") -> np.ndarray:
    """Adjusted p-values of one family, in the input order.

    ``method``: ``"holm"`` (default), ``"fdr_bh"``, ``"bonferroni"`` or ``"none"``. Rejecting
    where the adjusted value is below ``alpha`` controls the method's error rate at ``alpha``.
    """
    if method not in CORRECTIONS:
        raise ValueError(f"unknown correction {method!r}; use one of {', '.join(CORRECTIONS)}")
    p = np.asarray(pvalues, dtype=float)
    if p.ndim != 1:
        raise ValueError(f"pvalues must be one-dimensional, got shape {p.shape}")
    ok = ~np.isnan(p)
    if ((p[ok] < 0) | (p[ok] > 1)).any():
        raise ValueError("p-values must lie in [0, 1]")
    out = p.copy()
    if method != "none" and ok.any():
        from statsmodels.stats.multitest import multipletests  # here: configs name corrections

        out[ok] = multipletests(p[ok], method=method)[1]
    return out


def holm(pvalues: ArrayLike) -> np.ndarray:
    """Holm (1979) step-down adjusted p-values (see :func:`adjust_pvalues`)."""
    return adjust_pvalues(pvalues, "holm")


def bonferroni(pvalues: ArrayLike) -> np.ndarray:
    """Bonferroni adjusted p-values ``min(1, m p)`` (see :func:`adjust_pvalues`)."""
    return adjust_pvalues(pvalues, "bonferroni")
