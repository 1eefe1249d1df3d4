"""Statistics for comparing game-quality metrics between experimental conditions.

Library behind ``ludolab compare RUN``. Functions take data and return results (like
:mod:`scipy.stats`); there is no global state, and every random choice (the bootstrap) comes from
a seed the caller passes (``int`` or :class:`numpy.random.Generator`).

* :func:`omnibus` / :func:`omnibus_table` -- Kruskal-Wallis (or Friedman, when paired) across all
  conditions.
* :func:`pairwise` -- every pair of conditions: Mann-Whitney U or Wilcoxon signed-rank, Holm
  adjustment, Cliff's delta / matched-pairs rank-biserial with bootstrap CI.
* :func:`cliffs_delta`, :func:`rank_biserial_paired`, :func:`bootstrap_ci`, :func:`holm`.
* :func:`regress` -- OLS of a metric on board features, standardised coefficients, HC3 errors.
* :func:`to_markdown`, :func:`to_latex`, :func:`to_csv`, :func:`format_table`, :func:`format_p`.
"""

from ludolab.research.stats.compare import (
    PAIRWISE_COLUMNS,
    MatchedPairs,
    OmnibusResult,
    condition_order,
    match_pairs,
    omnibus,
    omnibus_table,
    pairwise,
)
from ludolab.research.stats.effects import (
    ConfidenceInterval,
    bootstrap_ci,
    cliffs_delta,
    rank_biserial_paired,
)
from ludolab.research.stats.multiple import adjust_pvalues, bonferroni, holm
from ludolab.research.stats.regression import RegressionResult, regress
from ludolab.research.stats.report import (
    format_ci,
    format_p,
    format_table,
    to_csv,
    to_latex,
    to_markdown,
)

__all__ = [
    "PAIRWISE_COLUMNS",
    "ConfidenceInterval",
    "MatchedPairs",
    "OmnibusResult",
    "RegressionResult",
    "adjust_pvalues",
    "bonferroni",
    "bootstrap_ci",
    "cliffs_delta",
    "condition_order",
    "format_ci",
    "format_p",
    "format_table",
    "holm",
    "match_pairs",
    "omnibus",
    "omnibus_table",
    "pairwise",
    "rank_biserial_paired",
    "regress",
    "to_csv",
    "to_latex",
    "to_markdown",
]
