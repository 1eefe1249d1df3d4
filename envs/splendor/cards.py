"""Splendor's components: the 90 development cards and the 10 nobles, as data.

Each card is (level, bonus colour, prestige, cost per colour), colours in the order of
:data:`COLOURS`; a card's id is its place in :data:`CARDS` (sorted by level, bonus, prestige,
then cost). Each noble is (prestige, bonus cards needed per colour).

The table was taken from the published game's components as several public implementations
list them, compared card for card: two of different origin (SplendorLess and Zomis/Games,
GitHub) agree on 89 of the 90 cards and on every noble; the one card they differ on (the
level-2 green 1-prestige card: 3 white, 2 green and 3 red, or 2 red) is settled by five of
seven listings and by the deck's structure (the level-2 costs of every colour total 5, 6, 7,
7, 8, 8). Two cards the official rulebook shows as examples are in it. ``docs/rules/splendor.md``
names the sources; ``tests/test_splendor_rules.py`` checks the structure the published game has
(8, 6 and 4 cards of each colour per level; the same prestige and cost totals for every
colour; five nobles needing 4 + 4 of two colours, five needing 3 + 3 + 3 of three).
"""

from __future__ import annotations

from typing import NamedTuple

COLOURS = ("white", "blue", "green", "red", "black")
"""The five gem colours (diamond, sapphire, emerald, ruby, onyx), in the order costs use."""


class Card(NamedTuple):
    """A development card: its id, level (1-3), bonus colour (index into :data:`COLOURS`),
    prestige, and cost in gems per colour."""

    id: int
    level: int
    bonus: int
    points: int
    cost: tuple[int, int, int, int, int]


class Noble(NamedTuple):
    """A noble tile: its id, prestige, and the bonus cards it needs per colour."""

    id: int
    points: int
    need: tuple[int, int, int, int, int]


_CARDS = (
    (1, 0, 0, (0, 0, 0, 2, 1)),
    (1, 0, 0, (0, 1, 1, 1, 1)),
    (1, 0, 0, (0, 1, 2, 1, 1)),
    (1, 0, 0, (0, 2, 0, 0, 2)),
    (1, 0, 0, (0, 2, 2, 0, 1)),
    (1, 0, 0, (0, 3, 0, 0, 0)),
    (1, 0, 0, (3, 1, 0, 0, 1)),
    (1, 0, 1, (0, 0, 4, 0, 0)),
    (1, 1, 0, (0, 0, 0, 0, 3)),
    (1, 1, 0, (0, 0, 2, 0, 2)),
    (1, 1, 0, (0, 1, 3, 1, 0)),
    (1, 1, 0, (1, 0, 0, 0, 2)),
    (1, 1, 0, (1, 0, 1, 1, 1)),
    (1, 1, 0, (1, 0, 1, 2, 1)),
    (1, 1, 0, (1, 0, 2, 2, 0)),
    (1, 1, 1, (0, 0, 0, 4, 0)),
    (1, 2, 0, (0, 0, 0, 3, 0)),
    (1, 2, 0, (0, 1, 0, 2, 2)),
    (1, 2, 0, (0, 2, 0, 2, 0)),
    (1, 2, 0, (1, 1, 0, 1, 1)),
    (1, 2, 0, (1, 1, 0, 1, 2)),
    (1, 2, 0, (1, 3, 1, 0, 0)),
    (1, 2, 0, (2, 1, 0, 0, 0)),
    (1, 2, 1, (0, 0, 0, 0, 4)),
    (1, 3, 0, (0, 2, 1, 0, 0)),
    (1, 3, 0, (1, 0, 0, 1, 3)),
    (1, 3, 0, (1, 1, 1, 0, 1)),
    (1, 3, 0, (2, 0, 0, 2, 0)),
    (1, 3, 0, (2, 0, 1, 0, 2)),
    (1, 3, 0, (2, 1, 1, 0, 1)),
    (1, 3, 0, (3, 0, 0, 0, 0)),
    (1, 3, 1, (4, 0, 0, 0, 0)),
    (1, 4, 0, (0, 0, 1, 3, 1)),
    (1, 4, 0, (0, 0, 2, 1, 0)),
    (1, 4, 0, (0, 0, 3, 0, 0)),
    (1, 4, 0, (1, 1, 1, 1, 0)),
    (1, 4, 0, (1, 2, 1, 1, 0)),
    (1, 4, 0, (2, 0, 2, 0, 0)),
    (1, 4, 0, (2, 2, 0, 1, 0)),
    (1, 4, 1, (0, 4, 0, 0, 0)),
    (2, 0, 1, (0, 0, 3, 2, 2)),
    (2, 0, 1, (2, 3, 0, 3, 0)),
    (2, 0, 2, (0, 0, 0, 5, 0)),
    (2, 0, 2, (0, 0, 0, 5, 3)),
    (2, 0, 2, (0, 0, 1, 4, 2)),
    (2, 0, 3, (6, 0, 0, 0, 0)),
    (2, 1, 1, (0, 2, 2, 3, 0)),
    (2, 1, 1, (0, 2, 3, 0, 3)),
    (2, 1, 2, (0, 5, 0, 0, 0)),
    (2, 1, 2, (2, 0, 0, 1, 4)),
    (2, 1, 2, (5, 3, 0, 0, 0)),
    (2, 1, 3, (0, 6, 0, 0, 0)),
    (2, 2, 1, (2, 3, 0, 0, 2)),
    (2, 2, 1, (3, 0, 2, 3, 0)),
    (2, 2, 2, (0, 0, 5, 0, 0)),
    (2, 2, 2, (0, 5, 3, 0, 0)),
    (2, 2, 2, (4, 2, 0, 0, 1)),
    (2, 2, 3, (0, 0, 6, 0, 0)),
    (2, 3, 1, (0, 3, 0, 2, 3)),
    (2, 3, 1, (2, 0, 0, 2, 3)),
    (2, 3, 2, (0, 0, 0, 0, 5)),
    (2, 3, 2, (1, 4, 2, 0, 0)),
    (2, 3, 2, (3, 0, 0, 0, 5)),
    (2, 3, 3, (0, 0, 0, 6, 0)),
    (2, 4, 1, (3, 0, 3, 0, 2)),
    (2, 4, 1, (3, 2, 2, 0, 0)),
    (2, 4, 2, (0, 0, 5, 3, 0)),
    (2, 4, 2, (0, 1, 4, 2, 0)),
    (2, 4, 2, (5, 0, 0, 0, 0)),
    (2, 4, 3, (0, 0, 0, 0, 6)),
    (3, 0, 3, (0, 3, 3, 5, 3)),
    (3, 0, 4, (0, 0, 0, 0, 7)),
    (3, 0, 4, (3, 0, 0, 3, 6)),
    (3, 0, 5, (3, 0, 0, 0, 7)),
    (3, 1, 3, (3, 0, 3, 3, 5)),
    (3, 1, 4, (6, 3, 0, 0, 3)),
    (3, 1, 4, (7, 0, 0, 0, 0)),
    (3, 1, 5, (7, 3, 0, 0, 0)),
    (3, 2, 3, (5, 3, 0, 3, 3)),
    (3, 2, 4, (0, 7, 0, 0, 0)),
    (3, 2, 4, (3, 6, 3, 0, 0)),
    (3, 2, 5, (0, 7, 3, 0, 0)),
    (3, 3, 3, (3, 5, 3, 0, 3)),
    (3, 3, 4, (0, 0, 7, 0, 0)),
    (3, 3, 4, (0, 3, 6, 3, 0)),
    (3, 3, 5, (0, 0, 7, 3, 0)),
    (3, 4, 3, (3, 3, 5, 3, 0)),
    (3, 4, 4, (0, 0, 0, 7, 0)),
    (3, 4, 4, (0, 0, 3, 6, 3)),
    (3, 4, 5, (0, 0, 0, 7, 3)),
)

_NOBLES = (
    (3, (4, 4, 0, 0, 0)),
    (3, (4, 0, 0, 0, 4)),
    (3, (0, 4, 4, 0, 0)),
    (3, (0, 0, 4, 4, 0)),
    (3, (0, 0, 0, 4, 4)),
    (3, (3, 3, 3, 0, 0)),
    (3, (3, 3, 0, 0, 3)),
    (3, (3, 0, 0, 3, 3)),
    (3, (0, 3, 3, 3, 0)),
    (3, (0, 0, 3, 3, 3)),
)

CARDS: tuple[Card, ...] = tuple(Card(i, *row) for i, row in enumerate(_CARDS))
"""The 90 development cards (40 of level 1, 30 of level 2, 20 of level 3), by id."""

NOBLES: tuple[Noble, ...] = tuple(Noble(i, *row) for i, row in enumerate(_NOBLES))
"""The 10 noble tiles, by id."""

__all__ = ["CARDS", "COLOURS", "NOBLES", "Card", "Noble"]
