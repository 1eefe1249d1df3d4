"""Catan as a ludolab game: the description the generic layers read (``ludolab.games``).

Registered under the entry point ``catan`` of the group ``ludolab.games`` (``pyproject.toml``),
as any game from outside registers. The rules as the engine plays them are in
``docs/rules/catan.md``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ludolab.games import Game, SetupDraw, SetupSetError

# Samplers that check every board against the set in Python, so every constraint needs its
# Python face.
_PYTHON_SAMPLERS = ("uniform", "rejection", "chain")
DEFAULT_OBJECTIVE = "pip-spread"
"""What the ``optimise`` sampler optimises when a condition names no objective."""
MAX_DRAWS = 50_000_000
"""Fair shuffles the uniform sampler may try, unless ``generate catan --max-draws`` says."""


class Catan(Game):
    """The Settlers of Catan base game on boards drawn from constraint sets."""

    name = "catan"
    title = "Catan"
    min_players = 2
    max_players = 4
    default_players = 4
    setup_noun = "board"
    setup_plural = "boards"
    default_sampler = "uniform"
    sets_folder = ("ludolab.research", "catan", "constraint_sets")
    score_unit = "VP"
    core_formulas = {
        "turns": "player turns after setup, winning turn included",
        "rounds": "ceil(turns / n)",
        "truncated": "record.truncated: the turn limit ended the game",
    }
    turn_unit = "player turns"
    length_words = "turns are player turns (one seat's turn), rounds are turns / players."
    condition_keys = ("objective", "time_limit")
    smoke_set = "official"  # exact rejection: a board in milliseconds
    # What a metric is regressed on: richness of the best spot, how unevenly pips fall on
    # resources, clumping, hot numbers next to each other, and the seats' start gap.
    key_feature = "int_pips_max"
    key_feature_label = "richest intersection (pips)"
    regression_features = (
        "int_pips_max",
        "resource_pips_std",
        "same_resource_adjacent_pairs",
        "red_adjacent_pairs",
        "start_seat_pips_spread",
    )
    user_errors = (
        ("ludolab.envs.catan.board", "BoardError"),
        ("ludolab.envs.catan.topology", "LayoutError"),
        ("ludolab.research.catan.constraint_set", "ConstraintSetError"),
        ("ludolab.research.catan.constraints", "ConstraintError"),
        ("ludolab.research.catan.samplers", "SamplingError"),
    )

    @property
    def options_type(self) -> type:
        from ludolab.envs.catan.options import GameOptions

        return GameOptions

    @property
    def option_units(self) -> Mapping[str, str]:
        from ludolab.envs.catan.options import OPTION_UNITS

        return OPTION_UNITS

    @property
    def setup_type(self) -> type:
        from ludolab.envs.catan.board import Board

        return Board

    def setup_from_dict(self, data: Mapping[str, Any], where: str = "") -> Any:
        from ludolab.envs.catan.board import Board

        return Board.from_dict(data, where or "<board>")

    @property
    def samplers(self) -> tuple[str, ...]:
        from ludolab.research.catan.samplers import SAMPLERS

        return tuple(SAMPLERS)

    def load_set(
        self, source: str | Path, params: Mapping[str, Any], *, players: int, options: Any
    ) -> Any:
        from ludolab.research.catan.constraint_set import ConstraintSetError, load_constraint_set
        from ludolab.research.catan.feasibility import impossibility

        try:
            load_constraint_set(source)
        except ConstraintSetError as exc:
            raise SetupSetError("constraints", str(exc)) from None
        try:
            cset = load_constraint_set(source, dict(params), "params")
        except ConstraintSetError as exc:
            raise SetupSetError("params", str(exc)) from None
        impossible = impossibility(cset)
        if impossible:
            raise SetupSetError(
                "params" if params else "constraints",
                f"{cset.label} has no board: {impossible}; loosen it",
            )
        return cset

    def set_as_data(self, cset: Any) -> dict[str, Any]:
        return {
            "name": cset.name,
            "description": cset.description,
            "layout": cset.layout,
            "constraints": [c.describe() for c in cset.constraints],
            "minizinc": [{"code": r.code, "reads": sorted(r.reads)} for r in cset.raw],
        }

    def set_parameters(self, source: str | Path) -> list[str]:
        from ludolab.research.catan.constraint_set import ConstraintSetError, load_constraint_set

        try:
            cset = load_constraint_set(source)
        except ConstraintSetError as exc:
            raise SetupSetError("constraints", str(exc)) from None
        return [f"{c.name}.{p}" for c in cset.constraints for p in c.params]

    def set_constraints(self, source: str | Path) -> dict[str, dict[str, Any]]:
        from ludolab.research.catan.constraint_set import ConstraintSetError, load_constraint_set

        try:
            cset = load_constraint_set(source)
        except ConstraintSetError as exc:
            raise SetupSetError("constraints", str(exc)) from None
        return {c.name: {p: c.values[p] for p in c.params} for c in cset.constraints}

    def sampler_settings(
        self, cset: Any, sampler: str, table: Mapping[str, Any], setups: int
    ) -> dict[str, Any]:
        from ludolab.research.catan.constraints import OBJECTIVES

        if sampler in _PYTHON_SAMPLERS and not cset.has_python_faces:
            raise SetupSetError(
                "sampler",
                f"'{sampler}' needs a Python face for every constraint, and {cset.label} has "
                f"raw MiniZinc constraints; use 'solver' (NOT uniform), 'enumerate' or 'optimise'",
            )
        objective: str | None = None
        if sampler == "optimise":
            objective = table.get("objective", DEFAULT_OBJECTIVE)
            if objective not in OBJECTIVES:
                raise SetupSetError(
                    "objective", f"{objective!r} is not one of {', '.join(OBJECTIVES)}"
                )
            if setups != 1:
                raise SetupSetError(
                    "sampler",
                    f"'optimise' gives one board (the best one), but boards = {setups}; set "
                    f"boards = 1 or use uniform, solver or enumerate",
                )
        elif "objective" in table:
            raise SetupSetError("objective", "only with sampler = 'optimise'")
        time_limit: float | None = None
        if "time_limit" in table:
            if sampler == "rejection":
                raise SetupSetError("time_limit", "not with sampler 'rejection' (no solver)")
            value = table["time_limit"]
            if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
                raise SetupSetError("time_limit", f"expected seconds > 0, got {value!r}")
            time_limit = float(value)
        return {"objective": objective, "time_limit": time_limit}

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
        from ludolab.research.catan.generate import generate_boards

        # `generate catan --sampler enumerate` without -n lists every board (generate_settings)
        every = sampler == "optimise" or (sampler == "enumerate" and settings.get("list_all"))
        boards, report = generate_boards(
            cset,
            None if every else n,
            sampler,
            seed,
            objective=settings.get("objective") or DEFAULT_OBJECTIVE,
            time_limit=settings.get("time_limit"),
            max_draws=settings.get("max_draws", MAX_DRAWS),
            status=settings.get("status"),
        )
        boards = list(boards)
        notes = list(report.notes)
        distinct = len({b.id for b in boards})
        if distinct < n and sampler in ("enumerate", "optimise"):
            notes.append(
                f"the {sampler} sampler gave {distinct} board(s), not {n}: games are spread "
                f"over those"
            )
        method = sampler
        if report.method and report.method != sampler:
            method = f"{sampler} ({report.method})"
        return SetupDraw(
            boards,
            method,
            report.uniform,
            report.acceptance,
            report.seconds,
            notes,
            report.chain,
        )

    def fair_setup(self, players: int, seed: int, options: Any = None) -> Any:
        from ludolab.research.catan.samplers import fair_board

        return fair_board(seed)

    @property
    def agents(self) -> Any:
        from ludolab.envs.catan.agents import REGISTRY

        return REGISTRY

    def new_state(self, setup: Any, players: int, seed: int, options: Any = None) -> Any:
        from ludolab.envs.catan.engine import Game as State

        return State(setup, players, seed, options)

    def state_record(self, state: Any, agent_specs: Sequence[str]) -> Any:
        from ludolab.envs.catan.play import game_record

        return game_record(state, agent_specs)

    def play(self, setup: Any, agents: Sequence[Any], seed: int, options: Any = None) -> Any:
        from ludolab.envs.catan.play import play_game

        return play_game(setup, agents, seed, options)

    @property
    def metrics(self) -> Mapping[str, Any]:
        from ludolab.research.catan.game_metrics import METRICS

        return METRICS

    @property
    def metric_labels(self) -> Mapping[str, str]:
        from ludolab.research.catan.game_metrics import LABELS

        return LABELS

    def own_metric_values(self, table: Any) -> Mapping[str, Sequence[Any]]:
        from ludolab.research.catan.game_metrics import own_metric_values

        return own_metric_values(table)

    def seat_income(self, table: Any) -> Sequence[Sequence[float]] | None:
        from ludolab.research.catan.game_metrics import seat_income

        return seat_income(table)

    def observe(self, state: Any, seat: int) -> Any:
        from ludolab.envs.catan.observation import encode

        return encode(state, seat)

    def register_envs(self) -> tuple[str, ...]:
        from ludolab.envs.catan import gym_env

        gym_env.register()
        return (gym_env.ENV_ID,)

    def owns_set(self, source: str | Path) -> bool:
        if str(source) in self.shipped_sets():
            return True
        from ludolab.research.catan.constraints import REGISTRY
        from ludolab.research.set_names import set_file_constraints

        names = set_file_constraints(source)
        # `minizinc`, a raw MiniZinc expression on the board model, is Catan's too
        return bool(names) and names <= set(REGISTRY) | {"minizinc"}

    def parameter_unit(self, constraints: str, params: Mapping[str, Any], name: str) -> str:
        from ludolab.research.catan.constraint_set import load_constraint_set

        cname, _, pname = name.rpartition(".")
        try:
            cset = load_constraint_set(constraints, dict(params))
        except (ValueError, OSError):  # a set file moved since the run: no unit
            return ""
        for constraint in cset.constraints:
            if constraint.name == cname and pname in constraint.params:
                return str(constraint.param_unit(pname))
        return ""

    def example_figure(self, setups: Mapping[str, Sequence[Any]], n: int) -> Any:
        from ludolab.research.catan.picture import example_boards

        return example_boards(setups, n=n)

    def setup_features(self, setup: Any) -> Mapping[str, float]:
        from ludolab.research.catan.features import board_features

        return board_features(setup)

    @property
    def feature_docs(self) -> Mapping[str, str]:
        from ludolab.research.catan.features import FEATURE_DOCS

        return FEATURE_DOCS

    def own_seat_values(self, table: Any) -> Mapping[str, Sequence[Any]]:
        from ludolab.research.catan.simulate import own_seat_values

        return own_seat_values(table)

    @property
    def record_type(self) -> type:
        from ludolab.envs.catan.record import GameRecord

        return GameRecord

    # -- command line (research/catan/commands.py) -----------------------------------------

    def add_commands(self, sub: Any) -> None:
        from ludolab.research.catan.commands import add_commands

        add_commands(sub)

    def option_flags(self) -> Mapping[str, Any]:
        from ludolab.research.catan.commands import OPTION_FLAGS

        return OPTION_FLAGS

    def add_generate_arguments(self, parser: Any) -> None:
        from ludolab.research.catan.commands import add_generate_arguments

        add_generate_arguments(parser)

    def generate_settings(self, args: Any, status: Any) -> dict[str, Any]:
        from ludolab.research.catan.commands import generate_settings

        return generate_settings(args, status)

    def after_generate(self, setups: Sequence[Any], args: Any, set_name: str) -> list[str]:
        from ludolab.research.catan.commands import after_generate

        return after_generate(setups, args, set_name)

    def constraint_library(self) -> str:
        from ludolab.research.catan.commands import constraint_library

        return constraint_library()

    def describe_set(self, source: str | Path, *, model: bool = False) -> str:
        from ludolab.research.catan.commands import describe_set

        return describe_set(source, model)


GAME = Catan()
"""The registered description (entry point ``catan``)."""
