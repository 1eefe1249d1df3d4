"""Reading a config: the file, its top-level keys, conditions, sweeps and lineups."""

from __future__ import annotations

import dataclasses
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import fields
from pathlib import Path
from typing import Any

from ludolab.envs.agents import AgentRegistry, AgentSpecError
from ludolab.envs.catan.engine import GameOptions
from ludolab.envs.gallery.engine import GalleryOptions
from ludolab.envs.registries import registry_of
from ludolab.research.catan.constraint_set import (
    ConstraintSet,
    ConstraintSetError,
    load_constraint_set,
)
from ludolab.research.catan.constraints import OBJECTIVES
from ludolab.research.catan.feasibility import impossibility
from ludolab.research.experiment.config.comparisons import read_comparisons, read_metrics
from ludolab.research.experiment.config.keys import checked_fields, key_name
from ludolab.research.experiment.config.model import (
    DEFAULT_OBJECTIVE,
    DEFAULT_SAMPLER,
    GAME_TITLES,
    GAMES,
    GAMES_PER_SETUP_KEY,
    OPTIONS_CLASS,
    PLAYERS_BY_GAME,
    SAMPLERS_BY_GAME,
    SETUP_KEY,
    AgentLineup,
    Condition,
    ConfigError,
    ExperimentConfig,
)
from ludolab.research.experiment.config.overrides import apply_overrides
from ludolab.research.experiment.config.schema import (
    CONDITION_KEYS,
    LINEUP_KEYS,
    SETUP_OPTIONS,
    SWEEP_KEYS,
    TOP_KEYS,
    Source,
    read_options,
)
from ludolab.research.gallery.deals import (
    DealConstraintError,
    DealContext,
    DealSet,
    as_deal_set,
    load_deal_set,
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
    if data.get("game") not in GAMES:  # `ludolab run` also takes puzzle studies: say so
        given = f"{data['game']!r} is not" if "game" in data else "missing; give"
        raise src.fail("game", f"{given} one of {', '.join(GAMES)} (or sudoku, a puzzle study)")
    game = str(data["game"])
    other = "catan" if game == "gallery" else "gallery"
    hints = {
        SETUP_KEY[other]: f" for {GAME_TITLES[game]} (use {SETUP_KEY[game]!r})",
        GAMES_PER_SETUP_KEY[other]: (
            f" for {GAME_TITLES[game]} (use {GAMES_PER_SETUP_KEY[game]!r})"
        ),
    }
    allowed = [k for k in TOP_KEYS if k not in (SETUP_KEY[other], GAMES_PER_SETUP_KEY[other])]
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
    lo, hi = PLAYERS_BY_GAME[game]
    if not lo <= players <= hi:
        raise src.fail("players", f"{GAME_TITLES[game]} takes {lo}-{hi} players, got {players}")

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
    registry = registry_of(game)
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


def _condition(
    src: Source,
    entry: Mapping[str, Any],
    i: int,
    game: str,
    players: int,
    setups: int,
    options: GameOptions | GalleryOptions,
    where: str | None = None,
) -> Condition:
    where = where or f"conditions[{i}]."
    src.known_keys(entry, CONDITION_KEYS, where)
    constraints = src.string(entry, "constraints", where)
    name = src.string(entry, "name", where, default=constraints)
    sampler = src.choice(entry, "sampler", where, SAMPLERS_BY_GAME[game], DEFAULT_SAMPLER[game])
    params = read_params(src, entry.get("params", {}), where + "params")
    path = set_path(src, constraints)
    source = path if path is not None else constraints
    objective: str | None = None
    time_limit: float | None = None
    if game == "catan":
        try:
            load_constraint_set(source)
        except ConstraintSetError as exc:
            raise src.fail(where + "constraints", str(exc)) from None
        try:
            cset: ConstraintSet | DealSet = load_constraint_set(source, dict(params), "params")
        except ConstraintSetError as exc:
            raise src.fail(where + "params", str(exc)) from None
        assert isinstance(cset, ConstraintSet)
        impossible = impossibility(cset)
        if impossible:
            raise src.fail(
                where + ("params" if params else "constraints"),
                f"{cset.label} has no board: {impossible}; loosen it",
            )
        if sampler in ("uniform", "rejection", "chain") and not cset.has_python_faces:
            raise src.fail(
                where + "sampler",
                f"'{sampler}' needs a Python face for every constraint, and {cset.label} has "
                f"raw MiniZinc constraints; use 'solver' (NOT uniform), 'enumerate' or 'optimise'",
            )
        if sampler == "optimise":
            objective = src.choice(entry, "objective", where, list(OBJECTIVES), DEFAULT_OBJECTIVE)
            if setups != 1:
                raise src.fail(
                    where + "sampler",
                    f"'optimise' gives one board (the best one), but boards = {setups}; set "
                    f"boards = 1 or use uniform, solver or enumerate",
                )
        elif "objective" in entry:
            raise src.fail(where + "objective", "only with sampler = 'optimise'")
        if "time_limit" in entry:
            if sampler == "rejection":
                raise src.fail(where + "time_limit", "not with sampler 'rejection' (no solver)")
            value = entry["time_limit"]
            if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
                raise src.fail(where + "time_limit", f"expected seconds > 0, got {value!r}")
            time_limit = float(value)
    else:
        for key in ("objective", "time_limit"):
            if key in entry:
                raise src.fail(where + key, "only for Catan board samplers")
        try:
            base = load_deal_set(source)
        except DealConstraintError as exc:
            raise src.fail(where + "constraints", str(exc)) from None
        assert isinstance(options, GalleryOptions)
        try:
            ctx = DealContext(players, options.hand_size, options.symbols)
        except DealConstraintError as exc:
            raise src.fail("options.hand_size", str(exc)) from None
        try:
            base.bind(ctx)
        except DealConstraintError as exc:
            raise src.fail(where + "constraints", str(exc)) from None
        try:
            cset = as_deal_set(base, dict(params), "params")
            cset.bind(ctx)
        except DealConstraintError as exc:
            raise src.fail(where + "params", str(exc)) from None
    rule_table = entry.get("options", {})
    if not isinstance(rule_table, dict):
        raise src.fail(
            where + "options", "expected a table of rule options, e.g. { vp_to_win = 9 }"
        )
    for key in rule_table:
        if key in SETUP_OPTIONS[game]:
            raise src.fail(
                f"{where}options.{key}",
                f"'{key}' shapes the {GAME_TITLES[game]} setups themselves, so every condition "
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
        objective,
        time_limit,
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
    options: GameOptions | GalleryOptions,
) -> tuple[Condition, ...]:
    """A ``[[sweep]]`` table expanded into one condition per value (named ``NAME=VALUE``)."""
    where = f"sweep[{i}]."
    src.known_keys(entry, SWEEP_KEYS, where)
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
    base = {k: entry[k] for k in ("constraints", "sampler", "params", "time_limit") if k in entry}
    base.setdefault("constraints", src.string(entry, "constraints", where))
    label = src.string(entry, "name", where, default=parameter.rpartition(".")[2])
    if parameter.startswith("options."):
        option = parameter.removeprefix("options.")
        names = [f.name for f in fields(OPTIONS_CLASS[game])]
        if option not in names or option in SETUP_OPTIONS[game]:
            settable = [n for n in names if n not in SETUP_OPTIONS[game]]
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
    if game != "catan":
        raise src.fail(
            where + "parameter",
            f"{parameter!r}: a Masters Gallery sweep varies a rule option ('options.NAME'); "
            "deal-set parameters cannot be swept yet",
        )
    constraints = str(base["constraints"])
    try:
        cset = load_constraint_set(set_path(src, constraints) or constraints)
    except ConstraintSetError as exc:
        raise src.fail(where + "constraints", str(exc)) from None
    known = [f"{c.name}.{p}" for c in cset.constraints for p in c.params]
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
