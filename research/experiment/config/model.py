"""The records a config becomes: its conditions, lineups, comparisons and games, the constants they
use, and the error a bad config raises."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ludolab import games
from ludolab.research.experiment.config.keys import Check, key
from ludolab.research.plots.style import FigureStyle, style_from_table
from ludolab.research.stats.multiple import CORRECTIONS

SCHEMA = "ludolab.experiment/1"
DEFAULT_CHUNK_SIZE = 250
DEFAULT_MIXED_MAX_GAMES = 50_000
NONE_WORD = "none"  # TOML has no null: Optional options take the string "none"


class ConfigError(ValueError):
    """An invalid experiment config; the message names the file, the key and what is allowed."""


@dataclass(frozen=True)
class Condition:
    """One condition: setups drawn from a constraint / deal set by a sampler.

    Attributes:
        name: unique within the config (default: the ``constraints`` value).
        constraints: the set as written (a shipped set's name or a path relative to the config).
        sampler: one of the game's samplers (``Game.samplers``; default its
            ``default_sampler``): Catan ``uniform|rejection|chain|solver|enumerate|optimise``,
            Gallery ``auto|exact|rejection``.
        params: parameter overrides, flat ``{"constraint.param": value}``.
        path: the resolved file of a set given by path, None for a shipped set.
        constraint_set: the loaded set with ``params`` applied (a ConstraintSet or DealSet).
        settings: the sampler's settings, from the condition's keys among the game's
            ``condition_keys`` (``Game.sampler_settings``); ``time_limit`` (seconds a sampler
            may search, None: its own default) is one every game's sampler is given.
        options: the rule options this condition's games are played with: the run's
            ``[options]`` with the condition's own ``options`` table on top.
        rule_changes: the condition's own ``options`` table (converted), empty if none.
        sweep: the ``[[sweep]]`` this condition was expanded from (its name), or None.
        sweep_value: the swept parameter's value in this condition, or None.
        sweep_parameter: what the sweep varies (``constraint.param`` or ``options.NAME``).
    """

    name: str = field(metadata=key())
    constraints: str = field(metadata=key())
    sampler: str = field(metadata=key())
    params: Mapping[str, Any] = field(metadata=key())
    path: Path | None
    constraint_set: Any
    settings: Mapping[str, Any] = field(default_factory=dict)
    options: Any = field(default=None, metadata=key())
    rule_changes: Mapping[str, Any] = field(default_factory=dict)
    sweep: str | None = None
    sweep_value: float | None = None
    sweep_parameter: str | None = None


@dataclass(frozen=True)
class AgentLineup:
    """Agents per seat, and whether they rotate through the seats (module docstring).

    Attributes:
        name: unique within the config (default: the seats joined by ``,``).
        seats: one agent spec per seat (``greedy``, ``mcts:playouts=200``), or one spec for
            every seat.
        rotate_seats: play every game seed in every rotation of the seats, so that no agent
            keeps the first seat.
    """

    name: str = field(metadata=key())
    seats: tuple[str, ...] = field(metadata=key())
    rotate_seats: bool = field(default=True, metadata=key(Check("boolean")))

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
            the metric's unit: used for equivalence tests (TOST) of the comparisons and of the
            change across ``skill`` (a change smaller than it does not matter either), and by
            ``ludolab plan``.
        mixed_max_games: the mixed-model sensitivity check is fitted when a comparison has at
            most this many games (its crossed random effects make the fit slow and memory-hungry
            beyond some tens of thousands of games); 0 never fits it.
        skill: lineup names in order of increasing skill (two or more), or empty: the report
            then tests, for each condition and primary metric, whether the condition's effect
            changes with skill (a randomisation test over setups, its own family; see
            :mod:`ludolab.research.stats.interaction`).
    """

    baseline: str | None = field(default=None, metadata=key())
    paired: bool = field(default=True, metadata=key(Check("boolean")))
    correction: str = field(default="holm", metadata=key(Check("choice", allowed=CORRECTIONS)))
    alpha: float = field(default=0.05, metadata=key(Check("fraction")))
    n_boot: int = field(default=2000, metadata=key(Check("integer", minimum=0)))
    metrics: tuple[str, ...] = field(default=(), metadata=key())
    primary: tuple[str, ...] = field(default=(), metadata=key())
    margins: dict[str, float] = field(default_factory=dict, metadata=key())
    mixed_max_games: int = field(
        default=DEFAULT_MIXED_MAX_GAMES, metadata=key(Check("integer", minimum=0))
    )
    skill: tuple[str, ...] = field(default=(), metadata=key())


@dataclass(frozen=True)
class ExperimentConfig:
    """A validated experiment (see the module docstring for the file format).

    Attributes:
        name: the experiment's name (its results folder).
        game: a registered game's name.
        seed: the master seed: every random choice of the run derives from it.
        players: seats per game, within the game's range.
        conditions: the ``[[conditions]]`` to compare (and those a ``[[sweep]]`` expands to).
        setups: setups per condition; the key is named by the game (``boards``, ``deals``).
        games_per_setup: game seeds per setup (``games_per_board``, ``games_per_deal``).
        lineups: the ``[[lineups]]`` of agents, each playing every game seed.
        options: the rule options every condition starts from (``[options]``; default: the
            published rules).
        metrics: the metrics to compute, by registry name (default: all of the game's).
        comparisons: the ``[comparisons]`` table: the tests wanted.
        chunk_size: games per chunk of the runner (a unit of work and of resuming).
        description: free text, shown in the report.
        question: the question the experiment asks, shown first in the report.
        report: the ``[report]`` table: how the figures are drawn (``style``, sizes).
    """

    name: str = field(metadata=key())
    game: str = field(metadata=key())
    seed: int = field(metadata=key(Check("integer", minimum=0)))
    players: int = field(metadata=key(Check("integer", minimum=1)))
    conditions: tuple[Condition, ...] = field(metadata=key())
    setups: int = field(metadata=key(Check("integer", minimum=1), named="setups_key"))
    games_per_setup: int = field(
        metadata=key(Check("integer", minimum=1), named="games_per_setup_key")
    )
    lineups: tuple[AgentLineup, ...] = field(metadata=key())
    options: Any = field(metadata=key())
    metrics: tuple[str, ...] = field(metadata=key())
    comparisons: Comparisons = field(metadata=key())
    chunk_size: int = field(default=DEFAULT_CHUNK_SIZE, metadata=key(Check("integer", minimum=1)))
    description: str = field(default="", metadata=key())
    question: str = field(default="", metadata=key())
    path: Path | None = field(default=None, compare=False)
    overrides: tuple[str, ...] = field(default=(), compare=False)
    # How the figures are drawn: an analysis setting, like comparisons (resuming with another
    # style redraws; the games are the same).
    report: FigureStyle = field(
        default_factory=lambda: style_from_table(None), compare=False, metadata=key()
    )

    @property
    def setup_kind(self) -> str:
        """What the game's setups are called (``boards``): its ``setup_plural``."""
        return games.get(self.game).setup_plural

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
