"""Metrics over tables of games: one row per game, one row per condition, board features.

The common input is a pandas DataFrame with one row per game, as written by the simulations
(``records_table(...).to_pandas()`` or ``pd.read_parquet("games.parquet")``): the fields of a
game's record (the record core, :data:`ludolab.games.RECORD_CORE`, and the game's own),
plus any extra columns (``game``, ``condition``, ...) which are carried through untouched. A list of
records is accepted too (converted with ``to_dict``). Definitions: :mod:`.registry`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from ludolab import games as registry
from ludolab.research.metrics import core
from ludolab.research.metrics.registry import GAME_METRICS

GameName = str
"""A registered game's name (:mod:`ludolab.games`)."""

_KEEP = ("setup_id", "seed", "agents")
"""The record core's identifiers, kept beside the metrics."""


def _record_fields(game: str) -> frozenset[str]:
    return frozenset(f.name for f in dataclasses.fields(registry.get(game).record_type))


def games_frame(games: pd.DataFrame | Sequence[Any]) -> pd.DataFrame:
    """The games as a DataFrame: returned as is if already one, else one row per record (or
    dict) with a ``game`` column numbering them from 0, as ``records_table`` does."""
    if isinstance(games, pd.DataFrame):
        return games
    rows = [g if isinstance(g, dict) else g.to_dict() for g in games]
    return pd.DataFrame([{"game": i, **row} for i, row in enumerate(rows)])


def _which_game(df: pd.DataFrame | pa.Table, game: GameName | None) -> GameName:
    """``game`` checked, or when None the one registered game whose record's own fields (or
    own metrics, in a per-game metrics table) are all columns of ``df``."""
    if game is not None:
        registry.get(game)  # UnknownGameError (a ValueError) naming the registered games
        return game
    columns = set(df.column_names if isinstance(df, pa.Table) else df.columns)
    found = []
    for name in registry.names():
        own = _record_fields(name) - set(registry.RECORD_CORE)
        metrics = set(registry.get(name).metrics)
        if own <= columns or (metrics and metrics <= columns):
            found.append(name)
    if len(found) != 1:
        raise ValueError(
            "cannot tell the game from the columns: give game= (one of "
            f"{', '.join(registry.names())})"
        )
    return found[0]


def _hashable(x: Any) -> Any:
    if isinstance(x, np.ndarray | list | tuple):
        return tuple(_hashable(v) for v in x)
    return x.item() if isinstance(x, np.generic) else x


def _common(v: np.ndarray, final: np.ndarray, winners: tuple[int, ...]) -> dict[str, Any]:
    return {
        "score_spread": core.score_spread(final),
        "winner_margin": core.winner_margin(final, winners),
        "lead_changes": core.lead_change_count(v),
        "lead_change": core.lead_change(v),
        "winner_trailing": core.winner_trailing(v, winners),
        "drama": core.drama(v, winners),
        "decisiveness": core.decisiveness(v, winners),
        "decisiveness_threshold": core.decisiveness_threshold(v, winners),
        "lead_change_ludii": core.lead_change_ludii(v),
        "drama_ludii": core.drama_ludii(v, winners),
        "decisiveness_ludii": core.decisiveness_ludii(v, winners),
        "first_seat_win": (1.0 / len(winners) if 0 in winners else 0.0) if winners else np.nan,
    }


class Ragged:
    """A list column (of lists, for ``depth`` 2) as one float array of its leaf values and
    each row's slice of it: game ``i``'s values without a Python object per cell."""

    def __init__(self, column: pa.ChunkedArray, depth: int) -> None:
        arr = column.combine_chunks()
        rows = np.asarray(pc.list_parent_indices(arr))
        for _ in range(depth - 1):
            arr = pc.list_flatten(arr)
            rows = rows[np.asarray(pc.list_parent_indices(arr))]
        leaves = pc.list_flatten(arr)
        self.values = leaves.to_numpy(zero_copy_only=False).astype(float)  # nulls: NaN
        self.bounds = np.searchsorted(rows, np.arange(len(column) + 1))

    def row(self, i: int) -> np.ndarray:
        return self.values[self.bounds[i] : self.bounds[i + 1]]


def _rows(table: pa.Table, game: str) -> list[dict[str, Any]]:
    """Every game's per-game metrics, from the record core and the game's own
    (:meth:`ludolab.games.Game.own_metric_values`)."""
    described = registry.get(game)
    final_scores = Ragged(table.column("final_scores"), 1)
    score_by_step = Ragged(table.column("score_by_step"), 2)
    winners_of = table.column("winners").to_pylist()
    turns = table.column("turns").to_pylist()
    rounds = table.column("rounds").to_pylist()
    truncated = table.column("truncated").to_pylist()
    income = described.seat_income(table)
    own = described.own_metric_values(table)
    out = []
    for i in range(table.num_rows):
        final = final_scores.row(i)
        n = final.size
        winners = tuple(sorted(int(w) for w in winners_of[i] or ()))
        out.append(
            {
                "n_players": n,
                "turns": int(turns[i]),
                "rounds": int(rounds[i]),
                "truncated": bool(truncated[i]),
                "winner": winners[0] if len(winners) == 1 else None,
                "winners": winners,
                "shared_win": len(winners) > 1,
                **_common(score_by_step.row(i).reshape(-1, n), final, winners),
                "income_gini": core.gini(final if income is None else income[i]),
                **{name: values[i] for name, values in own.items()},
            }
        )
    return out


def _shared(values: pa.ChunkedArray | pa.Array) -> np.ndarray:
    """A column as an object array in which equal values are one Python object (lists as
    tuples): 8 bytes a row for the few distinct conditions, lineups, agents or boards of a
    run, where one object per row costs 50-300 bytes."""
    if isinstance(values, pa.ChunkedArray):
        values = values.combine_chunks()
    if pa.types.is_list(values.type) or pa.types.is_large_list(values.type):
        seen: dict[Any, Any] = {}
        out = np.empty(len(values), dtype=object)
        for i, x in enumerate(values.to_pylist()):
            key = None if x is None else _hashable(x)
            out[i] = seen.setdefault(key, key)
        return out
    encoded = values.dictionary_encode()
    distinct = np.empty(len(encoded.dictionary) + 1, dtype=object)
    distinct[:-1] = [_hashable(x) for x in encoded.dictionary.to_pylist()]
    distinct[-1] = None  # nulls
    return distinct[encoded.indices.fill_null(len(encoded.dictionary)).to_numpy()]


def _as_table(games: pd.DataFrame | pa.Table | Sequence[Any]) -> pa.Table:
    if isinstance(games, pa.Table):
        return games
    return pa.Table.from_pandas(games_frame(games), preserve_index=False)


def per_game_metrics(
    games: pd.DataFrame | pa.Table | Sequence[Any], game: GameName | None = None
) -> pd.DataFrame:
    """One row per game: identifiers, length, outcome and every per-game metric.

    Columns: the input's non-record columns (e.g. ``game``, ``condition``) and
    ``setup_id``, ``seed``, ``agents`` (as tuples), then ``n_players``, ``turns``,
    ``rounds``, ``truncated``, ``winner`` (single winner seat, <NA> if none or shared),
    ``winners`` (tuple of seats, empty if none), ``shared_win``, ``score_spread``,
    ``winner_margin``, ``lead_changes``, ``lead_change``, ``winner_trailing``, ``drama``,
    ``decisiveness``, ``decisiveness_threshold``, ``income_gini`` and the game's own
    (its description's ``metrics``, :mod:`ludolab.games`). Formulas:
    :data:`.registry.METRICS`. Outcome metrics (margin, drama, decisiveness) are NaN for games
    without a winner (Catan games cut off by the turn limit).

    ``game`` is a registered game's name; None infers it from the columns (the record's
    own fields).
    """
    table = _as_table(games)
    which = _which_game(table, game)
    fields = _record_fields(which)
    columns = table.column_names
    missing = sorted(f for f in fields if f not in columns and f != "n_players")
    if missing:
        raise ValueError(f"not a {which} games table: missing columns {missing}")
    keep = [c for c in columns if c not in fields] + list(_KEEP)
    rows = _rows(table, which)
    own = registry.get(which).metrics
    order = ["n_players", "turns", "rounds", "truncated", "winner", "winners", "shared_win"]
    order += [c for c in GAME_METRICS if c not in order] + [c for c in own if c not in order]
    metrics = pd.DataFrame(rows, columns=order)
    for column in registry.get(which).unsupported_metrics:  # NaN, not a number that misleads
        metrics[column] = np.nan
    metrics["winner"] = metrics["winner"].astype("Int64")
    shared: dict[tuple[int, ...], tuple[int, ...]] = {}
    metrics["winners"] = [shared.setdefault(w, w) for w in metrics["winners"]]
    ids = {}
    for c in keep:
        column = table.column(c)
        nested = pa.types.is_list(column.type) or pa.types.is_large_list(column.type)
        text = pa.types.is_string(column.type) or pa.types.is_large_string(column.type)
        ids[c] = _shared(column) if nested or text else column.to_pandas()
    return pd.concat([pd.DataFrame(ids), metrics], axis=1)


def _effective_sizes(decided: pd.DataFrame, n_seats: int) -> np.ndarray:
    """Per seat, the number of independent games the decided games are worth for its win rate
    (:func:`.core.effective_sample_size` over the ``setup`` column): games on one setup (the
    same board or deal) are not independent — greedy games on one Masters Gallery deal all
    play out the same. Without a ``setup`` column every game counts."""
    nd = len(decided)
    if nd == 0 or "setup" not in decided.columns:
        return np.full(n_seats, float(nd))
    share = np.zeros((nd, n_seats))
    for i, ws in enumerate(decided["winners"]):
        for seat in ws:
            share[i, seat] = 1.0 / len(ws)
    setups = decided["setup"].to_numpy()
    return np.array([core.effective_sample_size(share[:, s], setups) for s in range(n_seats)])


def _aggregate(g: pd.DataFrame, n_seats: int, means: Sequence[str]) -> dict[str, float]:
    n = len(g)
    decided = g[g["winners"].map(len) > 0]
    nd = len(decided)
    wins = np.zeros(n_seats)
    for ws in decided["winners"]:
        for s in ws:
            wins[s] += 1.0 / len(ws)
    rates = wins / nd if nd else np.full(n_seats, np.nan)
    out: dict[str, float] = {
        "n_games": n,
        "n_decided": nd,
        "completion_rate": nd / n,
        "timeout_rate": float(g["truncated"].mean()),
    }
    for col in ("turns", "rounds"):
        x = g[col].astype(float)
        out[f"{col}_mean"] = float(x.mean())
        out[f"{col}_median"] = float(x.median())
        out[f"{col}_sd"] = float(x.std(ddof=1)) if n > 1 else np.nan
    n_eff = _effective_sizes(decided, n_seats)
    for s in range(n_seats):
        lo, hi = core.wilson_interval(rates[s] * n_eff[s], n_eff[s]) if nd else (np.nan, np.nan)
        out[f"wins_{s}"] = wins[s]
        out[f"win_rate_{s}"] = rates[s]
        out[f"win_rate_{s}_low"] = lo
        out[f"win_rate_{s}_high"] = hi
    out["first_player_advantage"] = rates[0] - 1.0 / n_seats
    out["chi2"], out["chi2_p"] = core.chi_square_uniform(wins)
    out["balance"] = core.balance(rates)
    for col in means:
        out[f"{col}_mean"] = float(pd.to_numeric(g[col], errors="coerce").astype(float).mean())
    return out


def condition_metrics(
    games: pd.DataFrame | Sequence[Any],
    game: GameName | None = None,
    by: str | Sequence[str] | None = "condition",
) -> pd.DataFrame:
    """One row per condition (the values of column(s) ``by``; None: all games in one row).

    ``games`` is a games table (or records), or an already computed :func:`per_game_metrics`
    table (recognised by its ``winners`` and ``drama`` columns). Columns: the ``by`` keys,
    ``n_games``, ``n_decided``, ``completion_rate``, ``timeout_rate``, ``turns_``/``rounds_``
    ``mean``/``median``/``sd``, per seat s ``wins_s``, ``win_rate_s`` and its Wilson 95%
    interval ``win_rate_s_low``/``_high`` (over the effective number of independent games
    when several games share a setup, see `_effective_sizes`), ``first_player_advantage``,
    ``chi2``, ``chi2_p``, ``balance``, and ``<metric>_mean`` for every per-game metric. Win
    rates are over decided games (a timeout is nobody's win) and a k-way shared win counts 1/k
    for each winner, as Ludii's Balance counts partial wins. Formulas:
    :data:`.registry.CONDITION_METRICS`.

    Raises ValueError if a condition mixes seat counts, KeyError if a ``by`` column is missing.
    """
    df = games_frame(games)
    if {"winners", "drama"} <= set(df.columns):
        per = df
        which = _which_game(per, game)
    else:
        which = _which_game(df, game)
        per = per_game_metrics(df, which)
    keys = [] if by is None else [by] if isinstance(by, str) else list(by)
    absent = [k for k in keys if k not in per.columns]
    if absent:
        raise KeyError(f"no column(s) {absent} to group games by")
    own = registry.get(which).metrics
    means = [c for c in (*GAME_METRICS, *own) if c not in ("n_players", "turns", "rounds")]
    n_seats_all = int(per["n_players"].max()) if len(per) else 0
    groups = per.groupby(keys, sort=True, dropna=False) if keys else [((), per)]
    rows = []
    for key, g in groups:
        seats = g["n_players"].unique()
        if len(seats) != 1:
            raise ValueError(f"condition {key!r} mixes seat counts {sorted(seats)}")
        row = dict(zip(keys, key if isinstance(key, tuple) else (key,), strict=True))
        agg = _aggregate(g, int(seats[0]), means)
        for s in range(int(seats[0]), n_seats_all):  # seats the condition does not have
            for suffix in ("", "_low", "_high"):
                agg[f"win_rate_{s}{suffix}"] = np.nan
            agg[f"wins_{s}"] = np.nan
        rows.append({**row, "n_players": int(seats[0]), **agg})
    return pd.DataFrame(rows)


def setup_feature_table(setups: Iterable[Any], game: str) -> pd.DataFrame:
    """One row per distinct setup: ``setup_id`` and the game's features of it
    (:meth:`ludolab.games.Game.setup_features`; for Catan, the board features of
    :func:`ludolab.research.catan.features.board_features`)."""
    described = registry.get(game)
    seen: dict[str, Mapping[str, float]] = {}
    for setup in setups:
        if setup.id not in seen:
            seen[setup.id] = described.setup_features(setup)
    return pd.DataFrame([{"setup_id": k, **v} for k, v in seen.items()])


def with_setup_features(per_game: pd.DataFrame, setups: Iterable[Any], game: str) -> pd.DataFrame:
    """``per_game`` (any table with a ``setup_id`` column) left-joined with the features of the
    setups played (:func:`setup_feature_table`); games on setups not given get NaN features, and
    a game without features gets the table unchanged.

    Raises KeyError without a ``setup_id`` column, ValueError if a feature name is already a
    column of ``per_game``.
    """
    if "setup_id" not in per_game.columns:
        raise KeyError("per_game has no setup_id column")
    features = setup_feature_table(setups, game)
    clash = sorted(set(features.columns) & set(per_game.columns) - {"setup_id"})
    if clash:
        raise ValueError(f"feature names already used as columns: {clash}")
    if features.empty or list(features.columns) == ["setup_id"]:
        return per_game.copy()
    return per_game.merge(features, on="setup_id", how="left", validate="many_to_one")


__all__ = [
    "condition_metrics",
    "games_frame",
    "per_game_metrics",
    "setup_feature_table",
    "with_setup_features",
]
