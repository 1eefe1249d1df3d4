"""Goofspiel's reference engine: the rule options, the setup (the prize order) and the state.

**Actions.** An action is the value of the card a seat bids, ``1..K`` (``K`` = the option
``cards``); a seat's legal actions are the cards still in its hand, sorted. There is no other
kind of action.

**Simultaneous bids, one seat after another.** Goofspiel's bids are sealed and revealed
together. The engine asks for them one seat at a time (seat 0, then 1, ...), because that is the
protocol every ludolab engine speaks, and keeps the bids made so far this round in
``GoofspielState.pending``. No agent may read them: agents read :meth:`GoofspielState.view`,
which shows a seat only what it could see at the table (every seat's hand as it was when the
round started, since all earlier bids were revealed, and never a bid of the current round).

**Chance.** The prize order is the whole of the game's chance, and it is the setup: the engine
itself draws no random number. The game seed only seeds the agents (their reset).

The engine imports from ludolab only the two errors every engine shares
(:mod:`ludolab.envs.rules`), which is what the protocol needs.
"""

from __future__ import annotations

import hashlib
import operator
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, ClassVar, NamedTuple

from ludolab.envs.rules import IllegalActionError, InvariantError

MIN_PLAYERS, MAX_PLAYERS, DEFAULT_PLAYERS = 2, 4, 2
MAX_CARDS = 52
"""The largest ``cards`` option: a deck's worth, far beyond any published variant."""

TIES = ("discard", "carry")
"""The tie rules: ``discard`` (standard) throws a tied prize away; ``carry`` adds it to the
next round's pot."""

OPTION_UNITS: dict[str, str] = {"cards": "cards"}
"""The unit of each numeric rule option."""

SETUP_SCHEMA = "ludolab_goofspiel.prize_order/1"
"""The ``schema`` field of a prize order's JSON form."""


@dataclass(frozen=True)
class GoofspielOptions:
    """The rule options; the defaults are the standard game (Flood's, Wikipedia's, OpenSpiel's).

    Attributes:
        cards: K, the cards in each hand and in the prize deck (valued 1..K), and so the number
            of rounds; 13 (one suit) by default. Unit: cards.
        ties: what happens to the prize when the highest bid is tied: ``"discard"`` (it is
            thrown away; standard) or ``"carry"`` (it stays in the pot, and the next round's
            single highest bid takes the pot and that round's prize together; a pot still
            tied after the last round is lost).
    """

    cards: int = 13
    ties: str = "discard"

    def __post_init__(self) -> None:
        # The messages name GoofspielOptions.<field>: a config error is then blamed on
        # options.<field>.
        if (
            isinstance(self.cards, bool)
            or not isinstance(self.cards, int)
            or not 1 <= self.cards <= MAX_CARDS
        ):
            raise ValueError(
                f"GoofspielOptions.cards must be an integer 1..{MAX_CARDS}, got {self.cards!r}"
            )
        if self.ties not in TIES:
            raise ValueError(
                f"GoofspielOptions.ties must be one of {', '.join(TIES)}, got {self.ties!r}"
            )


class PrizeOrderError(ValueError):
    """A prize order (or its JSON form) that is not a permutation of 1..K."""


@dataclass(frozen=True)
class PrizeOrder:
    """The setup of one game: the prize deck's order, top (round 1) first.

    Attributes:
        prizes: the prize values in the order they are revealed, a permutation of 1..K; shape
            (K,). Equal orders have equal ``id`` s.
    """

    prizes: tuple[int, ...]

    def __post_init__(self) -> None:
        prizes = self.prizes
        if not isinstance(prizes, tuple) or not all(
            isinstance(p, int) and not isinstance(p, bool) for p in prizes
        ):
            raise PrizeOrderError(f"prizes must be a tuple of ints, got {prizes!r}")
        if sorted(prizes) != list(range(1, len(prizes) + 1)) or not prizes:
            raise PrizeOrderError(
                f"prizes must hold each of 1..K exactly once (K >= 1), got {list(prizes)}"
            )

    @property
    def cards(self) -> int:
        """K, the number of prizes (and rounds)."""
        return len(self.prizes)

    @cached_property
    def id(self) -> str:
        """``"gs13-"`` plus 16 hex digits of the order's SHA-256: equal for equal orders."""
        digest = hashlib.sha256(",".join(map(str, self.prizes)).encode()).hexdigest()
        return f"gs{self.cards}-{digest[:16]}"

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: ``{"schema", "id", "prizes"}``."""
        return {"schema": SETUP_SCHEMA, "id": self.id, "prizes": list(self.prizes)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], where: str = "<prize order>") -> PrizeOrder:
        """A prize order from its JSON form; keys other than ``schema``, ``id`` and ``prizes``
        are ignored (a run's setups file adds ``condition`` and ``setup``). PrizeOrderError
        naming ``where`` and the field when ``data`` is not one."""
        if not isinstance(data, Mapping):
            raise PrizeOrderError(f"{where}: a prize order is a JSON object, got {data!r}")
        schema = data.get("schema", SETUP_SCHEMA)
        if schema != SETUP_SCHEMA:
            raise PrizeOrderError(
                f"{where}: field 'schema' is {schema!r}; a Goofspiel prize order's is "
                f"{SETUP_SCHEMA!r}"
            )
        if "prizes" not in data:
            raise PrizeOrderError(
                f"{where}: field 'prizes' is missing (the prize order, top first)"
            )
        raw = data["prizes"]
        if not isinstance(raw, list | tuple):
            raise PrizeOrderError(f"{where}: field 'prizes' must be a list of ints, got {raw!r}")
        try:
            order = cls(tuple(raw))
        except PrizeOrderError as exc:
            raise PrizeOrderError(f"{where}: field 'prizes': {exc}") from None
        if "id" in data and data["id"] != order.id:
            raise PrizeOrderError(
                f"{where}: field 'id' is {data['id']!r} but the prizes' id is {order.id!r}; "
                f"the order was changed after it was written (drop 'id' to accept it)"
            )
        return order


def fair_order(cards: int, seed: int) -> PrizeOrder:
    """A uniformly shuffled prize deck of ``cards`` prizes, every choice from ``seed`` (its
    own stream: the same seed gives the same order, and it shares nothing with the agents')."""
    prizes = list(range(1, cards + 1))
    random.Random(f"ludolab_goofspiel.fair:{seed}").shuffle(prizes)
    return PrizeOrder(tuple(prizes))


class RoundResult(NamedTuple):
    """One resolved round, as every seat saw it once the bids were revealed.

    Attributes:
        prize: the prize card revealed this round (points).
        stake: the points at stake: the prize plus any prizes carried over (``carry`` rule).
        bids: each seat's bid, shape (players,).
        winner: the seat that took the stake, or None when the highest bid was tied.
        scores: each seat's points after the round, shape (players,).
    """

    prize: int
    stake: int
    bids: tuple[int, ...]
    winner: int | None
    scores: tuple[int, ...]


@dataclass(frozen=True)
class SeatView:
    """What one seat sees at the table while it decides: everything public plus its own hand,
    and nothing of the current round's bids. Tuples are sorted unless said otherwise.

    Attributes:
        seat: the seat looking.
        players: seats in the game.
        cards: K.
        ties: the tie rule (``discard`` or ``carry``).
        round: the current round, 0-based (K when the game is over).
        prize: the prize revealed this round (None when the game is over).
        carried: the prizes carried over into this round's pot (``carry`` rule), in order.
        stake: the points the round's single highest bid takes: ``prize + sum(carried)``.
        prizes_left: the prizes not yet revealed (their order is hidden), shape (K - round - 1,).
        hand: the seat's own cards at the start of the round.
        hands: every seat's cards at the start of the round (public: each played card was
            revealed), shape (players, K - round).
        scores: each seat's points, shape (players,).
        history: the resolved rounds, oldest first.
    """

    seat: int
    players: int
    cards: int
    ties: str
    round: int
    prize: int | None
    carried: tuple[int, ...]
    stake: int
    prizes_left: tuple[int, ...]
    hand: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]
    scores: tuple[int, ...]
    history: tuple[RoundResult, ...]


class GoofspielState:
    """One game of Goofspiel in play (the reference engine; :class:`ludolab.games.GameState`).

    Seats bid in seat order within a round; the last seat's bid resolves the round. The game
    is over after K rounds. Attributes are the engine's and may be read by tests and records,
    never by agents (they read :meth:`view`).

    Attributes:
        setup: the prize order played.
        players: seats (2-4).
        seed: the game seed (the agents'; the engine draws nothing).
        options: the rule options.
        hands: each seat's cards not yet bid, sorted, shape (players, <= K).
        pending: the bids made so far this round, in seat order (hidden from the other seats).
        round: rounds resolved so far (0..K).
        scores: each seat's points, shape (players,).
        pot: the prizes carried over into the current round (``carry`` rule), in order.
        unclaimed: points of prizes nobody took: tied prizes discarded, or a pot still tied
            after the last round.
        history: the resolved rounds, oldest first.
        n_actions: bids taken so far, every seat's (the last round's forced bids included).
    """

    game: ClassVar[str] = "goofspiel"

    def __init__(
        self,
        setup: PrizeOrder,
        players: int = DEFAULT_PLAYERS,
        seed: int = 0,
        options: GoofspielOptions | None = None,
    ) -> None:
        options = GoofspielOptions() if options is None else options
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ValueError(f"Goofspiel takes {MIN_PLAYERS}-{MAX_PLAYERS} players, got {players}")
        if setup.cards != options.cards:  # a user's slip (a file of other orders): one line
            raise PrizeOrderError(
                f"prize order {setup.id} has {setup.cards} prizes but the rules say cards = "
                f"{options.cards}; play it with the option cards = {setup.cards} (or draw the "
                f"orders with cards = {options.cards})"
            )
        self.setup = setup
        self.players = players
        self.seed = seed
        self.options = options
        self.hands: list[list[int]] = [list(range(1, options.cards + 1)) for _ in range(players)]
        self.pending: list[int] = []
        self.round = 0
        self.scores = [0] * players
        self.pot: list[int] = []
        self.unclaimed = 0
        self.history: list[RoundResult] = []
        self.n_actions = 0

    # -- the protocol -----------------------------------------------------------------------

    @property
    def done(self) -> bool:
        """All K rounds are resolved."""
        return self.round >= self.options.cards

    @property
    def acting(self) -> int:
        """The seat that bids next (the seats that have not bid this round follow in order);
        -1 once the game is over."""
        return -1 if self.done else len(self.pending)

    def legal_actions(self) -> list[int]:
        """The acting seat's cards, sorted (empty once the game is over)."""
        return [] if self.done else list(self.hands[len(self.pending)])

    def forced_action(self) -> int:
        """The acting seat's last card in the last round (the rules force it), else -1."""
        if self.done:
            return -1
        hand = self.hands[len(self.pending)]
        return hand[0] if len(hand) == 1 else -1

    def step(self, action: int) -> None:
        """The acting seat bids the card ``action``; the last seat's bid resolves the round.
        IllegalActionError (and no change at all) for a card the seat does not hold, anything
        that is not an integer, or any bid once the game is over."""
        if self.done:
            raise IllegalActionError(f"action {action!r} (bid): the game is over")
        try:
            card = operator.index(action)
        except TypeError:
            raise IllegalActionError(
                f"action {action!r} is not an integer card value 1..{self.options.cards}"
            ) from None
        seat = len(self.pending)
        hand = self.hands[seat]
        if card not in hand:
            raise IllegalActionError(
                f"action {card} (bid {card}) is not legal for seat {seat} in round "
                f"{self.round + 1}: its hand is {hand}"
            )
        hand.remove(card)
        self.pending.append(card)
        self.n_actions += 1
        if len(self.pending) == self.players:
            self._resolve()

    def clone(self) -> GoofspielState:
        """An independent copy (the hands, bids, pot, scores and history copied)."""
        copy = GoofspielState.__new__(GoofspielState)
        copy.setup = self.setup  # immutable
        copy.players = self.players
        copy.seed = self.seed
        copy.options = self.options  # immutable
        copy.hands = [list(hand) for hand in self.hands]
        copy.pending = list(self.pending)
        copy.round = self.round
        copy.scores = list(self.scores)
        copy.pot = list(self.pot)
        copy.unclaimed = self.unclaimed
        copy.history = list(self.history)  # its items are immutable tuples
        copy.n_actions = self.n_actions
        return copy

    def check_invariants(self) -> None:
        """InvariantError unless the state is consistent: every card of every seat is either
        in hand or was bid exactly once; no points were created or lost (scores + unclaimed +
        pot = the prizes revealed); scores are what the history says; the round, the pending
        bids and the action count agree."""
        k, n = self.options.cards, self.players
        if not 0 <= self.round <= k or len(self.history) != self.round:
            raise InvariantError(f"round {self.round} but {len(self.history)} rounds in history")
        if len(self.pending) >= n or (self.done and self.pending):
            raise InvariantError(f"{len(self.pending)} pending bids with {n} seats")
        if self.n_actions != self.round * n + len(self.pending):
            raise InvariantError(f"{self.n_actions} actions after {self.round} rounds")
        for seat in range(n):
            bid = [r.bids[seat] for r in self.history]
            if seat < len(self.pending):
                bid.append(self.pending[seat])
            hand = self.hands[seat]
            if hand != sorted(hand) or sorted(hand + bid) != list(range(1, k + 1)):
                raise InvariantError(f"seat {seat}: hand {hand} and bids {bid} are not 1..{k}")
        revealed = sum(self.setup.prizes[: self.round])
        if sum(self.scores) + self.unclaimed + sum(self.pot) != revealed:
            raise InvariantError(
                f"scores {self.scores} + unclaimed {self.unclaimed} + pot {self.pot} != "
                f"{revealed}, the prizes revealed"
            )
        if self.pot and (self.options.ties != "carry" or self.done):
            raise InvariantError(f"pot {self.pot} under ties = {self.options.ties}")
        won = [0] * n
        for r in self.history:
            if r.winner is not None:
                won[r.winner] += r.stake
        if won != self.scores:
            raise InvariantError(f"scores {self.scores} but the history gives {won}")

    # -- reading the game ------------------------------------------------------------------

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats with the most points (several for a shared win); () while not over."""
        if not self.done:
            return ()
        best = max(self.scores)
        return tuple(s for s in range(self.players) if self.scores[s] == best)

    @property
    def prize(self) -> int | None:
        """The prize revealed this round, None once the game is over."""
        return None if self.done else self.setup.prizes[self.round]

    def view(self, seat: int) -> SeatView:
        """What ``seat`` sees at the table now: never a bid of the current round (the bids
        already made this round are put back in their seats' hands)."""
        if not 0 <= seat < self.players:
            raise ValueError(f"seat {seat}: the game has seats 0..{self.players - 1}")
        hands = []
        for s, hand in enumerate(self.hands):
            if s < len(self.pending):
                hand = sorted([*hand, self.pending[s]])
            hands.append(tuple(hand))
        prize = self.prize
        carried = tuple(self.pot)
        return SeatView(
            seat=seat,
            players=self.players,
            cards=self.options.cards,
            ties=self.options.ties,
            round=self.round,
            prize=prize,
            carried=carried,
            stake=(prize or 0) + sum(carried),
            prizes_left=tuple(sorted(self.setup.prizes[self.round + 1 :])),
            hand=hands[seat],
            hands=tuple(hands),
            scores=tuple(self.scores),
            history=tuple(self.history),
        )

    # -- the rules ------------------------------------------------------------------------

    def _resolve(self) -> None:
        """Reveal the bids: the single highest bid takes the stake; a tie discards it or
        carries it into the next round (after the last round, a carried pot is lost)."""
        prize = self.setup.prizes[self.round]
        stake_cards = [*self.pot, prize]
        stake = sum(stake_cards)
        bids = tuple(self.pending)
        top = max(bids)
        leaders = [s for s, b in enumerate(bids) if b == top]
        winner: int | None = None
        self.pot = []
        if len(leaders) == 1:
            winner = leaders[0]
            self.scores[winner] += stake
        elif self.options.ties == "carry":
            self.pot = stake_cards
        else:
            self.unclaimed += stake
        self.round += 1
        if self.done and self.pot:  # nothing left to bid for it
            self.unclaimed += sum(self.pot)
            self.pot = []
        self.pending = []
        self.history.append(RoundResult(prize, stake, bids, winner, tuple(self.scores)))


def describe_action(action: int) -> str:
    """An action in words: ``"bid 7"``."""
    return f"bid {action}"


def play_bids(
    setup: PrizeOrder,
    bids: Sequence[Sequence[int]],
    options: GoofspielOptions | None = None,
) -> GoofspielState:
    """The state after the rounds ``bids`` (one row per round, one bid per seat): a helper for
    hand-made positions."""
    state = GoofspielState(setup, len(bids[0]) if bids else DEFAULT_PLAYERS, 0, options)
    for row in bids:
        for card in row:
            state.step(card)
    return state


__all__ = [
    "DEFAULT_PLAYERS",
    "MAX_CARDS",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "OPTION_UNITS",
    "SETUP_SCHEMA",
    "TIES",
    "GoofspielOptions",
    "GoofspielState",
    "IllegalActionError",
    "InvariantError",
    "PrizeOrder",
    "PrizeOrderError",
    "RoundResult",
    "SeatView",
    "describe_action",
    "fair_order",
    "play_bids",
]
