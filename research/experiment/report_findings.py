"""What a report says in words: the family of tests, each finding with its raw effect and interval,
trends over sweeps, effects across skill, samplers that did not draw uniformly, exploratory and
grouped notes."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ludolab.research.experiment.analysis import Analysis
from ludolab.research.experiment.report_render import Block
from ludolab.research.experiment.result_tables import (
    SHORT_CORRECTION,
    metric_decimals,
    untestable_words,
)
from ludolab.research.metrics.registry import game_unit
from ludolab.research.numbers import (
    count,
    decimals_for,
    fixed,
    interval,
    median_scale,
    p_is,
    p_value,
    percent,
    plain,
    plural,
)
from ludolab.research.stats.interaction import NOT_DETECTED
from ludolab.research.stats.multiple import CORRECTION_NAMES
from ludolab.research.stats.power import UNTESTABLE


def metric_unit_of(analysis: Analysis, metric: str) -> str:
    return game_unit(analysis.data.game, metric)


def correction_short(analysis: Analysis) -> str:
    """The run's correction as a column header names it: ``Holm``, ``BH``."""
    method = analysis.data.config["comparisons"]["correction"]
    return SHORT_CORRECTION.get(method, method)


def decimals_of(analysis: Analysis, metric: str) -> int:
    """The decimals of a tested metric's numbers in the whole report
    (:func:`~ludolab.research.experiment.result_tables.metric_decimals`)."""
    return metric_decimals(analysis.pairwise).get(metric, 2)


def unit_word(unit: str) -> str:
    """A registry unit as it reads after a number: '' for counts, shares and the mean of a
    yes/no metric (a share of games), 'turns' for a turn index."""
    unit = {"count": "", "bool": "", "turn": "turns"}.get(unit, unit)
    return "" if "[" in unit or "(" in unit else unit


def amount(value: float, unit: str, decimals: int, *, sign: bool = False) -> str:
    """A quantity with its unit at a metric's precision, e.g. ``-5.0 player turns``; shares
    and counts stay bare."""
    return f"{fixed(value, decimals, sign=sign)} {unit_word(unit)}".strip()


def _rate(method: str, alpha: float) -> str:
    if method == "fdr_bh":
        return f"the expected share of false findings among the findings is at most {alpha}"
    if method == "none":
        return "nothing controls the chance of a false finding across the report"
    return f"the chance that the findings below include any false one is at most {alpha}"


def other_families(analysis: Analysis) -> list[str]:
    """The report's other families of tests, each corrected among its own tests: the seats,
    the trends, the changes across skill, the omnibus tests (as phrases)."""
    out = []
    seats = analysis.seats
    n_seats = int(seats["seats_p"].notna().sum()) if len(seats) else 0
    if n_seats:
        out.append(f"the seat tests ({plural(n_seats, 'test')}, one per lineup and condition)")
    if len(analysis.trends):
        out.append(f"the trends over sweeps ({plural(len(analysis.trends), 'test')})")
    if len(analysis.skill):
        out.append(f"the changes across skill ({plural(len(analysis.skill), 'test')})")
    if len(analysis.omnibus):
        out.append(f"the omnibus tests ({plural(len(analysis.omnibus), 'test')}, descriptive)")
    return out


def family_sentence(analysis: Analysis) -> str:
    """What the report's error control covers, in one paragraph: the comparisons' family (or
    the primary and exploratory ones), the report's other families, and that intervals are
    not corrected."""
    pw = analysis.pairwise
    cmp = analysis.data.config["comparisons"]
    method, alpha = cmp["correction"], cmp["alpha"]
    if pw.empty:
        return "No comparison was made."
    sizes = pw.groupby("family", sort=False)["family_size"].first()
    rate = _rate(method, alpha)
    k = {f: int(m) for f, m in sizes.items()}
    pairs = len(pw.groupby(["condition1", "condition2"]))
    shape = (
        f"{plural(pw['lineup'].nunique(), 'lineup')} x {plural(pw['metric'].nunique(), 'metric')}"
        f" x {plural(pairs, 'comparison')}"
    )
    others = other_families(analysis)
    tail = (
        f" Each 95% interval is for its comparison alone (not corrected), so an interval may "
        f"exclude zero while the corrected p-value is above {alpha}: that is not a finding."
        + (
            f" Families of their own, each corrected the same way: {'; '.join(others)}."
            if others
            else ""
        )
    )
    if "all" in k:
        return (
            f"**Error control.** The comparisons of conditions are one family: "
            f"{plural(k['all'], 'test')} ({shape}), corrected together by "
            f"{CORRECTION_NAMES[method]} at alpha = {alpha}: {rate}." + tail
        )
    names = list(dict.fromkeys(pw.loc[pw["family"] == "primary", "metric"]))
    primary = ("metric " if len(names) == 1 else "metrics ") + ", ".join(names)
    return (
        f"**Error control.** The confirmatory family is the {plural(k.get('primary', 0), 'test')}"
        f" of the primary {primary}, corrected by {CORRECTION_NAMES[method]} at alpha "
        f"= {alpha}: {rate}. The other {plural(k.get('exploratory', 0), 'test')} are "
        "exploratory: corrected among themselves, listed apart, not findings." + tail
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
            d = decimals_of(analysis, r["metric"])
            out.append(
                f"**{lineup}**, {r['condition1']} vs {r['condition2']}: **{r['metric']} "
                f"{r['verdict']}**: mean {fixed(r['mean1'], d)} vs {fixed(r['mean2'], d)}, "
                f"difference {amount(r['diff'], unit, d)} "
                f"{interval(r['diff_low'], r['diff_high'], d, na='')} (Hodges-Lehmann "
                f"{fixed(r['hl_shift'], d)}, d = {fixed(r['d'], 2)}), corrected "
                f"p {p_is(r['p_adj'])}."
            )
        same = rows[rows["verdict"].str.startswith("equivalent")]
        for _, r in same.iterrows():
            margin = margin_text(r["margin"], metric_unit_of(analysis, r["metric"]))
            out.append(
                f"**{lineup}**, {r['condition1']} vs {r['condition2']}: {r['metric']} "
                f"equivalent within ±{margin} (TOST, corrected p "
                f"{p_is(r['equivalence_p_adj'])})."
            )
        quiet = rows[rows["verdict"].str.startswith("not detected")]
        untestable = rows[rows["verdict"].str.startswith(UNTESTABLE)]
        if len(quiet):
            parts = []
            for metric, group in quiet.groupby("metric", sort=False):
                d = decimals_of(analysis, str(metric))
                low, high = fixed(group["mde"].min(), d), fixed(group["mde"].max(), d)
                span = low if low == high else f"{low}-{high}"
                word = unit_word(metric_unit_of(analysis, str(metric)))
                parts.append(f"{metric} {span} {word}".strip())
            out.append(
                f"**{lineup}**, {which_conditions(quiet, rows)}: no difference detected, which is "
                "not evidence of none. Differences the design detects with 80% power (MDE), per "
                f"metric: {'; '.join(parts)}."
            )
        # Too few setups for the family's level: say so without an MDE, as no difference of
        # any size could have been found (one line per design: setups and level).
        for _, group in untestable.groupby("verdict", sort=False):
            words, need = untestable_words(analysis.data, group)
            out.append(
                f"**{lineup}**, {which_conditions(group, rows)}: {words}. With "
                f"{plural(int(group['n1'].min()), 'setup')} per condition no finding was "
                f"possible, whatever the difference: at least {need} setups per condition are "
                "needed."
            )
    return out


def margin_text(margin: float, unit: str) -> str:
    """A declared margin as it was written, with its unit: ``4 player turns``, ``0.01``."""
    return f"{plain(float(margin))} {unit_word(unit)}".strip()


def which_conditions(group: pd.DataFrame, rows: pd.DataFrame) -> str:
    """``every comparison (4 tests)`` or ``3 of 8 comparisons``: the rows a Findings line
    speaks for, out of the lineup's confirmatory rows."""
    if len(group) == len(rows):
        return f"every comparison ({plural(len(group), 'test')})"
    return f"{len(group)} of {plural(len(rows), 'comparison')}"


def trend_decimals(t: pd.DataFrame) -> list[int]:
    """Per trend row, the decimals of its slope: two significant figures of the typical
    interval width of the slopes of its metric and sweep."""
    keys = list(zip(t["sweep"], t["metric"], strict=True))
    out = {}
    for key, rows in t.groupby(["sweep", "metric"], sort=False):
        out[key] = decimals_for(median_scale(rows["slope_high"] - rows["slope_low"], rows["slope"]))
    return [out[k] for k in keys]


def trend_blocks(analysis: Analysis) -> list[Block]:
    """The sweeps' dose-response: trends in words (own family) and the slope table."""
    t = analysis.trends
    if t.empty:
        return []
    cmp = analysis.data.config["comparisons"]
    lines = []
    for (_, r), d in zip(t.iterrows(), trend_decimals(t), strict=True):
        unit = metric_unit_of(analysis, r["metric"])
        slope = amount(r["slope"], unit, d)
        verdict = (
            f"**{'rises' if r['slope'] > 0 else 'falls'}**"
            if r["significant"]
            else "no trend detected"
        )
        lines.append(
            f"**{r['lineup']}**, sweep {r['sweep']} ({r['parameter']}): {r['metric']} "
            f"{verdict}: {slope} per unit of {r['parameter'].removeprefix('options.')} "
            f"{interval(r['slope_low'], r['slope_high'], d, na='')}, "
            f"corrected p {p_is(r['p_adj'])}."
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
            + f"); the {plural(len(t), 'slope test')} "
            + ("is a family of its own" if len(t) == 1 else "are a family of their own")
            + ", corrected by "
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
    d = decimals_of(analysis, r["metric"])
    per_lineup = "; ".join(
        f"{e['lineup']} {amount(e['effect'], unit, d)} {interval(e['low'], e['high'], d, na='')}, "
        f"{STATUS_WORDS[e['status']]}"
        for _, e in rows.iterrows()
    )
    verdict = r["verdict"]
    said = verdict if verdict == NOT_DETECTED else f"**{verdict}**"
    change = (
        f"Change from {first} to {last}: {amount(r['change'], unit, d)} "
        f"{interval(r['low'], r['high'], d, na='')}, corrected p {p_is(r['p_adj'])}"
    )
    margin = r["margin"]
    if np.isfinite(margin):
        # A declared margin reads as it was written: ±4 turns, not ±4.00.
        bound = f"±{margin_text(margin, unit)}"
        tost = f"(TOST, corrected p {p_is(r['equivalence_p_adj'])})"
        if r["equivalent"] and r["significant"]:
            change += f"; within {bound} {tost}: a real change, smaller than the margin"
        elif r["equivalent"]:
            change += f"; within {bound} {tost}"
        else:
            change += f"; not shown within {bound} {tost}"
    if not r["significant"] and not r["equivalent"]:
        change += (
            f"; a change of {amount(r['mde'], unit, d)} would have been detected with 80% "
            "power (MDE)"
            if np.isfinite(r["mde"])
            else f"; with {count(r['n'])} {analysis.data.config['setup_kind']} no change could "
            f"have been detected (smallest possible p = {p_value(r['smallest_p'])})"
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
            + f"Intervals are {percent(1 - cmp['alpha'])} for each test alone; p-values are "
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
    out = []
    for _, r in rows.iterrows():
        unit, d = metric_unit_of(analysis, r["metric"]), decimals_of(analysis, r["metric"])
        out.append(
            f"{r['lineup']}, {r['condition1']} vs {r['condition2']}: {r['metric']} "
            f"{r['verdict'].removeprefix('exploratory: ')}, difference {amount(r['diff'], unit, d)}"
            f" {interval(r['diff_low'], r['diff_high'], d, na='')}, corrected p "
            f"{p_is(r['p_adj'])}"
        )
    return out


def grouped_notes(analysis: Analysis) -> list[str]:
    """One line per cause: each distinct note of the comparisons with the rows it concerns,
    a lineup's rows named as the lineup when the note concerns all of them, and every
    comparison named as such."""
    pw = analysis.pairwise
    causes: dict[str, list[int]] = {}
    for i, note_text in enumerate(pw["note"]):
        for note in filter(None, str(note_text).split("; ")):
            causes.setdefault(note, []).append(i)
    lineup_rows = pw.groupby("lineup", sort=False).size().to_dict()
    lines = []
    for note, rows in causes.items():
        if len(rows) == len(pw):
            lines.append(f"{note} (every comparison).")
            continue
        concerned = pw.iloc[rows]
        named = []
        for lineup, part in concerned.groupby("lineup", sort=False):
            if len(part) == lineup_rows[lineup]:
                named.append(f"every comparison of lineup {lineup}")
            else:
                named += [
                    f"{lineup} / {r.metric} ({r.condition1} vs {r.condition2})"
                    for r in part.itertuples()
                ]
        lines.append(f"{note}: {', '.join(named)}.")
    return lines
