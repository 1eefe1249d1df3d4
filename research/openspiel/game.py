"""OpenSpiel's games as ludolab games: the family (``openspiel``) and the description of each
member (``openspiel:go``), as ludolab's generic layers read them (:mod:`ludolab.games`).

Registered once, as a family, in ``pyproject.toml``::

    [project.entry-points."ludolab.game_families"]
    openspiel = "ludolab.research.openspiel.game:FAMILY"

after which ``game = "openspiel:go"`` in a config, ``ludolab ladder openspiel:kuhn_poker`` or
``ludolab design`` on a set of Go's parameters work as for any game. A member's conditions are
its game parameters (a set's ``parameters`` constraint) and, for a game that deals or rolls
before anyone decides, constraints on that opening (``opening``); see
:mod:`ludolab.research.openspiel.sets`. The family imports OpenSpiel (``pyspiel``, the extra
``ludolab[openspiel]``) only when a member is asked for.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any

from ludolab.games import Game, GameFamily, SetupDraw, SetupSetError, UnknownGameError

USER_ERRORS = (("ludolab.envs.openspiel.engine", "OpenSpielError"),)

# The metrics every game has that read the score after each step: a game whose returns come
# only at its end has no lead to change and no trailing winner.
TRAJECTORY_METRICS = (
    "lead_changes",
    "lead_change",
    "winner_trailing",
    "drama",
    "decisiveness",
    "decisiveness_threshold",
    "lead_change_ludii",
    "drama_ludii",
    "decisiveness_ludii",
)


class OpenSpielGame(Game):
    """One OpenSpiel game (``kind``: its ``pyspiel.GameType``) as a ludolab game."""

    setup_noun = "setup"
    setup_plural = "setups"
    score_unit = "return"
    default_sampler = "rejection"
    sets_folder = ("ludolab.research", "openspiel", "sets")
    smoke_set = "defaults"
    default_set = "defaults"
    turn_unit = "decisions"
    length_words = (
        "turns are decisions (every seat's moves, as OpenSpiel counts its players' actions); "
        "rounds are ceil(turns / players)."
    )
    core_formulas = {
        "turns": "decisions taken, every seat's (OpenSpiel's player actions)",
        "rounds": "ceil(turns / n)",
        "truncated": "cut off by the move_limit option",
    }
    user_errors = USER_ERRORS

    def __init__(self, kind: Any, default_players: int) -> None:
        self.kind = kind
        self.short = str(kind.short_name)
        self.name = f"openspiel:{self.short}"  # type: ignore[misc]  # one class, many games
        self.title = f"{kind.long_name} (OpenSpiel)"  # type: ignore[misc]
        self.min_players = int(kind.min_num_players)  # type: ignore[misc]
        self.max_players = int(kind.max_num_players)  # type: ignore[misc]
        self.default_players = default_players  # type: ignore[misc]

    # -- rules ---------------------------------------------------------------------------------

    @property
    def options_type(self) -> type:
        from ludolab.envs.openspiel.engine import OpenSpielOptions

        return OpenSpielOptions

    @property
    def option_units(self) -> Mapping[str, str]:
        from ludolab.envs.openspiel.engine import OPTION_UNITS

        return OPTION_UNITS

    # -- setups --------------------------------------------------------------------------------

    @property
    def setup_type(self) -> type:
        from ludolab.envs.openspiel.engine import OpenSpielSetup

        return OpenSpielSetup

    def setup_from_dict(self, data: Mapping[str, Any], where: str = "") -> Any:
        from ludolab.envs.openspiel.engine import OpenSpielError, OpenSpielSetup

        setup = OpenSpielSetup.from_dict(data, where or "<setup>")
        if setup.game != self.short:
            raise OpenSpielError(
                f"{where or '<setup>'}: game: a setup of {setup.game!r}, not {self.short!r}"
            )
        return setup

    @property
    def samplers(self) -> tuple[str, ...]:
        return ("rejection",)

    def fair_setup(self, players: int, seed: int, options: Any = None) -> Any:
        from ludolab.envs.openspiel.engine import fair_setup

        return fair_setup(self.short, players, seed)

    # -- constraint sets -----------------------------------------------------------------------

    def load_set(
        self, source: str | Path, params: Mapping[str, Any], *, players: int, options: Any
    ) -> Any:
        from ludolab.research.openspiel.sets import load_set

        self.check_players(players)
        return load_set(self.short, source, params)

    def set_as_data(self, cset: Any) -> dict[str, Any]:
        return {
            "name": cset.name,
            "description": cset.description,
            "game": cset.game,
            "constraints": cset.constraints(),
        }

    def owns_set(self, source: str | Path) -> bool:
        from ludolab.research.openspiel.sets import owns

        return owns(source)

    def set_parameters(self, source: str | Path) -> list[str]:
        from ludolab.research.openspiel.sets import parameters_of

        return parameters_of(source)

    def set_constraints(self, source: str | Path) -> dict[str, dict[str, Any]]:
        from ludolab.research.openspiel.sets import constraints_of

        return constraints_of(source)

    def parameter_unit(self, constraints: str, params: Mapping[str, Any], name: str) -> str:
        return ""  # OpenSpiel does not say what its parameters count

    def constraint_library(self) -> str:
        from ludolab.research.openspiel.sets import library

        return library()

    def describe_set(self, source: str | Path, *, model: bool = False) -> str:
        from ludolab.research.openspiel.sets import describe

        if model:
            raise SetupSetError("model", f"{self.title} sets have no constraint model to show")
        return describe(source)

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
        from ludolab.research.openspiel.sets import draw_rejection

        if sampler != "rejection":
            raise SetupSetError("sampler", f"{sampler!r}: OpenSpiel games' sampler is rejection")
        drawn = draw_rejection(cset, n, seed, players)
        notes = []
        if not drawn.setups[0].opening:
            notes.append(
                f"{self.title} draws nothing before its first decision: the {n} setups are "
                "replicates of one game (its chance and the agents' choices vary by game seed)"
            )
        else:
            notes.append(
                f"rejection: {n:,} of {drawn.draws:,} openings drawn with the game's "
                "chance probabilities satisfied the set"
            )
            if drawn.exact_share is not None and cset.allow:
                notes.append(f"the set allows {drawn.exact_share:.4g} of openings (counted)")
        acceptance = n / drawn.draws if drawn.exact_share is None else drawn.exact_share
        return SetupDraw(drawn.setups, "rejection", True, acceptance, drawn.seconds, notes)

    # -- play ----------------------------------------------------------------------------------

    @property
    def agents(self) -> Any:
        from ludolab.envs.openspiel.agents import registry

        return registry(self.name)

    def new_state(self, setup: Any, players: int, seed: int, options: Any = None) -> Any:
        from ludolab.envs.openspiel.engine import OpenSpielState

        self._check_setup(setup, players)
        return OpenSpielState(setup, seed, options)

    def _check_setup(self, setup: Any, players: int) -> None:
        """OpenSpielError unless ``setup`` is this game's, for ``players`` seats."""
        from ludolab.envs.openspiel.engine import OpenSpielError

        if setup.n_players != players or setup.game != self.short:
            raise OpenSpielError(
                f"setup {setup.id} is {setup.game} for {setup.n_players} seats, not "
                f"{self.short} for {players}"
            )

    def state_record(self, state: Any, agent_specs: Sequence[str]) -> Any:
        from ludolab.envs.openspiel.play import game_record

        return game_record(state, agent_specs)

    def play(self, setup: Any, agents: Sequence[Any], seed: int, options: Any = None) -> Any:
        from ludolab.envs.openspiel.play import play_game

        self._check_setup(setup, len(agents))
        return play_game(setup, agents, seed, options)

    @property
    def record_type(self) -> type:
        from ludolab.envs.openspiel.play import OpenSpielRecord

        return OpenSpielRecord

    # -- metrics -------------------------------------------------------------------------------

    @property
    def unsupported_metrics(self) -> Mapping[str, str]:
        out = {}
        if self.kind.reward_model.name == "TERMINAL":
            why = (
                "OpenSpiel's game pays its returns only at the end (reward model terminal), so "
                "no seat leads before the last step"
            )
            out.update(dict.fromkeys(TRAJECTORY_METRICS, why))
        if self.kind.utility.name in ("ZERO_SUM", "CONSTANT_SUM"):
            out["income_gini"] = (
                f"the returns are {self.kind.utility.name.lower().replace('_', '-')}: a "
                "share of a fixed total, not an income whose inequality a Gini measures"
            )
        return out


class OpenSpielFamily(GameFamily):
    """Every game of OpenSpiel whose seats take turns or move simultaneously, as
    ``openspiel:<short name>``."""

    name = "openspiel"
    title = "OpenSpiel"
    user_errors = USER_ERRORS

    def members(self) -> list[str]:
        try:
            import pyspiel
        except ImportError:
            return []
        mean_field = pyspiel.GameType.Dynamics.MEAN_FIELD
        return sorted(t.short_name for t in pyspiel.registered_games() if t.dynamics != mean_field)

    def member(self, name: str) -> Game:
        return _member(name)

    def add_commands(self, sub: Any) -> None:
        """``ludolab openspiel [GAME]``: the games, or one game's kind and parameters."""
        from ludolab.research.openspiel.commands import add_commands

        add_commands(sub)


@cache
def _member(name: str) -> OpenSpielGame:
    from ludolab.envs.openspiel.engine import OpenSpielError, parameter_defaults, pyspiel_module

    try:
        pyspiel = pyspiel_module()
        kind = {t.short_name: t for t in pyspiel.registered_games()}.get(name)
        if kind is None:
            parameter_defaults(name)  # raises, with the nearest names
        if kind.dynamics == pyspiel.GameType.Dynamics.MEAN_FIELD:
            raise OpenSpielError(f"OpenSpiel's {name} is a mean-field game, not a game of seats")
    except OpenSpielError as exc:
        raise UnknownGameError(f"openspiel:{name}: {exc}") from None
    try:
        default_players = pyspiel.load_game(name).num_players()
    except pyspiel.SpielError:  # a game that needs a parameter to load
        default_players = kind.min_num_players
    return OpenSpielGame(kind, int(default_players))


FAMILY = OpenSpielFamily()
"""The registered family (entry point ``openspiel`` of ``ludolab.game_families``)."""
