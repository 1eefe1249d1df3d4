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

import pandas as pd

from envs.catan.engine import GameOptions
from envs.gallery.engine import GalleryOptions
from research.experiment.analysis import (
    PAIR_COLUMNS,
    PAIR_LABELS,
    Analysis,
    analyse,
    load_run,
    write_tables,
)
from research.experiment.figures import RunFigure, plot_run
from research.files import write_text
from research.stats import to_markdown
from research.stats.report import escape_markdown, format_table


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


def _findings(analysis: Analysis) -> list[str]:
    """Per lineup and condition, the significant differences in words, largest effect first."""
    out = []
    pw = analysis.pairwise
    if pw.empty:
        return ["no per-game metric was tested (config: comparisons.metrics)."]
    for lineup in analysis.data.lineups:
        rows = pw[pw["lineup"] == lineup]
        sig = rows[rows["significant"]]
        if sig.empty:
            out.append(
                f"**{lineup}**: none of the {len(rows)} comparisons is significant after "
                f"correction."
            )
            continue
        for (c1, c2), group in sig.groupby(["condition1", "condition2"], sort=False):
            group = group.reindex(group["effect"].abs().sort_values(ascending=False).index)
            parts = [
                f"{r['metric']} {'higher' if r['effect'] > 0 else 'lower'} "
                f"(mean {r['mean1']:.3g} vs {r['mean2']:.3g}; {r['effect']:+.2f} "
                f"[{r['ci_low']:+.2f}, {r['ci_high']:+.2f}])"
                for _, r in group.iterrows()
            ]
            out.append(f"**{lineup}**, {c1} vs {c2}: " + "; ".join(parts) + ".")
        quiet = [
            f"{c1} vs {c2}"
            for (c1, c2), g in rows.groupby(["condition1", "condition2"], sort=False)
            if not g["significant"].any()
        ]
        if quiet:
            out.append(f"**{lineup}**, no significant difference: {', '.join(quiet)}.")
    return out


def glance(analysis: Analysis) -> pd.DataFrame:
    """Mean of every tested metric per lineup and condition (means show shifts in the many
    small-integer and 0/1 metrics that medians hide); a significant difference from the
    baseline is marked ▲ (higher) or ▼ (lower)."""
    data = analysis.data
    metrics = list(dict.fromkeys(analysis.pairwise["metric"])) if len(analysis.pairwise) else []
    # condition_metrics already holds every per-game metric's mean as "<metric>_mean"
    means = analysis.conditions.set_index(["lineup", "condition"])
    marks: dict[tuple[str, str, str], str] = {}
    if data.baseline is not None:
        for _, r in analysis.pairwise[analysis.pairwise["significant"]].iterrows():
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
    "first_player_advantage",
    "chi2_p",
    "balance",
]


def build_report(analysis: Analysis, figures: list[RunFigure]) -> list[Block]:
    """The report's blocks (see the module docstring)."""
    data = analysis.data
    cfg = data.config
    state = data.state
    prov_path = data.path / "provenance.json"
    prov = json.loads(prov_path.read_text()) if prov_path.exists() else {}
    cmp = cfg["comparisons"]
    n_games = len(data.games)
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
                if cmp["paired"]
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
    changed = _options_changed(cfg)
    blocks.append(
        Block(
            "p",
            "Rule options changed from the defaults: "
            + (", ".join(f"`{k} = {v}`" for k, v in changed.items()) or "none")
            + ".",
        )
    )
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
            + f", within each lineup, on the mean of each metric per {cfg['setup_kind'][:-1]} "
            f"({cfg['setups']} per condition: the setup is the unit a condition acts on), "
            f"{cmp['correction']}-corrected per lineup and metric at alpha = {cmp['alpha']}:",
        ),
        Block("list", _findings(analysis)),
        Block(
            "table",
            glance(analysis),
            "At a glance: means over the games per lineup and condition; ▲/▼ a significant "
            "difference from the baseline (after correction)."
            if data.baseline
            else "At a glance: means per lineup and condition.",
        ),
        Block("h2", "Main table"),
        Block(
            "table",
            analysis.pairwise[PAIR_COLUMNS].rename(columns=PAIR_LABELS),
            "Effect: "
            + (
                "matched-pairs rank-biserial correlation (Wilcoxon signed-rank on setups paired "
                "by index: setup s of every condition is played with the same game seeds)"
                if cmp["paired"]
                else "Cliff's delta (Mann-Whitney U)"
            )
            + "; positive: larger under 'condition'. n, medians: over setups (means of their "
            "games). "
            + (
                f"95% bootstrap intervals ({cmp['n_boot']} resamples). "
                if cmp["n_boot"]
                else "No intervals (n_boot = 0). "
            )
            + "Full precision: comparisons.csv; LaTeX: comparisons.tex.",
        ),
        Block(
            "table",
            analysis.conditions[[c for c in CONDITION_SUMMARY if c in analysis.conditions]],
            "Per lineup and condition: completion, length, first-player advantage (win rate of "
            "seat 0 minus 1/n), chi-square p of the seat win counts against uniform, balance "
            "(1 - largest gap between seat win rates). All columns: metrics/conditions.csv.",
        ),
    ]
    if len(analysis.omnibus):
        blocks.append(
            Block(
                "table",
                analysis.omnibus,
                "Omnibus tests across conditions per lineup and metric.",
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
        table = format_table(block.content).to_html(index=False, escape=True, border=0)
        caption = f"<p class='caption'>{html.escape(block.caption)}</p>" if block.caption else ""
        return f"<figure>{caption}{table}</figure>"
    if block.kind == "figure":
        data = base64.b64encode(block.content.png.read_bytes()).decode()
        return (
            f"<figure><img alt='{html.escape(block.caption)}' src='data:image/png;base64,"
            f"{data}'><figcaption>{html.escape(block.caption)}</figcaption></figure>"
        )
    return f"<pre>{html.escape(str(block.content))}</pre>"


STYLE = """body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;
line-height:1.45;color:#222}table{border-collapse:collapse;font-size:.85rem;margin:.5rem 0}
td,th{padding:.2rem .5rem;border-bottom:1px solid #ddd;text-align:right}
td:first-child,th:first-child{text-align:left}img{max-width:100%}
.caption,figcaption{font-size:.9rem;color:#555}code{background:#f3f3f3;padding:0 .2rem}"""


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


def analyse_run(path: str | Path, *, tables: bool = True, figures: bool = True) -> Path:
    """Load a finished run and (re)write its tables, figures and report; return report.md."""
    analysis = analyse(load_run(path))
    if tables:
        write_tables(analysis)
    figs = plot_run(analysis.data, analysis.conditions) if figures else []
    return write_report(analysis, figs)
