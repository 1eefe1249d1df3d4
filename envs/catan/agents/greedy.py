"""The greedy builder: a scripted Catan player with one simple, sensible rule per decision.

One concept in one file (about 1,400 lines): the greedy player, a rule per decision, with the
board tables it reads (:class:`BoardInfo`). It is compiled with the engine (setup.py), where
calls inside one module stay native: splitting it would put module boundaries across the
hottest path of every study.

It plays every phase of the game without search: it settles on high, varied production, builds
city > settlement > development card > road whenever it can pay (roads only towards a wanted
settlement spot or to contest the longest road), trades with the bank only when the trade
completes its next build, and points the robber at the leader. It reads only what its seat
could see at the table: its own hand and development cards, the board, the pieces, opponents'
card counts, public victory points and played knights.

Speed matters (it is the workhorse of large simulation studies; budget: a few microseconds per
decision). Three layers of caching keep it cheap:

* everything that depends only on the board is computed once per board (:class:`BoardInfo`,
  shared by every agent playing that board);
* everything that depends only on the pieces on the board (open spots, the best city or
  settlement, which road to pay for, the agent's production) is kept until a piece is placed.
  The engine counts the pieces placed (``Game._pieces_placed``, a version for caches): while it
  stands still nothing is looked at again; when it moves, pieces are never removed, so the
  counts of pieces left say what kind of piece was placed (:meth:`GreedyAgent._sync`);
* what depends on the hand too (the build it works towards) is kept for one decision.

Hot paths use plain loops, no lambdas, generators or ``max(key=...)``, and cheap hand checks
come first so whole rules are skipped when they cannot apply. The agent never copies the game.
In the main phase it never reads the list of legal actions (it asks ``game.is_legal`` about the
few it considers), so :func:`ludolab.envs.catan.play.play_game` does not list them for it
(``lazy_legal``). Back from an offer nobody took, it ends its turn without working the decision
out again: nothing has changed, and it does not repeat an offer within a turn.

Changes of play, newest first (each measured against the version before it):

* It makes no domestic offer while it is within ``NO_TRADE_MARGIN`` (3) public points of
  winning, the margin at which it declines other seats' offers itself. Against greedy and
  lookahead seats such an offer is always declined, so games between them are move for move the
  same apart from the missing offers and answers (about 8 fewer actions a game); against other
  agents it gives up the rare trade they would take.

Units: "pips" are the dots on a number token (the number of the 36 dice outcomes that roll it);
a node's production is the sum of the pips of its hexes per resource; a city counts twice.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar

from mypy_extensions import mypyc_attr

from ludolab.envs.catan import actions as A
from ludolab.envs.catan.agents.base import Agent
from ludolab.envs.catan.board import pips
from ludolab.envs.catan.engine import (
    CITY_COST,
    DEV_COST,
    DISCARD,
    KNIGHT,
    LARGEST_ARMY_MIN,
    LONGEST_ROAD_MIN,
    MAIN,
    MOVE_ROBBER,
    PRE_ROLL,
    ROAD_BUILDING,
    ROAD_BUILDING_CARD,
    ROAD_COST,
    SETTLEMENT_COST,
    SETTLEMENTS_PER_PLAYER,
    SETUP_ROAD,
    SETUP_SETTLEMENT,
    STEAL,
    TRADE_CONFIRM,
    TRADE_RESPONSE,
    tables,
)
from ludolab.envs.catan.engine import MONOPOLY as MONOPOLY_CARD
from ludolab.envs.catan.engine import YEAR_OF_PLENTY as YEAR_OF_PLENTY_CARD

if TYPE_CHECKING:
    from ludolab.envs.catan.engine import Game

N_RES = A.N_RESOURCES
LUMBER, WOOL, GRAIN, BRICK, ORE = range(N_RES)

# How much one pip of each resource is worth before scarcity on this board is taken into
# account (lumber, wool, grain, brick, ore). Wool only buys settlements and development cards,
# so it is worth a little less; the others each feed two of the builds.
BASE_RESOURCE_WEIGHT = (1.0, 0.8, 1.0, 1.0, 1.0)

# Build kinds, in the greedy priority order.
CITY, SETTLEMENT, DEV, ROAD = range(4)
BUILD_COSTS = (CITY_COST, SETTLEMENT_COST, DEV_COST, ROAD_COST)
BUILD_NAMES = ("city", "settlement", "development-card", "road")
# Per build kind, the (resource, count) pairs of its cost with a nonzero count: the loops over a
# cost touch 2-4 resources instead of 5.
_COST_ITEMS = tuple(tuple((r, c) for r, c in enumerate(cost) if c) for cost in BUILD_COSTS)
# [give][get] -> the action offering one ``give`` for one ``get`` / the bank trade.
_OFFER_ONE = tuple(
    tuple(A.offer(give, 1, get) if get != give else -1 for get in range(A.N_RESOURCES))
    for give in range(A.N_RESOURCES)
)
_MARITIME = tuple(
    tuple(A.maritime(give, get) if get != give else -1 for get in range(A.N_RESOURCES))
    for give in range(A.N_RESOURCES)
)
# Per resource, the most any build costs of it.
_MOST_NEEDED = tuple(max(cost[r] for cost in BUILD_COSTS) for r in range(A.N_RESOURCES))

ROBBER_MODES = ("leader", "production")

# No domestic trade with a seat within this many public victory points of winning: the agent
# declines its offers, and makes none itself when that close.
NO_TRADE_MARGIN = 3

_TABLES = tables()
_LINKS = _TABLES.node_links  # per node: ((path, far node), ...)
_PATH_NODES = _TABLES.path_nodes  # per path: (node, node)
_HEX_CORNERS = _TABLES.hex_corners  # per hex: its 6 nodes
_NODE_HEXES = _TABLES.node_hexes  # per node: its 1-3 hexes
_NODE_PATHS = _TABLES.node_paths  # per node: its 2-3 paths
_N_NODES = A.N_INTERSECTIONS
# Per node, the walk of _road_target_value: ((path, far node, ((path, node two away), ...)),
# ...), the second step never back to the start.
_WALKS = tuple(
    tuple(
        (e1, w1, tuple((e2, w2) for e2, w2 in _LINKS[w1] if w2 != start))
        for e1, w1 in _LINKS[start]
    )
    for start in range(_N_NODES)
)


# Pips per number token 0..12 (0 = no token).
_PIPS = tuple(pips(n) for n in range(13))

# Discount of a settlement spot one and two roads away (as 0.6 applied once and twice).
_ONE_AWAY = 1.0 * 0.6
_TWO_AWAY = 1.0 * 0.6 * 0.6

_INF, _NEG_INF = float("inf"), float("-inf")

# Sentinel for "not computed since the last piece was placed" (None is a valid cached answer).
class _Stale:
    """The type of :data:`_STALE`: copied and pickled as the module's one instance, so that a
    copied agent still recognises its caches as stale."""

    def __reduce__(self) -> str:
        return "_STALE"


_STALE = _Stale()


class BoardInfo:
    """Per-board tables: computed once per board (shared by every agent on it), read at every
    decision. Use :meth:`of` rather than the constructor.

    Attributes:
        hex_pips: pips per hex, shape (19,); 0 on the desert.
        hex_res: resource per hex, shape (19,); -1 on the desert.
        weight: value of one pip per resource on this board, shape (5,): the base weight times
            a scarcity factor (resources with few pips on the board are worth more).
        node_pips: pips per resource at each intersection, shape (54, 5).
        node_value: weighted pips at each intersection, shape (54,) — the static part of how
            good a settlement spot is.
        node_new: per intersection, the (resource, 2 x weight) pairs of the resources it
            produces, resources ascending — the diversity bonus it may add.
        fresh_value: :meth:`GreedyAgent.spot_value` of each intersection for a seat that
            produces nothing yet (the first setup settlement), shape (54,).
        harbor_at: harbor code per intersection (-1 none, 0 generic 3:1, 1..5 resource + 1).
    """

    _cache: ClassVar[dict[tuple[tuple[int, ...], ...], BoardInfo]] = {}
    # The last board looked up and its tables: the seats of one game ask in turn.
    _last: ClassVar[tuple[object, BoardInfo] | None] = None

    @classmethod
    def of(cls, game: Game) -> BoardInfo:
        """The (cached) tables of ``game``'s board."""
        last = cls._last
        if last is not None and last[0] is game.board:
            return last[1]
        key = (game.hex_resource, game.hex_number, game.harbor_at)
        info = cls._cache.get(key)
        if info is None:
            if len(cls._cache) >= 256:  # bounded: a study may play thousands of boards
                cls._cache.clear()
            info = cls._cache[key] = cls(*key)
        cls._last = (game.board, info)
        return info

    def __init__(
        self,
        hex_resource: tuple[int, ...],
        hex_number: tuple[int, ...],
        harbor_at: tuple[int, ...],
    ) -> None:
        """From a game's ``hex_resource``, ``hex_number`` and ``harbor_at``."""
        self.hex_number = hex_number
        self.hex_pips = hex_pips = tuple(_PIPS[n] for n in hex_number)
        self.hex_res = hex_res = hex_resource
        totals = [0] * N_RES
        rows = [[0] * N_RES for _ in range(_N_NODES)]
        for h, r in enumerate(hex_res):
            if r >= 0:
                n = hex_pips[h]
                totals[r] += n
                for v in _HEX_CORNERS[h]:
                    rows[v][r] += n
        mean = sum(totals) / N_RES
        # Scarcity: square root of mean/total, clipped, so a resource with half the usual pips
        # is worth ~1.4x, not 2x (trading and harbors soften real scarcity).
        self.weight = weight = tuple(
            BASE_RESOURCE_WEIGHT[r] * min(1.5, max(0.7, (mean / max(totals[r], 1)) ** 0.5))
            for r in range(N_RES)
        )
        bonus = tuple(2.0 * w for w in weight)
        self.harbor_at = harbor_at
        node_value = []
        node_new = []
        fresh = []
        w0, w1, w2, w3, w4 = weight
        b0, b1, b2, b3, b4 = bonus
        # (The loop over the 5 resources, unrolled: once per board, but ahead of every game.)
        for v in range(_N_NODES):
            row = rows[v]
            n0, n1, n2, n3, n4 = row
            # Sums left to right from 0 over the resources produced (terms of 0 pips add 0.0),
            # then (fresh) the diversity bonus of each, in the same order.
            value = 0.0
            new = []
            if n0:
                value += w0 * n0
                new.append((LUMBER, b0))
            if n1:
                value += w1 * n1
                new.append((WOOL, b1))
            if n2:
                value += w2 * n2
                new.append((GRAIN, b2))
            if n3:
                value += w3 * n3
                new.append((BRICK, b3))
            if n4:
                value += w4 * n4
                new.append((ORE, b4))
            node_value.append(value)
            node_new.append(tuple(new))
            # spot_value() for a seat producing nothing: every resource is new.
            for _, b in new:
                value += b
            code = harbor_at[v]
            if code == 0:
                value += 1.0
            elif code > 0:
                value += 0.3 * (0 + row[code - 1])
            fresh.append(value)
        self.node_pips = tuple(map(tuple, rows))
        self.node_value = tuple(node_value)
        self.node_new = tuple(node_new)
        self.fresh_value = tuple(fresh)

    def __reduce__(self) -> tuple[object, ...]:
        # Copying and pickling an agent that has played (it keeps its board's tables): compiled,
        # the tables can only be made again by the constructor.
        return (BoardInfo, (self.hex_res, self.hex_number, self.harbor_at))


def spot_value(info: BoardInfo, v: int, prod: Sequence[int]) -> float:
    """How good intersection ``v`` is as a new settlement for a seat producing ``prod`` (pips
    per resource, shape (5,)).

    Weighted pips, plus a bonus per resource the seat does not produce yet (diversity), plus
    harbors: a 2:1 harbor is worth a share of the seat's production of its resource (with
    ``v``), a 3:1 harbor a small flat amount.
    """
    value = info.node_value[v]
    for r, bonus in info.node_new[v]:
        if not prod[r]:
            value += bonus
    code = info.harbor_at[v]
    if code == 0:
        value += 1.0
    elif code > 0:
        r = code - 1
        value += 0.3 * (prod[r] + info.node_pips[v][r])
    return value


def _roads_in(legal: Sequence[int]) -> Sequence[int]:
    """The road actions of a sorted ``legal`` (a contiguous run)."""
    return legal[bisect_left(legal, A.ROAD) : bisect_left(legal, A.ROBBER)]


def missing_cards(hand: Sequence[int], cost: Sequence[int]) -> int:
    """Cards short of ``cost`` (both per resource, shape (5,))."""
    return sum(c - h for h, c in zip(hand, cost, strict=True) if c > h)


# Compiled (setup.py), a class refuses Python subclasses unless allowed: a variant of this agent
# is a subclass in a researcher's own module.
@mypyc_attr(allow_interpreted_subclasses=True)
class GreedyAgent(Agent):
    """Scripted greedy builder; see the module docstring.

    Parameters:
        trade: trade with the bank (maritime) when a trade completes the next build.
        offers: make simple 1-for-1 domestic offers when one card short of the next build
            (none while within ``NO_TRADE_MARGIN`` points of winning), and accept offers that
            help the next build from a seat not that close (when False it declines every
            offer).
        dev_cards: buy and play development cards (when False it never buys them; cards it
            holds anyway are never bought, so none are played).
        robber: where the robber goes: ``"leader"`` (the hex that costs the opponent with the
            most public victory points the most production, other opponents counting less) or
            ``"production"`` (the hex blocking the most opponent production, whoever owns it).
            Never a hex touching its own buildings unless every legal hex does.
    """

    name = "greedy"
    lazy_legal = True  # main-phase decisions ask game.is_legal; they never read ``legal``

    def __init__(
        self,
        trade: bool = True,
        offers: bool = True,
        dev_cards: bool = True,
        robber: str = "leader",
    ) -> None:
        super().__init__()
        if robber not in ROBBER_MODES:
            raise ValueError(f"robber must be one of {ROBBER_MODES}, got {robber!r}")
        self.trade = bool(trade)
        self.offers = bool(offers)
        self.dev_cards = bool(dev_cards)
        self.robber = robber
        self._game: Game | None = None
        self._info: BoardInfo | None = None
        self._start_caches(0)

    def _start_caches(self, n_players: int) -> None:
        """Empty every cache (a new game)."""
        # Production per seat, keyed by settlements_left + 2 * cities_left of that seat (drops
        # by one with each of its settlements or cities).
        self._prod_key: list[int] = [-1] * n_players
        self._prod: list[list[int]] = [[0] * N_RES for _ in range(n_players)]
        # Spot value per node for the agent's own production (-1.0 = not computed yet), kept
        # while that production is (keyed like _prod_key).
        self._sv: list[float] = [-1.0] * _N_NODES
        self._sv_key = -1
        self._offered: set[int] = set()
        self._offer_turn = -1
        # The turn and the game's count of domestic trades when the agent last made an offer
        # (see _main: an offer that came to nothing leaves only END_TURN).
        self._offer_mark = (-1, -1)
        # Decision stamp (the engine's action counter) and the piece counts the caches below
        # were filled at: buildings (settlements + 2 x cities left, summed over seats), roads
        # (summed over seats) and the agent's own roads left.
        self._synced_at = -1
        self._pieces_seen = -1
        self._buildings_key = -1
        self._roads_key = -1
        self._own_roads = -1
        self._invalidate()
        self._target_at = -1
        self._target = CITY

    def _invalidate(self) -> None:
        """Forget everything that depends on the pieces (a building was placed)."""
        self._spot: bool | None = None
        # (city possible, SETTLEMENT / ROAD / -1 for the second option, then the expected
        # turns for missing cards: one card per resource, 0-2 grain, 0-3 ore; see _my_target):
        # what target() needs besides the hand.
        self._plan: (
            tuple[bool, int, tuple[float, ...], tuple[float, ...], tuple[float, ...]] | None
        ) = None
        self._city: object = _STALE
        self._settlement: object = _STALE
        self._paid: object = _STALE

    @property
    def spec(self) -> str:
        defaults = {"trade": True, "offers": True, "dev_cards": True, "robber": "leader"}
        params = {
            "trade": self.trade,
            "offers": self.offers,
            "dev_cards": self.dev_cards,
            "robber": self.robber,
        }
        parts = [
            f"{k}={str(v).lower() if isinstance(v, bool) else v}"
            for k, v in params.items()
            if v != defaults[k]
        ]
        return self.name + (":" + ",".join(parts) if parts else "")

    def reset(self, seat: int, seed: int) -> None:
        super().reset(seat, seed)
        self._game = None
        self._info = None

    # ------------------------------------------------------------------ dispatch

    def act(self, game: Game, legal: Sequence[int]) -> int:
        if game is not self._game:
            self._start(game)
        phase = game.phase
        if phase == MAIN:
            return self._main(game, legal)
        if len(legal) == 1:
            return legal[0]
        if phase == TRADE_RESPONSE:
            return self._respond(game, legal)
        if phase == PRE_ROLL:
            return self._pre_roll(game, legal)
        if phase == DISCARD:
            return self._discard(game, legal)
        if phase == MOVE_ROBBER:
            return self._move_robber(game, legal)
        if phase == STEAL:
            return self._steal(game, legal)
        if phase in (ROAD_BUILDING, SETUP_ROAD):
            return self._best_road(game, legal)
        if phase == SETUP_SETTLEMENT:
            return self._setup_settlement(game, legal)
        if phase == TRADE_CONFIRM:
            return self._confirm(game, legal)
        return legal[0]

    def _start(self, game: Game) -> None:
        """Look up the board's tables and empty the caches (the first decision of a game)."""
        self._game = game
        self._info = BoardInfo.of(game)
        self._start_caches(game.n_players)

    def _sync(self, game: Game) -> bool:
        """True when the piece caches may be used for ``game`` (the agent's own game), after
        forgetting what a piece placed since they were filled has changed. Cheap after the
        first call in a decision.

        Pieces are never removed, so the sums below only drop: equal sums mean the same pieces
        (along one game's history). A road leaves the buildings alone, and an opponent's road
        leaves the agent's spots and plan alone: only what depends on it is forgotten.
        """
        if game is not self._game:
            return False  # a copy (the lookahead's trials): compute everything afresh
        if self._synced_at != game.n_actions:
            self._synced_at = game.n_actions
            # The engine's version of the pieces (it counts every piece placed): most
            # decisions come before anything new is placed, and end the look-up here.
            pieces = game._pieces_placed
            if pieces == self._pieces_seen:
                return True
            self._pieces_seen = pieces
            # A city takes a city piece and gives back a settlement: weight 2 keeps it a drop.
            buildings = sum(game.settlements_left) + 2 * sum(game.cities_left)
            roads_left = game.roads_left
            roads = sum(roads_left)
            if buildings != self._buildings_key:
                self._buildings_key = buildings
                self._roads_key = roads
                self._own_roads = roads_left[self.seat]
                self._invalidate()
            elif roads != self._roads_key:
                self._roads_key = roads
                self._paid = _STALE  # any road changes the road choices
                own = roads_left[self.seat]
                if own != self._own_roads:  # the agent's network grew
                    self._own_roads = own
                    self._spot = None
                    self._plan = None
                    self._settlement = _STALE
        return True

    @property
    def info(self) -> BoardInfo:
        assert self._info is not None
        return self._info

    # ------------------------------------------------------------------ shared estimates

    def production(self, game: Game, seat: int, cached: bool = True) -> list[int]:
        """Pips per resource of ``seat``'s buildings (a city counts twice), shape (5,).

        Public information. With ``cached``, kept until the seat places a settlement or city —
        valid only along one game's history (pieces are never removed), so positions on copies
        of the game (the lookahead's) are never cached.
        """
        cached = cached and game is self._game
        if cached:
            key = game.settlements_left[seat] + 2 * game.cities_left[seat]
            if self._prod_key[seat] == key:
                return self._prod[seat]
        prod = [0] * N_RES
        owner, building, node_pips = game.owner, game.building, self.info.node_pips
        for v in game.network[seat]:
            if owner[v] == seat:
                k = building[v]
                row = node_pips[v]
                for r in range(N_RES):
                    prod[r] += k * row[r]
        if cached:
            self._prod_key[seat] = key
            self._prod[seat] = prod
        return prod

    def spot_value(self, v: int, prod: Sequence[int]) -> float:
        """How good intersection ``v`` is as a new settlement for a seat producing ``prod``;
        see :func:`spot_value`."""
        return spot_value(self.info, v, prod)

    def has_spot(self, game: Game) -> bool:
        """True when the agent's seat has an open settlement spot on its roads right now.

        Kept until a piece is placed. (Main-phase meaning: the setup phases do not ask.)
        """
        if self._sync(game):
            if self._spot is None:
                self._spot = self._open_spot(game)
            return self._spot
        return self._open_spot(game)

    def _open_spot(self, game: Game) -> bool:
        # The engine's settlement_spots sorts the network; only existence matters here.
        free = game.site_free
        for v in game.network[self.seat]:  # noqa: SIM110 - a plain loop is faster than any()
            if free[v]:
                return True
        return False

    def target(self, game: Game, seat: int) -> int:
        """The build ``seat`` is working towards (CITY, SETTLEMENT, DEV or ROAD).

        The build with the fewest expected turns of income still missing, scaled by priority:
        each missing card of resource r costs ~ 36 / (production of r + 3) (the +3 stands for
        trades and steals); a city or settlement is preferred over a card, a road comes in only
        when no settlement spot is open.
        """
        if seat == self.seat:
            if self._target_at == game.n_actions and game is self._game:
                return self._target  # (asked again in the same decision)
            if self._sync(game):
                self._target_at = game.n_actions
                self._target = self._my_target(game)
                return self._target
        options = self._build_options(game, seat)
        if self.dev_cards and game.dev_deck:
            options.append((1.6, DEV))
        if not options:
            return ROAD
        hand = game.hands[seat]
        prod = self.production(game, seat)
        best, best_score = options[0][1], _INF
        for factor, kind in options:
            eta = 0.0
            for r, c in _COST_ITEMS[kind]:
                short = c - hand[r]
                if short > 0:
                    eta += short * 36.0 / (prod[r] + 3)
            score = (eta + 1.0) * factor
            if score < best_score:
                best, best_score = kind, score
        return best

    def _my_target(self, game: Game) -> int:
        """:meth:`target` for the agent's own seat in its own game: the same arithmetic,
        unrolled per build (this runs at most decisions), with the options and production
        kept until a piece is placed."""
        plan = self._plan
        if plan is None:
            # The options of _build_options, without building the list.
            p = self.seat
            settlements_left = game.settlements_left[p]
            city = bool(game.cities_left[p]) and settlements_left < SETTLEMENTS_PER_PLAYER
            second = -1
            if settlements_left:
                if self.has_spot(game):
                    second = SETTLEMENT
                elif game.roads_left[p]:
                    second = ROAD
            prod = self.production(game, p)
            # Missing cards x 36 / (production + 3), worked out per resource and count once
            # per plan (the same divisions as written out below them, so the same floats).
            den = [prod[r] + 3 for r in range(N_RES)]
            plan = self._plan = (
                city,
                second,
                tuple(36.0 / d for d in den),
                (0.0, 36.0 / den[GRAIN], 72.0 / den[GRAIN]),  # city: by grain missing
                (0.0, 36.0 / den[ORE], 72.0 / den[ORE], 108.0 / den[ORE]),  # by ore missing
            )
        city, second, (t_lumber, t_wool, t_grain, t_brick, t_ore), t_grain2, t_ore3 = plan
        lumber, wool, grain, brick, ore = game.hands[self.seat]
        # Score = (eta + 1) x priority factor; eta sums, resource by resource in index order,
        # missing cards x 36 / (production + 3). Ties keep the earlier build.
        best, best_score = ROAD, _INF
        if city:
            eta = 0.0
            if grain < 2:
                eta += t_grain2[2 - grain]
            if ore < 3:
                eta += t_ore3[3 - ore]
            best, best_score = CITY, eta + 1.0
        if second == SETTLEMENT:
            eta = 0.0
            if not lumber:
                eta += t_lumber
            if not wool:
                eta += t_wool
            if not grain:
                eta += t_grain
            if not brick:
                eta += t_brick
            score = eta + 1.0
            if score < best_score:
                best, best_score = SETTLEMENT, score
        elif second == ROAD:
            eta = 0.0
            if not lumber:
                eta += t_lumber
            if not brick:
                eta += t_brick
            score = (eta + 1.0) * 1.2
            if score < best_score:
                best, best_score = ROAD, score
        if self.dev_cards and game.dev_deck:
            eta = 0.0
            if not wool:
                eta += t_wool
            if not grain:
                eta += t_grain
            if not ore:
                eta += t_ore
            if (eta + 1.0) * 1.6 < best_score:
                best = DEV
        return best

    def _build_options(self, game: Game, seat: int) -> list[tuple[float, int]]:
        """(priority factor, build kind) of the builds ``seat`` has pieces and room for, the
        development card aside (it depends on the deck, not the pieces)."""
        options: list[tuple[float, int]] = []
        settlements_left = game.settlements_left[seat]
        if game.cities_left[seat] and settlements_left < SETTLEMENTS_PER_PLAYER:
            options.append((1.0, CITY))
        if settlements_left:
            if self.has_spot(game) if seat == self.seat else game.settlement_spots(seat):
                options.append((1.0, SETTLEMENT))
            elif game.roads_left[seat]:
                options.append((1.2, ROAD))
        return options

    # ------------------------------------------------------------------ setup

    def _setup_settlement(self, game: Game, legal: Sequence[int]) -> int:
        best, best_value = legal[0], _NEG_INF
        rand = self.rng.random
        for a, value in zip(legal, self.setup_spot_values(game, legal), strict=True):
            value += 1e-6 * rand()
            if value > best_value:
                best, best_value = a, value
        return best

    def setup_spot_values(self, game: Game, legal: Sequence[int]) -> list[float]:
        """Greedy's value of each setup settlement in ``legal`` (same order) for the agent's
        seat: the board's value of a fresh spot for the first settlement, :func:`spot_value`
        given the first's production for the second. Search agents rank their candidate
        placements by it."""
        if game is not self._game:
            self._start(game)
        prod = self.production(game, self.seat)
        info = self.info
        if not any(prod):  # the first settlement: values known per board
            fresh = info.fresh_value
            return [fresh[a - A.SETTLEMENT] for a in legal]
        # spot_value(), inlined: ~50 spots.
        node_value, node_new, node_pips, harbor_at = (
            info.node_value,
            info.node_new,
            info.node_pips,
            info.harbor_at,
        )
        values = []
        for a in legal:
            v = a - A.SETTLEMENT
            value = node_value[v]
            for r, bonus in node_new[v]:
                if not prod[r]:
                    value += bonus
            code = harbor_at[v]
            if code == 0:
                value += 1.0
            elif code > 0:
                value += 0.3 * (prod[code - 1] + node_pips[v][code - 1])
            values.append(value)
        return values

    # ------------------------------------------------------------------ roads

    def _spot_values(self, game: Game) -> list[float]:
        """Per intersection, its :func:`spot_value` for the agent's seat, or -1.0 where not
        computed yet (filled on demand). Kept while the seat's production is."""
        if game is not self._game:
            return [-1.0] * _N_NODES
        p = self.seat
        key = game.settlements_left[p] + 2 * game.cities_left[p]
        if key != self._sv_key:
            self._sv_key = key
            self._sv = [-1.0] * _N_NODES
        return self._sv

    def _road_target_value(
        self,
        game: Game,
        start: int,
        sv: list[float] | None = None,
        prod: Sequence[int] | None = None,
    ) -> float:
        """Value of the best open settlement spot within two paths of node ``start``.

        Spots further away count less (x0.6 per path); the walk does not pass opponents'
        buildings or roads. 0 when there is none. ``sv``: :meth:`_spot_values` (a cache);
        ``prod``: the agent's :meth:`production`.
        """
        p = self.seat
        owner, ro, free = game.owner, game.road_owner, game.site_free
        if sv is None:
            sv = self._spot_values(game)
        info = self._info
        assert info is not None
        if prod is None:
            prod = self.production(game, p)
        # Two levels of the walk, unrolled. The board has no triangles, so a node one path
        # away is never also two away; a node reached twice (or the start again, two paths
        # away) has the same or a lower discounted value, which cannot change the best.
        best = 0.0
        if free[start]:
            best = sv[start]
            if best < 0.0:
                best = sv[start] = spot_value(info, start, prod)
        o = owner[start]
        if o >= 0 and o != p:
            return best
        for e1, w1, second in _WALKS[start]:
            r = ro[e1]
            if r >= 0 and r != p:
                continue
            if free[w1]:
                value = sv[w1]
                if value < 0.0:
                    value = sv[w1] = spot_value(info, w1, prod)
                value *= _ONE_AWAY
                if value > best:
                    best = value
            else:
                o = owner[w1]
                if o >= 0 and o != p:
                    continue
            for e2, w2 in second:
                if not free[w2]:
                    continue
                r = ro[e2]
                if r >= 0 and r != p:
                    continue
                value = sv[w2]
                if value < 0.0:
                    value = sv[w2] = spot_value(info, w2, prod)
                value *= _TWO_AWAY
                if value > best:
                    best = value
        return best

    def _road_scores(self, game: Game, roads: Sequence[int]) -> list[tuple[float, int]]:
        """(score, action) for road actions: the best spot the road leads towards."""
        network = game.network[self.seat]
        sv = self._spot_values(game)
        prod = self.production(game, self.seat)
        # Roads leading to the same node score the same: walk from each node once.
        known: dict[int, float] = {}
        out = []
        for a in roads:
            x, y = _PATH_NODES[a - A.ROAD]
            if x in network:
                if y in network:
                    out.append((0.0, a))
                    continue
                x = y
            score = known.get(x)
            if score is None:
                score = known[x] = self._road_target_value(game, x, sv, prod)
            out.append((score, a))
        return out

    def _longest_gain(self, game: Game, roads: Sequence[int]) -> tuple[int, int]:
        """(road length after, action) of the road that lengthens ``seat``'s longest road most.

        A road with a fresh end (no road of the seat there) can only be the last road of a
        trail through it, so its length is that of the best trail from its other end plus one
        (computed once per end), at most the current length plus one; only a road joining two
        ends of the seat's roads needs the engine's full search.
        """
        p = self.seat
        ro, owner, paths = game.road_owner, game.owner, _NODE_PATHS
        current = game.road_length[p]
        trails: dict[int, int] = {}
        links: dict[int, list[tuple[int, int]]] | None = None
        best_len, best = -1, roads[0]
        for a in roads:
            e = a - A.ROAD
            x, y = _PATH_NODES[e]
            x_old = y_old = False
            for f in paths[x]:
                if ro[f] == p:
                    x_old = True
                    break
            for f in paths[y]:
                if ro[f] == p:
                    y_old = True
                    break
            if x_old and y_old:
                length = game.road_length_if_built(p, e)
            elif best_len > current:
                # A road with a fresh end adds at most one road to the longest trail, and an
                # earlier road already did: this one cannot win (ties keep the earlier).
                continue
            else:
                length = 1
                if x_old or y_old:
                    inner = x if x_old else y
                    o = owner[inner]
                    if o < 0 or o == p:  # an opponent's building there ends the trail
                        extra = trails.get(inner)
                        if extra is None:
                            if links is None:
                                links = self._road_links(game)
                            extra = trails[inner] = self._trail_from(game, inner, links)
                        length += extra
                if current > length:
                    length = current
            if length > best_len:
                best_len, best = length, a
        return best_len, best

    def _road_links(self, game: Game) -> dict[int, list[tuple[int, int]]]:
        """Per node, the agent's roads leaving it as (bit of the road, far node)."""
        links: dict[int, list[tuple[int, int]]] = {}
        path_nodes = _PATH_NODES
        for i, e in enumerate(game.roads_of[self.seat]):
            a, b = path_nodes[e]
            bit = 1 << i
            links.setdefault(a, []).append((bit, b))
            links.setdefault(b, []).append((bit, a))
        return links

    def _trail_from(
        self, game: Game, start: int, links: dict[int, list[tuple[int, int]]] | None = None
    ) -> int:
        """Roads in the agent's longest trail starting at node ``start`` (the engine's rule:
        no road twice; a trail may end at, not pass, an opponent's building). ``links``:
        :meth:`_road_links` (a cache)."""
        p = self.seat
        owner = game.owner
        if links is None:
            links = self._road_links(game)
        best = 0
        stack = [(start, 0, 0)]
        while stack:
            v, used, length = stack.pop()
            if length > best:
                best = length
            if length:
                o = owner[v]
                if o >= 0 and o != p:
                    continue
            for bit, w in links.get(v, ()):
                if not used & bit:
                    stack.append((w, used | bit, length + 1))
        return best

    def _wants_longest_road(self, game: Game) -> bool:
        """True when a road or two could win (or defend) the longest-road card."""
        p = self.seat
        if not game.roads_left[p]:
            return False
        lengths = game.road_length
        mine = lengths[p]
        others = 0
        for q in range(game.n_players):
            if q != p and lengths[q] > others:
                others = lengths[q]
        if game.longest_road == p:
            return others >= mine - 1
        need = max(LONGEST_ROAD_MIN, others + 1)
        return mine >= need - 2

    def _best_road(self, game: Game, legal: Sequence[int]) -> int:
        """A road (setup, road building, or a paid one): towards the best spot, else longest."""
        roads = _roads_in(legal)
        rand = self.rng.random
        best_score, best = _NEG_INF, -1
        for score, a in self._road_scores(game, roads):
            # Ties (of the randomised scores) go to the higher action, as max() of pairs did.
            score += 1e-6 * rand()
            if score > best_score or (score == best_score and a > best):
                best_score, best = score, a
        if best_score < 0.5 and game.phase != SETUP_ROAD:
            return self._longest_gain(game, roads)[1]
        return best

    # ------------------------------------------------------------------ turn start

    def _robber_on_me(self, game: Game) -> bool:
        h = game.robber
        if not self.info.hex_pips[h]:
            return False
        owner, p = game.owner, self.seat
        for v in _HEX_CORNERS[h]:  # noqa: SIM110 - a plain loop is faster than any()
            if owner[v] == p:
                return True
        return False

    def _knight_takes_army(self, game: Game) -> bool:
        p = self.seat
        played = game.dev_played
        mine = played[p][KNIGHT] + 1
        others = 0
        for q in range(game.n_players):
            if q != p and played[q][KNIGHT] > others:
                others = played[q][KNIGHT]
        if game.largest_army == p:
            return others >= mine - 1  # defend a lead of one
        return mine >= LARGEST_ARMY_MIN and mine > others

    def _pre_roll(self, game: Game, legal: Sequence[int]) -> int:
        # Legal is sorted: a knight, when playable, comes right after the roll.
        if legal[1] == A.PLAY_KNIGHT and (
            self._robber_on_me(game) or self._knight_takes_army(game)
        ):
            return A.PLAY_KNIGHT
        return A.ROLL

    # ------------------------------------------------------------------ main phase

    def _main(self, game: Game, legal: Sequence[int]) -> int:
        # Back from an offer that came to nothing (declined, or nobody could take it): nothing
        # has changed since the decision that made it (only a trade moves cards while an offer
        # is open), so every rule below falls through to the offers again, and the same offer
        # is not repeated in a turn: the answer is END_TURN, without working it out again.
        # (About one main-phase decision in five is this one.)
        mark = self._offer_mark
        if mark[0] == game.turns and mark[1] == game.domestic_trades and game is self._game:
            return A.END_TURN
        p = self.seat
        self._sync(game)
        hand = game.hands[p]
        lumber, wool, grain, brick, ore = hand

        if self.dev_cards:
            dev = game.dev_hand[p]
            # Cheap test first: most of the time no playable kind of card is held.
            if (
                dev[KNIGHT]
                or dev[ROAD_BUILDING_CARD]
                or dev[YEAR_OF_PLENTY_CARD]
                or dev[MONOPOLY_CARD]
            ):
                play = self._dev_play(game, legal)
                if play is not None:
                    return play

        # City > settlement > development card > road. With the cards in hand, the legal builds
        # of each kind depend only on the pieces, so each choice is kept until one is placed.
        if grain >= 2 and ore >= 3 and game.cities_left[p]:
            city = self._best_city(game)
            if city is not None and game.is_legal(city):  # (a cheap guard on the cached choice)
                return city
        if lumber and wool and grain and brick and game.settlements_left[p]:
            spot = self._best_settlement(game)
            if spot is not None and game.is_legal(spot):
                return spot
        if (
            self.dev_cards
            and wool
            and grain
            and ore
            and game.is_legal(A.BUY_DEV)
            and self._dev_ok(game)
        ):
            return A.BUY_DEV
        if lumber and brick and game.roads_left[p]:
            road = self._paid_road(game, legal)
            if road is not None and game.is_legal(road):
                return road

        if self.trade:
            # Any bank trade needs one resource held at its rate: the common case is a quick no.
            rates = game.rates[p]
            if (
                lumber >= rates[LUMBER]
                or wool >= rates[WOOL]
                or grain >= rates[GRAIN]
                or brick >= rates[BRICK]
                or ore >= rates[ORE]
            ):
                trade = self._maritime(game, legal)
                if trade is not None:
                    return trade
        if self.offers:
            offer = self._offer(game, legal)
            if offer is not None:
                if game is self._game:
                    self._offer_mark = (game.turns, game.domestic_trades)
                return offer
        return A.END_TURN

    def _best_city(self, game: Game) -> int | None:
        """The city action on the best own settlement (weighted pips), None without one.

        The caller checks the cards and the city pieces; the legal cities are then exactly the
        seat's settlements.
        """
        cached = self._sync(game)
        if cached and self._city is not _STALE:
            return self._city  # type: ignore[return-value]
        p = self.seat
        owner, building, node_value = game.owner, game.building, self.info.node_value
        best, best_value = None, _NEG_INF
        for v in sorted(game.network[p]):  # node order, so ties go to the lowest, as before
            if owner[v] == p and building[v] == 1 and node_value[v] > best_value:
                best, best_value = A.CITY + v, node_value[v]
        if cached:
            self._city = best
        return best

    def _best_settlement(self, game: Game) -> int | None:
        """The settlement action on the best open spot (:func:`spot_value`), None without one.

        The caller checks the cards and the settlement pieces; the legal settlements are then
        exactly the open spots of the seat's network.
        """
        cached = self._sync(game)
        if cached and self._settlement is not _STALE:
            return self._settlement  # type: ignore[return-value]
        p = self.seat
        info, free = self.info, game.site_free
        prod = self.production(game, p)
        best, best_value = None, _NEG_INF
        for v in sorted(game.network[p]):  # node order, so ties go to the lowest, as before
            if free[v]:
                value = spot_value(info, v, prod)
                if value > best_value:
                    best, best_value = A.SETTLEMENT + v, value
        if cached:
            self._settlement = best
        return best

    def _dev_ok(self, game: Game) -> bool:
        """Buy a card unless it spends what a nearly complete city or settlement needs."""
        kind = self.target(game, self.seat)
        if kind in (CITY, SETTLEMENT):
            hand = game.hands[self.seat]
            cost = BUILD_COSTS[kind]
            before = after = 0
            for r in range(N_RES):
                h, c = hand[r], cost[r]
                if c > h:
                    before += c - h
                h -= DEV_COST[r]
                if c > h:
                    after += c - h
            if after > before and before <= 2:
                return False
        return True

    def _settlement_wanted(self, game: Game) -> bool:
        p = self.seat
        return bool(game.settlements_left[p]) and not self.has_spot(game)

    def _paid_road(self, game: Game, legal: Sequence[int]) -> int | None:
        """A road worth its cards: towards a wanted settlement spot, else for the longest road.

        With the cards in hand the legal roads depend only on the pieces, and so does the
        choice: it is kept until a piece is placed.
        """
        cached = self._sync(game)
        if cached and self._paid is not _STALE:
            return self._paid  # type: ignore[return-value]
        best = self._choose_paid_road(game, legal)
        if cached:
            self._paid = best
        return best

    def _choose_paid_road(self, game: Game, legal: Sequence[int]) -> int | None:
        # Called with the road's cards in hand and roads left: the legal roads are the spots
        # (listed only when a road is wanted at all: a third of the calls want none).
        wanted = self._settlement_wanted(game)
        if not wanted and not self._wants_longest_road(game):
            return None
        roads = [A.ROAD + e for e in game.road_spots(self.seat)]
        if not roads:
            return None
        if wanted:
            best_score, best = 0.0, -1
            for score, a in self._road_scores(game, roads):
                if score > best_score or (score == best_score and a > best):
                    best_score, best = score, a
            if best_score > 0:
                return best
            if not self._wants_longest_road(game):
                return None
        length, best = self._longest_gain(game, roads)
        if length > game.road_length[self.seat]:
            return best
        return None

    def _maritime(self, game: Game, legal: Sequence[int]) -> int | None:
        """A bank trade, only when a chain of such trades completes a build this turn."""
        p = self.seat
        hand, rates = game.hands[p], game.rates[p]
        # Any trade needs one resource held at its rate: the common case is a quick no.
        for r in range(N_RES):
            if hand[r] >= rates[r]:
                break
        else:
            return None
        bank = game.bank
        kinds = []
        if game.cities_left[p] and game.settlements_left[p] < SETTLEMENTS_PER_PLAYER:
            kinds.append(CITY)
        if game.settlements_left[p] and self.has_spot(game):
            kinds.append(SETTLEMENT)
        # Cards and roads are worth a trade only when the hand is about to be halved by a 7.
        if game.hand_size[p] > game.options.discard_limit:
            if self.dev_cards and game.dev_deck:
                kinds.append(DEV)
            if game.roads_left[p] and (
                self._settlement_wanted(game) or self._wants_longest_road(game)
            ):
                kinds.append(ROAD)
        for kind in kinds:
            cost = BUILD_COSTS[kind]
            need = spare = 0
            get, get_short = -1, 0
            feasible = True
            for r in range(N_RES):
                short = cost[r] - hand[r]
                if short > 0:
                    if bank[r] < short:
                        feasible = False
                        break
                    need += short
                    if short > get_short:  # the resource most short of; the first on ties
                        get, get_short = r, short
                elif short < 0:
                    spare += -short // rates[r]
            if not feasible or not need or spare < need:
                continue
            # Give the resource with the best rate, then the most to spare (first on ties).
            give, give_rate, give_spare = -1, 0, 0
            for r in range(N_RES):
                extra = hand[r] - cost[r]
                if extra >= rates[r] and (
                    give < 0
                    or rates[r] < give_rate
                    or (rates[r] == give_rate and extra > give_spare)
                ):
                    give, give_rate, give_spare = r, rates[r], extra
            a = _MARITIME[give][get]
            if game.is_legal(a):
                return a
        return None

    def _offer(self, game: Game, legal: Sequence[int]) -> int | None:
        """A 1-for-1 offer of a spare card for the one card the next build lacks."""
        if game.turns != self._offer_turn:
            self._offer_turn = game.turns
            self._offered = set()
        if len(self._offered) >= 2 or game.offers_left <= 0:
            return None  # (an offer would not be legal now)
        p = self.seat
        if game.vp_public[p] >= game.options.vp_to_win - NO_TRADE_MARGIN:
            # Nobody trades with a seat this close to winning (this agent declines such offers
            # itself): asking would only cost every seat a decision.
            return None
        hand = game.hands[p]
        cost = BUILD_COSTS[self.target(game, p)]
        get = -1
        for r in range(N_RES):
            short = cost[r] - hand[r]
            if short > 0:
                if short > 1 or get >= 0:
                    return None  # more than one card short
                get = r
        if get < 0:
            return None
        # Give the card held most beyond the cost; among equals the least valuable.
        weight = self.info.weight
        give, give_extra = -1, 0
        for r in range(N_RES):
            extra = hand[r] - cost[r]
            if extra > 0 and (
                give < 0 or extra > give_extra or (extra == give_extra and weight[r] < weight[give])
            ):
                give, give_extra = r, extra
        if give < 0:
            return None
        a = _OFFER_ONE[give][get]
        if a in self._offered:
            return None
        # Legal as it stands: an offer is left this turn and the hand holds ``give`` (more than
        # the build needs of it); the engine checks it again when it is played.
        self._offered.add(a)
        return a

    def _dev_play(self, game: Game, legal: Sequence[int]) -> int | None:
        """Play a development card when it clearly helps (at most one per turn, by the rules)."""
        p = self.seat
        dev = game.dev_hand[p]
        # Fast path: no playable kind of card held, or one already played this turn.
        if (
            not (
                dev[KNIGHT]
                or dev[ROAD_BUILDING_CARD]
                or dev[YEAR_OF_PLENTY_CARD]
                or dev[MONOPOLY_CARD]
            )
            or game.dev_played_this_turn
        ):
            return None
        new = game.dev_new[p]
        # (Holding more than were bought this turn is necessary for a card to be playable: a
        # cheap test first; the legality look-up, which lists the playable cards, comes last.)
        if (
            dev[KNIGHT] > new[KNIGHT]
            and (self._robber_on_me(game) or self._knight_takes_army(game))
            and game.is_legal(A.PLAY_KNIGHT)
        ):
            return A.PLAY_KNIGHT
        if (
            dev[ROAD_BUILDING_CARD] > new[ROAD_BUILDING_CARD]
            and game.roads_left[p] >= 1
            and (self._settlement_wanted(game) or self._wants_longest_road(game))
            and game.is_legal(A.PLAY_ROAD_BUILDING)
        ):
            return A.PLAY_ROAD_BUILDING
        hand = game.hands[p]
        if dev[YEAR_OF_PLENTY_CARD] > new[YEAR_OF_PLENTY_CARD]:
            a = self._year_of_plenty(game, legal, hand)
            if a is not None:
                return a
        if dev[MONOPOLY_CARD] > new[MONOPOLY_CARD]:
            a = self._monopoly(game, legal, hand)
            if a is not None:
                return a
        return None

    def _year_of_plenty(self, game: Game, legal: Sequence[int], hand: list[int]) -> int | None:
        """Take the two cards the next build lacks most (only if it lacks any)."""
        cost = BUILD_COSTS[self.target(game, self.seat)]
        lacking = [r for r in range(N_RES) for _ in range(max(0, cost[r] - hand[r]))]
        if not lacking:
            return None
        if len(lacking) == 1:
            # The second card: the resource this seat produces least (weighted).
            prod = self.production(game, self.seat)
            weight = self.info.weight
            lacking.append(min(range(N_RES), key=lambda r: (prod[r], -weight[r])))
        a = A.year_of_plenty(lacking[0], lacking[1])
        return a if game.is_legal(a) else None

    def _monopoly(self, game: Game, legal: Sequence[int], hand: list[int]) -> int | None:
        """Monopolise a resource the next build lacks when opponents likely hold 3+ of it.

        Opponents' hands are hidden: a seat's cards are estimated from its card count split in
        proportion to its (public) production.
        """
        cost = BUILD_COSTS[self.target(game, self.seat)]
        best, best_gain = None, 2.5
        for r in range(N_RES):
            if hand[r] >= cost[r] and game.rates[self.seat][r] != 2:
                continue
            gain = 0.0
            for q in range(game.n_players):
                if q != self.seat and game.hand_size[q]:
                    prod = self.production(game, q)
                    total = sum(prod)
                    if total:
                        gain += game.hand_size[q] * prod[r] / total
            if gain > best_gain:
                best, best_gain = r, gain
        if best is None:
            return None
        a = A.MONOPOLY + best
        return a if game.is_legal(a) else None

    # ------------------------------------------------------------------ the 7 and the robber

    def _discard(self, game: Game, legal: Sequence[int]) -> int:
        """Drop the card the next build needs least (the most copies beyond its cost); among
        equals the least valuable, then the first."""
        hand = game.hands[self.seat]
        cost = BUILD_COSTS[self.target(game, self.seat)]
        weight = self.info.weight
        best, best_extra, best_weight = legal[0], -99, 0.0
        for a in legal:
            r = a - A.DISCARD
            extra = hand[r] - cost[r]
            if extra > best_extra or (extra == best_extra and weight[r] < best_weight):
                best, best_extra, best_weight = a, extra, weight[r]
        return best

    def _move_robber(self, game: Game, legal: Sequence[int]) -> int:
        p = self.seat
        hex_pips = self.info.hex_pips
        vp, sizes = game.vp_public, game.hand_size
        top = -1
        for q in range(game.n_players):
            if q != p and vp[q] > top:
                top = vp[q]
        leader_mode = self.robber == "leader"
        # Weight of a seat's buildings: the leader's count triple in "leader" mode.
        weight = [3.0 if leader_mode and vp[q] == top else 1.0 for q in range(game.n_players)]
        # Per hex: opponents' weighted production blocked, minus 1000 if it touches the agent,
        # plus 2 if anyone there can be robbed — from the engine's list of the buildings on
        # each hex. The sums are of whole numbers, so exact in any order.
        takers = game.hex_takers
        best, best_score = legal[0], _NEG_INF
        rand = self.rng.random
        for a in legal:
            h = a - A.ROBBER
            score = 0.0
            pairs = takers[h][1]
            if pairs:
                n = hex_pips[h]
                mine = steal = False
                for q, k in pairs:
                    if q == p:
                        mine = True
                    else:
                        score += k * weight[q] * n
                        if sizes[q]:
                            steal = True
                if mine:
                    score -= 1000.0
                if steal:
                    score += 2.0
            s = score + 1e-6 * rand()
            if s > best_score:
                best, best_score = a, s
        return best

    def _steal(self, game: Game, legal: Sequence[int]) -> int:
        """Rob the leader by public points; among equals the one holding the most cards, then
        the lowest seat."""
        vp, sizes = game.vp_public, game.hand_size
        best, best_vp, best_size = legal[0], -1, -1
        for a in legal:
            q = a - A.STEAL
            if vp[q] > best_vp or (vp[q] == best_vp and sizes[q] > best_size):
                best, best_vp, best_size = a, vp[q], sizes[q]
        return best

    # ------------------------------------------------------------------ domestic trade

    def _respond(self, game: Game, legal: Sequence[int]) -> int:
        """Accept only a trade that helps the next build, from a seat not close to winning."""
        if not self.offers or legal[0] != A.ACCEPT_TRADE:
            return A.DECLINE_TRADE
        offer = game.offer
        if offer is None:
            return A.DECLINE_TRADE
        give, _n_give, get = offer  # the offerer gives ``give`` and wants ``get`` from us
        hand = game.hands[self.seat]
        # Accepting needs fewer ``give`` cards than the next build costs: with as many as any
        # build costs, no need to work out the build.
        if hand[give] >= _MOST_NEEDED[give]:
            return A.DECLINE_TRADE
        if game.vp_public[game.current] >= game.options.vp_to_win - NO_TRADE_MARGIN:
            return A.DECLINE_TRADE
        cost = BUILD_COSTS[self.target(game, self.seat)]
        if hand[give] < cost[give] and hand[get] > cost[get]:
            return A.ACCEPT_TRADE
        return A.DECLINE_TRADE

    def _confirm(self, game: Game, legal: Sequence[int]) -> int:
        """Trade with the accepting seat that has the fewest public points (lowest seat on ties)."""
        vp = game.vp_public
        best, best_vp = A.CANCEL_TRADE, 99
        for a in legal:
            if a != A.CANCEL_TRADE and vp[a - A.CONFIRM_TRADE] < best_vp:
                best, best_vp = a, vp[a - A.CONFIRM_TRADE]
        return best
