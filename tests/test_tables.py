"""Journal tables (research/experiment/tables.py): at most eight columns, units in the header,
numbers that are the CSV's rounded, names escaped, the trend family in a table of its own,
and, where a TeX engine is installed, tables that compile and fit the page."""

from __future__ import annotations

import itertools
import re
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
from latex_tables import (
    check_comparison_table,
    check_trend_table,
    column_count,
    compile_tables,
    parse_tabular,
    tex_engine,
    width,
)

from ludolab.research.experiment.analysis import TREND_COLUMNS, metric_column
from ludolab.research.experiment.config import load_experiment, resolved_dict
from ludolab.research.experiment.tables import (
    MAX_COLUMNS,
    JournalTable,
    journal_tables,
    render,
    trend_latex_table,
    write_journal_tables,
)
from ludolab.research.metrics.registry import game_unit
from ludolab.research.stats.multiple import adjust_pvalues
from ludolab.research.stats.power import smallest_p, untestable_verdict
from ludolab.research.stats.report import escape_latex

SHIPPED = Path(__file__).parents[1] / "experiments" / "catan-constraints.toml"


def synthetic_pairwise(
    config: dict[str, Any], rng: np.random.Generator, setups: int = 100
) -> pd.DataFrame:
    """A pairwise table shaped like :func:`ludolab.research.experiment.analysis.compare`'s for
    ``config`` (its lineups, conditions, baseline, metrics and families), with numbers of
    many magnitudes, some findings, equivalences and, at few setups, untestable rows."""
    cmp = config["comparisons"]
    conditions = [c["name"] for c in config["conditions"]]
    baseline = cmp.get("baseline")
    pairs = (
        [(c, baseline) for c in conditions if c != baseline]
        if baseline
        else list(itertools.combinations(conditions, 2))
    )
    primary = {metric_column(m) for m in cmp.get("primary") or []}
    margins = {metric_column(k): v for k, v in (cmp.get("margins") or {}).items()}
    rows = []
    for lineup in (x["name"] for x in config["lineups"]):
        for metric in (metric_column(m) for m in cmp["metrics"]):
            scale = 10 ** rng.uniform(-2.5, 2.5)
            for c1, c2 in pairs:
                mean2 = abs(rng.normal(5, 1)) * scale
                diff = rng.normal(0, scale)
                half = abs(rng.normal(0.5, 0.1)) * scale
                rows.append(
                    {
                        "lineup": lineup,
                        "metric": metric,
                        "condition1": c1,
                        "condition2": c2,
                        "n1": setups,
                        "n2": setups,
                        "mean1": mean2 + diff,
                        "mean2": mean2,
                        "diff": diff,
                        "diff_low": diff - half * rng.uniform(0.8, 1.2),
                        "diff_high": diff + half * rng.uniform(0.8, 1.2),
                        "mde": 1.5 * half,
                        "p": float(rng.choice([rng.uniform(0, 1e-5), rng.uniform(0, 1)])),
                        "effect": diff,
                        "equivalence_p_adj": rng.uniform(0, 0.2) if metric in margins else np.nan,
                        "margin": margins.get(metric, np.nan),
                        "family": ("primary" if metric in primary else "exploratory")
                        if primary
                        else "all",
                    }
                )
    df = pd.DataFrame(rows)
    floor = smallest_p(setups, setups, paired=bool(cmp["paired"]))
    df["p"] = df["p"].clip(lower=floor)  # a rank test on few setups has a smallest p
    df["p_adj"] = np.nan
    df["family_size"] = 0
    for _, idx in df.groupby("family").groups.items():
        df.loc[idx, "p_adj"] = adjust_pvalues(df.loc[idx, "p"].to_numpy(float), cmp["correction"])
        df.loc[idx, "family_size"] = len(idx)
    alpha = float(cmp["alpha"])
    df["significant"] = df["p_adj"] < alpha
    verdicts = []
    for i, r in df.iterrows():
        level = alpha / r["family_size"]
        if floor >= level:
            df.loc[i, "mde"] = np.nan
        if r["significant"]:
            verdicts.append("higher" if r["diff"] > 0 else "lower")
        elif r["equivalence_p_adj"] < alpha:
            verdicts.append(f"equivalent within ±{r['margin']:g}")
        elif floor >= level:
            verdicts.append(untestable_verdict(floor, level))
        else:
            verdicts.append(f"not detected (MDE {r['mde']:.3g})")
    df["verdict"] = verdicts
    return df


@pytest.fixture(scope="module")
def shipped() -> dict[str, Any]:
    """experiments/catan-constraints.toml, resolved: 6 conditions, 3 lineups, 9 metrics."""
    return resolved_dict(load_experiment(SHIPPED))


def _tables(config: dict[str, Any], seed: int = 1, setups: int = 100) -> list[JournalTable]:
    pw = synthetic_pairwise(config, np.random.default_rng(seed), setups)
    return journal_tables(pw, pd.DataFrame(), config, paired=bool(config["comparisons"]["paired"]))


def _check_fits(table: JournalTable) -> None:
    """At most eight columns by the column spec, and every row covers exactly that many
    (an unescaped & in a name would add one)."""
    tab = parse_tabular(table.latex)
    n = column_count(tab.spec)
    assert n <= MAX_COLUMNS, (table.name, tab.spec)
    assert all(width(row) == n for row in tab.header + tab.body), table.name
    for rule in (r"\toprule", r"\midrule", r"\bottomrule"):
        assert table.latex.count(rule) == 1, (table.name, rule)


def test_column_count_reads_a_column_spec() -> None:
    assert column_count("llrrrrrr") == 8
    assert column_count("@{}l*{3}{r}p{2cm}|c@{}") == 6
    assert column_count(r">{\raggedright}p{3cm}S[table-format=2.1]") == 2


def test_the_shipped_configs_tables_fit_a_page(shipped: dict[str, Any]) -> None:
    tables = _tables(shipped)
    metrics = [metric_column(m) for m in shipped["comparisons"]["metrics"]]
    assert [t.name for t in tables] == [f"comparisons-{m}" for m in metrics]
    for table in tables:
        _check_fits(table)
        # 3 lineups x 5 conditions against the baseline, one row each
        assert len(parse_tabular(table.latex).body) == 15 == len(table.numbers)
    # without a baseline every pair is compared: more rows, never more columns
    no_baseline = {**shipped, "comparisons": {**shipped["comparisons"], "baseline": None}}
    for table in _tables(no_baseline):
        _check_fits(table)
        assert len(table.numbers) == 3 * 15


def test_units_stand_in_the_header(shipped: dict[str, Any]) -> None:
    for table in _tables(shipped):
        metric = table.numbers["metric"].iloc[0]
        unit = game_unit("catan", metric).split(" [")[0]  # "share [0, 1]" is a share
        assert unit, metric
        header = " ".join(" ".join(row) for row in parse_tabular(table.latex).header)
        assert escape_latex(f"{metric} ({unit})") in header
        assert r"Difference [95\% CI]" in header and "MDE" in header


@pytest.mark.parametrize("setups", [100, 4])
def test_every_number_is_the_csvs_rounded(shipped: dict[str, Any], setups: int) -> None:
    pw = synthetic_pairwise(shipped, np.random.default_rng(7), setups)
    tables = journal_tables(pw, pd.DataFrame(), shipped, paired=True)
    marked = 0
    for table in tables:
        check_comparison_table(table.latex, table.numbers, pw)
        marked += table.latex.count(r"$^{\dagger}$") - 1  # one in the note
        # an estimate and its interval share a cell: "-3.6 [-5.2, -2.1]"
        assert re.search(r"\d \[(\$-\$)?\d[\d.]*, (\$-\$)?\d[\d.]*\]", table.latex)
    assert marked == int(pw["significant"].sum())
    if setups == 100:
        assert marked > 0
    else:  # too few boards: no finding, no MDE anywhere, and the note says why
        assert marked == 0 and pw["mde"].isna().all()
        assert all("not testable at this size" in t.latex for t in tables)


def test_a_wrong_number_is_caught(shipped: dict[str, Any]) -> None:
    pw = synthetic_pairwise(shipped, np.random.default_rng(3))
    table = journal_tables(pw, pd.DataFrame(), shipped, paired=True)[0]
    row = parse_tabular(table.latex).body[0]
    mean = row[3]
    wrong = table.latex.replace(f"& {mean} &", f"& {mean}1 &", 1)
    assert wrong != table.latex
    with pytest.raises(AssertionError, match="row 0"):
        check_comparison_table(wrong, table.numbers, pw)


def test_names_with_latex_specials_are_escaped(shipped: dict[str, Any]) -> None:
    config = {
        **shipped,
        "lineups": [{"name": "greedy_v1.5 #2"}, {"name": "mixed"}],
        "conditions": [{"name": "fair_shuffle"}, {"name": "50% & more"}, {"name": "a#b"}],
        "comparisons": {**shipped["comparisons"], "baseline": "fair_shuffle"},
    }
    tables = _tables(config)
    for table in tables:
        _check_fits(table)
        tab = parse_tabular(table.latex)
        names = [cell for row in tab.body for cell in row[:2]]
        assert r"greedy\_v1.5 \#2" in names and r"50\% \& more" in names and r"a\#b" in names
        for cell in names:
            assert not re.search(r"(?<!\\)[_%#&]", cell), cell
        assert r"Mean, fair\_shuffle" in tab.header[-1]
        assert r"against fair\_shuffle" in table.latex  # the caption


def synthetic_trends(rng: np.random.Generator) -> pd.DataFrame:
    rows = []
    for lineup in ("greedy", "mixed_2"):
        for metric, scale in (("turns", 5.0), ("lead_change", 0.01)):
            slope = rng.normal(0, scale)
            rows.append(
                {
                    "sweep": "vp_sweep",
                    "parameter": "options.vp_to_win",
                    "lineup": lineup,
                    "metric": metric,
                    "values": 3,
                    "setups": 36,
                    "slope": slope,
                    "slope_low": slope - scale / 3,
                    "slope_high": slope + scale / 2,
                    "p": rng.choice([1e-6, 0.3]),
                }
            )
    df = pd.DataFrame(rows)
    df["p_adj"] = adjust_pvalues(df["p"].to_numpy(float), "holm")
    df["significant"] = df["p_adj"] < 0.05
    return df[TREND_COLUMNS]


def test_the_trend_family_has_a_table_of_its_own() -> None:
    trends = synthetic_trends(np.random.default_rng(5))
    table = trend_latex_table(trends, game="catan", correction="holm", alpha=0.05, paired=True)
    assert table is not None and table.name == "trends"
    _check_fits(table)
    check_trend_table(table.latex, trends)
    tab = parse_tabular(table.latex)
    assert "Metric (unit)" in tab.header[0] and r"Slope [95\% CI]" in tab.header[0]
    assert [row[2] for row in tab.body[:2]] == ["turns (player turns)", "lead\\_change (share)"]
    assert tab.body[0][0] == r"vp\_sweep" and r"mixed\_2" in tab.body[2][1]
    assert r"Swept parameters: vp\_sweep: options.vp\_to\_win." in table.latex
    assert "their own family" in table.latex and "Holm" in table.latex
    assert trend_latex_table(trends.iloc[:0], game="catan") is None


def test_a_ninth_column_is_refused() -> None:
    with pytest.raises(ValueError, match="at most 8"):
        render(pd.DataFrame([list("abcdefghi")]), align="l" * 9, caption="c", label="t")


def test_written_tables_have_their_csv_and_an_index(
    shipped: dict[str, Any], tmp_path: Path
) -> None:
    (tmp_path / "tables").mkdir()
    stale = tmp_path / "tables" / "comparisons-gone.tex"
    stale.write_text("old")
    tables = _tables(shipped)
    files = write_journal_tables(tables, tmp_path)
    assert not stale.exists()  # a metric no longer tested leaves no table behind
    index = (tmp_path / "comparisons.tex").read_text()
    for t in tables:
        tex, csv = tmp_path / "tables" / f"{t.name}.tex", tmp_path / "tables" / f"{t.name}.csv"
        assert tex in files and csv in files and t.latex in index
        back = pd.read_csv(csv)
        assert len(back) == len(t.numbers)
        # full precision: the CSV gives back the very floats
        assert np.array_equal(back["diff"].to_numpy(), t.numbers["diff"].to_numpy())


def test_tables_compile_with_booktabs(shipped: dict[str, Any], tmp_path: Path) -> None:
    if tex_engine() is None:
        pytest.skip("no TeX engine on PATH (latexmk, pdflatex or tectonic): nothing to compile")
    tables = _tables(shipped)
    trend = trend_latex_table(synthetic_trends(np.random.default_rng(2)), game="catan")
    assert trend is not None
    paths = write_journal_tables([*tables, trend], tmp_path)
    tex = [p for p in paths if p.parent.name == "tables" and p.suffix == ".tex"]
    status, log = compile_tables(tex, tmp_path)
    assert status == 0, log[-3000:]
    assert "Overfull \\hbox" not in log, "a table is wider than the page"
