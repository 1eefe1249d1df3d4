"""Splendor as a ludolab game: the description the generic layers read
(:class:`ludolab.games.Game`, protocol 1), registered as the entry point ``splendor``.

The rules as the engine plays them are in ``docs/rules/splendor.md``; the opening constraints
and samplers in :mod:`ludolab.research.splendor.opening`, their MiniZinc face in
:mod:`ludolab.research.splendor.model`. Methods import the game's modules when called, so
that listing the registered games stays cheap.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ludolab.games import Game, SetupDraw, SetupSetError

SAMPLERS = ("exact", "rejection", "minizinc")


class Splendor(Game):
    """Splendor on deals whose opening (the twelve cards shown, the nobles) is constrained."""

    name = "splendor"
    title = "Splendor"
    min_players = 2
    max_players = 4
    default_players = 2
    setup_noun = "deal"
    setup_plural = "deals"
    score_unit = "prestige"
    default_sampler = "exact"
    sets_folder = ("ludolab.research", "splendor", "sets")
    smoke_set = "published"
    default_set = "published"
    turn_unit = "player turns"
    length_words = (
        "turns are player turns (one main action each, with the tokens returned and the "
        "noble's visit that follow it); rounds are turns of every seat, and a game ends after "
        "the round in which a seat reaches the prestige target."
    )
    core_formulas = {
        "turns": "player turns, every seat's",
        "rounds": "turns / players (the last round is always finished)",
        "truncated": "the round limit (option round_limit) was reached with nobody at the target",
    }
    key_feature = "level1_cost"
    key_feature_label = "level-1 cards shown, cost together (gems)"
    regression_features = ("level1_cost", "level1_prestige", "colour_spread", "noble_cover")
    user_errors = (
        ("ludolab.envs.splendor.engine", "DealError"),
        ("ludolab.research.splendor.opening", "SamplingError"),
    )

    # -- rules -------------------------------------------------------------------------------

    @property
    def options_type(self) -> type:
        from ludolab.envs.splendor.engine import SplendorOptions

        return SplendorOptions

    @property
    def option_units(self) -> Mapping[str, str]:
        from ludolab.envs.splendor.engine import OPTION_UNITS

        return OPTION_UNITS

    # -- setups ------------------------------------------------------------------------------

    @property
    def setup_type(self) -> type:
        from ludolab.envs.splendor.engine import Deal

        return Deal

    def setup_from_dict(self, data: Mapping[str, Any], where: str = "") -> Any:
        from ludolab.envs.splendor.engine import Deal

        return Deal.from_dict(data, where or "<deal>")

    @property
    def samplers(self) -> tuple[str, ...]:
        return SAMPLERS

    def fair_setup(self, players: int, seed: int, options: Any = None) -> Any:
        from ludolab.envs.splendor.engine import fair_deal

        self.check_players(players)
        return fair_deal(players, seed)

    # -- constraint sets -----------------------------------------------------------------------

    def load_set(
        self, source: str | Path, params: Mapping[str, Any], *, players: int, options: Any
    ) -> Any:
        from ludolab.research.splendor.opening import load_opening_set

        return load_opening_set(source, params, players)

    def set_as_data(self, cset: Any) -> dict[str, Any]:
        count = cset.count
        return {
            "name": cset.name,
            "description": cset.description,
            "players": cset.players,
            "constraints": [c.describe() for c in cset.constraints],
            "share": count.share,  # of fair deals, counted exactly
        }

    def owns_set(self, source: str | Path) -> bool:
        from ludolab.research.splendor.opening import LIBRARY

        return LIBRARY.owns(source)

    def set_parameters(self, source: str | Path) -> list[str]:
        from ludolab.research.splendor.opening import LIBRARY

        return LIBRARY.parameters(source)

    def set_constraints(self, source: str | Path) -> dict[str, dict[str, Any]]:
        from ludolab.research.splendor.opening import LIBRARY

        return dict(LIBRARY.read(source).constraints())

    def parameter_unit(self, constraints: str, params: Mapping[str, Any], name: str) -> str:
        from ludolab.research.splendor.opening import LIBRARY

        return LIBRARY.unit(name)

    def constraint_library(self) -> str:
        from ludolab.research.splendor.opening import LIBRARY

        return f"{LIBRARY.describe()}\n\n{super().constraint_library()}"

    def describe_set(self, source: str | Path, *, model: bool = False) -> str:
        """The set's constraints and its exact share of fair deals; with ``model``, also the
        MiniZinc model the ``minizinc`` sampler runs."""
        text = super().describe_set(source)
        cset = self._shipped_set(source)
        count = cset.count
        text += (
            f"\n  allows {count.share:.4g} of fair deals for {cset.players} players (counted: "
            f"{count.display:,} of {count.total_display:,} displays, {count.nobles} of "
            f"{count.total_nobles} sets of nobles)"
        )
        if model:
            from ludolab.research.splendor.model import opening_model

            text += f"\n\n{opening_model(cset)}"
        return text

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
        import time

        from ludolab.research.splendor import opening

        share = cset.count.share
        counted = (
            f"exactly {share:.4g} of fair deals satisfy the set ({cset.count.display:,} "
            f"displays and {cset.count.nobles} sets of nobles, counted)"
        )
        notes = [counted] if cset.constraints else []
        if sampler == "exact":
            start = time.perf_counter()
            deals = opening.draw_exact(cset, n, seed)
            return SetupDraw(deals, "exact", True, share, time.perf_counter() - start, notes)
        if sampler == "rejection":
            deals, report = opening.draw_rejection(cset, n, seed)
            notes.append(
                f"rejection: {report.hits:,} of {report.draws:,} fair deals satisfied the set"
            )
            return SetupDraw(deals, "rejection", True, share, report.seconds, notes)
        if sampler == "minizinc":
            from ludolab.research.splendor.model import draw_minizinc

            deals, report = draw_minizinc(cset, n, seed)
            notes.append(
                "minizinc: the constrained parts from Gecode's randomised search (first-fail, "
                "random values, restarts): valid deals, not uniform over the set"
            )
            return SetupDraw(deals, "minizinc", False, share, report.seconds, notes)
        raise SetupSetError(
            "sampler", f"{sampler!r}: Splendor's samplers are {', '.join(SAMPLERS)}"
        )

    # -- play --------------------------------------------------------------------------------

    @property
    def agents(self) -> Any:
        from ludolab.envs.splendor.agents import REGISTRY

        return REGISTRY

    def new_state(self, setup: Any, players: int, seed: int, options: Any = None) -> Any:
        from ludolab.envs.splendor.engine import SplendorState

        if setup.n_players != players:
            raise ValueError(f"deal {setup.id} is for {setup.n_players} players, not {players}")
        return SplendorState(setup, seed, self._options(options))

    def state_record(self, state: Any, agent_specs: Sequence[str]) -> Any:
        from ludolab.envs.splendor.play import game_record

        return game_record(state, agent_specs)

    def play(self, setup: Any, agents: Sequence[Any], seed: int, options: Any = None) -> Any:
        from ludolab.envs.splendor.play import play_game

        return play_game(setup, agents, seed, self._options(options))

    @property
    def record_type(self) -> type:
        from ludolab.envs.splendor.play import SplendorRecord

        return SplendorRecord

    # -- metrics and features ----------------------------------------------------------------

    @property
    def metrics(self) -> Mapping[str, Any]:
        from ludolab.research.splendor.metrics import METRICS

        return METRICS

    @property
    def metric_labels(self) -> Mapping[str, str]:
        from ludolab.research.splendor.metrics import LABELS

        return LABELS

    def own_metric_values(self, table: Any) -> Mapping[str, Sequence[Any]]:
        from ludolab.research.splendor.metrics import own_metric_values

        return own_metric_values(table)

    def own_seat_values(self, table: Any) -> Mapping[str, Sequence[Any]]:
        from ludolab.research.splendor.metrics import own_seat_values

        return own_seat_values(table)

    def setup_features(self, setup: Any) -> Mapping[str, float]:
        from ludolab.research.splendor.metrics import setup_features

        return setup_features(setup)

    @property
    def feature_docs(self) -> Mapping[str, str]:
        from ludolab.research.splendor.metrics import FEATURE_DOCS

        return FEATURE_DOCS

    # -- learning faces ------------------------------------------------------------------------

    def observe(self, state: Any, seat: int) -> Any:
        from ludolab.envs.splendor.observation import encode

        return encode(state, seat)

    def register_envs(self) -> tuple[str, ...]:
        from ludolab.envs.splendor import gym_env

        gym_env.register()
        return (gym_env.ENV_ID,)

    # -- helpers -----------------------------------------------------------------------------

    def _options(self, options: Any) -> Any:
        """``options``, or the published rules when None."""
        return self.default_options() if options is None else options


GAME = Splendor()
"""The registered description (entry point ``splendor``)."""
