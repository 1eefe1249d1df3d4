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

from ludolab.research.lazy import lazy_exports

# Each name loads its module (and scipy, statsmodels) on first use: a config that only names a
# correction does not pay for them.
_HOME = {
    "ConfidenceInterval": "ludolab.research.stats.effects",
    "MatchedPairs": "ludolab.research.stats.compare",
    "OmnibusResult": "ludolab.research.stats.compare",
    "PAIRWISE_COLUMNS": "ludolab.research.stats.compare",
    "RegressionResult": "ludolab.research.stats.regression",
    "adjust_pvalues": "ludolab.research.stats.multiple",
    "bonferroni": "ludolab.research.stats.multiple",
    "bootstrap_ci": "ludolab.research.stats.effects",
    "cliffs_delta": "ludolab.research.stats.effects",
    "condition_order": "ludolab.research.stats.compare",
    "format_ci": "ludolab.research.stats.report",
    "format_p": "ludolab.research.stats.report",
    "format_table": "ludolab.research.stats.report",
    "holm": "ludolab.research.stats.multiple",
    "match_pairs": "ludolab.research.stats.compare",
    "omnibus": "ludolab.research.stats.compare",
    "omnibus_table": "ludolab.research.stats.compare",
    "pairwise": "ludolab.research.stats.compare",
    "rank_biserial_paired": "ludolab.research.stats.effects",
    "regress": "ludolab.research.stats.regression",
    "to_csv": "ludolab.research.stats.report",
    "to_latex": "ludolab.research.stats.report",
    "to_markdown": "ludolab.research.stats.report",
}

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

__getattr__, __dir__ = lazy_exports(__name__, _HOME)
