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

Its parts: :mod:`~ludolab.research.experiment.run_data` (the run's data and setup means),
:mod:`~ludolab.research.experiment.trends` (sweeps),
:mod:`~ludolab.research.experiment.seat_analysis` (seats), this module (loading, comparisons,
regression, the whole analysis), and
:mod:`~ludolab.research.experiment.result_tables` (the tables written and printed).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from ludolab import games
from ludolab.research.experiment.config import DEFAULT_MIXED_MAX_GAMES
from ludolab.research.experiment.result_tables import (
    Analysis,
    comparisons_markdown,
    pairwise_markdown,
    summary_lines,
    write_tables,
)
from ludolab.research.experiment.run_data import (
    RunData,
    condition_table,
    metric_column,
    tested_metrics,
)
from ludolab.research.experiment.seat_analysis import seat_table
from ludolab.research.experiment.setups import read_setups
from ludolab.research.experiment.skill import skill_tables
from ludolab.research.experiment.store import RunError, open_finished
from ludolab.research.experiment.trends import TREND_COLUMNS, trend_table
from ludolab.research.metrics import per_game_metrics, with_setup_features
from ludolab.research.simulate import GAME_NAME_COLUMNS, find_repeats
from ludolab.research.stats import omnibus, pairwise, regress
from ludolab.research.stats.compare import PAIRWISE_COLUMNS
from ludolab.research.stats.mixed import MIXED_COLUMNS, mixed_contrasts
from ludolab.research.stats.multiple import adjust_pvalues
from ludolab.research.stats.power import (
    minimum_detectable_difference,
    setups_for_a_finding,
    smallest_p,
    untestable_verdict,
    variance_components,
)


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
    setups = read_setups(run.path / games.get(config["game"]).setups_file, config["game"])
    per_game = with_setup_features(
        per_game, [s for ss in setups.values() for s in ss], config["game"]
    )
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


def orient(table: pd.DataFrame, baseline: str) -> pd.DataFrame:
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
                table = orient(table, data.baseline)
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
    if vc.games_per_setup <= 1:
        # One game per setup: the setup means are the games, and there is no game-level
        # noise to separate from the setups'.
        mixed = no_fit
        note = "no mixed model: one game per setup"
    elif vc.within <= 1e-9 * max(vc.between, 1e-300) or not np.isfinite(vc.icc):
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
    return adjust_families(
        pair_df,
        alpha=float(cmp["alpha"]),
        correction=cmp["correction"],
        paired=data.paired,
        family_of=families(data),
        margin_of=margin_of,
    )


def adjust_families(
    pair_df: pd.DataFrame,
    *,
    alpha: float,
    correction: str,
    paired: bool,
    family_of: dict[str, str],
    margin_of: dict[str, float],
) -> pd.DataFrame:
    """To pairwise rows on setup means (:func:`ludolab.research.stats.compare.pairwise`, plus
    ``mixed_p``, NaN where no mixed model was fitted): the family of each metric
    (``family_of``), p-values adjusted within it by ``correction``, the minimum detectable
    difference at 80% power and level ``alpha / m``, the TOST p-value's adjustment where a
    margin is declared (``margin_of``, in the metric's unit), ``significant`` and the
    ``verdict``. ``pair_df`` is changed in place and returned."""
    method = correction
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


def regressions(data: RunData) -> tuple[pd.DataFrame, list[str]]:
    """Each tested metric's setup means regressed on the game's ``regression_features`` (its
    setup features, :mod:`ludolab.games`), per lineup (one row per setup and lineup, see
    :func:`setup_means`); none for a game that declares none.

    Returns the coefficient table (columns ``lineup``, ``metric``, ``term``, ``coef``, ``se``,
    ``t``, ``p``, ``ci_low``, ``ci_high``, ``std_coef``, plus ``n`` and ``r2``) and notes on
    fits that could not be made (e.g. a constant metric).
    """
    described = games.get(data.game)
    regressors = described.regression_features
    noun = described.setup_noun
    if not regressors:
        return pd.DataFrame(), [f"no regression: {described.title} declares no {noun} features"]
    frames, notes = [], []
    by_setup = data.by_setup
    constant = [f for f in regressors if by_setup[f].nunique(dropna=True) <= 1]
    features = [f for f in regressors if f not in constant]
    if constant:
        notes.append(
            f"{noun} feature(s) {', '.join(constant)} take one value on every {noun} of this "
            "run (a constraint fixes them): left out of the regressions"
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


def skill_analysis(data: RunData, pairwise: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(effects, tests) across the config's ``skill`` lineups, for the primary metrics (every
    tested metric when none is primary), from the run's setup means and its corrected main
    comparisons ``pairwise`` (:func:`compare`): see :mod:`ludolab.research.experiment.skill`."""
    cmp = data.config["comparisons"]
    metrics = _registry_names(cmp.get("primary")) or tested_metrics(data)
    return skill_tables(
        data.by_setup,
        pairwise,
        cmp,
        metrics,
        data.paired,
        margins=margins(data),
        seed=int(data.config["seed"]),
    )


REPEAT_COLUMNS = ["lineup", "games", "distinct", "groups", "games_per_group", "every_group_repeats"]


def repeated_games(data: RunData) -> pd.DataFrame:
    """Per lineup, how many of its games repeat an earlier one record for record.

    Two games can be one game played twice when they share the condition, the setup (the
    distinct one: a sampler's repeated setups are one), the lineup and its seat rotation; only
    their index, slot, seed and pair key differ (:data:`ludolab.research.simulate.
    GAME_NAME_COLUMNS`). Agents that make no random choice on a game whose rules draw nothing
    (Masters Gallery) play every game of such a group alike.

    Columns (one row per lineup, in config order): ``games``; ``distinct`` (games that repeat
    no earlier game of their group); ``groups`` (condition x setup x rotation); ``games_per_group``
    (their mean size); ``every_group_repeats`` (each group of two or more games is one game
    played over and over: a deterministic lineup).
    """
    pg = data.per_game
    keys = pg[["condition", "lineup", "rotation", "setup"]]
    # A few numbers computed from each record (a handful of columns, not every metric: a run
    # of a million games keeps its memory); only games alike in all of them are compared in
    # full, from games.parquet.
    wanted = dict.fromkeys(["turns", "rounds", "winner", *tested_metrics(data)])
    cheap = pg[[c for c in wanted if c in pg.columns and c not in GAME_NAME_COLUMNS]]
    repeats = find_repeats(keys, cheap, data.path / "games.parquet")
    own = repeats.first == np.arange(len(pg))
    sizes, _ = repeats.distinct_per_group()
    rows = []
    for lineup in data.lineups:
        mine = (pg["lineup"] == lineup).to_numpy()
        groups = np.unique(repeats.group[mine])  # the lineup is a group key: its own groups
        rows.append(
            {
                "lineup": lineup,
                "games": int(mine.sum()),
                "distinct": int(own[mine].sum()),
                "groups": len(groups),
                "games_per_group": float(sizes[groups].mean()) if len(groups) else float("nan"),
                "every_group_repeats": repeats.each_repeats(groups),
            }
        )
    return pd.DataFrame(rows, columns=REPEAT_COLUMNS)


def repeat_notes(data: RunData, repeats: pd.DataFrame) -> list[str]:
    """The run notes on repeated games (:func:`repeated_games`): one per lineup with any."""
    unit = data.config["setup_kind"][:-1]
    per_setup_key = games.get(data.game).games_per_setup_key
    notes = []
    for _, r in repeats.iterrows():
        n, distinct = int(r["games"]), int(r["distinct"])
        if distinct == n:
            continue
        if r["every_group_repeats"]:
            notes.append(
                f"lineup {r['lineup']}: every game on a {unit} repeats that {unit}'s first game "
                f"record for record (its agents made no random choice): {distinct:,} distinct "
                f"games of {n:,}. Each {unit} is one observation, and the tests (on {unit} "
                f"means) and the win-rate intervals (over {unit}s) count it once; the mixed "
                f"model has no game-level noise to fit. The {n - distinct:,} repeats added "
                f"nothing: with `{per_setup_key} = 1` this lineup has the same "
                f"{unit} means"
            )
        else:
            notes.append(
                f"lineup {r['lineup']}: {n - distinct:,} of its {n:,} games repeat an earlier "
                f"game on the same {unit} and seats, record for record; the tests average the "
                f"games on each {unit}, so a repeat weighs only within its {unit}"
            )
    return notes


def analyse(data: RunData) -> Analysis:
    """Condition metrics, comparisons, seat statistics and regressions of a loaded run, with
    notes on lineups whose games repeat (:func:`repeated_games`)."""
    omni, pairs = compare(data)
    reg, notes = regressions(data)
    notes[:0] = repeat_notes(data, repeated_games(data))
    if data.config["comparisons"]["paired"] and not data.paired:
        fewer = {c: len(s) for c, s in data.setups.items() if len(s) < data.config["setups"]}
        notes.insert(
            0,
            f"condition(s) {', '.join(f'{c} ({n})' for c, n in fewer.items())} have fewer "
            f"distinct {data.config['setup_kind']} than the {data.config['setups']} planned: "
            "each distinct setup is one unit, so the comparisons are unpaired",
        )
    skill_effects, skill = skill_analysis(data, pairs)
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


__all__ = [
    "TREND_COLUMNS",
    "Analysis",
    "RunData",
    "analyse",
    "compare",
    "condition_table",
    "families",
    "load_run",
    "margins",
    "metric_column",
    "regressions",
    "repeat_notes",
    "repeated_games",
    "seat_table",
    "skill_analysis",
    "trend_table",
    "tested_metrics",
    "comparisons_markdown",
    "pairwise_markdown",
    "summary_lines",
    "write_tables",
]
