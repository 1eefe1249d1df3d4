"""An exhibit model's answer as a concrete game (GamePlan: the deal, every play in turn order, the
deck) and the plan's replay by a small sequential implementation of the rules (validate_plan)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from ludolab.envs.gallery.cards import (
    ARTISTS,
    AWARD,
    DEFAULT_SYMBOLS,
    DOUBLE,
    DRAW,
    N_CARDS,
    PLAIN,
    SymbolsTable,
    card_type,
    card_types,
    type_artist,
    type_name,
    type_symbol,
)
from ludolab.research.gallery.exhibit_rules import (
    AWARD_TOKENS,
    N_ARTISTS,
    N_ROUNDS,
    ExhibitRules,
    ExhibitSolution,
    RoundExhibit,
    rank_tokens,
)


@dataclass(frozen=True)
class Play:
    """One turn: ``player`` displays ``card`` (an id 0..94); ``second`` is a double's second
    card (same artist) or None; ``award_to`` the artist that gets the award token when ``card``
    is an award card (None otherwise); ``draws`` the card drawn when ``card`` is a draw-one;
    ``symbols`` the symbols table that gives the cards their types."""

    player: int
    card: int
    second: int | None = None
    award_to: int | None = None
    draws: int | None = None
    symbols: SymbolsTable = DEFAULT_SYMBOLS

    @property
    def card_type(self) -> int:
        return card_types(self.symbols)[self.card]

    @property
    def second_type(self) -> int | None:
        return None if self.second is None else card_types(self.symbols)[self.second]

    def describe(self) -> str:
        text = f"P{self.player + 1} {type_name(self.card_type)}#{self.card}"
        if self.second is not None:
            text += f" + {type_name(self.second_type)}#{self.second}"
        if self.award_to is not None:
            text += f" (award to {ARTISTS[self.award_to]})"
        if self.draws is not None:
            text += f" (draws #{self.draws})"
        return text


@dataclass(frozen=True)
class PlanRound:
    """One round of a concrete game: who starts, what each player is dealt (card ids, in seat
    order), the face-up extra card (or None) and every play in turn order."""

    first_player: int
    deals: tuple[tuple[int, ...], ...]
    extra: int | None
    plays: tuple[Play, ...]


@dataclass(frozen=True)
class GamePlan:
    """A concrete game the engine can replay.

    The intermediate form: per round the dealt cards, the extra card and the plays in turn
    order (see `PlanRound`, `Play`); plus `deck_order`, the whole 95-card deck under a stated
    dealing convention, and the `expected` scores. What a replay needs from the engine:

    - start from a given deck order (or given hands, extra cards and draws) and a given first
      player of round 1;
    - options: number of players, extra face-up card on/off, award target own/any
      (``award_choice``), the default symbols table;
    - take the plays as actions: PLAY[type of card], then for a double SECOND[type of second],
      for an award with ``award_choice`` AWARD_TO[artist]; draws come from the deck top;
    - report who is to move (to check turn order), when a round ends, and the scores.
    """

    rules: ExhibitRules
    rounds: tuple[PlanRound, ...]
    expected: tuple[int, ...] = field(default=())

    def deck_order(self, dealing: str = "blocks") -> tuple[int, ...]:
        """The deck, top card first, that makes a dealer produce this game.

        Per round: the deals — ``"blocks"``: each player's cards in one block, seats 0, 1, ...;
        ``"round_robin"``: one card per player in seat order, again and again — then the
        round's extra card, then the cards drawn in play order. The unused cards follow in id
        order.
        """
        if dealing not in ("blocks", "round_robin"):
            raise ValueError(f"dealing must be 'blocks' or 'round_robin', got {dealing!r}")
        order: list[int] = []
        for rd in self.rounds:
            if dealing == "blocks":
                for cards in rd.deals:
                    order.extend(cards)
            else:
                for i in range(max((len(c) for c in rd.deals), default=0)):
                    order.extend(cards[i] for cards in rd.deals if i < len(cards))
            if rd.extra is not None:
                order.append(rd.extra)
            order.extend(play.draws for play in rd.plays if play.draws is not None)
        used = set(order)
        order.extend(c for c in range(N_CARDS) if c not in used)
        return tuple(order)

    def type_rounds(self) -> list[list[tuple[int, int, int | None]]]:
        """The plays as (player, card type, second card type or None), per round."""
        return [[(p.player, p.card_type, p.second_type) for p in rd.plays] for rd in self.rounds]

    def describe(self) -> str:
        lines = []
        for r, rd in enumerate(self.rounds):
            lines.append(f"round {r + 1} (first player {rd.first_player + 1})")
            lines.extend(f"  {i + 1:>2}. {p.describe()}" for i, p in enumerate(rd.plays))
        return "\n".join(lines)


def _turn_lists(rd: RoundExhibit, players: int, targets: list[int]) -> list[list[tuple]]:
    """Per player, the turns as (type, second type or None, award target or None), in the order
    the player takes them: draw-ones, awards, doubles, plain cards; the closer's closing
    card last."""
    out = []
    for p in range(players):
        turns: list[tuple] = []
        closing_double = False
        closing_plain = False
        if p == rd.closer:
            a = rd.closing_artist
            # close with a plain card if one is free, else with the double pair
            closing_double = rd.plain(p, a) - rd.double[p][a] == 0
            closing_plain = not closing_double
        for a in range(N_ARTISTS):
            turns.extend((card_type(a, DRAW), None, None) for _ in range(rd.draw[p][a]))
        for a in range(N_ARTISTS):
            for _ in range(rd.award[p][a]):
                turns.append((card_type(a, AWARD), None, targets.pop(0)))
        for a in range(N_ARTISTS):
            doubles = rd.double[p][a] - (1 if closing_double and a == rd.closing_artist else 0)
            turns.extend((card_type(a, DOUBLE), card_type(a, PLAIN), None) for _ in range(doubles))
        for a in range(N_ARTISTS):
            singles = rd.plain(p, a) - rd.double[p][a]
            if closing_plain and a == rd.closing_artist:
                singles -= 1
            turns.extend((card_type(a, PLAIN), None, None) for _ in range(singles))
        if closing_plain:
            turns.append((card_type(rd.closing_artist, PLAIN), None, None))
        if closing_double:
            a = rd.closing_artist
            turns.append((card_type(a, DOUBLE), card_type(a, PLAIN), None))
        if len(turns) != rd.turns[p]:
            raise ValueError(
                f"player {p + 1} displays {sum(rd.cards[p])} cards in {len(turns)} turns, but "
                f"the exhibit gives {rd.turns[p]} turns"
            )
        out.append(turns)
    return out


def to_play_sequence(solution: ExhibitSolution) -> GamePlan:
    """A concrete game (card identities, deals, turn order) that produces the exhibits.

    Turn order: cycles from the round's first player clockwise; players from the first player
    to the closer have ``T`` turns, the others ``T - 1``, so the closer's closing turn is the
    round's last. Each player plays draw-ones first (the hand keeps its size), then awards,
    doubles and plain cards, the closing card last. Card identities: each card a player will
    display is dealt (or drawn) at the latest receipt that is still in time, earliest-needed
    first; the rest of a deal is filled with cards nobody displays.
    """
    rules = solution.rules
    P = rules.players
    types = card_types(rules.symbols)
    pools: dict[int, list[int]] = {}
    for cid, t in enumerate(types):
        pools.setdefault(t, []).append(cid)

    # 1. per round the turn lists and the interleaved order (still card types)
    rounds_typed = []
    for rd in solution.rounds:
        # award targets, handed out in the order _turn_lists meets the award cards
        if rules.award_any:
            targets = [a for a in range(N_ARTISTS) for _ in range(rd.awards_to[a])]
        else:
            targets = [a for p in range(P) for a in range(N_ARTISTS) for _ in range(rd.award[p][a])]
        lists = _turn_lists(rd, P, targets)
        order = []
        cycle = 0
        while any(cycle < len(t) for t in lists):
            for i in range(P):
                p = (rd.first_player + i) % P
                if cycle < len(lists[p]):
                    order.append((p, *lists[p][cycle]))
            cycle += 1
        rounds_typed.append(order)

    # 2. card identities for displayed cards and extras
    def take(t: int) -> int:
        if not pools.get(t):
            raise ValueError(f"no card of type {type_name(t)} left for this exhibit")
        return pools[t].pop(0)

    extras: list[int | None] = []
    for rd in solution.rounds:
        extras.append(None if rd.extra is None else take(card_type(rd.extra, PLAIN)))
    plays_ids: list[list[tuple[int, int, int | None, int | None]]] = []
    need: list[list[int]] = [[] for _ in range(P)]  # cards each player displays, in time order
    for order in rounds_typed:
        ids = []
        for p, t, t2, target in order:
            c = take(t)
            c2 = take(t2) if t2 is not None else None
            ids.append((p, c, c2, target))
            need[p].append(c)
            if c2 is not None:
                need[p].append(c2)
        plays_ids.append(ids)
    fillers = sorted(
        (c for t, cs in pools.items() for c in cs), key=lambda c: (type_symbol(types[c]) != 0, c)
    )

    # 3. receipts in time order: deals at round starts, draws at draw-one plays
    given = [0] * P

    def receive(p: int) -> int:
        if given[p] < len(need[p]):
            c = need[p][given[p]]
            given[p] += 1
            return c
        if not fillers:
            raise ValueError("the deck ran out of cards for this exhibit")
        return fillers.pop(0)

    plan_rounds = []
    for r, rd in enumerate(solution.rounds):
        deals = tuple(tuple(receive(p) for _ in range(rules.deal[r])) for p in range(P))
        plays = []
        for p, c, c2, target in plays_ids[r]:
            draws = receive(p) if type_symbol(types[c]) == DRAW else None
            plays.append(
                Play(
                    player=p,
                    card=c,
                    second=c2,
                    award_to=target,
                    draws=draws,
                    symbols=rules.symbols,
                )
            )
        plan_rounds.append(
            PlanRound(
                first_player=rd.first_player, deals=deals, extra=extras[r], plays=tuple(plays)
            )
        )
    return GamePlan(rules=rules, rounds=tuple(plan_rounds), expected=solution.scores)


class PlanError(ValueError):
    """A plan breaks a rule; the message names the round, the play and the rule."""


@dataclass(frozen=True)
class ReplayResult:
    scores: tuple[int, ...]
    round_scores: tuple[tuple[int, ...], ...]
    displayed: tuple[tuple[tuple[int, ...], ...], ...]  # [round][player][artist]
    final_hands: tuple[tuple[int, ...], ...]


def validate_plan(plan: GamePlan) -> ReplayResult:
    """Replay a plan card by card under its rules; `PlanError` at the first broken rule.

    Checks: deal sizes; every card id used at most once in the game; the player to move
    (clockwise from the round's first player, the next round starting left of the closer);
    the card (and a double's second card, same artist) is in the mover's hand; a draw-one draws
    (its drawn card joins the hand at once), an award places a token (own artist, or with
    ``award_any`` an artist with a card displayed this round); the round ends exactly when an
    artist reaches the closing count, at the plan's last play of the round; then ranking and
    scoring. Returns the scores.
    """
    rules = plan.rules
    P, M = rules.players, rules.closing
    types = card_types(rules.symbols)
    seen: set[int] = set()

    def fresh(c: int, what: str, r: int) -> None:
        if not 0 <= c < N_CARDS:
            raise PlanError(f"round {r + 1}: {what} is not a card id: {c}")
        if c in seen:
            raise PlanError(f"round {r + 1}: {what} #{c} was already dealt, drawn or shown")
        seen.add(c)

    hands: list[Counter[int]] = [Counter() for _ in range(P)]
    awards_left = AWARD_TOKENS
    value = [0] * N_ARTISTS
    scores = [0] * P
    round_scores, displayed_all = [], []
    expected_first = plan.rounds[0].first_player if plan.rounds else 0
    if len(plan.rounds) != N_ROUNDS:
        raise PlanError(f"a game has {N_ROUNDS} rounds, the plan has {len(plan.rounds)}")
    for r, rd in enumerate(plan.rounds):
        if rd.first_player != expected_first:
            raise PlanError(
                f"round {r + 1}: first player {rd.first_player + 1}, but the previous round's "
                f"closer makes it player {expected_first + 1}"
            )
        if len(rd.deals) != P:
            raise PlanError(f"round {r + 1}: deals for {len(rd.deals)} players, game has {P}")
        for p, cards in enumerate(rd.deals):
            if len(cards) != rules.deal[r]:
                raise PlanError(
                    f"round {r + 1}: player {p + 1} is dealt {len(cards)} cards, "
                    f"the rules deal {rules.deal[r]}"
                )
            for c in cards:
                fresh(c, f"card dealt to player {p + 1}", r)
                hands[p][c] += 1
        count = [0] * N_ARTISTS
        if (rd.extra is not None) != rules.has_extra(r):
            raise PlanError(
                f"round {r + 1}: extra card {rd.extra}, but the rules "
                + ("turn one" if rules.has_extra(r) else "turn none")
            )
        if rd.extra is not None:
            fresh(rd.extra, "extra card", r)
            count[type_artist(types[rd.extra])] += 1
        shown = [[0] * N_ARTISTS for _ in range(P)]
        awards = [0] * N_ARTISTS
        award_any_targets: list[int] = []
        mover = rd.first_player
        ended = False
        closer = None
        for i, play in enumerate(rd.plays):
            where = f"round {r + 1}, play {i + 1} ({play.describe()})"
            if ended:
                raise PlanError(f"{where}: the round already ended")
            if play.player != mover:
                raise PlanError(f"{where}: it is player {mover + 1}'s turn")
            hand = hands[mover]
            if hand[play.card] < 1:
                raise PlanError(f"{where}: the card is not in the player's hand")
            hand[play.card] -= 1
            t = types[play.card]
            a, sym = type_artist(t), type_symbol(t)
            shown[mover][a] += 1
            count[a] += 1
            if count[a] >= M:
                ended = True
            if play.second is not None:
                if sym != DOUBLE or ended:
                    raise PlanError(
                        f"{where}: a second card needs a double that did not end the round"
                    )
                if hand[play.second] < 1:
                    raise PlanError(f"{where}: the second card is not in the player's hand")
                if type_artist(types[play.second]) != a:
                    raise PlanError(f"{where}: a double's second card must be of its artist")
                hand[play.second] -= 1
                shown[mover][a] += 1
                count[a] += 1
                if count[a] >= M:
                    ended = True
            elif sym == DRAW and not ended:
                if play.draws is None:
                    raise PlanError(f"{where}: a draw-one must draw a card")
                fresh(play.draws, "drawn card", r)
                hand[play.draws] += 1
            elif sym == AWARD and not ended:
                target = play.award_to
                if target is None:
                    raise PlanError(f"{where}: an award needs its artist")
                if not rules.award_any and target != a:
                    raise PlanError(f"{where}: the award goes on the card's own artist")
                if awards_left == 0:
                    raise PlanError(f"{where}: no award token is left to place")
                awards_left -= 1
                awards[target] += 1
                if rules.award_any:
                    award_any_targets.append(target)
            if sym != DRAW and play.draws is not None:
                raise PlanError(f"{where}: only a draw-one draws")
            if max(count) > M:
                raise PlanError(f"{where}: an artist went past {M} cards")
            if ended:
                closer = mover
            mover = (mover + 1) % P
        if not ended:
            raise PlanError(f"round {r + 1}: no artist reached {M} cards; the round never ends")
        for target in award_any_targets:
            if sum(shown[p][target] for p in range(P)) < 1:
                raise PlanError(
                    f"round {r + 1}: award on {ARTISTS[target]}, which has no "
                    f"card displayed this round"
                )
        tokens = rank_tokens(count)
        for a in range(N_ARTISTS):
            value[a] += tokens[a] + 2 * awards[a]
        rs = tuple(
            sum(shown[p][a] * (value[a] if tokens[a] else 0) for a in range(N_ARTISTS))
            for p in range(P)
        )
        scores = [s + x for s, x in zip(scores, rs, strict=True)]
        round_scores.append(rs)
        displayed_all.append(tuple(tuple(row) for row in shown))
        assert closer is not None
        expected_first = (closer + 1) % P
    return ReplayResult(
        scores=tuple(scores),
        round_scores=tuple(round_scores),
        displayed=tuple(displayed_all),
        final_hands=tuple(tuple(sorted(h.elements())) for h in hands),
    )
