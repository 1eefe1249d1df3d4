"""Metrics over tables of games: one row per game, one row per condition, board features.

The common input is a pandas DataFrame with one row per game, as written by the simulations
(``records_table(...).to_pandas()`` or ``pd.read_parquet("games.parquet")``): the fields of
:class:`envs.catan.record.GameRecord` or :class:`envs.gallery.record.GalleryRecord`, plus any
extra columns (``game``, ``condition``, ...) which are carried through untouched. A list of
records is accepted too (converted with ``to_dict``). Definitions: :mod:`.registry`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from typing import Any, Literal

import numpy as np
import pandas as pd

from envs.catan.board import Board
from envs.catan.record import GameRecord
from envs.gallery.record import GalleryRecord
from research.catan.features import board_features
from research.metrics import core
from research.metrics.registry import CATAN_METRICS, GALLERY_METRICS, GAME_METRICS

GameName = Literal["catan", "gallery"]

_RECORD_FIELDS: dict[str, frozenset[str]] = {
    "catan": frozenset(f.name for f in dataclasses.fields(GameRecord)),
    "gallery": frozenset(f.name for f in dataclasses.fields(GalleryRecord)),
}
_KEEP: dict[str, tuple[str, ...]] = {
    "catan": ("board_id", "seed", "agents"),
    "gallery": ("deal_id", "seed", "agents"),
}


def games_frame(games: pd.DataFrame | Sequence[Any]) -> pd.DataFrame:
    """The games as a DataFrame: returned as is if already one, else one row per record (or
    dict) with a ``game`` column numbering them from 0, as ``records_table`` does."""
    if isinstance(games, pd.DataFrame):
        return games
    rows = [g if isinstance(g, dict) else g.to_dict() for g in games]
    return pd.DataFrame([{"game": i, **row} for i, row in enumerate(rows)])


def _which_game(df: pd.DataFrame, game: GameName | None) -> GameName:
    if game is None:
        if "board_id" in df.columns:
            return "catan"
        if "deal_id" in df.columns:
            return "gallery"
        raise ValueError("cannot tell the game: no board_id (Catan) or deal_id (Gallery) column")
    if game not in _RECORD_FIELDS:
        raise ValueError(f"game must be 'catan' or 'gallery', got {game!r}")
    return game


def _matrix(cell: Any, n: int) -> np.ndarray:
    """A (rows, n) float array from a nested list/tuple/array cell (Parquet gives object arrays
    of arrays)."""
    rows = [np.asarray(row, dtype=float) for row in cell]
    return np.vstack(rows).reshape(-1, n) if rows else np.zeros((0, n))


def _vector(cell: Any) -> np.ndarray:
    """A float vector from a list/array cell; None and NaN entries become NaN."""
    return np.array([np.nan if x is None or pd.isna(x) else float(x) for x in cell], dtype=float)


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


def _catan_row(row: pd.Series) -> dict[str, Any]:
    final = np.asarray(row["final_vp"], dtype=float)
    n = final.size
    winner = None if row["winner"] is None or pd.isna(row["winner"]) else int(row["winner"])
    winners = () if winner is None else (winner,)
    v = _matrix(row["vp_by_turn"], n)
    produced = _matrix(row["produced"], 5)
    first_city = _vector(row["first_city_turn"])
    any_city = bool(np.isfinite(first_city).any())
    return {
        "n_players": n,
        "turns": int(row["turns"]),
        "rounds": int(row["rounds"]),
        "truncated": bool(row["truncated"]),
        "winner": winner,
        "winners": winners,
        "shared_win": False,
        **_common(v, final, winners),
        "income_gini": core.gini(produced.sum(axis=1)),
        "n_actions": int(row["n_actions"]),
        "sevens": int(row["sevens"]),
        "robber_moves": int(row["robber_moves"]),
        "maritime_trades": int(row["maritime_trades"]),
        "domestic_trades": int(row["domestic_trades"]),
        "trades": int(row["maritime_trades"]) + int(row["domestic_trades"]),
        "first_city_turn": float(np.nanmin(first_city)) if any_city else np.nan,
        "winner_first_city_turn": np.nan if winner is None else float(first_city[winner]),
    }


def _gallery_row(row: pd.Series) -> dict[str, Any]:
    final = np.asarray(row["final_scores"], dtype=float)
    n = final.size
    winners = tuple(sorted(int(s) for s in row["winners"]))
    v = np.cumsum(_matrix(row["round_scores"], n), axis=0)
    return {
        "n_players": n,
        "turns": int(np.sum(np.asarray(row["turns_per_round"], dtype=np.int64))),
        "rounds": int(v.shape[0]),
        "truncated": False,
        "winner": winners[0] if len(winners) == 1 else None,
        "winners": winners,
        "shared_win": len(winners) > 1,
        **_common(v, final, winners),
        "income_gini": core.gini(final),
        "n_actions": int(row["n_actions"]),
        "n_winners": len(winners),
        "deck_ran_out": bool(row["deck_ran_out"]),
        "missed_draws": int(row["missed_draws"]),
    }


def per_game_metrics(
    games: pd.DataFrame | Sequence[Any], game: GameName | None = None
) -> pd.DataFrame:
    """One row per game: identifiers, length, outcome and every per-game metric.

    Columns: the input's non-record columns (e.g. ``game``, ``condition``) and
    ``board_id``/``deal_id``, ``seed``, ``agents`` (as tuples), then ``n_players``, ``turns``,
    ``rounds``, ``truncated``, ``winner`` (single winner seat, <NA> if none or shared),
    ``winners`` (tuple of seats, empty if none), ``shared_win``, ``score_spread``,
    ``winner_margin``, ``lead_changes``, ``lead_change``, ``winner_trailing``, ``drama``,
    ``decisiveness``, ``decisiveness_threshold``, ``income_gini`` and the game's own
    (:data:`.registry.CATAN_METRICS` / :data:`.registry.GALLERY_METRICS`). Formulas:
    :data:`.registry.METRICS`. Outcome metrics (margin, drama, decisiveness) are NaN for games
    without a winner (Catan games cut off by the turn limit).

    ``game`` is ``"catan"`` or ``"gallery"``; None infers it from a ``board_id`` / ``deal_id``
    column.
    """
    df = games_frame(games)
    which = _which_game(df, game)
    fields = _RECORD_FIELDS[which]
    missing = sorted(f for f in fields if f not in df.columns and f != "n_players")
    if missing:
        raise ValueError(f"not a {which} games table: missing columns {missing}")
    keep = [c for c in df.columns if c not in fields] + list(_KEEP[which])
    make = _catan_row if which == "catan" else _gallery_row
    rows = [make(row) for _, row in df.iterrows()]
    own = CATAN_METRICS if which == "catan" else GALLERY_METRICS
    order = ["n_players", "turns", "rounds", "truncated", "winner", "winners", "shared_win"]
    order += [c for c in GAME_METRICS if c not in order] + [c for c in own if c not in order]
    metrics = pd.DataFrame(rows, index=df.index, columns=order)
    metrics["winner"] = metrics["winner"].astype("Int64")
    ids = df[keep].copy()
    for c in keep:
        if ids[c].dtype == object:
            ids[c] = ids[c].map(_hashable)
    return pd.concat([ids, metrics], axis=1).reset_index(drop=True)


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
    for s in range(n_seats):
        lo, hi = core.wilson_interval(wins[s], nd)
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
    interval ``win_rate_s_low``/``_high``, ``first_player_advantage``, ``chi2``, ``chi2_p``,
    ``balance``, and ``<metric>_mean`` for every per-game metric. Win rates are over decided
    games (a timeout is nobody's win) and a k-way shared win counts 1/k for each winner,
    as Ludii's Balance counts partial wins. Formulas: :data:`.registry.CONDITION_METRICS`.

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
    own = CATAN_METRICS if which == "catan" else GALLERY_METRICS
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


def board_feature_table(boards: Iterable[Board]) -> pd.DataFrame:
    """One row per distinct board: ``board_id`` and the columns of
    :func:`research.catan.features.board_features`."""
    seen: dict[str, dict[str, float]] = {}
    for board in boards:
        if board.id not in seen:
            seen[board.id] = board_features(board)
    return pd.DataFrame([{"board_id": k, **v} for k, v in seen.items()])


def with_board_features(per_game: pd.DataFrame, boards: Iterable[Board]) -> pd.DataFrame:
    """``per_game`` (any table with a ``board_id`` column) left-joined with the features of the
    boards played; games on boards not given get NaN features.

    Raises KeyError without a ``board_id`` column, ValueError if a feature name is already a
    column of ``per_game``.
    """
    if "board_id" not in per_game.columns:
        raise KeyError("per_game has no board_id column")
    features = board_feature_table(boards)
    clash = sorted(set(features.columns) & set(per_game.columns) - {"board_id"})
    if clash:
        raise ValueError(f"feature names already used as columns: {clash}")
    if features.empty:
        return per_game.copy()
    return per_game.merge(features, on="board_id", how="left", validate="many_to_one")


__all__ = [
    "board_feature_table",
    "condition_metrics",
    "games_frame",
    "per_game_metrics",
    "with_board_features",
]
