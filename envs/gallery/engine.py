"""The Masters Gallery rules engine: a plain state machine over integer actions.

One concept in one file (about 800 lines): the rules of the game, every rules option included,
in one state machine.

One :class:`Game` holds the whole state of one game. ``legal_actions()`` lists the integer
actions (see :mod:`ludolab.envs.gallery.actions`) open to the seat that must act now
(``acting``), and ``step(action)`` applies one of them. The engine draws no random numbers:
every card comes from the :class:`~ludolab.envs.gallery.deal.Deal` (the shuffled deck) in a fixed
order, so a game is a pure function of (deal, the agents' choices); ``seed`` only seeds the agents
and is recorded.

Rules: Modern Art: Masters Gallery / Modern Art: The Card Game (Knizia), 2-5 players, as stated
in the repository's ``docs/rules/masters-gallery.md`` with its sources. A round: seat
``starter`` first, then clockwise (increasing seat), each seat displays one card from hand face
up in its gallery and carries out the card's symbol; a seat with no cards is skipped. The round
ends at once when an artist has ``end_count`` face-up cards this round (the extra card
included). Artists are ranked by cards this round (the extra card and revealed face-down cards
included), ties to the artist earlier in priority order (Lite Metal, Yoko, Christin P., Karl
Gitter, Krypto); the top three get value tokens 3, 2, 1. An artist's value this round is the sum
of all its tokens and awards so far if it is in this round's top three, else 0; each seat
scores, per artist, its cards of that artist this round x the value. Displayed cards (and the
extra card) are then discarded, hands carry over. After 4 rounds the highest total wins; equal
totals share the win (``winners``).

Sources. No public copy of the rulebook was found; the published rules are read from the rule
summaries at ultraboardgames.com/masters-gallery/game-rules.php, the 64 Ounce Games Modern Art
page (64-ounce-games.myshopify.com/pages/modern-art), CMON's "Art for Art's Sake" article
(cmon.com/news/art-for-art-s-sake) and reviews (rpg.net review 14315, stuartsstudy.blogspot.com
2016/10, superfred.de). The defaults follow them where they speak; every earlier reading is an
option, and where they leave a point open the table says "open":

==========================  ================================  ===============================
rule                        default (source)                  option
==========================  ================================  ===============================
symbols per artist          1 draw, 2 double, 1 award,        ``symbols`` (counts of draw,
                            1 face-down, 1 simultaneous:      double, award, face-down, simul.;
                            30 cards. Five kinds on "about    the earlier 1/1/1/0/0 is
                            a third of the cards" (rpg.net);  ``cards.OPEN_MODEL_SYMBOLS``)
                            counts per artist: open (see
                            ``cards``)
extra face-up card          one turned at setup (CMON, 64     ``extra_card``;
                            Ounce, ultraboardgames) and a     ``extra_card_each_round`` (False:
                            new one each round ("zu Beginn    only the one at setup, for round
                            einer jeden Runde", superfred.de; 1: the English pages describe
                            the English pages say nothing of  setup alone)
                            later rounds); counts for its
                            artist that round
round-end count             5 with 2 players, 6 with 3-5      ``end_count``
                            (ultraboardgames)
round-1 hand                13 cards (CMON, ultraboardgames)  ``hand_size``
later deals (rounds 2-4)    2p 6,6,3; 3p 6,6,0; 4p 4,4,0;     ``deals``
                            5p 2,2,0 (the open model; open)
rounds                      4                                 ``rounds``
value tokens by rank        3, 2, 1 (ultraboardgames)         ``rank_tokens``
artist with no card ranks   no                                ``rank_empty_artists``
award token value           2, counted from the round it      ``award_value``
                            is placed, permanently
award tokens in the game    5 (ultraboardgames; none left:    ``award_tokens``
                            no effect)
award goes on               an artist of the seat's choice    ``award_choice`` (False: the
                            (CMON)                            card's own artist)
double's second card        optional, same artist, face up;   ``second_card_effects``
                            its own symbol is carried out
closing card's symbol       draw / award still carried out;   ``closing_card_effects``
                            a double's second card is not
                            played once the round has ended
next round's first seat     left of the seat that ended the   ``next_round_start``
                            round                             ("left_of_closer" / "closer")
extra plays at round end    none (open: one summary says      —
                            players may add cards at the end
                            and calls the rule ambiguous)
tie for the most money      shared win (all in ``winners``)   —
==========================  ================================  ===============================

Documented choices (not options):

* Playing a card on one's turn is compulsory; a seat with an empty hand is skipped. If no seat
  holds a card, the round ends (scored as usual) and the next round starts left of the last
  seat that displayed a card (the same starter if nobody displayed any).
* The deck running out: draw-one draws nothing, deals give what is left (in seat order), no
  extra card is turned if none is left. Nothing crashes; the record counts missed draws.
* Face-down symbol: the seat may add a second card of any artist face down ("any second card,
  face down until the end of the round", nerdream.it); it does not count towards the round end
  (open: no source says), is revealed at
  the round end and then counts for ranking and scoring; its own symbol is ignored.
* Simultaneous symbol: after the card, every seat holding cards, starting with
  the active seat and going clockwise, picks one card of any artist (PLAY) or none (DECLINE)
  face down; the picks are then revealed together and displayed face up (their symbols are
  ignored). If that brings an artist to ``end_count``, the round ends, ended by the active seat.
  The seat that played the simultaneous card then ends its turn.

The engine checks every invariant after every action when ``options.debug`` is set.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from ludolab.envs.gallery import actions as A
from ludolab.envs.gallery.cards import (
    AWARD,
    DEFAULT_SYMBOLS,
    DOUBLE,
    DRAW,
    FACE_DOWN,
    N_ARTISTS,
    N_CARDS,
    N_SYMBOLS,
    N_TYPES,
    SIMULTANEOUS,
    SymbolsTable,
    card_types,
    type_counts,
    validate_symbols,
)
from ludolab.envs.gallery.deal import Deal
from ludolab.envs.rules import IllegalActionError, InvariantError, as_action, illegal_message

# Phases: what kind of decision is pending.
PLAY, SECOND, AWARD_CHOICE, SIMULTANEOUS_PLAY, GAME_OVER = range(5)
PHASE_NAMES = ("play", "second-card", "award-choice", "simultaneous-play", "game-over")

# Later deals (rounds 2, 3, 4) by player count (from the open MiniZinc model).
LATER_DEALS: dict[int, tuple[int, ...]] = {2: (6, 6, 3), 3: (6, 6, 0), 4: (4, 4, 0), 5: (2, 2, 0)}

_SECOND_DOUBLE, _SECOND_FACE_DOWN = 0, 1
NEXT_ROUND_STARTS = ("left_of_closer", "closer")

OPTION_UNITS: dict[str, str] = {
    "end_count": "cards",
    "hand_size": "cards",
    "rounds": "rounds",
    "award_value": "value points",
    "award_tokens": "tokens",
}
"""What each number option counts, for axis labels and tables (a sweep over a rule option)."""


@dataclass(frozen=True)
class GalleryOptions:
    """Rule options; every rule the sources leave uncertain (see the module docstring's table).

    Attributes:
        symbols: per artist (priority order), the number of cards with each symbol, as
            (draw, double, award, face-down, simultaneous); the remaining cards are plain.
        extra_card: turn one card face up from the deck at setup (the start of round 1); it
            counts for its artist that round (ranking and round end) and belongs to nobody.
        extra_card_each_round: with ``extra_card``, turn a new extra card at the start of
            every round (the default); False: only the one at setup.
        end_count: face-up cards of one artist that end the round at once; None for the
            default, 5 with 2 players and 6 with 3-5.
        hand_size: cards each seat gets in round 1.
        deals: cards each seat gets at the start of rounds 2.. (one entry per later round);
            None for the table by player count (2p 6,6,3; 3p 6,6,0; 4p 4,4,0; 5p 2,2,0).
        rounds: rounds in the game.
        rank_tokens: value tokens for the artists ranked 1st, 2nd, ... each round.
        rank_empty_artists: an artist with no card this round can still rank (after all
            artists with cards, in priority order).
        award_value: what an award token adds to its artist's value, from the round it is
            placed, for the rest of the game.
        award_tokens: award tokens in the game; an award card played when none is left does
            nothing.
        award_choice: the seat playing an award card chooses the artist (AWARD_TO), as
            published; False: the award goes on the card's own artist.
        second_card_effects: the second card of a double carries out its own symbol.
        closing_card_effects: a card that ends the round still draws / places its award.
        next_round_start: "left_of_closer" (the next round starts with the seat after the one
            who ended the round) or "closer".
        debug: check every invariant after every action (slow; for tests and debugging).
    """

    symbols: SymbolsTable = DEFAULT_SYMBOLS
    extra_card: bool = True
    extra_card_each_round: bool = True
    end_count: int | None = None
    hand_size: int = 13
    deals: tuple[int, ...] | None = None
    rounds: int = 4
    rank_tokens: tuple[int, ...] = (3, 2, 1)
    rank_empty_artists: bool = False
    award_value: int = 2
    award_tokens: int = 5
    award_choice: bool = True
    second_card_effects: bool = True
    closing_card_effects: bool = True
    next_round_start: str = "left_of_closer"
    debug: bool = False

    def __post_init__(self) -> None:
        try:
            object.__setattr__(self, "symbols", validate_symbols(self.symbols))
        except ValueError as exc:
            raise ValueError(f"GalleryOptions.{exc}") from None
        # 1 would let the extra face-up card alone end a round before anyone plays.
        if self.end_count is not None and not 2 <= self.end_count <= 21:
            raise ValueError(
                f"GalleryOptions.end_count must be 2..21 or None, got {self.end_count}"
            )
        if not 0 <= self.hand_size <= 19:
            raise ValueError(f"GalleryOptions.hand_size must be 0..19, got {self.hand_size}")
        if not 1 <= self.rounds <= 20:
            raise ValueError(f"GalleryOptions.rounds must be 1..20, got {self.rounds}")
        if self.deals is not None:
            deals = tuple(self.deals)
            object.__setattr__(self, "deals", deals)
            if len(deals) != self.rounds - 1 or any(
                not isinstance(k, int) or k < 0 for k in deals
            ):
                raise ValueError(
                    f"GalleryOptions.deals must give {self.rounds - 1} counts >= 0 "
                    f"(one per round after the first), got {self.deals}"
                )
        tokens = tuple(self.rank_tokens)
        object.__setattr__(self, "rank_tokens", tokens)
        if not 1 <= len(tokens) <= N_ARTISTS or any(
            not isinstance(k, int) or k < 0 for k in tokens
        ):
            raise ValueError(
                f"GalleryOptions.rank_tokens must be 1..5 values >= 0, got {self.rank_tokens}"
            )
        if self.award_value < 0 or self.award_tokens < 0:
            raise ValueError(
                f"GalleryOptions.award_value and award_tokens must be >= 0, got "
                f"{self.award_value}, {self.award_tokens}"
            )
        if self.next_round_start not in NEXT_ROUND_STARTS:
            raise ValueError(
                f"GalleryOptions.next_round_start must be one of {NEXT_ROUND_STARTS}, "
                f"got {self.next_round_start!r}"
            )

    def end_count_for(self, n_players: int) -> int:
        if self.end_count is not None:
            return self.end_count
        return 5 if n_players == 2 else 6

    def deals_for(self, n_players: int) -> tuple[int, ...]:
        """Cards dealt to each seat at the start of rounds 2.. (length rounds - 1)."""
        if self.deals is not None:
            return self.deals
        table = LATER_DEALS[n_players]
        k = self.rounds - 1
        return table[:k] + (0,) * max(0, k - len(table))


@dataclass
class RoundLog:
    """What happened in one finished round (the engine's trace; see GalleryRecord)."""

    starter: int
    closer: int | None  # the seat that ended it, None if it ended with no cards left
    turns: int
    exhibits: tuple[tuple[int, ...], ...]  # per seat, cards per artist (face-down included)
    extra: tuple[int, ...]  # extra face-up cards per artist
    awards: tuple[int, ...]  # award tokens placed per artist this round
    ranking: tuple[int, ...]  # ranked artists, best first
    values: tuple[int, ...]  # value paid per card of each artist (0 if unranked)
    scores: tuple[int, ...]  # per seat
    dealt: tuple[int, ...] = field(default=())  # cards dealt per seat at the round's start


def rank_artists(totals: list[int] | tuple[int, ...], n_ranked: int, rank_empty: bool) -> list[int]:
    """Artists ranked by cards (more first), ties to the earlier artist; at most ``n_ranked``."""
    order = sorted(range(N_ARTISTS), key=lambda a: (-totals[a], a))
    if not rank_empty:
        order = [a for a in order if totals[a] > 0]
    return order[:n_ranked]


class Game:
    """The state of one game and its rules.

    Seats are 0..n_players-1; seat 0 starts round 1. Public attributes may be read by agents
    and observers (agents should read only their own hand); only ``step`` changes them. Hands
    are lists of 30 counts, one per card type (``artist * 6 + symbol``).
    """

    game: ClassVar[str] = "gallery"
    """The game's registry name (``ludolab.games``): code holding a state finds its game by it."""

    def __init__(self, deal: Deal, seed: int = 0, options: GalleryOptions | None = None) -> None:
        self.deal = deal
        self.n_players = n = deal.n_players
        self.seed = seed
        self.options = o = options or GalleryOptions()
        self._debug = o.debug
        self.end_count = o.end_count_for(n)
        self.later_deals = o.deals_for(n)
        self.type_of = card_types(o.symbols)
        self.type_total = type_counts(o.symbols)
        self._live_types = tuple(t for t in range(N_TYPES) if self.type_total[t])
        self._artist_types = tuple(
            tuple(t for t in self._live_types if t // N_SYMBOLS == a) for a in range(N_ARTISTS)
        )

        # Cards. The pile is drawn from the end: pile[-1] is the top card.
        self.pile = list(reversed(deal.order))
        self.hands = [[0] * N_TYPES for _ in range(n)]
        self.hand_size = [0] * n
        # This round: face-up cards per seat and artist, face-down cards, cards per artist on
        # the table (face up, extra card included), and per type (for the card count).
        self.exhibit = [[0] * N_ARTISTS for _ in range(n)]
        self.face_down_types = [[0] * N_TYPES for _ in range(n)]  # own face-down cards, by type
        self.artist_count = [0] * N_ARTISTS
        self.extra_count = [0] * N_ARTISTS
        self._table_types = [0] * N_TYPES  # displayed, face-down, extra and pending this round
        self.discarded = [0] * N_TYPES

        # Tokens and money.
        self.tokens = [0] * N_ARTISTS  # value tokens on each artist (sum of values)
        self.awards = [0] * N_ARTISTS  # award tokens on each artist
        self.awards_left = o.award_tokens
        self._round_awards = [0] * N_ARTISTS
        self.scores = [0] * n

        # Turn state.
        self.round = 0  # 0-based
        self.phase = PLAY
        self.current = 0  # whose turn it is
        self.acting = 0  # who must decide now
        self.starter = 0
        self.turns = 0  # turns this round
        self.n_actions = 0
        self.winners: tuple[int, ...] = ()
        self._last_player = -1
        self._second_kind = _SECOND_DOUBLE
        self._second_artist = 0
        self._award_closes = False  # the award being chosen came from the round's last card
        self._simul_queue: list[int] = []
        self._simul_pending: list[tuple[int, int]] = []
        self._legal: list[int] | None = None

        # Traces for the record.
        self.rounds_log: list[RoundLog] = []
        self.drawn = [0] * n
        self.missed_draws = 0
        self.dealt = [0] * n
        self._dealt_this_round: tuple[int, ...] = ()
        self.deck_ran_out = False

        self._begin_round(0)
        if self._debug:
            self.check_invariants()

    # ------------------------------------------------------------------ queries

    @property
    def done(self) -> bool:
        return self.phase == GAME_OVER

    def clone(self) -> Game:
        """An independent copy: stepping it never changes this game (a search agent's
        playouts run on copies)."""
        copy = object.__new__(Game)
        for key, value in vars(self).items():
            if type(value) is list:
                value = [item.copy() if type(item) is list else item for item in value]
            setattr(copy, key, value)
        return copy

    @property
    def winner(self) -> int | None:
        """The single winning seat, or None while playing or when the win is shared."""
        return self.winners[0] if len(self.winners) == 1 else None

    @property
    def deck_size(self) -> int:
        return len(self.pile)

    # Read-only views of the pending decision, for observers (the observation encoder).

    @property
    def second_card(self) -> tuple[str, int] | None:
        """In phase SECOND: ("double", its artist) or ("face-down", -1); else None."""
        if self.phase != SECOND:
            return None
        if self._second_kind == _SECOND_DOUBLE:
            return ("double", self._second_artist)
        return ("face-down", -1)

    @property
    def award_closes_round(self) -> bool:
        """In phase AWARD_CHOICE: whether the award came with the round's last card."""
        return self.phase == AWARD_CHOICE and bool(self._award_closes)

    @property
    def simultaneous_picks(self) -> tuple[tuple[int, int], ...]:
        """Hidden (seat, card type) picks of a simultaneous play so far. Secret: an observer
        must show each seat only its own pick (the picked cards have left the hands)."""
        return tuple(self._simul_pending) if self.phase == SIMULTANEOUS_PLAY else ()

    @property
    def face_down(self) -> list[list[int]]:
        """Each seat's face-down cards this round per artist, shape (n_players, 5): a new list
        read from ``face_down_types`` (changing it changes nothing)."""
        return [self.face_down_of(q) for q in range(self.n_players)]

    def face_down_of(self, seat: int) -> list[int]:
        """``seat``'s face-down cards this round per artist, shape (5,) (a row of
        :attr:`face_down`, without reading the other seats')."""
        types = self.face_down_types[seat]
        if not any(types):  # most of the time (read at every greedy decision)
            return [0] * N_ARTISTS
        return [sum(types[a * N_SYMBOLS : (a + 1) * N_SYMBOLS]) for a in range(N_ARTISTS)]

    @property
    def face_up_types(self) -> list[int]:
        """Cards face up on the table this round (the extra card included), per card type:
        what every seat can see. Face-down cards and hidden simultaneous picks are not in it."""
        table = list(self._table_types)
        for q in range(self.n_players):
            for t, k in enumerate(self.face_down_types[q]):
                table[t] -= k
        for _, t in self.simultaneous_picks:
            table[t] -= 1
        return table

    def forced_action(self) -> int:
        """-1: every choice a Masters Gallery seat is asked to make is a decision (the faces
        ask the Catan engine the same question, see its ``forced_action``)."""
        return -1

    def legal_actions(self) -> list[int]:
        """The legal actions for seat ``acting``, in increasing index order. Do not mutate."""
        if self._legal is None:
            self._legal = self._compute_legal()
        return self._legal

    def action_mask(self) -> list[bool]:
        """A boolean per action index, True where legal; length ``actions.N_ACTIONS``."""
        mask = [False] * A.N_ACTIONS
        for a in self.legal_actions():
            mask[a] = True
        return mask

    def _compute_legal(self) -> list[int]:
        phase = self.phase
        hand = self.hands[self.acting]
        if phase == PLAY:
            return [t for t in self._live_types if hand[t]]  # PLAY == 0
        if phase == SECOND:
            types = (
                self._artist_types[self._second_artist]
                if self._second_kind == _SECOND_DOUBLE
                else self._live_types
            )
            return [A.SECOND + t for t in types if hand[t]] + [A.DECLINE]
        if phase == SIMULTANEOUS_PLAY:
            return [t for t in self._live_types if hand[t]] + [A.DECLINE]
        if phase == AWARD_CHOICE:
            return [A.AWARD_TO + a for a in range(N_ARTISTS)]
        return []

    # ------------------------------------------------------------------ applying actions

    def step(self, action: int) -> None:
        """Apply ``action`` for seat ``acting``. Raises :class:`IllegalActionError` if illegal."""
        if type(action) is not int:
            action = as_action(action, A.N_ACTIONS)
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        if action not in legal:
            raise IllegalActionError(self._illegal_message(action))
        self._legal = None
        self.n_actions += 1
        p = self.acting
        phase = self.phase
        if phase == PLAY:
            self.turns += 1
            self._play(p, action, True)
        elif phase == SECOND:
            if action == A.DECLINE:
                self._next_turn()
            elif self._second_kind == _SECOND_DOUBLE:
                self._play(p, action - A.SECOND, self.options.second_card_effects)
            else:
                t = action - A.SECOND
                self.hands[p][t] -= 1
                self.hand_size[p] -= 1
                self.face_down_types[p][t] += 1
                self._table_types[t] += 1
                self._next_turn()
        elif phase == SIMULTANEOUS_PLAY:
            self._simultaneous_pick(p, action)
        elif phase == AWARD_CHOICE:
            self._place_award(action - A.AWARD_TO)
            if self._award_closes:
                self._end_round(self.current)
            else:
                self._next_turn()
        if self._debug:
            self.check_invariants()

    def _illegal_message(self, action: int) -> str:
        over = self.phase == GAME_OVER
        legal = [] if over else self.legal_actions()
        phase = f"{PHASE_NAMES[self.phase]} (round {self.round + 1})"
        return illegal_message(action, A.describe, legal, self.acting, phase, over)

    def _play(self, p: int, t: int, effects: bool) -> None:
        """Display card type ``t`` face up for seat ``p`` and carry out its symbol."""
        hand = self.hands[p]
        hand[t] -= 1
        self.hand_size[p] -= 1
        a, symbol = divmod(t, N_SYMBOLS)
        self.exhibit[p][a] += 1
        self.artist_count[a] += 1
        self._table_types[t] += 1
        self._last_player = p
        if not effects:
            symbol = 0
        if self.artist_count[a] >= self.end_count:
            if self.options.closing_card_effects:
                if symbol == DRAW:
                    self._draw(p)
                elif symbol == AWARD and self.awards_left:
                    if self.options.award_choice:
                        self._ask_award(p, closes=True)
                        return
                    self._place_award(a)
            self._end_round(p)
            return
        if symbol == DRAW:
            self._draw(p)
        elif symbol == AWARD:
            if self.awards_left:
                if self.options.award_choice:
                    self._ask_award(p, closes=False)
                    return
                self._place_award(a)
        elif symbol == DOUBLE:
            if any(hand[u] for u in self._artist_types[a]):
                self.phase = SECOND
                self._second_kind = _SECOND_DOUBLE
                self._second_artist = a
                return
        elif symbol == FACE_DOWN:
            if self.hand_size[p]:
                self.phase = SECOND
                self._second_kind = _SECOND_FACE_DOWN
                return
        elif symbol == SIMULTANEOUS:
            n = self.n_players
            queue = [q for q in ((p + i) % n for i in range(n)) if self.hand_size[q]]
            if queue:
                self._simul_queue = queue
                self._simul_pending = []
                self.phase = SIMULTANEOUS_PLAY
                self.acting = queue[0]
                return
        self._next_turn()

    def _ask_award(self, p: int, closes: bool) -> None:
        self.phase = AWARD_CHOICE
        self.acting = p
        self._award_closes = closes

    def _place_award(self, a: int) -> None:
        self.awards[a] += 1
        self._round_awards[a] += 1
        self.awards_left -= 1

    def _draw(self, p: int) -> None:
        if self.pile:
            t = self.type_of[self.pile.pop()]
            self.hands[p][t] += 1
            self.hand_size[p] += 1
            self.drawn[p] += 1
        else:
            self.missed_draws += 1
            self.deck_ran_out = True

    def _simultaneous_pick(self, q: int, action: int) -> None:
        if action != A.DECLINE:
            self.hands[q][action] -= 1
            self.hand_size[q] -= 1
            self._table_types[action] += 1  # face down until revealed
            self._simul_pending.append((q, action))
        queue = self._simul_queue
        queue.pop(0)
        if queue:
            self.acting = queue[0]
            return
        # Reveal: every pick is displayed face up at once; symbols are ignored.
        closed = False
        for seat, t in self._simul_pending:
            a = t // N_SYMBOLS
            self.exhibit[seat][a] += 1
            self.artist_count[a] += 1
            self._last_player = seat
            if self.artist_count[a] >= self.end_count:
                closed = True
        self._simul_pending = []
        if closed:
            self._end_round(self.current)
        else:
            self._next_turn()

    def _next_turn(self) -> None:
        """End the current turn: the next seat clockwise holding cards plays."""
        n = self.n_players
        sizes = self.hand_size
        p = self.current
        for _ in range(n):
            p += 1
            if p == n:
                p = 0
            if sizes[p]:
                self.phase = PLAY
                self.current = self.acting = p
                return
        self._end_round(None)

    # ------------------------------------------------------------------ rounds

    def _deal_cards(self, k: int) -> None:
        """Give each seat, in seat order, ``k`` cards from the top of the pile."""
        pile, type_of = self.pile, self.type_of
        dealt = []
        for q in range(self.n_players):
            hand = self.hands[q]
            got = min(k, len(pile))
            for _ in range(got):
                hand[type_of[pile.pop()]] += 1
            self.hand_size[q] += got
            self.dealt[q] += got
            dealt.append(got)
            if got < k:
                self.deck_ran_out = True
        self._dealt_this_round = tuple(dealt)

    def _begin_round(self, starter: int) -> None:
        k = self.options.hand_size if self.round == 0 else self.later_deals[self.round - 1]
        self._deal_cards(k)
        o = self.options
        if o.extra_card and (self.round == 0 or o.extra_card_each_round):
            if self.pile:
                t = self.type_of[self.pile.pop()]
                a = t // N_SYMBOLS
                self.extra_count[a] += 1
                self.artist_count[a] += 1
                self._table_types[t] += 1
            else:
                self.deck_ran_out = True
        self.starter = starter
        self.turns = 0
        self.current = starter - 1  # so that _next_turn starts with ``starter``
        if self.current < 0:
            self.current = self.n_players - 1
        self._last_player = -1
        self._next_turn()  # ends the round at once if no seat holds a card

    def _end_round(self, closer: int | None) -> None:
        n, o = self.n_players, self.options
        face_down = self.face_down
        exhibits = tuple(
            tuple(self.exhibit[q][a] + face_down[q][a] for a in range(N_ARTISTS))
            for q in range(n)
        )
        totals = [
            self.extra_count[a] + sum(exhibits[q][a] for q in range(n)) for a in range(N_ARTISTS)
        ]
        ranking = rank_artists(totals, len(o.rank_tokens), o.rank_empty_artists)
        values = [0] * N_ARTISTS
        for i, a in enumerate(ranking):
            self.tokens[a] += o.rank_tokens[i]
        for a in ranking:
            values[a] = self.tokens[a] + o.award_value * self.awards[a]
        scores = tuple(sum(exhibits[q][a] * values[a] for a in range(N_ARTISTS)) for q in range(n))
        for q in range(n):
            self.scores[q] += scores[q]
        self.rounds_log.append(
            RoundLog(
                starter=self.starter,
                closer=closer,
                turns=self.turns,
                exhibits=exhibits,
                extra=tuple(self.extra_count),
                awards=tuple(self._round_awards),
                ranking=tuple(ranking),
                values=tuple(values),
                scores=scores,
                dealt=self._dealt_this_round,
            )
        )
        # Discard everything on the table.
        discarded, table = self.discarded, self._table_types
        for t in range(N_TYPES):
            discarded[t] += table[t]
            table[t] = 0
        for q in range(n):
            self.exhibit[q] = [0] * N_ARTISTS
            self.face_down_types[q] = [0] * N_TYPES
        self.artist_count = [0] * N_ARTISTS
        self.extra_count = [0] * N_ARTISTS
        self._round_awards = [0] * N_ARTISTS

        if closer is not None:
            nxt = (closer + 1) % n if o.next_round_start == "left_of_closer" else closer
        elif self._last_player >= 0:
            nxt = (self._last_player + 1) % n
        else:
            nxt = self.starter
        self.round += 1
        if self.round >= o.rounds:
            self.phase = GAME_OVER
            best = max(self.scores)
            self.winners = tuple(q for q in range(n) if self.scores[q] == best)
            return
        self._begin_round(nxt)

    # ------------------------------------------------------------------ checking

    def check_invariants(self) -> None:
        """Raise :class:`InvariantError` if a conservation law or cached value is off."""
        n = self.n_players
        problems = []
        face_down = self.face_down
        # Every card is somewhere: deck + hands + on the table this round + discarded.
        in_pile = [0] * N_TYPES
        for c in self.pile:
            in_pile[self.type_of[c]] += 1
        total = 0
        for t in range(N_TYPES):
            held = sum(self.hands[q][t] for q in range(n))
            k = in_pile[t] + held + self._table_types[t] + self.discarded[t]
            total += k
            if k != self.type_total[t] or min(self.hands[q][t] for q in range(n)) < 0:
                problems.append(f"card type {t}: {k} accounted for, deck has {self.type_total[t]}")
        if total != N_CARDS:
            problems.append(f"{total} cards accounted for, not {N_CARDS}")
        if len(set(self.pile)) != len(self.pile):
            problems.append("a card id is twice in the pile")
        for q in range(n):
            if sum(self.hands[q]) != self.hand_size[q]:
                problems.append(f"seat {q}: hand {sum(self.hands[q])} vs size {self.hand_size[q]}")
        # The table this round, per artist.
        for a in range(N_ARTISTS):
            face_up = self.extra_count[a] + sum(self.exhibit[q][a] for q in range(n))
            pending = sum(1 for _, t in self._simul_pending if t // N_SYMBOLS == a)
            on_table = sum(
                self._table_types[t] for t in range(a * N_SYMBOLS, (a + 1) * N_SYMBOLS)
            )
            hidden = sum(face_down[q][a] for q in range(n))
            if face_up != self.artist_count[a]:
                problems.append(f"artist {a}: count {self.artist_count[a]}, table {face_up}")
            if on_table != face_up + hidden + pending:
                problems.append(f"artist {a}: {on_table} cards by type, {face_up + hidden} shown")
            closing = self.phase == AWARD_CHOICE and self._award_closes
            if self.phase != GAME_OVER and not closing and self.artist_count[a] >= self.end_count:
                problems.append(f"artist {a}: {self.artist_count[a]} cards, the round goes on")
        # Tokens and money: the scores are the sum of the rounds, recomputed from the logs.
        o = self.options
        if sum(self.awards) + self.awards_left != o.award_tokens or self.awards_left < 0:
            problems.append(f"awards {self.awards} + left {self.awards_left} != {o.award_tokens}")
        tokens, awards, totals_by_seat = [0] * N_ARTISTS, [0] * N_ARTISTS, [0] * n
        for r, log in enumerate(self.rounds_log):
            counts = [
                log.extra[a] + sum(log.exhibits[q][a] for q in range(n)) for a in range(N_ARTISTS)
            ]
            ranking = rank_artists(counts, len(o.rank_tokens), o.rank_empty_artists)
            if tuple(ranking) != log.ranking:
                problems.append(f"round {r + 1}: ranking {log.ranking}, recomputed {ranking}")
            for i, a in enumerate(ranking):
                tokens[a] += o.rank_tokens[i]
            for a in range(N_ARTISTS):
                awards[a] += log.awards[a]
            values = tuple(
                tokens[a] + o.award_value * awards[a] if a in ranking else 0
                for a in range(N_ARTISTS)
            )
            if values != log.values:
                problems.append(f"round {r + 1}: values {log.values}, recomputed {values}")
            for q in range(n):
                s = sum(log.exhibits[q][a] * values[a] for a in range(N_ARTISTS))
                if s != log.scores[q]:
                    problems.append(f"round {r + 1} seat {q}: score {log.scores[q]} vs {s}")
                totals_by_seat[q] += s
        if totals_by_seat != self.scores:
            problems.append(f"scores {self.scores}, rounds sum to {totals_by_seat}")
        if tokens != self.tokens:
            problems.append(f"tokens {self.tokens}, rounds sum to {tokens}")
        if [a + b for a, b in zip(awards, self._round_awards, strict=True)] != self.awards:
            problems.append(f"awards {self.awards} disagree with the rounds")
        # Turn state.
        if self.phase == PLAY and not self.hand_size[self.acting]:
            problems.append(f"seat {self.acting} must play but holds no card")
        if self.phase == GAME_OVER and len(self.rounds_log) != o.rounds:
            problems.append(f"game over after {len(self.rounds_log)} rounds")
        legal = self._compute_legal()
        if not legal and self.phase != GAME_OVER:
            problems.append(f"no legal action in phase {PHASE_NAMES[self.phase]}")
        if legal != sorted(set(legal)):
            problems.append(f"legal actions not in strictly increasing order: {legal}")
        if problems:
            raise InvariantError(
                f"deal {self.deal.id}, seed {self.seed}, after {self.n_actions} actions: "
                + "; ".join(problems)
            )
