"""A design config: an experiment's file with a ``[design]`` table in place of its conditions.

Read by :func:`load_design`; every value is checked before anything is written or played, and a
bad one raises :class:`~ludolab.research.experiment.config.ConfigError` naming the file, the
key and what is allowed (the package docstring shows the format).
"""

from __future__ import annotations

import math
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ludolab import games as registry
from ludolab.games import SetupSetError
from ludolab.research.experiment.config import (
    ConfigError,
    apply_overrides,
    game_metrics,
    parse_experiment,
)
from ludolab.research.experiment.config.parse import read_params, read_toml, set_path
from ludolab.research.experiment.config.schema import Source, top_keys

SWITCH = ("on", "off")
"""The choices of a parameter that turns a constraint of the base set on or off."""
GOALS = ("minimize", "maximize")
DESIGN_KEYS = (
    "constraints",
    "sampler",
    "baseline",
    "parameters",
    "objectives",
    "trials",
    "games",
    "minutes",
    "rungs",
    "startup_trials",
    "sampling_seconds",
    "storage",
    "confirm",
)
def design_top_keys(game: object) -> tuple[str, ...]:
    """The keys a design config of ``game`` may hold at its top level: an experiment's, less
    its conditions, sweeps and comparisons, plus ``[design]``."""
    return (
        *(k for k in top_keys(game) if k not in ("conditions", "sweep", "comparisons")),
        "design",
    )


PARAMETER_KEYS = ("name", "low", "high", "step", "log", "choices")
OBJECTIVE_KEYS = ("metric", "goal", "target", "margin")


def confirm_keys(game: registry.Game) -> tuple[str, ...]:
    """The keys of ``[design.confirm]`` for ``game``, named by its setups (Catan: ``boards``,
    ``min_boards``, ``max_boards``, ``games_per_board``)."""
    plural = game.setups_key
    return (
        "candidates",
        plural,
        f"min_{plural}",
        f"max_{plural}",
        game.games_per_setup_key,
        "pilots",
    )


@dataclass(frozen=True)
class Parameter:
    """One dimension of the search.

    Attributes:
        name: ``constraint.param`` (a parameter of the base set), ``options.NAME`` (a rule
            option), or a constraint's name (then ``choices`` are ``on`` / ``off``).
        kind: ``int`` or ``float`` (a range from ``low`` to ``high``), ``choice`` (one of
            ``choices``), ``switch`` (a constraint of the base set on or off).
        low, high: the range's ends, both included (numbers only).
        step: an integer range's step (1 unless given); a float range's, or None.
        log: sample a numeric range on a log scale.
        choices: the values of a ``choice`` or ``switch``.
    """

    name: str
    kind: str
    low: float | None = None
    high: float | None = None
    step: float | None = None
    log: bool = False
    choices: tuple[Any, ...] = ()


@dataclass(frozen=True)
class Objective:
    """One aim of the search, on a per-game metric's mean over a candidate's games.

    Attributes:
        metric: the metric's registry name (``turns``, ``first_seat_win``, or a game's own,
            ``<game>.<column>``).
        goal: ``minimize`` or ``maximize`` the mean, or ``target``: bring the mean as close to
            ``target`` as possible (the score is the distance ``|mean - target|``, minimised).
        target: the value aimed at (``goal = "target"`` only), in the metric's unit.
        margin: the smallest change of the mean that matters, in the metric's unit: the
            confirmation run is sized to detect it (None: sized for Cohen's d = 0.5).
    """

    metric: str
    goal: str
    target: float | None = None
    margin: float | None = None

    @property
    def direction(self) -> str:
        """Optuna's direction for :meth:`score`."""
        return "maximize" if self.goal == "maximize" else "minimize"

    @property
    def column(self) -> str:
        """The metric's per-game column (``<game>.trades`` -> ``trades``)."""
        return self.metric.partition(".")[2] if "." in self.metric else self.metric

    def score(self, mean: float) -> float:
        """The value the search optimises, from the metric's mean."""
        return abs(mean - self.target) if self.target is not None else mean

    def describe(self) -> str:
        """``turns: target 65``, ``lead_change: maximize``."""
        what = f"target {self.target:g}" if self.target is not None else self.goal
        return f"{self.metric}: {what}"


@dataclass(frozen=True)
class Confirmation:
    """How the best candidates are confirmed on fresh seeds (an ordinary ``ludolab run``).

    Attributes:
        candidates: how many of the best candidates are confirmed against the baseline.
        boards: setups per condition; None sizes the run with ``ludolab plan`` (its
            recommendation, kept within ``min_boards`` .. ``max_boards``).
        games_per_setup: games per setup in the confirmation run.
        pilots: the plan's pilot seeds.
    """

    candidates: int = 1
    setups: int | None = None
    min_setups: int = 20
    max_setups: int = 200
    games_per_setup: int = 10
    pilots: int = 2


@dataclass(frozen=True)
class DesignSpec:
    """A validated design config.

    Attributes:
        name: the design's name (its results folder).
        game: the registered game's name; ``seed`` the master seed; ``players`` seats.
        constraints: the base set every candidate starts from (a shipped set or a path).
        sampler: how each candidate's setups are drawn.
        baseline: the baseline's parameter values (``{}``: the base set as it is); it is
            evaluated like a candidate, and the confirmation compares with it.
        parameters: the search space.
        objectives: one (single-objective search, TPE with successive halving) or more (TPE in
            its multi-objective form, MOTPE, without pruning).
        trials, games, minutes: the budget; the search stops at whichever comes first (None:
            no bound of that kind; at least one is given).
        setups: setups per rung; a candidate's full evaluation plays ``rungs`` of them.
        games_per_setup: game seeds per setup.
        rungs: batches of setups a candidate is evaluated on, one after the other; after each,
            a single-objective search may stop a poor candidate (successive halving).
        startup_trials: random trials before the sampler models the results.
        sampling_seconds: how long a candidate's sampler may search for setups before the
            candidate is reported infeasible.
        storage: Optuna's storage URL; None: SQLite in the design's folder.
        confirm: see :class:`Confirmation`.
        experiment: the file's other keys (lineups, options, metrics, [comparisons] aside),
            the common part of every config the search and the confirmation build.
        path: the file, or None.
        base: the folder relative set paths resolve against.
        label: the file's name in messages.
    """

    name: str
    game: str
    seed: int
    players: int
    constraints: str
    sampler: str
    baseline: Mapping[str, Any]
    parameters: tuple[Parameter, ...]
    objectives: tuple[Objective, ...]
    trials: int | None
    games: int | None
    minutes: float | None
    setups: int
    games_per_setup: int
    rungs: int
    startup_trials: int
    sampling_seconds: float
    storage: str | None
    confirm: Confirmation
    experiment: Mapping[str, Any] = field(default_factory=dict)
    path: Path | None = None
    base: Path = Path(".")
    label: str = "<design>"

    @property
    def described(self) -> registry.Game:
        """The game's description."""
        return registry.get(self.game)

    @property
    def set_source(self) -> str | Path:
        """The base set as the game's set hooks take it: a shipped set's name, or its file."""
        return set_path(Source(self.label, self.base), self.constraints) or self.constraints

    @property
    def set_reference(self) -> str:
        """The base set as a config names it from any folder: a shipped set's name, or the
        absolute path of a set file."""
        path = set_path(Source(self.label, self.base), self.constraints)
        return str(path) if path is not None else self.constraints

    def baseline_values(self) -> dict[str, Any]:
        """Every searched parameter's value in the baseline: given in ``baseline``, else the
        base set's (a constraint is on), else the rule's default."""
        constraints = self.described.set_constraints(self.set_source)
        options = self.described.default_options()
        out: dict[str, Any] = {}
        for p in self.parameters:
            kind = _kind_of(p.name)
            if kind == "switch":
                out[p.name] = "on"
            elif kind == "option":
                out[p.name] = getattr(options, p.name.removeprefix("options."))
            else:
                c_name, _, param = p.name.partition(".")
                out[p.name] = constraints[c_name][param]
        return {**out, **self.baseline}

    def split(
        self, values: Mapping[str, Any]
    ) -> tuple[dict[str, Any], dict[str, Any], tuple[str, ...]]:
        """The candidate with parameter ``values`` (the baseline's values under them) as its
        set parameters ``{"c.p": v}``, rule options ``{"NAME": v}`` and the constraints
        switched off (their parameters dropped)."""
        merged = {**self.baseline, **values}
        off = tuple(sorted(k for k, v in merged.items() if _kind_of(k) == "switch" and v == "off"))
        params = {
            k: v
            for k, v in merged.items()
            if _kind_of(k) == "param" and k.partition(".")[0] not in off
        }
        options = {
            k.removeprefix("options."): v for k, v in merged.items() if _kind_of(k) == "option"
        }
        return params, options, off

    def set_text(self, off: Sequence[str]) -> str:
        """The text of the base set's file with the constraints ``off`` removed (a new set,
        named for what it leaves out; the game's ``set_without``)."""
        return self.described.set_without(self.set_source, off)

    def condition(
        self, values: Mapping[str, Any], name: str, set_file: str | None = None
    ) -> dict[str, Any]:
        """The ``[[conditions]]`` table of the candidate with parameter ``values``;
        ``set_file`` is the set to use when a switch is off (:meth:`set_text` written out)."""
        params, options, off = self.split(values)
        if off and set_file is None:
            raise ValueError(f"the candidate turns off {off}: give the file of its set")
        table: dict[str, Any] = {
            "name": name,
            "constraints": set_file if off else self.set_reference,
            "sampler": self.sampler,
            "params": params,
        }
        if options:
            table["options"] = options
        return table

    def experiment_data(self, conditions: list[dict[str, Any]], **top: Any) -> dict[str, Any]:
        """An experiment config's contents: the design file's common keys, ``top`` over them,
        and ``conditions``."""
        return {**self.experiment, **top, "conditions": conditions}


def _kind_of(name: str) -> str:
    if name.startswith("options."):
        return "option"
    return "param" if "." in name else "switch"


def load_design(path: str | Path, overrides: Sequence[str] = ()) -> DesignSpec:
    """Read and check a design config (see the package docstring); ConfigError names the file,
    the key and what is allowed. ``overrides``: ``PATH=VALUE`` as for ``ludolab run --set``."""
    path = Path(path)
    data = read_toml(path, "design config")
    data = apply_overrides(data, overrides, design_top_keys(data.get("game")))
    label = f"{path} (with --set {' '.join(overrides)})" if overrides else str(path)
    return parse_design(data, label, path.resolve().parent, path=path)


def parse_design(
    data: Mapping[str, Any], label: str, base: Path, *, path: Path | None = None
) -> DesignSpec:
    """Check parsed TOML (see :func:`load_design`)."""
    src = Source(label, base)
    if "design" not in data or not isinstance(data["design"], dict):
        raise src.fail("design", "missing; a design config needs a [design] table")
    for key in ("conditions", "sweep", "comparisons"):
        if key in data:
            raise src.fail(
                key,
                "a design config has no conditions, sweeps or comparisons of its own: the "
                "search makes its candidates from [design], and the confirmation compares "
                "the best with [design].baseline",
            )
    design: dict[str, Any] = data["design"]
    src.known_keys(design, DESIGN_KEYS, "design.")
    experiment = {k: v for k, v in data.items() if k != "design"}
    game = data.get("game")
    if not registry.known(game):
        message = (
            registry.unknown_game_message(game)
            if game is not None
            else f"missing; give one of {', '.join(registry.names())}"
        )
        raise src.fail("game", message)
    described = registry.get(game)
    constraints = src.string(design, "constraints", "design.")
    try:
        base_set = described.set_constraints(set_path(src, constraints) or constraints)
    except SetupSetError as exc:
        raise src.fail("design.constraints", str(exc)) from None
    sampler = src.string(design, "sampler", "design.", default=described.default_sampler)

    # Everything an experiment checks (lineups, options, metrics, seed, players, sizes) is
    # checked by reading the baseline as an experiment's one condition.
    probe = {
        **experiment,
        "conditions": [{"name": "baseline", "constraints": constraints, "sampler": sampler}],
    }
    try:
        config = parse_experiment(probe, label, base)
    except ConfigError as exc:  # the probe's one condition is [design]'s: name what was written
        raise ConfigError(str(exc).replace("key 'conditions[0].", "key 'design.")) from None

    parameters = tuple(
        _parameter(src, entry, i, constraints, base_set, game)
        for i, entry in enumerate(src.tables(design, "parameters", "[[design.parameters]]"))
    )
    names = [p.name for p in parameters]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise src.fail("design.parameters", f"{twice[0]!r} is searched twice; name it once")
    objectives = tuple(
        _objective(src, entry, i, game)
        for i, entry in enumerate(src.tables(design, "objectives", "[[design.objectives]]"))
    )
    baseline = _baseline(src, design.get("baseline", {}), parameters)

    trials = _positive(src, design, "trials", int)
    games = _positive(src, design, "games", int)
    minutes = _positive(src, design, "minutes", float)
    if trials is None and games is None and minutes is None:
        raise src.fail(
            "design.trials",
            "missing; give a budget: trials = N, games = N or minutes = M (the search stops "
            "at whichever comes first)",
        )
    rungs = src.integer(design, "rungs", "design.", minimum=1, default=3)
    spec = DesignSpec(
        name=config.name,
        game=game,
        seed=config.seed,
        players=config.players,
        constraints=constraints,
        sampler=sampler,
        baseline=baseline,
        parameters=parameters,
        objectives=objectives,
        trials=trials,
        games=games,
        minutes=minutes,
        setups=config.setups,
        games_per_setup=config.games_per_setup,
        rungs=rungs,
        startup_trials=src.integer(design, "startup_trials", "design.", minimum=1, default=8),
        sampling_seconds=_positive(src, design, "sampling_seconds", float) or 20.0,
        storage=src.string(design, "storage", "design.", default="") or None,
        confirm=_confirm(src, design.get("confirm", {}), described),
        experiment=experiment,
        path=path,
        base=base,
        label=label,
    )
    _check_corners(src, spec)
    return spec


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _positive(src: Source, table: Mapping[str, Any], key: str, kind: type) -> Any:
    if key not in table:
        return None
    value = table[key]
    ok = _number(value) and value > 0 and (kind is float or isinstance(value, int))
    if not ok:
        what = "a whole number" if kind is int else "a number"
        raise src.fail(f"design.{key}", f"expected {what} above 0, got {value!r}")
    return kind(value)


def _parameter(
    src: Source,
    entry: Mapping[str, Any],
    i: int,
    set_name: str,
    base_set: Mapping[str, Mapping[str, Any]],
    game: str,
) -> Parameter:
    where = f"design.parameters[{i}]."
    src.known_keys(entry, PARAMETER_KEYS, where)
    name = src.string(entry, "name", where)
    kind = _kind_of(name)
    known = [f"{c}.{p}" for c, params in base_set.items() for p in params]
    constraint_names = list(base_set)
    if kind == "param" and name not in known:
        raise src.fail(
            where + "name",
            f"{name!r} is not a parameter of set {set_name!r}; its parameters: "
            f"{', '.join(known) or 'none'}; or a constraint's name (on/off), or a rule option "
            "'options.NAME'",
        )
    if kind == "switch" and name not in constraint_names:
        raise src.fail(
            where + "name",
            f"{name!r} is not a constraint of set {set_name!r} ({', '.join(constraint_names)}), "
            "nor a parameter 'constraint.param' or a rule option 'options.NAME'",
        )
    if kind == "option":
        option = name.removeprefix("options.")
        described = registry.get(game)
        settable = [n for n in described.option_names() if n not in described.setup_options]
        if option not in settable:
            raise src.fail(
                where + "name",
                f"{name!r} is not a rule option a condition can set; options: "
                f"{', '.join('options.' + n for n in settable)}",
            )
    if "choices" in entry:
        extra = [k for k in ("low", "high", "step", "log") if k in entry]
        if extra:
            raise src.fail(where + extra[0], "give either choices or low and high, not both")
        choices = entry["choices"]
        if (
            not isinstance(choices, list)
            or len(choices) < 2
            or len(set(map(repr, choices))) < len(choices)
        ):
            raise src.fail(
                where + "choices",
                f"expected a list of two or more distinct values, got {choices!r}",
            )
        if kind == "switch":
            if not set(choices) <= set(SWITCH):
                raise src.fail(
                    where + "choices",
                    f'{name!r} is a constraint: its choices are "on" and "off", got {choices!r}',
                )
            return Parameter(name, "switch", choices=tuple(choices))
        return Parameter(name, "choice", choices=tuple(choices))
    if kind == "switch":
        raise src.fail(
            where + "choices", 'missing; a constraint is searched with choices = ["on", "off"]'
        )
    for key in ("low", "high"):
        if key not in entry:
            raise src.fail(where + key, "missing; give low and high (a range) or choices")
        if not _number(entry[key]):
            raise src.fail(where + key, f"expected a number, got {entry[key]!r}")
    low, high = entry["low"], entry["high"]
    if not low < high:
        raise src.fail(where + "high", f"empty range: high ({high!r}) must be above low ({low!r})")
    integral = isinstance(low, int) and isinstance(high, int)
    step = entry.get("step")
    if step is not None and (
        not _number(step) or step <= 0 or (integral and not isinstance(step, int))
    ):
        raise src.fail(
            where + "step", f"expected a {'whole ' * integral}number above 0, got {step!r}"
        )
    log = src.boolean(entry, "log", where, False)
    if log and low <= 0:
        raise src.fail(where + "log", f"a log scale needs low above 0, got {low!r}")
    if integral:
        return Parameter(name, "int", low, high, step or 1, log)
    return Parameter(name, "float", float(low), float(high), step, log)


def _objective(src: Source, entry: Mapping[str, Any], i: int, game: str) -> Objective:
    where = f"design.objectives[{i}]."
    src.known_keys(entry, OBJECTIVE_KEYS, where)
    metric = src.string(entry, "metric", where)
    per_game = game_metrics(game)
    if metric not in per_game and f"{game}.{metric}" in per_game:
        metric = f"{game}.{metric}"
    if metric not in per_game:
        raise src.fail(
            where + "metric",
            f"{metric!r} is not a per-game metric of {game}; known: {', '.join(per_game)}",
        )
    target = entry.get("target")
    if target is not None and not _number(target):
        raise src.fail(where + "target", f"expected a number, got {target!r}")
    goal = src.choice(
        entry, "goal", where, (*GOALS, "target"), default="target" if target is not None else None
    )
    if (goal == "target") != (target is not None):
        raise src.fail(
            where + "target",
            "missing; goal 'target' needs target = VALUE"
            if target is None
            else f"a target goes with goal 'target', not {goal!r}",
        )
    margin = entry.get("margin")
    if margin is not None and (not _number(margin) or margin <= 0):
        raise src.fail(where + "margin", f"expected a number above 0, got {margin!r}")
    return Objective(
        metric,
        goal,
        None if target is None else float(target),
        None if margin is None else float(margin),
    )


def _baseline(src: Source, value: Any, parameters: Sequence[Parameter]) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise src.fail("design.baseline", f"expected a table of parameter values, got {value!r}")
    flat: dict[str, Any] = {}
    for key, v in value.items():
        if isinstance(v, dict):
            flat.update(read_params(src, {key: v}, "design.baseline"))
        else:
            flat[key] = v
    searched = {p.name for p in parameters}
    for key in flat:
        if key not in searched:
            raise src.fail(
                f"design.baseline.{key}",
                "not a searched parameter; the baseline gives values to "
                + ", ".join(sorted(searched)),
            )
    return flat


def _confirm(src: Source, value: Any, game: registry.Game) -> Confirmation:
    if not isinstance(value, dict):
        raise src.fail("design.confirm", f"expected a table, got {value!r}")
    where = "design.confirm."
    _, size, least, most, per_setup, _ = confirm_keys(game)
    src.known_keys(value, confirm_keys(game), where)
    default = Confirmation()
    setups = src.integer(value, size, where, minimum=2, default=0) or None
    low = src.integer(value, least, where, minimum=2, default=default.min_setups)
    high = src.integer(value, most, where, minimum=2, default=default.max_setups)
    if high < low:
        raise src.fail(where + most, f"below {least} ({low}), got {high}")
    return Confirmation(
        candidates=src.integer(value, "candidates", where, minimum=1, default=default.candidates),
        setups=setups,
        min_setups=low,
        max_setups=high,
        games_per_setup=src.integer(
            value, per_setup, where, minimum=1, default=default.games_per_setup
        ),
        pilots=src.integer(value, "pilots", where, minimum=1, default=default.pilots),
    )


def _check_corners(src: Source, spec: DesignSpec) -> None:
    """Every end of every range and every choice must make a valid condition (one at a time,
    over the baseline, and the baseline itself): a value the set rejects is named now, not
    after an hour of search. Sets with a constraint switched off are checked in a temporary
    folder (nothing is written where the user sees it)."""
    trials: list[tuple[str, dict[str, Any]]] = [("design.baseline", {})]
    for i, p in enumerate(spec.parameters):
        values = p.choices if p.kind in ("choice", "switch") else (p.low, p.high)
        trials += [
            (f"design.parameters[{i}]", {p.name: int(v) if p.kind == "int" else v}) for v in values
        ]
    with tempfile.TemporaryDirectory(prefix="ludolab-design-") as tmp:
        for where, values in trials:
            _, _, off = spec.split(values)
            set_file = None
            if off:
                set_file = str(Path(tmp) / "candidate.toml")
                Path(set_file).write_text(spec.set_text(off))
            data = spec.experiment_data([spec.condition(values, "candidate", set_file)])
            try:
                parse_experiment(data, spec.label, spec.base)
            except ConfigError as exc:
                detail = str(exc).split(": key ", 1)[-1]
                what = (
                    f"the value {next(iter(values.values()))!r} of {next(iter(values))!r}"
                    if values
                    else "the baseline"
                )
                raise src.fail(where, f"{what} is not valid: {detail}") from None
