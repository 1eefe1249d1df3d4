"""The game protocol: what ludolab's generic layers know of a game, and the registry that finds
games.

A game is one :class:`Game` object, registered once under the entry-point group
:data:`ENTRY_POINT_GROUP` (``ludolab.games``). The built-in games register exactly as a package
from outside does, in its ``pyproject.toml``::

    [project.entry-points."ludolab.games"]
    mygame = "mygame.ludolab:GAME"        # a Game instance (or a Game subclass)

after which ``game = "mygame"`` in an experiment config, or ``ludolab ladder mygame``, plays it.
The generic layers (the config reader, the runner, the metrics, the statistics, the reports and
figures, the ladder, the command line, the design search, the Python API) ask :func:`get` for
the game and then use only what :class:`Game` declares; they never name a game
(``tests/test_game_protocol.py`` reads their source to hold them to it).
:mod:`ludolab.testing` checks a game against the protocol; ``docs/game-protocol.md`` is the
protocol's reference, and ``examples/goofspiel/`` a game from outside the package.

The protocol is versioned (:data:`PROTOCOL_VERSION`): a game states the version it was written
for in :attr:`Game.protocol`, and the registry refuses one written for another version with a
message saying which.
"""

from __future__ import annotations

import sys
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields, is_dataclass
from functools import cache
from importlib.metadata import entry_points
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple, Protocol

if TYPE_CHECKING:
    import argparse

    import pandas as pd
    import pyarrow as pa

    from ludolab.envs.agents import Agent, AgentRegistry

PROTOCOL_VERSION = 1
"""The version of the protocol this ludolab speaks."""

ENTRY_POINT_GROUP = "ludolab.games"
"""The entry-point group games register under."""

FAMILY_ENTRY_POINT_GROUP = "ludolab.game_families"
"""The entry-point group game families register under (:class:`GameFamily`): a library of many
games, each a ludolab game named ``<family>:<member>`` (``mylib:chess``)."""


RECORD_CORE: dict[str, str] = {
    "setup_id": "str: the id of the setup played (equal for equal setups)",
    "seed": "int: the game seed",
    "agents": "tuple[str, ...]: the agent spec of each seat, in seat order",
    "winners": "tuple[int, ...]: the winning seats (several for a shared win; none when the "
    "game was cut off)",
    "final_scores": "tuple[int | float, ...]: each seat's score at the end (the game's "
    "score_unit)",
    "score_by_step": "tuple[tuple[int | float, ...], ...]: each seat's score after every step "
    "of the game (a player turn, a round: whatever the game's steps are), shape (steps, "
    "players); the score before the first step is the same for every seat",
    "turns": "int: turns played (the game's unit of length)",
    "rounds": "int: rounds played",
    "n_actions": "int: decisions taken, every seat's (the steps the rules force included)",
    "truncated": "bool: the game was cut off (a turn limit) rather than won",
}
"""The fields every game's record has, first and in this order, with their types and meaning:
what the metrics, the ladder, ``simulate``'s summary and the reports read. A game's own fields
follow them."""


class Metric(NamedTuple):
    """How a metric column is defined (unpacks as ``description, formula, unit``); a unit of
    ``"score"`` is the game's :attr:`Game.score_unit`."""

    description: str
    formula: str
    unit: str


class UnknownGameError(ValueError):
    """A game name no installed package registers; the message lists the registered ones."""


class SetupSetError(ValueError):
    """A condition's constraint set (or its sampler's settings) that cannot be used.

    Attributes:
        key: the key to blame, relative to the condition's table (``constraints``, ``params``,
            ``objective``...), or a top-level path (``options.hand_size``) when the set is
            fine and a rule option makes it unusable.
    """

    def __init__(self, key: str, message: str) -> None:
        super().__init__(message)
        self.key = key


class GameRegistrationError(RuntimeError):
    """An entry point of :data:`ENTRY_POINT_GROUP` that is not a usable game."""


@dataclass(frozen=True)
class SetupDraw:
    """What a game's sampler drew for one condition.

    Attributes:
        setups: the setups, in draw order (objects of the game's setup type, each with an
            ``id`` and ``to_dict()``).
        method: the sampling method that ran (a sampler may hand over to another, e.g.
            ``uniform`` running as exact rejection).
        uniform: True when the setups are uniform draws from the set's setups.
        acceptance: the share of candidate setups the set accepts (exact or estimated), or
            None when unknown.
        seconds: wall-clock time of the draw, in seconds.
        notes: what the reader of a report should know about the draw, one sentence each.
        diagnostics: the sampler's own record (e.g. a Markov chain's convergence), or None.
    """

    setups: list[Any]
    method: str
    uniform: bool
    acceptance: float | None
    seconds: float
    notes: list[str] = field(default_factory=list)
    diagnostics: Any = None


@dataclass(frozen=True)
class OptionFlag:
    """How the command line spells one rule option where the flag derived from its field is not
    enough (:meth:`Game.option_flags`). ``ludolab simulate GAME`` derives a flag from every
    field of :attr:`Game.options_type` whose type a flag can spell (bool: a switch,
    ``--name``/``--no-name``; int, float, str, a tuple of them, any of them or None: a
    value, ``none`` for None), its help from the options class docstring's ``Attributes:``
    entry and :attr:`Game.option_units`; a field of another type gets no flag unless the game
    says how to read it here.

    Attributes:
        flags: the option's flags, the first one shown as its name (default: ``--<name>``,
            underscores as dashes).
        help: the help text (default: the docstring's words for the field).
        metavar: the value's placeholder in the help (default: the field's name in capitals).
        parse: reads the flag's text as the option's value (a file name to the table it holds,
            ``"0"`` to None), when the command runs; raises ValueError with a one-line message
            that names the flag. None: the field's type reads it.
        off: further switches that turn a bool option off, as the command line has long
            spelled them (``--award-own-artist`` for ``award_choice``).
    """

    flags: tuple[str, ...] = ()
    help: str | None = None
    metavar: str | None = None
    parse: Callable[[str], Any] | None = None
    off: tuple[str, ...] = ()


@dataclass(frozen=True)
class ReportSection:
    """A section a game adds to a run's report (:meth:`Game.report_section`): its title, a
    paragraph, and optionally a table (a pandas DataFrame, shown as it is) with its caption."""

    title: str
    text: str
    table: Any = None
    caption: str = ""


class GameState(Protocol):
    """One game in play, as a game's reference engine keeps it (what :meth:`Game.new_state`
    returns): the seat to act, its legal actions, a step, a copy, and a check of its own
    consistency. Actions are small integers; the engine's module documents their meaning. The
    state's class names its game in a class attribute ``game`` (the registry name), so that
    code holding a state can find the game's description."""

    @property
    def acting(self) -> int:
        """The seat that must decide now."""

    @property
    def done(self) -> bool:
        """The game is over (won, or cut off)."""

    def legal_actions(self) -> list[int]:
        """The acting seat's legal actions, sorted, never empty while the game is not done."""

    def forced_action(self) -> int:
        """The action the rules force (the only legal one, taken without asking an agent), or
        -1 when the acting seat has a choice."""

    def step(self, action: int) -> None:
        """Take ``action`` for the acting seat; an action that is not legal raises
        ``ludolab.envs.rules.IllegalActionError`` and leaves the game as it was."""

    def clone(self) -> GameState:
        """An independent copy: stepping either never changes the other."""

    def check_invariants(self) -> None:
        """Raise ``ludolab.envs.rules.InvariantError`` if the state is inconsistent."""


class Game(ABC):
    """One game, as ludolab's generic layers see it (protocol version 1).

    Subclass it, fill in the class attributes, implement the abstract methods, and register
    an instance under :data:`ENTRY_POINT_GROUP`. Methods import the game's modules when called,
    so that looking a game up (``ludolab --help`` lists them all) stays cheap.

    Attributes:
        protocol: the protocol version the game is written for.
        name: the registry name, as configs and the command line write it (lower case, no
            spaces), e.g. ``"catan"``.
        title: the name in prose, e.g. ``"Catan"``.
        min_players, max_players: the seats a game may have (inclusive).
        default_players: the seats when nobody says.
        setup_noun, setup_plural: what one setup is called (``"board"``, ``"boards"``); the
            config keys are ``<setup_plural>`` (setups per condition) and
            ``games_per_<setup_noun>``, and a run stores its setups in ``<setup_plural>.jsonl``.
        score_unit: what a final score counts, e.g. ``"VP"`` or ``"money"``.
        setup_options: the rule options that shape the setups themselves (so every condition of
            a run shares them).
        default_sampler: the sampler a condition uses when it names none (one of
            :attr:`samplers`).
    """

    protocol: ClassVar[int] = PROTOCOL_VERSION
    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    default_players: ClassVar[int]
    setup_noun: ClassVar[str] = "setup"
    setup_plural: ClassVar[str] = "setups"
    score_unit: ClassVar[str] = "points"
    setup_options: ClassVar[tuple[str, ...]] = ()
    default_sampler: ClassVar[str]
    user_errors: ClassVar[tuple[tuple[str, str], ...]] = ()
    """The game's exceptions a user can cause and fix, as (module, class name): the command
    line prints them as one line and exits 2 instead of a traceback."""

    def raised_user_error(self, exc: BaseException) -> bool:
        """Whether ``exc`` is one of :attr:`user_errors`. A class whose module is not loaded
        cannot have been raised, so nothing is imported to check."""
        for module, name in self.user_errors:
            loaded = sys.modules.get(module)
            if loaded is not None and isinstance(exc, getattr(loaded, name)):
                return True
        return False

    # -- static facts derived from the attributes ------------------------------------------

    @property
    def players(self) -> range:
        """The seat counts the game allows."""
        return range(self.min_players, self.max_players + 1)

    @property
    def setups_key(self) -> str:
        """The config key for setups per condition (``boards``)."""
        return self.setup_plural

    @property
    def games_per_setup_key(self) -> str:
        """The config key for game seeds per setup (``games_per_board``)."""
        return f"games_per_{self.setup_noun}"

    @property
    def setups_file(self) -> str:
        """The file a run keeps its setups in (``boards.jsonl``)."""
        return f"{self.setup_plural}.jsonl"

    def check_players(self, players: int) -> None:
        """Raise ValueError (``"Catan takes 2-4 players, got 5"``) unless ``players`` fits."""
        if players not in self.players:
            seats = (
                f"{self.min_players}"
                if self.min_players == self.max_players
                else f"{self.min_players}-{self.max_players}"
            )
            raise ValueError(f"{self.title} takes {seats} players, got {players}")

    # -- rules ---------------------------------------------------------------------------

    @property
    @abstractmethod
    def options_type(self) -> type:
        """The rule options: a frozen dataclass whose defaults are the published rules."""

    @property
    def option_units(self) -> Mapping[str, str]:
        """The unit of each numeric rule option (``{"vp_to_win": "VP"}``); empty if none."""
        return {}

    def default_options(self) -> Any:
        """The published rules: the options type with every default."""
        return self.options_type()

    def option_names(self) -> list[str]:
        """The rule options' names, in declaration order."""
        cls = self.options_type
        return [f.name for f in fields(cls)] if is_dataclass(cls) else []

    def option_from_config(self, name: str, value: Any, where: str) -> Any:
        """Rule option ``name`` from its config (TOML) value, where TOML cannot write the
        option's type directly (a table keyed by names, say); ValueError ``"<where>.<part>:
        what is wrong"`` if it is not one. The default takes the value as it is."""
        return value

    # -- setups --------------------------------------------------------------------------

    @property
    @abstractmethod
    def setup_type(self) -> type:
        """The class of a setup: it has an ``id`` (a string that is equal for equal setups)
        and ``to_dict()`` (its JSON form); a setup dealt for a number of seats says how many
        in ``n_players``."""

    @abstractmethod
    def setup_from_dict(self, data: Mapping[str, Any], where: str = "") -> Any:
        """A setup from its JSON form (``setup.to_dict()``); a ValueError naming ``where``
        (file and line) and the field if ``data`` is not one."""

    @property
    @abstractmethod
    def samplers(self) -> tuple[str, ...]:
        """The names of the samplers that draw the game's setups from a constraint set, as a
        condition's ``sampler`` key takes them."""

    @abstractmethod
    def fair_setup(self, players: int, seed: int, options: Any = None) -> Any:
        """The setup the published rules prescribe for ``players`` seats, drawn from ``seed``
        (a fair shuffle): what a game is played on when no setup is given."""

    # -- constraint sets and samplers ------------------------------------------------------

    condition_keys: ClassVar[tuple[str, ...]] = ()
    """Keys a condition may hold beyond the common ones, read by :meth:`sampler_settings`
    (Catan: ``objective``, ``time_limit``)."""

    smoke_set: ClassVar[str | None] = None
    """The shipped set a smoke run draws from (the conformance suite's tiny ``ludolab run``):
    one its default sampler draws from quickly; None: the first of :meth:`shipped_sets`."""

    sets_folder: ClassVar[tuple[str, ...] | None] = None
    """Where the game's shipped set files are, as a package and the folders inside it
    (``("ludolab_goofspiel", "sets")``): one TOML file ``<name>.toml`` per set, listing its
    constraints as ``[[constraint]]`` tables with ``name`` and parameters. Given, it is what
    :meth:`shipped_sets` lists and what :meth:`set_without` rewrites; None: the game says."""

    def shipped_sets(self) -> list[str]:
        """The names of the constraint sets the game ships, which a condition may name instead
        of a file. A game ships at least one (its fair setups, say, with no constraint). The
        default: the files in :attr:`sets_folder`, none without it."""
        if self.sets_folder is None:
            return []
        from ludolab.research.set_names import shipped_set_names

        return shipped_set_names(*self.sets_folder)

    @abstractmethod
    def load_set(
        self, source: str | Path, params: Mapping[str, Any], *, players: int, options: Any
    ) -> Any:
        """The constraint set ``source`` names (a shipped set's name, or a file) with
        ``params`` (flat ``{"constraint.param": value}``) applied, ready to draw setups for
        ``players`` seats under rule ``options``. SetupSetError naming the key to blame when
        it cannot be used (unknown, malformed, or provably without a setup)."""

    @abstractmethod
    def set_as_data(self, cset: Any) -> dict[str, Any]:
        """The set from :meth:`load_set` as plain JSON data (its name, description and every
        constraint with its parameters): what a run's resolved config records, and hashes."""

    def owns_set(self, source: str | Path) -> bool:
        """Whether ``source`` (a set's name or file) is one of this game's constraint sets, so
        that a set can be used without naming its game. The default knows the shipped ones."""
        return str(source) in self.shipped_sets()

    def set_parameters(self, source: str | Path) -> list[str]:
        """The parameters (``constraint.param``) of the set ``source`` that a sweep may vary;
        SetupSetError (key ``constraints``, or ``parameter`` when the game's sets cannot be
        swept) otherwise."""
        raise SetupSetError("parameter", f"{self.title} constraint sets have no parameters")

    set_suffix: ClassVar[str] = ".toml"
    """The suffix of the game's set files (what :meth:`set_without` writes)."""

    def set_constraints(self, source: str | Path) -> dict[str, dict[str, Any]]:
        """The constraints of the set ``source`` (a shipped set's name or a file) by name, each
        with its parameters' values as the set gives them, ``{"constraint": {"param": value}}``:
        what a design search may switch off (a constraint) or vary (``constraint.param``).
        SetupSetError (key ``constraints``) when ``source`` is not one of the game's sets; the
        default: the game's sets cannot be searched."""
        raise SetupSetError(
            "constraints",
            f"{self.title} constraint sets cannot be searched (its description has no "
            "set_constraints)",
        )

    def set_without(self, source: str | Path, names: Sequence[str]) -> str:
        """The text of a new set file (suffix :attr:`set_suffix`, read by :meth:`load_set`):
        the set ``source`` without the constraints ``names``, named for what it leaves out. A
        design search writes it when a candidate switches constraints off. The default rewrites
        a set file that lists its constraints as ``[[constraint]]`` tables (a shipped set's, in
        :attr:`sets_folder`)."""
        from ludolab.research.set_names import set_file_without, shipped_set_file

        if self.sets_folder is not None and str(source) in self.shipped_sets():
            return set_file_without(
                shipped_set_file(*self.sets_folder, name=str(source)), names
            )
        if not Path(source).is_file():
            raise SetupSetError(
                "constraints",
                f"{source}: not a {self.title} set file nor one of its shipped sets "
                f"({', '.join(self.shipped_sets()) or 'none'})",
            )
        return set_file_without(Path(source), names)

    def sampler_settings(
        self, cset: Any, sampler: str, table: Mapping[str, Any], setups: int
    ) -> dict[str, Any]:
        """The settings of ``sampler`` from a condition's ``table`` (its keys among
        :attr:`condition_keys`), checked against the set and the setups asked for;
        SetupSetError naming the key otherwise. The default takes the values as written."""
        return {key: table[key] for key in self.condition_keys if key in table}

    @abstractmethod
    def draw_setups(
        self,
        cset: Any,
        n: int,
        sampler: str,
        seed: int,
        *,
        players: int,
        options: Any,
        settings: Mapping[str, Any],
    ) -> SetupDraw:
        """``n`` setups for ``players`` seats drawn from ``cset`` (from :meth:`load_set`) by
        ``sampler`` with ``settings`` (from :meth:`sampler_settings`), every random choice from
        ``seed``. May give fewer (a sampler that lists a small set), with a note saying so."""

    # -- play ----------------------------------------------------------------------------

    @property
    @abstractmethod
    def agents(self) -> AgentRegistry:
        """The game's agents, by name (``random``, ``greedy``, ...); every game has ``random``
        (a uniform choice among the legal actions), the agent smoke runs and tests use."""

    @abstractmethod
    def new_state(self, setup: Any, players: int, seed: int, options: Any = None) -> GameState:
        """A game of ``players`` seats on ``setup`` at its first decision, with every chance
        event drawn from ``seed``, under rule ``options`` (None: the published rules): the
        reference engine's state, which :meth:`play` must agree with."""

    @abstractmethod
    def state_record(self, state: GameState, agent_specs: Sequence[str]) -> Any:
        """The record of the finished game ``state`` played by agents ``agent_specs`` (one per
        seat): what :meth:`play` returns for the same game."""

    @abstractmethod
    def play(self, setup: Any, agents: Sequence[Agent], seed: int, options: Any = None) -> Any:
        """Play one game on ``setup`` with ``agents`` (one per seat, fresh, in seat order) and
        game seed ``seed`` under rule ``options`` (None: the published rules); the game's
        record: a dataclass whose first fields are :data:`RECORD_CORE`, with ``to_dict()``. The
        same arguments give the same record, field for field."""

    @property
    @abstractmethod
    def record_type(self) -> type:
        """The dataclass :meth:`play` returns (its fields are a run's ``games.parquet`` columns
        after the plan's own)."""

    # -- metrics ---------------------------------------------------------------------------

    length_words: ClassVar[str] = "turns and rounds are the game's own."
    """A sentence saying what a game's turns and rounds are, for a report's length table."""

    turn_unit: ClassVar[str] = "turns"
    """What the record core's ``turns`` counts, as a reader of the game says it
    (``"player turns"``, ``"cards played"``)."""

    core_formulas: ClassVar[Mapping[str, str]] = {}
    """How the game counts the record core's ``turns``, ``rounds`` and ``truncated``, as the
    formula a report's definitions print (e.g. ``{"rounds": "ceil(turns / n)"}``)."""

    @property
    def metrics(self) -> Mapping[str, Metric]:
        """The game's own per-game metrics, by column name (registered as
        ``<game name>.<column>``); :meth:`own_metric_values` computes them. A name may not be
        one of the metrics every game has (``ludolab.research.metrics.GAME_METRICS``)."""
        return {}

    @property
    def metric_labels(self) -> Mapping[str, str]:
        """A short name for each of the game's own metrics, as a report's sentence says it
        (``"sevens rolled"``)."""
        return {}

    def own_metric_values(self, table: pa.Table) -> Mapping[str, Sequence[Any]]:
        """The game's own metrics (:attr:`metrics`) for every game of ``table`` (its games'
        records as a table, one row per game): column name -> one value per row."""
        return {}

    def seat_income(self, table: pa.Table) -> Sequence[Sequence[float]] | None:
        """Each game's income per seat (what ``income_gini`` measures the inequality of), one
        sequence per row of ``table``; None: the final scores are the income."""
        return None

    @property
    def unsupported_metrics(self) -> Mapping[str, str]:
        """The metrics every game has (``ludolab.research.metrics.GAME_METRICS``) that this
        game cannot support, each with why (``{"lead_change": "scores only at the end"}``): a
        run's tables leave them out, a config that names one is refused with the reason, and
        the per-game table holds NaN for them. None by default."""
        return {}

    # -- setup features, pictures and the report ------------------------------------------

    key_feature: ClassVar[str | None] = None
    """The setup feature a run's figures draw game length against (Catan: the richest
    intersection's pips, what its balancing constraints push down); None: draw the score
    spread against the conditions' tightness instead, where the samplers measured it."""

    key_feature_label: ClassVar[str] = ""
    """:attr:`key_feature` in words with its unit, e.g. ``"richest intersection (pips)"``."""

    key_metric: ClassVar[str] = "turns"
    """The per-game metric a run's figures draw against :attr:`key_feature`: game length unless
    the game names another (one whose length is fixed, say, names ``"score_spread"``)."""

    def parameter_unit(self, constraints: str, params: Mapping[str, Any], name: str) -> str:
        """What the set parameter ``name`` (``constraint.param``) of the set ``constraints``
        with ``params`` counts ("pips", "cards"), for a sweep's axis; "" when unknown."""
        return ""

    def example_figure(self, setups: Mapping[str, Sequence[Any]], n: int) -> Any:
        """A picture of the first ``n`` setups of each condition (a matplotlib Figure, one row
        per condition in the mapping's order), for a run's figures; None: the game has none."""
        return None

    regression_features: ClassVar[tuple[str, ...]] = ()
    """The setup features (of :meth:`setup_features`) a run's report regresses each metric's
    setup means on; none: no regression."""

    def setup_features(self, setup: Any) -> Mapping[str, float]:
        """Numbers that describe ``setup`` (how rich the best spot is, how unevenly something
        is spread...), by name, to relate metrics to setups; none by default."""
        return {}

    @property
    def feature_docs(self) -> Mapping[str, str]:
        """What each of :meth:`setup_features`' names measures, for a report's definitions."""
        return {}

    def report_section(self, per_game: pd.DataFrame) -> ReportSection | None:
        """A section of the game's own for a run's report (after its tables, before its
        figures), from the run's per-game table (one row per game: ``condition``, ``lineup``,
        ``setup``, ``seed`` and every per-game metric, the game's own among them, and the setup
        features); None (the default): the report has none."""
        return None

    def own_seat_values(self, table: pa.Table) -> Mapping[str, Sequence[Any]]:
        """The game's own per-seat columns of the per-seat table (``Games.per_seat``), each one
        value per seat of every game of ``table``, games in order and seats in order within
        each (``ludolab.research.simulate.SeatRows`` lays them out). The core's columns (seat,
        agent, won, shared_win, final_score) come first without it."""
        return {}

    # -- hooks into other tools ------------------------------------------------------------

    def observe(self, state: GameState, seat: int) -> Any:
        """The position of ``state`` as ``seat`` sees it, encoded as the game's Gymnasium env
        encodes it for its learner (a trained policy's input: ``ludolab.envs.sb3`` asks it).
        A game without an environment need not have it."""
        raise NotImplementedError(f"{self.title} has no observation encoding")

    def add_commands(self, sub: Any) -> None:
        """Add the game's own commands to the command line (``sub``: the ``ludolab`` parser's
        ``argparse`` subparsers); each sets ``run`` to the function that runs it. None by
        default."""
        return None

    def register_envs(self) -> tuple[str, ...]:
        """Register the game's Gymnasium environments (idempotent) and return their ids, so
        that ``gymnasium.make(id)`` works; none by default."""
        return ()

    # -- command line ----------------------------------------------------------------------
    # What ``ludolab simulate GAME``, ``ludolab generate GAME`` and ``ludolab constraints`` ask
    # of a game beyond the rest of the protocol. Every default works from the attributes and
    # methods above, so a game from outside gets the commands without writing any of these.

    def option_flags(self) -> Mapping[str, OptionFlag]:
        """How ``ludolab simulate GAME`` spells the rule options whose derived flag is not
        enough, by option name (:class:`OptionFlag`): another flag name, a type a flag cannot
        spell (a table read from a file), an old switch kept. Empty by default: every option
        gets its derived flag."""
        return {}

    default_set: ClassVar[str | None] = None
    """The set ``ludolab generate GAME`` draws from when ``--constraints`` is not given (one of
    :meth:`shipped_sets`); None: ``--constraints`` is required."""

    def add_generate_arguments(self, parser: argparse.ArgumentParser) -> None:
        """Add the game's own flags to ``ludolab generate GAME``, beyond the common ones
        (``--constraints``, ``--param``, ``-n``, ``--sampler``, ``--seed``, ``--players``,
        ``--out``...). A flag whose ``dest`` is one of :attr:`condition_keys` replaces the
        generic one (``--objective`` with its choices); the others reach
        :meth:`generate_settings` and :meth:`after_generate`. None by default."""
        return None

    def generate_settings(
        self, args: argparse.Namespace, status: Callable[[str], None]
    ) -> dict[str, Any]:
        """Settings for :meth:`draw_setups` from the game's own ``generate`` flags (in
        ``args``), added to those :meth:`sampler_settings` gives: e.g. how many shuffles a
        sampler may try. ``status`` shows a line on what the sampler is doing (a live status
        line on the terminal), for a sampler that can say; a condition of a run never sets
        these. None by default."""
        return {}

    def after_generate(
        self, setups: Sequence[Any], args: argparse.Namespace, set_name: str
    ) -> list[str]:
        """What ``ludolab generate GAME`` does with the ``setups`` it wrote, drawn from the set
        named ``set_name``, at the game's own flags' asking (pictures of the first ones, say):
        the lines it prints. Nothing by default."""
        return []

    def constraint_library(self) -> str:
        """What ``ludolab constraints list`` prints for the game (lines of at most 100
        characters): its constraints with their parameters, and its shipped sets with what each
        is for. The default lists the shipped sets with their descriptions
        (:meth:`set_as_data`)."""
        import textwrap

        lines = [f"Shipped {self.title} constraint sets (ludolab constraints show NAME):"]
        for name in self.shipped_sets():
            words = self.set_as_data(self._shipped_set(name)).get("description") or ""
            lines.append(
                textwrap.fill(
                    f"{name}: {' '.join(words.split()) or '(no description)'}",
                    96,
                    initial_indent="  ",
                    subsequent_indent="    ",
                )
            )
        return "\n".join(lines)

    def describe_set(self, source: str | Path, *, model: bool = False) -> str:
        """What ``ludolab constraints show`` prints for the set ``source`` (a shipped set's name
        or a file): its name, description and constraints with their parameters; with
        ``model``, also the model its solver samplers run. SetupSetError naming the key to
        blame (``constraints``; ``model`` when the game has no model to show). The default
        prints :meth:`set_as_data`, and has no model."""
        if model:
            raise SetupSetError(
                "model",
                f"{source} is a {self.title} {self.setup_noun} set; {self.title} has no "
                "solver model to show",
            )
        data = self.set_as_data(self._shipped_set(source))
        lines = [f"{data.get('name', source)}: {data.get('description') or ''}".rstrip(": ")]
        for item in data.get("constraints", []):
            if isinstance(item, Mapping) and "name" in item:
                shown = ", ".join(f"{k}={v!r}" for k, v in item.items() if k != "name")
                lines.append(f"  - {item['name']}({shown})" if shown else f"  - {item['name']}")
            else:
                lines.append(f"  - {item}")
        if len(lines) == 1:
            lines.append(f"  (no constraints: fair {self.setup_plural})")
        return "\n".join(lines)

    def _shipped_set(self, source: str | Path) -> Any:
        """The set ``source`` as it is, for the game's default seats and the published rules."""
        return self.load_set(
            source, {}, players=self.default_players, options=self.default_options()
        )

    def __repr__(self) -> str:
        return f"<ludolab game {self.name!r} ({self.title})>"


class GameFamily(ABC):
    """A library of games, each of which becomes a ludolab game on demand (protocol version 1).

    A game-playing framework may hold tens of games, each with its own parameters: listing
    every one as an entry point would import the framework to list the games, and a game added
    to it would need a release of the adapter. A family registers once, under
    :data:`FAMILY_ENTRY_POINT_GROUP`::

        [project.entry-points."ludolab.game_families"]
        mylib = "mylib_adapter:FAMILY"        # a GameFamily instance

    and its members are then games named ``<family>:<member>`` wherever a game's name is
    written (``game = "mylib:chess"`` in a config, ``ludolab ladder mylib:chess``):
    :func:`get` asks the family for the member, a :class:`Game` like any other, and
    :func:`names` lists only the games registered one by one.

    Attributes:
        protocol: the protocol version the family's games are written for.
        name: the registry name, the part before ``:`` (lower case, no spaces).
        title: the family's name in prose (``"My library"``).
        user_errors: the family's exceptions a user can cause and fix, as for
            :attr:`Game.user_errors`.
    """

    protocol: ClassVar[int] = PROTOCOL_VERSION
    name: ClassVar[str]
    title: ClassVar[str]
    user_errors: ClassVar[tuple[tuple[str, str], ...]] = ()

    raised_user_error = Game.raised_user_error

    @abstractmethod
    def members(self) -> list[str]:
        """The names of the games the family holds (the part after ``:``), sorted; [] when the
        library is not installed."""

    @abstractmethod
    def member(self, name: str) -> Game:
        """The game ``name`` (the part after ``:``) as a ludolab game named
        ``<family>:<name>``; UnknownGameError, one line saying why (the library is not
        installed; it has no game of that name, with the nearest names), otherwise."""

    def add_commands(self, sub: Any) -> None:
        """Add the family's own commands to the command line (``sub``: the ``ludolab``
        parser's ``argparse`` subparsers), e.g. one that lists its games; each sets ``run``.
        None by default."""
        return None

    def __repr__(self) -> str:
        return f"<ludolab game family {self.name!r} ({self.title})>"


def _load(entry: Any) -> Game:
    return _registered_object(entry, ENTRY_POINT_GROUP, Game, "game")


def _registered_object(entry: Any, group: str, kind: type, what: str) -> Any:
    """The object the entry point ``entry`` of ``group`` registers: an instance of ``kind`` (a
    subclass given is instantiated), written for this protocol and named as the entry point
    (``what``: "game", "game family"); GameRegistrationError saying which and why otherwise."""
    try:
        obj = entry.load()
    except Exception as exc:  # an outside package's import error: say whose
        raise GameRegistrationError(
            f"the {what} {entry.name!r} ({entry.value}, entry point group {group}) "
            f"cannot be loaded: {type(exc).__name__}: {exc}"
        ) from exc
    found = obj() if isinstance(obj, type) and issubclass(obj, kind) else obj
    if not isinstance(found, kind):
        raise GameRegistrationError(
            f"the entry point {entry.name!r} = {entry.value} (group {group}) is "
            f"{type(found).__name__}, not a ludolab.games.{kind.__name__}"
        )
    if found.protocol != PROTOCOL_VERSION:
        raise GameRegistrationError(
            f"the {what} {entry.name!r} ({entry.value}) is written for game protocol "
            f"{found.protocol}; this ludolab speaks version {PROTOCOL_VERSION}"
        )
    if found.name != entry.name:
        raise GameRegistrationError(
            f"the entry point {entry.name!r} = {entry.value} registers a {what} named "
            f"{found.name!r}; the two names must be the same"
        )
    return found


@cache
def _entries(group: str = ENTRY_POINT_GROUP) -> dict[str, Any]:
    return {e.name: e for e in sorted(entry_points(group=group), key=lambda e: e.name)}


def names() -> list[str]:
    """The registered games' names, sorted (nothing is imported); a family's members are not
    among them (:func:`families`)."""
    return list(_entries())


def families() -> list[str]:
    """The registered game families' names, sorted (nothing is imported)."""
    return list(_entries(FAMILY_ENTRY_POINT_GROUP))


@cache
def family(name: str) -> GameFamily:
    """The registered game family ``name``; UnknownGameError if none."""
    entry = _entries(FAMILY_ENTRY_POINT_GROUP).get(name)
    if entry is None:
        raise UnknownGameError(f"unknown game family {name!r}; the registered families are "
                               f"{', '.join(families()) or 'none'}")
    return _load_family(entry)


def _load_family(entry: Any) -> GameFamily:
    return _registered_object(entry, FAMILY_ENTRY_POINT_GROUP, GameFamily, "game family")


def known(name: object) -> bool:
    """Whether ``name`` is a game :func:`get` gives: a registered game, or a member of a
    registered family (``mylib:chess``) that the family has. Never raises."""
    if not isinstance(name, str):
        return False
    if name in _entries():
        return True
    prefix, sep, _ = name.partition(":")
    if not sep or prefix not in families():
        return False
    try:
        get(name)
    except UnknownGameError:
        return False
    return True


def user_error_holders() -> list[Game | GameFamily]:
    """The registered games and families: what a command line asks whether an exception is a
    user's error (their ``raised_user_error``). A family's object is cheap to load: its
    library loads with its first member."""
    holders: list[Game | GameFamily] = [get(n) for n in names()]
    for name in families():
        try:
            holders.append(family(name))
        except GameRegistrationError:  # a broken family raised nothing of its own
            continue
    return holders


def game_of_set(source: str | Path, name_it: str = "give game=") -> str:
    """The registered game a constraint set is for: the one that ships a set of that name, or
    whose constraint library has every constraint the set file lists (``Game.owns_set``).
    ValueError when no game or several games claim it, ending with ``name_it`` (how the caller
    names a game: ``game=`` in Python, ``--game`` on the command line)."""
    from ludolab.research.suggest import did_you_mean

    owners = [name for name in names() if get(name).owns_set(source)]
    if len(owners) == 1:
        return owners[0]
    if owners:
        raise ValueError(f"{source}: a constraint set of {', '.join(owners)} alike; {name_it}")
    if Path(source).suffix == ".toml" or "/" in str(source):
        raise ValueError(
            f"{source}: no registered game ({', '.join(names())}) has every constraint this "
            f"file lists; check its names, or {name_it}"
        )
    shipped = [s for name in names() for s in get(name).shipped_sets()]
    raise ValueError(
        f"unknown constraint set {str(source)!r}; {did_you_mean(str(source), shipped)}"
        f"shipped sets: {', '.join(shipped)}"
    )


def source(name: str) -> dict[str, str | None]:
    """Where the registered game ``name`` comes from, for a run's provenance: its entry point
    (``module:attribute``), the distribution that registers it and that distribution's version
    (None when unknown). UnknownGameError when ``name`` is not registered."""
    prefix, sep, _ = name.partition(":")
    entry = _entries(FAMILY_ENTRY_POINT_GROUP).get(prefix) if sep else _entries().get(name)
    if entry is None or (sep and not known(name)):
        raise UnknownGameError(unknown_game_message(name))
    dist = getattr(entry, "dist", None)
    return {
        "entry_point": entry.value,
        "distribution": dist.metadata["Name"] if dist is not None else None,
        "version": dist.version if dist is not None else None,
    }


@cache
def get(name: str) -> Game:
    """The registered game ``name``, or the member ``<family>:<member>`` of a registered
    family; UnknownGameError (one line: the registered games, or the family's reason) if
    none."""
    prefix, sep, member = name.partition(":")
    if sep and prefix in families():
        game = family(prefix).member(member)
        if not isinstance(game, Game) or game.name != name:
            raise GameRegistrationError(
                f"the game family {prefix!r} gave {game!r} for {name!r}: a Game named {name!r} "
                "is expected"
            )
        return game
    entry = _entries().get(name)
    if entry is None:
        raise UnknownGameError(unknown_game_message(name))
    return _load(entry)


def unknown_game_message(name: object) -> str:
    """``"unknown game 'chess'; the registered games are catan, gallery"`` (one line); for a
    name in a registered family (``mylib:chesss``), the family's own reason."""
    prefix, sep, _ = str(name).partition(":")
    if sep and prefix in families():
        try:
            get(str(name))
        except UnknownGameError as exc:
            return str(exc)
    listed = ", ".join(names()) or "none (is ludolab installed with pip install -e .?)"
    also = "".join(f", and {f}:<game> ({family_title(f)})" for f in families())
    return f"unknown game {name!r}; the registered games are {listed}{also}"


def family_title(name: str) -> str:
    """A registered family's title, or its name when it cannot be loaded."""
    try:
        return family(name).title
    except (UnknownGameError, GameRegistrationError):
        return name


__all__ = [
    "ENTRY_POINT_GROUP",
    "FAMILY_ENTRY_POINT_GROUP",
    "PROTOCOL_VERSION",
    "RECORD_CORE",
    "Game",
    "GameFamily",
    "GameRegistrationError",
    "GameState",
    "Metric",
    "OptionFlag",
    "SetupDraw",
    "SetupSetError",
    "UnknownGameError",
    "families",
    "family",
    "get",
    "known",
    "names",
    "unknown_game_message",
    "user_error_holders",
]
