"""Scripted Masters Gallery agents: ``greedy`` (one-ply evaluation) and ``leader`` (follow the
artist that leads this round).

Both read only what their seat could see at the table: their own hand (and own face-down
cards), every face-up card displayed this round (the extra card included), value tokens,
awards, scores, hand sizes and the size of the deck. They never copy or change the game.

**greedy** evaluates every legal decision one ply deep by the *round balance* it leaves: its
own expected money from the cards displayed this round minus the best opponent's, where an
artist's expected value per card is

    P(artist ranks) x (accumulated tokens + awards + the rank token it is heading for),

``P`` being a logistic function of the artist's lead over the first artist outside the top
three (ties count for the earlier artist), sharper as the round nears its end (fewer cards to
go for the leading artist). A play that ends the round is scored exactly (the ranking is then
known), so the agent ends the round when that leaves it ahead and keeps it going when it
would lose the round. On top of the balance:

* a draw-one card is worth ``card_value`` (one more card in hand) while the deck lasts, so
  draws go out early;
* a double's second card (same artist) is chosen, or declined, by the same evaluation; the
  card it spends costs ``card_value`` before the last round;
* an award token is counted on its artist (value ``award_value`` per card, for everybody), so
  it is played on an artist that will rank and where the seat has more cards than the others;
* double and award cards cost ``symbol_hold`` when played, so that they are kept back until
  their effect pays that much, and plain cards go first when the choice is otherwise equal.

**leader** is the simple heuristic: play a card of the artist with the most cards displayed
this round among those it holds (ties: the higher accumulated value, then priority order);
among that artist's cards a draw-one first, then a plain card, then a double, then an award.
It always plays a double's second card, puts an award (when it chooses) on the artist with
the most cards displayed, and plays face-down / simultaneous cards the same way.

Both handle every rules option of :class:`~ludolab.envs.gallery.engine.GalleryOptions` (award
choice, face-down and simultaneous symbols included).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ludolab.envs.agents import spec_string
from ludolab.envs.gallery import actions as A
from ludolab.envs.gallery.agents.base import Agent
from ludolab.envs.gallery.cards import AWARD, DOUBLE, DRAW, N_ARTISTS, N_SYMBOLS, PLAIN
from ludolab.envs.gallery.engine import AWARD_CHOICE, PLAY, SECOND, SIMULTANEOUS_PLAY

if TYPE_CHECKING:
    from ludolab.envs.gallery.engine import Game

_ARTISTS = range(N_ARTISTS)


def _ranking(counts: Sequence[float], n_ranked: int, rank_empty: bool) -> list[int]:
    """Artists ranked by cards (more first), ties to the earlier artist; at most ``n_ranked``."""
    order = sorted(_ARTISTS, key=lambda a: (-counts[a], a))
    if not rank_empty:
        order = [a for a in order if counts[a] > 0]
    return order[:n_ranked]


class GreedyAgent(Agent):
    """One-ply evaluation of the round balance; see the module docstring.

    Parameters:
        sharpness: how sure the agent is that an artist keeps its place, per card of lead
            (the logistic's slope when the leading artist is one card from ending the round;
            it falls with the square root of the cards still to go). Must be > 0.
        card_value: what one more card in hand is worth, in money: a draw-one's bonus (while
            the deck has cards) and the cost of a double's second card before the last round.
        symbol_hold: the cost of playing a double or award card (so that they are kept for a
            moment when their effect pays at least this much). 0 plays them like plain cards.
        opponents: whose money the agent plays against: ``"max"`` (the best opponent's round
            money) or ``"mean"`` (the opponents' average).
    """

    name = "greedy"
    _DEFAULTS = {"sharpness": 2.0, "card_value": 2.0, "symbol_hold": 1.0, "opponents": "max"}

    def __init__(
        self,
        sharpness: float = 2.0,
        card_value: float = 2.0,
        symbol_hold: float = 1.0,
        opponents: str = "max",
    ) -> None:
        super().__init__()
        for key, value in (
            ("sharpness", sharpness),
            ("card_value", card_value),
            ("symbol_hold", symbol_hold),
        ):
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise ValueError(f"{key} must be a number, got {value!r}")
        if not sharpness > 0:
            raise ValueError(f"sharpness must be > 0, got {sharpness!r}")
        if opponents not in ("max", "mean"):
            raise ValueError(f"opponents must be 'max' or 'mean', got {opponents!r}")
        self.sharpness = float(sharpness)
        self.card_value = float(card_value)
        self.symbol_hold = float(symbol_hold)
        self.opponents = opponents

    @property
    def spec(self) -> str:
        return spec_string(self.name, self._parameters(), self._DEFAULTS)

    def _parameters(self) -> dict[str, object]:
        """The parameters a spec records, by name (a subclass may add its own)."""
        return {
            "sharpness": self.sharpness,
            "card_value": self.card_value,
            "symbol_hold": self.symbol_hold,
            "opponents": self.opponents,
        }

    # ------------------------------------------------------------------ the position

    def _read(self, game: Game) -> None:
        """What this decision needs from the table (public information and own hand only)."""
        o = game.options
        me = self.seat
        self._n_ranked = len(o.rank_tokens)
        self._rank_tokens = o.rank_tokens
        self._rank_empty = o.rank_empty_artists
        self._award_value = o.award_value
        self._end = game.end_count
        self._last_round = game.round >= o.rounds - 1
        self._deck = len(game.pile)
        self._awards_left = game.awards_left
        self._award_choice = o.award_choice
        self._closing_effects = o.closing_card_effects
        self._second_effects = o.second_card_effects
        own_down = game.face_down_of(me)
        self._mine = [game.exhibit[me][a] + own_down[a] for a in _ARTISTS]
        # Ranking counts: face-up cards (extra included) and the seat's own face-down cards
        # (the opponents' face-down cards are unknown).
        self._counts = [game.artist_count[a] + own_down[a] for a in _ARTISTS]
        self._face_up = list(game.artist_count)
        self._opp = [game.exhibit[q] for q in range(game.n_players) if q != me]
        self._base = [game.tokens[a] + o.award_value * game.awards[a] for a in _ARTISTS]
        # The balances of this decision by their inputs: cards of one artist with different
        # symbols lead to the same position, and a search's play-outs ask for them again and
        # again (the same numbers, computed once).
        self._balances: dict[tuple[tuple[int, ...], ...], float] = {}

    def _balance(
        self, counts: list[int], face_up: list[int], mine: list[int], base: list[int]
    ) -> float:
        """Own expected round money minus the opponents' (best or mean), with the round going on
        (``counts`` below the end count), or exactly if an artist has reached it."""
        key = (tuple(counts), tuple(face_up), tuple(mine), tuple(base))
        value = self._balances.get(key)
        if value is None:
            value = self._balances[key] = self._compute_balance(counts, face_up, mine, base)
        return value

    def _compute_balance(
        self, counts: list[int], face_up: list[int], mine: list[int], base: list[int]
    ) -> float:
        """:meth:`_balance`, computed."""
        end = self._end
        if max(face_up) >= end:
            ranking = _ranking(counts, self._n_ranked, self._rank_empty)
            value = [0.0] * N_ARTISTS
            for i, a in enumerate(ranking):
                value[a] = base[a] + self._rank_tokens[i]
        else:
            value = self._expected_values(counts, face_up, base)
        own = 0.0
        for a in _ARTISTS:
            if mine[a]:
                own += mine[a] * value[a]
        if not self._opp:
            return own
        others = [sum(ex[a] * value[a] for a in _ARTISTS if ex[a]) for ex in self._opp]
        other = max(others) if self.opponents == "max" else sum(others) / len(others)
        return own - other

    def _expected_values(
        self, counts: list[int], face_up: list[int], base: list[int]
    ) -> list[float]:
        """Per artist: P(it ranks) x (its value if it keeps the place it holds now)."""
        k = self._n_ranked
        tokens = self._rank_tokens
        order = sorted(_ARTISTS, key=lambda a: (-counts[a], a))
        to_go = max(1, self._end - max(face_up))
        slope = self.sharpness / math.sqrt(to_go)
        value = [0.0] * N_ARTISTS
        for i, a in enumerate(order):
            if counts[a] == 0 and not self._rank_empty:
                continue  # no card yet: it pays nobody
            if k >= N_ARTISTS:
                p = 1.0
                token = tokens[i]
            elif i < k:
                ref = order[k]
                margin = counts[a] - counts[ref] + 0.5
                p = 1.0 / (1.0 + math.exp(-slope * margin))
                token = tokens[i]
            else:
                ref = order[k - 1]
                margin = counts[a] - counts[ref] - 0.5
                p = 1.0 / (1.0 + math.exp(-slope * margin))
                token = tokens[k - 1]
            value[a] = p * (base[a] + token)
        return value

    def _after(
        self,
        t: int,
        counts: list[int],
        face_up: list[int],
        mine: list[int],
        base: list[int],
        effects: bool,
        hand: list[int] | None,
        depth: int,
    ) -> float:
        """The value of displaying card type ``t`` face up now (its symbol carried out if
        ``effects``), counting a double's best second card when ``hand`` is given."""
        a, symbol = divmod(t, N_SYMBOLS)
        counts = counts.copy()
        face_up = face_up.copy()
        mine = mine.copy()
        counts[a] += 1
        face_up[a] += 1
        mine[a] += 1
        closes = face_up[a] >= self._end
        bonus = 0.0
        if symbol in (DOUBLE, AWARD):
            bonus -= self.symbol_hold
        if effects and (not closes or self._closing_effects):
            if symbol == DRAW and self._deck > 0:
                bonus += self.card_value
            elif symbol == AWARD and self._awards_left > 0:
                return bonus + self._best_award(a, counts, face_up, mine, base)
        value = self._balance(counts, face_up, mine, base)
        if effects and symbol == DOUBLE and not closes and hand is not None and depth == 0:
            hand = hand.copy()
            hand[t] -= 1
            cost = 0.0 if self._last_round else self.card_value
            for u in range(a * N_SYMBOLS, (a + 1) * N_SYMBOLS):
                if hand[u]:
                    second = (
                        self._after(u, counts, face_up, mine, base, self._second_effects, None, 1)
                        - cost
                    )
                    if second > value:
                        value = second
        return bonus + value

    def _best_award(
        self, a: int, counts: list[int], face_up: list[int], mine: list[int], base: list[int]
    ) -> float:
        """The balance after placing an award (on ``a``, or the best artist when the seat
        chooses)."""
        targets = _ARTISTS if self._award_choice else (a,)
        best = -math.inf
        for b in targets:
            placed = base.copy()
            placed[b] += self._award_value
            best = max(best, self._balance(counts, face_up, mine, placed))
        return best

    # ------------------------------------------------------------------ decisions

    def act(self, game: Game, legal: Sequence[int]) -> int:
        if len(legal) == 1:
            return legal[0]
        self._read(game)
        phase = game.phase
        hand = game.hands[self.seat]
        counts, face_up, mine, base = self._counts, self._face_up, self._mine, self._base
        best, best_value = legal[0], -math.inf
        if phase == PLAY:
            for t in legal:
                v = self._play_value(t, hand)
                if v > best_value:
                    best, best_value = t, v
            return best
        if phase == SECOND:
            if self._after_double(game):  # a second face-up card of the same artist
                cost = 0.0 if self._last_round else self.card_value
                best, best_value = A.DECLINE, self._balance(counts, face_up, mine, base)
                for action in legal:
                    if action == A.DECLINE:
                        continue
                    v = (
                        self._after(
                            action - A.SECOND,
                            counts,
                            face_up,
                            mine,
                            base,
                            self._second_effects,
                            None,
                            1,
                        )
                        - cost
                    )
                    if v > best_value:
                        best, best_value = action, v
                return best
            return self._face_down(legal, counts, face_up, mine, base)
        if phase == AWARD_CHOICE:
            for action in legal:
                b = action - A.AWARD_TO
                placed = base.copy()
                placed[b] += self._award_value
                v = self._balance(counts, face_up, mine, placed)
                if v > best_value:
                    best, best_value = action, v
            return best
        if phase == SIMULTANEOUS_PLAY:
            # A face-down pick, revealed with the others: no symbol; declining keeps the card.
            cost = 0.0 if self._last_round else self.card_value
            best, best_value = A.DECLINE, self._balance(counts, face_up, mine, base)
            for action in legal:
                if action == A.DECLINE:
                    continue
                v = self._after(action, counts, face_up, mine, base, False, None, 1) - cost
                if v > best_value:
                    best, best_value = action, v
            return best
        return legal[0]

    def _play_value(self, t: int, hand: list[int]) -> float:
        """The value of playing a card of type ``t`` from ``hand`` now, its symbol carried
        out (after :meth:`_read` of the position)."""
        return self._after(t, self._counts, self._face_up, self._mine, self._base, True, hand, 0)

    @staticmethod
    def _after_double(game: Game) -> bool:
        """Whether the pending second card follows a double (else a face-down symbol)."""
        second = game.second_card
        return second is not None and second[0] == "double"

    def _face_down(
        self,
        legal: Sequence[int],
        counts: list[int],
        face_up: list[int],
        mine: list[int],
        base: list[int],
    ) -> int:
        """A face-down second card: counts for ranking and money at the round end, not for
        ending it; its symbol is ignored."""
        cost = 0.0 if self._last_round else self.card_value
        best, best_value = A.DECLINE, self._balance(counts, face_up, mine, base)
        for action in legal:
            if action == A.DECLINE:
                continue
            a = (action - A.SECOND) // N_SYMBOLS
            c2, m2 = counts.copy(), mine.copy()
            c2[a] += 1
            m2[a] += 1
            v = self._balance(c2, face_up, m2, base) - cost
            if v > best_value:
                best, best_value = action, v
        return best


# Within the chosen artist, the leader plays a draw-one first, then plain, double, award.
_LEADER_SYMBOL_ORDER = (DRAW, PLAIN, DOUBLE, AWARD)


class LeaderAgent(Agent):
    """Follows the artist leading this round; see the module docstring. No parameters."""

    name = "leader"

    def _key(self, game: Game, a: int) -> tuple[int, int, int]:
        value = game.tokens[a] + game.options.award_value * game.awards[a]
        return (game.artist_count[a], value, -a)

    def _pick(self, game: Game, types: Sequence[int]) -> int:
        """The card type of the leading artist among ``types``, by the symbol order."""
        best_a = max({t // N_SYMBOLS for t in types}, key=lambda a: self._key(game, a))
        own = [t for t in types if t // N_SYMBOLS == best_a]
        for symbol in _LEADER_SYMBOL_ORDER:
            for t in own:
                if t % N_SYMBOLS == symbol:
                    return t
        return own[0]

    def act(self, game: Game, legal: Sequence[int]) -> int:
        if len(legal) == 1:
            return legal[0]
        phase = game.phase
        if phase == PLAY:
            return self._pick(game, legal)
        if phase in (SECOND, SIMULTANEOUS_PLAY):
            offset = A.SECOND if phase == SECOND else A.PLAY
            cards = [x - offset for x in legal if x != A.DECLINE]
            return self._pick(game, cards) + offset if cards else A.DECLINE
        if phase == AWARD_CHOICE:
            best = max(range(N_ARTISTS), key=lambda a: self._key(game, a))
            return A.AWARD_TO + best
        return legal[0]


__all__ = ["GreedyAgent", "LeaderAgent"]
