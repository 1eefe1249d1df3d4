"""The definitions at the end of a report: every metric its tables name (from the metrics
registry, :mod:`ludolab.research.metrics.registry`, and the game's setup features, its
description's ``feature_docs``, so nothing is defined twice) and every
statistical term its text uses (:data:`TERMS`, each found by a pattern in the report's own
text), with which numbers are corrected for multiple tests and which are not.

The run's report and the design search's report both end with them
(:func:`definition_blocks`, :func:`term_lines`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import pandas as pd

from ludolab import games
from ludolab.research.metrics.registry import definition, game_unit, label

CORRECTIONS = {
    "holm": "Holm's step-down method, which keeps the chance of any false finding in the "
    "family at most alpha (the family-wise error rate)",
    "bonferroni": "Bonferroni's method (each p-value times the number of tests), which keeps "
    "the chance of any false finding in the family at most alpha",
    "fdr_bh": "the Benjamini-Hochberg method, which keeps the expected share of false findings "
    "among the findings at most alpha (the false discovery rate)",
    "none": "no correction: the p-values are those of each test alone",
}


@dataclass(frozen=True)
class Term:
    """A statistical term: ``name`` as the definitions head it, ``pattern`` (a regular
    expression) finds it in a report's text, ``text`` defines it (``{alpha}``,
    ``{correction}``, ``{families}``, ``{kind}`` and, in a name, ``{short}`` are the report's
    own: :func:`context`)."""

    name: str
    pattern: str
    text: str


TERMS: tuple[Term, ...] = (
    Term(
        "setup",
        r"\bsetups?\b",
        "what a condition changes: one setup of the game ({kind} here). The "
        "games on one setup are repeated measurements of it, so each metric is first averaged "
        "over a setup's games and the tests compare these setup means: the setup is the unit "
        "of analysis.",
    ),
    Term(
        "lineup",
        r"\blineups?\b",
        "the agents at the table, seat by seat; rotated, the same agents move round the seats "
        "so that each plays every seat. Lineups are analysed apart, never pooled.",
    ),
    Term(
        "paired, common random numbers",
        r"\bpaired\b|common random numbers|\bCRN\b",
        "setup s of every condition is played with the same game seeds (the same dice), so "
        "the conditions are compared setup by setup and the dice's share of the noise cancels.",
    ),
    Term(
        "95% CI, interval",
        r"95% CI|\bintervals?\b",
        "a 95% confidence interval of the number beside it, for that one comparison alone: "
        "intervals are not corrected for the number of tests, so among many tests some "
        "exclude zero by chance. Differences of means: bootstrap over setups; seat advantage: "
        "t interval over setups; mixed model: Wald interval; win rates in the figures: Wilson "
        "interval.",
    ),
    Term(
        "bootstrap",
        r"\bbootstrap",
        "the interval of a difference from resampling the setups with replacement (paired "
        "setups together) and taking the 2.5% and 97.5% quantiles.",
    ),
    Term(
        "p (raw), raw p-value",
        r"p \(raw\)|\braw\b|p-values?",
        "the p-value of one test on its own: how often a difference at least as large would "
        "appear if the conditions did not differ. Not corrected for the other tests.",
    ),
    Term(
        "corrected p{short}",
        r"corrected p|p \((Holm|BH|Bonferroni)\)|\bHolm\b|Benjamini|Bonferroni",
        "a p-value corrected for every test of its family by {correction}. A difference is a "
        "finding when its corrected p-value is below alpha = {alpha}. Corrected: every "
        "corrected p and every p (Holm) column (over its family). Not corrected: the 95% "
        "intervals and the p (raw) columns.",
    ),
    Term(
        "family",
        r"\bfamil(y|ies)\b",
        "a set of tests corrected together. This report's families: {families}.",
    ),
    Term("alpha", r"\balpha\b", "the level a corrected p-value must be below: {alpha}."),
    Term(
        "alpha / m",
        r"alpha / m",
        "alpha divided by m, the number of tests in the family: the level of the first and "
        "strictest step of Holm's and Benjamini-Hochberg's corrections.",
    ),
    Term(
        "MDE, minimum detectable difference",
        r"\bMDE\b|minimum detectable|80% power",
        "the smallest true difference, in the metric's unit, that the design finds with 80% "
        "power (a chance of 80%) at the level alpha / m, from this run's own spread of setup "
        "means. A difference smaller than the MDE can exist and go undetected.",
    ),
    Term(
        "finding",
        r"\bfindings?\b",
        "a difference whose corrected p-value is below alpha in the confirmatory family (every "
        "comparison of conditions, or those of the primary metrics when the config names "
        "some).",
    ),
    Term(
        "not detected",
        r"not detected|no difference detected|no change .*detected|no trend detected",
        "the corrected test did not find a difference. That is not evidence that there is "
        "none: the MDE says how large a difference could have gone unseen.",
    ),
    Term(
        "not testable at this size",
        r"not testable|no finding was possible",
        "too few setups: even the most extreme data would give the rank test a p-value no "
        "smaller than alpha / m, so no difference of any size could have been found.",
    ),
    Term(
        "TOST, equivalent, margin",
        r"\bTOST\b|equivalen|\bmargins?\b",
        "two one-sided tests: a difference is equivalent to none within ±margin when both "
        "one-sided tests show, after correction, that it lies inside the margin, the smallest "
        "difference that matters as the config declares it (comparisons.margins).",
    ),
    Term(
        "HL shift, Hodges-Lehmann",
        r"HL shift|Hodges-Lehmann",
        "a robust estimate of the difference, in the metric's unit: the median of the Walsh "
        "averages of the paired setup differences (unpaired: the median of every difference "
        "between a setup of one condition and one of the other). An outlying setup moves it "
        "less than it moves the difference of means.",
    ),
    Term(
        "d, Cohen's d",
        r"Cohen's d|\bd = ",
        "the difference in standard deviations of the setup means (paired: of the paired "
        "differences). It grows with the games per setup, so compare raw differences across "
        "designs.",
    ),
    Term(
        "ICC",
        r"\bICC\b",
        "intraclass correlation: the share of a single game's variance that lies between "
        "setups (0: the setup does not matter; 1: every game on a setup ends alike).",
    ),
    Term(
        "Wilcoxon signed-rank test",
        r"Wilcoxon",
        "a rank test of paired differences, here between setups paired by index.",
    ),
    Term(
        "Mann-Whitney U test",
        r"Mann-Whitney",
        "a rank test comparing two independent groups, here the setup means of two conditions.",
    ),
    Term(
        "Friedman test",
        r"Friedman",
        "a rank test over setups as blocks: do the seats' win shares (or the conditions' "
        "means) differ within the setups?",
    ),
    Term(
        "Kruskal-Wallis test",
        r"Kruskal",
        "a rank test of three or more independent groups of setup means.",
    ),
    Term(
        "omnibus test",
        r"[Oo]mnibus",
        "one test across all conditions at once; descriptive here, as the findings come from "
        "the pairwise comparisons.",
    ),
    Term(
        "effect sizes of rank tests",
        r"Kendall's W|epsilon-squared|rank-biserial|Cliff's delta",
        "Kendall's W (Friedman) and epsilon-squared (Kruskal-Wallis): how much of the ranks' "
        "variation the conditions explain, 0 to 1; rank-biserial correlation (Wilcoxon) and "
        "Cliff's delta (Mann-Whitney): -1 to 1, positive when the first condition is larger.",
    ),
    Term(
        "mixed model",
        r"mixed model|mixed-model",
        "a linear mixed model on the single games: metric ~ condition, with random effects for "
        "the setup (and for the shared game seed when paired), fitted by REML, with Wald "
        "intervals. A check of the setup-mean test on the games; 'agrees': the same verdict.",
    ),
    Term("seat 0, first player", r"seat 0|first player", "seat 0 moves first."),
    Term(
        "advantage",
        r"\badvantage\b",
        "seat 0's share of the wins minus a fair share (1 / players), averaged over setups, "
        "with a t interval and a one-sample t-test over setups (p (raw): not corrected).",
    ),
    Term(
        "seats differ",
        r"seats differ|seats' win shares",
        "whether the seats' shares of the wins differ, tested over setups as blocks (Friedman; "
        "Wilcoxon with two players), corrected over the seat tests, a family of their own.",
    ),
    Term(
        "balance if fair",
        r"balance if fair",
        "the balance that seats with equal chances would show over as many decided games: its "
        "mean and 95% range (2.5% to 97.5%) over 4,000 simulations; balance is below 1 from "
        "chance alone, the more so the fewer the games.",
    ),
    Term(
        "decided games",
        r"decided games",
        "games with at least one winner; a win shared by k seats counts 1/k to each.",
    ),
    Term(
        "OLS, HC3, standardised coefficient, R²",
        r"\bOLS\b|HC3|[Ss]tandardised|R²",
        "ordinary least squares regression of setup means, with HC3 (heteroskedasticity-robust) "
        "standard errors. A standardised coefficient is the change of the metric, in its "
        "standard deviations, per standard deviation of the feature; R² is the share of the "
        "variance of the setup means that the features explain.",
    ),
    Term(
        "Wilson interval",
        r"Wilson",
        "a confidence interval for a proportion that stays within 0 and 1; here over the "
        "effective number of independent games (games on one setup are not independent).",
    ),
    Term(
        "acceptance",
        r"\bacceptance\b",
        "the share of fair shuffles (setups drawn with no constraint) that satisfy a "
        "condition's constraints, where the sampler measured it; '1 in N' when very small.",
    ),
    Term(
        "uniform",
        r"\buniform\b",
        "a uniform sampler draws every setup that satisfies the condition's constraints with "
        "equal chance.",
    ),
    Term(
        "MCMC, Markov chains, burn-in",
        r"MCMC|Markov chain|burn-in",
        "boards drawn by Markov chains that change a board step by step within the "
        "constraints; the burn-in is the steps run before boards are taken, so that the "
        "chains no longer depend on the boards they started from.",
    ),
    Term(
        "nested R-hat",
        r"R-hat",
        "compares the spread between groups of chains that started from the same board with "
        "the spread within them (Margossian et al. 2024); close to 1 (the sampler requires at "
        "most 1.01) means the chains have forgotten their start.",
    ),
    Term(
        "bulk ESS",
        r"\bESS\b",
        "effective sample size of the bulk of the distribution: how many independent draws "
        "the chains' correlated draws are worth.",
    ),
    Term(
        "autocorrelation time",
        r"autocorrelation time",
        "the steps of a chain between two nearly independent boards; boards are taken at "
        "least that far apart.",
    ),
    Term(
        "primary, exploratory",
        r"[Ee]xploratory|\bprimary\b|confirmatory",
        "the primary metrics (comparisons.primary) form the confirmatory family, whose "
        "differences are findings; the other metrics are exploratory: corrected among "
        "themselves, listed apart, not findings.",
    ),
    Term(
        "randomisation test, studentised",
        r"randomisation test|studentised",
        "a test whose reference distribution comes from the data: the signs of the paired "
        "setup differences flipped (unpaired: the setups relabelled) many times; studentised: "
        "the statistic is divided by its standard error.",
    ),
    Term(
        "change across skill",
        r"Across skill|across skill",
        "how much larger a condition's effect is for the most skilled lineup than for the "
        "least skilled (a linear trend over the lineups in skill order), per setup.",
    ),
    Term(
        "trend, slope",
        r"\bslopes?\b|\bTrends?\b",
        "the ordinary least squares slope of the setup means on a sweep's swept value: the "
        "change of the metric per unit of the parameter.",
    ),
    Term(
        "A/A test",
        r"\bA/A\b",
        "a run whose conditions are drawn from one set, so every difference it finds is a "
        "false one: a check of the error control.",
    ),
    Term(
        "percentage point",
        r"percentage points?",
        "the difference of two percentages: 28% instead of 29% is 1 percentage point lower.",
    ),
    Term(
        "Ludii",
        r"\bLudii\b",
        "the Ludii general game system, whose evaluation metrics (balance, completion, lead "
        "change, drama, decisiveness) several of these metrics follow.",
    ),
    Term(
        "Pareto front",
        r"Pareto",
        "the candidates no other candidate beats on every objective at once.",
    ),
    Term(
        "fANOVA",
        r"fANOVA",
        "functional analysis of variance: a random forest fitted to the trials' scores splits "
        "their variance among the parameters; a parameter's importance is its share.",
    ),
    Term(
        "winner's curse, shrinkage",
        r"winner's curse|shrinkage",
        "the best of many noisy estimates is, on average, an overestimate; the shrinkage is "
        "how much smaller the effect is on fresh seeds than the search estimated.",
    ),
)
"""Every statistical term a report may print, with its definition."""


def term_lines(text: str, context: Mapping[str, str]) -> list[str]:
    """The definitions (``**name**: text``) of the :data:`TERMS` whose pattern occurs in
    ``text``, with ``context`` filled in."""
    return [
        f"**{t.name.format(**context)}**: {t.text.format(**context)}"
        for t in TERMS
        if re.search(t.pattern, text)
    ]


def metric_lines(game: str, names: Iterable[str]) -> list[str]:
    """One line per name: a metric of the registry (``**turns** (game length; player turns):
    game length in turns``) or a board feature; names the registry does not hold are left
    out."""
    out = []
    described = games.get(game)
    features = described.feature_docs
    for name in dict.fromkeys(names):
        metric = definition(game, name)
        if metric is not None:
            unit = game_unit(game, name) or metric.unit
            if unit == "turns":  # a length's mean or median: in the game's own turns
                unit = described.turn_unit
            short = label(name)
            called = (
                f" In sentences: {short}."
                if short != name and short.lower() not in metric.description.lower()
                else ""
            )
            out.append(f"**{name}** ({unit}): {metric.description}.{called}")
        elif name in features:
            out.append(f"**{name}** ({described.setup_noun} feature): {features[name]}.")
    return out


SHORT = {"holm": "Holm", "bonferroni": "Bonferroni", "fdr_bh": "BH"}


def context(alpha: float, correction: str, families: str, kind: str) -> dict[str, str]:
    """What :data:`TERMS` fill in: the level, the correction in words and as a column header
    names it, the report's families of tests, what a setup is called."""
    short = SHORT.get(correction)
    return {
        "alpha": str(alpha),
        "correction": CORRECTIONS[correction],
        "short": f", p ({short})" if short else "",
        "families": families,
        "kind": kind,
    }


def corrected_sentence(alpha: float, correction: str) -> str:
    """Which numbers are corrected for multiple tests and which are not."""
    header = SHORT.get(correction)
    columns = f", and every p-value in a column headed p ({header})," if header else ""
    return (
        f"**Corrected and not corrected.** Every corrected p{columns} is corrected over its "
        f"family by {CORRECTIONS[correction]}; a difference is a finding when it is below "
        f"{alpha}. The 95% intervals and the p (raw) columns are not corrected: each holds "
        "for its test alone. The metrics and terms below are those this report uses."
    )


def table_names(table: pd.DataFrame) -> list[str]:
    """The metric names a formatted table shows: its column headers, and the values of a
    ``metric`` column (without their unit: ``turns (player turns)`` is ``turns``)."""
    names = [str(c) for c in table.columns]
    if "metric" in table.columns:
        names += [str(v).split(" (")[0] for v in table["metric"]]
    return names


__all__ = [
    "TERMS",
    "Term",
    "context",
    "corrected_sentence",
    "metric_lines",
    "table_names",
    "term_lines",
]
