"""The observation a learning agent gets: one flat float32 vector from one seat's point of view.

``encode(game, seat)`` is shared by the Gymnasium and PettingZoo environments. Seats are
*relative*: index 0 of every per-seat block is the observer ("me"), index ``k`` the seat ``k``
places after me in turn order. Only what ``seat`` sees at the table goes in: the decks only as
their sizes, another seat's reserved cards only as a count (a card it reserved face down is
hidden; one it took from the display was seen, but an agent that wants it must remember it).

Every value lies in [0, 1]. A card is 12 numbers: present (0/1), its level (1-3) / 3, its
bonus colour one-hot (5), its prestige / 5, and its cost per colour / 7. Layout (``n``: the
number of players)::

    bank           6        tokens in the bank per kind (five colours, gold) / their start
    display        12 x 12  the cards shown, level 1 slots 1-4, then levels 2 and 3
    nobles         5 x 6    the nobles on the table (present, then bonus cards needed per
                            colour / 4); absent nobles are zeros
    my_reserved    3 x 12   my reserved cards, in the order reserved
    seat_tokens    n x 6    tokens held per rel seat and kind / 10
    seat_bonuses   n x 5    bonus cards per rel seat and colour / 7 (capped at 1)
    seat_points    n        prestige per rel seat / the target (capped at 1)
    seat_reserved  n        cards held reserved per rel seat / 3
    decks          3        cards left in each level's deck / its size after the display
    phase          3        one-hot: main action, returning tokens, choosing a noble
    final_round    1        1 once a seat has reached the target (this round is the last)

Size: 226 + 13 n (252 for 2 players, 265 for 3, 278 for 4).
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces

from ludolab.envs.faces import BlockLayout
from ludolab.envs.splendor.cards import CARDS, NOBLES
from ludolab.envs.splendor.engine import (
    GEMS_FOR_PLAYERS,
    LEVELS,
    MAIN,
    RETURNING,
    SLOTS,
    VISIT,
    SplendorState,
)

CARD_SIZE = 12
MAX_NOBLES = 5
RESERVE_SLOTS = 3
DECK_SIZES = tuple(sum(c.level == lv + 1 for c in CARDS) - SLOTS for lv in range(LEVELS))


def blocks(n_players: int) -> list[tuple[str, int]]:
    """The layout as ``(block name, length)`` in order."""
    n = n_players
    return [
        ("bank", 6),
        ("display", LEVELS * SLOTS * CARD_SIZE),
        ("nobles", MAX_NOBLES * 6),
        ("my_reserved", RESERVE_SLOTS * CARD_SIZE),
        ("seat_tokens", n * 6),
        ("seat_bonuses", n * 5),
        ("seat_points", n),
        ("seat_reserved", n),
        ("decks", LEVELS),
        ("phase", 3),
        ("final_round", 1),
    ]


LAYOUT = BlockLayout(blocks)


def observation_space(n_players: int) -> spaces.Box:
    """``Box(0, 1, (226 + 13 n,), float32)``."""
    return LAYOUT.space(n_players)


def _card(out: np.ndarray, at: int, card: int) -> None:
    c = CARDS[card]
    out[at] = 1.0
    out[at + 1] = c.level / 3
    out[at + 2 + c.bonus] = 1.0
    out[at + 7] = c.points / 5
    out[at + 8 : at + 13] = np.array(c.cost) / 7


def encode(game: SplendorState, seat: int) -> np.ndarray:
    """``seat``'s view of ``game`` as the flat vector of the module docstring."""
    n = game.n_players
    out = np.zeros(LAYOUT.size(n), dtype=np.float32)
    at = LAYOUT.block_slices(n)
    start = [GEMS_FOR_PLAYERS[n]] * 5 + [max(game.options.gold, 1)]
    out[at["bank"]] = np.array(game.bank) / np.array(start)
    base = at["display"].start
    for level, row in enumerate(game.display):
        for slot, card in enumerate(row):
            if card >= 0:
                _card(out, base + (level * SLOTS + slot) * CARD_SIZE, card)
    base = at["nobles"].start
    for i, noble in enumerate(game.nobles[:MAX_NOBLES]):
        out[base + i * 6] = 1.0
        out[base + i * 6 + 1 : base + i * 6 + 6] = np.array(NOBLES[noble].need) / 4
    base = at["my_reserved"].start
    for i, card in enumerate(game.seats[seat].reserved[:RESERVE_SLOTS]):
        _card(out, base + i * CARD_SIZE, card)
    target = max(game.options.points_to_win, 1)
    for k in range(n):
        held = game.seats[(seat + k) % n]
        out[at["seat_tokens"].start + 6 * k : at["seat_tokens"].start + 6 * k + 6] = np.minimum(
            np.array(held.tokens) / 10, 1.0
        )
        out[at["seat_bonuses"].start + 5 * k : at["seat_bonuses"].start + 5 * k + 5] = np.minimum(
            np.array(held.bonuses) / 7, 1.0
        )
        out[at["seat_points"].start + k] = min(held.points / target, 1.0)
        out[at["seat_reserved"].start + k] = min(len(held.reserved) / RESERVE_SLOTS, 1.0)
    out[at["decks"]] = np.array([len(d) for d in game.decks]) / np.array(DECK_SIZES)
    phases = (MAIN, RETURNING, VISIT)
    if game.phase in phases:
        out[at["phase"].start + phases.index(game.phase)] = 1.0
    out[at["final_round"]] = float(game.final_round)
    return out


__all__ = ["LAYOUT", "blocks", "encode", "observation_space"]
