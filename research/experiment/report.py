"""A run's report: ``report.md`` and a self-contained ``report.html`` (figures embedded).

Both are rendered from one list of blocks (headings, paragraphs, tables, figures), so they say
the same thing. The report states the question, the conditions and how their setups were
drawn, the sample sizes, the findings in words, the main table (effect sizes with intervals),
the figures and the provenance.

It opens with a summary in plain words (:mod:`~ludolab.research.experiment.report_summary`)
and ends with the definitions of every metric and term it uses
(:mod:`~ludolab.research.experiment.report_terms`). Every number is written by
:mod:`ludolab.research.numbers`.

This module puts the report together and writes it; the words are in
:mod:`~ludolab.research.experiment.report_findings`, the tables in
:mod:`~ludolab.research.experiment.report_tables`, the blocks and their rendering in
:mod:`~ludolab.research.experiment.report_render`.
"""

from __future__ import annotations

import html
import json
import re
from dataclasses import asdict
from pathlib import Path
from typing import Any

from ludolab import games
from ludolab.research.experiment.analysis import Analysis, analyse, load_run
from ludolab.research.experiment.figures import RunFigure, plot_run
from ludolab.research.experiment.report_findings import (
    _findings,
    correction_short,
    exploratory_notes,
    family_sentence,
    grouped_notes,
    other_families,
    sampler_mismatches,
    skill_blocks,
    trend_blocks,
)
from ludolab.research.experiment.report_render import (
    STYLE,
    Block,
    block_text,
    html_of,
    markdown_of,
)
from ludolab.research.experiment.report_summary import summary_blocks
from ludolab.research.experiment.report_tables import (
    condition_rows,
    condition_summary,
    glance,
    main_table,
    mixed_table,
    omnibus_table,
    regression_table,
    seats_table,
)
from ludolab.research.experiment.report_terms import (
    context,
    corrected_sentence,
    metric_lines,
    table_names,
    term_lines,
)
from ludolab.research.experiment.result_tables import write_tables
from ludolab.research.files import write_text
from ludolab.research.numbers import count, number, plural
from ludolab.research.plots.style import FigureStyle


def _sampler_notes(state: dict[str, Any]) -> list[Block]:
    """What the samplers remarked (e.g. an enumeration that found fewer boards than asked)."""
    notes = [f"{s['condition']}: {n}" for s in state.get("setups", []) for n in s.get("notes", [])]
    return [Block("p", "Sampler notes:"), Block("list", notes)] if notes else []


def _options_changed(config: dict[str, Any]) -> dict[str, Any]:
    default = games.get(config["game"]).default_options()
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
    blocks += summary_blocks(analysis)
    # a run of a game no longer installed still reads: its registry name and "setup"
    described = games.get(cfg["game"]) if games.known(cfg["game"]) else None
    title = described.title if described else cfg["game"]
    noun = described.setup_noun if described else "setup"
    lineup_text = [
        f"{x['name']}: seats {', '.join(x['seats'])}; rotations {x['rotations']}"
        for x in cfg["lineups"]
    ]
    blocks += [
        Block("h2", "Design"),
        Block(
            "p",
            f"{title} with {cfg['players']} players. "
            f"{plural(len(data.conditions), 'condition')} x {count(cfg['setups'])} "
            f"{cfg['setup_kind']} x {plural(cfg['games_per_setup'], 'game seed')} per "
            f"{noun}, each played by every lineup in each of its seat rotations: "
            f"{plural(n_games, 'game')}. Master seed {cfg['seed']}; game seeds are "
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
    correction = correction_short(analysis)
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
            "At a glance: means over the games per lineup and condition, each metric at the "
            "precision of its comparisons; ▲/▼ a finding: a difference from the baseline "
            "whose corrected p-value is below alpha."
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
                f"95% bootstrap interval ({count(cmp['n_boot'])} resamples, "
                + ("pairs resampled together" if data.paired else "setups resampled")
                + "); "
                if cmp["n_boot"]
                else "no interval (n_boot = 0); "
            )
            + "the interval is for this comparison alone (not corrected). HL shift: "
            "Hodges-Lehmann estimate; d: Cohen's d"
            + (" of the paired differences" if data.paired else "")
            + f" on {unit_word} means (it grows with games per {unit_word}: compare raw "
            "differences across designs); ICC: share of a game's variance that lies between "
            f"{unit_word}s; p (raw): the test alone; p ({correction}): corrected over the "
            "family; MDE: the smallest difference detected with 80% power at the family's "
            "first-step level alpha / m. Each metric's numbers are written at one precision "
            "(two significant figures of its typical interval width). "
            "Full precision: comparisons.csv. For a paper: one booktabs table per metric, "
            "tables/comparisons-METRIC.tex, with its rows in tables/comparisons-METRIC.csv "
            "(all of them in comparisons.tex).",
        ),
        _sensitivity_block(analysis, unit_word, data.paired),
        *[Block("p", f"Note: {n}") for n in grouped_notes(analysis)],
        Block(
            "table",
            seats_table(analysis),
            "Seats, tested over setups (games on one setup are not independent): seat 0's "
            "share of the wins and its advantage over a fair share (t interval and test over "
            "setups; p (raw): not corrected); whether the seats' shares differ (Friedman over "
            f"setups as blocks; Wilcoxon with 2 players), p ({correction}): corrected over the "
            "rows of this table, a family of its own; balance (1 - largest gap between seat "
            "win rates) beside what fair seats would show over as many games.",
        ),
        Block(
            "table",
            condition_summary(analysis),
            "Per lineup and condition: completion and length; "
            + games.get(data.game).length_words
            + " All columns: metrics/conditions.csv.",
        ),
    ]
    if len(analysis.omnibus):
        blocks.append(
            Block(
                "table",
                omnibus_table(analysis),
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
        noun = games.get(data.game).setup_noun
        blocks.append(
            Block(
                "table",
                regression_table(analysis),
                f"Standardised OLS coefficients of each metric's {noun} means on {noun} "
                "features, and R² (HC3; p-values in regression.csv).",
            )
        )
    for note in analysis.notes:
        blocks.append(Block("p", f"Note: {note}"))
    blocks += _game_section(data)
    blocks.append(Block("h2", "Figures"))
    blocks += [Block("figure", f, _counts_in(f.caption)) for f in figures]
    blocks += [Block("p", note) for note in getattr(figures, "left_out", ())]  # figures not drawn
    blocks += definition_blocks(analysis, blocks)
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
                _game_line(prov.get("game")),
                f"game engine: {prov.get('engine', 'not recorded')}",
                f"backend {prov.get('backend')} with {plural(prov.get('workers'), 'worker')}; "
                f"setups {number(prov.get('setup_seconds'))} s, games "
                f"{number(prov.get('play_seconds'))} s ({number(prov.get('games_per_second'))} "
                f"games a second) over {plural(prov.get('invocations'), 'invocation')}",
            ],
        ),
        Block(
            "p",
            f"`ludolab report {data.path}` recomputes everything above from the run folder "
            "(`ludolab compare` the tables, `ludolab plot` the figures).",
        ),
    ]
    return blocks


def _counts_in(caption: str) -> str:
    """A figure's caption with its game counts written as counts (``(1,200 games)``)."""
    return re.sub(r"\b(\d{4,}) games\b", lambda m: f"{count(int(m.group(1)))} games", caption)


def definition_blocks(analysis: Analysis, blocks: list[Block]) -> list[Block]:
    """The Definitions section: which numbers are corrected; every metric the tables name
    (from the metrics registry); every statistical term the report's text uses."""
    text = "\n".join(block_text(b) for b in blocks)
    names: list[str] = list(analysis.pairwise["metric"]) if len(analysis.pairwise) else []
    for b in blocks:
        if b.kind == "table":
            names += table_names(b.content)
    cmp = analysis.data.config["comparisons"]
    filled = context(
        cmp["alpha"],
        cmp["correction"],
        families_phrase(analysis),
        analysis.data.config["setup_kind"],
    )
    metrics = metric_lines(analysis.data.game, names)
    out = [
        Block("h2", "Definitions"),
        Block("p", corrected_sentence(cmp["alpha"], cmp["correction"])),
    ]
    if metrics:
        out += [
            Block("p", "**Metrics** (formulas: `ludolab metrics`):"),
            Block("list", metrics),
        ]
    return out + [Block("p", "**Terms:**"), Block("list", term_lines(text, filled))]


def families_phrase(analysis: Analysis) -> str:
    """The report's families of tests, e.g. ``the comparisons of conditions (12 tests); the
    seat tests (4 tests, one per lineup and condition)``."""
    pw = analysis.pairwise
    parts = []
    if len(pw):
        sizes = pw.groupby("family", sort=False)["family_size"].first()
        for family, m in sizes.items():
            what = {
                "all": "the comparisons of conditions",
                "primary": "the comparisons of the primary metrics (confirmatory)",
                "exploratory": "the comparisons of the other metrics (exploratory)",
            }.get(str(family), str(family))
            parts.append(f"{what} ({plural(m, 'test')})")
    parts += other_families(analysis)
    return "; ".join(parts) if parts else "none (no test was made)"


def _sensitivity_block(analysis: Analysis, unit_word: str, paired: bool) -> Block:
    """The mixed-model sensitivity table, or one line when no comparison has a mixed model
    (the notes after it say why)."""
    table = mixed_table(analysis)
    if table.empty:
        return Block(
            "p",
            "*Sensitivity: no comparison has a linear mixed model on the games; the notes "
            "below say why.*",
        )
    return Block(
        "table",
        table,
        "Sensitivity: a linear mixed model on the games (metric ~ condition, random "
        f"effects for the {unit_word}"
        + (" and the shared game seed" if paired else "")
        + "; REML, Wald intervals), corrected over the same family; comparisons without one "
        "are named in the notes below. 'agrees': the same verdict as the setup-mean test.",
    )


def _game_section(data: Any) -> list[Block]:
    """The game's own section (``Game.report_section``), when it gives one and is installed."""
    if not games.known(data.game):
        return []
    section = games.get(data.game).report_section(data.per_game)
    if section is None:
        return []
    blocks = [Block("h2", section.title), Block("p", section.text)]
    if section.table is not None:
        blocks.append(Block("table", section.table, section.caption))
    return blocks


def _game_line(game: dict[str, Any] | None) -> str:
    """The game's registration: which distribution and version registered it, and where."""
    if not game:
        return "game: not recorded"
    dist = f"{game['distribution']} {game['version']}" if game.get("distribution") else "?"
    return f"game: {dist} (entry point `{game['entry_point']}`)"


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
