"""Helpers that build hand-made Catan positions for the rules tests (tests/test_catan_rules.py).

A position is a :class:`Game` on the fixed board :data:`BOARD` whose pieces and cards are set
directly, keeping every piece of bookkeeping the engine caches (piece counts, public VP, the
network of touched nodes, harbor rates, road lengths) consistent. Each test finishes its position
with :func:`turn`, which hands the move to a seat in a phase and runs ``check_invariants`` so a
bad fixture fails loudly instead of testing nonsense.

Road lengths are computed here by an independent brute force (:func:`trail_length`), not by the
engine, so a fixture also cross-checks the engine's longest-trail routine through
``check_invariants``.

Board (hex index: terrain number; rows of 3, 4, 5, 4, 3 hexes, desert in the centre)::

          0:lumber 11   1:wool 12   2:grain 9
        3:brick 4   4:ore 6   5:lumber 5   6:wool 10
      7:grain 3   8:brick 11   9:desert   10:ore 4   11:lumber 8
        12:wool 10   13:grain 5   14:brick 2   15:ore 6
          16:lumber 3   17:wool 8   18:grain 9

Numbers 12 (hex 1) and 2 (hex 14) appear once, so a roll of 12 or 2 touches one hex only.
Harbor slots 0..8: generic (nodes 0, 3), lumber (1, 5), wool (6, 10), generic (26, 32),
grain (42, 46), generic (49, 53), brick (47, 51), generic (33, 38), ore (16, 21).
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Sequence

from ludolab.envs.catan import actions as A
from ludolab.envs.catan.board import HARBOR_TYPES, TERRAINS, Board
from ludolab.envs.catan.engine import KNIGHT, MAIN, Game, GameOptions, attributes, tables

LUMBER, WOOL, GRAIN, BRICK, ORE = range(5)

_TERRAIN = (
    "lumber", "wool", "grain",
    "brick", "ore", "lumber", "wool",
    "grain", "brick", "desert", "ore", "lumber",
    "wool", "grain", "brick", "ore",
    "lumber", "wool", "grain",
)  # fmt: skip
_NUMBERS = (
    11, 12, 9,
    4, 6, 5, 10,
    3, 11, 0, 4, 8,
    10, 5, 2, 6,
    3, 8, 9,
)  # fmt: skip
_HARBORS = ("generic", "lumber", "wool", "generic", "grain", "generic", "brick", "generic", "ore")

BOARD = Board(
    terrain=tuple(TERRAINS.index(t) for t in _TERRAIN),
    numbers=_NUMBERS,
    harbors=tuple(HARBOR_TYPES.index(h) for h in _HARBORS),
    robber=9,
)
BOARD.validate("tests/catan_positions.py")  # a malformed fixture board should fail at import

T = tables()


def new_game(n_players: int = 4, seed: int = 0, **options: object) -> Game:
    """A fresh game on :data:`BOARD` (in setup). ``options`` go to :class:`GameOptions`.

    ``debug`` defaults to True so the engine checks its invariants after every action.
    """
    options.setdefault("debug", True)
    return Game(BOARD, n_players, seed, GameOptions(**options))  # type: ignore[arg-type]


def path(a: int, b: int) -> int:
    """The path index joining adjacent intersections ``a`` and ``b``."""
    return T.path_nodes.index((min(a, b), max(a, b)))


def road_action(a: int, b: int) -> int:
    """The BUILD_ROAD action for the path between intersections ``a`` and ``b``."""
    return A.ROAD + path(a, b)


def trail_length(game: Game, seat: int) -> int:
    """Longest trail of ``seat``'s roads (paths used once), by exhaustive search from every node.

    A trail may start or end at an opponent's building but not pass through it.
    """
    roads = [e for e in range(A.N_PATHS) if game.road_owner[e] == seat]
    links: dict[int, list[tuple[int, int]]] = {}
    for e in roads:
        a, b = T.path_nodes[e]
        links.setdefault(a, []).append((e, b))
        links.setdefault(b, []).append((e, a))

    def blocked(v: int) -> bool:
        return game.owner[v] >= 0 and game.owner[v] != seat

    def longest_from(v: int, used: frozenset[int]) -> int:
        if used and blocked(v):
            return 0
        return max(
            (1 + longest_from(w, used | {e}) for e, w in links[v] if e not in used), default=0
        )

    return max((longest_from(v, frozenset()) for v in links), default=0)


def _refresh_caches(game: Game) -> None:
    """Recompute what the engine caches from the pieces: road lengths (by :func:`trail_length`),
    the distance-rule map ``site_free`` (True where no building stands on or next to a node), and
    invalidate the cached road spots."""
    game.road_length = [trail_length(game, q) for q in range(game.n_players)]
    owner = game.owner
    game.site_free = [
        all(owner[w] < 0 for w in (v, *T.node_neighbours[v])) for v in range(A.N_INTERSECTIONS)
    ]
    # The engine stamps its road-spot cache with the number of pieces placed; count the
    # fixture's edit as a placement so no stale cache survives it.
    game._pieces_placed += 1


def _start_play(game: Game) -> None:
    """Skip the setup: the position is built by hand, so the setup snake is over."""
    if game._setup_step < len(game._setup_order):
        game._setup_step = len(game._setup_order)


def build(game: Game, seat: int, *nodes: int, city: bool = False) -> None:
    """Put a settlement (or a city) of ``seat`` on each of ``nodes``, with all bookkeeping.

    Harbor rates follow the building; every seat's road length is recomputed (an opponent's
    building may cut a road) and so is the distance-rule map.
    """
    _start_play(game)
    for v in nodes:
        assert game.owner[v] < 0, f"fixture: intersection {v} is taken"
        game.owner[v] = seat
        game.building[v] = 2 if city else 1
        if city:
            game.cities_left[seat] -= 1
        else:
            game.settlements_left[seat] -= 1
        game.vp_public[seat] += 2 if city else 1
        game.network[seat].add(v)
        code = game.harbor_at[v]
        if code == 0:
            game.rates[seat] = [min(r, 3) for r in game.rates[seat]]
        elif code > 0:
            game.rates[seat][code - 1] = 2
    _refresh_caches(game)
    game._legal = None


def roads(game: Game, seat: int, nodes: Sequence[int]) -> None:
    """Give ``seat`` a road on each path between consecutive ``nodes`` (a chain)."""
    _start_play(game)
    for a, b in zip(nodes, nodes[1:], strict=False):
        e = path(a, b)
        assert game.road_owner[e] < 0, f"fixture: path {a}-{b} is taken"
        game.road_owner[e] = seat
        game.roads_of[seat].append(e)
        game._link_road(seat, e)
        game.roads_left[seat] -= 1
        game.network[seat].update((a, b))
    _refresh_caches(game)
    game._legal = None


def give(game: Game, seat: int, cards: Iterable[int] = (), **named: int) -> None:
    """Move cards from the bank to ``seat``: ``cards`` as 5 counts, or by name (``ore=3``)."""
    counts = list(cards) or [0] * 5
    for name, k in named.items():
        counts[A.RESOURCES.index(name)] += k
    for r, k in enumerate(counts):
        assert game.bank[r] >= k, f"fixture: bank has {game.bank[r]} {A.RESOURCES[r]}"
        game.bank[r] -= k
        game.hands[seat][r] += k
        game.hand_size[seat] += k
    game._legal = None


def hand(game: Game, seat: int) -> list[int]:
    """A copy of ``seat``'s hand (5 counts)."""
    return list(game.hands[seat])


def deal_dev(game: Game, seat: int, card: int, k: int = 1, new: bool = False) -> None:
    """Take ``k`` cards of type ``card`` out of the deck into ``seat``'s hand.

    ``new`` marks them as bought this turn (not playable until the next turn).
    """
    for _ in range(k):
        game.dev_deck.remove(card)
        game.dev_hand[seat][card] += 1
        if new:
            game.dev_new[seat][card] += 1
    game._legal = None


def played_knights(game: Game, seat: int, k: int) -> None:
    """Record that ``seat`` has already played ``k`` knights (cards leave the deck)."""
    for _ in range(k):
        game.dev_deck.remove(KNIGHT)
    game.dev_played[seat][KNIGHT] += k
    game._legal = None


def deck_top(game: Game, card: int) -> None:
    """Reorder the deck so that the next card bought is ``card`` (drawn from the end)."""
    i = len(game.dev_deck) - 1 - game.dev_deck[::-1].index(card)
    game.dev_deck.append(game.dev_deck.pop(i))


def _move_card(game: Game, attr: str, seat: int) -> None:
    old = getattr(game, attr)
    if old >= 0:
        game.vp_public[old] -= 2
    if seat >= 0:
        game.vp_public[seat] += 2
    setattr(game, attr, seat)


def hold_longest_road(game: Game, seat: int) -> None:
    """Give the longest-road card (and its 2 VP) to ``seat`` (-1: set it aside)."""
    _move_card(game, "longest_road", seat)


def hold_largest_army(game: Game, seat: int) -> None:
    """Give the largest-army card (and its 2 VP) to ``seat`` (-1: nobody)."""
    _move_card(game, "largest_army", seat)


def turn(game: Game, seat: int, phase: int = MAIN) -> Game:
    """Hand the move to ``seat`` (its own turn) in ``phase`` and check the position is sound.

    Pre-roll may be set even for a seat holding no development card (the engine itself would
    roll at once): the ROLL action is what the tests then drive, with forced dice.
    """
    _start_play(game)
    game.current = game.acting = seat
    game.phase = phase
    game._legal = None
    game.check_invariants()
    return game


class _Dice:
    """Stands in for the engine's dice stream: ``random()`` yields chosen die faces in order."""

    def __init__(self, faces: Sequence[int]) -> None:
        self.faces = list(faces)

    def random(self) -> float:
        # A roll nobody forced would silently test something else: fail loudly instead.
        assert self.faces, "fixture: the engine rolled more dice than the test forced"
        # The engine reads a die as int(r * 6) + 1; the middle of the face's interval is safe.
        return (self.faces.pop(0) - 0.5) / 6


def force_dice(game: Game, *faces: int) -> None:
    """Make the next dice read ``faces`` (two per roll, e.g. ``force_dice(g, 3, 4)`` rolls 7)."""
    game._dice_rng = _Dice(faces)  # type: ignore[assignment]


def roll(game: Game, d1: int, d2: int) -> None:
    """Roll ``d1`` and ``d2`` for the seat on turn (phase must be pre-roll)."""
    force_dice(game, d1, d2)
    game.step(A.ROLL)


def snapshot(game: Game) -> dict[str, object]:
    """A deep copy of the whole game state (random streams as their states), for equality."""
    state = {}
    for key, value in attributes(game).items():
        if key == "_legal":
            continue  # a cache; computing it changes nothing
        if key in ("_dice_rng", "_steal_rng"):
            state[key] = value.getstate() if hasattr(value, "getstate") else list(value.faces)
        else:
            state[key] = copy.deepcopy(value)
    return state
