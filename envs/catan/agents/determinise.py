"""Determinisations for Catan's search agents: what a seat cannot see, dealt again.

A determinisation deals again what the seat cannot see, from the public counts:

* the other seats' resource cards: the cards of each resource outside the bank and outside the
  seat's own hand are shared out among the others, each keeping its hand size. A seat that
  accepted the domestic offer on the table holds the card asked for, and the seat that made it
  holds what it offered; those cards are given first;
* the other seats' development cards (each keeps how many it holds and how many it bought this
  turn) and the order of the deck: the 25 cards minus the seat's own and every card played.
  A determinisation that would give another seat enough victory-point cards to have won
  already is dealt again;
* the dice and the steals: fresh random streams.

The seat's memory of particular cards (what a roll paid whom, what a steal took) is not used:
the agent never knows more than it may, though it may know less than a card-counting player.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ludolab.envs.catan.actions import N_RESOURCES
from ludolab.envs.catan.engine import (
    CARDS_PER_RESOURCE,
    DEV_DECK_COUNTS,
    TRADE_CONFIRM,
    TRADE_RESPONSE,
    VICTORY_POINT,
    Game,
)

_REDEALS = 50  # tries at a deal that leaves nobody else already winning


def unseen_dev_cards(game: Game, seat: int) -> list[int]:
    """Per kind of development card, how many ``seat`` has not seen: the 25 cards minus its
    own and every card played (they are in the deck or in the others' hands)."""
    return [
        DEV_DECK_COUNTS[k]
        - game.dev_hand[seat][k]
        - sum(game.dev_played[q][k] for q in range(game.n_players))
        for k in range(len(DEV_DECK_COUNTS))
    ]


@dataclass
class HiddenDeal:
    """What ``seat`` cannot see, dealt again (see the module docstring); per seat lists, the
    seat's own hand and cards as they are."""

    hands: list[list[int]]  # resource cards, per seat and resource
    dev_hand: list[list[int]]  # development cards held, per seat and kind
    dev_new: list[list[int]]  # of them bought this turn, per seat and kind
    dev_deck: list[int]  # the deck, kinds in drawing order
    dice: random.Random  # the dice to come
    steals: random.Random  # the steals to come


def deal_hidden(game: Game, seat: int, rng: random.Random) -> HiddenDeal:
    """Deal again from ``rng`` everything of ``game`` that ``seat`` cannot see."""
    me, n = seat, game.n_players
    dice = random.Random(rng.getrandbits(64))
    steals = random.Random(rng.getrandbits(64))
    others = [q for q in range(n) if q != me]
    # Resource cards: what is outside the bank and this seat's hand, among the others.
    pool = [CARDS_PER_RESOURCE - game.bank[r] - game.hands[me][r] for r in range(N_RESOURCES)]
    hands = [list(game.hands[q]) if q == me else [0] * N_RESOURCES for q in range(n)]
    room = {q: game.hand_size[q] for q in others}
    offer = game.offer
    if offer is not None and game.phase in (TRADE_RESPONSE, TRADE_CONFIRM):
        give, n_give, get = offer
        known = [(game.current, give, n_give)] + [(q, get, 1) for q in game.accepted]
        for q, r, k in known:
            if q != me:
                hands[q][r] += k
                room[q] -= k
                pool[r] -= k
    cards = [r for r in range(N_RESOURCES) for _ in range(pool[r])]
    rng.shuffle(cards)
    dealt = iter(cards)
    for q in others:
        for _ in range(room[q]):
            hands[q][next(dealt)] += 1
    # Development cards: the unseen ones among the others' hands and the deck.
    unseen = unseen_dev_cards(game, me)
    deck = [k for k in range(len(unseen)) for _ in range(unseen[k])]
    dev_hand = [list(game.dev_hand[q]) for q in range(n)]
    dev_new = [list(game.dev_new[q]) for q in range(n)]
    for _ in range(_REDEALS):
        rng.shuffle(deck)
        rest = iter(deck)
        for q in others:
            held = [next(rest) for _ in range(sum(game.dev_hand[q]))]
            dev_hand[q] = [held.count(k) for k in range(len(unseen))]
            new = held[: sum(game.dev_new[q])]  # a random subset: ``held`` is shuffled
            dev_new[q] = [new.count(k) for k in range(len(unseen))]
        if all(
            game.vp_public[q] + dev_hand[q][VICTORY_POINT] < game.options.vp_to_win
            for q in others
        ):
            break
    return HiddenDeal(hands, dev_hand, dev_new, list(rest), dice, steals)


def determinise(game: Game, seat: int, rng: random.Random) -> Game:
    """A copy of ``game`` in which everything ``seat`` cannot see is dealt again from ``rng``
    (see the module docstring); ``game`` is not changed."""
    deal = deal_hidden(game, seat, rng)
    copy = game.clone(share_randomness=True)
    copy._dice_rng = deal.dice
    copy._steal_rng = deal.steals
    for q in range(game.n_players):
        if q != seat:
            copy.hands[q] = deal.hands[q]
            copy.dev_hand[q] = deal.dev_hand[q]
            copy.dev_new[q] = deal.dev_new[q]
    copy.dev_deck = deal.dev_deck
    copy._legal = None
    return copy
