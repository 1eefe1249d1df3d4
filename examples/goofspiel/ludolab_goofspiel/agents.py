"""Goofspiel's agents, named by a string plus parameters (``greedy``, ``greedy:reach=2``).

* ``random``: a uniform choice among the cards in hand.
* ``match``: the classic matching strategy: bid the card equal to the points at stake (the
  prize; with the ``carry`` rule, plus the prizes carried over, capped at K), or the nearest
  card left when that one is gone (the lower of two equally near).
* ``greedy``: rank matching, and an exploit of opponents who rank-match. *Rank matching* bids
  the card whose rank in the hand equals the rank of the points at stake among the prizes still
  to win (the hands are public knowledge: every bid is revealed after its round, so the agent
  can work out every seat's rank-matched card). When every opponent has rank-matched in at
  least a share ``trust`` of the rounds so far (all of them, before the first round ends),
  greedy predicts each opponent's bid to be its rank-matched card and bids its own cheapest
  card that beats every prediction, if that card ranks at most ``reach`` places above the
  stake's rank in its own hand; otherwise it gives the round up with its lowest card. Against
  opponents who do not rank-match, it rank-matches itself, loosely: it bids a card drawn
  uniformly (from ``self.rng``) among the ranks within ``jitter`` of the rank-matched one, since
  a fixed rule is what an opponent exploits, and two copies of one fixed rule tie every round.
  Against ``match`` this is the textbook exploit: win every prize but the top one by one pip,
  and throw the 1 on the top one.

Every agent reads only :meth:`ludolab_goofspiel.engine.GoofspielState.view` of its own seat: its
hand, the public history and the prizes left, never a bid of the current round (the engine
takes the bids one seat after another, but they are sealed). ``match`` and ``greedy:jitter=0``
make no random choice; ``random`` and ``greedy`` draw from ``self.rng``, which
:class:`ludolab.envs.agents.Agent` seeds from the game seed and the seat.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from ludolab.envs.agents import Agent, AgentRegistry, spec_string
from ludolab_goofspiel.engine import GoofspielState, SeatView


class GoofspielAgent(Agent):
    """A Goofspiel agent: ``act(game, legal)`` gets the :class:`GoofspielState`; it must read
    only ``game.view(self.seat)``."""

    game: ClassVar[str] = "goofspiel"

    def act(self, game: GoofspielState, legal: Sequence[int]) -> int:
        raise NotImplementedError


class RandomAgent(GoofspielAgent):
    """Bids each card in hand with equal probability (from ``self.rng``)."""

    name = "random"

    def act(self, game: GoofspielState, legal: Sequence[int]) -> int:
        return legal[int(self.rng.random() * len(legal))]


def stake_rank(view: SeatView) -> int:
    """The rank of the points at stake among the prizes still to win (0 = below every prize
    left): the number of unrevealed prizes worth less than the stake. The seat's hand has one
    card more than ``prizes_left``, so the rank indexes a card of any hand."""
    return sum(1 for p in view.prizes_left if p < view.stake)


class MatchAgent(GoofspielAgent):
    """Bids the card equal to the points at stake (capped at K), or the nearest card in hand
    (the lower one on a tie of distance)."""

    name = "match"

    def act(self, game: GoofspielState, legal: Sequence[int]) -> int:
        view = game.view(self.seat)
        target = min(view.stake, view.cards)
        return min(view.hand, key=lambda card: (abs(card - target), card))


class GreedyAgent(GoofspielAgent):
    """Rank-matches, and outbids opponents who rank-match by the cheapest card that does when
    it is not too dear; see the module docstring.

    Parameters:
        reach: how many places above the stake's rank (in its own hand) the agent will go to
            win a round from predictable opponents; larger values fight harder for every
            prize. An integer >= 0 (ranks).
        trust: the least share of the rounds so far in which every opponent must have bid its
            rank-matched card for the agent to predict it; 1 exploits only opponents who always
            rank-match, 0 always predicts. A number in [0, 1].
        jitter: when it rank-matches, how many ranks either side of the rank-matched card the
            bid may be (uniformly among them, clipped to the hand); 0 rank-matches exactly. An
            integer >= 0 (ranks).
    """

    name = "greedy"
    DEFAULTS: ClassVar[dict[str, object]] = {"reach": 3, "trust": 0.75, "jitter": 1}

    def __init__(self, reach: int = 3, trust: float = 0.75, jitter: int = 1) -> None:
        super().__init__()
        if isinstance(reach, bool) or not isinstance(reach, int) or reach < 0:
            raise ValueError(f"reach must be an integer >= 0, got {reach!r}")
        if isinstance(trust, bool) or not isinstance(trust, int | float) or not 0 <= trust <= 1:
            raise ValueError(f"trust must be a number in [0, 1], got {trust!r}")
        if isinstance(jitter, bool) or not isinstance(jitter, int) or jitter < 0:
            raise ValueError(f"jitter must be an integer >= 0, got {jitter!r}")
        self.reach = reach
        self.trust = float(trust)
        self.jitter = jitter

    @property
    def spec(self) -> str:
        values = {"reach": self.reach, "trust": self.trust, "jitter": self.jitter}
        return spec_string(self.name, values, self.DEFAULTS)

    def act(self, game: GoofspielState, legal: Sequence[int]) -> int:
        view = game.view(self.seat)
        rank = stake_rank(view)
        hand = view.hand
        opponents = [s for s in range(view.players) if s != self.seat]
        if min(rank_matching_share(view, s) for s in opponents) < self.trust:
            # unpredictable opponents: rank-match, loosely
            low, high = max(0, rank - self.jitter), min(len(hand) - 1, rank + self.jitter)
            return hand[low + int(self.rng.random() * (high - low + 1))]
        threat = max(view.hands[s][rank] for s in opponents)
        for place, card in enumerate(hand):
            if card > threat:
                return card if place <= rank + self.reach else hand[0]
        return hand[0]  # nothing beats the prediction: concede the round as cheaply as can be


def rank_matching_share(view: SeatView, seat: int) -> float:
    """The share of the resolved rounds in which ``seat`` bid its rank-matched card (1.0 before
    any round is resolved), worked out from the public history alone: each round's hands are
    the full suit less the cards bid before it, and its unrevealed prizes are those not
    revealed before it."""
    if not view.history:
        return 1.0
    hand = list(range(1, view.cards + 1))
    unrevealed = set(range(1, view.cards + 1))
    matched = 0
    for past in view.history:
        unrevealed.discard(past.prize)
        rank = sum(1 for p in unrevealed if p < past.stake)
        matched += past.bids[seat] == hand[rank]
        hand.remove(past.bids[seat])
    return matched / len(view.history)


REGISTRY = AgentRegistry("goofspiel", [RandomAgent, MatchAgent, GreedyAgent])
"""The agents by name."""

__all__ = [
    "REGISTRY",
    "GoofspielAgent",
    "GreedyAgent",
    "MatchAgent",
    "RandomAgent",
    "rank_matching_share",
    "stake_rank",
]
