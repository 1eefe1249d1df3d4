"""The Catan rules engine: a plain, seeded state machine over integer actions.

One concept in one file (about 1,300 lines): the rules of the game, every phase of them, in one
state machine. It is compiled with mypyc (setup.py), where calls inside one module stay native.

One :class:`Game` holds the whole state of one game. ``legal_actions()`` lists the integer
actions (see :mod:`ludolab.envs.catan.actions`) open to the seat that must act now (``acting``), and
``step(action)`` applies one of them. Chance is the engine's own: the dice, the development
deck's order and the card stolen by the robber come from three random streams derived from the
game seed, so a game is a pure function of (board, the agents' choices, seed), and the dice of
seed ``k`` are the same whatever the board and the agents (common random numbers).

Rules: the base game (2-4 players) as stated in the repository's ``docs/rules/catan.md``,
with its sources. Choices where the rules leave room, each an option or documented here:

* Longest road: the first road of 5+ takes the card; another player takes it only with a
  strictly longer road. When an opponent's settlement makes the holder's longest road shorter
  (cutting a spur of it changes nothing) and the holder is left tied for the longest, the holder
  keeps the card (the almanac's rule; ``cut_holder_keeps_ties=False`` sets it aside instead);
  if another road is now longer, the single longest road of 5+ takes it; if the longest is
  shared by others or shorter than 5, the card is set aside. While set aside, the first single
  longest road of 5+ takes it.
* A player who reaches the victory target on another player's turn (possible only through the
  longest-road card changing hands) wins at the start of their own next turn, before rolling.
* Development cards may be played before or after the roll, one per turn, never one bought this
  turn; victory-point cards count from the moment they are bought.
* Year of plenty takes any two cards the bank can pay; monopoly takes every card of a resource.
* The 7: seats holding more than ``discard_limit`` cards discard half, rounded down, one card at
  a time, in seat order from the roller; then the roller moves the robber (to any other hex) and
  steals one random card from a chosen opponent with a building on that hex.
* Bank shortage: if the bank cannot pay every seat what it is owed of a resource, nobody gets
  that resource — unless only one seat is owed it, who then gets what is left.
* Domestic trade: the seat on turn offers one or two cards of one resource for one card of
  another; every other seat answers in turn order (one without the card asked for can only
  decline, so being asked reveals nothing); the offerer confirms with one accepting seat or
  cancels. At most ``trade_offers_per_turn`` offers a turn (0 disables them),
  which bounds the haggling agents can do.
"""

from __future__ import annotations

import operator
import random
from typing import ClassVar, SupportsIndex

from ludolab.envs.catan import actions as A
from ludolab.envs.catan import native
from ludolab.envs.catan.board import DESERT, Board
from ludolab.envs.catan.options import GameOptions
from ludolab.envs.catan.topology import load_layout
from ludolab.envs.rules import IllegalActionError, InvariantError, as_action, illegal_message

# Phases: what kind of decision is pending.
SETUP_SETTLEMENT, SETUP_ROAD, PRE_ROLL, MAIN, DISCARD, MOVE_ROBBER, STEAL = range(7)
ROAD_BUILDING, TRADE_RESPONSE, TRADE_CONFIRM, GAME_OVER = range(7, 11)
PHASE_NAMES = (
    "setup-settlement",
    "setup-road",
    "pre-roll",
    "main",
    "discard",
    "move-robber",
    "steal",
    "road-building",
    "trade-response",
    "trade-confirm",
    "game-over",
)

# Development cards.
KNIGHT, VICTORY_POINT, ROAD_BUILDING_CARD, YEAR_OF_PLENTY, MONOPOLY = range(5)
DEV_CARD_NAMES = ("knight", "victory-point", "road-building", "year-of-plenty", "monopoly")
DEV_DECK_COUNTS = (14, 5, 2, 2, 2)

# Costs per resource (lumber, wool, grain, brick, ore).
ROAD_COST = (1, 0, 0, 1, 0)
SETTLEMENT_COST = (1, 1, 1, 1, 0)
CITY_COST = (0, 0, 2, 0, 3)
DEV_COST = (0, 1, 1, 0, 1)

CARDS_PER_RESOURCE = 19
SETTLEMENTS_PER_PLAYER, CITIES_PER_PLAYER, ROADS_PER_PLAYER = 5, 4, 15
LONGEST_ROAD_MIN, LARGEST_ARMY_MIN = 5, 3


class _Tables:
    """Topology of the standard layout as flat tuples, built once per process."""

    def __init__(self) -> None:
        layout = load_layout("standard")
        self.layout = layout
        self.hex_corners = layout.hex_intersections
        self.node_hexes = layout.intersection_hexes
        self.node_neighbours = layout.intersection_neighbours
        self.node_paths = layout.intersection_paths
        self.path_nodes = layout.paths
        # For each node, the (path, far node) pairs leaving it.
        self.node_links = tuple(
            tuple((e, b if a == v else a) for e in layout.intersection_paths[v]
                  for a, b in (layout.paths[e],))
            for v in range(layout.n_intersections)
        )
        assert layout.n_hexes == A.N_HEXES
        assert layout.n_intersections == A.N_INTERSECTIONS
        assert layout.n_paths == A.N_PATHS


_TABLES: _Tables | None = None


def tables() -> _Tables:
    """The shared topology tables (built on first use)."""
    global _TABLES
    if _TABLES is None:
        _TABLES = _Tables()
    return _TABLES


# Legal MARITIME actions, in index order, for every (give mask << 5 | bank mask): bit r of the
# give mask says the hand holds the seat's rate of resource r; of the bank mask, that the bank
# holds at least one card of r.
_MARITIME_TABLE = tuple(
    tuple(
        A.maritime(give, get)
        for give, get in A.TRADE_PAIRS
        if (key >> 5) >> give & 1 and key >> get & 1
    )
    for key in range(1 << 10)
)
# Legal OFFER actions, in index order, for every mask of held cards: bit r says the hand holds
# one card of resource r, bit 5 + r that it holds two.
_OFFER_TABLE = tuple(
    tuple(
        A.offer(give, n, get)
        for give, n, get in A.OFFERS
        if held >> (give + 5 * (n - 1)) & 1
    )
    for held in range(1 << 10)
)


# Fixed legal lists, shared (legal lists are read-only): answering an offer; discarding, per mask
# of the resources held (bit r: holds r); moving the robber, per hex it stands on (any other
# hex), as hexes and as actions.
_RESPONSES = [A.ACCEPT_TRADE, A.DECLINE_TRADE]
_DECLINE_ONLY = [A.DECLINE_TRADE]  # a seat without the card asked for
_DISCARDS = tuple(
    [A.DISCARD + r for r in range(A.N_RESOURCES) if mask >> r & 1] for mask in range(1 << 5)
)
_OTHER_HEXES = tuple([h for h in range(A.N_HEXES) if h != robber] for robber in range(A.N_HEXES))
_ROBBER_MOVES = tuple([A.ROBBER + h for h in hexes] for hexes in _OTHER_HEXES)


_FRESH_DECK = tuple(card for card, k in enumerate(DEV_DECK_COUNTS) for _ in range(k))


def _shuffle(rng: random.Random, items: list[int]) -> None:
    """``rng.shuffle(items)``, written out: CPython's algorithm (Fisher-Yates with rejection
    sampling on ``getrandbits``), so the same permutation from the same stream, in a third of
    the time (one shuffle per game)."""
    getrandbits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]


def _stream(seed: int, name: str) -> random.Random:
    # String seeds are hashed with SHA-512 by `random`, so streams are stable across processes
    # and Python runs (unlike hash() of a str, which is salted per process).
    return random.Random(f"ludolab.catan:{name}:{seed}")


def _longest_trail(
    links: dict[int, tuple[tuple[int, int], ...]],
    owner: list[int],
    seat: int,
    starts: list[int],
    seen: set[int],
    most: int,
) -> int:
    """Longest trail (no road used twice) from any of ``starts``; marks visited nodes in ``seen``.

    ``links`` maps a node to its (road bit, far node) pairs. Trails may end at, but not pass, an
    opponent's building. Stops early at ``most`` (the number of roads).
    """
    best = 0
    for start in starts:
        stack = [(start, 0, 0)]
        while stack:
            v, used, length = stack.pop()
            seen.add(v)
            if length > best:
                best = length
                if best == most:
                    return best
            if length and owner[v] >= 0 and owner[v] != seat:
                continue
            for bit, w in links[v]:
                if not used & bit:
                    stack.append((w, used | bit, length + 1))
    return best


def check_table(board: Board, n_players: int) -> None:
    """Raise ValueError unless the engine can play ``board`` with ``n_players`` seats."""
    if board.layout != "standard":
        raise ValueError(
            f"the engine plays the standard layout; board {board.id} uses {board.layout!r}"
        )
    if not 2 <= n_players <= A.MAX_PLAYERS:
        raise ValueError(f"n_players must be 2..{A.MAX_PLAYERS}, got {n_players}")


class Game:
    """The state of one game and its rules.

    Seats are 0..n_players-1; seat 0 places first and takes the first turn. Public attributes
    may be read by agents and observers; only ``step`` changes them. Hands are lists of 5 card
    counts (lumber, wool, grain, brick, ore).
    """

    game: ClassVar[str] = "catan"
    """The game's registry name (``ludolab.games``): code holding a state finds its game by it."""

    def __init__(
        self,
        board: Board,
        n_players: SupportsIndex = 4,
        seed: SupportsIndex = 0,
        options: GameOptions | None = None,
    ) -> None:
        # Any integer type (numpy's too): compiled, an `int` parameter would refuse them.
        n_players, seed = operator.index(n_players), operator.index(seed)
        check_table(board, n_players)
        t = tables()
        self.board = board
        self.n_players = n = n_players
        self.seed = seed
        self.options = options or GameOptions()
        self._vp_to_win = self.options.vp_to_win  # read on hot paths
        self._debug = self.options.debug
        self._dice_rng = _stream(seed, "dice")
        self._steal_rng = _stream(seed, "steal")

        # Board, per hex and per node.
        self.hex_resource = tuple(-1 if c == DESERT else c for c in board.terrain)
        self.hex_number = board.numbers
        # Per number, the (hex, resource) pairs that produce on it.
        producers: list[list[tuple[int, int]]] = [[] for _ in range(13)]
        for h, number in enumerate(board.numbers):
            if number:
                producers[number].append((h, self.hex_resource[h]))
        self._number_hexes = tuple(tuple(p) for p in producers)
        harbor_at = [-1] * A.N_INTERSECTIONS
        for slot, code in enumerate(board.harbors):
            for v in t.path_nodes[t.layout.harbor_slots[slot]]:
                harbor_at[v] = code  # 0 generic (3:1), 1..5 the resource code + 1 (2:1)
        self.harbor_at = tuple(harbor_at)

        # Pieces on the board.
        self.robber = board.robber
        self.owner = [-1] * A.N_INTERSECTIONS  # seat with a building there, or -1
        self.building = [0] * A.N_INTERSECTIONS  # 1 settlement, 2 city
        # True where the distance rule allows a building: no building there or next to it.
        self.site_free = [True] * A.N_INTERSECTIONS
        self.road_owner = [-1] * A.N_PATHS
        self.roads_of: list[list[int]] = [[] for _ in range(n)]
        # Per seat, its road graph: node -> ((road bit, far node), ...); bit i is roads_of[i].
        self._road_links: list[dict[int, tuple[tuple[int, int], ...]]] = [{} for _ in range(n)]
        self.network: list[set[int]] = [set() for _ in range(n)]  # nodes touched by own pieces
        # Roads, settlements and cities placed so far: a version for caches (the engine's and
        # the agents'; hand-edited positions in tests bump it too).
        self._pieces_placed = 0
        # Per hex, (cards, ((seat, cards), ...)): see hex_takers. Kept up to date as buildings
        # are placed; _takers_at is the _pieces_placed it was last in step with, so that a
        # position edited by hand (tests) is noticed and the list rebuilt.
        self._takers: list[tuple[int, tuple[tuple[int, int], ...]]] = [(0, ())] * A.N_HEXES
        self._takers_at = 0
        self._road_spots_cache: list[tuple[int, list[int]]] = [(-1, [])] * n

        # Cards.
        self.bank = [CARDS_PER_RESOURCE] * A.N_RESOURCES
        self.hands = [[0] * A.N_RESOURCES for _ in range(n)]
        self.hand_size = [0] * n
        deck = list(_FRESH_DECK)
        _shuffle(_stream(seed, "deck"), deck)
        self.dev_deck = deck  # drawn from the end
        self.dev_hand = [[0] * 5 for _ in range(n)]  # includes cards bought this turn
        self.dev_new = [[0] * 5 for _ in range(n)]  # bought this turn
        self.dev_played = [[0] * 5 for _ in range(n)]
        self.rates = [[4] * A.N_RESOURCES for _ in range(n)]

        self.settlements_left = [SETTLEMENTS_PER_PLAYER] * n
        self.cities_left = [CITIES_PER_PLAYER] * n
        self.roads_left = [ROADS_PER_PLAYER] * n
        self.road_length = [0] * n
        self.longest_road = -1  # holder seat or -1
        self.largest_army = -1
        self.vp_public = [0] * n

        # Turn state.
        self.phase = SETUP_SETTLEMENT
        self.current = 0  # whose turn it is
        self.acting = 0  # who must decide now
        self.turns = 0  # completed turns (setup excluded)
        self.winner: int | None = None
        self.truncated = False
        self.n_actions = 0
        self._setup_order = [*range(n), *reversed(range(n))]
        self._setup_step = 0
        self._last_settlement = -1
        self._dev_played_this_turn = False
        self._offers_this_turn = 0
        self._discarding: list[int] = []  # seats still to discard, in order
        self._to_discard = [0] * n
        self._after_robber = MAIN  # phase to return to after the robber (PRE_ROLL for a knight)
        self._victims: list[int] = []
        self._free_roads = 0
        self._after_road_building = MAIN
        self._offer: tuple[int, int, int] | None = None
        self._responders: list[int] = []
        self._accepted: list[int] = []
        self._legal: list[int] | None = None

        # Traces for the game record.
        self.dice: list[int] = []
        self.vp_by_turn: list[tuple[int, ...]] = []
        self.produced = [[0] * A.N_RESOURCES for _ in range(n)]
        self.robber_moves = 0
        self.sevens = 0
        self.maritime_trades = 0
        self.domestic_trades = 0
        self.first_settlement_turn: list[int | None] = [None] * n
        self.first_city_turn: list[int | None] = [None] * n

    # ------------------------------------------------------------------ queries

    @property
    def done(self) -> bool:
        return self.phase == GAME_OVER

    def victory_points(self, seat: int) -> int:
        """Total victory points of ``seat``, hidden victory-point cards included."""
        return self.vp_public[seat] + self.dev_hand[seat][VICTORY_POINT]

    # Public, read-only views of turn state that every seat at the table can see.

    @property
    def offer(self) -> tuple[int, int, int] | None:
        """The domestic offer on the table as (give, n_give, get), or None."""
        return self._offer

    @property
    def accepted(self) -> tuple[int, ...]:
        """Seats that accepted the offer on the table so far."""
        return tuple(self._accepted)

    def cards_to_discard(self, seat: int) -> int:
        """Cards ``seat`` still has to discard for the 7 just rolled (0 if none)."""
        return self._to_discard[seat] if seat in self._discarding else 0

    @property
    def free_roads(self) -> int:
        """Free roads left to place from a road-building card (in that phase)."""
        return self._free_roads if self.phase == ROAD_BUILDING else 0

    @property
    def dev_played_this_turn(self) -> bool:
        return self._dev_played_this_turn

    @property
    def offers_left(self) -> int:
        """Domestic offers the seat on turn may still make this turn."""
        return self.options.trade_offers_per_turn - self._offers_this_turn

    def legal_actions(self) -> list[int]:
        """The legal actions for seat ``acting``, in increasing index order. Do not mutate."""
        if self._legal is None:
            self._legal = self._compute_legal()
        return self._legal

    def forced_action(self) -> int:
        """The one action open when the rules leave the acting seat no decision — answering an
        offer without the card asked for: decline — else -1. Loops that play agents step it
        without asking them; the PettingZoo face still selects the seat, so that being asked
        reveals nothing about a hand."""
        offer = self._offer
        if self.phase != TRADE_RESPONSE or offer is None:
            return -1
        return -1 if self.hands[self.acting][offer[2]] else A.DECLINE_TRADE

    def is_legal(self, action: int) -> bool:
        """Whether ``action`` is legal for seat ``acting`` now, without listing every action.

        A second, independent statement of the main-phase rules (the tests hold it against
        ``legal_actions``); other phases have short lists and are looked up in them.
        """
        if self.phase != MAIN:
            return action in self.legal_actions()
        p = self.acting
        lumber, wool, grain, brick, ore = hand = self.hands[p]
        if action < A.SETTLEMENT:
            if action == A.END_TURN:
                return True
            if action == A.BUY_DEV:
                return bool(wool and grain and ore and self.dev_deck)
            if action in (A.PLAY_KNIGHT, A.PLAY_ROAD_BUILDING):
                return action in self._dev_plays(p) and not self._dev_played_this_turn
            return False  # ROLL: not in the main phase
        if action < A.CITY:
            v = action - A.SETTLEMENT
            return bool(
                lumber and brick and wool and grain and self.settlements_left[p]
                and self.site_free[v] and v in self.network[p]
            )
        if action < A.ROAD:
            v = action - A.CITY
            return (
                grain >= 2 and ore >= 3 and self.cities_left[p] > 0
                and self.owner[v] == p and self.building[v] == 1
            )
        if action < A.ROBBER:
            return bool(lumber and brick and self.roads_left[p]) and (
                action - A.ROAD in self.road_spots(p)
            )
        if A.YEAR_OF_PLENTY <= action < A.MARITIME:
            return not self._dev_played_this_turn and action in self._dev_plays(p)
        if A.MARITIME <= action < A.OFFER:
            give, get = A.TRADE_PAIRS[action - A.MARITIME]
            return hand[give] >= self.rates[p][give] and self.bank[get] > 0
        if A.OFFER <= action < A.ACCEPT_TRADE:
            give, n_give, _ = A.OFFERS[action - A.OFFER]
            return self.offers_left > 0 and hand[give] >= n_give
        return False

    def action_mask(self) -> list[bool]:
        """A boolean per action index, True where legal; length ``actions.N_ACTIONS``."""
        mask = [False] * A.N_ACTIONS
        for a in self.legal_actions():
            mask[a] = True
        return mask

    def settlement_spots(self, seat: int) -> list[int]:
        """Intersections where ``seat`` may build a settlement now (ignoring its cards), sorted."""
        free = self.site_free
        if self.phase == SETUP_SETTLEMENT:
            return [v for v in range(A.N_INTERSECTIONS) if free[v]]
        # A free node of the seat's network is the end of one of its roads: its own buildings'
        # nodes are not free.
        return [v for v in sorted(self.network[seat]) if free[v]]

    def road_spots(self, seat: int) -> list[int]:
        """Paths where ``seat`` may build a road now (ignoring its cards), sorted. Do not mutate."""
        if self.phase == SETUP_ROAD:
            return [e for e in tables().node_paths[self._last_settlement] if self.road_owner[e] < 0]
        # Cached until the next road or settlement anywhere (the only pieces that change it).
        cached = self._road_spots_cache[seat]
        if cached[0] == self._pieces_placed:
            return cached[1]
        owner, ro, paths = self.owner, self.road_owner, tables().node_paths
        # Not through an opponent's building: the road cannot continue past it.
        result = sorted(
            {
                e
                for v in self.network[seat]
                if owner[v] < 0 or owner[v] == seat
                for e in paths[v]
                if ro[e] < 0
            }
        )
        self._road_spots_cache[seat] = (self._pieces_placed, result)
        return result

    def road_length_if_built(self, seat: int, path: int) -> int:
        """``seat``'s longest road if it also had a road on ``path`` (nothing is changed)."""
        roads, links = self.roads_of[seat], self._road_links[seat]
        saved = dict(links)
        roads.append(path)
        self._link_road(seat, path)
        try:
            return self._longest_road(seat)
        finally:
            roads.pop()
            self._road_links[seat] = saved

    def clone(self, share_randomness: bool = False) -> Game:
        """An independent copy: stepping it never changes this game.

        With ``share_randomness`` the dice, deck and steal streams are shared rather than copied
        (copying them is most of a clone's cost): only for a copy stepped with actions that draw
        nothing — main-phase builds, bank trades, year of plenty — as a lookahead does.
        """
        state: dict[str, object] = {}
        for key, value in attributes(self).items():
            kind = type(value)
            if kind is list:
                value = [
                    item.copy() if type(item) in (list, set, dict) else item
                    for item in value  # type: ignore[attr-defined]
                ]
            elif kind is set or kind is dict:
                value = value.copy()  # type: ignore[attr-defined]
            elif kind is random.Random and not share_randomness:
                stream = random.Random()
                stream.setstate(value.getstate())  # type: ignore[attr-defined]
                value = stream
            state[key] = value
        return restore_game(self.board, self.n_players, self.seed, self.options, state)

    def __reduce__(self) -> tuple[object, ...]:
        # Pickling, copy.copy and copy.deepcopy: compiled, a game has no __dict__ to copy.
        return (
            restore_game,
            (self.board, self.n_players, self.seed, self.options, attributes(self)),
        )

    # ------------------------------------------------------------------ legal actions

    def _compute_legal(self) -> list[int]:
        phase = self.phase
        p = self.acting
        # (Phases in about the order of how often they come up.)
        if phase == MAIN:
            return self._main_actions(p)
        # (Shared lists for the short, fixed ones: legal lists are read-only.)
        if phase == TRADE_RESPONSE:
            return _DECLINE_ONLY if self.forced_action() >= 0 else _RESPONSES
        if phase == DISCARD:
            h0, h1, h2, h3, h4 = self.hands[p]
            held = (h0 > 0) | (h1 > 0) << 1 | (h2 > 0) << 2 | (h3 > 0) << 3 | (h4 > 0) << 4
            return _DISCARDS[held]
        if phase == PRE_ROLL:
            return [A.ROLL, *self._dev_plays(p)] if not self._dev_played_this_turn else [A.ROLL]
        if phase == MOVE_ROBBER:
            if not self.options.friendly_robber:
                return _ROBBER_MOVES[self.robber]
            return [A.ROBBER + h for h in self._robber_hexes()]
        if phase == STEAL:
            return [A.STEAL + s for s in self._victims]
        if phase == ROAD_BUILDING:
            return [A.ROAD + e for e in self.road_spots(p)]
        if phase == SETUP_SETTLEMENT:
            return [A.SETTLEMENT + v for v in self.settlement_spots(p)]
        if phase == SETUP_ROAD:
            return [A.ROAD + e for e in self.road_spots(p)]
        if phase == TRADE_CONFIRM:
            return [*(A.CONFIRM_TRADE + s for s in sorted(self._accepted)), A.CANCEL_TRADE]
        return []

    def _main_actions(self, p: int) -> list[int]:
        hand = self.hands[p]
        lumber, wool, grain, brick, ore = hand
        # Built in increasing index order, so no sort is needed.
        acts = [A.END_TURN]
        if wool and grain and ore and self.dev_deck:
            acts.append(A.BUY_DEV)
        dev = self.dev_hand[p]
        plays = (
            self._dev_plays(p)
            if not self._dev_played_this_turn and (dev[0] or dev[2] or dev[3] or dev[4])
            else ()
        )
        if plays and plays[0] < A.SETTLEMENT:  # knight, road building
            acts += [a for a in plays if a < A.SETTLEMENT]
        if lumber and brick and wool and grain and self.settlements_left[p]:
            acts += [A.SETTLEMENT + v for v in self.settlement_spots(p)]
        if grain >= 2 and ore >= 3 and self.cities_left[p]:
            building, owner = self.building, self.owner
            acts += [
                A.CITY + v
                for v in sorted(self.network[p])
                if owner[v] == p and building[v] == 1
            ]
        if lumber and brick and self.roads_left[p]:
            acts += [A.ROAD + e for e in self.road_spots(p)]
        if plays:
            acts += [a for a in plays if a >= A.SETTLEMENT]  # year of plenty, monopoly
        # Trades: looked up by bit masks of what can be given and what the bank holds.
        b0, b1, b2, b3, b4 = self.bank
        r0, r1, r2, r3, r4 = self.rates[p]
        give_mask = (
            (lumber >= r0) | (wool >= r1) << 1 | (grain >= r2) << 2 | (brick >= r3) << 3
            | (ore >= r4) << 4
        )
        if give_mask:
            bank_mask = (b0 > 0) | (b1 > 0) << 1 | (b2 > 0) << 2 | (b3 > 0) << 3 | (b4 > 0) << 4
            acts += _MARITIME_TABLE[give_mask << 5 | bank_mask]
        if self._offers_this_turn < self.options.trade_offers_per_turn:
            held = (
                (lumber > 0) | (wool > 0) << 1 | (grain > 0) << 2 | (brick > 0) << 3
                | (ore > 0) << 4 | (lumber > 1) << 5 | (wool > 1) << 6 | (grain > 1) << 7
                | (brick > 1) << 8 | (ore > 1) << 9
            )
            acts += _OFFER_TABLE[held]
        return acts

    def _dev_plays(self, p: int) -> list[int]:
        have, new = self.dev_hand[p], self.dev_new[p]
        acts = []
        if have[KNIGHT] > new[KNIGHT]:
            acts.append(A.PLAY_KNIGHT)
        playable = have[ROAD_BUILDING_CARD] > new[ROAD_BUILDING_CARD]
        if playable and self.roads_left[p] and self.road_spots(p):
            acts.append(A.PLAY_ROAD_BUILDING)
        if have[YEAR_OF_PLENTY] > new[YEAR_OF_PLENTY]:
            bank = self.bank
            acts += [
                A.YEAR_OF_PLENTY + k
                for k, (r1, r2) in enumerate(A.YOP_PAIRS)
                if bank[r1] >= 1 + (r1 == r2) and bank[r2] >= 1
            ]
        if have[MONOPOLY] > new[MONOPOLY]:
            acts += range(A.MONOPOLY, A.MONOPOLY + A.N_RESOURCES)
        return acts

    def _robber_hexes(self) -> list[int]:
        hexes = _OTHER_HEXES[self.robber]
        if not self.options.friendly_robber:
            return hexes
        owner, corners, vp, p = self.owner, tables().hex_corners, self.vp_public, self.current
        allowed = [
            h
            for h in hexes
            if not any(owner[v] >= 0 and owner[v] != p and vp[owner[v]] < 3 for v in corners[h])
        ]
        return allowed or hexes

    # ------------------------------------------------------------------ applying actions

    def step(self, action: object) -> None:
        """Apply ``action`` (an integer index, numpy's too) for seat ``acting``.

        Raises :class:`IllegalActionError` if it is illegal or not an integer.
        """
        if type(action) is not int:
            action = as_action(action, A.N_ACTIONS)
        legal = self._legal
        if legal is not None:
            ok = action in legal
        elif action == A.END_TURN:
            ok = self.phase == MAIN  # (the most common action: legal exactly in the main phase)
        else:
            ok = self.is_legal(action)
        if not ok:
            raise IllegalActionError(self._illegal_message(action))
        # In debug mode the native core takes the same step from the same state (checked below).
        mirror = native.debug_mirror(self) if self._debug else None
        self._legal = None
        self.n_actions += 1
        p = self.acting
        phase = self.phase
        # (Phases in about the order of how often they come up.)
        if phase == MAIN:
            self._main_step(p, action)
            self._check_win()
        elif phase == TRADE_RESPONSE:
            self._respond(p, action == A.ACCEPT_TRADE)
        elif phase == PRE_ROLL:
            if action == A.ROLL:
                self._roll()
            else:
                self._play_dev(p, action, PRE_ROLL)
                self._check_win()
        elif phase == DISCARD:
            self._discard(p, action - A.DISCARD)
        elif phase == MOVE_ROBBER:
            self._move_robber(p, action - A.ROBBER)
        elif phase == STEAL:
            self._steal(p, action - A.STEAL)
            self.phase = self._after_robber
        elif phase == ROAD_BUILDING:
            self._build_road(p, action - A.ROAD, free=True)
            self._free_roads -= 1
            if self._free_roads == 0 or not self.roads_left[p] or not self.road_spots(p):
                self.phase = self._after_road_building
            self._check_win()
        elif phase == SETUP_SETTLEMENT:
            self._setup_settlement(p, action - A.SETTLEMENT)
        elif phase == SETUP_ROAD:
            self._build_road(p, action - A.ROAD, free=True)
            self._advance_setup()
        elif phase == TRADE_CONFIRM:
            self._confirm(p, action)
        if self._debug:
            self.check_invariants()
            if mirror is not None:
                native.check_step(mirror, self, action)

    def _check_win(self) -> None:
        # A player wins the moment they hold the target during their own turn. Only the seat on
        # turn's own actions change its points (builds, cards, the road and army awards), so
        # this runs after those; a win reached on another's turn waits for _start_turn.
        p = self.current
        if (
            self.phase != GAME_OVER
            and self.vp_public[p] + self.dev_hand[p][VICTORY_POINT] >= self._vp_to_win
        ):
            self._finish(p)

    def _illegal_message(self, action: int) -> str:
        over = self.phase == GAME_OVER
        legal = [] if over else self.legal_actions()
        phase = PHASE_NAMES[self.phase]
        return illegal_message(action, A.describe, legal, self.acting, phase, over)

    def _main_step(self, p: int, a: int) -> None:
        if a == A.END_TURN:
            self._end_turn()
        elif A.ROAD <= a < A.ROBBER:
            self._pay(p, ROAD_COST)
            self._build_road(p, a - A.ROAD, free=False)
        elif A.SETTLEMENT <= a < A.CITY:
            self._pay(p, SETTLEMENT_COST)
            self._place_settlement(p, a - A.SETTLEMENT)
            if self.first_settlement_turn[p] is None:
                self.first_settlement_turn[p] = self.turns
        elif A.CITY <= a < A.ROAD:
            self._pay(p, CITY_COST)
            v = a - A.CITY
            takers = self.hex_takers  # (in step with the pieces before the upgrade)
            for h in tables().node_hexes[v]:
                cards, pairs = takers[h]
                k = pairs.index((p, 1))  # one of p's settlements there (any: same payout)
                takers[h] = (cards + 1, (*pairs[:k], (p, 2), *pairs[k + 1 :]))
            self.building[v] = 2
            self._pieces_placed += 1
            self._takers_at += 1
            self.cities_left[p] -= 1
            self.settlements_left[p] += 1
            self.vp_public[p] += 1
            if self.first_city_turn[p] is None:
                self.first_city_turn[p] = self.turns
        elif a == A.BUY_DEV:
            self._pay(p, DEV_COST)
            card = self.dev_deck.pop()
            self.dev_hand[p][card] += 1
            self.dev_new[p][card] += 1
        elif A.MARITIME <= a < A.OFFER:
            give, get = A.TRADE_PAIRS[a - A.MARITIME]
            rate = self.rates[p][give]
            self.hands[p][give] -= rate
            self.bank[give] += rate
            self.hands[p][get] += 1
            self.bank[get] -= 1
            self.hand_size[p] += 1 - rate
            self.maritime_trades += 1
        elif A.OFFER <= a < A.ACCEPT_TRADE:
            self._offer = A.OFFERS[a - A.OFFER]
            self._offers_this_turn += 1
            n = self.n_players
            # Every other seat is asked, in turn order, as at a table: who is asked reveals
            # nothing about hands. A seat without the card asked for can only decline.
            self._responders = [(p + k) % n for k in range(1, n)]
            self._accepted = []
            self.phase = TRADE_RESPONSE
            self.acting = self._responders.pop(0)
        else:
            self._play_dev(p, a, MAIN)

    def _pay(self, p: int, cost: tuple[int, ...]) -> None:
        hand, bank = self.hands[p], self.bank
        total = 0
        for r in range(A.N_RESOURCES):
            c = cost[r]
            if c:
                hand[r] -= c
                bank[r] += c
                total += c
        self.hand_size[p] -= total

    def _gain(self, p: int, r: int, k: int) -> None:
        self.hands[p][r] += k
        self.bank[r] -= k
        self.hand_size[p] += k

    # -- setup

    def _setup_settlement(self, p: int, v: int) -> None:
        self._place_settlement(p, v)
        self._last_settlement = v
        if self._setup_step >= self.n_players:  # the second settlement yields its income
            for h in tables().node_hexes[v]:
                r = self.hex_resource[h]
                if r >= 0 and self.bank[r]:
                    self._gain(p, r, 1)
                    self.produced[p][r] += 1
        self.phase = SETUP_ROAD

    def _advance_setup(self) -> None:
        self._setup_step += 1
        if self._setup_step < len(self._setup_order):
            self.current = self.acting = self._setup_order[self._setup_step]
            self.phase = SETUP_SETTLEMENT
        else:
            self.current = self.acting = 0
            self._start_turn()

    # -- building

    def _place_settlement(self, p: int, v: int) -> None:
        self.owner[v] = p
        self.building[v] = 1
        takers = self._takers
        for h in tables().node_hexes[v]:
            cards, pairs = takers[h]
            takers[h] = (cards + 1, (*pairs, (p, 1)))
        self._takers_at += 1
        self._pieces_placed += 1
        self.site_free[v] = False
        for w in tables().node_neighbours[v]:
            self.site_free[w] = False
        self.settlements_left[p] -= 1
        self.vp_public[p] += 1
        self.network[p].add(v)
        code = self.harbor_at[v]
        if code == 0:
            self.rates[p] = [min(r, 3) for r in self.rates[p]]
        elif code > 0:
            self.rates[p][code - 1] = 2
        # A settlement cuts every opponent road passing through v. The holder's card is at stake
        # only if its longest road got shorter: cutting a spur of it changes nothing.
        ro = self.road_owner
        owners = [ro[e] for e in tables().node_paths[v]]
        cut = [q for q in range(self.n_players) if q != p and owners.count(q) >= 2]
        if cut:
            holder = self.longest_road
            before = self.road_length[holder] if holder >= 0 else 0
            for q in cut:
                self.road_length[q] = self._longest_road(q)
            shortened = holder in cut and self.road_length[holder] < before
            self._award_longest_road(cut_holder=shortened)

    def _build_road(self, p: int, e: int, free: bool) -> None:
        t = tables()
        a, b = t.path_nodes[e]
        links = self._road_links[p]  # nodes with a road of p's: before this one
        a_new = a not in links
        b_new = b not in links
        self.road_owner[e] = p
        self._pieces_placed += 1
        self._takers_at += 1
        self.roads_of[p].append(e)
        self._link_road(p, e)
        self.roads_left[p] -= 1
        self.network[p].add(a)
        self.network[p].add(b)
        if a_new != b_new:
            # The road extends the network to a fresh intersection: any longer trail now ends
            # there, so walking from that end alone is enough.
            length = max(self.road_length[p], self._longest_road(p, start=a if a_new else b))
        else:
            length = self._longest_road(p)
        if length != self.road_length[p]:
            self.road_length[p] = length
            if length >= LONGEST_ROAD_MIN:
                self._award_longest_road(cut_holder=False)

    def _longest_road(self, p: int, start: int = -1) -> int:
        """Length of ``p``'s longest trail of roads, not passing through opponents' buildings.

        With ``start``, only trails starting at that intersection are considered.
        """
        roads = self.roads_of[p]
        if len(roads) < 2:
            return len(roads)
        links, owner, most = self._road_links[p], self.owner, len(roads)
        if start >= 0:
            return _longest_trail(links, owner, p, [start], set(), most)
        # A longest trail can always be taken to start at a dead end, a fork or an opponent's
        # building (else it could be extended backwards), except on a pure cycle.
        seen: set[int] = set()
        starts = [
            v for v, ls in links.items() if len(ls) != 2 or (owner[v] >= 0 and owner[v] != p)
        ]
        best = _longest_trail(links, owner, p, starts, seen, most)
        for v in links:
            if v not in seen:  # a pure cycle: walk it once, from any of its nodes
                best = max(best, _longest_trail(links, owner, p, [v], seen, most))
        return best

    def _link_road(self, p: int, e: int) -> None:
        """Add road ``e`` (just appended to ``roads_of[p]``) to ``p``'s road graph."""
        # Tuples, so that clone()'s one-level copy of the dict is enough.
        links, bit = self._road_links[p], 1 << (len(self.roads_of[p]) - 1)
        a, b = tables().path_nodes[e]
        links[a] = (*links.get(a, ()), (bit, b))
        links[b] = (*links.get(b, ()), (bit, a))

    def _award_longest_road(self, cut_holder: bool) -> None:
        lengths = self.road_length
        holder = self.longest_road
        top = max(lengths)
        leaders = [q for q in range(self.n_players) if lengths[q] == top]
        single = leaders[0] if len(leaders) == 1 and top >= LONGEST_ROAD_MIN else -1
        if holder >= 0 and not cut_holder:
            # Only a strictly longer road takes the card from its holder.
            new = single if single >= 0 and lengths[single] > lengths[holder] else holder
        elif (
            cut_holder
            and self.options.cut_holder_keeps_ties
            and lengths[holder] == top >= LONGEST_ROAD_MIN
        ):
            new = holder
        else:
            # Card set aside, or its holder's road was cut: the single longest road of 5+ takes
            # it (possibly the holder's again); a shared longest road leaves it set aside.
            new = single
        if new != holder:
            if holder >= 0:
                self.vp_public[holder] -= 2
            if new >= 0:
                self.vp_public[new] += 2
            self.longest_road = new

    # -- dice, robber

    def _roll(self) -> None:
        rng = self._dice_rng.random
        total = int(rng() * 6) + int(rng() * 6) + 2
        self.dice.append(total)
        if total == 7:
            self.sevens += 1
            n, limit = self.n_players, self.options.discard_limit
            order = [(self.current + k) % n for k in range(n)]
            # Half rounded down: a seat over the limit with a single card (limit 0) keeps it.
            self._discarding = [q for q in order if self.hand_size[q] > max(limit, 1)]
            for q in self._discarding:
                self._to_discard[q] = self.hand_size[q] // 2
            self._after_robber = MAIN
            if self._discarding:
                self.phase = DISCARD
                self.acting = self._discarding[0]
            else:
                self.phase = MOVE_ROBBER
            return
        self._produce(total)
        self.phase = MAIN

    @property
    def hex_takers(self) -> list[tuple[int, tuple[tuple[int, int], ...]]]:
        """Per hex, (cards, ((seat, cards), ...)): what the buildings on its corners take when
        it produces (1 per settlement, 2 per city; one pair per building, in no particular
        order). Public, like the pieces it sums up. Do not mutate."""
        if self._takers_at != self._pieces_placed:
            self._rebuild_takers()
        return self._takers

    def _rebuild_takers(self) -> None:
        owner, building = self.owner, self.building
        takers = []
        for corners in tables().hex_corners:
            pairs = tuple((owner[v], building[v]) for v in corners if owner[v] >= 0)
            takers.append((sum(k for _, k in pairs), pairs))
        self._takers = takers
        self._takers_at = self._pieces_placed

    def _produce(self, number: int) -> None:
        # Fast path: each producing hex pays its takers, unless the bank runs short.
        if self._takers_at != self._pieces_placed:
            self._rebuild_takers()
        robber, takers, bank = self.robber, self._takers, self.bank
        live = [(r, takers[h]) for h, r in self._number_hexes[number] if h != robber]
        if len(live) == 1:
            r, (total, _) = live[0]
            if total > bank[r]:
                self._produce_short(number)
                return
        elif len(live) == 2:
            (r1, (total1, _)), (r2, (total2, _)) = live
            if (
                total1 + total2 > bank[r1]
                if r1 == r2
                else total1 > bank[r1] or total2 > bank[r2]
            ):
                self._produce_short(number)
                return
        elif live:
            self._produce_short(number)  # (not on the standard tokens)
            return
        hands, sizes, produced = self.hands, self.hand_size, self.produced
        for r, (total, pairs) in live:
            if total:
                bank[r] -= total
                for q, k in pairs:
                    hands[q][r] += k
                    sizes[q] += k
                    produced[q][r] += k

    def _produce_short(self, number: int) -> None:
        """Production by the rules, bank shortage included (_produce's slow path)."""
        owner, building, robber = self.owner, self.building, self.robber
        owed = []  # (resource, seat, cards)
        corners_of = tables().hex_corners
        for h, r in self._number_hexes[number]:
            if h != robber:
                for v in corners_of[h]:
                    q = owner[v]
                    if q >= 0:
                        owed.append((r, q, building[v]))
        if not owed:
            return
        bank, hands, sizes, produced = self.bank, self.hands, self.hand_size, self.produced
        totals = [0] * A.N_RESOURCES
        for r, _, k in owed:
            totals[r] += k
        # Shortage, decided per resource before anyone is paid: nobody gets the resource,
        # unless one seat alone is owed it, who then gets what is left.
        short = [totals[r] > bank[r] for r in range(A.N_RESOURCES)]
        for r, q, k in owed:
            if short[r]:
                if len({seat for res, seat, _ in owed if res == r}) > 1:
                    continue
                k = min(k, bank[r])
                if not k:
                    continue
            hands[q][r] += k
            bank[r] -= k
            sizes[q] += k
            produced[q][r] += k

    def _discard(self, p: int, r: int) -> None:
        self.hands[p][r] -= 1
        self.bank[r] += 1
        self.hand_size[p] -= 1
        self._to_discard[p] -= 1
        if self._to_discard[p] == 0:
            self._discarding.pop(0)
            if self._discarding:
                self.acting = self._discarding[0]
            else:
                self.acting = self.current
                self.phase = MOVE_ROBBER

    def _move_robber(self, p: int, h: int) -> None:
        self.robber = h
        self.robber_moves += 1
        owner, sizes = self.owner, self.hand_size
        victims = sorted(
            {owner[v] for v in tables().hex_corners[h] if owner[v] >= 0 and owner[v] != p}
        )
        victims = [q for q in victims if sizes[q]]
        if len(victims) > 1:
            self._victims = victims
            self.phase = STEAL
            return
        if victims:
            self._steal(p, victims[0])
        self.phase = self._after_robber

    def _steal(self, p: int, victim: int) -> None:
        hand = self.hands[victim]
        k = self._steal_rng.randrange(self.hand_size[victim])
        for r in range(A.N_RESOURCES):
            if k < hand[r]:
                break
            k -= hand[r]
        hand[r] -= 1
        self.hand_size[victim] -= 1
        self.hands[p][r] += 1
        self.hand_size[p] += 1

    # -- development cards

    def _play_dev(self, p: int, a: int, phase: int) -> None:
        self._dev_played_this_turn = True
        if a == A.PLAY_KNIGHT:
            self._use_card(p, KNIGHT)
            self._award_largest_army(p)
            self._after_robber = phase
            self.phase = MOVE_ROBBER
        elif a == A.PLAY_ROAD_BUILDING:
            self._use_card(p, ROAD_BUILDING_CARD)
            self._free_roads = 2
            self._after_road_building = phase
            self.phase = ROAD_BUILDING
        elif A.YEAR_OF_PLENTY <= a < A.MONOPOLY:
            self._use_card(p, YEAR_OF_PLENTY)
            for r in A.YOP_PAIRS[a - A.YEAR_OF_PLENTY]:
                self._gain(p, r, 1)
        else:
            self._use_card(p, MONOPOLY)
            r = a - A.MONOPOLY
            for q in range(self.n_players):
                if q != p and self.hands[q][r]:
                    k = self.hands[q][r]
                    self.hands[q][r] = 0
                    self.hand_size[q] -= k
                    self.hands[p][r] += k
                    self.hand_size[p] += k

    def _use_card(self, p: int, card: int) -> None:
        self.dev_hand[p][card] -= 1
        self.dev_played[p][card] += 1

    def _award_largest_army(self, p: int) -> None:
        knights = self.dev_played[p][KNIGHT]
        holder = self.largest_army
        if holder == p or knights < LARGEST_ARMY_MIN:
            return
        if holder < 0 or knights > self.dev_played[holder][KNIGHT]:
            if holder >= 0:
                self.vp_public[holder] -= 2
            self.vp_public[p] += 2
            self.largest_army = p

    # -- domestic trade

    def _respond(self, p: int, accept: bool) -> None:
        if accept:
            self._accepted.append(p)
        if self._responders:
            self.acting = self._responders.pop(0)
        elif self._accepted:
            self.acting = self.current
            self.phase = TRADE_CONFIRM
        else:
            self._close_offer()

    def _confirm(self, p: int, a: int) -> None:
        if a != A.CANCEL_TRADE:
            partner = a - A.CONFIRM_TRADE
            give, n_give, get = self._offer  # type: ignore[misc]
            mine, theirs = self.hands[p], self.hands[partner]
            mine[give] -= n_give
            theirs[give] += n_give
            theirs[get] -= 1
            mine[get] += 1
            self.hand_size[p] += 1 - n_give
            self.hand_size[partner] += n_give - 1
            self.domestic_trades += 1
        self._close_offer()

    def _close_offer(self) -> None:
        self._offer = None
        self._accepted = []
        self.acting = self.current
        self.phase = MAIN

    # -- turns and the end

    def _end_turn(self) -> None:
        n = self.n_players
        vp, dev = self.vp_public, self.dev_hand
        if n == 4:  # (the common case, unrolled: this runs every turn)
            self.vp_by_turn.append(
                (
                    vp[0] + dev[0][VICTORY_POINT],
                    vp[1] + dev[1][VICTORY_POINT],
                    vp[2] + dev[2][VICTORY_POINT],
                    vp[3] + dev[3][VICTORY_POINT],
                )
            )
        else:
            self.vp_by_turn.append(tuple([vp[q] + dev[q][VICTORY_POINT] for q in range(n)]))
        p = self.current
        if any(self.dev_new[p]):
            self.dev_new[p] = [0] * 5
        self._dev_played_this_turn = False
        self._offers_this_turn = 0
        self.turns += 1
        limit = self.options.turn_limit
        if limit is not None and self.turns >= limit:
            self.truncated = True
            self.phase = GAME_OVER
            return
        self.current = self.acting = (p + 1) % n
        self._start_turn()

    def _start_turn(self) -> None:
        p = self.current
        if self.vp_public[p] + self.dev_hand[p][VICTORY_POINT] >= self._vp_to_win:
            self._finish(p)  # reached on another seat's turn: the win comes before the roll
            return
        # The roll is a decision only when a development card could be played before it;
        # otherwise the engine rolls at once rather than ask for the only legal action.
        have = self.dev_hand[p]
        if have[KNIGHT] or have[ROAD_BUILDING_CARD] or have[YEAR_OF_PLENTY] or have[MONOPOLY]:
            self.phase = PRE_ROLL
            legal = self._compute_legal()
            if legal != [A.ROLL]:
                self._legal = legal  # (listed already: the decision's legal_actions())
                return
        self._roll()

    def _finish(self, winner: int) -> None:
        self.winner = winner
        self.phase = GAME_OVER
        self.vp_by_turn.append(tuple(self.victory_points(q) for q in range(self.n_players)))
        self.turns += 1  # the winning turn counts as played

    # ------------------------------------------------------------------ checking

    def check_invariants(self) -> None:
        """Raise :class:`InvariantError` if a conservation law or cached value is off."""
        n = self.n_players
        problems = []
        for r in range(A.N_RESOURCES):
            total = self.bank[r] + sum(self.hands[q][r] for q in range(n))
            if total != CARDS_PER_RESOURCE or self.bank[r] < 0:
                problems.append(f"resource {A.RESOURCES[r]}: bank+hands = {total}")
        for q in range(n):
            if min(self.hands[q]) < 0 or sum(self.hands[q]) != self.hand_size[q]:
                problems.append(f"seat {q}: hand {self.hands[q]} vs size {self.hand_size[q]}")
        for card, count in enumerate(DEV_DECK_COUNTS):
            total = self.dev_deck.count(card) + sum(
                self.dev_hand[q][card] + self.dev_played[q][card] for q in range(n)
            )
            if total != count:
                problems.append(f"development card {DEV_CARD_NAMES[card]}: {total} of {count}")
        for q in range(n):
            settlements = sum(
                1 for v in range(A.N_INTERSECTIONS) if self.owner[v] == q and self.building[v] == 1
            )
            cities = sum(
                1 for v in range(A.N_INTERSECTIONS) if self.owner[v] == q and self.building[v] == 2
            )
            roads = self.road_owner.count(q)
            if settlements + self.settlements_left[q] != SETTLEMENTS_PER_PLAYER:
                problems.append(f"seat {q}: settlements on board/left disagree")
            if cities + self.cities_left[q] != CITIES_PER_PLAYER:
                problems.append(f"seat {q}: cities on board/left disagree")
            if roads + self.roads_left[q] != ROADS_PER_PLAYER or roads != len(self.roads_of[q]):
                problems.append(f"seat {q}: roads on board/left disagree")
            vp = settlements + 2 * cities
            vp += 2 * (self.longest_road == q) + 2 * (self.largest_army == q)
            if vp != self.vp_public[q]:
                problems.append(f"seat {q}: public VP {self.vp_public[q]}, pieces say {vp}")
            links: dict[int, set[tuple[int, int]]] = {}
            for i, e in enumerate(self.roads_of[q]):
                a, b = tables().path_nodes[e]
                links.setdefault(a, set()).add((1 << i, b))
                links.setdefault(b, set()).add((1 << i, a))
            if links != {v: set(ls) for v, ls in self._road_links[q].items()}:
                problems.append(f"seat {q}: road graph out of step with its roads")
            if self.road_length[q] != self._longest_road(q):
                problems.append(f"seat {q}: cached road length {self.road_length[q]} is stale")
        for v in range(A.N_INTERSECTIONS):
            near = [self.owner[w] for w in (v, *tables().node_neighbours[v])]
            if self.site_free[v] != all(o < 0 for o in near):
                problems.append(f"intersection {v}: site_free is stale")
            if self.owner[v] >= 0 and any(
                self.owner[w] >= 0 for w in tables().node_neighbours[v]
            ):
                problems.append(f"intersection {v}: distance rule broken")
        holder, lengths = self.longest_road, self.road_length
        if holder >= 0 and lengths[holder] < LONGEST_ROAD_MIN:
            problems.append(f"longest road held by seat {holder} with a road under 5")
        if holder >= 0 and max(lengths) > lengths[holder]:
            problems.append(f"longest road held by seat {holder} but a longer road exists")
        if holder < 0 and max(lengths) >= LONGEST_ROAD_MIN and lengths.count(max(lengths)) == 1:
            problems.append("longest road set aside although one road is the single longest")
        army, knights = self.largest_army, [self.dev_played[q][KNIGHT] for q in range(n)]
        if army >= 0 and (knights[army] < LARGEST_ARMY_MIN or max(knights) > knights[army]):
            problems.append(f"largest army held by seat {army} without the most knights")
        if army < 0 and max(knights) >= LARGEST_ARMY_MIN:
            problems.append("largest army unclaimed although a seat has played 3 knights")
        for h in range(A.N_HEXES):
            cards, pairs = self.hex_takers[h]
            on_corners = [(self.owner[v], self.building[v]) for v in tables().hex_corners[h]]
            on_corners = sorted(x for x in on_corners if x[0] >= 0)
            if sorted(pairs) != on_corners or cards != sum(k for _, k in on_corners):
                problems.append(f"hex {h}: hex_takers out of step with the buildings")
        legal = self._compute_legal()
        if not legal and self.phase != GAME_OVER:
            problems.append(f"no legal action in phase {PHASE_NAMES[self.phase]}")
        if legal != sorted(set(legal)):
            problems.append(f"legal actions not in strictly increasing order: {legal}")
        if problems:
            raise InvariantError(
                f"game seed {self.seed}, board {self.board.id}, after {self.n_actions} actions: "
                + "; ".join(problems)
            )


def restore_game(
    board: Board, n_players: int, seed: int, options: GameOptions, state: dict[str, object]
) -> Game:
    """A game on ``board`` whose attributes are ``state`` (see :func:`attributes`), as
    :meth:`Game.clone` and unpickling make it.

    It goes through the constructor because a compiled game cannot be made without it.
    """
    game = Game(board, n_players, seed, options)
    for key, value in state.items():
        setattr(game, key, value)
    return game


def attributes(game: Game) -> dict[str, object]:
    """Every attribute of ``game`` by name: its whole state, as :meth:`Game.clone` copies it.

    Run from source, a game keeps its attributes in its ``__dict__``; compiled (mypyc), in fixed
    slots named by ``Game.__mypyc_attrs__`` and has no ``__dict__``.
    """
    names: tuple[str, ...] | None = getattr(type(game), "__mypyc_attrs__", None)
    if names is None:
        return dict(vars(game))
    return {name: getattr(game, name) for name in names}
