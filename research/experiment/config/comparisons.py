"""The metrics a config names and the comparisons it asks for: metric names resolved against the
registry, the ``[comparisons]`` table (primary metrics, margins, the skill order)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import numpy as np

from ludolab import games
from ludolab.research.experiment.config.keys import checked_fields
from ludolab.research.experiment.config.model import Comparisons
from ludolab.research.experiment.config.schema import COMPARISON_KEYS, Source
from ludolab.research.metrics.registry import CONDITION_METRICS, GAME_METRICS, METRICS


def game_metrics(game: str) -> list[str]:
    """Registry names of the per-game metrics of ``game`` (shared ones it supports, then its
    own)."""
    described = games.get(game)
    shared = [m for m in GAME_METRICS if m not in described.unsupported_metrics]
    return shared + [f"{game}.{k}" for k in described.metrics]


def allowed_metrics(game: str) -> list[str]:
    """Every metric name a config for ``game`` may list (``<s>``, ``<metric>`` templates as in
    :data:`ludolab.research.metrics.METRICS`; instances such as ``condition.win_rate_0`` also
    pass)."""
    return game_metrics(game) + [f"condition.{k}" for k in CONDITION_METRICS]


def resolve_metric(name: str, game: str, players: int) -> str | None:
    per_game = game_metrics(game)
    if name in per_game:
        return name
    if f"{game}.{name}" in per_game:
        return f"{game}.{name}"
    if not name.startswith("condition."):
        return None
    col = name.removeprefix("condition.")
    if col in CONDITION_METRICS:
        return name
    columns = {m.rpartition(".")[2] for m in per_game}
    for template in CONDITION_METRICS:
        if "<s>" in template:
            pattern = re.escape(template).replace(re.escape("<s>"), r"(\d+)")
            m = re.fullmatch(pattern, col)
            if m and int(m.group(1)) < players:
                return name
        elif template == "<metric>_mean" and col.removesuffix("_mean") in columns:
            return name
    return None


def read_metrics(
    src: Source, data: Mapping[str, Any], key: str, game: str, players: int, where: str = ""
) -> tuple[str, ...]:
    if key not in data:
        return tuple(allowed_metrics(game))
    value = data[key]
    if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
        raise src.fail(where + key, f"expected a non-empty list of metric names, got {value!r}")
    out: list[str] = []
    for i, name in enumerate(value):
        resolved = resolve_metric(name, game, players)
        if resolved is None:
            prefix = name.partition(".")[0]
            unsupported = games.get(game).unsupported_metrics
            why = (
                f"a {games.get(prefix).title} metric; this experiment plays "
                f"{games.get(game).title}"
                if prefix != game and games.known(prefix)
                else f"not supported by {games.get(game).title}: {unsupported[name]}"
                if name in unsupported
                else "not a metric"
            )
            raise src.fail(
                f"{where}{key}[{i}]",
                f"{name!r} is {why}; allowed: {', '.join(allowed_metrics(game))} (<s> a seat "
                f"0..{players - 1}, <metric> a per-game metric)",
            )
        if resolved not in out:
            out.append(resolved)
    return tuple(out)


def read_comparisons(
    src: Source,
    table: Any,
    game: str,
    players: int,
    metrics: tuple[str, ...],
    conditions: list[str],
    lineups: list[str],
) -> Comparisons:
    if not isinstance(table, dict):
        raise src.fail("comparisons", "expected a table ([comparisons])")
    where = "comparisons."
    src.known_keys(table, COMPARISON_KEYS, where)
    baseline = table.get("baseline")
    if baseline is not None and baseline not in conditions:
        raise src.fail(
            where + "baseline",
            f"{baseline!r} is not one of the conditions: {', '.join(conditions)}",
        )
    # paired, correction, alpha, n_boot, mixed_max_games: as their fields declare them.
    scalars = {f.name: src.value(table, f, where) for f in checked_fields(Comparisons)}
    testable = [m for m in metrics if m in game_metrics(game) and m != "n_players"]
    if "metrics" in table:
        chosen = read_metrics(src, table, "metrics", game, players, where)
        for i, m in enumerate(chosen):
            if m not in testable:
                raise src.fail(
                    f"{where}metrics[{i}]",
                    f"{m!r} cannot be tested: comparisons test per-game metrics listed in "
                    f"'metrics'; allowed: {', '.join(testable)}",
                )
        tested = chosen
    else:
        tested = tuple(testable)
    primary: tuple[str, ...] = ()
    if "primary" in table:
        value = table["primary"]
        listed = {"primary": [value] if isinstance(value, str) else value}
        primary = read_metrics(src, listed, "primary", game, players, where)
        for i, m in enumerate(primary):
            if m not in tested:
                raise src.fail(
                    f"{where}primary[{i}]",
                    f"{m!r} is not a tested metric; the primary metrics must be among "
                    f"comparisons.metrics: {', '.join(tested)}",
                )
    margins = _margins(src, table.get("margins", {}), game, players, tested, where)
    skill = _skill(src, table, lineups, baseline, where)
    return Comparisons(
        baseline=baseline,
        metrics=tested,
        primary=primary,
        margins=margins,
        skill=skill,
        **scalars,
    )


def _skill(
    src: Source, table: Mapping[str, Any], lineups: list[str], baseline: str | None, where: str
) -> tuple[str, ...]:
    """``comparisons.skill``: two or more distinct lineup names, least skilled first."""
    if "skill" not in table:
        return ()
    value = table["skill"]
    where += "skill"
    if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
        raise src.fail(where, f"expected a list of lineup names, got {value!r}")
    if len(value) < 2:
        raise src.fail(where, f"name two or more lineups, least skilled first; got {value!r}")
    for i, name in enumerate(value):
        if name not in lineups:
            raise src.fail(
                f"{where}[{i}]", f"{name!r} is not one of the lineups: {', '.join(lineups)}"
            )
        if name in value[:i]:
            raise src.fail(f"{where}[{i}]", f"{name!r} is named twice")
    if baseline is None:
        raise src.fail(
            where,
            "needs comparisons.baseline: each condition's effect, and how it changes with "
            "skill, is measured against the baseline condition",
        )
    return tuple(value)


def metric_unit(name: str) -> str:
    """The unit of a per-game metric (registry name), from the metric registry."""
    return METRICS[name].unit


def _margins(
    src: Source,
    table: Any,
    game: str,
    players: int,
    tested: tuple[str, ...],
    where: str,
) -> dict[str, float]:
    where += "margins"
    if not isinstance(table, dict):
        raise src.fail(where, "expected a table of metric = smallest difference that matters")
    out: dict[str, float] = {}
    for key, value in table.items():
        path = f"{where}.{key}"
        metric = resolve_metric(key, game, players)
        if metric is None or metric not in tested:
            raise src.fail(path, f"{key!r} is not a tested metric; tested: {', '.join(tested)}")
        unit = metric_unit(metric)
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise src.fail(path, f"expected a number in the metric's unit ({unit}), got {value!r}")
        value = float(value)
        if not np.isfinite(value) or value <= 0:
            raise src.fail(path, f"expected a positive number in {unit}, got {value!r}")
        bounded = re.search(r"\[0, ([0-9.()/n -]+)\]|\(0, 1\]", unit)
        if bounded and value >= 1:
            raise src.fail(
                path,
                f"{value:g} is not a difference in {unit}: {metric} lies between 0 and 1, so "
                f"a margin must be below 1 (a percentage? {value:g}% is {value / 100:g})",
            )
        out[metric] = value
    return out
