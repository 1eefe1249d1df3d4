"""The report's opening summary: what the run found, in plain words and in each metric's unit,
for a designer to read in a minute.

One sentence per result: per primary metric (every tested metric when none is primary) and
compared pair of conditions, the findings with their size, interval and corrected p-value, the
equivalences, and what was not detected with the difference the design could have detected
(MDE); then the seats, the trends over sweeps, the changes across skill, and a count of the
exploratory differences. Every number comes from the tables below it, written at the same
precision (:func:`~ludolab.research.experiment.result_tables.metric_decimals`), and every
claim from a corrected test: the summary says nothing the Findings do not.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np
import pandas as pd

from ludolab.research.experiment.analysis import Analysis
from ludolab.research.experiment.report_findings import (
    amount,
    decimals_of,
    margin_text,
    metric_unit_of,
    other_families,
    trend_decimals,
    unit_word,
)
from ludolab.research.experiment.report_render import Block
from ludolab.research.experiment.result_tables import seat_decimals
from ludolab.research.metrics.registry import label
from ludolab.research.numbers import fixed, p_is, percent, plural
from ludolab.research.stats.interaction import NOT_DETECTED
from ludolab.research.stats.multiple import CORRECTION_NAMES
from ludolab.research.stats.power import UNTESTABLE, setups_for_a_finding

COUNTABLE = {"turns", "player turns", "rounds", "cards played", "decisions", "seats", "VP", ""}
"""Units whose differences read as more / fewer (counts and scores)."""


class Quantity:
    """How one tested metric reads in a sentence: as a percentage when it is a share, else in
    its unit at the report's precision for it."""

    def __init__(self, analysis: Analysis, metric: str) -> None:
        self.metric = metric
        self.unit = metric_unit_of(analysis, metric)
        self.share = self.unit.startswith("share")
        self.decimals = decimals_of(analysis, metric)
        self.word = unit_word(self.unit)

    def value(self, x: float) -> str:
        """A level: ``76.3 player turns``, ``28%``."""
        if self.share:
            return percent(x, max(self.decimals - 2, 0))
        return f"{fixed(x, self.decimals)} {self.word}".strip()

    def bare(self, x: float) -> str:
        """A level without its unit (the second of a pair): ``79.5``, ``29%``."""
        if self.share:
            return percent(x, max(self.decimals - 2, 0))
        return fixed(x, self.decimals)

    def magnitude(self, x: float) -> str:
        """The size of a difference without its unit: ``3.2``, ``1`` (percentage points)."""
        if self.share:
            return fixed(100 * abs(x), max(self.decimals - 2, 0))
        return fixed(abs(x), self.decimals)

    def size(self, x: float) -> str:
        """The size of a difference: ``3.2 player turns``, ``1 percentage point``."""
        text = self.magnitude(x)
        if self.share:
            return f"{text} percentage point{'' if text == '1' else 's'}"
        return f"{text} {self.word}".strip()

    def signed(self, x: float) -> str:
        """A signed change with its unit: ``-1.6 player turns``, ``+2 percentage points``; no
        sign on a change that rounds to zero."""
        size = self.size(x)
        if size.split(" ")[0].strip("0.,") == "":
            return size
        return ("+" if x > 0 else "-" if x < 0 else "") + size

    def direction(self, x: float) -> str:
        if self.share:
            return "higher" if x > 0 else "lower"
        if self.unit == "money":
            return "more" if x > 0 else "less"
        if self.word in COUNTABLE or self.unit == "count":
            return "more" if x > 0 else "fewer"
        return "higher" if x > 0 else "lower"

    def ci(self, low: float, high: float, diff: float, *, signed: bool = False) -> str:
        """An interval in words: ``, 95% CI 2.0 to 8.0`` (magnitudes, beside a difference
        given as a size and a direction, when the interval lies on its side), else ``, 95% CI
        -7.7 to +1.2``; nothing without an interval."""
        if not (np.isfinite(low) and np.isfinite(high)):
            return ""
        scale, dec = (100, max(self.decimals - 2, 0)) if self.share else (1, self.decimals)
        if not signed and ((low > 0 and diff > 0) or (high < 0 and diff < 0)):
            a, b = sorted((abs(low), abs(high)))
            return f", 95% CI {fixed(scale * a, dec)} to {fixed(scale * b, dec)}"
        low_text, high_text = (fixed(scale * x, dec, sign=True) for x in (low, high))
        return f", 95% CI {low_text} to {high_text}"


def _lineup_words(cfg: dict[str, Any]) -> str:
    """``greedy (greedy at every seat) and greedy-vs-random (3 greedy and 1 random, rotated
    through the seats)``."""
    parts = []
    for x in cfg["lineups"]:
        seats = Counter(x["seats"])
        who = (
            f"{next(iter(seats))} at every seat"
            if len(seats) == 1
            else " and ".join(f"{n} {agent}" for agent, n in seats.items())
        )
        if len(x["rotations"]) > 1:
            who += ", rotated through the seats"
        parts.append(f"{x['name']} ({who})")
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _intro(analysis: Analysis) -> str:
    data = analysis.data
    cfg = data.config
    kind = cfg["setup_kind"]
    conditions = [f"`{c}`" for c in data.conditions]
    if data.baseline is not None:
        others = [c for c in conditions if c != f"`{data.baseline}`"]
        what = f"{_and(others)} against `{data.baseline}` (the baseline)"
    else:
        what = f"{_and(conditions)}, each pair"
    return (
        f"**What this run found, in plain words.** {what}, {cfg['setups']} {kind} per "
        f"condition, played by {plural(len(cfg['lineups']), 'lineup')}: {_lineup_words(cfg)}."
    )


def _and(items: list[str], word: str = "and") -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + f" {word} " + items[-1]


def _mde_clause(q: Quantity, rows: pd.DataFrame) -> str:
    """``the smallest change the design could detect (MDE) is 9.8 player turns for greedy and
    7.6 for greedy-vs-random``; one size when every lineup's reads the same."""
    texts = [q.size(v) for v in rows["mde"]]
    if len(set(texts)) == 1:
        listed = texts[0]
    else:  # the unit once, after the first size
        listed = _and(
            [
                f"{text if i == 0 else q.magnitude(v)} for {lineup}"
                for i, (text, v, lineup) in enumerate(
                    zip(texts, rows["mde"], rows["lineup"], strict=True)
                )
            ]
        )
    return f"the smallest change the design could detect (MDE) is {listed}"


def _comparison_clauses(analysis: Analysis, metric: str, rows: pd.DataFrame) -> str:
    """What one metric and pair of conditions show over the lineups: findings, equivalences,
    what was not detected and what could not be tested."""
    q = Quantity(analysis, metric)
    kind = analysis.data.config["setup_kind"]
    many = rows["lineup"].nunique() > 1
    clauses = []
    for _, r in rows[rows["significant"]].iterrows():
        who = f"{r['lineup']}: " if many else ""
        fair = ""
        if metric == "first_seat_win":
            fair = f"; a fair share is {percent(1 / analysis.data.config['players'])}"
        # The finding's direction is the rank test's (the verdict); the mean can, rarely, move
        # the other way (a few boards far off the rest), and then the sentence says so.
        against = (r["diff"] > 0) != (r["effect"] > 0) and r["diff"] != 0
        turn = (
            f"; the test finds the typical {kind.rstrip('s')} {r['verdict']}, against the mean"
            if against
            else ""
        )
        clauses.append(
            f"{who}{q.value(r['mean1'])} instead of {q.bare(r['mean2'])} "
            f"({q.magnitude(r['diff'])} {q.direction(r['diff'])}"
            f"{q.ci(r['diff_low'], r['diff_high'], r['diff'])}; corrected p {p_is(r['p_adj'])}"
            f"{fair}{turn})"
        )
    same = rows[rows["verdict"].str.startswith("equivalent")]
    said: dict[str, list[str]] = {}  # lineups that read alike share one clause
    for _, r in same.iterrows():
        text = (
            f"the same within ±{margin_text(r['margin'], q.unit)} (equivalence test, "
            f"corrected p {p_is(r['equivalence_p_adj'])})"
        )
        said.setdefault(text, []).append(r["lineup"])
    for text, lineups in said.items():
        who = (
            ("every lineup: " if len(lineups) == len(rows) else f"{_and(lineups)}: ")
            if many
            else ""
        )
        clauses.append(who + text)
    quiet = rows[rows["verdict"].str.startswith("not detected")]
    if len(quiet):
        who = f"{_and(list(quiet['lineup']))}: " if many and len(quiet) < len(rows) else ""
        clauses.append(f"{who}no difference detected; {_mde_clause(q, quiet)}")
    untestable = rows[rows["verdict"].str.startswith(UNTESTABLE)]
    if len(untestable):
        level = float(analysis.data.config["comparisons"]["alpha"]) / int(
            untestable["family_size"].iloc[0]
        )
        need = setups_for_a_finding(level, paired=analysis.data.paired)
        who = (
            f"{_and(list(untestable['lineup']))}: " if many and len(untestable) < len(rows) else ""
        )
        clauses.append(
            f"{who}no finding was possible with {int(untestable['n1'].min())} {kind} per "
            f"condition, whatever the difference (at least {need} are needed)"
        )
    return "; ".join(clauses)


def comparison_sentences(analysis: Analysis) -> list[str]:
    """The sentences on the confirmatory comparisons, findings first (largest first); the
    conditions that read alike against one baseline share a sentence."""
    pw = analysis.pairwise
    if pw.empty:
        return []
    confirm = pw[(pw["family"] != "exploratory") & pw["p"].notna()]
    groups = list(confirm.groupby(["metric", "condition1", "condition2"], sort=False))
    strength = [
        float(rows.loc[rows["significant"], "d"].abs().max()) if rows["significant"].any() else -1
        for _, rows in groups
    ]
    order = sorted(range(len(groups)), key=lambda i: -strength[i])
    said: dict[tuple[str, str, str], list[str]] = {}
    for i in order:
        (metric, c1, c2), rows = groups[i]
        body = _comparison_clauses(analysis, str(metric), rows)
        said.setdefault((str(metric), str(c2), body), []).append(f"`{c1}`")
    kind = analysis.data.config["setup_kind"]
    out = []
    for (metric, c2, body), firsts in said.items():
        name = label(metric)
        out.append(f"**{name[0].upper() + name[1:]}**, {_and(firsts)} vs `{c2}` {kind}: {body}.")
    return out


def seat_sentences(analysis: Analysis) -> list[str]:
    """Per lineup: whether the seats' win shares differ (corrected among the seat tests), and
    the first player's share of the wins beside the fair share."""
    seats = analysis.seats
    if seats.empty or seats["first_seat_share"].isna().all():
        return []
    alpha = analysis.data.config["comparisons"]["alpha"]
    fair = percent(1 / analysis.data.config["players"])
    dec = max(seat_decimals(seats, analysis.pairwise) - 2, 0)
    kind = analysis.data.config["setup_kind"]
    many = seats["lineup"].nunique() > 1
    out = []
    for lineup, rows in seats.groupby("lineup", sort=False):
        tested = rows[rows["seats_p_adj"].notna()]
        differ = tested[tested["seats_p_adj"] < alpha]
        same = tested[tested["seats_p_adj"] >= alpha]
        parts = []
        if len(differ):
            where = _and(
                [
                    f"`{r['condition']}` (corrected p {p_is(r['seats_p_adj'])})"
                    for _, r in differ.iterrows()
                ]
            )
            parts.append(f"the seats' win shares differ with {where} {kind}")
        if len(same):
            where = _and([f"`{c}`" for c in same["condition"]])
            parts.append(f"no difference between the seats detected with {where} {kind}")
        shares = rows["first_seat_share"].dropna()
        low, high = percent(shares.min(), dec), percent(shares.max(), dec)
        span = low if low == high else f"{low.removesuffix('%')} to {high}"
        head = f"**Seats**{f' ({lineup})' if many else ''}: "
        out.append(
            head
            + "; ".join(parts)
            + ("; " if parts else "")
            + f"the first player wins {span} of decided games (a fair share is {fair})."
        )
    return out


def trend_sentences(analysis: Analysis) -> list[str]:
    """The trends over sweeps that were found, and a count of those not detected."""
    t = analysis.trends
    if t.empty:
        return []
    out = []
    for (_, r), d in zip(t.iterrows(), trend_decimals(t), strict=True):
        if not r["significant"]:
            continue
        by = amount(abs(r["slope"]), metric_unit_of(analysis, r["metric"]), d)
        out.append(
            f"**Trend** ({r['lineup']}, sweep {r['sweep']}): {label(r['metric'])} "
            f"{'rises' if r['slope'] > 0 else 'falls'} by {by} "
            f"per unit of {r['parameter'].removeprefix('options.')} (corrected p "
            f"{p_is(r['p_adj'])})."
        )
    quiet = int((~t["significant"]).sum())
    if quiet:
        out.append(
            f"**Trends**: {'no' if quiet == len(t) else 'no other'} trend detected in "
            f"{plural(quiet, 'test')} over the sweeps."
        )
    return out


def skill_sentences(analysis: Analysis) -> list[str]:
    """Per condition and metric across skill: the verdict and the change."""
    t = analysis.skill
    if t.empty:
        return []
    skill = list(analysis.data.config["comparisons"]["skill"])
    out = []
    for _, r in t.iterrows():
        q = Quantity(analysis, r["metric"])
        ci = q.ci(r["low"], r["high"], r["change"], signed=True).removeprefix(", ")
        if r["significant"]:
            change = (
                f"the effect changes by {q.signed(r['change'])} ({ci}; corrected p "
                f"{p_is(r['p_adj'])})"
            )
        elif r["equivalent"]:
            change = (
                f"the change, {q.signed(r['change'])} ({ci}), lies within "
                f"±{margin_text(r['margin'], q.unit)} (equivalence test, corrected p "
                f"{p_is(r['equivalence_p_adj'])})"
            )
        elif np.isfinite(r["mde"]):
            change = f"a change of {q.size(r['mde'])} would have been detected (MDE)"
        else:
            change = "too few setups to detect any change"
        verdict = r["verdict"] if r["verdict"] != NOT_DETECTED else "no change with skill detected"
        out.append(
            f"**Across skill** ({skill[0]} to {skill[-1]}), {label(r['metric'])}, "
            f"`{r['condition']}` vs `{r['baseline']}`: {verdict}: {change}."
        )
    return out


def exploratory_sentence(analysis: Analysis) -> list[str]:
    pw = analysis.pairwise
    rows = pw[pw["family"] == "exploratory"] if len(pw) else pw
    if rows.empty:
        return []
    found = int(rows["significant"].sum())
    return [
        f"**Exploratory metrics** ({_and(list(dict.fromkeys(rows['metric'])))}): "
        + (
            f"differences in {found} of {plural(len(rows), 'test')}, listed under Findings "
            "(not findings: corrected among themselves)."
            if found
            else f"no difference in {plural(len(rows), 'test')}."
        )
    ]


def how_to_read(analysis: Analysis) -> str:
    """What the summary's numbers are: which are corrected and which are not."""
    data = analysis.data
    cmp = data.config["comparisons"]
    pw = analysis.pairwise
    kind = data.config["setup_kind"]
    if pw.empty:
        return "Every metric and term of this report is defined under Definitions at the end."
    confirm = pw[pw["family"] != "exploratory"]
    exploratory = int((pw["family"] == "exploratory").sum())
    others = other_families(analysis)
    if exploratory:
        others.insert(0, f"the exploratory metrics' {plural(exploratory, 'test')}")
    which = "of the primary metrics" if exploratory else "of conditions"
    sign = (
        "each condition minus the baseline"
        if data.baseline is not None
        else "the first condition minus the second"
    )
    return (
        f"*How to read these numbers.* Differences are {sign}, over the {kind} (each the mean "
        f"of its games). A result is a finding only when its corrected p-value is below "
        f"{cmp['alpha']}: the p-values are corrected by {CORRECTION_NAMES[cmp['correction']]} "
        f"over the {plural(int(confirm['p'].notna().sum()), 'comparison')} {which}"
        + (f"; {_and(others)} are corrected among themselves" if others else "")
        + ". The 95% intervals are not corrected: each holds for its comparison alone. No "
        "difference detected is not evidence of none: the MDE is the smallest change the "
        "design would have detected with 80% power. Every metric and term is defined under "
        "Definitions at the end."
    )


def summary_blocks(analysis: Analysis) -> list[Block]:
    """The Summary section: an introduction, one sentence per result, how to read them."""
    pw = analysis.pairwise
    if pw.empty:
        lines = [
            "the run has one condition: there is nothing to compare."
            if len(analysis.data.conditions) < 2
            else "no per-game metric was tested (config: comparisons.metrics)."
        ]
    else:
        lines = comparison_sentences(analysis)
    lines += seat_sentences(analysis)
    lines += trend_sentences(analysis)
    lines += skill_sentences(analysis)
    lines += exploratory_sentence(analysis)
    return [
        Block("h2", "Summary"),
        Block("p", _intro(analysis)),
        Block("list", lines),
        Block("p", how_to_read(analysis)),
    ]
