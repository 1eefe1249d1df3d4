"""The ``mcts`` and ``lookahead`` agents' determinisations of a Masters Gallery position.

A determinisation deals again every card the seat cannot see: the other seats' hands (each
keeps its size), their face-down cards and hidden simultaneous picks (each keeps its count),
and the order of the deck. The cards dealt are exactly those not visible to the seat: the deck
minus its own hand, its own face-down cards and pick, every card displayed face up this round
(the extra card included) and every card discarded in earlier rounds. The seat's memory of
what it saw earlier (which cards an opponent's double or draw revealed) is not used: the agent
knows no more than it may, possibly less than a card-counting player.

The native core states :func:`determinise` a second time (``Core.determinised``), draw for draw.
"""

from __future__ import annotations

import random
from typing import Any

from ludolab.envs.gallery.cards import N_TYPES
from ludolab.envs.gallery.engine import Game


def determinise(game: Game, seat: int, rng: random.Random | Any) -> Game:
    """A copy of ``game`` in which every card ``seat`` cannot see is dealt again from ``rng``
    (see the module docstring); ``game`` is not changed."""
    copy = game.clone()
    me, n = seat, game.n_players
    face_up = game.face_up_types
    own_picks = [t for q, t in game.simultaneous_picks if q == me]
    unseen: list[int] = []
    for t in range(N_TYPES):
        k = (
            game.type_total[t]
            - game.discarded[t]
            - face_up[t]
            - game.hands[me][t]
            - game.face_down_types[me][t]
            - own_picks.count(t)
        )
        unseen.extend([t] * k)
    rng.shuffle(unseen)
    cards = iter(unseen)
    for q in range(n):
        if q == me:
            continue
        hand = [0] * N_TYPES
        for _ in range(game.hand_size[q]):
            hand[next(cards)] += 1
        copy.hands[q] = hand
        down = [0] * N_TYPES
        for _ in range(sum(game.face_down_types[q])):
            down[next(cards)] += 1
        copy.face_down_types[q] = down
    copy._simul_pending = [(q, t if q == me else next(cards)) for q, t in game.simultaneous_picks]
    table = list(face_up)
    for q in range(n):
        for t in range(N_TYPES):
            table[t] += copy.face_down_types[q][t]
    for _, t in copy._simul_pending:
        table[t] += 1
    copy._table_types = table
    # The rest is the deck, in the shuffled order, as card ids of those types.
    ids_by_type: list[list[int]] = [[] for _ in range(N_TYPES)]
    for card, t in enumerate(game.type_of):
        ids_by_type[t].append(card)
    copy.pile = [ids_by_type[t].pop() for t in cards]
    copy._legal = None
    return copy


__all__ = ["determinise"]
