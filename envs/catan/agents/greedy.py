"""The greedy builder: a scripted Catan player with one simple, sensible rule per decision.

It plays every phase of the game without search: it settles on high, varied production, builds
city > settlement > development card > road whenever it can pay (roads only towards a wanted
settlement spot or to contest the longest road), trades with the bank only when the trade
completes its next build, and points the robber at the leader. It reads only what its seat
could see at the table: its own hand and development cards, the board, the pieces, opponents'
card counts, public victory points and played knights.

Speed matters (it is the workhorse of large simulation studies): everything that depends only on
the board is computed once per game (:class:`BoardInfo`), the agent never copies the game, and a
decision touches a few dozen Python objects at most.

Units: "pips" are the dots on a number token (the number of the 36 dice outcomes that roll it);
a node's production is the sum of the pips of its hexes per resource; a city counts twice.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from envs.catan import actions as A
from envs.catan.agents.base import Agent
from envs.catan.board import pips
from envs.catan.engine import (
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
from envs.catan.engine import MONOPOLY as MONOPOLY_CARD
from envs.catan.engine import YEAR_OF_PLENTY as YEAR_OF_PLENTY_CARD

if TYPE_CHECKING:
    from envs.catan.engine import Game

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

ROBBER_MODES = ("leader", "production")
_NEIGHBOURS = tables().node_neighbours


class BoardInfo:
    """Per-game tables for one board: computed once, read at every decision.

    Attributes:
        hex_pips: pips per hex, shape (19,); 0 on the desert.
        hex_res: resource per hex, shape (19,); -1 on the desert.
        weight: value of one pip per resource on this board, shape (5,): the base weight times
            a scarcity factor (resources with few pips on the board are worth more).
        node_pips: pips per resource at each intersection, shape (54, 5).
        node_value: weighted pips at each intersection, shape (54,) — the static part of how
            good a settlement spot is.
    """

    def __init__(self, game: Game) -> None:
        t = tables()
        self.hex_pips = tuple(pips(n) for n in game.hex_number)
        self.hex_res = game.hex_resource
        totals = [0] * N_RES
        for h, r in enumerate(self.hex_res):
            if r >= 0:
                totals[r] += self.hex_pips[h]
        mean = sum(totals) / N_RES
        # Scarcity: square root of mean/total, clipped, so a resource with half the usual pips
        # is worth ~1.4x, not 2x (trading and harbors soften real scarcity).
        self.weight = tuple(
            BASE_RESOURCE_WEIGHT[r] * min(1.5, max(0.7, (mean / max(totals[r], 1)) ** 0.5))
            for r in range(N_RES)
        )
        node_pips = []
        node_value = []
        for v in range(A.N_INTERSECTIONS):
            row = [0] * N_RES
            for h in t.node_hexes[v]:
                r = self.hex_res[h]
                if r >= 0:
                    row[r] += self.hex_pips[h]
            node_pips.append(tuple(row))
            node_value.append(sum(self.weight[r] * row[r] for r in range(N_RES)))
        self.node_pips = tuple(node_pips)
        self.node_value = tuple(node_value)
        self.harbor_at = game.harbor_at


def missing_cards(hand: Sequence[int], cost: Sequence[int]) -> int:
    """Cards short of ``cost`` (both per resource, shape (5,))."""
    return sum(c - h for h, c in zip(hand, cost, strict=True) if c > h)


class GreedyAgent(Agent):
    """Scripted greedy builder; see the module docstring.

    Parameters:
        trade: trade with the bank (maritime) when a trade completes the next build.
        offers: make simple 1-for-1 domestic offers when one card short of the next build, and
            accept offers that help the next build (when False it declines every offer).
        dev_cards: buy and play development cards (when False it never buys them; cards it
            holds anyway are never bought, so none are played).
        robber: where the robber goes: ``"leader"`` (the hex that costs the opponent with the
            most public victory points the most production, other opponents counting less) or
            ``"production"`` (the hex blocking the most opponent production, whoever owns it).
            Never a hex touching its own buildings unless every legal hex does.
    """

    name = "greedy"

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
        self._prod_key: list[tuple[int, int] | None] = []
        self._prod: list[list[int]] = []
        self._offered: set[int] = set()
        self._offer_turn = -1
        self._spot_key = -1
        self._spot = False
        self._target_key = -1
        self._target = CITY

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
        if len(legal) == 1:
            return legal[0]
        if game is not self._game:
            self._start(game)
        phase = game.phase
        if phase == MAIN:
            return self._main(game, legal)
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
        if phase == TRADE_RESPONSE:
            return self._respond(game, legal)
        if phase == TRADE_CONFIRM:
            return self._confirm(game, legal)
        return legal[0]

    def _start(self, game: Game) -> None:
        """Build the per-game tables (the first decision of a game)."""
        self._game = game
        self._info = BoardInfo(game)
        self._prod_key = [None] * game.n_players
        self._prod = [[0] * N_RES for _ in range(game.n_players)]
        self._offered = set()
        self._offer_turn = -1
        self._spot_key = -1
        self._target_key = -1

    @property
    def info(self) -> BoardInfo:
        assert self._info is not None
        return self._info

    # ------------------------------------------------------------------ shared estimates

    def production(self, game: Game, seat: int, cached: bool = True) -> list[int]:
        """Pips per resource of ``seat``'s buildings (a city counts twice), shape (5,).

        Public information. With ``cached``, kept until the seat's building counts change —
        valid only along one game's history (pieces are never removed), so positions on copies
        of the game (the lookahead's) must pass ``cached=False``.
        """
        key = (game.settlements_left[seat], game.cities_left[seat])
        if cached and self._prod_key[seat] == key and game is self._game:
            return self._prod[seat]
        prod = [0] * N_RES
        owner, building, node_pips = game.owner, game.building, self.info.node_pips
        for v in game.network[seat]:
            if owner[v] == seat:
                k = building[v]
                for r, n in enumerate(node_pips[v]):
                    prod[r] += k * n
        if cached and game is self._game:
            self._prod_key[seat] = key
            self._prod[seat] = prod
        return prod

    def spot_value(self, v: int, prod: Sequence[int]) -> float:
        """How good intersection ``v`` is as a new settlement for a seat producing ``prod``.

        Weighted pips, plus a bonus per resource the seat does not produce yet (diversity), plus
        harbors: a 2:1 harbor is worth a share of the seat's production of its resource (with
        ``v``), a 3:1 harbor a small flat amount.
        """
        info = self.info
        row = info.node_pips[v]
        value = info.node_value[v]
        weight = info.weight
        for r in range(N_RES):
            if row[r] and not prod[r]:
                value += 2.0 * weight[r]
        code = info.harbor_at[v]
        if code == 0:
            value += 1.0
        elif code > 0:
            r = code - 1
            value += 0.3 * (prod[r] + row[r])
        return value

    def has_spot(self, game: Game) -> bool:
        """True when the agent's seat has an open settlement spot on its roads right now.

        Cached for the current decision (the engine's action counter), because several rules
        ask within one decision and the engine recomputes it from scratch.
        """
        if game is self._game and self._spot_key == game.n_actions:
            return self._spot
        spot = bool(game.settlement_spots(self.seat))
        if game is self._game:
            self._spot_key, self._spot = game.n_actions, spot
        return spot

    def _valid_spot(self, game: Game, v: int) -> bool:
        owner = game.owner
        if owner[v] >= 0:
            return False
        # A plain loop: measurably faster than all() over a generator on this hot path.
        for w in _NEIGHBOURS[v]:  # noqa: SIM110
            if owner[w] >= 0:
                return False
        return True

    def target(self, game: Game, seat: int) -> int:
        """The build ``seat`` is working towards (CITY, SETTLEMENT, DEV or ROAD).

        The build with the fewest expected turns of income still missing, scaled by priority:
        each missing card of resource r costs ~ 36 / (production of r + 3) (the +3 stands for
        trades and steals); a city or settlement is preferred over a card, a road comes in only
        when no settlement spot is open.
        """
        mine = seat == self.seat and game is self._game
        if mine and self._target_key == game.n_actions:
            return self._target
        hand = game.hands[seat]
        prod = self.production(game, seat)
        on_board = SETTLEMENTS_PER_PLAYER - game.settlements_left[seat]
        options: list[tuple[float, int]] = []
        if game.cities_left[seat] and on_board:
            options.append((1.0, CITY))
        if game.settlements_left[seat]:
            if self.has_spot(game) if seat == self.seat else game.settlement_spots(seat):
                options.append((1.0, SETTLEMENT))
            elif game.roads_left[seat]:
                options.append((1.2, ROAD))
        if self.dev_cards and game.dev_deck:
            options.append((1.6, DEV))
        if not options:
            return ROAD
        best, best_score = options[0][1], float("inf")
        for factor, kind in options:
            cost = BUILD_COSTS[kind]
            eta = 0.0
            for r in range(N_RES):
                short = cost[r] - hand[r]
                if short > 0:
                    eta += short * 36.0 / (prod[r] + 3)
            score = (eta + 1.0) * factor
            if score < best_score:
                best, best_score = kind, score
        if mine:
            self._target_key, self._target = game.n_actions, best
        return best

    # ------------------------------------------------------------------ setup

    def _setup_settlement(self, game: Game, legal: Sequence[int]) -> int:
        prod = self.production(game, self.seat)
        best, best_value = legal[0], float("-inf")
        rand = self.rng.random
        for a in legal:
            value = self.spot_value(a - A.SETTLEMENT, prod) + 1e-6 * rand()
            if value > best_value:
                best, best_value = a, value
        return best

    # ------------------------------------------------------------------ roads

    def _road_target_value(self, game: Game, start: int) -> float:
        """Value of the best open settlement spot within two paths of node ``start``.

        Spots further away count less (x0.6 per path); the walk does not pass opponents'
        buildings or roads. 0 when there is none.
        """
        p = self.seat
        owner, ro = game.owner, game.road_owner
        links = tables().node_links
        prod = self.production(game, p)
        best = 0.0
        frontier = [start]
        seen = {start}
        scale = 1.0
        for depth in range(3):
            nxt = []
            for v in frontier:
                if self._valid_spot(game, v):
                    value = scale * self.spot_value(v, prod)
                    if value > best:
                        best = value
                if depth == 2 or (owner[v] >= 0 and owner[v] != p):
                    continue
                for e, w in links[v]:
                    if w not in seen and ro[e] in (-1, p):
                        seen.add(w)
                        nxt.append(w)
            frontier = nxt
            scale *= 0.6
        return best

    def _road_scores(self, game: Game, roads: Sequence[int]) -> list[tuple[float, int]]:
        """(score, action) for road actions: the best spot the road leads towards."""
        p = self.seat
        network = game.network[p]
        path_nodes = tables().path_nodes
        out = []
        for a in roads:
            x, y = path_nodes[a - A.ROAD]
            if x in network and y in network:
                score = 0.0
            else:
                score = self._road_target_value(game, y if x in network else x)
            out.append((score, a))
        return out

    def _longest_gain(self, game: Game, roads: Sequence[int]) -> tuple[int, int]:
        """(road length after, action) of the road that lengthens ``seat``'s longest road most."""
        best_len, best = -1, roads[0]
        for a in roads:
            length = road_length_with(game, self.seat, a - A.ROAD)
            if length > best_len:
                best_len, best = length, a
        return best_len, best

    def _wants_longest_road(self, game: Game) -> bool:
        """True when a road or two could win (or defend) the longest-road card."""
        p = self.seat
        if not game.roads_left[p]:
            return False
        mine = game.road_length[p]
        others = max(game.road_length[q] for q in range(game.n_players) if q != p)
        if game.longest_road == p:
            return others >= mine - 1
        need = max(LONGEST_ROAD_MIN, others + 1)
        return mine >= need - 2

    def _best_road(self, game: Game, legal: Sequence[int]) -> int:
        """A road (setup, road building, or a paid one): towards the best spot, else longest."""
        roads = [a for a in legal if A.ROAD <= a < A.ROBBER]
        scored = self._road_scores(game, roads)
        rand = self.rng.random
        best_score, best = max((s + 1e-6 * rand(), a) for s, a in scored)
        if best_score < 0.5 and game.phase != SETUP_ROAD:
            return self._longest_gain(game, roads)[1]
        return best

    # ------------------------------------------------------------------ turn start

    def _robber_on_me(self, game: Game) -> bool:
        h = game.robber
        if not self.info.hex_pips[h]:
            return False
        owner = game.owner
        return any(owner[v] == self.seat for v in tables().hex_corners[h])

    def _knight_takes_army(self, game: Game) -> bool:
        p = self.seat
        mine = game.dev_played[p][KNIGHT] + 1
        others = max(game.dev_played[q][KNIGHT] for q in range(game.n_players) if q != p)
        if game.largest_army == p:
            return others >= mine - 1  # defend a lead of one
        return mine >= LARGEST_ARMY_MIN and mine > others

    def _pre_roll(self, game: Game, legal: Sequence[int]) -> int:
        if A.PLAY_KNIGHT in legal and (self._robber_on_me(game) or self._knight_takes_army(game)):
            return A.PLAY_KNIGHT
        return A.ROLL

    # ------------------------------------------------------------------ main phase

    def _main(self, game: Game, legal: Sequence[int]) -> int:
        p = self.seat
        hand = game.hands[p]
        lumber, wool, grain, brick, ore = hand

        if self.dev_cards:
            play = self._dev_play(game, legal)
            if play is not None:
                return play

        # City > settlement > development card > road.
        if grain >= 2 and ore >= 3 and game.cities_left[p]:
            cities = [a for a in legal if A.CITY <= a < A.ROAD]
            if cities:
                node_value = self.info.node_value
                return max(cities, key=lambda a: node_value[a - A.CITY])
        if lumber and wool and grain and brick and game.settlements_left[p]:
            spots = [a for a in legal if A.SETTLEMENT <= a < A.CITY]
            if spots:
                prod = self.production(game, p)
                return max(spots, key=lambda a: self.spot_value(a - A.SETTLEMENT, prod))
        if self.dev_cards and wool and grain and ore and A.BUY_DEV in legal and self._dev_ok(game):
            return A.BUY_DEV
        if lumber and brick and game.roads_left[p]:
            road = self._paid_road(game, legal)
            if road is not None:
                return road

        if self.trade:
            trade = self._maritime(game, legal)
            if trade is not None:
                return trade
        if self.offers:
            offer = self._offer(game, legal)
            if offer is not None:
                return offer
        return A.END_TURN

    def _dev_ok(self, game: Game) -> bool:
        """Buy a card unless it spends what a nearly complete city or settlement needs."""
        hand = game.hands[self.seat]
        kind = self.target(game, self.seat)
        if kind in (CITY, SETTLEMENT):
            cost = BUILD_COSTS[kind]
            after = [h - c for h, c in zip(hand, DEV_COST, strict=True)]
            if (
                missing_cards(after, cost) > missing_cards(hand, cost)
                and missing_cards(hand, cost) <= 2
            ):
                return False
        return True

    def _settlement_wanted(self, game: Game) -> bool:
        p = self.seat
        return bool(game.settlements_left[p]) and not self.has_spot(game)

    def _paid_road(self, game: Game, legal: Sequence[int]) -> int | None:
        roads = [a for a in legal if A.ROAD <= a < A.ROBBER]
        if not roads:
            return None
        if self._settlement_wanted(game):
            score, best = max(self._road_scores(game, roads))
            if score > 0:
                return best
        if self._wants_longest_road(game):
            length, best = self._longest_gain(game, roads)
            if length > game.road_length[self.seat]:
                return best
        return None

    def _maritime(self, game: Game, legal: Sequence[int]) -> int | None:
        """A bank trade, only when a chain of such trades completes a build this turn."""
        p = self.seat
        hand, rates, bank = game.hands[p], game.rates[p], game.bank
        kinds = []
        on_board = SETTLEMENTS_PER_PLAYER - game.settlements_left[p]
        if game.cities_left[p] and on_board:
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
            short = [r for r in range(N_RES) if hand[r] < cost[r]]
            if not short:
                continue
            need = sum(cost[r] - hand[r] for r in short)
            if any(bank[r] < cost[r] - hand[r] for r in short):
                continue
            spare = sum((hand[r] - cost[r]) // rates[r] for r in range(N_RES) if hand[r] > cost[r])
            if spare < need:
                continue
            # Give the resource with the best rate, then the most to spare.
            give = max(
                (r for r in range(N_RES) if hand[r] - cost[r] >= rates[r]),
                key=lambda r: (-rates[r], hand[r] - cost[r]),
            )
            get = max(short, key=lambda r: cost[r] - hand[r])
            a = A.maritime(give, get)
            if a in legal:
                return a
        return None

    def _offer(self, game: Game, legal: Sequence[int]) -> int | None:
        """A 1-for-1 offer of a spare card for the one card the next build lacks."""
        p = self.seat
        if game.turns != self._offer_turn:
            self._offer_turn = game.turns
            self._offered = set()
        if len(self._offered) >= 2:
            return None
        hand = game.hands[p]
        cost = BUILD_COSTS[self.target(game, p)]
        short = [r for r in range(N_RES) if hand[r] < cost[r]]
        if len(short) != 1 or cost[short[0]] - hand[short[0]] != 1:
            return None
        get = short[0]
        spare = [r for r in range(N_RES) if hand[r] > cost[r]]
        if not spare:
            return None
        give = max(spare, key=lambda r: (hand[r] - cost[r], -self.info.weight[r]))
        a = A.offer(give, 1, get)
        if a in self._offered or a not in legal:
            return None
        self._offered.add(a)
        return a

    def _dev_play(self, game: Game, legal: Sequence[int]) -> int | None:
        """Play a development card when it clearly helps (at most one per turn, by the rules)."""
        if legal[-1] < A.PLAY_KNIGHT:  # fast path: nothing beyond END_TURN/ROLL/BUY_DEV
            return None
        p = self.seat
        if A.PLAY_KNIGHT in legal and (self._robber_on_me(game) or self._knight_takes_army(game)):
            return A.PLAY_KNIGHT
        if (
            A.PLAY_ROAD_BUILDING in legal
            and game.roads_left[p] >= 1
            and (self._settlement_wanted(game) or self._wants_longest_road(game))
        ):
            return A.PLAY_ROAD_BUILDING
        dev = game.dev_hand[p]
        new = game.dev_new[p]
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
            lacking.append(min(range(N_RES), key=lambda r: (prod[r], -self.info.weight[r])))
        a = A.year_of_plenty(lacking[0], lacking[1])
        return a if a in legal else None

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
        return a if a in legal else None

    # ------------------------------------------------------------------ the 7 and the robber

    def _discard(self, game: Game, legal: Sequence[int]) -> int:
        """Drop the card the next build needs least (the most copies beyond its cost)."""
        hand = game.hands[self.seat]
        cost = BUILD_COSTS[self.target(game, self.seat)]
        weight = self.info.weight
        best = max(
            legal, key=lambda a: (hand[a - A.DISCARD] - cost[a - A.DISCARD], -weight[a - A.DISCARD])
        )
        return best

    def _move_robber(self, game: Game, legal: Sequence[int]) -> int:
        p = self.seat
        owner, building = game.owner, game.building
        corners = tables().hex_corners
        hex_pips = self.info.hex_pips
        n = game.n_players
        vp = game.vp_public
        top = max(vp[q] for q in range(n) if q != p)
        leader_mode = self.robber == "leader"
        best, best_score = legal[0], float("-inf")
        rand = self.rng.random
        for a in legal:
            h = a - A.ROBBER
            score = 0.0
            mine = False
            can_steal = False
            for v in corners[h]:
                q = owner[v]
                if q < 0:
                    continue
                if q == p:
                    mine = True
                    continue
                w = (3.0 if vp[q] == top else 1.0) if leader_mode else 1.0
                score += w * building[v] * hex_pips[h]
                if game.hand_size[q]:
                    can_steal = True
            if mine:
                score -= 1000.0
            if can_steal:
                score += 2.0
            score += 1e-6 * rand()
            if score > best_score:
                best, best_score = a, score
        return best

    def _steal(self, game: Game, legal: Sequence[int]) -> int:
        """Rob the leader by public points; among equals the one holding the most cards."""
        vp, sizes = game.vp_public, game.hand_size
        return max(legal, key=lambda a: (vp[a - A.STEAL], sizes[a - A.STEAL], -a))

    # ------------------------------------------------------------------ domestic trade

    def _respond(self, game: Game, legal: Sequence[int]) -> int:
        """Accept only a trade that helps the next build, from a seat not close to winning."""
        if not self.offers or A.ACCEPT_TRADE not in legal:
            return A.DECLINE_TRADE
        offer = current_offer(game)
        if offer is None:
            return A.DECLINE_TRADE
        give, _n_give, get = offer  # the offerer gives ``give`` and wants ``get`` from us
        offerer = game.current
        if game.vp_public[offerer] >= game.options.vp_to_win - 3:
            return A.DECLINE_TRADE
        hand = game.hands[self.seat]
        cost = BUILD_COSTS[self.target(game, self.seat)]
        if hand[give] < cost[give] and hand[get] > cost[get]:
            return A.ACCEPT_TRADE
        return A.DECLINE_TRADE

    def _confirm(self, game: Game, legal: Sequence[int]) -> int:
        """Trade with the accepting seat that has the fewest public points."""
        seats = [a for a in legal if a != A.CANCEL_TRADE]
        if not seats:
            return A.CANCEL_TRADE
        vp = game.vp_public
        return min(seats, key=lambda a: (vp[a - A.CONFIRM_TRADE], a))


def current_offer(game: Game) -> tuple[int, int, int] | None:
    """The pending domestic offer (give, n_give, get) from the offerer's side, or None.

    The offer is public at the table; the engine keeps it in a private attribute.
    """
    return getattr(game, "_offer", None)


def road_length_with(game: Game, seat: int, extra: int) -> int:
    """``seat``'s longest road if it also owned path ``extra`` (the engine's rule, read-only)."""
    t = tables()
    links, path_nodes = t.node_links, t.path_nodes
    owner, ro = game.owner, game.road_owner
    roads = [*game.roads_of[seat], extra]
    nodes = {v for e in roads for v in path_nodes[e]}
    own_links = {v: [(e, w) for e, w in links[v] if ro[e] == seat or e == extra] for v in nodes}
    blocked = {v for v in nodes if owner[v] >= 0 and owner[v] != seat}
    best = 0
    seen: set[int] = set()

    def walk(v: int, used: int, length: int) -> None:
        nonlocal best
        seen.add(v)
        if length > best:
            best = length
        if length and v in blocked:
            return
        for e, w in own_links[v]:
            bit = 1 << e
            if not used & bit:
                walk(w, used | bit, length + 1)

    for v in nodes:
        if len(own_links[v]) != 2 or v in blocked:
            walk(v, 0, 0)
    for v in nodes:
        if v not in seen:  # a component that is a pure cycle
            walk(v, 0, 0)
    return best
