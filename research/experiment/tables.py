"""Tables a journal takes: booktabs LaTeX that fits a page, each with a CSV of its rows.

A run's pairwise comparisons become one table per tested metric (the metric's unit belongs to
every value column, so it can stand in the header once: a table per lineup would mix units in
one column) with the lineups as row groups, and the sweeps' trends one table of their own
(their own family). Every table has at most :data:`MAX_COLUMNS` columns, so it fits the width
of a double-column page (``table*``); an estimate and its interval share one cell,
``-3.6 [-5.2, -2.1]``; a dagger marks only what the multiplicity-corrected test finds, and the
table's note says which correction over which family. Each ``.tex`` has a ``.csv`` of the same
rows beside it, at full precision.

LaTeX is rendered by pandas' :meth:`pandas.io.formats.style.Styler.to_latex` (booktabs rules:
``\\toprule``, ``\\midrule``, ``\\bottomrule``); a document needs ``\\usepackage{booktabs}``
and nothing else. Cells are formatted and escaped here (names through
:func:`ludolab.research.stats.report.escape_latex`), so the Styler only lays them out.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ludolab.research.files import write_text
from ludolab.research.metrics.registry import game_unit, short_unit
from ludolab.research.numbers import decimals_for
from ludolab.research.stats.multiple import CORRECTION_NAMES
from ludolab.research.stats.power import smallest_p
from ludolab.research.stats.report import (
    escape_latex,
    format_fixed,
    format_p,
    to_csv,
)

MAX_COLUMNS = 8
"""The most columns a table may have: what fits across a double-column page in ``\\small``."""

TABLES_DIR = "tables"
"""The run folder's subfolder for the journal tables (``.tex`` and ``.csv`` pairs)."""

SHORT_CORRECTION = {"holm": "Holm", "bonferroni": "Bonferroni", "fdr_bh": "BH", "none": "unadj."}
"""Each correction as a column header names it: ``p (Holm)``."""


_FAMILY_WORDS = {
    "all": "the run's single family",
    "primary": "the primary family",
    "exploratory": "the exploratory family",
}

DAGGER = r"$^{\dagger}$"
DOUBLE_DAGGER = r"$^{\ddagger}$"
NA = "--"

COMPARISON_CSV_COLUMNS = [
    "lineup",
    "metric",
    "unit",
    "condition1",
    "condition2",
    "n1",
    "n2",
    "mean1",
    "mean2",
    "diff",
    "diff_low",
    "diff_high",
    "mde",
    "p_adj",
    "significant",
    "equivalence_p_adj",
    "margin",
    "family",
    "family_size",
    "verdict",
]
"""The columns of a comparison table's CSV: the numbers its ``.tex`` shows, unrounded, and the
keys that find each row in ``comparisons.csv``."""

TREND_CSV_COLUMNS = [
    "sweep",
    "parameter",
    "lineup",
    "metric",
    "unit",
    "values",
    "setups",
    "slope",
    "slope_low",
    "slope_high",
    "p_adj",
    "significant",
]


@dataclass(frozen=True)
class JournalTable:
    """One table: ``name`` the file stem (``comparisons-turns``), ``latex`` a ``table*``
    float, ``numbers`` its rows at full precision (written as ``name.csv``)."""

    name: str
    latex: str
    numbers: pd.DataFrame


def latex_number(x: float, decimals: int) -> str:
    """``x`` with fixed decimals and a typographic minus (``$-$3.6``); ``--`` if missing."""
    if x is None or not np.isfinite(x):
        return NA
    text = format_fixed(float(x), decimals)
    return "$-$" + text[1:] if text.startswith("-") else text


def latex_interval(estimate: float, low: float, high: float, decimals: int) -> str:
    """``estimate [low, high]`` in one cell; the estimate alone when there is no interval
    (``n_boot = 0``)."""
    cell = latex_number(estimate, decimals)
    if low is None or high is None or not (np.isfinite(low) and np.isfinite(high)):
        return cell
    return f"{cell} [{latex_number(low, decimals)}, {latex_number(high, decimals)}]"


def latex_p(p: float, marked: bool) -> str:
    """An adjusted p-value (``0.003``, ``$<$0.001``), with a dagger when ``marked``."""
    text = format_p(p, na_rep=NA).replace("<", "$<$")
    return text + (DAGGER if marked else "")


def _with_unit(name: str, unit: str) -> str:
    """``turns (player turns)``; a unit's own remark ("share [0, 1]") stays in the CSV."""
    unit = short_unit(unit)
    return f"{name} ({unit})" if unit else name


def _median_scale(*columns: pd.Series) -> float:
    """The first column with a finite positive median absolute value: what sets decimals."""
    for col in columns:
        values = np.abs(col.to_numpy(float))
        values = values[np.isfinite(values) & (values > 0)]
        if len(values):
            return float(np.median(values))
    return float("nan")


def render(
    cells: pd.DataFrame,
    *,
    align: str,
    caption: str,
    label: str,
    notes: Sequence[str] = (),
) -> str:
    """A ``table*`` float of already formatted and escaped ``cells`` by
    :meth:`pandas.io.formats.style.Styler.to_latex` (booktabs rules; ``\\small``). With
    two-level columns, the groups of the first level span their columns (``\\multicolumn``)
    over a ``\\cmidrule``. ``caption`` is escaped here; ``notes`` (LaTeX) go under the table.
    ValueError if there are more than :data:`MAX_COLUMNS` columns."""
    if cells.shape[1] > MAX_COLUMNS:
        raise ValueError(f"{cells.shape[1]} columns: a journal page takes at most {MAX_COLUMNS}")
    styler = cells.style.hide(axis="index")
    latex = styler.to_latex(
        hrules=True,
        column_format=align,
        caption=escape_latex(caption),
        label=label,
        position_float="centering",
        environment="table*",
        multicol_align="c",
    )
    lines = latex.splitlines()
    # \small for the body: eight columns of intervals need it across a two-column page.
    lines.insert(lines.index(r"\centering") + 1, r"\small")
    if isinstance(cells.columns, pd.MultiIndex):
        rules = _cmidrules(list(cells.columns.get_level_values(0)))
        if rules:
            top = lines.index(r"\toprule")
            lines.insert(top + 2, rules)
    if notes:
        end = lines.index(r"\end{tabular}")
        note = " ".join(notes)
        lines.insert(end + 1, r"\par\smallskip{\footnotesize\raggedright " + note + r"\par}")
    return "\n".join(lines) + "\n"


def _cmidrules(groups: list[str]) -> str:
    """``\\cmidrule(lr){a-b}`` under each named group of columns (booktabs' partial rule)."""
    rules, start = [], 0
    for i in range(1, len(groups) + 1):
        if i == len(groups) or groups[i] != groups[start]:
            if groups[start]:
                rules.append(rf"\cmidrule(lr){{{start + 1}-{i}}}")
            start = i
    return " ".join(rules)


def _blank_repeats(values: list[str]) -> list[str]:
    """A row group's label on its first row only (the lineup heads its block of rows)."""
    return [v if i == 0 or v != values[i - 1] else "" for i, v in enumerate(values)]


def file_stem(metric: str) -> str:
    """A metric's table file stem: ``comparisons-turns`` (characters a file name or a LaTeX
    label would trip on become ``-``)."""
    return "comparisons-" + re.sub(r"[^A-Za-z0-9_.-]+", "-", metric)


def comparison_tables(
    pairwise: pd.DataFrame,
    *,
    game: str,
    setup_kind: str = "setups",
    baseline: str | None = None,
    correction: str = "holm",
    alpha: float = 0.05,
    paired: bool = False,
    n_boot: int = 0,
) -> list[JournalTable]:
    """One table per tested metric of a :func:`ludolab.research.experiment.analysis.compare`
    pairwise table, rows grouped by lineup, eight columns: lineup, condition (``a vs b``
    without a baseline), setups, the two means, the difference with its interval, the MDE
    (all four in the metric's unit, named in the header) and the adjusted p-value (dagger:
    below ``alpha`` after ``correction`` over the family)."""
    tables = []
    for metric, rows in pairwise.groupby("metric", sort=False):
        tables.append(
            _comparison_table(
                rows.reset_index(drop=True),
                str(metric),
                unit=game_unit(game, str(metric)),
                setup_kind=setup_kind,
                baseline=baseline,
                correction=correction,
                alpha=alpha,
                paired=paired,
                n_boot=n_boot,
            )
        )
    return tables


def _comparison_table(
    rows: pd.DataFrame,
    metric: str,
    *,
    unit: str,
    setup_kind: str,
    baseline: str | None,
    correction: str,
    alpha: float,
    paired: bool,
    n_boot: int,
) -> JournalTable:
    """One metric's table (see :func:`comparison_tables`): ``rows`` its pairwise rows, lineup
    by lineup. Means, differences, intervals and MDE share one number of decimals, set by the
    typical interval width (:func:`decimals_for`), so the column reads at one precision."""
    dec = decimals_for(
        _median_scale(rows["diff_high"] - rows["diff_low"], rows["mde"], rows["mean1"])
    )
    equivalent = rows["verdict"].astype(str).str.startswith("equivalent")
    group = escape_latex(_with_unit(metric, unit))
    kind = setup_kind.capitalize()
    p_head = f"p ({SHORT_CORRECTION.get(correction, correction)})"
    if baseline is not None:
        who = ("", "Condition")
        means = ((group, "Mean"), (group, f"Mean, {escape_latex(baseline)}"))
        names = [escape_latex(c) for c in rows["condition1"]]
    else:
        who = ("", "Comparison")
        means = ((group, "Mean, first"), (group, "Mean, second"))
        names = [
            f"{escape_latex(a)} vs {escape_latex(b)}"
            for a, b in zip(rows["condition1"], rows["condition2"], strict=True)
        ]
    cells = pd.DataFrame(
        {
            ("", "Lineup"): _blank_repeats([escape_latex(x) for x in rows["lineup"]]),
            who: names,
            ("", kind): [
                f"{int(a)}" if a == b else f"{int(a)} / {int(b)}"
                for a, b in zip(rows["n1"], rows["n2"], strict=True)
            ],
            means[0]: [latex_number(v, dec) for v in rows["mean1"]],
            means[1]: [latex_number(v, dec) for v in rows["mean2"]],
            (group, r"Difference [95\% CI]"): [
                latex_interval(d, lo, hi, dec) + (DOUBLE_DAGGER if eq else "")
                for d, lo, hi, eq in zip(
                    rows["diff"], rows["diff_low"], rows["diff_high"], equivalent, strict=True
                )
            ],
            (group, "MDE"): [latex_number(v, dec) for v in rows["mde"]],
            ("", escape_latex(p_head)): [
                latex_p(p, bool(s)) for p, s in zip(rows["p_adj"], rows["significant"], strict=True)
            ],
        }
    )
    cells.columns = pd.MultiIndex.from_tuples(cells.columns)
    caption = (
        (f"{metric} ({unit})" if unit else metric)
        + (f": each condition against {baseline}" if baseline else ": pairwise comparisons")
        + f", per lineup, over {setup_kind} (each the mean of its games)."
    )
    notes = _comparison_notes(
        rows,
        unit=unit,
        setup_kind=setup_kind,
        baseline=baseline,
        correction=correction,
        alpha=alpha,
        paired=paired,
        n_boot=n_boot,
        equivalent=bool(equivalent.any()),
    )
    numbers = rows.assign(unit=unit)[COMPARISON_CSV_COLUMNS]
    stem = file_stem(metric)
    latex = render(cells, align="ll" + "r" * 6, caption=caption, label=f"tab:{stem}", notes=notes)
    return JournalTable(stem, latex, numbers)


def _comparison_notes(
    rows: pd.DataFrame,
    *,
    unit: str,
    setup_kind: str,
    baseline: str | None,
    correction: str,
    alpha: float,
    paired: bool,
    n_boot: int,
    equivalent: bool,
) -> list[str]:
    """The table's note: what each column is, which test and correction, what marks mean."""
    in_unit = f" in {unit}" if unit else ""
    difference = f"condition minus {escape_latex(baseline)}" if baseline else "first minus second"
    interval = f"a {n_boot}-resample bootstrap 95\\% CI" if n_boot else "no interval (n\\_boot = 0)"
    families = rows.groupby("family", sort=False)["family_size"].first()
    family = "; ".join(f"{_FAMILY_WORDS.get(f, f)} of {int(m)} tests" for f, m in families.items())
    test = "Wilcoxon signed-rank on setups paired by index" if paired else "Mann-Whitney U"
    notes = [
        f"Means over {escape_latex(setup_kind)}; difference: {difference}{in_unit}, with "
        f"{interval}. MDE: the smallest difference detected with 80\\% power at the family's "
        "level $\\alpha/m$."
    ]
    # Why an MDE is missing: the rank test could not reach its family's level (the rule of
    # ludolab.research.experiment.analysis), so no difference of any size was detectable.
    floors = [
        smallest_p(int(a), int(b), paired=paired)
        for a, b in zip(rows["n1"], rows["n2"], strict=True)
    ]
    untestable = [
        f >= alpha / max(int(m), 1) for f, m in zip(floors, rows["family_size"], strict=True)
    ]
    if any(untestable):
        floor = max(f for f, u in zip(floors, untestable, strict=True) if u)
        notes.append(
            f"MDE {NA}: not testable at this size (the rank test's smallest possible p-value, "
            f"{floor:.3g}, is not below $\\alpha/m$)."
        )
    notes += [
        f"p: {test}, adjusted by {CORRECTION_NAMES.get(correction, correction)} over {family}; "
        f"{DAGGER} p (adj.) $<$ {alpha:g} after that correction"
        + (" (exploratory: listed apart, not findings)." if "exploratory" in families else "."),
    ]
    if equivalent:
        margin = float(rows["margin"].dropna().iloc[0])
        notes.append(
            f"{DOUBLE_DAGGER} equivalent within $\\pm${margin:g}{' ' + unit if unit else ''} "
            "(TOST, adjusted over the same family)."
        )
    return notes


def trend_latex_table(
    trends: pd.DataFrame,
    *,
    game: str,
    correction: str = "holm",
    alpha: float = 0.05,
    paired: bool = False,
) -> JournalTable | None:
    """The sweeps' trend family (:func:`ludolab.research.experiment.analysis.trend_table`) as
    one table of seven columns: sweep (its parameter in the note), lineup, metric (unit), swept
    values,
    setups, the slope with its 95% interval (metric unit per unit of the parameter, decimals
    per row as the metrics differ) and the adjusted p-value. None without a sweep."""
    if trends.empty:
        return None
    units = [game_unit(game, m) for m in trends["metric"]]
    slopes = []
    for s, lo, hi in zip(trends["slope"], trends["slope_low"], trends["slope_high"], strict=True):
        width = hi - lo if np.isfinite(hi) and np.isfinite(lo) else abs(s)
        slopes.append(latex_interval(s, lo, hi, decimals_for(width)))
    p_head = f"p ({SHORT_CORRECTION.get(correction, correction)})"
    cells = pd.DataFrame(
        {
            "Sweep": _blank_repeats([escape_latex(s) for s in trends["sweep"]]),
            "Lineup": [escape_latex(x) for x in trends["lineup"]],
            "Metric (unit)": [
                escape_latex(_with_unit(m, u)) for m, u in zip(trends["metric"], units, strict=True)
            ],
            "Values": [str(int(v)) for v in trends["values"]],
            "Setups": [str(int(v)) for v in trends["setups"]],
            r"Slope [95\% CI]": slopes,
            escape_latex(p_head): [
                latex_p(p, bool(s))
                for p, s in zip(trends["p_adj"], trends["significant"], strict=True)
            ],
        }
    )
    errors = (
        "standard errors clustered by setup index, as setups are paired"
        if paired
        else "HC3 standard errors"
    )
    swept = "; ".join(
        f"{escape_latex(s)}: {escape_latex(str(p))}"
        for s, p in dict(zip(trends["sweep"], trends["parameter"], strict=True)).items()
    )
    notes = [
        f"Swept parameters: {swept}. "
        "Slope: OLS of setup means on the swept value, in the metric's unit per unit of the "
        f"parameter, with its 95\\% interval ({errors}). The {len(trends)} slope "
        f"tests are their own family, adjusted by {CORRECTION_NAMES.get(correction, correction)}; "
        f"{DAGGER} p (adj.) $<$ {alpha:g} after that correction.",
    ]
    numbers = trends.assign(unit=units)[TREND_CSV_COLUMNS]
    latex = render(
        cells,
        align="lll" + "r" * 4,
        caption="Trends: each sweep's metrics against the swept value, per lineup.",
        label="tab:trends",
        notes=notes,
    )
    return JournalTable("trends", latex, numbers)


def journal_tables(
    pairwise: pd.DataFrame,
    trends: pd.DataFrame,
    config: Mapping[str, Any],
    *,
    paired: bool,
) -> list[JournalTable]:
    """Every journal table of a run: one per tested metric, then the trends (if any).
    ``config`` is the resolved config (``config.resolved.json``); ``paired`` whether the
    comparisons were paired (:attr:`ludolab.research.experiment.analysis.RunData.paired`)."""
    cmp = config["comparisons"]
    common = {
        "game": config["game"],
        "correction": cmp["correction"],
        "alpha": float(cmp["alpha"]),
        "paired": paired,
    }
    tables = []
    if len(pairwise):
        tables = comparison_tables(
            pairwise,
            setup_kind=config.get("setup_kind", "setups"),
            baseline=cmp.get("baseline"),
            n_boot=int(cmp["n_boot"]),
            **common,
        )
    trend = trend_latex_table(trends, **common)
    return tables + ([trend] if trend is not None else [])


def write_journal_tables(tables: Sequence[JournalTable], run: Path) -> list[Path]:
    """Write ``tables/NAME.tex`` and ``tables/NAME.csv`` for each table and
    ``comparisons.tex`` (every table, in order, to ``\\input`` whole); return the files. Old
    tables of a metric no longer tested are removed, so the folder shows this analysis only."""
    folder = run / TABLES_DIR
    keep = {f"{t.name}{ext}" for t in tables for ext in (".tex", ".csv")}
    if folder.is_dir():
        for old in folder.iterdir():
            if old.suffix in (".tex", ".csv") and old.name not in keep:
                old.unlink()
    files = []
    for t in tables:
        write_text(folder / f"{t.name}.tex", t.latex)
        write_text(folder / f"{t.name}.csv", to_csv(t.numbers) or "")
        files += [folder / f"{t.name}.tex", folder / f"{t.name}.csv"]
    index = [
        "% Every table of tables/ (booktabs: \\usepackage{booktabs}); each also stands alone,",
        "% with its numbers at full precision in the .csv of the same name.",
        *[t.latex for t in tables],
    ]
    write_text(run / "comparisons.tex", "\n".join(index))
    return [*files, run / "comparisons.tex"]
