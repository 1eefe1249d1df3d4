"""Reading a config: the file, its top-level keys, conditions, sweeps and lineups."""

from __future__ import annotations

import dataclasses
import tomllib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ludolab import games
from ludolab.envs.agents import AgentRegistry, AgentSpecError
from ludolab.games import Game, SetupSetError
from ludolab.research.experiment.config.comparisons import read_comparisons, read_metrics
from ludolab.research.experiment.config.keys import checked_fields, key_name
from ludolab.research.experiment.config.model import (
    AgentLineup,
    Condition,
    ConfigError,
    ExperimentConfig,
)
from ludolab.research.experiment.config.overrides import apply_overrides
from ludolab.research.experiment.config.schema import (
    LINEUP_KEYS,
    Source,
    condition_keys,
    read_options,
    sweep_keys,
    top_keys,
)
from ludolab.research.plots.style import style_from_table


def load_experiment(path: str | Path, overrides: Sequence[str] = ()) -> ExperimentConfig:
    """Read and validate an experiment config (TOML); ConfigError names file, key, allowed.

    ``overrides`` are ``PATH=VALUE`` strings applied to the file's contents first (see
    :func:`apply_overrides`), as ``ludolab run --set`` does."""
    path = Path(path)
    data = apply_overrides(read_toml(path, "experiment config"), overrides)
    label = f"{path} (with --set {' '.join(overrides)})" if overrides else str(path)
    return parse_experiment(data, label, path.resolve().parent, path=path)


def read_toml(path: Path, what: str) -> dict[str, Any]:
    """The TOML file at ``path`` as data; ConfigError when it is missing, not TOML or not
    UTF-8 (``what`` names the kind of file in the message)."""
    if not path.is_file():
        raise ConfigError(f"{path}: no such {what} file")
    try:
        return tomllib.loads(path.read_text())
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: not UTF-8 text; save the config as UTF-8") from None


def parse_experiment(
    data: Mapping[str, Any],
    label: str = "<experiment>",
    base: Path | None = None,
    *,
    path: Path | None = None,
) -> ExperimentConfig:
    """Validate parsed TOML; set paths resolve against ``base`` (default: the working dir)."""
    src = Source(label, base or Path.cwd())
    if "game" not in data:  # `ludolab run` also takes puzzle studies: say so
        known = ", ".join(games.names())
        raise src.fail("game", f"missing; give one of {known} (or sudoku, a puzzle study)")
    if not games.known(data["game"]):
        unknown = games.unknown_game_message(data["game"])
        raise src.fail("game", f"{unknown} (or sudoku, a puzzle study)")
    game = str(data["game"])
    described = games.get(game)
    allowed = top_keys(game)
    # Another game's setup keys (``deals`` in a Catan config): say which key this game uses.
    hints: dict[str, str] = {}
    for other in _other_games(game):
        for theirs, mine in (
            (other.setups_key, described.setups_key),
            (other.games_per_setup_key, described.games_per_setup_key),
        ):
            if theirs not in allowed:
                hints[theirs] = f" for {described.title} (use {mine!r})"
    src.known_keys(data, allowed, "", hints)

    name = src.string(data, "name", "", default=Path(label).stem)
    description = _text(src, data, "description")
    question = _text(src, data, "question")
    # seed, players, boards / deals, games_per_board / games_per_deal, chunk_size: as their
    # fields declare them.
    scalars = {
        f.name: src.value(data, f, "", key_name(f, game)) for f in checked_fields(ExperimentConfig)
    }
    players, setups = scalars["players"], scalars["setups"]
    try:
        described.check_players(players)
    except ValueError as exc:
        raise src.fail("players", str(exc)) from None

    options = read_options(src, data.get("options", {}), game)
    listed = (
        src.tables(data, "conditions", "[[conditions]]")
        if "conditions" in data or "sweep" not in data
        else []
    )
    conditions = tuple(
        _condition(src, entry, i, game, players, setups, options) for i, entry in enumerate(listed)
    )
    if "sweep" in data:
        for i, entry in enumerate(src.tables(data, "sweep", "[[sweep]]")):
            conditions += _sweep(src, entry, i, game, players, setups, options)
    _unique(src, [c.name for c in conditions], "conditions")
    registry = described.agents
    lineups = tuple(
        _lineup(src, entry, i, players, registry)
        for i, entry in enumerate(src.tables(data, "lineups", "[[lineups]]"))
    )
    _unique(src, [lineup.name for lineup in lineups], "lineups")
    metrics = read_metrics(src, data, "metrics", game, players)
    comparisons = read_comparisons(
        src,
        data.get("comparisons", {}),
        game,
        players,
        metrics,
        [c.name for c in conditions],
        [lineup.name for lineup in lineups],
    )
    report = data.get("report", {})
    if not isinstance(report, dict):
        raise src.fail("report", f"expected a table ([report]), got {report!r}")
    try:
        style = style_from_table(report)
    except ValueError as exc:
        at, _, message = str(exc).partition(": ")  # "report.style: expected ..."
        raise src.fail(at, message) from None
    return ExperimentConfig(
        name=name,
        game=game,
        conditions=conditions,
        lineups=lineups,
        options=options,
        metrics=metrics,
        comparisons=comparisons,
        description=description,
        question=question,
        path=path,
        report=style,
        **scalars,
    )


def _text(src: Source, data: Mapping[str, Any], key: str) -> str:
    value = data.get(key, "")
    if not isinstance(value, str):
        raise src.fail(key, f"expected a string, got {value!r}")
    return value.strip()


def _unique(src: Source, names: list[str], key: str) -> None:
    seen: dict[str, int] = {}
    for i, n in enumerate(names):
        if n in seen:
            raise src.fail(
                f"{key}[{i}].name",
                f"duplicate name {n!r} (also {key}[{seen[n]}]); names must be unique",
            )
        seen[n] = i


def _other_games(game: str) -> list[Game]:
    return [games.get(n) for n in games.names() if n != game]


def _condition(
    src: Source,
    entry: Mapping[str, Any],
    i: int,
    game: str,
    players: int,
    setups: int,
    options: Any,
    where: str | None = None,
) -> Condition:
    where = where or f"conditions[{i}]."
    described = games.get(game)
    src.known_keys(entry, condition_keys(game), where)
    constraints = src.string(entry, "constraints", where)
    name = src.string(entry, "name", where, default=constraints)
    sampler = src.choice(entry, "sampler", where, described.samplers, described.default_sampler)
    params = read_params(src, entry.get("params", {}), where + "params")
    path = set_path(src, constraints)
    source = path if path is not None else constraints
    try:
        cset = described.load_set(source, params, players=players, options=options)
        settings = described.sampler_settings(cset, sampler, entry, setups)
    except SetupSetError as exc:
        at = exc.key if exc.key.startswith("options.") else where + exc.key
        raise src.fail(at, str(exc)) from None
    rule_table = entry.get("options", {})
    if not isinstance(rule_table, dict):
        raise src.fail(
            where + "options", "expected a table of rule options, e.g. { vp_to_win = 9 }"
        )
    for key in rule_table:
        if key in described.setup_options:
            raise src.fail(
                f"{where}options.{key}",
                f"'{key}' shapes the {described.title} setups themselves, so every condition "
                f"shares it: set it in [options]; a condition may set the other options",
            )
    cond_options = read_options(src, rule_table, game, where + "options", base=options)
    changes = {k: getattr(cond_options, k) for k in rule_table}
    return Condition(
        name,
        constraints,
        sampler,
        params,
        path,
        cset,
        settings,
        cond_options,
        changes,
    )


def _sweep(
    src: Source,
    entry: Mapping[str, Any],
    i: int,
    game: str,
    players: int,
    setups: int,
    options: Any,
) -> tuple[Condition, ...]:
    """A ``[[sweep]]`` table expanded into one condition per value (named ``NAME=VALUE``)."""
    where = f"sweep[{i}]."
    extra = games.get(game).condition_keys
    src.known_keys(entry, sweep_keys(game), where)
    parameter = src.string(entry, "parameter", where)
    values = entry.get("values")
    if (
        not isinstance(values, list)
        or len(values) < 2
        or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in values)
        or len(set(values)) != len(values)
    ):
        raise src.fail(
            where + "values",
            f"expected a list of two or more distinct numbers (a dose-response needs a numeric "
            f"axis), got {values!r}",
        )
    base = {k: entry[k] for k in ("constraints", "sampler", "params", *extra) if k in entry}
    base.setdefault("constraints", src.string(entry, "constraints", where))
    label = src.string(entry, "name", where, default=parameter.rpartition(".")[2])
    if parameter.startswith("options."):
        option = parameter.removeprefix("options.")
        described = games.get(game)
        names = described.option_names()
        if option not in names or option in described.setup_options:
            settable = [n for n in names if n not in described.setup_options]
            raise src.fail(
                where + "parameter",
                f"{parameter!r} is not a rule option a condition can set; options: "
                f"{', '.join('options.' + n for n in settable)}",
            )
        changes = [{"options": {option: v}} for v in values]
    else:
        _check_sweep_parameter(src, where, game, base, parameter)
        given = read_params(src, base.get("params", {}), where + "params")
        changes = [{"params": {**given, parameter: v}} for v in values]
    out = []
    for v, change in zip(values, changes, strict=True):
        cond = _condition(
            src,
            {**base, **change, "name": f"{label}={v:g}"},
            i,
            game,
            players,
            setups,
            options,
            where,
        )
        out.append(
            dataclasses.replace(cond, sweep=label, sweep_value=float(v), sweep_parameter=parameter)
        )
    return tuple(out)


def _check_sweep_parameter(
    src: Source, where: str, game: str, base: Mapping[str, Any], parameter: str
) -> None:
    """ConfigError unless ``parameter`` (``constraint.param``) belongs to the sweep's set."""
    constraints = str(base["constraints"])
    try:
        known = games.get(game).set_parameters(set_path(src, constraints) or constraints)
    except SetupSetError as exc:
        message = f"{parameter!r}: {exc}" if exc.key == "parameter" else str(exc)
        raise src.fail(where + exc.key, message) from None
    if parameter not in known:
        raise src.fail(
            where + "parameter",
            f"{parameter!r} is not a parameter of set {constraints!r}; its parameters: "
            f"{', '.join(known) or 'none'}, or a rule option 'options.NAME'",
        )


def set_path(src: Source, constraints: str) -> Path | None:
    """The file a set given by path names (relative to the config), None for a shipped set."""
    is_file = constraints.endswith(".toml") or "/" in constraints or "\\" in constraints
    return (src.base / constraints).resolve() if is_file else None


def read_params(src: Source, value: Any, where: str) -> dict[str, Any]:
    """``{"c.p": v}`` or ``{c = {p = v}}`` -> flat ``{"c.p": v}``."""
    if not isinstance(value, dict):
        raise src.fail(where, f"expected a table of 'constraint.param' = value, got {value!r}")
    flat: dict[str, Any] = {}
    for key, v in value.items():
        if isinstance(v, dict):
            for p, pv in v.items():
                flat[f"{key}.{p}"] = pv
        elif "." in key:
            flat[key] = v
        else:
            raise src.fail(
                f"{where}.{key}",
                'give a parameter as "constraint.param" = value or constraint = { param = value }',
            )
    return flat


def _lineup(
    src: Source, entry: Mapping[str, Any], i: int, players: int, registry: AgentRegistry
) -> AgentLineup:
    where = f"lineups[{i}]."
    src.known_keys(entry, LINEUP_KEYS, where)
    raw = entry.get("seats")
    if isinstance(raw, str):
        raw = [raw] * players
    if not isinstance(raw, list) or not all(isinstance(s, str) for s in raw):
        raise src.fail(
            where + "seats",
            f"expected a list of {players} agent specs (one per seat) or one spec for every "
            f"seat, got {raw!r}",
        )
    if len(raw) != players:
        raise src.fail(where + "seats", f"{len(raw)} agents for {players} players")
    seats = []
    for k, text in enumerate(raw):
        try:
            seats.append(registry.parse(text).spec)
        except AgentSpecError as exc:
            raise src.fail(f"{where}seats[{k}]", str(exc)) from None
    name = src.string(entry, "name", where, default=",".join(seats))
    scalars = {f.name: src.value(entry, f, where) for f in checked_fields(AgentLineup)}
    return AgentLineup(name, tuple(seats), **scalars)
