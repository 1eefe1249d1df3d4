"""The observation a learning agent gets: one flat float32 vector from one seat's point of view.

``encode(game, seat)`` is shared by the Gymnasium and PettingZoo environments. Seats are
*relative*: index 0 of every per-seat block is the observer ("me"), index ``k`` the seat ``k``
places after me in turn order (``(seat + k) % n_players``), so one policy can play any seat.

Only what ``seat`` could see at the table goes in. Opponents' hands appear only as card counts,
their development cards only as a count (identities and hidden victory points never), the
development deck only as its size (never its order). Public facts that the rules let everybody
see are in: the board, pieces, public victory points, cards played, the trade on the table.

Every value lies in [0, 1]: counts are divided by the most they can ever be (``SCALES``), one-hot
blocks are 0/1. The layout, block by block (``layout(n)`` lists it as ``(name, length)``; ``n`` is
the number of players; "rel" = relative seat)::

    hex_terrain        19 x 6    one-hot lumber, wool, grain, brick, ore, desert
    hex_number         19 x 10   one-hot token 2, 3, 4, 5, 6, 8, 9, 10, 11, 12 (none on desert)
    hex_pips           19        dots on the token / 5 (ways to roll it out of 36, / 5)
    node_harbor        54 x 6    one-hot generic 3:1, lumber, wool, grain, brick, ore 2:1
    hex_robber         19        1 where the robber stands
    node_building      54 x 2 x n   [node, settlement/city, rel owner]
    path_road          72 x n    [path, rel owner]
    my_hand            5         own cards per resource / 19
    my_dev_playable    5         own development cards playable this turn / deck count of the kind
    my_dev_new         5         own development cards bought this turn / deck count of the kind
    my_rates           5         own maritime rate per resource, (4 - rate) / 2 (4:1 0, 2:1 1)
    my_vp              1         own victory points, hidden victory-point cards included / 22
    my_discard_left    1         cards I still have to discard for the current 7 / 47
    seat_hand_size     n         cards in hand per rel seat / 95
    seat_dev_cards     n         unplayed development cards held per rel seat / 25
    seat_vp_public     n         public victory points per rel seat / 22
    seat_dev_played    n x 5     development cards played per rel seat and kind / deck count
                                 (column 0 = knights; column 1, victory points, stays 0)
    seat_road_length   n         longest trail of roads per rel seat / 15
    longest_road       n         one-hot rel seat holding the card (all 0: nobody)
    largest_army       n         one-hot rel seat holding the card (all 0: nobody)
    current            n         one-hot rel seat whose turn it is (index 0: my turn)
    acting             n         one-hot rel seat that must decide now
    trade_accepted     n         rel seats that accepted the offer on the table
    trade_give         5         one-hot resource offered by the seat on turn (offer open)
    trade_get          5         one-hot resource asked for
    trade_n_give       2         one-hot 1 or 2 cards offered
    bank               5         bank cards per resource / 19
    dev_deck           1         development cards left in the deck / 25
    phase              11        one-hot engine phase (engine.PHASE_NAMES order)
    turn_progress      1         turns played / turn limit (1000 when there is none), capped at 1
    free_roads         1         free roads left from a road-building card / 2
    dev_played_turn    1         1 once the seat on turn has played a development card this turn
    offers_left        1         domestic offers left this turn / offers allowed per turn

Size: 721 + 194 n (1497 for 4 players, 1303 for 3, 1109 for 2).

The hex, node and path numbering is the standard layout's (``ludolab.envs.catan.topology``).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from gymnasium import spaces

from ludolab.envs.catan import actions as A
from ludolab.envs.catan.board import NUMBERS, Board, pips
from ludolab.envs.catan.engine import (
    CARDS_PER_RESOURCE,
    DEV_DECK_COUNTS,
    PHASE_NAMES,
    ROADS_PER_PLAYER,
    Game,
)
from ludolab.envs.faces import BlockLayout

N_TERRAINS = 6
N_HARBOR_TYPES = 6
N_PHASES = len(PHASE_NAMES)
MAX_VP = 22  # 5 settlements + 4 cities (13) + both 2-point cards + 5 victory-point cards
MAX_HAND = CARDS_PER_RESOURCE * A.N_RESOURCES  # 95 resource cards in the game
MAX_DEV = sum(DEV_DECK_COUNTS)  # 25 development cards
DEFAULT_TURN_SCALE = 1000  # turn_progress divisor when the game has no turn limit

# Divisors that bring each count into [0, 1] (each is the most the count can ever be).
SCALES: dict[str, float] = {
    "hand": CARDS_PER_RESOURCE,
    "hand_size": MAX_HAND,
    "dev_cards": MAX_DEV,
    "vp": MAX_VP,
    "road_length": ROADS_PER_PLAYER,
    "discard": MAX_HAND // 2,
    "pips": 5,
    "free_roads": 2,
}

_NUMBER_INDEX = {number: k for k, number in enumerate(NUMBERS)}
_DEV_SCALE_LIST = [1.0 / k for k in DEV_DECK_COUNTS]


def layout(n_players: int = 4) -> list[tuple[str, int]]:
    """The observation's blocks in order, as ``(name, length)``; see the module docstring."""
    if not 2 <= n_players <= A.MAX_PLAYERS:
        raise ValueError(f"n_players must be 2..{A.MAX_PLAYERS}, got {n_players}")
    n = n_players
    return [
        ("hex_terrain", A.N_HEXES * N_TERRAINS),
        ("hex_number", A.N_HEXES * len(NUMBERS)),
        ("hex_pips", A.N_HEXES),
        ("node_harbor", A.N_INTERSECTIONS * N_HARBOR_TYPES),
        ("hex_robber", A.N_HEXES),
        ("node_building", A.N_INTERSECTIONS * 2 * n),
        ("path_road", A.N_PATHS * n),
        ("my_hand", A.N_RESOURCES),
        ("my_dev_playable", 5),
        ("my_dev_new", 5),
        ("my_rates", A.N_RESOURCES),
        ("my_vp", 1),
        ("my_discard_left", 1),
        ("seat_hand_size", n),
        ("seat_dev_cards", n),
        ("seat_vp_public", n),
        ("seat_dev_played", n * 5),
        ("seat_road_length", n),
        ("longest_road", n),
        ("largest_army", n),
        ("current", n),
        ("acting", n),
        ("trade_accepted", n),
        ("trade_give", A.N_RESOURCES),
        ("trade_get", A.N_RESOURCES),
        ("trade_n_give", len(A.OFFER_SIZES)),
        ("bank", A.N_RESOURCES),
        ("dev_deck", 1),
        ("phase", N_PHASES),
        ("turn_progress", 1),
        ("free_roads", 1),
        ("dev_played_turn", 1),
        ("offers_left", 1),
    ]


_LAYOUT = BlockLayout(layout)


def block_slices(n_players: int = 4) -> dict[str, slice]:
    """Where each block sits in the vector: name -> slice (same order as :func:`layout`)."""
    return _LAYOUT.block_slices(n_players)


def observation_size(n_players: int = 4) -> int:
    """Length of the observation vector for ``n_players`` players."""
    return _LAYOUT.size(n_players)


def observation_space(n_players: int = 4) -> spaces.Box:
    """The observation space: ``Box(0, 1, (observation_size(n_players),), float32)``."""
    return _LAYOUT.space(n_players)


def describe_index(index: int, n_players: int = 4) -> str:
    """The block and offset of one vector entry, e.g. ``"path_road[17]"`` (for reading weights)."""
    return _LAYOUT.describe_index(index, n_players)


@lru_cache(maxsize=256)
def _static_part(board: Board) -> np.ndarray:
    """The blocks that depend on the board only (terrain, tokens, pips, harbors), computed once.

    Keyed by the (frozen, hashable) board; the returned array is shared, never write into it.
    """
    from ludolab.envs.catan.engine import (
        tables,  # the harbor-to-node map lives in the engine's tables
    )

    t = tables()
    terrain = np.zeros((A.N_HEXES, N_TERRAINS), np.float32)
    number = np.zeros((A.N_HEXES, len(NUMBERS)), np.float32)
    pip = np.zeros(A.N_HEXES, np.float32)
    for h, (code, token) in enumerate(zip(board.terrain, board.numbers, strict=True)):
        terrain[h, code] = 1.0
        if token:
            number[h, _NUMBER_INDEX[token]] = 1.0
            pip[h] = pips(token) / SCALES["pips"]
    harbor = np.zeros((A.N_INTERSECTIONS, N_HARBOR_TYPES), np.float32)
    for slot, code in enumerate(board.harbors):
        for v in t.path_nodes[t.layout.harbor_slots[slot]]:
            harbor[v, code] = 1.0
    static = np.concatenate([terrain.ravel(), number.ravel(), pip, harbor.ravel()])
    static.setflags(write=False)
    return static


# The board-only blocks come first; their size does not depend on the number of players.
_STATIC_SIZE = block_slices(A.MAX_PLAYERS)["hex_robber"].start


def encode(game: Game, seat: int, out: np.ndarray | None = None) -> np.ndarray:
    """The observation of ``game`` for ``seat``: float32, shape ``(observation_size(n),)``.

    Reads only what ``seat`` may know (see the module docstring). Pass ``out`` (a float32 array
    of the right size) to fill it in place instead of allocating; it is returned either way.
    """
    n = game.n_players
    sl = block_slices(n)
    size = sl["offers_left"].stop
    if out is None:
        obs = np.empty(size, np.float32)
    else:
        if out.shape != (size,) or out.dtype != np.float32:
            raise ValueError(f"out must be float32 of shape ({size},), got {out.dtype} {out.shape}")
        obs = out
    obs[:_STATIC_SIZE] = _static_part(game.board)
    obs[_STATIC_SIZE:] = 0.0

    # Seat q appears at relative index (q - seat) % n; rot[k] is the seat at relative index k.
    rot = [(seat + k) % n for k in range(n)]

    obs[sl["hex_robber"].start + game.robber] = 1.0

    # Pieces: one fancy-index write per block (plain Python beats numpy on 54/72 short lists).
    base, stride = sl["node_building"].start, 2 * n
    hot = [
        base + v * stride + (b - 1) * n + (o - seat) % n
        for v, (o, b) in enumerate(zip(game.owner, game.building, strict=True))
        if o >= 0
    ]
    base = sl["path_road"].start
    hot += [base + e * n + (o - seat) % n for e, o in enumerate(game.road_owner) if o >= 0]
    if hot:
        obs[hot] = 1.0

    # Everything from my_hand on is a few dozen scalars: build them as one Python list and
    # write it once (one conversion is much cheaper than ~25 small numpy slice writes).
    tail: list[float] = []
    add = tail.extend
    hand_scale, vp_scale = 1.0 / SCALES["hand"], 1.0 / SCALES["vp"]
    dev_scale = _DEV_SCALE_LIST
    have, new = game.dev_hand[seat], game.dev_new[seat]
    add([c * hand_scale for c in game.hands[seat]])
    add([(h - k) * s for h, k, s in zip(have, new, dev_scale, strict=True)])
    add([k * s for k, s in zip(new, dev_scale, strict=True)])
    add([(4 - r) * 0.5 for r in game.rates[seat]])
    tail.append(game.victory_points(seat) * vp_scale)
    tail.append(game.cards_to_discard(seat) / SCALES["discard"])

    # Per relative seat: only counts and public facts, never card identities.
    hand_size, vp_public, road_length = game.hand_size, game.vp_public, game.road_length
    add([hand_size[q] / SCALES["hand_size"] for q in rot])
    add([sum(game.dev_hand[q]) / SCALES["dev_cards"] for q in rot])
    add([vp_public[q] * vp_scale for q in rot])
    for q in rot:
        add([k * s for k, s in zip(game.dev_played[q], dev_scale, strict=True)])
    add([road_length[q] / SCALES["road_length"] for q in rot])
    for holder in (game.longest_road, game.largest_army, game.current, game.acting):
        onehot = [0.0] * n
        if holder >= 0:
            onehot[(holder - seat) % n] = 1.0
        add(onehot)
    accepted, give_1h, get_1h, size_1h = [0.0] * n, [0.0] * 5, [0.0] * 5, [0.0, 0.0]
    offer = game.offer
    if offer is not None:
        give, n_give, get = offer
        give_1h[give] = get_1h[get] = size_1h[A.OFFER_SIZES.index(n_give)] = 1.0
        for q in game.accepted:
            accepted[(q - seat) % n] = 1.0
    add(accepted)
    add(give_1h)
    add(get_1h)
    add(size_1h)

    add([c * hand_scale for c in game.bank])
    tail.append(len(game.dev_deck) / SCALES["dev_cards"])
    phase = [0.0] * N_PHASES
    phase[game.phase] = 1.0
    add(phase)
    limit = game.options.turn_limit or DEFAULT_TURN_SCALE
    tail.append(min(game.turns / limit, 1.0))
    tail.append(game.free_roads / SCALES["free_roads"])
    tail.append(1.0 if game.dev_played_this_turn else 0.0)
    allowed = game.options.trade_offers_per_turn
    tail.append(max(game.offers_left, 0) / allowed if allowed else 0.0)
    obs[sl["my_hand"].start :] = tail
    return obs


__all__ = [
    "MAX_VP",
    "SCALES",
    "block_slices",
    "describe_index",
    "encode",
    "layout",
    "observation_size",
    "observation_space",
]
