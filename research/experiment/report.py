"""A run's report: ``report.md`` and a self-contained ``report.html`` (figures embedded).

Both are rendered from one list of blocks (headings, paragraphs, tables, figures), so they say
the same thing. The report states the question, the conditions and how their setups were
drawn, the sample sizes, the findings in words, the main table (effect sizes with intervals),
the figures and the provenance.
"""

from __future__ import annotations

import base64
import html
import json
import re
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ludolab.envs.catan.engine import GameOptions
from ludolab.envs.gallery.engine import GalleryOptions
from ludolab.research.experiment.analysis import Analysis, analyse, load_run
from ludolab.research.experiment.figures import RunFigure, plot_run
from ludolab.research.experiment.result_tables import write_tables
from ludolab.research.files import write_text
from ludolab.research.markdown import escape_markdown
from ludolab.research.metrics.registry import game_unit, short_unit
from ludolab.research.plots.style import FigureStyle
from ludolab.research.stats import to_markdown
from ludolab.research.stats.multiple import CORRECTION_NAMES
from ludolab.research.stats.power import UNTESTABLE, setups_for_a_finding
from ludolab.research.stats.report import (
    format_ci,
    format_fixed,
    format_number,
    format_p,
    format_table,
)


@dataclass(frozen=True)
class Block:
    """One piece of the report: ``kind`` is h1, h2, p, list, table, figure or code."""

    kind: str
    content: Any
    caption: str = ""


def _constraint_name(entry: Any) -> str:
    # Catan sets list each constraint as its description, Gallery sets as {"name": ...}
    return entry.get("name", "?") if isinstance(entry, dict) else str(entry)


def _condition_rows(analysis: Analysis, state: dict[str, Any]) -> pd.DataFrame:
    setups = {s["condition"]: s for s in state.get("setups", [])}
    rows = []
    for c in analysis.data.config["conditions"]:
        s = setups.get(c["name"], {})
        rows.append(
            {
                "condition": c["name"],
                "constraints": ", ".join(_constraint_name(x) for x in c["set"]["constraints"])
                or "none",
                "rules": ", ".join(f"{k} = {v}" for k, v in c.get("options", {}).items())
                or "as the run",
                "sampler": s.get("sampler", c["sampler"]),
                "uniform": bool(s.get("uniform", False)),
                "setups": s.get("count", analysis.data.config["setups"]),
                "acceptance": s.get("acceptance"),
            }
        )
    return pd.DataFrame(rows)


def _sampler_notes(state: dict[str, Any]) -> list[Block]:
    """What the samplers remarked (e.g. an enumeration that found fewer boards than asked)."""
    notes = [f"{s['condition']}: {n}" for s in state.get("setups", []) for n in s.get("notes", [])]
    return [Block("p", "Sampler notes:"), Block("list", notes)] if notes else []


def _options_changed(config: dict[str, Any]) -> dict[str, Any]:
    default = GameOptions() if config["game"] == "catan" else GalleryOptions()
    base = json.loads(json.dumps(asdict(default)))
    return {k: v for k, v in config["options"].items() if base.get(k) != v}


def _unit(analysis: Analysis, metric: str) -> str:
    return game_unit(analysis.data.game, metric)


def _unit_word(unit: str) -> str:
    """A registry unit as it reads after a number: '' for counts and shares, 'turns' for a
    turn index."""
    unit = {"count": "", "turn": "turns"}.get(unit, unit)
    return "" if "[" in unit or "(" in unit else unit


def _amount(value: float, unit: str) -> str:
    """A difference with its unit, e.g. ``-5.01 player turns``; shares and counts stay bare."""
    word = _unit_word(unit)
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
            unit = _unit(analysis, r["metric"])
            out.append(
                f"**{lineup}**, {r['condition1']} vs {r['condition2']}: **{r['metric']} "
                f"{r['verdict']}**: mean {format_number(r['mean1'])} vs "
                f"{format_number(r['mean2'])}, difference {_amount(r['diff'], unit)} "
                f"{format_ci(r['diff_low'], r['diff_high'], None)} (Hodges-Lehmann "
                f"{format_number(r['hl_shift'])}, d = {format_fixed(r['d'])}), "
                f"p adj. {format_p(r['p_adj'])}."
            )
        same = rows[rows["verdict"].str.startswith("equivalent")]
        for _, r in same.iterrows():
            out.append(
                f"**{lineup}**, {r['condition1']} vs {r['condition2']}: {r['metric']} "
                f"equivalent within ±{_amount(r['margin'], _unit(analysis, r['metric']))} "
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
                parts.append(f"{metric} {span} {_unit_word(_unit(analysis, metric))}".strip())
            out.append(
                f"**{lineup}**, {_which(quiet, rows)}: no difference detected, which is "
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
                f"**{lineup}**, {_which(group, rows)}: {verdict}. With "
                f"{int(group['n1'].min())} setups per condition no finding was possible, "
                f"whatever the difference: at least {need} setups per condition are needed."
            )
    return out


def _which(group: pd.DataFrame, rows: pd.DataFrame) -> str:
    """``every comparison (4 tests)`` or ``3 of 8 comparisons``: the rows a Findings line
    speaks for, out of the lineup's confirmatory rows."""
    if len(group) == len(rows):
        return f"every comparison ({len(group)} test{'s' if len(group) != 1 else ''})"
    return f"{len(group)} of {len(rows)} comparisons"


def _trend_blocks(analysis: Analysis) -> list[Block]:
    """The sweeps' dose-response: trends in words (own family) and the slope table."""
    t = analysis.trends
    if t.empty:
        return []
    cmp = analysis.data.config["comparisons"]
    lines = []
    for _, r in t.iterrows():
        unit = _unit(analysis, r["metric"])
        slope = _amount(r["slope"], unit)
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


def _skill_blocks(analysis: Analysis) -> list[Block]:
    """The findings across skill (``comparisons.skill``): each condition's effect per lineup
    and whether it changes with skill, in words (own family)."""
    t = analysis.skill
    if t.empty:
        return []
    data = analysis.data
    cmp = data.config["comparisons"]
    skill = list(cmp["skill"])
    unit_word = data.config["setup_kind"][:-1]
    effects = analysis.skill_effects
    lines = []
    for _, r in t.iterrows():
        unit = _unit(analysis, r["metric"])
        same = (effects["metric"] == r["metric"]) & (effects["condition"] == r["condition"])
        rows = effects[same]
        per_lineup = "; ".join(
            f"{_amount(e['effect'], unit)} {format_ci(e['low'], e['high'], None)} ({e['lineup']})"
            for _, e in rows.iterrows()
        )
        lines.append(
            f"**{r['metric']}**, {r['condition']} vs {r['baseline']}: **{r['verdict']}**. "
            f"Effect {per_lineup}. Change from {skill[0]} to {skill[-1]}: "
            f"{_amount(r['change'], unit)} {format_ci(r['low'], r['high'], None)}, "
            f"p adj. {format_p(r['p_adj'])}; the design detects a change of "
            f"{_amount(r['mde'], unit)} with 80% power."
        )
    return [
        Block(
            "p",
            f"**Across skill** ({' < '.join(skill)}, least skilled first). Every lineup plays "
            f"the same {unit_word}s with the same game seeds, so per {unit_word} the lineups' "
            f"difference carries none of the {unit_word}s' variation. Each condition's effect "
            f"(its mean minus {data.baseline}'s over {unit_word}s, {1 - cmp['alpha']:.0%} t "
            "interval) per lineup, and "
            f"the change of that effect from {skill[0]} to {skill[-1]} (a linear trend over "
            f"the lineups in skill order; {unit_word}-level contrasts, "
            + ("paired t-test over setup indices" if data.paired else "Welch's t-test")
            + (
                f"). The {len(t)} interaction tests are their own family, corrected by "
                if len(t) > 1
                else "). The interaction test is its own family, corrected by "
            )
            + f"{CORRECTION_NAMES[cmp['correction']]} at alpha = {cmp['alpha']}; full precision "
            "in skill.csv and skill-effects.csv.",
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


def _exploratory(analysis: Analysis) -> list[str]:
    pw = analysis.pairwise
    rows = pw[(pw["family"] == "exploratory") & pw["significant"]]
    return [
        f"{r['lineup']}, {r['condition1']} vs {r['condition2']}: {r['metric']} "
        f"{r['verdict'].removeprefix('exploratory: ')}, difference "
        f"{_amount(r['diff'], _unit(analysis, r['metric']))} "
        f"{format_ci(r['diff_low'], r['diff_high'], None)}, p adj. {format_p(r['p_adj'])}"
        for _, r in rows.iterrows()
    ]


def _grouped_notes(analysis: Analysis) -> list[str]:
    """One line per cause: each distinct note of the comparisons with the rows it concerns."""
    pw = analysis.pairwise
    causes: dict[str, list[str]] = {}
    for _, r in pw.iterrows():
        for note in filter(None, str(r["note"]).split("; ")):
            where = f"{r['lineup']} / {r['metric']} ({r['condition1']} vs {r['condition2']})"
            causes.setdefault(note, []).append(where)
    return [f"{note}: {', '.join(rows)}." for note, rows in causes.items()]


def main_table(analysis: Analysis) -> pd.DataFrame:
    """The report's main table, formatted: raw-unit differences with intervals first (no rows
    when there is nothing to compare: one condition)."""
    pw = analysis.pairwise
    if pw.empty:
        return pd.DataFrame({"comparison": ["none: the run has one condition"]})
    return pd.DataFrame(
        {
            "lineup": pw["lineup"],
            "metric": [
                f"{m} ({u})" if (u := short_unit(_unit(analysis, m))) else m
                for m in pw["metric"]
            ],
            "condition": pw["condition1"],
            "vs": pw["condition2"],
            "setups": [f"{a} / {b}" for a, b in zip(pw["n1"], pw["n2"], strict=True)],
            "games per setup": [format_number(g) for g in pw["games_per_setup"]],
            "mean": [format_number(v) for v in pw["mean1"]],
            "mean (vs)": [format_number(v) for v in pw["mean2"]],
            "difference [95% CI]": [
                f"{format_number(d)} {format_ci(lo, hi, None)}"
                for d, lo, hi in zip(pw["diff"], pw["diff_low"], pw["diff_high"], strict=True)
            ],
            "HL shift": [format_number(v) for v in pw["hl_shift"]],
            "d": [format_fixed(v) for v in pw["d"]],
            "ICC": [format_fixed(v) for v in pw["icc"]],
            "p": [format_p(v) for v in pw["p"]],
            "p (adj.)": [format_p(v) for v in pw["p_adj"]],
            "MDE": [format_number(v) for v in pw["mde"]],
            "verdict": pw["verdict"].str.replace(r" \(MDE [^)]*\)", "", regex=True),
        }
    )


def mixed_table(analysis: Analysis) -> pd.DataFrame:
    """The mixed-effects sensitivity check beside the setup-mean test."""
    pw = analysis.pairwise
    if pw.empty:
        return pd.DataFrame({"comparison": ["none: the run has one condition"]})
    mixed_sig = pw["mixed_p_adj"] < analysis.data.config["comparisons"]["alpha"]
    return pd.DataFrame(
        {
            "lineup": pw["lineup"],
            "metric": pw["metric"],
            "condition": pw["condition1"],
            "vs": pw["condition2"],
            "mixed-model difference [95% CI]": [
                f"{format_number(d)} {format_ci(lo, hi, None)}"
                for d, lo, hi in zip(
                    pw["mixed_diff"], pw["mixed_low"], pw["mixed_high"], strict=True
                )
            ],
            "p (adj.)": [format_p(v) for v in pw["mixed_p_adj"]],
            "agrees": [
                "—" if np.isnan(p) else "yes" if m == s else "NO"
                for p, m, s in zip(pw["mixed_p"], mixed_sig, pw["significant"], strict=True)
            ],
        }
    )


def seats_table(analysis: Analysis) -> pd.DataFrame:
    """Seat advantage and balance, tested on setups, formatted."""
    t = analysis.seats
    return pd.DataFrame(
        {
            "lineup": t["lineup"],
            "condition": t["condition"],
            "setups": t["setups"],
            "decided games": t["decided_games"],
            "seat 0 share": [format_fixed(v, 3) for v in t["first_seat_share"]],
            "advantage [95% CI]": [
                f"{format_fixed(a, 3)} {format_ci(lo, hi, 3)}"
                for a, lo, hi in zip(
                    t["advantage"], t["advantage_low"], t["advantage_high"], strict=True
                )
            ],
            "p": [format_p(v) for v in t["advantage_p"]],
            "seats differ": [v if isinstance(v, str) else "—" for v in t["seats_test"]],
            "p (adj.)": [format_p(v) for v in t["seats_p_adj"]],
            "balance": [format_fixed(v, 3) for v in t["balance"]],
            "balance if fair [95%]": [
                f"{format_fixed(m, 3)} {format_ci(lo, hi, 3)}"
                for m, lo, hi in zip(
                    t["balance_null"], t["balance_null_low"], t["balance_null_high"], strict=True
                )
            ],
        }
    )


def glance(analysis: Analysis) -> pd.DataFrame:
    """Mean of every tested metric per lineup and condition (means show shifts in the many
    small-integer and 0/1 metrics that medians hide); a confirmed difference from the
    baseline is marked ▲ (higher) or ▼ (lower)."""
    data = analysis.data
    metrics = list(dict.fromkeys(analysis.pairwise["metric"])) if len(analysis.pairwise) else []
    # condition_metrics already holds every per-game metric's mean as "<metric>_mean"
    means = analysis.conditions.set_index(["lineup", "condition"])
    marks: dict[tuple[str, str, str], str] = {}
    if data.baseline is not None:
        pw = analysis.pairwise
        for _, r in pw[pw["significant"] & (pw["family"] != "exploratory")].iterrows():
            marks[r["lineup"], r["condition1"], r["metric"]] = " ▲" if r["effect"] > 0 else " ▼"
    rows = []
    for lineup in data.lineups:
        for cond in data.conditions:
            if (lineup, cond) not in means.index:
                continue
            row = {"lineup": lineup, "condition": cond}
            for m in metrics:
                value = means.loc[(lineup, cond), f"{m}_mean"]
                row[m] = f"{value:.3g}{marks.get((lineup, cond, m), '')}"
            rows.append(row)
    return pd.DataFrame(rows)


CONDITION_SUMMARY = [
    "lineup",
    "condition",
    "n_games",
    "completion_rate",
    "turns_mean",
    "turns_median",
    "rounds_mean",
]


def build_report(analysis: Analysis, figures: list[RunFigure]) -> list[Block]:
    """The report's blocks (see the module docstring)."""
    data = analysis.data
    cfg = data.config
    state = data.state
    prov_path = data.path / "provenance.json"
    prov = json.loads(prov_path.read_text()) if prov_path.exists() else {}
    cmp = cfg["comparisons"]
    n_games = len(data.per_game)
    blocks = [
        Block("h1", f"{cfg['name']}: report"),
        Block(
            "p",
            f"**Question.** {cfg['question']}"
            if cfg.get("question")
            else "**Question.** (none stated)",
        ),
    ]
    if cfg.get("description"):
        blocks.append(Block("p", cfg["description"]))
    lineup_text = [
        f"{x['name']}: seats {', '.join(x['seats'])}; rotations {x['rotations']}"
        for x in cfg["lineups"]
    ]
    blocks += [
        Block("h2", "Design"),
        Block(
            "p",
            f"{cfg['game']} with {cfg['players']} players. {len(data.conditions)} conditions x "
            f"{cfg['setups']} {cfg['setup_kind']} x {cfg['games_per_setup']} game seeds per "
            f"setup, each played by every lineup in each of its seat rotations: {n_games:,} "
            f"games. Master seed {cfg['seed']}; game seeds are "
            + (
                "shared between conditions (common random numbers), so games are paired."
                if data.paired
                else "independent per condition."
            ),
        ),
        Block(
            "table",
            _condition_rows(analysis, state),
            "Conditions: how their setups were drawn (acceptance: share of fair shuffles "
            "satisfying the set, where the sampler measured it).",
        ),
        *_sampler_notes(state),
        Block("list", lineup_text),
    ]
    if state.get("overrides"):
        blocks.append(
            Block(
                "p",
                "Run with command-line overrides of the config: "
                + ", ".join(f"`--set {o}`" for o in state["overrides"])
                + ".",
            )
        )
    changed = _options_changed(cfg)
    blocks.append(
        Block(
            "p",
            "Rule options changed from the defaults: "
            + (", ".join(f"`{k} = {v}`" for k, v in changed.items()) or "none")
            + ".",
        )
    )
    unit_word = cfg["setup_kind"][:-1]
    exploratory = _exploratory(analysis)
    blocks += [
        Block("h2", "Findings"),
        Block(
            "p",
            "Pairwise comparisons "
            + (
                f"of every condition against **{data.baseline}**"
                if data.baseline
                else "between all conditions"
            )
            + f", within each lineup, on the mean of each metric per {unit_word} "
            f"({cfg['setups']} per condition: the {unit_word} is the unit a condition acts on; "
            + (
                "Wilcoxon signed-rank on setups paired by index, as setup s of every condition "
                "is played with the same game seeds)."
                if data.paired
                else "Mann-Whitney U)."
            ),
        ),
        Block("p", family_sentence(analysis)),
        *(
            [Block("p", "**Sampler mismatch.**"), Block("list", mismatch)]
            if (mismatch := sampler_mismatches(analysis))
            else []
        ),
        Block("list", _findings(analysis)),
        *_trend_blocks(analysis),
        *_skill_blocks(analysis),
        *(
            [Block("p", "Exploratory (not findings):"), Block("list", exploratory)]
            if exploratory
            else []
        ),
        Block(
            "table",
            glance(analysis),
            "At a glance: means over the games per lineup and condition; ▲/▼ a confirmed "
            "difference from the baseline (after correction)."
            if data.baseline
            else "At a glance: means per lineup and condition.",
        ),
        Block("h2", "Main table"),
        Block(
            "table",
            main_table(analysis),
            f"Per comparison, over {unit_word}s (each the mean of its games): difference of "
            "means (condition minus vs) in the metric's unit with a "
            + (
                f"95% bootstrap interval ({cmp['n_boot']} resamples, "
                + ("pairs resampled together" if data.paired else "setups resampled")
                + "); "
                if cmp["n_boot"]
                else "no interval (n_boot = 0); "
            )
            + "HL shift: Hodges-Lehmann estimate; d: Cohen's d"
            + (" of the paired differences" if data.paired else "")
            + f" on {unit_word} means (it grows with games per {unit_word}: compare raw "
            "differences across designs); ICC: share of a game's variance that lies between "
            f"{unit_word}s; p (adj.): corrected over the family; MDE: the smallest difference "
            "detected with 80% power at the family's first-step level alpha / m. "
            "Full precision: comparisons.csv. For a paper: one booktabs table per metric, "
            "tables/comparisons-METRIC.tex, with its rows in tables/comparisons-METRIC.csv "
            "(all of them in comparisons.tex).",
        ),
        Block(
            "table",
            mixed_table(analysis),
            "Sensitivity: a linear mixed model on the games (metric ~ condition, random "
            f"effects for the {unit_word}"
            + (" and the shared game seed" if data.paired else "")
            + "; REML, Wald intervals), corrected over the same family. 'agrees': the same "
            "verdict as the setup-mean test.",
        ),
        *[Block("p", f"Note: {n}") for n in _grouped_notes(analysis)],
        Block(
            "table",
            seats_table(analysis),
            "Seats, tested over setups (games on one setup are not independent): seat 0's "
            "share of the wins and its advantage over a fair share (t interval and test over "
            "setups); whether the seats' shares differ (Friedman over setups as blocks; "
            "Wilcoxon with 2 players), corrected over the table; balance (1 - largest gap "
            "between seat win rates) beside what fair seats would show over as many games.",
        ),
        Block(
            "table",
            analysis.conditions[[c for c in CONDITION_SUMMARY if c in analysis.conditions]],
            "Per lineup and condition: completion and length; "
            + (
                "turns are player turns (one seat's turn), rounds are turns / players. "
                if data.game == "catan"
                else "turns are cards played, rounds are the game's four rounds. "
            )
            + "All columns: metrics/conditions.csv.",
        ),
    ]
    if len(analysis.omnibus):
        blocks.append(
            Block(
                "table",
                analysis.omnibus,
                "Omnibus tests across all conditions per lineup and metric ("
                + (
                    "Friedman; n counts blocks, the setups matched across conditions"
                    if data.paired
                    else "Kruskal-Wallis; n counts setups"
                )
                + "), corrected over the table; descriptive: the findings come from the "
                "pairwise family.",
            )
        )
    if len(analysis.regression):
        reg = analysis.regression[analysis.regression["term"] != "const"]
        pivot = reg.pivot_table(
            index=["lineup", "metric"], columns="term", values="std_coef", sort=False
        ).reset_index()
        r2 = reg.groupby(["lineup", "metric"], sort=False)["r2"].first().reset_index()
        blocks.append(
            Block(
                "table",
                pivot.merge(r2, on=["lineup", "metric"]),
                "Standardised OLS coefficients of each metric on board features "
                "(HC3; p-values in regression.csv).",
            )
        )
    for note in analysis.notes:
        blocks.append(Block("p", f"Note: {note}"))
    blocks.append(Block("h2", "Figures"))
    blocks += [Block("figure", f, f.caption) for f in figures]
    blocks += [
        Block("h2", "Provenance"),
        Block(
            "list",
            [
                f"run {state.get('run_id')} ({data.path}), "
                f"config hash `{state.get('config_hash', '')[:16]}`",
                _code_line(prov.get("git", {})),
                _cite_line(prov),
                f"Python {prov.get('python')}; "
                + ", ".join(f"{k} {v}" for k, v in prov.get("packages", {}).items() if v),
                f"MiniZinc {prov.get('solvers', {}).get('minizinc')}, "
                f"Gecode {prov.get('solvers', {}).get('gecode')}",
                f"game engine: {prov.get('engine', 'not recorded')}",
                f"backend {prov.get('backend')} with {prov.get('workers')} worker(s); setups "
                f"{prov.get('setup_seconds')} s, games {prov.get('play_seconds')} s "
                f"({prov.get('games_per_second')} games/s) over "
                f"{prov.get('invocations')} invocation(s)",
            ],
        ),
        Block(
            "p",
            f"`ludolab report {data.path}` recomputes everything above from the run folder "
            "(`ludolab compare` the tables, `ludolab plot` the figures).",
        ),
    ]
    return blocks


def _code_line(git: dict[str, Any] | list[dict[str, Any]]) -> str:
    """The code that played: one commit, or several when a resumed run changed code."""

    def one(g: dict[str, Any]) -> str:
        dirty = " (with uncommitted changes)" if g.get("dirty") else ""
        return f"{g.get('commit') or 'unknown'}{dirty}"

    if isinstance(git, list):
        return "code: **changed between invocations**: " + "; ".join(one(g) for g in git)
    return f"code: git commit {one(git)}"


def _cite_line(prov: dict[str, Any]) -> str:
    """What to cite: the ludolab version and the commit that played (CITATION.cff holds the
    rest of the reference)."""
    version = prov.get("packages", {}).get("ludolab") or "unknown version"
    git = prov.get("git", {})
    commits = git if isinstance(git, list) else [git]
    shown = ", ".join(g.get("commit") or "unknown" for g in commits)
    return f"to cite: ludolab {version}, git commit {shown} (the reference: CITATION.cff)"


def _md(block: Block, base: Path) -> str:
    if block.kind == "h1":
        return f"# {block.content}\n"
    if block.kind == "h2":
        return f"## {block.content}\n"
    if block.kind == "p":
        return f"{block.content}\n"
    if block.kind == "list":
        return "\n".join(f"- {item}" for item in block.content) + "\n"
    if block.kind == "table":
        caption = f"*{escape_markdown(block.caption)}*\n\n" if block.caption else ""
        return caption + to_markdown(block.content)
    if block.kind == "figure":
        png, pdf = block.content.png.relative_to(base), block.content.pdf.relative_to(base)
        return f"![{block.caption}]({png})\n\n*{block.caption}* (PDF: {pdf})\n"
    return f"```\n{block.content}\n```\n"


def _inline(text: str) -> str:
    """Markdown's **bold** and `code` in an escaped HTML string."""
    text = html.escape(text)
    text = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", text)
    return re.sub(r"`(.+?)`", r"<code>\1</code>", text)


def _html(block: Block) -> str:
    if block.kind in ("h1", "h2"):
        return f"<{block.kind}>{html.escape(block.content)}</{block.kind}>"
    if block.kind == "p":
        return f"<p>{_inline(block.content)}</p>"
    if block.kind == "list":
        return "<ul>" + "".join(f"<li>{_inline(i)}</li>" for i in block.content) + "</ul>"
    if block.kind == "table":
        caption = f"<p class='caption'>{html.escape(block.caption)}</p>" if block.caption else ""
        return f"<figure>{caption}<div class='wide'>{_html_table(block.content)}</div></figure>"
    if block.kind == "figure":
        data = base64.b64encode(block.content.png.read_bytes()).decode()
        return (
            f"<figure><img alt='{html.escape(block.caption)}' src='data:image/png;base64,"
            f"{data}'><figcaption>{html.escape(block.caption)}</figcaption></figure>"
        )
    return f"<pre>{html.escape(str(block.content))}</pre>"


_NUMBER = re.compile(r"^(<|-|−)?\d|^—$|^\[")


def _html_table(table: pd.DataFrame) -> str:
    """A table as HTML: numbers (and intervals) right-aligned, text left-aligned."""
    formatted = format_table(table)
    align = formatted.attrs.get("align", {})
    right = {
        c: align.get(c) == "r" or all(_NUMBER.match(str(v)) for v in formatted[c])
        for c in formatted.columns
    }

    def cell(tag: str, col: str, text: str) -> str:
        side = "r" if right[col] else "l"
        return f"<{tag} class='{side}'>{html.escape(str(text))}</{tag}>"

    head = "".join(cell("th", c, c) for c in formatted.columns)
    rows = "".join(
        "<tr>"
        + "".join(cell("td", c, v) for c, v in zip(formatted.columns, row, strict=True))
        + "</tr>"
        for row in formatted.itertuples(index=False)
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>"


STYLE = """body{font-family:system-ui,sans-serif;max-width:78rem;margin:2rem auto;padding:0 1rem;
line-height:1.45;color:#222}table{border-collapse:collapse;font-size:.8rem;margin:.5rem 0}
td,th{padding:.2rem .45rem;border-bottom:1px solid #ddd;vertical-align:top}
.r{text-align:right}.l{text-align:left}th{white-space:nowrap}figure{margin:1rem 0}
.wide{overflow-x:auto}img{max-width:100%;max-width:52rem}
.caption,figcaption{font-size:.9rem;color:#555;max-width:60rem}
p,ul{max-width:60rem}code{background:#f3f3f3;padding:0 .2rem}"""


def write_report(analysis: Analysis, figures: list[RunFigure]) -> Path:
    """Write ``report.md`` and ``report.html`` into the run folder; return the Markdown path."""
    blocks = build_report(analysis, figures)
    path = analysis.data.path
    write_text(path / "report.md", "\n".join(_md(b, path) for b in blocks))
    title = html.escape(f"{analysis.data.config['name']}: report")
    body = "\n".join(_html(b) for b in blocks)
    write_text(
        path / "report.html",
        f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>{title}</title>"
        f"<style>{STYLE}</style></head><body>\n{body}\n</body></html>\n",
    )
    return path / "report.md"


def analyse_run(
    path: str | Path,
    *,
    tables: bool = True,
    figures: bool = True,
    style: FigureStyle | None = None,
) -> Path:
    """Load a finished run and (re)write its tables, figures and report; return report.md.
    ``style``: the figures' (default: the config's ``[report]``, else the paper style)."""
    analysis = analyse(load_run(path))
    if tables:
        write_tables(analysis)
    figs = plot_run(analysis.data, analysis.conditions, style) if figures else []
    return write_report(analysis, figs)
