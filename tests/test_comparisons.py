"""The run's comparisons as a whole: one family per report, so an A/A design rarely reports a
finding, while per-metric corrections (the old way) report one in about a third of runs."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import ludolab.research.experiment.analysis as analysis
from ludolab.research.experiment.analysis import RunData, compare
from ludolab.research.stats.mixed import MIXED_COLUMNS
from ludolab.research.stats.multiple import adjust_pvalues

CONDITIONS = ["a1", "a2", "a3"]
LINEUPS = ["greedy", "mixed"]
METRICS = ["turns", "drama", "score_spread", "income_gini"]


def null_run(rng: np.random.Generator, boards: int = 12, games: int = 6) -> RunData:
    """Three conditions drawn from one distribution: board effects, shared game seeds."""
    rows = []
    for lineup in LINEUPS:
        seed_effect = rng.normal(0, 1, (boards, games, len(METRICS)))
        for cond in CONDITIONS:
            board_effect = rng.normal(0, 1, (boards, len(METRICS)))
            for s in range(boards):
                for g in range(games):
                    noise = rng.normal(0, 2, len(METRICS))
                    values = board_effect[s] + seed_effect[s, g] + noise
                    rows.append((lineup, cond, s, s * games + g, *values))
    per_game = pd.DataFrame(rows, columns=["lineup", "condition", "setup", "seed", *METRICS])
    per_game["condition"] = pd.Categorical(per_game["condition"], categories=CONDITIONS)
    config = {
        "game": "gallery",
        "seed": 1,
        "setups": boards,
        "conditions": [{"name": c} for c in CONDITIONS],
        "lineups": [{"name": x} for x in LINEUPS],
        "comparisons": {
            "baseline": "a1",
            "paired": True,
            "correction": "holm",
            "alpha": 0.05,
            "n_boot": 0,
            "metrics": METRICS,
        },
    }
    return RunData(Path("."), config, {}, {}, per_game)


@pytest.fixture
def no_mixed_model(monkeypatch: pytest.MonkeyPatch) -> None:
    """The mixed model is a sensitivity check, never a finding; skip its fits for speed."""

    def nan_contrasts(games, metric, pairs, **_):  # type: ignore[no-untyped-def]
        rows = [(c1, c2, np.nan, np.nan, np.nan, np.nan) for c1, c2 in pairs]
        return pd.DataFrame(rows, columns=MIXED_COLUMNS), ""

    monkeypatch.setattr(analysis, "mixed_contrasts", nan_contrasts)


def test_a_null_design_rarely_reports_a_finding(no_mixed_model: None) -> None:
    rng = np.random.default_rng(2026)
    runs = 60
    with_finding = old_way = 0
    for _ in range(runs):
        _, table = compare(null_run(rng))
        assert table["family_size"].eq(len(LINEUPS) * len(METRICS) * 2).all()
        with_finding += bool(table["significant"].any())
        per_metric = table.groupby(["lineup", "metric"])["p"].transform(
            lambda p: adjust_pvalues(p.to_numpy(float), "holm")
        )
        old_way += bool((per_metric < 0.05).any())
    # Family-wise error rate at most 5%: about 3 of 60 expected; more than 8 has chance < 1%.
    assert with_finding <= 8, with_finding
    # Corrections per lineup and metric (16 tests in 8 families) find "something" in about a
    # third of the runs: the test would catch a return to them.
    assert old_way >= 12, old_way


def test_primary_metrics_form_the_family_and_the_rest_is_exploratory(
    no_mixed_model: None,
) -> None:
    data = null_run(np.random.default_rng(1))
    data.config["comparisons"]["primary"] = ["turns"]
    data.config["comparisons"]["margins"] = {"drama": 0.5}
    _, table = compare(data)
    primary = table[table["metric"] == "turns"]
    assert set(primary["family"]) == {"primary"} and set(primary["family_size"]) == {4}
    rest = table[table["metric"] != "turns"]
    assert set(rest["family"]) == {"exploratory"} and set(rest["family_size"]) == {12}
    assert table.loc[table["metric"] == "drama", "equivalence_p"].notna().all()
    assert table.loc[table["metric"] != "drama", "equivalence_p"].isna().all()
    assert (table["mde"] > 0).all()
    quiet = table[~table["significant"]]
    assert quiet["verdict"].str.match(r"not detected|equivalent within").all()


def test_fewer_distinct_setups_than_planned_are_units_not_pairs(no_mixed_model: None) -> None:
    data = null_run(np.random.default_rng(3))
    data.setups.update({c: list(range(12)) for c in CONDITIONS})
    assert data.paired
    data.setups["a2"] = list(range(4))  # a sampler that found only 4 boards
    assert not data.paired
    data.per_game["setup"] = np.where(
        data.per_game["condition"] == "a2", data.per_game["setup"] % 4, data.per_game["setup"]
    )
    _, table = compare(data)
    a2 = table[table["condition1"] == "a2"]
    assert set(a2["test"]) == {"mann-whitney"} and set(a2["n1"]) == {4}


def test_a_sweep_trend_recovers_a_known_slope(no_mixed_model: None) -> None:
    from ludolab.research.experiment.analysis import trend_table

    rng = np.random.default_rng(8)
    values = {"v=1": 1.0, "v=2": 2.0, "v=4": 4.0}
    rows = []
    for cond, v in values.items():
        for s in range(20):
            board = rng.normal(0, 1)
            for g in range(5):
                rows.append(("greedy", cond, s, s * 5 + g, 3.0 * v + board + rng.normal(0, 2)))
    per_game = pd.DataFrame(rows, columns=["lineup", "condition", "setup", "seed", "turns"])
    per_game["condition"] = pd.Categorical(per_game["condition"], categories=list(values))
    config = {
        "game": "gallery",
        "seed": 1,
        "setups": 20,
        "conditions": [
            {"name": c, "sweep": "v", "sweep_value": v, "sweep_parameter": "options.x"}
            for c, v in values.items()
        ],
        "lineups": [{"name": "greedy"}],
        "comparisons": {"paired": True, "correction": "holm", "alpha": 0.05, "metrics": ["turns"]},
    }
    data = RunData(Path("."), config, {}, {}, per_game)
    row = trend_table(data).iloc[0]
    assert row["slope_low"] < 3.0 < row["slope_high"] and row["significant"]
    assert row["values"] == 3 and row["setups"] == 60


def test_the_smallest_possible_p_value_of_the_rank_tests() -> None:
    from ludolab.research.stats.power import setups_for_a_finding, smallest_p

    assert smallest_p(6, paired=True) == pytest.approx(2 / 64)
    assert smallest_p(3, 3) == pytest.approx(2 / 20)
    assert setups_for_a_finding(0.05 / 4, paired=True) == 8  # 2/2^8 = 0.0078 < 0.0125
    # Runs with more than 1,023 setups per condition (2.0**1024 overflows a float) still get
    # a floor: a p-value too small for a float is 0.
    assert smallest_p(2025, paired=True) == 0.0
    assert smallest_p(1024, paired=True) == pytest.approx(2.0**-1023)
    assert smallest_p(600, 600) == 0.0


def test_repeated_setups_are_one_unit() -> None:
    from ludolab.envs.catan.board import shuffled_board
    from ludolab.research.experiment.setups import distinct_setups

    a, b = shuffled_board(np.random.default_rng(1)), shuffled_board(np.random.default_rng(2))
    notes: list[str] = []
    assert distinct_setups([a, b, a, a], "boards", notes) == [a, b]
    assert notes == [
        "2 of the 4 boards drawn repeat an earlier one (a small set): the run uses the 2 "
        "distinct ones, each one unit"
    ]
    assert distinct_setups([a, b], "boards", notes) == [a, b] and len(notes) == 1


def _analysis(data: RunData) -> analysis.Analysis:
    """An :class:`~ludolab.research.experiment.analysis.Analysis` with the pairwise table
    only: what the Findings and the terminal summary read."""
    _, table = compare(data)
    empty = pd.DataFrame()
    return analysis.Analysis(data, empty, empty, table, empty, [], empty)


def test_too_few_setups_are_not_testable_and_name_no_mde(no_mixed_model: None) -> None:
    from ludolab.research.experiment.report import _findings

    # 4 paired boards: Wilcoxon's smallest p is 2 / 2^4 = 0.125, far above alpha / 16.
    result = _analysis(null_run(np.random.default_rng(4), boards=4))
    table = result.pairwise
    expected = "not testable at this size (smallest possible p = 0.125, level alpha / m = 0.00313)"
    assert (table["verdict"] == expected).all()
    assert table["mde"].isna().all() and not table["significant"].any()
    csv = pd.read_csv(io.StringIO(table.to_csv(index=False)))
    assert "mde" in csv.columns and csv["mde"].isna().all()  # the column stays, empty
    findings = " ".join(_findings(result))
    assert findings.count("not testable at this size (smallest possible p = 0.125") == 2
    # 2 / 2^10 = 0.002 is the first below 0.05 / 16 = 0.0031 (2 / 2^9 = 0.0039 is not)
    assert "at least 10 setups per condition are needed" in findings
    assert "MDE" not in findings and "Differences the design detects" not in findings
    assert "not testable at this size" in analysis.summary_lines(result)[0]


def test_enough_setups_give_not_detected_with_the_mde(no_mixed_model: None) -> None:
    from ludolab.research.experiment.report import _findings

    # 12 paired boards: 2 / 2^12 = 0.00049 < 0.05 / 16, so a finding was possible.
    result = _analysis(null_run(np.random.default_rng(4), boards=12))
    quiet = result.pairwise[~result.pairwise["significant"]]
    assert len(quiet) and quiet["verdict"].str.match(r"not detected \(MDE \d").all()
    assert np.isfinite(quiet["mde"]).all()
    assert not result.pairwise["verdict"].str.contains("not testable").any()
    findings = " ".join(_findings(result))
    assert "Differences the design detects with 80% power" in findings
    assert "not testable" not in findings
