"""Experiment configs: one TOML file says which game setups to compare, and how.

A config names the game, the **conditions** to compare (each a constraint set for Catan boards
or a deal set for Masters Gallery deals, plus a sampler), how many setups (boards / deals) each
condition gets and how many games each setup is played, the **lineups** of agents (one agent
spec per seat), the rule options, the master seed, the metrics and the comparisons wanted::

    name = "quickstart"
    question = "Do balanced boards play differently from official ones?"
    game = "catan"                 # or "gallery"
    seed = 2024                    # the master seed: everything random derives from it
    players = 4                    # Catan 2-4, Masters Gallery 2-5
    boards = 10                    # setups per condition ("deals" for Masters Gallery)
    games_per_board = 25           # game seeds per setup ("games_per_deal" for Gallery)
    chunk_size = 250               # games per runner chunk (optional)
    metrics = ["turns", "lead_change", "catan.sevens", "condition.balance"]  # optional: all

    [options]                      # GameOptions / GalleryOptions fields (optional)
    friendly_robber = true

    [[conditions]]
    name = "official"              # optional; defaults to the constraints value
    constraints = "official"       # a shipped set, or a .toml path (relative to this file)
    sampler = "uniform"            # Catan: uniform (exact or Markov chains; never the solver)
                                   # |rejection|chain|solver (NOT uniform)|enumerate|optimise;
                                   # Gallery: auto|exact|rejection (default: uniform / auto)
    params = { "red-numbers-apart.numbers" = [6, 8] }   # optional parameter overrides
    options = { vp_to_win = 9 }    # optional: this condition's rule options, over [options]
    # objective = "pip-spread"     # optimise only; time_limit = 10.0: solver/optimise only

    [[sweep]]                      # optional: one condition per value, named NAME=VALUE
    name = "cap"
    constraints = "tournament"     # (sampler, params, time_limit as for a condition)
    parameter = "intersection-cap.max"   # a parameter of the set, or "options.vp_to_win"
    values = [10, 11, 12, 13, 14]  # two or more distinct numbers

    [[lineups]]
    name = "mixed"                 # optional; defaults to the seats joined by ","
    seats = ["greedy", "greedy", "random", "random"]   # or one spec for every seat
    rotate_seats = true            # default true

    [comparisons]                  # optional
    baseline = "official"          # compare every condition with this one; omit: all pairs
    paired = true                  # common random numbers (default true)
    correction = "holm"            # holm | fdr_bh | bonferroni | none, over the whole family
    alpha = 0.05
    n_boot = 2000
    metrics = ["turns", "lead_change"]   # per-game metrics to test; default: those in metrics
    primary = ["turns"]            # optional: the confirmatory family; other metrics exploratory
    margins = { turns = 2.0 }      # optional: smallest difference that matters, metric's unit
    mixed_max_games = 20000        # fit the mixed-model check up to this many games (0: never)
    skill = ["mixed", "greedy"]    # optional: lineups in order of skill; tests whether each
                                   # condition's effect changes with skill (needs a baseline)

    [report]                       # optional: how the figures are drawn
    style = "paper"                # paper (3.3 / 7 in columns, the default) | screen
    one_column = 3.5               # optional: any size of the style, in inches or as a factor

Every value is checked when the file is loaded (:func:`load_experiment`); a
:class:`ConfigError` names the file, the key and the allowed values, e.g.
``exp.toml: key 'conditions[2].sampler': 'solvr' is not one of uniform, rejection, chain,
solver, enumerate, optimise``. Constraint / deal sets are loaded (with their parameter
overrides), agent specs are parsed by the game's agent registry, options are built into the
game's options class.

**Which games are played** (:class:`GamePlan`). Let ``S`` be the setups per condition and ``G``
the games per setup. Each condition has ``S * G`` *slots*; slot ``j`` is game ``g = j // S`` on
setup ``s = j % S`` (the convention of ``ludolab simulate``: game ``i`` on board ``i mod S``).
Every slot is played once by every lineup in each of the lineup's *rotations*:

* Rotation ``r`` seats ``seats[(k + r) % n]`` at seat ``k`` (``n`` players): agent ``i`` of
  the lineup plays seat ``(i - r) mod n``.
* ``rotate_seats = true`` plays the *distinct* rotations ``r = 0 .. p - 1``, where ``p`` is
  the lineup's period (the smallest ``p >= 1`` with ``seats[(k + p) % n] == seats[k]`` for all
  ``k``; ``p`` divides ``n``). All ``n`` rotations would repeat each of these ``n / p`` times,
  and a repeat is the very same game (same setup, agents, seats and seed), so the distinct ones
  give the same seat balance without duplicate games: every agent spec plays every seat equally
  often. Four identical agents have ``p = 1`` (one rotation); ``[a, b, c, d]`` has ``p = 4``;
  ``[a, b, a, b]`` has ``p = 2``. ``rotate_seats = false`` plays rotation 0 only.
* All rotations of a slot share the slot's game seed (the same dice / agent streams), so seat
  effects are compared on common random numbers too.

Games per condition: ``S * G * sum over lineups of len(rotations)``; in all, that times the
number of conditions. The plan lists them condition by condition, then lineup, setup, game,
rotation; :attr:`GameSpec.index` is the position in that list.

**Seeds.** Slot ``j``'s game seed, with ``N = S * G``:

* ``paired = true`` (the default): ``ludolab.research.simulate.game_seeds(seed, N)[j]`` — children
  of ``numpy.random.SeedSequence(seed)``, the same for every condition and lineup (common
  random numbers: game ``j`` rolls the same dice on every condition's board ``j mod S``). A
  paired condition's rotation-0 games are exactly those of ``ludolab simulate --games N
  --seed SEED`` on that condition's setups.
* ``paired = false``: children of ``SeedSequence([seed, key("games", condition name)])``, so
  every condition has its own independent seeds.

``key(tag, name)`` is the first 8 bytes of ``sha256("tag:name")`` as an integer. A condition's
setups (boards / deals) are generated from :func:`setup_seed`, a 63-bit integer from
``SeedSequence([seed, key("setups", condition name)])``: renaming or reordering other
conditions never changes them. The pairing key :attr:`GameSpec.pair` (``lineup|rotation|slot``)
is unique within a condition and equal for the games that share seeds across conditions.

:func:`resolved_dict` gives the fully resolved config (JSON-serialisable: every default filled
in, sets expanded to their constraints, agent specs in canonical form) and :func:`config_hash`
a sha256 over it; the runner saves both.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
import tomllib
import types
import typing
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

import numpy as np

from ludolab.envs.agents import AgentRegistry, AgentSpecError
from ludolab.envs.catan.engine import GameOptions
from ludolab.envs.gallery.cards import symbols_from_mapping
from ludolab.envs.gallery.engine import GalleryOptions
from ludolab.envs.registries import registry_of
from ludolab.research.catan.constraint_set import (
    ConstraintSet,
    ConstraintSetError,
    load_constraint_set,
)
from ludolab.research.catan.constraints import OBJECTIVES
from ludolab.research.catan.samplers import SAMPLERS
from ludolab.research.gallery.deals import (
    METHODS,
    DealConstraintError,
    DealContext,
    DealSet,
    as_deal_set,
    load_deal_set,
)
from ludolab.research.metrics.registry import (
    CATAN_METRICS,
    CONDITION_METRICS,
    GALLERY_METRICS,
    GAME_METRICS,
    METRICS,
)
from ludolab.research.plots.style import FigureStyle, style_from_table, style_table
from ludolab.research.simulate import game_seed, game_seeds, seed_of
from ludolab.research.stats.multiple import CORRECTIONS

SCHEMA = "ludolab.experiment/1"
GAMES = ("catan", "gallery")
GAME_TITLES = {"catan": "Catan", "gallery": "Masters Gallery"}
SAMPLERS_BY_GAME: dict[str, tuple[str, ...]] = {"catan": tuple(SAMPLERS), "gallery": METHODS}
DEFAULT_SAMPLER = {"catan": "uniform", "gallery": "auto"}
PLAYERS_BY_GAME = {"catan": (2, 4), "gallery": (2, 5)}
SETUP_KEY = {"catan": "boards", "gallery": "deals"}
GAMES_PER_SETUP_KEY = {"catan": "games_per_board", "gallery": "games_per_deal"}
OPTIONS_CLASS: dict[str, type] = {"catan": GameOptions, "gallery": GalleryOptions}
DEFAULT_CHUNK_SIZE = 250
DEFAULT_MIXED_MAX_GAMES = 50_000
DEFAULT_OBJECTIVE = "pip-spread"
NONE_WORD = "none"  # TOML has no null: Optional options take the string "none"


class ConfigError(ValueError):
    """An invalid experiment config; the message names the file, the key and what is allowed."""


# ---------------------------------------------------------------------------------------------
# The config


@dataclass(frozen=True)
class Condition:
    """One condition: setups drawn from a constraint / deal set by a sampler.

    Attributes:
        name: unique within the config.
        constraints: the set as written (a shipped set's name or a path relative to the config).
        sampler: Catan ``uniform|solver|enumerate|optimise``; Gallery ``auto|exact|rejection``.
        params: parameter overrides, flat ``{"constraint.param": value}``.
        path: the resolved file of a set given by path, None for a shipped set.
        constraint_set: the loaded set with ``params`` applied (a ConstraintSet or DealSet).
        objective: Catan ``optimise`` only: the objective (None otherwise).
        time_limit: Catan ``solver`` / ``optimise``: seconds of search (None: the sampler's
            default).
        options: the rule options this condition's games are played with: the run's
            ``[options]`` with the condition's own ``options`` table on top.
        rule_changes: the condition's own ``options`` table (converted), empty if none.
        sweep: the ``[[sweep]]`` this condition was expanded from (its name), or None.
        sweep_value: the swept parameter's value in this condition, or None.
        sweep_parameter: what the sweep varies (``constraint.param`` or ``options.NAME``).
    """

    name: str
    constraints: str
    sampler: str
    params: Mapping[str, Any]
    path: Path | None
    constraint_set: ConstraintSet | DealSet
    objective: str | None = None
    time_limit: float | None = None
    options: GameOptions | GalleryOptions | None = None
    rule_changes: Mapping[str, Any] = field(default_factory=dict)
    sweep: str | None = None
    sweep_value: float | None = None
    sweep_parameter: str | None = None


@dataclass(frozen=True)
class AgentLineup:
    """Agents per seat, and whether they rotate through the seats (module docstring)."""

    name: str
    seats: tuple[str, ...]
    rotate_seats: bool = True

    @property
    def period(self) -> int:
        """The smallest ``p >= 1`` with ``seats[(k + p) % n] == seats[k]`` for every seat k."""
        n = len(self.seats)
        return next(
            p
            for p in range(1, n + 1)
            if all(self.seats[(k + p) % n] == self.seats[k] for k in range(n))
        )

    @property
    def rotations(self) -> tuple[int, ...]:
        """The rotations played: ``0 .. period - 1`` with ``rotate_seats``, else ``(0,)``."""
        return tuple(range(self.period)) if self.rotate_seats else (0,)

    def seats_for(self, rotation: int) -> tuple[str, ...]:
        """Agent spec at each seat under ``rotation``: seat k gets ``seats[(k + r) % n]``."""
        n = len(self.seats)
        return tuple(self.seats[(k + rotation) % n] for k in range(n))


@dataclass(frozen=True)
class Comparisons:
    """The statistical comparisons wanted (``ludolab.research.stats.pairwise`` / ``omnibus``).

    Attributes:
        baseline: compare each other condition with this one; None compares all pairs.
        paired: common random numbers: the same game seeds in every condition, and paired
            tests (Wilcoxon / Friedman on ``GameSpec.pair``).
        correction: multiple-comparison adjustment over the whole family of the run's tests
            (every lineup x metric x pair): ``holm``, ``fdr_bh``, ``bonferroni`` or ``none``.
        alpha: significance level (family-wise error rate, or false discovery rate).
        n_boot: bootstrap resamples for effect-size intervals (0: none).
        metrics: per-game metrics to test (registry names).
        primary: the confirmatory metrics (registry names): when given, the family is their
            tests only, and the other metrics' tests form a second, exploratory family.
        margins: per tested metric (registry name), the smallest difference that matters, in
            the metric's unit: used for equivalence tests (TOST) and by ``ludolab plan``.
        mixed_max_games: the mixed-model sensitivity check is fitted when a comparison has at
            most this many games (its crossed random effects make the fit slow and memory-hungry
            beyond some tens of thousands of games); 0 never fits it.
        skill: lineup names in order of increasing skill (two or more), or empty: the report
            then tests, for each condition and primary metric, whether the condition's effect
            changes with skill (:mod:`ludolab.research.stats.interaction`).
    """

    baseline: str | None = None
    paired: bool = True
    correction: str = "holm"
    alpha: float = 0.05
    n_boot: int = 2000
    metrics: tuple[str, ...] = ()
    primary: tuple[str, ...] = ()
    margins: dict[str, float] = field(default_factory=dict)
    mixed_max_games: int = DEFAULT_MIXED_MAX_GAMES
    skill: tuple[str, ...] = ()


@dataclass(frozen=True)
class ExperimentConfig:
    """A validated experiment (see the module docstring for the file format)."""

    name: str
    game: str
    seed: int
    players: int
    conditions: tuple[Condition, ...]
    setups: int
    games_per_setup: int
    lineups: tuple[AgentLineup, ...]
    options: GameOptions | GalleryOptions
    metrics: tuple[str, ...]
    comparisons: Comparisons
    chunk_size: int = DEFAULT_CHUNK_SIZE
    description: str = ""
    question: str = ""
    path: Path | None = field(default=None, compare=False)
    overrides: tuple[str, ...] = field(default=(), compare=False)
    # How the figures are drawn: an analysis setting, like comparisons (resuming with another
    # style redraws; the games are the same).
    report: FigureStyle = field(default_factory=lambda: style_from_table(None), compare=False)

    @property
    def setup_kind(self) -> str:
        """``boards`` (Catan) or ``deals`` (Masters Gallery)."""
        return SETUP_KEY[self.game]

    @property
    def slots(self) -> int:
        """Game slots per condition and lineup rotation: setups x games per setup."""
        return self.setups * self.games_per_setup

    @property
    def n_games(self) -> int:
        """Games in the whole plan."""
        rotations = sum(len(lineup.rotations) for lineup in self.lineups)
        return len(self.conditions) * self.slots * rotations

    def condition(self, name: str) -> Condition:
        """The condition called ``name`` (KeyError if none)."""
        for c in self.conditions:
            if c.name == name:
                return c
        raise KeyError(name)


@dataclass(frozen=True)
class GameSpec:
    """One game of the plan (see the module docstring for how they are enumerated).

    Attributes:
        index: position in :func:`plan_games`'s list.
        condition: condition name; ``condition_index`` its position in the config.
        setup: index into the condition's generated setups (0 .. setups - 1).
        lineup: lineup name; ``rotation`` the rotation played; ``seats`` the agent spec at
            each seat under it.
        game: game index on this setup (0 .. games_per_setup - 1).
        slot: ``game * setups + setup``, the index into the condition's game seeds.
        seed: the game seed.
        pair: ``"lineup|rotation|slot"``: unique within a condition, shared by the games
            paired across conditions.
    """

    index: int
    condition: str
    condition_index: int
    setup: int
    lineup: str
    rotation: int
    game: int
    slot: int
    seed: int
    seats: tuple[str, ...]
    pair: str


# ---------------------------------------------------------------------------------------------
# Loading and validation


class _Source:
    """Where errors come from: the file (or label) and helpers that raise ConfigError."""

    def __init__(self, label: str, base: Path) -> None:
        self.label = label
        self.base = base

    def fail(self, key: str, message: str) -> ConfigError:
        return ConfigError(f"{self.label}: key {key!r}: {message}")

    def known_keys(
        self,
        table: Mapping[str, Any],
        allowed: Sequence[str],
        where: str,
        hints: Mapping[str, str] | None = None,
    ) -> None:
        for key in table:
            if key not in allowed:
                hint = (hints or {}).get(key, "")
                raise self.fail(
                    f"{where}{key}",
                    f"unknown key{hint}; allowed keys: {', '.join(allowed)}",
                )

    def integer(
        self,
        table: Mapping[str, Any],
        key: str,
        where: str,
        *,
        minimum: int,
        default: int | None = None,
    ) -> int:
        path = f"{where}{key}"
        if key not in table:
            if default is None:
                raise self.fail(path, f"missing; expected an integer >= {minimum}")
            return default
        value = table[key]
        if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
            raise self.fail(path, f"expected an integer >= {minimum}, got {value!r}")
        return value

    def string(
        self, table: Mapping[str, Any], key: str, where: str, default: str | None = None
    ) -> str:
        path = f"{where}{key}"
        if key not in table:
            if default is None:
                raise self.fail(path, "missing; expected a string")
            return default
        value = table[key]
        if not isinstance(value, str) or not value.strip():
            raise self.fail(path, f"expected a non-empty string, got {value!r}")
        return value

    def boolean(self, table: Mapping[str, Any], key: str, where: str, default: bool) -> bool:
        value = table.get(key, default)
        if not isinstance(value, bool):
            raise self.fail(f"{where}{key}", f"expected true or false, got {value!r}")
        return value

    def choice(
        self,
        table: Mapping[str, Any],
        key: str,
        where: str,
        allowed: Sequence[str],
        default: str | None = None,
    ) -> str:
        path = f"{where}{key}"
        if key not in table:
            if default is None:
                raise self.fail(path, f"missing; one of {', '.join(allowed)}")
            return default
        value = table[key]
        if value not in allowed:
            raise self.fail(path, f"{value!r} is not one of {', '.join(allowed)}")
        return value

    def tables(self, data: Mapping[str, Any], key: str, example: str) -> list[dict[str, Any]]:
        value = data.get(key)
        if value is None:
            raise self.fail(key, f"missing; give at least one {example} table")
        if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
            raise self.fail(key, f"expected an array of tables ({example})")
        if not value:
            raise self.fail(key, f"empty; give at least one {example} table")
        return value


TOP_KEYS = (
    "name",
    "description",
    "question",
    "game",
    "seed",
    "players",
    "boards",
    "deals",
    "games_per_board",
    "games_per_deal",
    "conditions",
    "lineups",
    "options",
    "metrics",
    "comparisons",
    "chunk_size",
    "sweep",
    "report",
)
CONDITION_KEYS = (
    "name",
    "constraints",
    "sampler",
    "params",
    "objective",
    "time_limit",
    "options",
)
SETUP_OPTIONS: dict[str, tuple[str, ...]] = {
    "catan": (),
    "gallery": ("symbols", "hand_size", "deals", "rounds"),
}
"""Options that shape the setups themselves (Masters Gallery deals are dealt for a hand size,
symbol table and dealing schedule): the same for every condition, so only in [options]."""
LINEUP_KEYS = ("name", "seats", "rotate_seats")
SWEEP_KEYS = ("name", "constraints", "sampler", "params", "time_limit", "parameter", "values")
COMPARISON_KEYS = (
    "baseline",
    "paired",
    "correction",
    "alpha",
    "n_boot",
    "metrics",
    "primary",
    "margins",
    "mixed_max_games",
    "skill",
)


def load_experiment(path: str | Path, overrides: Sequence[str] = ()) -> ExperimentConfig:
    """Read and validate an experiment config (TOML); ConfigError names file, key, allowed.

    ``overrides`` are ``PATH=VALUE`` strings applied to the file's contents first (see
    :func:`apply_overrides`), as ``ludolab run --set`` does."""
    path = Path(path)
    if not path.is_file():
        raise ConfigError(f"{path}: no such experiment config file")
    try:
        data = tomllib.loads(path.read_text())
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: not UTF-8 text; save the config as UTF-8") from None
    data = apply_overrides(data, overrides)
    label = f"{path} (with --set {' '.join(overrides)})" if overrides else str(path)
    return parse_experiment(data, label, path.resolve().parent, path=path)


# Tables whose keys may contain dots (constraint.param, catan.metric): the rest of a --set path
# after them is one key.
_DOTTED_KEY_TABLES = ("params", "margins")
_ARRAYS = {"conditions": CONDITION_KEYS, "lineups": LINEUP_KEYS, "sweep": SWEEP_KEYS}


def apply_overrides(data: dict[str, Any], overrides: Sequence[str]) -> dict[str, Any]:
    """A copy of a config's TOML ``data`` with ``PATH=VALUE`` overrides applied.

    ``PATH`` is dotted: ``boards``, ``options.vp_to_win``, ``comparisons.primary``,
    ``conditions.NAME.sampler`` (a condition or lineup by its name, or by its 0-based index),
    ``conditions.NAME.params.red-numbers-apart.numbers``. ``VALUE`` is read as a TOML value
    (``100``, ``true``, ``[6, 8]``, ``"text"``); anything else is taken as a string
    (``uniform``). A path that does not exist raises ConfigError naming what does.
    """
    out = json.loads(json.dumps(data))  # a deep copy of plain TOML data
    for item in overrides:
        where = f"--set {item}"
        key_path, sep, text = item.partition("=")
        parts = [p.strip() for p in key_path.split(".")]
        if not sep or not all(parts):
            raise ConfigError(f"{where}: expected PATH=VALUE, e.g. boards=100")
        value = _toml_value(text.strip())
        table: dict[str, Any] = out
        allowed: Sequence[str] = TOP_KEYS  # () inside free tables such as [options]
        i = 0
        while True:
            key = parts[i]
            if allowed and key not in allowed:
                raise ConfigError(
                    f"{where}: {key!r} is not a config key here; allowed: {', '.join(allowed)}"
                )
            if i == len(parts) - 1:
                table[key] = value
                break
            if key in _DOTTED_KEY_TABLES:
                table.setdefault(key, {})[".".join(parts[i + 1 :])] = value
                break
            if table is out and key in _ARRAYS:
                table = _find_entry(table.get(key) or [], parts[i + 1], key, where)
                allowed, i = _ARRAYS[key], i + 2
                if i == len(parts):
                    raise ConfigError(f"{where}: name a key of the {key[:-1]}, e.g. {key}.X.name")
                continue
            nxt = table.setdefault(key, {})
            if not isinstance(nxt, dict):
                raise ConfigError(f"{where}: {key!r} is a value, not a table")
            table = nxt
            allowed = COMPARISON_KEYS if key == "comparisons" and i == 0 else ()
            i += 1
    return out


def _find_entry(entries: list[Any], ref: str, key: str, where: str) -> dict[str, Any]:
    names = [
        e.get("name", e.get("constraints", e.get("seats", e.get("parameter")))) for e in entries
    ]
    shown = [n if isinstance(n, str) else ",".join(map(str, n)) for n in names]
    for entry, name in zip(entries, shown, strict=True):
        if name == ref:
            return entry
    if ref.isdigit() and int(ref) < len(entries):
        return entries[int(ref)]
    raise ConfigError(
        f"{where}: no {key[:-1]} named {ref!r}; {key}: {', '.join(shown) or 'none'} "
        f"(or an index 0..{len(entries) - 1})"
    )


def _toml_value(text: str) -> Any:
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        return text


def parse_experiment(
    data: Mapping[str, Any],
    label: str = "<experiment>",
    base: Path | None = None,
    *,
    path: Path | None = None,
) -> ExperimentConfig:
    """Validate parsed TOML; set paths resolve against ``base`` (default: the working dir)."""
    src = _Source(label, base or Path.cwd())
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
    seed = src.integer(data, "seed", "", minimum=0)
    lo, hi = PLAYERS_BY_GAME[game]
    players = src.integer(data, "players", "", minimum=1)
    if not lo <= players <= hi:
        raise src.fail("players", f"{GAME_TITLES[game]} takes {lo}-{hi} players, got {players}")
    setups = src.integer(data, SETUP_KEY[game], "", minimum=1)
    games_per_setup = src.integer(data, GAMES_PER_SETUP_KEY[game], "", minimum=1)
    chunk_size = src.integer(data, "chunk_size", "", minimum=1, default=DEFAULT_CHUNK_SIZE)

    options = _options(src, data.get("options", {}), game)
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
    metrics = _metrics(src, data, "metrics", game, players)
    comparisons = _comparisons(
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
        seed=seed,
        players=players,
        conditions=conditions,
        setups=setups,
        games_per_setup=games_per_setup,
        lineups=lineups,
        options=options,
        metrics=metrics,
        comparisons=comparisons,
        chunk_size=chunk_size,
        description=description,
        question=question,
        path=path,
        report=style,
    )


def _text(src: _Source, data: Mapping[str, Any], key: str) -> str:
    value = data.get(key, "")
    if not isinstance(value, str):
        raise src.fail(key, f"expected a string, got {value!r}")
    return value.strip()


def _unique(src: _Source, names: list[str], key: str) -> None:
    seen: dict[str, int] = {}
    for i, n in enumerate(names):
        if n in seen:
            raise src.fail(
                f"{key}[{i}].name",
                f"duplicate name {n!r} (also {key}[{seen[n]}]); names must be unique",
            )
        seen[n] = i


# --- conditions


def _condition(
    src: _Source,
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
    params = _params(src, entry.get("params", {}), where + "params")
    path = _set_path(src, constraints)
    source = path if path is not None else constraints
    objective: str | None = None
    time_limit: float | None = None
    if game == "catan":
        try:
            load_constraint_set(source)
        except ConstraintSetError as exc:
            raise src.fail(where + "constraints", str(exc)) from None
        try:
            cset: ConstraintSet | DealSet = load_constraint_set(source, dict(params))
        except ConstraintSetError as exc:
            raise src.fail(where + "params", str(exc)) from None
        assert isinstance(cset, ConstraintSet)
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
            if sampler not in ("solver", "optimise"):
                raise src.fail(where + "time_limit", "only with sampler 'solver' or 'optimise'")
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
            cset = as_deal_set(base, dict(params))
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
    cond_options = _options(src, rule_table, game, where + "options", base=options)
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
    src: _Source,
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
        given = _params(src, base.get("params", {}), where + "params")
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
    src: _Source, where: str, game: str, base: Mapping[str, Any], parameter: str
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
        cset = load_constraint_set(_set_path(src, constraints) or constraints)
    except ConstraintSetError as exc:
        raise src.fail(where + "constraints", str(exc)) from None
    known = [f"{c.name}.{p}" for c in cset.constraints for p in c.params]
    if parameter not in known:
        raise src.fail(
            where + "parameter",
            f"{parameter!r} is not a parameter of set {constraints!r}; its parameters: "
            f"{', '.join(known) or 'none'}, or a rule option 'options.NAME'",
        )


def _set_path(src: _Source, constraints: str) -> Path | None:
    """The file a set given by path names (relative to the config), None for a shipped set."""
    is_file = constraints.endswith(".toml") or "/" in constraints or "\\" in constraints
    return (src.base / constraints).resolve() if is_file else None


def _params(src: _Source, value: Any, where: str) -> dict[str, Any]:
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


# --- lineups


def _lineup(
    src: _Source, entry: Mapping[str, Any], i: int, players: int, registry: AgentRegistry
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
    rotate = src.boolean(entry, "rotate_seats", where, True)
    return AgentLineup(name, tuple(seats), rotate)


# --- options


def _options(
    src: _Source,
    table: Any,
    game: str,
    where: str = "options",
    base: GameOptions | GalleryOptions | None = None,
) -> GameOptions | GalleryOptions:
    """The options class built from ``table`` (on top of ``base`` when given); errors name
    ``where.<key>``."""
    cls = OPTIONS_CLASS[game]
    if not isinstance(table, dict):
        raise src.fail(where, f"expected a table of {cls.__name__} fields")
    hints = typing.get_type_hints(cls)
    names = [f.name for f in fields(cls)]
    values: dict[str, Any] = {}
    for key, value in table.items():
        if key not in names:
            raise src.fail(
                f"{where}.{key}",
                f"unknown {cls.__name__} option; allowed: {', '.join(names)}",
            )
        if cls is GalleryOptions and key == "symbols" and isinstance(value, dict):
            # the symbols table by artist name: [options.symbols.Yoko] draw = 2
            try:
                values[key] = symbols_from_mapping(value, where=f"{where}.symbols")
            except ValueError as exc:
                at, _, message = str(exc).partition(": ")  # "options.symbols.Yoko: ..."
                raise src.fail(at, message) from None
            continue
        try:
            values[key] = _convert(value, hints[key])
        except TypeError:
            raise src.fail(
                f"{where}.{key}", f"expected {_describe(hints[key])}, got {value!r}"
            ) from None
    try:
        return dataclasses.replace(base, **values) if base is not None else cls(**values)
    except (ValueError, TypeError) as exc:
        m = re.search(r"Options\.(\w+)", str(exc))
        key = f"{where}.{m.group(1)}" if m and m.group(1) in names else where
        raise src.fail(key, str(exc)) from None


def _convert(value: Any, hint: Any) -> Any:
    """A TOML value as the type ``hint``; TypeError if it does not fit."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        if type(None) in args and value == NONE_WORD:
            return None
        for arg in args:
            if arg is type(None):
                continue
            try:
                return _convert(value, arg)
            except TypeError:
                pass
        raise TypeError
    if origin is tuple:
        if not isinstance(value, list):
            raise TypeError
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_convert(v, args[0]) for v in value)
        if len(value) != len(args):
            raise TypeError
        return tuple(_convert(v, a) for v, a in zip(value, args, strict=True))
    if hint is bool:
        if isinstance(value, bool):
            return value
        raise TypeError
    if hint is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        raise TypeError
    if hint is float:
        if isinstance(value, int | float) and not isinstance(value, bool):
            return float(value)
        raise TypeError
    if hint is str:
        if isinstance(value, str):
            return value
        raise TypeError
    raise TypeError


def _describe(hint: Any) -> str:
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        parts = [_describe(a) for a in args if a is not type(None)]
        if type(None) in args:
            parts.append(f'"{NONE_WORD}"')
        return " or ".join(parts)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return f"a list of {_plural(args[0])}"
        return f"a list of {len(args)} {_plural(args[0])}"
    return {bool: "true or false", int: "an integer", float: "a number", str: "a string"}.get(
        hint, str(hint)
    )


def _plural(hint: Any) -> str:
    if typing.get_origin(hint) is tuple:
        return "lists" + _describe(hint).removeprefix("a list")
    return {bool: "booleans", int: "integers", float: "numbers", str: "strings"}.get(
        hint, str(hint)
    )


# --- metrics and comparisons


def game_metrics(game: str) -> list[str]:
    """Registry names of the per-game metrics of ``game`` (shared ones, then its own)."""
    own = CATAN_METRICS if game == "catan" else GALLERY_METRICS
    return list(GAME_METRICS) + [f"{game}.{k}" for k in own]


def allowed_metrics(game: str) -> list[str]:
    """Every metric name a config for ``game`` may list (``<s>``, ``<metric>`` templates as in
    :data:`ludolab.research.metrics.METRICS`; instances such as ``condition.win_rate_0`` also
    pass)."""
    return game_metrics(game) + [f"condition.{k}" for k in CONDITION_METRICS]


def _resolve_metric(name: str, game: str, players: int) -> str | None:
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


def _metrics(
    src: _Source, data: Mapping[str, Any], key: str, game: str, players: int, where: str = ""
) -> tuple[str, ...]:
    if key not in data:
        return tuple(allowed_metrics(game))
    value = data[key]
    if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
        raise src.fail(where + key, f"expected a non-empty list of metric names, got {value!r}")
    out: list[str] = []
    for i, name in enumerate(value):
        resolved = _resolve_metric(name, game, players)
        if resolved is None:
            other = "gallery" if game == "catan" else "catan"
            why = (
                f"a {GAME_TITLES[other]} metric; this experiment plays {GAME_TITLES[game]}"
                if name.startswith(f"{other}.")
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


def _comparisons(
    src: _Source,
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
    paired = src.boolean(table, "paired", where, True)
    correction = src.choice(table, "correction", where, CORRECTIONS, "holm")
    alpha = table.get("alpha", 0.05)
    if isinstance(alpha, bool) or not isinstance(alpha, int | float) or not 0 < alpha < 1:
        raise src.fail(where + "alpha", f"expected a number between 0 and 1, got {alpha!r}")
    n_boot = src.integer(table, "n_boot", where, minimum=0, default=2000)
    testable = [m for m in metrics if m in game_metrics(game) and m != "n_players"]
    if "metrics" in table:
        chosen = _metrics(src, table, "metrics", game, players, where)
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
        primary = _metrics(src, listed, "primary", game, players, where)
        for i, m in enumerate(primary):
            if m not in tested:
                raise src.fail(
                    f"{where}primary[{i}]",
                    f"{m!r} is not a tested metric; the primary metrics must be among "
                    f"comparisons.metrics: {', '.join(tested)}",
                )
    margins = _margins(src, table.get("margins", {}), game, players, tested, where)
    mixed_max = src.integer(
        table, "mixed_max_games", where, minimum=0, default=DEFAULT_MIXED_MAX_GAMES
    )
    skill = _skill(src, table, lineups, baseline, where)
    return Comparisons(
        baseline,
        paired,
        correction,
        float(alpha),
        n_boot,
        tested,
        primary,
        margins,
        mixed_max,
        skill,
    )


def _skill(
    src: _Source, table: Mapping[str, Any], lineups: list[str], baseline: str | None, where: str
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
    src: _Source,
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
        metric = _resolve_metric(key, game, players)
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


# ---------------------------------------------------------------------------------------------
# Plan, seeds, hash


def _name_key(tag: str, name: str) -> int:
    return int.from_bytes(hashlib.sha256(f"{tag}:{name}".encode()).digest()[:8], "big")


def setup_seed(config: ExperimentConfig, condition: str) -> int:
    """The seed for generating ``condition``'s setups (boards / deals): a 63-bit integer from
    ``SeedSequence([config.seed, key("setups", condition)])``."""
    return seed_of(np.random.SeedSequence([config.seed, _name_key("setups", condition)]))


def _slot_entropy(config: ExperimentConfig, condition: str) -> int | list[int]:
    """The entropy whose spawned children seed ``condition``'s slots (module docstring)."""
    if config.comparisons.paired:
        return config.seed
    return [config.seed, _name_key("games", condition)]


def slot_seed(config: ExperimentConfig, condition: str, slot: int) -> int:
    """Game seed of one slot of ``condition``: child ``slot`` of the condition's seed sequence
    (``SeedSequence(entropy).spawn(n)[slot]`` is ``SeedSequence(entropy, spawn_key=(slot,))``,
    so no list of every slot's seed is needed)."""
    return game_seed(_slot_entropy(config, condition), slot)


def condition_game_seeds(config: ExperimentConfig, condition: str) -> list[int]:
    """Game seed of every slot of ``condition`` (module docstring: the same for all conditions
    when paired)."""
    return game_seeds(_slot_entropy(config, condition), config.slots)


class GamePlan:
    """Every game of the experiment, in a fixed order (module docstring: slots, rotations,
    seeds), computed on demand: ``plan[i]`` is game ``i`` and ``plan.games(range)`` a run of
    them, so a plan of millions of games costs no memory until its chunks are played."""

    def __init__(self, config: ExperimentConfig) -> None:
        self.config = config
        self._rotated = [
            (lineup.name, [(r, lineup.seats_for(r)) for r in lineup.rotations])
            for lineup in config.lineups
        ]
        self._per_condition = config.slots * sum(len(rots) for _, rots in self._rotated)

    def __len__(self) -> int:
        return self._per_condition * len(self.config.conditions)

    def __getitem__(self, index: int) -> GameSpec:
        if not 0 <= index < len(self):
            raise IndexError(f"game {index} is not in a plan of {len(self)} games")
        config = self.config
        ci, rest = divmod(index, self._per_condition)
        cond = config.conditions[ci]
        which_lineup = 0
        while rest >= config.slots * len(self._rotated[which_lineup][1]):
            rest -= config.slots * len(self._rotated[which_lineup][1])
            which_lineup += 1
        name, rotations = self._rotated[which_lineup]
        setup, rest = divmod(rest, config.games_per_setup * len(rotations))
        game, which = divmod(rest, len(rotations))
        r, seats = rotations[which]
        slot = game * config.setups + setup
        return GameSpec(
            index=index,
            condition=cond.name,
            condition_index=ci,
            setup=setup,
            lineup=name,
            rotation=r,
            game=game,
            slot=slot,
            seed=slot_seed(config, cond.name, slot),
            seats=seats,
            pair=f"{name}|{r}|{slot}",
        )

    def games(self, indices: range) -> list[GameSpec]:
        """The games at ``indices`` (a chunk of the plan), in order."""
        return [self[i] for i in indices]


def plan_games(config: ExperimentConfig) -> list[GameSpec]:
    """Every game of the experiment as a list (:class:`GamePlan` computes them on demand)."""
    plan = GamePlan(config)
    return plan.games(range(len(plan)))


def _set_dict(cond: Condition) -> dict[str, Any]:
    cset = cond.constraint_set
    if isinstance(cset, ConstraintSet):
        return {
            "name": cset.name,
            "description": cset.description,
            "layout": cset.layout,
            "constraints": [c.describe() for c in cset.constraints],
            "minizinc": [{"code": r.code, "reads": sorted(r.reads)} for r in cset.raw],
        }
    return {
        "name": cset.name,
        "description": cset.description,
        "constraints": [{"name": n, **params} for n, params in cset.entries],
    }


def resolved_dict(config: ExperimentConfig) -> dict[str, Any]:
    """The fully resolved config as plain JSON data (defaults filled in, sets expanded)."""
    out = {
        "schema": SCHEMA,
        "name": config.name,
        "description": config.description,
        "question": config.question,
        "game": config.game,
        "seed": config.seed,
        "players": config.players,
        "setup_kind": config.setup_kind,
        "setups": config.setups,
        "games_per_setup": config.games_per_setup,
        "conditions": [
            {
                "name": c.name,
                "constraints": c.constraints,
                "sampler": c.sampler,
                "params": dict(sorted(c.params.items())),
                "objective": c.objective,
                "time_limit": c.time_limit,
                "setup_seed": setup_seed(config, c.name),
                "set": _set_dict(c),
                # only when given: configs without condition options keep their hashes
                **({"options": dict(c.rule_changes)} if c.rule_changes else {}),
                **(
                    {
                        "sweep": c.sweep,
                        "sweep_parameter": c.sweep_parameter,
                        "sweep_value": c.sweep_value,
                    }
                    if c.sweep
                    else {}
                ),
            }
            for c in config.conditions
        ],
        "lineups": [
            {
                "name": lineup.name,
                "seats": list(lineup.seats),
                "rotate_seats": lineup.rotate_seats,
                "rotations": list(lineup.rotations),
            }
            for lineup in config.lineups
        ],
        "options": asdict(config.options),
        "metrics": list(config.metrics),
        "comparisons": asdict(config.comparisons),
        "chunk_size": config.chunk_size,
        "n_games": config.n_games,
        "report": style_table(config.report),
    }
    return json.loads(json.dumps(out))  # tuples -> lists; proves it serialises


def config_hash(config: ExperimentConfig) -> str:
    """sha256 (hex) of :func:`resolved_dict`, as canonical JSON (sorted keys, no spaces)."""
    return _sha256(resolved_dict(config))


# What only the analysis reads: changing these never changes a game.
ANALYSIS_KEYS = ("description", "question", "metrics", "comparisons")


def play_hash(config: ExperimentConfig) -> str:
    """sha256 (hex) of what decides the games: :func:`resolved_dict` without
    :data:`ANALYSIS_KEYS`. Runs resume on it, so a run can be resumed (or re-analysed) after
    its question, metrics or comparisons were edited, but never with other games."""
    data = {k: v for k, v in resolved_dict(config).items() if k not in ANALYSIS_KEYS}
    return _sha256(data)


def _sha256(data: Any) -> str:
    text = json.dumps(data, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()
