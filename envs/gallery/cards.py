"""The 95 cards of Modern Art: Masters Gallery: artists, symbols, card ids and card types.

Five artists in tie-break priority order (the first wins ties), with their card counts::

    0 Lite Metal 17    ids  0..16
    1 Yoko       18    ids 17..34
    2 Christin P. 19   ids 35..53
    3 Karl Gitter 20   ids 54..73
    4 Krypto     21    ids 74..94

(17/18/19/20/21 cards: ultraboardgames.com/masters-gallery/game-rules.php and the 64 Ounce
Games Modern Art page, 64-ounce-games.myshopify.com/pages/modern-art.)

A card's artist is fixed by its id. Its symbol comes from a *symbols table* (a rules option,
:attr:`ludolab.envs.gallery.engine.GalleryOptions.symbols`): per artist, how many cards carry each
symbol, in the order draw, double, award, face-down, simultaneous. Within an artist's id block
the symbol cards come first in that order, the plain cards last. This module's
``DEFAULT_SYMBOLS`` is the one table the engine, the deal generator
(:mod:`ludolab.research.gallery.deals`) and the exhibit models
(:mod:`ludolab.research.gallery.exhibits`) all read.

What the published game says, and what is assumed: the game has five symbol kinds (draw one
card; a second card of the same artist face up; a second card face down; every player plays a
card at once; an award token) on "about a third of the cards" (S. Appelcline's review,
rpg.net review 14315). No source we could read gives the count per artist or per kind, so
``DEFAULT_SYMBOLS`` is an assumption that fits those facts and the game's counts: per artist
one draw-one card, two doubles and one card of each other kind, 6 per artist, 30 of 95 (32%).
Five award cards, for the game's five award tokens. One draw-one card per artist, because the
deals use up all but 7 cards with 4 players (13 + 4 + 4 each and four extra cards) and all but
6 with 5 (13 + 2 + 2 and four extra cards), so with more draw-one cards the deck could run
out; the remaining symbol cards are doubles, the symbol every description names first after
draw-one. ``OPEN_MODEL_SYMBOLS`` is the earlier reading (one draw-one, one double
and one award card per artist, 15 cards; the open MiniZinc model's assumption). A table can be
written per artist by name (``symbols_from_mapping``), e.g. in TOML::

    [Yoko]
    draw = 2
    double = 1

A card *type* is (artist, symbol): ``type = artist * N_SYMBOLS + symbol``, 30 types. Cards of
one type are interchangeable in play, so hands are counts per type.
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

#: The symbols a table counts, in its column order (``SYMBOLS[1:]``).
TABLE_SYMBOLS: tuple[str, ...] = SYMBOLS[1:]

# Per artist: cards carrying (draw, double, award, face-down, simultaneous).
SymbolsTable = tuple[tuple[int, int, int, int, int], ...]
#: The default table (assumed; see the module docstring): per artist 1 draw-one, 2 doubles and
#: one card of each other symbol, 30 symbol cards.
DEFAULT_SYMBOLS: SymbolsTable = ((1, 2, 1, 1, 1),) * N_ARTISTS
#: The open MiniZinc model's table: one draw-one, one double and one award card per artist.
OPEN_MODEL_SYMBOLS: SymbolsTable = ((1, 1, 1, 0, 0),) * N_ARTISTS

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
                f"symbols[{a}] ({ARTISTS[a]}) puts {sum(row)} symbols on its "
                f"{ARTIST_CARDS[a]} cards; at most {ARTIST_CARDS[a]} can carry one"
            )
        table.append(tuple(row))
    return tuple(table)  # type: ignore[return-value]


def symbols_from_mapping(mapping: object, where: str = "symbols") -> SymbolsTable:
    """A symbols table from ``{artist name: {symbol name: count}}`` (e.g. a TOML table).

    Artists left out carry no symbols; symbols left out count 0. ValueError, with ``where``
    and the artist or symbol at fault, on an unknown artist or symbol, a count that is not a
    whole number >= 0, or more symbol cards than the artist has cards.
    """
    if not isinstance(mapping, dict):
        raise ValueError(
            f"{where}: expected a table of artists ({', '.join(ARTISTS)}), each a table of "
            f"symbol counts ({', '.join(TABLE_SYMBOLS)}); got {mapping!r}"
        )
    rows = [[0] * len(TABLE_SYMBOLS) for _ in range(N_ARTISTS)]
    for name, counts in mapping.items():
        if name not in ARTISTS:
            raise ValueError(
                f"{where}: no artist {name!r}; the artists are {', '.join(ARTISTS)}"
            )
        a = ARTISTS.index(name)
        if not isinstance(counts, dict):
            raise ValueError(
                f"{where}.{name}: expected a table of symbol counts "
                f"({', '.join(TABLE_SYMBOLS)}), got {counts!r}"
            )
        for symbol, k in counts.items():
            if symbol not in TABLE_SYMBOLS:
                raise ValueError(
                    f"{where}.{name}: no symbol {symbol!r}; the symbols are "
                    f"{', '.join(TABLE_SYMBOLS)}"
                )
            if not isinstance(k, int) or isinstance(k, bool) or k < 0:
                raise ValueError(
                    f"{where}.{name}.{symbol}: expected a whole number >= 0, got {k!r}"
                )
            rows[a][TABLE_SYMBOLS.index(symbol)] = k
    try:
        return validate_symbols(rows)
    except ValueError as exc:
        raise ValueError(f"{where}: {exc}") from None


def symbols_as_mapping(symbols: SymbolsTable) -> dict[str, dict[str, int]]:
    """The table by artist and symbol name (the inverse of `symbols_from_mapping`)."""
    return {
        ARTISTS[a]: {s: k for s, k in zip(TABLE_SYMBOLS, row, strict=True)}
        for a, row in enumerate(symbols)
    }


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
    "OPEN_MODEL_SYMBOLS",
    "PLAIN",
    "SIMULTANEOUS",
    "SYMBOLS",
    "TABLE_SYMBOLS",
    "card_type",
    "card_types",
    "symbols_as_mapping",
    "symbols_from_mapping",
    "type_artist",
    "type_counts",
    "type_name",
    "type_symbol",
    "validate_symbols",
]
