"""A run's report: ``report.md`` and a self-contained ``report.html`` (figures embedded).

Both are rendered from one list of blocks (headings, paragraphs, tables, figures), so they say
the same thing. The report states the question, the conditions and how their setups were
drawn, the sample sizes, the findings in words, the main table (effect sizes with intervals),
the figures and the provenance.

This module puts the report together and writes it; the words are in
:mod:`~ludolab.research.experiment.report_findings`, the tables in
:mod:`~ludolab.research.experiment.report_tables`, the blocks and their rendering in
:mod:`~ludolab.research.experiment.report_render`.
"""

from __future__ import annotations

import html
import json
from dataclasses import asdict
from pathlib import Path
from typing import Any

from ludolab.envs.catan.engine import GameOptions
from ludolab.envs.gallery.engine import GalleryOptions
from ludolab.research.experiment.analysis import Analysis, analyse, load_run
from ludolab.research.experiment.figures import RunFigure, plot_run
from ludolab.research.experiment.report_findings import (
    _findings,
    exploratory_notes,
    family_sentence,
    grouped_notes,
    sampler_mismatches,
    skill_blocks,
    trend_blocks,
)
from ludolab.research.experiment.report_render import STYLE, Block, html_of, markdown_of
from ludolab.research.experiment.report_tables import (
    CONDITION_SUMMARY,
    condition_rows,
    glance,
    main_table,
    mixed_table,
    seats_table,
)
from ludolab.research.experiment.result_tables import write_tables
from ludolab.research.files import write_text
from ludolab.research.plots.style import FigureStyle


def _sampler_notes(state: dict[str, Any]) -> list[Block]:
    """What the samplers remarked (e.g. an enumeration that found fewer boards than asked)."""
    notes = [f"{s['condition']}: {n}" for s in state.get("setups", []) for n in s.get("notes", [])]
    return [Block("p", "Sampler notes:"), Block("list", notes)] if notes else []


def _options_changed(config: dict[str, Any]) -> dict[str, Any]:
    default = GameOptions() if config["game"] == "catan" else GalleryOptions()
    base = json.loads(json.dumps(asdict(default)))
    return {k: v for k, v in config["options"].items() if base.get(k) != v}


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
            condition_rows(analysis, state),
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
    exploratory = exploratory_notes(analysis)
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
        *trend_blocks(analysis),
        *skill_blocks(analysis),
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
        *[Block("p", f"Note: {n}") for n in grouped_notes(analysis)],
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
    blocks += [Block("p", note) for note in getattr(figures, "left_out", ())]  # figures not drawn
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


def write_report(analysis: Analysis, figures: list[RunFigure]) -> Path:
    """Write ``report.md`` and ``report.html`` into the run folder; return the Markdown path."""
    blocks = build_report(analysis, figures)
    path = analysis.data.path
    write_text(path / "report.md", "\n".join(markdown_of(b, path) for b in blocks))
    title = html.escape(f"{analysis.data.config['name']}: report")
    body = "\n".join(html_of(b) for b in blocks)
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
