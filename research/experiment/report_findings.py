"""What a report says in words: the family of tests, each finding with its raw effect and interval,
trends over sweeps, effects across skill, samplers that did not draw uniformly, exploratory and
grouped notes."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ludolab.research.experiment.analysis import Analysis
from ludolab.research.experiment.report_render import Block
from ludolab.research.metrics.registry import game_unit
from ludolab.research.stats.interaction import NOT_DETECTED
from ludolab.research.stats.multiple import CORRECTION_NAMES
from ludolab.research.stats.power import UNTESTABLE, setups_for_a_finding
from ludolab.research.stats.report import (
    format_ci,
    format_fixed,
    format_number,
    format_p,
)


def metric_unit_of(analysis: Analysis, metric: str) -> str:
    return game_unit(analysis.data.game, metric)


def unit_word(unit: str) -> str:
    """A registry unit as it reads after a number: '' for counts and shares, 'turns' for a
    turn index."""
    unit = {"count": "", "turn": "turns"}.get(unit, unit)
    return "" if "[" in unit or "(" in unit else unit


def amount(value: float, unit: str) -> str:
    """A difference with its unit, e.g. ``-5.01 player turns``; shares and counts stay bare."""
    word = unit_word(unit)
    return f"{format_number(float(value))} {word}".strip()


def family_sentence(analysis: Analysis) -> str:
    """What the report's error control covers, in one paragraph."""
    pw = analysis.pairwise
    cmp = analysis.data.config["comparisons"]
    method, alpha = cmp["correction"], cmp["alpha"]
    if pw.empty:
        return "No comparison was made."
    sizes = pw.groupby("family", sort=False)["family_size"].first()
    rate = (
        f"the expected share of false findings among the findings is at most {alpha}"
        if method == "fdr_bh"
        else "nothing controls the chance of a false finding across the report"
        if method == "none"
        else f"the chance that this report lists any false finding is at most {alpha}"
    )
    k = {f: int(m) for f, m in sizes.items()}
    shape = (
        f"{pw['lineup'].nunique()} lineup(s) x {pw['metric'].nunique()} metric(s) x "
        f"{len(pw.groupby(['condition1', 'condition2']))} comparison(s)"
    )
    if "all" in k:
        return (
            f"**Error control.** One family: all {k['all']} tests in this report ({shape}), "
            f"corrected together by {CORRECTION_NAMES[method]}, alpha = {alpha}: {rate}."
        )
    primary = ", ".join(dict.fromkeys(pw.loc[pw["family"] == "primary", "metric"]))
    return (
        f"**Error control.** The confirmatory family is the {k.get('primary', 0)} tests of "
        f"the primary metric(s) {primary}, corrected by {CORRECTION_NAMES[method]}, alpha = "
        f"{alpha}: {rate}. The other {k.get('exploratory', 0)} tests are exploratory: "
        f"corrected among themselves, listed apart, not findings."
    )


def _findings(analysis: Analysis) -> list[str]:
    """Per lineup: the confirmed differences (raw difference with its interval in the metric's
    unit), the equivalences, then one line on what was not detected, with the smallest
    difference the design detects per metric (the range over the lineup's comparisons), and
    one on what was not testable at this size (too few setups for the rank test to reach the
    family's level: no MDE, as no difference of any size was detectable)."""
    pw = analysis.pairwise
    if pw.empty:
        if len(analysis.data.conditions) < 2:
            return ["the run has one condition: there is nothing to compare."]
        return ["no per-game metric was tested (config: comparisons.metrics)."]
    out = []
    confirm = pw[pw["family"] != "exploratory"]
    for lineup, rows in confirm.groupby("lineup", sort=False):
        sig = rows[rows["significant"]]
        sig = sig.reindex(sig["d"].abs().sort_values(ascending=False).index)
        for _, r in sig.iterrows():
            unit = metric_unit_of(analysis, r["metric"])
            out.append(
                f"**{lineup}**, {r['condition1']} vs {r['condition2']}: **{r['metric']} "
                f"{r['verdict']}**: mean {format_number(r['mean1'])} vs "
                f"{format_number(r['mean2'])}, difference {amount(r['diff'], unit)} "
                f"{format_ci(r['diff_low'], r['diff_high'], None)} (Hodges-Lehmann "
                f"{format_number(r['hl_shift'])}, d = {format_fixed(r['d'])}), "
                f"p adj. {format_p(r['p_adj'])}."
            )
        same = rows[rows["verdict"].str.startswith("equivalent")]
        for _, r in same.iterrows():
            out.append(
                f"**{lineup}**, {r['condition1']} vs {r['condition2']}: {r['metric']} "
                f"equivalent within ±{amount(r['margin'], metric_unit_of(analysis, r['metric']))} "
                f"(TOST p adj. {format_p(r['equivalence_p_adj'])})."
            )
        quiet = rows[rows["verdict"].str.startswith("not detected")]
        untestable = rows[rows["verdict"].str.startswith(UNTESTABLE)]
        if len(quiet):
            parts = []
            for metric, group in quiet.groupby("metric", sort=False):
                low, high = group["mde"].min(), group["mde"].max()
                span = (
                    format_number(low)
                    if np.isclose(low, high, rtol=0.005)
                    else (f"{format_number(low)}-{format_number(high)}")
                )
                parts.append(
                    f"{metric} {span} {unit_word(metric_unit_of(analysis, metric))}".strip()
                )
            out.append(
                f"**{lineup}**, {which_conditions(quiet, rows)}: no difference detected, which is "
                "not evidence of none. Differences the design detects with 80% power, per "
                f"metric: {'; '.join(parts)}."
            )
        # Too few setups for the family's level: say so without an MDE, as no difference of
        # any size could have been found (one line per design: setups and level).
        for verdict, group in untestable.groupby("verdict", sort=False):
            level = float(analysis.data.config["comparisons"]["alpha"]) / int(
                group["family_size"].iloc[0]
            )
            need = setups_for_a_finding(level, paired=analysis.data.paired)
            out.append(
                f"**{lineup}**, {which_conditions(group, rows)}: {verdict}. With "
                f"{int(group['n1'].min())} setups per condition no finding was possible, "
                f"whatever the difference: at least {need} setups per condition are needed."
            )
    return out


def which_conditions(group: pd.DataFrame, rows: pd.DataFrame) -> str:
    """``every comparison (4 tests)`` or ``3 of 8 comparisons``: the rows a Findings line
    speaks for, out of the lineup's confirmatory rows."""
    if len(group) == len(rows):
        return f"every comparison ({len(group)} test{'s' if len(group) != 1 else ''})"
    return f"{len(group)} of {len(rows)} comparisons"


def trend_blocks(analysis: Analysis) -> list[Block]:
    """The sweeps' dose-response: trends in words (own family) and the slope table."""
    t = analysis.trends
    if t.empty:
        return []
    cmp = analysis.data.config["comparisons"]
    lines = []
    for _, r in t.iterrows():
        unit = metric_unit_of(analysis, r["metric"])
        slope = amount(r["slope"], unit)
        verdict = (
            f"**{'rises' if r['slope'] > 0 else 'falls'}**"
            if r["significant"]
            else "no trend detected"
        )
        lines.append(
            f"**{r['lineup']}**, sweep {r['sweep']} ({r['parameter']}): {r['metric']} "
            f"{verdict}: {slope} per unit of {r['parameter'].removeprefix('options.')} "
            f"{format_ci(r['slope_low'], r['slope_high'], None)}, "
            f"p adj. {format_p(r['p_adj'])}."
        )
    return [
        Block(
            "p",
            "**Trends.** Each sweep's setup means regressed on the swept value (OLS, "
            + (
                "errors clustered by setup index, as setups are paired"
                if analysis.data.paired
                else "HC3 errors"
            )
            + f"); the {len(t)} slope tests are their own family, corrected by "
            f"{CORRECTION_NAMES[cmp['correction']]} at alpha = {cmp['alpha']}. The "
            "dose-response figures are under Figures; the slopes for a paper: "
            "tables/trends.tex (rows in tables/trends.csv, every column in trends.csv).",
        ),
        Block("list", lines),
    ]


STATUS_WORDS = {
    "established": "a finding",
    "equivalent": "equivalent to none",
    "not detected": "not detected",
    "not testable": "not testable",
}


def _skill_line(analysis: Analysis, r: pd.Series, rows: pd.DataFrame, first: str, last: str) -> str:
    """One condition and metric across skill: the verdict, the effect per lineup as the main
    comparisons found it, and the change with its test (or what the design could detect)."""
    unit = metric_unit_of(analysis, r["metric"])
    per_lineup = "; ".join(
        f"{e['lineup']} {amount(e['effect'], unit)} {format_ci(e['low'], e['high'], None)}, "
        f"{STATUS_WORDS[e['status']]}"
        for _, e in rows.iterrows()
    )
    verdict = r["verdict"]
    said = verdict if verdict == NOT_DETECTED else f"**{verdict}**"
    change = (
        f"Change from {first} to {last}: {amount(r['change'], unit)} "
        f"{format_ci(r['low'], r['high'], None)}, p adj. {format_p(r['p_adj'])}"
    )
    margin = r["margin"]
    if np.isfinite(margin):
        # A declared margin reads as it was written: ±4 turns, not ±4.00.
        number = format_number(int(margin) if float(margin).is_integer() else float(margin))
        bound = f"±{number} {unit_word(unit)}".rstrip()
        tost = f"(TOST p adj. {format_p(r['equivalence_p_adj'])})"
        if r["equivalent"] and r["significant"]:
            change += f"; within {bound} {tost}: a real change, smaller than the margin"
        elif r["equivalent"]:
            change += f"; within {bound} {tost}"
        else:
            change += f"; not shown within {bound} {tost}"
    if not r["significant"] and not r["equivalent"]:
        change += (
            f"; a change of {amount(r['mde'], unit)} would have been detected with 80% power"
            if np.isfinite(r["mde"])
            else f"; with {int(r['n'])} {analysis.data.config['setup_kind']} no change could "
            f"have been detected (smallest possible p = {r['smallest_p']:.2g})"
        )
    return (
        f"**{r['metric']}**, {r['condition']} vs {r['baseline']}: {said}. Effect per lineup "
        f"(the main comparisons): {per_lineup}. {change}."
    )


def skill_blocks(analysis: Analysis) -> list[Block]:
    """The findings across skill (``comparisons.skill``): whether each condition's effect
    changes with skill, worded from the corrected tests only (own family)."""
    t = analysis.skill
    if t.empty:
        return []
    data = analysis.data
    cmp = data.config["comparisons"]
    skill = list(cmp["skill"])
    word = data.config["setup_kind"][:-1]
    effects = analysis.skill_effects
    lines = [
        _skill_line(
            analysis,
            r,
            effects[(effects["metric"] == r["metric"]) & (effects["condition"] == r["condition"])],
            skill[0],
            skill[-1],
        )
        for _, r in t.iterrows()
    ]
    relabel = (
        f"the signs of the paired {word} differences flipped"
        if data.paired
        else f"the {word}s relabelled between the two conditions"
    )
    margins = (
        "A change is shown to lie within a metric's margin (comparisons.margins) by an "
        "equivalence test (TOST, corrected the same way). "
        if t["margin"].notna().any()
        else "No metric tested here has a margin (comparisons.margins), so no change can be "
        "shown to be absent: at most, none is detected. "
    )
    return [
        Block(
            "p",
            f"**Across skill** ({' < '.join(skill)}, least skilled first). Does each "
            f"condition's effect change with the players' skill? Every lineup plays the same "
            f"{word}s with the same game seeds, so per {word} the lineups' difference carries "
            f"none of the {word}s' variation. The *change* is how much larger a condition's "
            f"effect against {data.baseline} is for {skill[-1]} than for {skill[0]} (per {word}, "
            "a linear trend over the lineups in skill order), tested by a randomisation test over "
            f"{word}s ({relabel}; a studentised statistic, exact when the conditions do not "
            f"differ). The {len(t)} change test{'s are' if len(t) > 1 else ' is'} a family of "
            f"{'their' if len(t) > 1 else 'its'} own, corrected by "
            f"{CORRECTION_NAMES[cmp['correction']]} at alpha = {cmp['alpha']}. "
            + margins
            + f"Intervals are {1 - cmp['alpha']:.0%} for each test alone; p-values are "
            "corrected. The words come from corrected tests only: an effect is *a finding* in a "
            "lineup when the main comparisons list it; *holds across skill* needs a finding in "
            "every lineup and a change shown within the margin; *grows*, *shrinks* and *changes "
            "with skill* need a detected change; *reverses* needs a detected change or findings "
            "of both signs; *present for one lineup only* also needs the effect shown "
            "equivalent to none in every other lineup. Full precision: skill.csv and "
            "skill-effects.csv.",
        ),
        Block("list", lines),
    ]


def sampler_mismatches(analysis: Analysis) -> list[str]:
    """The compared pairs whose setups come from samplers with different distributions (one
    uniform on its set, the other not, or two different non-uniform samplers), each with the
    control condition that would tell the constraints' effect from the sampler's."""
    setups = {s["condition"]: s for s in analysis.data.state.get("setups", [])}
    conds = {c["name"]: c for c in analysis.data.config["conditions"]}
    sets = {name: c["constraints"] for name, c in conds.items()}
    out = []
    pairs = analysis.pairwise[["condition1", "condition2"]].drop_duplicates()
    for c1, c2 in pairs.itertuples(index=False):
        a, b = setups.get(c1, {}), setups.get(c2, {})
        kind_a, kind_b = a.get("sampler", "?"), b.get("sampler", "?")
        if a.get("uniform") and b.get("uniform"):
            continue
        if not a.get("uniform") and not b.get("uniform") and kind_a == kind_b:
            continue
        odd, other = (c1, c2) if not a.get("uniform") else (c2, c1)
        sampler = setups[odd]["sampler"].split(" ")[0]
        same_set = [
            c["name"]
            for c in analysis.data.config["conditions"]
            if c["set"] == conds[other]["set"] and c["sampler"] == sampler
        ]
        if conds[c1]["set"] == conds[c2]["set"]:
            out.append(
                f"{c1} vs {c2}: the same set drawn by different samplers ({kind_a}; {kind_b}): "
                "this comparison measures the sampler's effect alone."
            )
            continue
        if same_set:
            out.append(
                f"{c1} vs {c2}: drawn by samplers with different distributions ({kind_a}; "
                f"{kind_b}); {same_set[0]} (the set of {other} drawn by {sampler}) is the "
                "control that tells the constraints' effect from the sampler's."
            )
            continue
        out.append(
            f"{c1} ({kind_a}{'' if a.get('uniform') else ', not uniform'}) vs {c2} ({kind_b}"
            f"{'' if b.get('uniform') else ', not uniform'}): their setups come from samplers "
            "with different distributions, so a difference mixes the constraints' effect with "
            f"the sampler's. To tell them apart, add {other}'s set drawn by {odd}'s sampler: "
            f'`[[conditions]] name = "{other}-{sampler}"`, `constraints = "{sets[other]}"`, '
            f'`sampler = "{sampler}"`.'
        )
    return out


def exploratory_notes(analysis: Analysis) -> list[str]:
    pw = analysis.pairwise
    rows = pw[(pw["family"] == "exploratory") & pw["significant"]]
    return [
        f"{r['lineup']}, {r['condition1']} vs {r['condition2']}: {r['metric']} "
        f"{r['verdict'].removeprefix('exploratory: ')}, difference "
        f"{amount(r['diff'], metric_unit_of(analysis, r['metric']))} "
        f"{format_ci(r['diff_low'], r['diff_high'], None)}, p adj. {format_p(r['p_adj'])}"
        for _, r in rows.iterrows()
    ]


def grouped_notes(analysis: Analysis) -> list[str]:
    """One line per cause: each distinct note of the comparisons with the rows it concerns."""
    pw = analysis.pairwise
    causes: dict[str, list[str]] = {}
    for _, r in pw.iterrows():
        for note in filter(None, str(r["note"]).split("; ")):
            where = f"{r['lineup']} / {r['metric']} ({r['condition1']} vs {r['condition2']})"
            causes.setdefault(note, []).append(where)
    return [f"{note}: {', '.join(rows)}." for note, rows in causes.items()]
