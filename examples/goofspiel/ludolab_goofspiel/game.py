"""Goofspiel as a ludolab game: the description ludolab's generic layers read
(:class:`ludolab.games.Game`, protocol 1).

Registered from outside ludolab, in this distribution's ``pyproject.toml``::

    [project.entry-points."ludolab.games"]
    goofspiel = "ludolab_goofspiel.game:GAME"

The rules as the engine plays them are in this distribution's ``README.md``. Methods import the
game's modules when called, so that listing the registered games stays cheap.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ludolab.games import Game, SetupDraw, SetupSetError


class Goofspiel(Game):
    """Goofspiel (the Game of Pure Strategy) on prize orders drawn from constraint sets."""

    name = "goofspiel"
    title = "Goofspiel"
    min_players = 2
    max_players = 4
    default_players = 2
    setup_noun = "order"
    setup_plural = "orders"
    score_unit = "points"
    default_sampler = "rejection"
    sets_folder = ("ludolab_goofspiel", "sets")  # sets/<name>.toml: shipped_sets, set_without
    setup_options = ("cards",)  # K is the length of the prize order itself
    smoke_set = "shuffled"
    default_set = "shuffled"  # what `ludolab generate goofspiel` draws from without --constraints
    turn_unit = "cards bid"
    length_words = (
        "turns are cards bid (K per seat), rounds are prizes revealed (K): every game of "
        "Goofspiel has the same length."
    )
    core_formulas = {
        "turns": "cards bid by all seats, K x players",
        "rounds": "prizes revealed, K",
        "truncated": "always False (a game always ends after K rounds)",
    }
    key_feature = "late_share"
    key_feature_label = "prize points in the last third (share)"
    key_metric = "score_spread"  # every game has the same length: draw the spread instead
    regression_features = ("late_share", "halves_diff")
    user_errors = (
        ("ludolab_goofspiel.engine", "PrizeOrderError"),
        ("ludolab_goofspiel.constraints", "SamplingError"),
    )

    # -- rules -------------------------------------------------------------------------------

    @property
    def options_type(self) -> type:
        from ludolab_goofspiel.engine import GoofspielOptions

        return GoofspielOptions

    @property
    def option_units(self) -> Mapping[str, str]:
        from ludolab_goofspiel.engine import OPTION_UNITS

        return OPTION_UNITS

    # -- setups ------------------------------------------------------------------------------

    @property
    def setup_type(self) -> type:
        from ludolab_goofspiel.engine import PrizeOrder

        return PrizeOrder

    def setup_from_dict(self, data: Mapping[str, Any], where: str = "") -> Any:
        from ludolab_goofspiel.engine import PrizeOrder

        return PrizeOrder.from_dict(data, where or "<prize order>")

    @property
    def samplers(self) -> tuple[str, ...]:
        return ("rejection",)

    def fair_setup(self, players: int, seed: int, options: Any = None) -> Any:
        from ludolab_goofspiel.engine import fair_order

        return fair_order(self._options(options).cards, seed)

    # -- constraint sets -----------------------------------------------------------------------

    def load_set(
        self, source: str | Path, params: Mapping[str, Any], *, players: int, options: Any
    ) -> Any:
        from ludolab_goofspiel.constraints import load_prize_set

        return load_prize_set(source, params, self._options(options).cards)

    def set_as_data(self, cset: Any) -> dict[str, Any]:
        return {
            "name": cset.name,
            "description": cset.description,
            "cards": cset.cards,
            "constraints": [c.describe() for c in cset.constraints],
            "orders": cset.orders,  # exact count of the orders the set allows (None: unknown)
        }

    def owns_set(self, source: str | Path) -> bool:
        if str(source) in self.shipped_sets():
            return True
        from ludolab.research.set_names import set_file_constraints
        from ludolab_goofspiel.constraints import CONSTRAINTS

        names = set_file_constraints(source)
        return bool(names) and names <= set(CONSTRAINTS)

    def set_parameters(self, source: str | Path) -> list[str]:
        from ludolab_goofspiel.constraints import CONSTRAINTS, read_set

        return [f"{c}.{p}" for c, _ in read_set(source).entries for p in CONSTRAINTS[c].params]

    def set_constraints(self, source: str | Path) -> dict[str, dict[str, Any]]:
        from ludolab_goofspiel.constraints import CONSTRAINTS, read_set

        # every parameter's value, the defaults a file leaves out filled in
        return {
            c: {p: values.get(p, d.default) for p, d in CONSTRAINTS[c].params.items()}
            for c, values in read_set(source).entries
        }

    def parameter_unit(self, constraints: str, params: Mapping[str, Any], name: str) -> str:
        from ludolab_goofspiel.constraints import CONSTRAINTS

        cname, _, pname = name.rpartition(".")
        param = CONSTRAINTS[cname].params.get(pname) if cname in CONSTRAINTS else None
        return "" if param is None else param.unit

    def constraint_library(self) -> str:
        """The constraints with their parameters, then the shipped sets (the protocol's
        default listing): what ``ludolab constraints list`` prints for the game."""
        from ludolab_goofspiel.constraints import describe_constraints

        return f"{describe_constraints()}\n\n{super().constraint_library()}"

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
        from ludolab_goofspiel.constraints import draw_rejection

        if sampler != "rejection":
            raise SetupSetError("sampler", f"{sampler!r}: Goofspiel's only sampler is rejection")
        orders, report = draw_rejection(cset, n, seed)
        notes = [
            f"rejection: {report.hits:,} of {report.draws:,} fair shuffles satisfied the set "
            f"(measured acceptance {report.acceptance:.3g})"
        ]
        if cset.share is not None and cset.constraints:
            notes.append(
                f"exactly {cset.orders:,} of the {cset.cards}! orders satisfy the set (share "
                f"{cset.share:.4g}, counted)"
            )
        return SetupDraw(orders, "rejection", True, report.acceptance, report.seconds, notes)

    # -- play --------------------------------------------------------------------------------

    @property
    def agents(self) -> Any:
        from ludolab_goofspiel.agents import REGISTRY

        return REGISTRY

    def new_state(self, setup: Any, players: int, seed: int, options: Any = None) -> Any:
        from ludolab_goofspiel.engine import GoofspielState

        return GoofspielState(setup, players, seed, self._options(options))

    def state_record(self, state: Any, agent_specs: Sequence[str]) -> Any:
        from ludolab_goofspiel.play import game_record

        return game_record(state, agent_specs)

    def play(self, setup: Any, agents: Sequence[Any], seed: int, options: Any = None) -> Any:
        from ludolab_goofspiel.play import play_game

        return play_game(setup, agents, seed, self._options(options))

    @property
    def record_type(self) -> type:
        from ludolab_goofspiel.play import GoofspielRecord

        return GoofspielRecord

    # -- metrics and features ----------------------------------------------------------------

    @property
    def metrics(self) -> Mapping[str, Any]:
        from ludolab_goofspiel.metrics import METRICS

        return METRICS

    @property
    def metric_labels(self) -> Mapping[str, str]:
        from ludolab_goofspiel.metrics import LABELS

        return LABELS

    def own_metric_values(self, table: Any) -> Mapping[str, Sequence[Any]]:
        from ludolab_goofspiel.metrics import own_metric_values

        return own_metric_values(table)

    def setup_features(self, setup: Any) -> Mapping[str, float]:
        from ludolab_goofspiel.metrics import setup_features

        return setup_features(setup)

    @property
    def feature_docs(self) -> Mapping[str, str]:
        from ludolab_goofspiel.metrics import FEATURE_DOCS

        return FEATURE_DOCS

    def report_section(self, per_game: Any) -> Any:
        from ludolab_goofspiel.metrics import ties_section

        return ties_section(per_game)

    def example_figure(self, setups: Mapping[str, Sequence[Any]], n: int) -> Any:
        from ludolab_goofspiel.figure import example_orders

        return example_orders(setups, n)

    # -- helpers -----------------------------------------------------------------------------

    def _options(self, options: Any) -> Any:
        """``options``, or the standard rules when None."""
        return self.default_options() if options is None else options


GAME = Goofspiel()
"""The registered description (entry point ``goofspiel``)."""
