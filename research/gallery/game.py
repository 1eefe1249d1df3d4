"""Modern Art: Masters Gallery as a ludolab game: the description the generic layers read
(``ludolab.games``).

Registered under the entry point ``gallery`` of the group ``ludolab.games`` (``pyproject.toml``),
as any game from outside registers. The rules as the engine plays them are in
``docs/rules/masters-gallery.md``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ludolab.games import Game, SetupDraw, SetupSetError


class MastersGallery(Game):
    """Masters Gallery on deals (the round-1 hands and the deck) drawn from deal sets."""

    name = "gallery"
    title = "Masters Gallery"
    min_players = 2
    max_players = 5
    default_players = 2
    setup_noun = "deal"
    setup_plural = "deals"
    default_sampler = "auto"
    sets_folder = ("ludolab.research", "gallery", "deal_sets")
    score_unit = "money"
    # A deal is dealt for a hand size and card mix, and holds the cards of every round.
    core_formulas = {
        "turns": "cards played from hand, sum of turns_per_round",
        "rounds": "rounds played",
        "truncated": "always False (a game cannot be cut off)",
    }
    turn_unit = "cards played"
    length_words = "turns are cards played, rounds are the game's four rounds."
    setup_options = ("symbols", "hand_size", "deals", "rounds")
    default_set = "fair"
    user_errors = (
        ("ludolab.envs.gallery.deal", "DealError"),
        ("ludolab.research.gallery.cli_options", "SymbolsFileError"),
        ("ludolab.research.gallery.deal_constraints", "DealConstraintError"),
        ("ludolab.research.gallery.deals", "DealSamplingError"),
    )

    @property
    def options_type(self) -> type:
        from ludolab.envs.gallery.engine import GalleryOptions

        return GalleryOptions

    @property
    def option_units(self) -> Mapping[str, str]:
        from ludolab.envs.gallery.engine import OPTION_UNITS

        return OPTION_UNITS

    def option_from_config(self, name: str, value: Any, where: str) -> Any:
        if name == "symbols" and isinstance(value, dict):
            # the symbols table by artist name: [options.symbols.Yoko] draw = 2
            from ludolab.envs.gallery.cards import symbols_from_mapping

            return symbols_from_mapping(value, where=f"{where}.symbols")
        return value

    @property
    def setup_type(self) -> type:
        from ludolab.envs.gallery.deal import Deal

        return Deal

    def setup_from_dict(self, data: Mapping[str, Any], where: str = "") -> Any:
        from ludolab.envs.gallery.deal import Deal

        return Deal.from_dict(data, where or "<deal>")

    @property
    def samplers(self) -> tuple[str, ...]:
        from ludolab.research.gallery.deals import METHODS

        return tuple(METHODS)

    def load_set(
        self, source: str | Path, params: Mapping[str, Any], *, players: int, options: Any
    ) -> Any:
        from ludolab.research.gallery.deals import (
            DealConstraintError,
            DealContext,
            as_deal_set,
            load_deal_set,
        )

        try:
            base = load_deal_set(source)
        except DealConstraintError as exc:
            raise SetupSetError("constraints", str(exc)) from None
        try:
            ctx = DealContext(players, options.hand_size, options.symbols)
        except DealConstraintError as exc:
            raise SetupSetError("options.hand_size", str(exc)) from None
        try:
            base.bind(ctx)
        except DealConstraintError as exc:
            raise SetupSetError("constraints", str(exc)) from None
        try:
            cset = as_deal_set(base, dict(params), "params")
            cset.bind(ctx)
        except DealConstraintError as exc:
            raise SetupSetError("params", str(exc)) from None
        return cset

    def set_as_data(self, cset: Any) -> dict[str, Any]:
        return {
            "name": cset.name,
            "description": cset.description,
            "constraints": [{"name": n, **params} for n, params in cset.entries],
        }

    def set_parameters(self, source: str | Path) -> list[str]:
        raise SetupSetError(
            "parameter",
            "a Masters Gallery sweep varies a rule option ('options.NAME'); deal-set parameters "
            "cannot be swept yet",
        )

    def set_constraints(self, source: str | Path) -> dict[str, dict[str, Any]]:
        from ludolab.research.gallery.deals import DealConstraintError, load_deal_set

        try:
            dset = load_deal_set(source)
        except DealConstraintError as exc:
            raise SetupSetError("constraints", str(exc)) from None
        return {name: dict(params) for name, params in dset.entries}

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
        from ludolab.research.gallery.deals import generate_deals

        deals, report = generate_deals(
            cset,
            players,
            n,
            seed,
            method=sampler,
            symbols=options.symbols,
            hand_size=options.hand_size,
        )
        if report.exact_probability is not None:
            acceptance = report.exact_probability
        else:
            acceptance = report.acceptance if report.method == "rejection" else 1.0
        return SetupDraw(
            list(deals),
            report.method,
            report.uniform,
            acceptance,
            report.seconds,
            list(report.notes),
        )

    def fair_setup(self, players: int, seed: int, options: Any = None) -> Any:
        from ludolab.envs.gallery.deal import shuffled_deal

        return shuffled_deal(players, seed)

    @property
    def agents(self) -> Any:
        from ludolab.envs.gallery.agents import REGISTRY

        return REGISTRY

    def new_state(self, setup: Any, players: int, seed: int, options: Any = None) -> Any:
        from ludolab.envs.gallery.engine import Game as State

        if players != setup.n_players:
            raise ValueError(f"deal {setup.id} is for {setup.n_players} players, not {players}")
        return State(setup, seed, options)

    def state_record(self, state: Any, agent_specs: Sequence[str]) -> Any:
        from ludolab.envs.gallery.play import game_record

        return game_record(state, agent_specs)

    def play(self, setup: Any, agents: Sequence[Any], seed: int, options: Any = None) -> Any:
        from ludolab.envs.gallery.play import play_game

        return play_game(setup, agents, seed, options)

    @property
    def metrics(self) -> Mapping[str, Any]:
        from ludolab.research.gallery.game_metrics import METRICS

        return METRICS

    @property
    def metric_labels(self) -> Mapping[str, str]:
        from ludolab.research.gallery.game_metrics import LABELS

        return LABELS

    def own_metric_values(self, table: Any) -> Mapping[str, Sequence[Any]]:
        from ludolab.research.gallery.game_metrics import own_metric_values

        return own_metric_values(table)

    def observe(self, state: Any, seat: int) -> Any:
        from ludolab.envs.gallery.observation import encode

        return encode(state, seat)

    def add_commands(self, sub: Any) -> None:
        from ludolab.research.gallery.commands import add_commands

        add_commands(sub)

    def parameter_unit(self, constraints: str, params: Mapping[str, Any], name: str) -> str:
        from ludolab.research.gallery.deals import DEAL_CONSTRAINTS

        cname, _, pname = name.rpartition(".")
        cls = DEAL_CONSTRAINTS.get(cname)
        param = None if cls is None else cls.params.get(pname)
        return "" if param is None else str(param.unit)

    def register_envs(self) -> tuple[str, ...]:
        from ludolab.envs.gallery import gym_env

        gym_env.register()
        return (gym_env.ENV_ID,)

    def owns_set(self, source: str | Path) -> bool:
        if str(source) in self.shipped_sets():
            return True
        from ludolab.research.gallery.deals import DEAL_CONSTRAINTS
        from ludolab.research.set_names import set_file_constraints

        names = set_file_constraints(source)
        return bool(names) and names <= set(DEAL_CONSTRAINTS)

    def own_seat_values(self, table: Any) -> Mapping[str, Sequence[Any]]:
        from ludolab.research.gallery.simulate import own_seat_values

        return own_seat_values(table)

    @property
    def record_type(self) -> type:
        from ludolab.envs.gallery.record import GalleryRecord

        return GalleryRecord

    # -- command line (research/gallery/commands.py, cli_options.py) ----------------------

    def option_flags(self) -> Mapping[str, Any]:
        from ludolab.research.gallery.cli_options import OPTION_FLAGS

        return OPTION_FLAGS

    def add_generate_arguments(self, parser: Any) -> None:
        from ludolab.research.gallery.commands import add_generate_arguments

        add_generate_arguments(parser)

    def constraint_library(self) -> str:
        from ludolab.research.gallery.commands import constraint_library

        return constraint_library()

    def describe_set(self, source: str | Path, *, model: bool = False) -> str:
        from ludolab.research.gallery.commands import describe_set

        return describe_set(str(source), model)


GAME = MastersGallery()
"""The registered description (entry point ``gallery``)."""
