"""A finished run's analysis: metrics per game and per condition, comparisons, regression.

Everything here reads only the run's folder (``games.parquet``, the setups file and
``config.resolved.json``), so ``ludolab compare RUN`` and ``ludolab plot RUN`` can be redone at
any time, e.g. after a change to a metric, without replaying a game.

Comparisons are made **within each lineup** (games played by different agents are not pooled)
on **setup means** (each metric averaged over the games on one board or deal, see
:func:`setup_means`): pairwise tests (Mann-Whitney U; Wilcoxon signed-rank when setups are
paired by common random numbers) with the difference of means in the metric's unit and its
bootstrap interval, the Hodges-Lehmann shift, Cohen's d and a rank effect size; an omnibus test
when there are three or more conditions. With a ``baseline`` only the comparisons against it
are made, each oriented as *condition vs baseline* (positive: larger under the condition).

**One family per run.** Every pairwise test of the run (lineup x metric x pair) is corrected
together (Holm by default), so the chance that a report lists any false finding is at most
``alpha``; or the config names primary metrics, whose tests are the family, and the rest are
exploratory (corrected among themselves and labelled so). Beside each test: what the design
could detect (the minimum detectable difference at 80% power), an equivalence test where the
config declares a margin, and a mixed-effects fit on the games as a sensitivity check
(:func:`compare`). Seat advantage and balance are tested on setups too (:func:`seat_table`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import scipy.stats as st

from ludolab.research.experiment.config import DEFAULT_MIXED_MAX_GAMES
from ludolab.research.experiment.setups import SETUP_FILES, Setup, read_setups
from ludolab.research.experiment.skill import SKILL_COLUMNS, skill_tables
from ludolab.research.experiment.store import RunError, open_finished
from ludolab.research.experiment.tables import journal_tables, write_journal_tables
from ludolab.research.files import write_parquet, write_text
from ludolab.research.metrics import condition_metrics, per_game_metrics, with_board_features
from ludolab.research.stats import omnibus, pairwise, regress, to_csv, to_markdown
from ludolab.research.stats.compare import PAIRWISE_COLUMNS
from ludolab.research.stats.mixed import MIXED_COLUMNS, mixed_contrasts
from ludolab.research.stats.multiple import adjust_pvalues
from ludolab.research.stats.power import (
    UNTESTABLE,
    balance_null,
    minimum_detectable_difference,
    setups_for_a_finding,
    smallest_p,
    untestable_verdict,
    variance_components,
)
from ludolab.research.stats.trend import linear_trend

# Board features a metric is regressed on (Catan): richness of the best spot, how unevenly
# pips fall on resources, clumping, hot numbers next to each other, and the seats' start gap.
REGRESSION_FEATURES = (
    "int_pips_max",
    "resource_pips_std",
    "same_resource_adjacent_pairs",
    "red_adjacent_pairs",
    "start_seat_pips_spread",
)


@dataclass
class RunData:
    """A finished run, loaded.

    Attributes:
        path: the run folder.
        config: ``config.resolved.json``.
        state: ``run.json`` (the run's state, with the setups' sampler reports).
        setups: the setups per condition.
        per_game: :func:`ludolab.research.metrics.per_game_metrics` of the games plus the plan's
            columns and (Catan) the board features.
    """

    path: Path
    config: dict[str, Any]
    state: dict[str, Any]
    setups: dict[str, list[Setup]]
    per_game: pd.DataFrame = field(repr=False)

    @property
    def game(self) -> str:
        return self.config["game"]

    @property
    def conditions(self) -> list[str]:
        return [c["name"] for c in self.config["conditions"]]

    @property
    def lineups(self) -> list[str]:
        return [x["name"] for x in self.config["lineups"]]

    @property
    def paired(self) -> bool:
        """Setups are compared in pairs: the config asks for it and every condition has as many
        distinct setups as the plan (a sampler that gave fewer has its setups replayed, and a
        replayed setup is the same unit, so it cannot pair with a new one)."""
        wanted = int(self.config["setups"])
        return bool(self.config["comparisons"]["paired"]) and all(
            len(s) == wanted for s in self.setups.values()
        )

    @property
    def baseline(self) -> str | None:
        return self.config["comparisons"].get("baseline")

    @cached_property
    def by_setup(self) -> pd.DataFrame:
        """:func:`setup_means` of this run (computed once; comparisons and regressions share
        it)."""
        return setup_means(self)


def load_run(path: str | Path) -> RunData:
    """Load a finished run; RunError if the folder is not one (or not finished)."""
    run, state, config = open_finished(path)
    try:
        per_game = _per_game_from_file(run.games_path, config["game"])
    except (OSError, ValueError, pa.ArrowException) as exc:  # a truncated or foreign file
        raise RunError(
            f"{run.games_path} cannot be read ({exc}): delete it and replay the games with "
            f"'ludolab run CONFIG --resume {run.path}'"
        ) from None
    setups = read_setups(run.path / SETUP_FILES[config["game"]], config["game"])
    if config["game"] == "catan":
        boards = [b for bs in setups.values() for b in bs]
        per_game = with_board_features(per_game, boards)
    # A sampler that gave fewer distinct setups than the plan indexes has them replayed in turn
    # (runner._cycle): the unit is the distinct setup, so plan index s is setup s mod count.
    count = per_game["condition"].map({c: len(s) for c, s in setups.items()})
    per_game["setup"] = per_game["setup"] % count
    order = [c["name"] for c in config["conditions"]]
    per_game["condition"] = pd.Categorical(per_game["condition"], categories=order, ordered=True)
    return RunData(run.path, config, state, setups, per_game)


def _per_game_from_file(path: Path, game: str, batch_rows: int = 20_000) -> pd.DataFrame:
    """:func:`ludolab.research.metrics.per_game_metrics` of a games file, read ``batch_rows`` games
    at a time: the per-turn traces of a batch are dropped once its metrics are computed, so
    memory grows by the metrics' row (a few hundred bytes a game), not by the record."""
    parts = [
        per_game_metrics(pa.Table.from_batches([batch]), game)
        for batch in pq.ParquetFile(path).iter_batches(batch_size=batch_rows)
    ]
    if not parts:
        return per_game_metrics(pq.read_table(path), game)
    return pd.concat(parts, ignore_index=True) if len(parts) > 1 else parts[0]


def metric_column(name: str) -> str:
    """A registry name (``catan.sevens``, ``turns``) as its per-game column (``sevens``)."""
    return name.partition(".")[2] if name.startswith(("catan.", "gallery.")) else name


def tested_metrics(data: RunData) -> list[str]:
    """The per-game columns the comparisons test (config ``comparisons.metrics``)."""
    return [metric_column(m) for m in data.config["comparisons"]["metrics"]]


def condition_table(data: RunData) -> pd.DataFrame:
    """:func:`ludolab.research.metrics.condition_metrics` per lineup and condition."""
    table = condition_metrics(data.per_game, data.game, by=["lineup", "condition"])
    table["condition"] = table["condition"].astype(str)
    return table


def _orient(table: pd.DataFrame, baseline: str) -> pd.DataFrame:
    """Pairwise rows involving ``baseline``, as condition1 = the other, condition2 = baseline."""
    rows = table[(table["condition1"] == baseline) | (table["condition2"] == baseline)]
    rows = rows.reset_index(drop=True)
    keep = rows["condition1"] != baseline
    out = {col: rows[col] for col in rows.columns}
    # Column by column: pandas 3.1 loses one side of a multi-column .loc swap here.
    for a, b in (
        ("condition1", "condition2"),
        ("n1", "n2"),
        ("median1", "median2"),
        ("mean1", "mean2"),
        ("ci_low", "ci_high"),
        ("diff_low", "diff_high"),
    ):
        out[a] = rows[a].where(keep, rows[b])
        out[b] = rows[b].where(keep, rows[a])
    for col in ("effect", "ci_low", "ci_high", "diff", "diff_low", "diff_high", "hl_shift", "d"):
        out[col] = out[col].where(keep, -out[col]) + 0.0  # no "-0.00" in tables
    # Mann-Whitney's statistic is U of condition1; the other side's U is n1 * n2 - U.
    mwu = ~keep & (rows["test"] == "mann-whitney")
    out["statistic"] = rows["statistic"].where(~mwu, rows["n1"] * rows["n2"] - rows["statistic"])
    return pd.DataFrame(out)[list(rows.columns)]


def setup_means(data: RunData) -> pd.DataFrame:
    """One row per lineup, condition and setup: each tested metric averaged over the games
    played on that setup (0/1 metrics become shares; NaN games are skipped), ``n_games``, and
    for Catan the board's features.

    The setup is the unit the conditions act on: games on one board share its layout, so they
    are repeated measurements of the board, not independent samples of the condition. Tests
    on games would count board-to-board variation as a condition effect (two conditions
    drawing from the same set come out "significant" with few boards and many games each);
    tests on setup means do not. Setup ``s`` of every condition is played with the same game
    seeds (common random numbers), so with ``paired = true`` setups pair by index.
    """
    metrics = tested_metrics(data)
    keys = ["lineup", "condition", "setup"]
    df = data.per_game[keys + metrics].copy()
    df[metrics] = df[metrics].astype(float)
    grouped = df.groupby(keys, observed=True, sort=True)
    out = grouped[metrics].mean()
    out["n_games"] = grouped.size()
    out = out.reset_index()
    if data.game == "catan":
        features = data.per_game.groupby(keys, observed=True)[list(REGRESSION_FEATURES)].first()
        out = out.merge(features.reset_index(), on=keys)
    out["condition"] = pd.Categorical(
        out["condition"].astype(str), categories=data.conditions, ordered=True
    )
    return out


OMNIBUS_COLUMNS = [
    "lineup",
    "metric",
    "test",
    "k",
    "n",
    "n_dropped",
    "statistic",
    "df",
    "p",
    "p_adj",
    "effect_measure",
    "effect",
    "note",
]

EXTRA_COLUMNS = [
    "family",
    "family_size",
    "games_per_setup",
    "icc",
    "mde",
    "margin",
    "equivalence_p_adj",
    "mixed_diff",
    "mixed_low",
    "mixed_high",
    "mixed_p",
    "mixed_p_adj",
    "verdict",
]
"""Columns :func:`compare` adds to the :func:`ludolab.research.stats.pairwise` table."""

POWER = 0.8


def _registry_names(names: Any) -> list[str]:
    return [metric_column(m) for m in names or []]


def families(data: RunData) -> dict[str, str]:
    """Each tested metric's family: ``primary`` / ``exploratory`` when the config declares
    primary metrics, else ``all`` (one family for the whole run)."""
    primary = set(_registry_names(data.config["comparisons"].get("primary")))
    return {
        m: ("primary" if m in primary else "exploratory") if primary else "all"
        for m in tested_metrics(data)
    }


def margins(data: RunData) -> dict[str, float]:
    """The config's equivalence margins by per-game column, in each metric's unit."""
    given = data.config["comparisons"].get("margins") or {}
    return {metric_column(k): float(v) for k, v in given.items()}


def compare(data: RunData) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(omnibus table, pairwise table) over every lineup and tested metric, on setup means
    (:func:`setup_means`): ``n1``/``n2``, the medians, means and differences are over setups.

    One family per run: every pairwise test (lineup x metric x pair) is adjusted together by
    the config's correction, or, when ``comparisons.primary`` names metrics, the primary
    metrics' tests form the family and the others a separate exploratory one. Each row also
    carries the metric's between-setup ICC, the standard deviation the test works with (of the
    paired differences, or pooled over setups), the minimum detectable difference at 80% power
    and level ``alpha / m`` (``m`` the family's size: the level of the first Holm or
    Benjamini-Hochberg step), the TOST p-value where a margin is declared, a mixed-effects
    estimate on the games (:func:`ludolab.research.stats.mixed.mixed_contrasts`) and a ``verdict``.
    Where the rank test's smallest possible p-value is not below ``alpha / m`` (too few setups),
    the verdict is :func:`untestable_verdict` and the MDE is NaN: no difference is detectable.

    The omnibus table (Kruskal-Wallis, or Friedman when paired) has rows only with three or
    more conditions, adjusted over its own rows.
    """
    cmp = data.config["comparisons"]
    paired = data.paired
    paired_on = "setup" if paired else None
    seed = int(data.config["seed"])
    table_by_setup = data.by_setup
    margin_of = margins(data)
    omni, pairs = [], []
    for li, lineup in enumerate(data.lineups):
        df = table_by_setup[table_by_setup["lineup"] == lineup]
        games = data.per_game[data.per_game["lineup"] == lineup]
        for mi, metric in enumerate(tested_metrics(data)):
            if len(data.conditions) >= 3:
                frame = omnibus(df, metric, paired_on=paired_on, order=data.conditions)
                omni.append(frame.to_frame().assign(lineup=lineup))
            table = pairwise(
                df,
                metric,
                paired_on=paired_on,
                correction="none",
                n_boot=cmp["n_boot"],
                seed=[seed, li, mi],
                alpha=cmp["alpha"],
                order=data.conditions,
                baseline=data.baseline,
                margin=margin_of.get(metric),
            )
            if data.baseline is not None:
                table = _orient(table, data.baseline)
            max_games = int(cmp.get("mixed_max_games", DEFAULT_MIXED_MAX_GAMES))
            described = _describe_design(table, df, games, metric, paired, max_games)
            pairs.append(described.assign(lineup=lineup))
    columns = ["lineup", *PAIRWISE_COLUMNS, *EXTRA_COLUMNS]
    if omni:
        omni_df = pd.concat(omni, ignore_index=True)
        omni_df["p_adj"] = adjust_pvalues(omni_df["p"].to_numpy(float), cmp["correction"])
        omni_df = omni_df[OMNIBUS_COLUMNS]
    else:
        omni_df = pd.DataFrame(columns=OMNIBUS_COLUMNS)
    if not pairs:
        empty = pd.DataFrame(columns=columns).astype({"significant": bool})
        return omni_df, empty
    pair_df = pd.concat(pairs, ignore_index=True)
    pair_df = _adjust_families(pair_df, data, margin_of)
    pair_df = pair_df[columns]
    pair_df.attrs["level"] = 0.95
    return omni_df, pair_df


def _describe_design(
    table: pd.DataFrame,
    by_setup: pd.DataFrame,
    games: pd.DataFrame,
    metric: str,
    paired: bool,
    mixed_max_games: int,
) -> pd.DataFrame:
    """Add games per setup, ICC and the mixed-model contrast (on at most ``mixed_max_games``
    games) to one lineup's pairwise rows of ``metric``."""
    table = table.copy()
    centred = games[metric].astype(float) - games.groupby("condition", observed=True)[
        metric
    ].transform("mean")
    labels = games["condition"].astype(str) + ":" + games["setup"].astype(str)
    vc = variance_components(centred, labels)
    table["icc"] = vc.icc
    per_setup = []
    for c1, c2 in zip(table["condition1"], table["condition2"], strict=True):
        counts = by_setup.loc[by_setup["condition"].isin([c1, c2]), "n_games"]
        per_setup.append(float(counts.mean()) if len(counts) else float("nan"))
    table["games_per_setup"] = per_setup
    pairs = list(zip(table["condition1"], table["condition2"], strict=True))
    no_fit = pd.DataFrame({c: [np.nan] * len(pairs) for c in MIXED_COLUMNS})
    fitted = games["condition"].isin({c for pair in pairs for c in pair})
    if vc.within <= 1e-9 * max(vc.between, 1e-300) or not np.isfinite(vc.icc):
        # Every game on a setup alike (deterministic agents): a model of game-level noise has
        # none to fit, and its intervals come out far too narrow.
        mixed = no_fit
        note = "no mixed model: the games on each setup have the same value"
    elif int(fitted.sum()) > mixed_max_games:
        mixed = no_fit
        note = (
            f"no mixed model: {int(fitted.sum()):,} games exceed comparisons.mixed_max_games "
            f"({mixed_max_games:,})"
        )
    else:
        mixed, note = mixed_contrasts(games, metric, pairs, paired=paired, seed="seed")
    for col in ("mixed_diff", "mixed_low", "mixed_high", "mixed_p"):
        table[col] = mixed[col].to_numpy()
    if note:
        table["note"] = [f"{n}; {note}" if n else note for n in table["note"]]
    return table


def _adjust_families(
    pair_df: pd.DataFrame, data: RunData, margin_of: dict[str, float]
) -> pd.DataFrame:
    """p-value adjustment, minimum detectable difference, equivalence and verdict per family."""
    cmp = data.config["comparisons"]
    alpha, method, paired = float(cmp["alpha"]), cmp["correction"], data.paired
    family_of = families(data)
    pair_df["family"] = pair_df["metric"].map(family_of)
    pair_df["margin"] = pair_df["metric"].map(margin_of).astype(float)
    for col in ("p_adj", "equivalence_p_adj", "mixed_p_adj", "mde", "family_size"):
        pair_df[col] = np.nan
    # Rows whose rank test cannot reach the family's level: index -> (smallest p, level).
    untestable: dict[Any, tuple[float, float]] = {}
    for _, idx in pair_df.groupby("family", sort=False).groups.items():
        rows = pair_df.loc[idx]
        m = int(rows["p"].notna().sum())
        pair_df.loc[idx, "family_size"] = m
        pair_df.loc[idx, "p_adj"] = adjust_pvalues(rows["p"].to_numpy(float), method)
        pair_df.loc[idx, "mixed_p_adj"] = adjust_pvalues(rows["mixed_p"].to_numpy(float), method)
        pair_df.loc[idx, "equivalence_p_adj"] = adjust_pvalues(
            rows["equivalence_p"].to_numpy(float), method
        )
        level = alpha / max(m, 1)
        for i in idx:
            floor = smallest_p(int(pair_df.at[i, "n1"]), int(pair_df.at[i, "n2"]), paired=paired)
            if floor >= level and m:
                untestable[i] = (floor, level)
                note = (
                    f"with {pair_df.at[i, 'n1']} setups the rank test's smallest possible p-value "
                    f"is {floor:.2g}, not below alpha / m = {level:.2g}: no finding was possible "
                    f"(at least {setups_for_a_finding(level, paired=paired)} setups per "
                    "condition are needed)"
                )
                old_note = pair_df.at[i, "note"]
                pair_df.at[i, "note"] = f"{old_note}; {note}" if old_note else note
        # The MDE is a t-test's answer; where the rank test cannot reach the level at all, no
        # difference is detectable and a finite MDE would promise what the design cannot give.
        pair_df.loc[idx, "mde"] = [
            float("nan")
            if i in untestable
            else minimum_detectable_difference(
                sd, int(n1), int(n2), alpha=level, power=POWER, paired=paired
            )
            for i, sd, n1, n2 in zip(idx, rows["sd"], rows["n1"], rows["n2"], strict=True)
        ]
    pair_df["family_size"] = pair_df["family_size"].astype(int)
    pair_df["significant"] = (pair_df["p_adj"] < alpha).astype(bool)
    equivalent = pair_df["equivalence_p_adj"] < alpha
    mixed_sig = pair_df["mixed_p_adj"] < alpha
    verdicts, notes = [], []
    for (i, r), eq, msig in zip(pair_df.iterrows(), equivalent, mixed_sig, strict=True):
        if r["significant"]:
            verdict = "higher" if r["effect"] > 0 else "lower"
        elif eq:  # TOST is a t-test: the rank test's floor does not bind it
            verdict = f"equivalent within ±{r['margin']:.3g}"
        elif np.isnan(r["p"]):
            verdict = "not tested"
        elif i in untestable:
            verdict = untestable_verdict(*untestable[i])
        else:
            verdict = f"not detected (MDE {r['mde']:.3g})"
        if r["family"] == "exploratory" and r["significant"]:
            verdict = f"exploratory: {verdict}"
        verdicts.append(verdict)
        note = r["note"]
        if not np.isnan(r["mixed_p"]) and bool(msig) != bool(r["significant"]):
            extra = (
                "the mixed model finds a difference the setup-mean test does not"
                if msig
                else "the mixed model does not confirm this difference"
            )
            note = f"{note}; {extra}" if note else extra
        notes.append(note)
    pair_df["verdict"] = verdicts
    pair_df["note"] = notes
    return pair_df


TREND_COLUMNS = [
    "sweep",
    "parameter",
    "lineup",
    "metric",
    "values",
    "setups",
    "slope",
    "slope_low",
    "slope_high",
    "p",
    "p_adj",
    "significant",
]


def sweeps(data: RunData) -> dict[str, list[tuple[str, float]]]:
    """Each ``[[sweep]]`` of the run: its conditions and their values, in value order."""
    out: dict[str, list[tuple[str, float]]] = {}
    for c in data.config["conditions"]:
        if c.get("sweep"):
            out.setdefault(c["sweep"], []).append((c["name"], float(c["sweep_value"])))
    return {k: sorted(v, key=lambda cv: cv[1]) for k, v in out.items()}


def trend_table(data: RunData) -> pd.DataFrame:
    """Dose-response per sweep, lineup and tested metric: the OLS slope of setup means on the
    swept value (metric units per unit of the parameter) with a 95% interval and a test of
    zero slope. Standard errors are clustered by setup index when setups are paired (setup s
    of every value shares its game seeds), HC3 otherwise. The p-values form one family of
    their own, adjusted by the config's correction."""
    rows = []
    cond_params = {c["name"]: c.get("sweep_parameter") for c in data.config["conditions"]}
    for sweep, members in sweeps(data).items():
        value_of = dict(members)
        for lineup in data.lineups:
            df = data.by_setup[
                (data.by_setup["lineup"] == lineup)
                & data.by_setup["condition"].astype(str).isin(value_of)
            ]
            for metric in tested_metrics(data):
                sub = df[["condition", "setup", metric]].dropna()
                x = sub["condition"].astype(str).map(value_of).to_numpy(float)
                y = sub[metric].to_numpy(float)
                row = {
                    "sweep": sweep,
                    "parameter": cond_params[members[0][0]],
                    "lineup": lineup,
                    "metric": metric,
                    "values": len(set(x)),
                    "setups": len(sub),
                }
                row.update(_slope(x, y, sub["setup"].to_numpy(), data.paired))
                rows.append(row)
    out = pd.DataFrame(
        rows, columns=[c for c in TREND_COLUMNS if c not in ("p_adj", "significant")]
    )
    out["p_adj"] = adjust_pvalues(
        out["p"].to_numpy(float), data.config["comparisons"]["correction"]
    )
    out["significant"] = (out["p_adj"] < data.config["comparisons"]["alpha"]).astype(bool)
    return out[TREND_COLUMNS]


def _slope(x: np.ndarray, y: np.ndarray, setup: np.ndarray, paired: bool) -> dict[str, float]:
    nan = float("nan")
    # the fit the dose-response figure draws (ludolab.research.stats.trend)
    fit = linear_trend(x, y, setup if paired else None)
    if fit is None:
        return {"slope": 0.0 if len(y) else nan, "slope_low": nan, "slope_high": nan, "p": nan}
    low, high = fit.conf_int(0.05)[1]
    return {
        "slope": float(fit.params[1]),
        "slope_low": float(low),
        "slope_high": float(high),
        "p": float(fit.pvalues[1]),
    }


SEAT_COLUMNS = [
    "lineup",
    "condition",
    "setups",
    "decided_games",
    "first_seat_share",
    "fair_share",
    "advantage",
    "advantage_low",
    "advantage_high",
    "advantage_p",
    "seats_test",
    "seats_p",
    "seats_p_adj",
    "balance",
    "balance_null",
    "balance_null_low",
    "balance_null_high",
]


def seat_table(data: RunData) -> pd.DataFrame:
    """Seat advantage and balance per lineup and condition, tested on setups, not games.

    Per setup, each seat's share of the wins (a k-way shared win counts 1/k; undecided games
    are left out). ``advantage``: mean over setups of seat 0's share minus ``1 / players``,
    with a t interval and one-sample t-test over setups. ``seats_p``: do the seats' shares
    differ (Friedman test over setups as blocks, or Wilcoxon signed-rank with 2 players),
    adjusted over the table's rows by the config's correction. ``balance``: 1 - (largest -
    smallest seat win rate) over all decided games, beside its expectation for fair seats at
    that number of games (:func:`ludolab.research.stats.power.balance_null`).
    """
    players = int(data.config["players"])
    rows = []
    pg = data.per_game
    for li, lineup in enumerate(data.lineups):
        for ci, cond in enumerate(data.conditions):
            games = pg[(pg["lineup"] == lineup) & (pg["condition"] == cond)]
            decided = games[games["winners"].map(len) > 0]
            shares = np.zeros((len(decided), players))
            for i, ws in enumerate(decided["winners"]):
                shares[i, list(ws)] = 1.0 / len(ws)
            per_setup = pd.DataFrame(shares).groupby(decided["setup"].to_numpy()).mean().to_numpy()
            rows.append(_seat_row(lineup, cond, per_setup, shares, players, [li, ci]))
    out = pd.DataFrame(rows, columns=SEAT_COLUMNS)
    out["seats_p_adj"] = adjust_pvalues(
        out["seats_p"].to_numpy(float), data.config["comparisons"]["correction"]
    )
    return out


def _seat_row(
    lineup: str,
    cond: str,
    per_setup: np.ndarray,
    shares: np.ndarray,
    players: int,
    seed: list[int],
) -> dict[str, Any]:
    fair = 1.0 / players
    nan = float("nan")
    row: dict[str, Any] = dict.fromkeys(SEAT_COLUMNS, nan)
    row.update(lineup=lineup, condition=cond, setups=len(per_setup), decided_games=len(shares))
    row["fair_share"] = fair
    if len(per_setup) >= 2:
        first = per_setup[:, 0]
        row["first_seat_share"] = float(first.mean())
        row["advantage"] = float(first.mean()) - fair
        if np.ptp(first) > 0:
            res = st.ttest_1samp(first, fair)
            ci = res.confidence_interval(0.95)
            row["advantage_p"] = float(res.pvalue)
            row["advantage_low"], row["advantage_high"] = ci.low - fair, ci.high - fair
        if players >= 3 and np.ptp(per_setup) > 0:
            row["seats_test"] = f"friedman (n = {len(per_setup)} setups)"
            row["seats_p"] = float(st.friedmanchisquare(*per_setup.T).pvalue)
        elif players == 2 and np.any(per_setup[:, 0] != per_setup[:, 1]):
            row["seats_test"] = f"wilcoxon (n = {len(per_setup)} setups)"
            row["seats_p"] = float(st.wilcoxon(per_setup[:, 0], per_setup[:, 1]).pvalue)
    if len(shares):
        rates = shares.mean(axis=0)
        row["balance"] = float(1.0 - (rates.max() - rates.min()))
        mean, low, high = balance_null(len(shares), players, seed=seed)
        row["balance_null"], row["balance_null_low"], row["balance_null_high"] = mean, low, high
    return row


def regressions(data: RunData) -> tuple[pd.DataFrame, list[str]]:
    """Each tested metric's board means regressed on :data:`REGRESSION_FEATURES`, per lineup
    (Catan only; one row per board and lineup, see :func:`setup_means`).

    Returns the coefficient table (columns ``lineup``, ``metric``, ``term``, ``coef``, ``se``,
    ``t``, ``p``, ``ci_low``, ``ci_high``, ``std_coef``, plus ``n`` and ``r2``) and notes on
    fits that could not be made (e.g. a constant metric).
    """
    if data.game != "catan":
        return pd.DataFrame(), ["no regression: board features exist for Catan boards only"]
    frames, notes = [], []
    by_setup = data.by_setup
    constant = [f for f in REGRESSION_FEATURES if by_setup[f].nunique(dropna=True) <= 1]
    features = [f for f in REGRESSION_FEATURES if f not in constant]
    if constant:
        notes.append(
            f"board feature(s) {', '.join(constant)} take one value on every board of this run "
            "(a constraint fixes them): left out of the regressions"
        )
    for lineup in data.lineups:
        df = by_setup[by_setup["lineup"] == lineup]
        for metric in tested_metrics(data):
            try:
                fit = regress(df, metric, features)
            except ValueError as exc:
                notes.append(f"{lineup} / {metric}: no fit ({exc})")
                continue
            frame = fit.to_frame()
            frames.append(frame.assign(lineup=lineup, metric=metric, n=fit.n, r2=fit.r2))
    if not frames:
        return pd.DataFrame(), notes
    out = pd.concat(frames, ignore_index=True)
    out = out[["lineup", "metric", *[c for c in out.columns if c not in ("lineup", "metric")]]]
    return out, notes


@dataclass
class Analysis:
    """Every table of a run's analysis (see :func:`analyse`)."""

    data: RunData
    conditions: pd.DataFrame
    omnibus: pd.DataFrame
    pairwise: pd.DataFrame
    regression: pd.DataFrame
    notes: list[str]
    seats: pd.DataFrame
    trends: pd.DataFrame = field(default_factory=lambda: pd.DataFrame(columns=TREND_COLUMNS))
    skill_effects: pd.DataFrame = field(default_factory=pd.DataFrame)
    skill: pd.DataFrame = field(default_factory=lambda: pd.DataFrame(columns=SKILL_COLUMNS))


def skill_analysis(data: RunData) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(effects, tests) across the config's ``skill`` lineups, for the primary metrics (every
    tested metric when none is primary): see :mod:`ludolab.research.experiment.skill`."""
    cmp = data.config["comparisons"]
    metrics = _registry_names(cmp.get("primary")) or tested_metrics(data)
    return skill_tables(data.by_setup, cmp, metrics, data.paired)


def analyse(data: RunData) -> Analysis:
    """Condition metrics, comparisons, seat statistics and regressions of a loaded run."""
    omni, pairs = compare(data)
    reg, notes = regressions(data)
    if data.config["comparisons"]["paired"] and not data.paired:
        fewer = {c: len(s) for c, s in data.setups.items() if len(s) < data.config["setups"]}
        notes.insert(
            0,
            f"condition(s) {', '.join(f'{c} ({n})' for c, n in fewer.items())} have fewer "
            f"distinct {data.config['setup_kind']} than the {data.config['setups']} planned: "
            "each distinct setup is one unit, so the comparisons are unpaired",
        )
    skill_effects, skill = skill_analysis(data)
    return Analysis(
        data,
        condition_table(data),
        omni,
        pairs,
        reg,
        notes,
        seat_table(data),
        trend_table(data),
        skill_effects,
        skill,
    )


PAIR_COLUMNS = [
    "lineup",
    "metric",
    "condition1",
    "condition2",
    "n1",
    "n2",
    "mean1",
    "mean2",
    "diff",
    "diff_low",
    "diff_high",
    "d",
    "test",
    "p",
    "p_adj",
    "family",
    "mde",
    "verdict",
]
PAIR_LABELS = {
    "condition1": "condition",
    "condition2": "vs",
    "mean1": "mean",
    "mean2": "mean (vs)",
    "diff": "difference",
    "diff_low": "95% CI low",
    "diff_high": "95% CI high",
    "p_adj": "p (adj.)",
    "mde": "MDE",
}


def write_tables(result: Analysis) -> list[Path]:
    """Write the metric tables and comparisons into the run folder; return the files.

    ``metrics/per_game.parquet`` and ``metrics/conditions.csv``; ``comparisons.md`` (every
    table), ``comparisons.csv`` (pairwise, full precision), ``omnibus.csv``, ``seats.csv``,
    ``trends.csv`` (with sweeps), ``skill.csv`` and ``skill-effects.csv`` (with
    ``comparisons.skill``) and, for Catan, ``regression.csv``. The journal tables
    (:mod:`ludolab.research.experiment.tables`): ``tables/comparisons-METRIC.tex`` per tested
    metric and ``tables/trends.tex`` (with sweeps), each with a ``.csv`` of its rows beside
    it, and ``comparisons.tex`` holding them all.
    """
    path = result.data.path
    files = []
    per_game = result.data.per_game.copy()
    per_game["condition"] = per_game["condition"].astype(str)
    for col in per_game.columns:  # tuples (seats, winners) as lists for Parquet
        if per_game[col].dtype == object and per_game[col].map(type).eq(tuple).any():
            per_game[col] = per_game[col].map(lambda v: list(v) if isinstance(v, tuple) else v)
    write_parquet(path / "metrics" / "per_game.parquet", pa.Table.from_pandas(per_game))
    files.append(path / "metrics" / "per_game.parquet")
    write_text(path / "metrics" / "conditions.csv", to_csv(result.conditions) or "")
    files.append(path / "metrics" / "conditions.csv")
    write_text(path / "comparisons.md", comparisons_markdown(result))
    write_text(path / "comparisons.csv", to_csv(result.pairwise) or "")
    write_text(path / "omnibus.csv", to_csv(result.omnibus) or "")
    write_text(path / "seats.csv", to_csv(result.seats) or "")
    if len(result.trends):
        write_text(path / "trends.csv", to_csv(result.trends) or "")
        files.append(path / "trends.csv")
    if len(result.skill):
        write_text(path / "skill.csv", to_csv(result.skill) or "")
        write_text(path / "skill-effects.csv", to_csv(result.skill_effects) or "")
        files += [path / "skill.csv", path / "skill-effects.csv"]
    files += [path / f for f in ("comparisons.md", "comparisons.csv", "omnibus.csv", "seats.csv")]
    files += write_journal_tables(
        journal_tables(
            result.pairwise, result.trends, result.data.config, paired=result.data.paired
        ),
        path,
    )
    if len(result.regression):
        write_text(path / "regression.csv", to_csv(result.regression) or "")
        files.append(path / "regression.csv")
    return files


def pairwise_markdown(table: pd.DataFrame) -> str:
    """The pairwise table as Markdown (the report's main table)."""
    return to_markdown(table[PAIR_COLUMNS], labels=PAIR_LABELS)


def comparisons_markdown(result: Analysis) -> str:
    """``comparisons.md``: pairwise, omnibus, seat and regression tables with how to read them."""
    cmp = result.data.config["comparisons"]
    paired = result.data.paired
    n_setups = result.data.config["setups"]
    kind = result.data.config["setup_kind"]
    families = result.pairwise.groupby("family", sort=False)["family_size"].first()
    parts = [
        f"# Comparisons: {result.data.config['name']}\n",
        f"Unit of analysis: the setup. Each metric is averaged over the games played on each of "
        f"the {n_setups} {kind} per condition, and the tests compare those means (games on one "
        f"setup are repeated measurements of it, not independent samples of the condition). "
        f"Within each lineup.\n",
        "Pairwise: "
        + (
            "Wilcoxon signed-rank on the paired setups, effect = matched-pairs rank-biserial "
            "correlation"
            if paired
            else "Mann-Whitney U, effect = Cliff's delta"
        )
        + " (positive: larger under 'condition'); difference of means with a "
        + (
            f"{cmp['n_boot']}-resample bootstrap 95% interval"
            if cmp["n_boot"]
            else "no interval (n_boot = 0)"
        )
        + f"; p adjusted by {cmp['correction']} over each family ("
        + ", ".join(f"{f}: {m} tests" for f, m in families.items())
        + "); MDE at 80% power and level alpha / m. Every column: comparisons.csv.\n",
        pairwise_markdown(result.pairwise),
    ]
    if len(result.omnibus):
        parts += [
            "\nOmnibus (descriptive; "
            + (
                "Friedman over setups matched by index, n = blocks, effect Kendall's W"
                if paired
                else "Kruskal-Wallis H, effect epsilon-squared"
            )
            + "), adjusted over the table:\n",
            to_markdown(result.omnibus),
        ]
    parts += ["\nSeats, tested over setups (seats.csv):\n", to_markdown(result.seats)]
    if len(result.regression):
        parts += [
            "\nRegression of each metric's board means on board features (OLS, HC3 standard "
            "errors; one row per board); "
            "`std_coef`: standard deviations of the metric per standard deviation of the "
            "feature.\n",
            to_markdown(result.regression.drop(columns=["t"], errors="ignore")),
        ]
    if result.notes:
        parts.append("\n" + "\n".join(f"- {n}" for n in result.notes))
    return "\n".join(parts) + "\n"


def summary_lines(result: Analysis, limit: int = 12) -> list[str]:
    """A few lines for the terminal: the confirmed differences, largest first."""
    pw = result.pairwise
    sig = pw[pw["significant"] & (pw["family"] != "exploratory")]
    untestable = pw["verdict"].str.startswith(UNTESTABLE)
    if sig.empty and len(pw) and untestable.all():
        detail = pw["verdict"].iloc[0].removeprefix(UNTESTABLE).strip()
        return [
            f"{UNTESTABLE}: none of the {len(pw)} tests could reach its level {detail}; more "
            "setups per condition are needed (comparisons.md)"
        ]
    if sig.empty:
        return [
            f"no difference between conditions detected ({len(pw)} tests, corrected as one "
            "family; what the design could detect: MDE in comparisons.md)"
        ]
    sig = sig.reindex(sig["d"].abs().sort_values(ascending=False).index)
    lines = []
    for _, r in sig.head(limit).iterrows():
        lines.append(
            f"  {r['lineup']}: {r['metric']} {r['condition1']} vs {r['condition2']}: "
            f"mean {r['mean1']:.3g} vs {r['mean2']:.3g}, difference {r['diff']:+.3g} "
            f"[{r['diff_low']:+.3g}, {r['diff_high']:+.3g}], p adj. {r['p_adj']:.2g}"
        )
    if len(sig) > limit:
        lines.append(f"  ... and {len(sig) - limit} more (comparisons.md)")
    return lines
