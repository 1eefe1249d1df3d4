"""The 95 cards of Modern Art: Masters Gallery: artists, symbols, card ids and card types.

Five artists in tie-break priority order (the first wins ties), with their card counts::

    0 Lite Metal 17    ids  0..16
    1 Yoko       18    ids 17..34
    2 Christin P. 19   ids 35..53
    3 Karl Gitter 20   ids 54..73
    4 Krypto     21    ids 74..94

A card's artist is fixed by its id. Its symbol comes from a *symbols table* (a rules option,
:attr:`ludolab.envs.gallery.engine.GalleryOptions.symbols`): per artist, how many cards carry each
symbol, in the order draw, double, award, face-down, simultaneous. Within an artist's id block
the symbol cards come first in that order, the plain cards last. With the default table
(``DEFAULT_SYMBOLS``: one draw-one, one double and one award card per artist, no face-down and
no simultaneous card — the open MiniZinc model's assumption) Yoko's ids are 17 draw, 18 double,
19 award, 20..34 plain.

A card *type* is (artist, symbol): ``type = artist * N_SYMBOLS + symbol``, 30 types, of which
the default table uses 20 (5 artists x plain, draw, double, award). Cards of one type are
interchangeable in play, so hands are counts per type.
"""

from __future__ import annotations

from functools import lru_cache

ARTISTS: tuple[str, ...] = ("Lite Metal", "Yoko", "Christin P.", "Karl Gitter", "Krypto")
ARTIST_CARDS: tuple[int, ...] = (17, 18, 19, 20, 21)
N_ARTISTS = 5
N_CARDS = 95
ARTIST_START: tuple[int, ...] = tuple(sum(ARTIST_CARDS[:a]) for a in range(N_ARTISTS))

SYMBOLS: tuple[str, ...] = ("plain", "draw", "double", "award", "face-down", "simultaneous")
PLAIN, DRAW, DOUBLE, AWARD, FACE_DOWN, SIMULTANEOUS = range(6)
N_SYMBOLS = 6
N_TYPES = N_ARTISTS * N_SYMBOLS  # 30

# Per artist: cards carrying (draw, double, award, face-down, simultaneous).
SymbolsTable = tuple[tuple[int, int, int, int, int], ...]
DEFAULT_SYMBOLS: SymbolsTable = ((1, 1, 1, 0, 0),) * N_ARTISTS

ARTIST_OF_CARD: tuple[int, ...] = tuple(
    a for a in range(N_ARTISTS) for _ in range(ARTIST_CARDS[a])
)


def card_type(artist: int, symbol: int) -> int:
    """The type index of (artist, symbol)."""
    return artist * N_SYMBOLS + symbol


def type_artist(t: int) -> int:
    return t // N_SYMBOLS


def type_symbol(t: int) -> int:
    return t % N_SYMBOLS


def type_name(t: int) -> str:
    """A readable name, e.g. ``Yoko`` (plain) or ``Yoko+double``."""
    a, s = divmod(t, N_SYMBOLS)
    return ARTISTS[a] if s == PLAIN else f"{ARTISTS[a]}+{SYMBOLS[s]}"


def validate_symbols(symbols: object) -> SymbolsTable:
    """The symbols table as a tuple of tuples; ValueError naming the artist if it is invalid."""
    if not isinstance(symbols, (tuple, list)) or len(symbols) != N_ARTISTS:
        raise ValueError(
            f"symbols must list {N_ARTISTS} artists, each with counts of "
            f"(draw, double, award, face-down, simultaneous) cards; got {symbols!r}"
        )
    table = []
    for a, row in enumerate(symbols):
        if (
            not isinstance(row, (tuple, list))
            or len(row) != N_SYMBOLS - 1
            or not all(isinstance(k, int) and not isinstance(k, bool) and k >= 0 for k in row)
        ):
            raise ValueError(
                f"symbols[{a}] ({ARTISTS[a]}) must be 5 counts >= 0 of "
                f"(draw, double, award, face-down, simultaneous); got {row!r}"
            )
        if sum(row) > ARTIST_CARDS[a]:
            raise ValueError(
                f"symbols[{a}] ({ARTISTS[a]}) puts {sum(row)} symbols on "
                f"{ARTIST_CARDS[a]} cards"
            )
        table.append(tuple(row))
    return tuple(table)  # type: ignore[return-value]


@lru_cache(maxsize=64)
def card_types(symbols: SymbolsTable = DEFAULT_SYMBOLS) -> tuple[int, ...]:
    """The type of every card id 0..94 under a symbols table (see the module docstring)."""
    types: list[int] = []
    for a in range(N_ARTISTS):
        row = symbols[a]
        for s in range(1, N_SYMBOLS):
            types.extend([card_type(a, s)] * row[s - 1])
        types.extend([card_type(a, PLAIN)] * (ARTIST_CARDS[a] - sum(row)))
    return tuple(types)


@lru_cache(maxsize=64)
def type_counts(symbols: SymbolsTable = DEFAULT_SYMBOLS) -> tuple[int, ...]:
    """How many cards of each of the 30 types the deck holds under a symbols table."""
    counts = [0] * N_TYPES
    for t in card_types(symbols):
        counts[t] += 1
    return tuple(counts)


__all__ = [
    "ARTISTS",
    "ARTIST_CARDS",
    "ARTIST_OF_CARD",
    "ARTIST_START",
    "AWARD",
    "DEFAULT_SYMBOLS",
    "DOUBLE",
    "DRAW",
    "FACE_DOWN",
    "N_ARTISTS",
    "N_CARDS",
    "N_SYMBOLS",
    "N_TYPES",
    "PLAIN",
    "SIMULTANEOUS",
    "SYMBOLS",
    "card_type",
    "card_types",
    "type_artist",
    "type_counts",
    "type_name",
    "type_symbol",
    "validate_symbols",
]
