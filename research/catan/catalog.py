"""What the command line lists before anything heavy loads (no numpy, no solver): the names
of the samplers, counting methods and objectives, the shipped constraint sets, and the counting
budgets. The modules that implement them import these from here."""

from __future__ import annotations

from dataclasses import dataclass

from ludolab.research.set_names import shipped_set_names

SAMPLERS = ("uniform", "rejection", "chain", "solver", "enumerate", "optimise")
COUNT_METHODS = ("auto", "rejection", "depth-first", "importance")
# ludolab.research.catan.constraints.OBJECTIVES defines them (a test checks that the names agree)
OBJECTIVE_NAMES = ("max-intersection-pips", "pip-spread", "resource-pip-spread")
FIRST_BOARD_SECONDS = 60.0
"""How long a search for a set's first board may run (when no time limit is given) before it
stops and says that the set may be impossible: the uniform sampler's search for the chains'
starting boards, the solver and enumerate samplers, and a count's random descents."""


def shipped_sets() -> list[str]:
    """Names of the constraint sets shipped with ludolab."""
    return shipped_set_names("ludolab.research", "catan", "constraint_sets")


@dataclass(frozen=True)
class CountSettings:
    """Budgets of :func:`ludolab.research.catan.counting.count_boards`.

    ``pilot_draws`` / ``draws``: fair shuffles for the rejection estimate (used when the pilot
    finds ``min_hits`` boards). ``quick_nodes``: search nodes for an exact count tried first;
    ``list_nodes``: for one tried after the rejection pilot; ``by_terrain_nodes``: for an exact
    count by listing each terrain layout's tokens, when the set's terrain layouts can be listed
    (one layout may take ``terrain_listing.LAYOUT_SLACK`` times its share). Random descents for the
    importance-sampling estimate come in batches of ``descents`` until ``min_descent_hits``
    of them reached a board (at most ``max_descents``); when none has after
    ``first_board_seconds``, the count stops with an error that says the set may be impossible
    (default :data:`FIRST_BOARD_SECONDS`).
    """

    pilot_draws: int = 1_000_000
    draws: int = 5_000_000
    min_hits: int = 1000
    quick_nodes: int = 200_000
    list_nodes: int = 5_000_000
    by_terrain_nodes: int = 50_000_000
    descents: int = 100_000
    min_descent_hits: int = 1000
    max_descents: int = 5_000_000
    terrain_limit: int = 1_000_000
    first_board_seconds: float = FIRST_BOARD_SECONDS
