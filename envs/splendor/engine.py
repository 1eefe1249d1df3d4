"""Splendor's rules engine: the deal (the setup), the state, the actions, the end of the game.

A game is a function of its deal and the seats' choices: the three development decks in the
order they are dealt (the first four cards of each are the opening display) and the nobles
revealed. The engine draws nothing. The rules as played are in ``docs/rules/splendor.md`` with
their sources; every reading the sources leave open is an option of :class:`SplendorOptions`.

A turn is one main action, then, when the seat holds more tokens than the limit, one decision
per token it returns, then the visit of a noble whose requirement its bonuses meet (a decision
when several do; forced when one does). Actions are small integers (:func:`describe`):

====================  ========  ==============================================================
range                 count     action
====================  ========  ==============================================================
0-9                   10        take three gems of different colours (:data:`TRIPLES`)
10-19                 10        take two gems of different colours (only when fewer than three
                                colours are in the bank; option ``fewer_gems``)
20-24                 5         take one gem (only when one colour is in the bank)
25-29                 5         take two gems of one colour (four or more of it in the bank)
30-41                 12        reserve the display's card (level * 4 + slot), and a gold
42-44                 3         reserve the top card of a level's deck, unseen by the others
45-56                 12        buy the display's card (level * 4 + slot)
57-59                 3         buy the seat's reserved card (its index in the seat's hand)
60-65                 6         return a token (colour; 65: gold) when over the limit
66-70                 5         choose which noble visits (its index among those on the table)
71                    1         pass (only when no main action is legal)
====================  ========  ==============================================================
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, ClassVar

from ludolab.envs.rules import IllegalActionError, InvariantError, as_action, illegal_message
from ludolab.envs.splendor.cards import CARDS, COLOURS, NOBLES

GOLD = 5
"""The index of gold among the token kinds (the five gem colours come first)."""
LEVELS = 3
SLOTS = 4
TRIPLES = tuple(combinations(range(5), 3))
PAIRS = tuple(combinations(range(5), 2))

TAKE3, TAKE2, TAKE1, DOUBLE = 0, 10, 20, 25
RESERVE, RESERVE_DECK, BUY, BUY_RESERVED = 30, 42, 45, 57
RETURN, NOBLE, PASS = 60, 66, 71
N_ACTIONS = 72

MAIN, RETURNING, VISIT, OVER = "main", "return", "noble", "over"

GEMS_FOR_PLAYERS = {2: 4, 3: 5, 4: 7}
"""Gem tokens of each colour in the bank, by the number of players (gold is 5)."""


class DealError(ValueError):
    """A deal that is not a shuffle of Splendor's cards and nobles for its seats."""


@dataclass(frozen=True)
class SplendorOptions:
    """The rules as played; the defaults are the published rules.

    Attributes:
        points_to_win: prestige that ends the game (the round is finished).
        token_limit: tokens (gold included) a seat may hold at the end of its turn.
        reserve_limit: cards a seat may hold reserved.
        fewer_gems: ``"short"``: a seat may take two or one gems of different colours only
            when the bank holds fewer than three colours (the reading of the published rules);
            ``"never"``: never fewer than three; ``"always"``: one or two whenever it likes.
        gold: gold tokens in the bank.
        round_limit: rounds after which a game is cut off (no winner), against games that
            never end (seats that only take and return tokens); 0: none.
    """

    points_to_win: int = 15
    token_limit: int = 10
    reserve_limit: int = 3
    fewer_gems: str = "short"
    gold: int = 5
    round_limit: int = 100

    def __post_init__(self) -> None:
        for name in ("points_to_win", "token_limit", "reserve_limit", "gold", "round_limit"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"{name}: expected a whole number of 0 or more, got {value!r}")
        if self.points_to_win < 1 or self.token_limit < 3:
            raise ValueError("points_to_win must be at least 1 and token_limit at least 3")
        if self.fewer_gems not in ("short", "never", "always"):
            raise ValueError(
                f"fewer_gems: expected short, never or always, got {self.fewer_gems!r}"
            )


OPTION_UNITS = {
    "points_to_win": "prestige",
    "token_limit": "tokens",
    "reserve_limit": "cards",
    "gold": "tokens",
    "round_limit": "rounds",
}


@dataclass(frozen=True)
class Deal:
    """What one game is played on.

    Attributes:
        decks: per level (1, 2, 3), its card ids (:data:`ludolab.envs.splendor.cards.CARDS`)
            in the order they are dealt: the first four are the opening display.
        nobles: the nobles revealed (players + 1 of them), by id.
        n_players: the seats the deal is for.
    """

    decks: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]
    nobles: tuple[int, ...]
    n_players: int

    def __post_init__(self) -> None:
        if self.n_players not in GEMS_FOR_PLAYERS:
            raise DealError(f"n_players: Splendor takes 2-4 players, got {self.n_players}")
        for level, deck in enumerate(self.decks):
            want = sorted(c.id for c in CARDS if c.level == level + 1)
            if sorted(deck) != want:
                raise DealError(
                    f"decks[{level}]: expected each level-{level + 1} card once "
                    f"({len(want)} cards), got {len(deck)}"
                )
        if len(set(self.nobles)) != self.n_players + 1 or not all(
            0 <= n < len(NOBLES) for n in self.nobles
        ):
            raise DealError(
                f"nobles: expected {self.n_players + 1} distinct nobles (0-{len(NOBLES) - 1}), "
                f"got {list(self.nobles)}"
            )

    @property
    def id(self) -> str:
        """A digest of the deal (16 hex digits), equal for equal deals."""
        text = json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    @property
    def display(self) -> tuple[tuple[int, ...], ...]:
        """The opening display: the first four cards of each level."""
        return tuple(deck[:SLOTS] for deck in self.decks)

    def to_dict(self) -> dict[str, Any]:
        """The deal's JSON form."""
        return {
            "decks": [list(d) for d in self.decks],
            "nobles": list(self.nobles),
            "n_players": self.n_players,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], where: str = "<deal>") -> Deal:
        """A deal from :meth:`to_dict`'s form (other keys are ignored); DealError naming
        ``where`` and the field otherwise."""
        try:
            decks = tuple(tuple(int(c) for c in d) for d in data["decks"])
            nobles = tuple(int(n) for n in data["nobles"])
            n_players = int(data["n_players"])
        except (KeyError, TypeError, ValueError) as exc:
            raise DealError(f"{where}: not a Splendor deal ({exc})") from None
        if len(decks) != LEVELS:
            raise DealError(f"{where}: decks: expected 3 levels, got {len(decks)}")
        try:
            return cls((decks[0], decks[1], decks[2]), nobles, n_players)
        except DealError as exc:
            raise DealError(f"{where}: {exc}") from None


@dataclass
class Seat:
    """One seat's holdings.

    Attributes:
        tokens: tokens held per kind (five colours, then gold).
        bonuses: development cards bought per colour (each a permanent gem of its colour).
        points: prestige (cards and nobles).
        bought: the ids of the cards bought, in order.
        reserved: the ids of the cards held reserved, in order.
        hidden: for each reserved card, whether it was taken from a deck (unseen by the others).
        nobles: the nobles that visited, in order.
    """

    tokens: list[int] = field(default_factory=lambda: [0] * 6)
    bonuses: list[int] = field(default_factory=lambda: [0] * 5)
    points: int = 0
    bought: list[int] = field(default_factory=list)
    reserved: list[int] = field(default_factory=list)
    hidden: list[bool] = field(default_factory=list)
    nobles: list[int] = field(default_factory=list)

    def copy(self) -> Seat:
        return Seat(
            list(self.tokens),
            list(self.bonuses),
            self.points,
            list(self.bought),
            list(self.reserved),
            list(self.hidden),
            list(self.nobles),
        )


def price(cost: Sequence[int], bonuses: Sequence[int], tokens: Sequence[int]) -> list[int] | None:
    """What a seat pays for a card of ``cost`` with its ``bonuses`` and ``tokens``: gems of each
    colour first, gold for the rest (per kind, gold last); None when it cannot pay."""
    pay = [0] * 6
    short = 0
    for c in range(5):
        due = max(0, cost[c] - bonuses[c])
        pay[c] = min(due, tokens[c])
        short += due - pay[c]
    if short > tokens[GOLD]:
        return None
    pay[GOLD] = short
    return pay


def fair_deal(players: int, seed: int) -> Deal:
    """A deal as the rules set the game up: each level's deck shuffled, and players + 1 nobles
    drawn, every random choice from ``seed`` (``random.Random("ludolab.splendor.deal:<seed>")``)."""
    rng = random.Random(f"ludolab.splendor.deal:{seed}")
    decks = []
    for level in range(1, LEVELS + 1):
        ids = [c.id for c in CARDS if c.level == level]
        rng.shuffle(ids)
        decks.append(tuple(ids))
    nobles = tuple(rng.sample(range(len(NOBLES)), players + 1))
    return Deal((decks[0], decks[1], decks[2]), nobles, players)


class SplendorState:
    """One game of Splendor in play (the protocol's ``GameState``)."""

    game: ClassVar[str] = "splendor"

    def __init__(self, deal: Deal, seed: int = 0, options: SplendorOptions | None = None) -> None:
        self.deal = deal
        self.seed = seed
        self.options = options or SplendorOptions()
        self.n_players = deal.n_players
        gems = GEMS_FOR_PLAYERS[deal.n_players]
        self.bank = [gems] * 5 + [self.options.gold]
        self.decks = [list(d[SLOTS:]) for d in deal.decks]
        self.display: list[list[int]] = [list(d[:SLOTS]) for d in deal.decks]
        self.nobles = list(deal.nobles)
        self.seats = [Seat() for _ in range(deal.n_players)]
        self.acting = 0
        self.phase = MAIN
        self.turns = 0
        self.rounds = 0
        self.n_actions = 0
        self.final_round = False
        self.truncated = False
        self.first_to_win: int | None = None
        self.scores: list[tuple[int, ...]] = []
        self._legal: list[int] | None = None

    # -- the protocol's face ---------------------------------------------------------------

    @property
    def done(self) -> bool:
        """The game is over (ended by the rules, or cut off)."""
        return self.phase == OVER

    def legal_actions(self) -> list[int]:
        """The acting seat's legal actions, sorted ([] once the game is over)."""
        if self._legal is None:
            self._legal = self._compute_legal()
        return list(self._legal)

    def forced_action(self) -> int:
        """The only legal action, or -1 when the seat has a choice."""
        legal = self.legal_actions()
        return legal[0] if len(legal) == 1 else -1

    def step(self, action: int) -> None:
        """Take ``action`` for the acting seat (IllegalActionError, the game unchanged, when it
        is not legal)."""
        action = as_action(action, N_ACTIONS)
        if action not in self.legal_actions():
            raise IllegalActionError(
                illegal_message(
                    action, describe, self.legal_actions(), self.acting, self.phase, self.done
                )
            )
        self._legal = None
        self.n_actions += 1
        seat = self.seats[self.acting]
        if self.phase == RETURNING:
            kind = action - RETURN
            seat.tokens[kind] -= 1
            self.bank[kind] += 1
        elif self.phase == VISIT:
            self._visit(self.nobles[action - NOBLE])
            self._end_turn()
            return
        else:
            self._main(seat, action)
        if sum(seat.tokens) > self.options.token_limit:
            self.phase = RETURNING
            return
        self._after_tokens()

    def clone(self) -> SplendorState:
        """An independent copy."""
        other = object.__new__(SplendorState)
        other.__dict__.update(self.__dict__)
        other.bank = list(self.bank)
        other.decks = [list(d) for d in self.decks]
        other.display = [list(row) for row in self.display]
        other.nobles = list(self.nobles)
        other.seats = [s.copy() for s in self.seats]
        other.scores = list(self.scores)
        other._legal = None
        return other

    # -- the rules -------------------------------------------------------------------------

    def _compute_legal(self) -> list[int]:
        if self.phase == OVER:
            return []
        seat = self.seats[self.acting]
        if self.phase == RETURNING:
            return [RETURN + k for k in range(6) if seat.tokens[k] > 0]
        if self.phase == VISIT:
            return [NOBLE + i for i, n in enumerate(self.nobles) if self._meets(seat, n)]
        legal = self._takes()
        if len(seat.reserved) < self.options.reserve_limit:
            legal += [
                RESERVE + level * SLOTS + slot
                for level in range(LEVELS)
                for slot in range(SLOTS)
                if self.display[level][slot] >= 0
            ]
            legal += [RESERVE_DECK + level for level in range(LEVELS) if self.decks[level]]
        legal += [
            BUY + level * SLOTS + slot
            for level in range(LEVELS)
            for slot in range(SLOTS)
            if (card := self.display[level][slot]) >= 0 and self._affords(seat, card)
        ]
        legal += [
            BUY_RESERVED + i for i, card in enumerate(seat.reserved) if self._affords(seat, card)
        ]
        return sorted(legal) or [PASS]

    def _takes(self) -> list[int]:
        bank = self.bank
        colours = [c for c in range(5) if bank[c] > 0]
        fewer = self.options.fewer_gems
        legal = [
            TAKE3 + i for i, (a, b, c) in enumerate(TRIPLES) if bank[a] and bank[b] and bank[c]
        ]
        if fewer == "always" or (fewer == "short" and len(colours) == 2):
            legal += [TAKE2 + i for i, (a, b) in enumerate(PAIRS) if bank[a] and bank[b]]
        if fewer == "always" or (fewer == "short" and len(colours) == 1):
            legal += [TAKE1 + c for c in colours]
        legal += [DOUBLE + c for c in range(5) if self.bank[c] >= 4]
        return legal

    def _affords(self, seat: Seat, card: int) -> bool:
        # price(...) is not None, without building the payment (the search's hot spot)
        cost, bonuses, tokens = CARDS[card].cost, seat.bonuses, seat.tokens
        short = 0
        for c in range(5):
            due = cost[c] - bonuses[c] - tokens[c]
            if due > 0:
                short += due
        return short <= tokens[GOLD]

    def _meets(self, seat: Seat, noble: int) -> bool:
        need = NOBLES[noble].need
        return all(seat.bonuses[c] >= need[c] for c in range(5))

    def _main(self, seat: Seat, action: int) -> None:
        if action < TAKE2:
            self._take(seat, TRIPLES[action - TAKE3])
        elif action < TAKE1:
            self._take(seat, PAIRS[action - TAKE2])
        elif action < DOUBLE:
            self._take(seat, (action - TAKE1,))
        elif action < RESERVE:
            self._take(seat, (action - DOUBLE, action - DOUBLE))
        elif action < RESERVE_DECK:
            level, slot = divmod(action - RESERVE, SLOTS)
            self._reserve(seat, self.display[level][slot], hidden=False)
            self._refill(level, slot)
        elif action < BUY:
            level = action - RESERVE_DECK
            self._reserve(seat, self.decks[level].pop(0), hidden=True)
        elif action < BUY_RESERVED:
            level, slot = divmod(action - BUY, SLOTS)
            self._buy(seat, self.display[level][slot])
            self._refill(level, slot)
        elif action < RETURN:
            i = action - BUY_RESERVED
            card = seat.reserved.pop(i)
            seat.hidden.pop(i)
            self._buy(seat, card)
        # PASS: nothing

    def _take(self, seat: Seat, kinds: Sequence[int]) -> None:
        for c in kinds:
            self.bank[c] -= 1
            seat.tokens[c] += 1

    def _reserve(self, seat: Seat, card: int, hidden: bool) -> None:
        seat.reserved.append(card)
        seat.hidden.append(hidden)
        if self.bank[GOLD] > 0:
            self.bank[GOLD] -= 1
            seat.tokens[GOLD] += 1

    def _buy(self, seat: Seat, card: int) -> None:
        pay = price(CARDS[card].cost, seat.bonuses, seat.tokens)
        assert pay is not None  # legal_actions checked it
        for k in range(6):
            seat.tokens[k] -= pay[k]
            self.bank[k] += pay[k]
        seat.bonuses[CARDS[card].bonus] += 1
        seat.points += CARDS[card].points
        seat.bought.append(card)

    def _refill(self, level: int, slot: int) -> None:
        self.display[level][slot] = self.decks[level].pop(0) if self.decks[level] else -1

    def _after_tokens(self) -> None:
        """After the main action and any tokens returned: a noble's visit, then the turn's
        end."""
        seat = self.seats[self.acting]
        qualifying = [n for n in self.nobles if self._meets(seat, n)]
        if len(qualifying) > 1:
            self.phase = VISIT
            return
        if qualifying:
            self._visit(qualifying[0])
        self._end_turn()

    def _visit(self, noble: int) -> None:
        seat = self.seats[self.acting]
        self.nobles.remove(noble)
        seat.nobles.append(noble)
        seat.points += NOBLES[noble].points

    def _end_turn(self) -> None:
        seat = self.seats[self.acting]
        self.turns += 1
        self.scores.append(tuple(s.points for s in self.seats))
        if seat.points >= self.options.points_to_win and not self.final_round:
            self.final_round = True
            self.first_to_win = self.acting
        self.phase = MAIN
        self.acting = (self.acting + 1) % self.n_players
        if self.acting == 0:  # a round is over: every seat has played as often
            self.rounds += 1
            if self.final_round:
                self.phase = OVER
            elif self.options.round_limit and self.rounds >= self.options.round_limit:
                self.phase = OVER
                self.truncated = True

    # -- the outcome -------------------------------------------------------------------------

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats with the most prestige, and among them those with the fewest development
        cards (several: a shared win); none while the game is on or when it was cut off."""
        if not self.done or self.truncated:
            return ()
        best = max(s.points for s in self.seats)
        top = [i for i, s in enumerate(self.seats) if s.points == best]
        fewest = min(len(self.seats[i].bought) for i in top)
        return tuple(i for i in top if len(self.seats[i].bought) == fewest)

    def check_invariants(self) -> None:
        """InvariantError when tokens or cards are created or lost, or a seat's bonuses,
        points or holdings contradict its cards."""
        gems = GEMS_FOR_PLAYERS[self.n_players]
        for k in range(6):
            total = self.bank[k] + sum(s.tokens[k] for s in self.seats)
            want = gems if k < 5 else self.options.gold
            if total != want or self.bank[k] < 0 or any(s.tokens[k] < 0 for s in self.seats):
                raise InvariantError(
                    f"{COLOURS[k] if k < 5 else 'gold'}: {total} tokens in play, expected {want}"
                )
        cards = [c for d in self.decks for c in d] + [c for r in self.display for c in r if c >= 0]
        for s in self.seats:
            cards += s.bought + s.reserved
        if sorted(cards) != list(range(len(CARDS))):
            raise InvariantError("the development cards are not each in one place")
        for i, s in enumerate(self.seats):
            bonuses = [sum(CARDS[c].bonus == k for c in s.bought) for k in range(5)]
            points = sum(CARDS[c].points for c in s.bought) + sum(
                NOBLES[n].points for n in s.nobles
            )
            if s.bonuses != bonuses or s.points != points:
                raise InvariantError(f"seat {i}: bonuses or points do not match its cards")
            if len(s.reserved) > self.options.reserve_limit:
                raise InvariantError(f"seat {i}: {len(s.reserved)} cards reserved")
            if self.phase == MAIN and sum(s.tokens) > self.options.token_limit:
                raise InvariantError(f"seat {i}: {sum(s.tokens)} tokens between turns")
        if sorted(self.nobles + [n for s in self.seats for n in s.nobles]) != sorted(
            self.deal.nobles
        ):
            raise InvariantError("the nobles are not each in one place")

    def describe(self, action: int) -> str:
        """The action in words."""
        return describe(action)


def describe(action: int) -> str:
    """An action in words, ``"take white, blue, green"``, ``"buy level 2 slot 3"``."""
    if not 0 <= action < N_ACTIONS:
        return f"no action {action}; actions are 0..{N_ACTIONS - 1}"
    if action < TAKE2:
        return "take " + ", ".join(COLOURS[c] for c in TRIPLES[action])
    if action < TAKE1:
        return "take " + ", ".join(COLOURS[c] for c in PAIRS[action - TAKE2])
    if action < DOUBLE:
        return f"take {COLOURS[action - TAKE1]}"
    if action < RESERVE:
        return f"take two {COLOURS[action - DOUBLE]}"
    if action < RESERVE_DECK:
        level, slot = divmod(action - RESERVE, SLOTS)
        return f"reserve level {level + 1} slot {slot + 1}"
    if action < BUY:
        return f"reserve the top of the level-{action - RESERVE_DECK + 1} deck"
    if action < BUY_RESERVED:
        level, slot = divmod(action - BUY, SLOTS)
        return f"buy level {level + 1} slot {slot + 1}"
    if action < RETURN:
        return f"buy reserved card {action - BUY_RESERVED + 1}"
    if action < NOBLE:
        kind = action - RETURN
        return f"return {COLOURS[kind] if kind < 5 else 'gold'}"
    if action < PASS:
        return f"noble {action - NOBLE + 1} visits"
    return "pass"


__all__ = [
    "GEMS_FOR_PLAYERS",
    "GOLD",
    "N_ACTIONS",
    "OPTION_UNITS",
    "Deal",
    "DealError",
    "Seat",
    "SplendorOptions",
    "SplendorState",
    "describe",
    "fair_deal",
    "price",
]
