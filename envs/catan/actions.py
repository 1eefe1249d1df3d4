"""Catan actions as fixed integer indices.

Every decision in the game — by the player whose turn it is, or by another seat that must
discard or answer a trade offer — is one integer in ``range(N_ACTIONS)``. The index of an action
never depends on the state, so a learning agent sees the same action at the same index in every
game; the engine lists the legal ones at each step.

Ranges (standard layout: 54 intersections, 72 paths, 19 hexes; at most 4 seats; 5 resources in
the order lumber, wool, grain, brick, ore)::

    0            END_TURN
    1            ROLL
    2            BUY_DEV
    3            PLAY_KNIGHT                      then MOVE_ROBBER
    4            PLAY_ROAD_BUILDING               then up to two free BUILD_ROAD
    5..58        BUILD_SETTLEMENT[intersection]   also the setup settlements
    59..112      BUILD_CITY[intersection]
    113..184     BUILD_ROAD[path]                 also the setup and road-building roads
    185..203     MOVE_ROBBER[hex]
    204..207     STEAL[seat]                      when more than one seat can be robbed
    208..212     DISCARD[resource]                one card at a time, by the seat discarding
    213..227     PLAY_YEAR_OF_PLENTY[pair]        unordered pairs (r1 <= r2)
    228..232     PLAY_MONOPOLY[resource]
    233..252     MARITIME_TRADE[give, get]        at the seat's best rate for ``give``
    253..292     OFFER_TRADE[give, n_give, get]   n_give in (1, 2) cards for 1 card
    293          ACCEPT_TRADE                     by each other seat in turn order
    294          DECLINE_TRADE
    295..298     CONFIRM_TRADE[seat]              the offerer picks one accepting seat
    299          CANCEL_TRADE

Domestic trade is abstracted to offers of one or two cards of one resource for one card of
another; richer bundles are sequences of such offers.
"""

from __future__ import annotations

from itertools import combinations_with_replacement

RESOURCES: tuple[str, ...] = ("lumber", "wool", "grain", "brick", "ore")
N_RESOURCES = 5
MAX_PLAYERS = 4
N_HEXES = 19
N_INTERSECTIONS = 54
N_PATHS = 72

END_TURN = 0
ROLL = 1
BUY_DEV = 2
PLAY_KNIGHT = 3
PLAY_ROAD_BUILDING = 4
SETTLEMENT = 5
CITY = SETTLEMENT + N_INTERSECTIONS
ROAD = CITY + N_INTERSECTIONS
ROBBER = ROAD + N_PATHS
STEAL = ROBBER + N_HEXES
DISCARD = STEAL + MAX_PLAYERS
YEAR_OF_PLENTY = DISCARD + N_RESOURCES
YOP_PAIRS: tuple[tuple[int, int], ...] = tuple(
    combinations_with_replacement(range(N_RESOURCES), 2)
)
MONOPOLY = YEAR_OF_PLENTY + len(YOP_PAIRS)
MARITIME = MONOPOLY + N_RESOURCES
# (give, get) with give != get, in the order of MARITIME and of each OFFER block.
TRADE_PAIRS: tuple[tuple[int, int], ...] = tuple(
    (give, get) for give in range(N_RESOURCES) for get in range(N_RESOURCES) if give != get
)
OFFER = MARITIME + len(TRADE_PAIRS)
OFFER_SIZES = (1, 2)
ACCEPT_TRADE = OFFER + len(OFFER_SIZES) * len(TRADE_PAIRS)
DECLINE_TRADE = ACCEPT_TRADE + 1
CONFIRM_TRADE = DECLINE_TRADE + 1
CANCEL_TRADE = CONFIRM_TRADE + MAX_PLAYERS
N_ACTIONS = CANCEL_TRADE + 1

# (give, n_give, get) of each OFFER action, in index order.
OFFERS: tuple[tuple[int, int, int], ...] = tuple(
    (give, n, get) for n in OFFER_SIZES for give, get in TRADE_PAIRS
)
_TRADE_PAIR_INDEX = {pair: k for k, pair in enumerate(TRADE_PAIRS)}
_YOP_INDEX = {pair: k for k, pair in enumerate(YOP_PAIRS)}


def maritime(give: int, get: int) -> int:
    """The MARITIME_TRADE action giving resource ``give`` for one ``get``."""
    return MARITIME + _TRADE_PAIR_INDEX[(give, get)]


def offer(give: int, n_give: int, get: int) -> int:
    """The OFFER_TRADE action: ``n_give`` (1 or 2) cards of ``give`` for one ``get``."""
    return OFFER + OFFER_SIZES.index(n_give) * len(TRADE_PAIRS) + _TRADE_PAIR_INDEX[(give, get)]


def year_of_plenty(r1: int, r2: int) -> int:
    """The PLAY_YEAR_OF_PLENTY action taking ``r1`` and ``r2`` (order does not matter)."""
    return YEAR_OF_PLENTY + _YOP_INDEX[(min(r1, r2), max(r1, r2))]


_FIXED_NAMES = {
    END_TURN: "end-turn",
    ROLL: "roll",
    BUY_DEV: "buy-development-card",
    PLAY_KNIGHT: "play-knight",
    PLAY_ROAD_BUILDING: "play-road-building",
    ACCEPT_TRADE: "accept-trade",
    DECLINE_TRADE: "decline-trade",
    CANCEL_TRADE: "cancel-trade",
}


def describe(action: int) -> str:
    """A readable name for an action index, e.g. ``build-road(17)`` or ``maritime(ore->grain)``."""
    if not 0 <= action < N_ACTIONS:
        return f"<invalid action {action}; valid indices are 0..{N_ACTIONS - 1}>"
    if action in _FIXED_NAMES:
        return _FIXED_NAMES[action]
    ranges = (
        (SETTLEMENT, "build-settlement"),
        (CITY, "build-city"),
        (ROAD, "build-road"),
        (ROBBER, "move-robber"),
        (STEAL, "steal-from-seat"),
    )
    if action < DISCARD:
        start, name = max((r for r in ranges if r[0] <= action), key=lambda r: r[0])
        return f"{name}({action - start})"
    if action < YEAR_OF_PLENTY:
        return f"discard({RESOURCES[action - DISCARD]})"
    if action < MONOPOLY:
        r1, r2 = YOP_PAIRS[action - YEAR_OF_PLENTY]
        return f"year-of-plenty({RESOURCES[r1]}+{RESOURCES[r2]})"
    if action < MARITIME:
        return f"monopoly({RESOURCES[action - MONOPOLY]})"
    if action < OFFER:
        give, get = TRADE_PAIRS[action - MARITIME]
        return f"maritime({RESOURCES[give]}->{RESOURCES[get]})"
    if action < ACCEPT_TRADE:
        give, n, get = OFFERS[action - OFFER]
        return f"offer({n} {RESOURCES[give]}->1 {RESOURCES[get]})"
    return f"confirm-trade(seat {action - CONFIRM_TRADE})"
