"""Splendor's scripted agents, named by a string plus parameters (``greedy:nobles=1``).

* ``random``: a uniform choice among the legal actions.
* ``mcts``: information-set Monte Carlo tree search (:mod:`ludolab.envs.search`) over
  determinisations that deal the decks' order and the other seats' face-down reserved cards
  again, with ``greedy`` (default) or ``random`` play-outs.
* ``greedy``: buys the best card it can afford, else takes the gems (or reserves the card) that
  bring its target nearest. A card's *value* is its prestige, plus ``bonus`` for the gem it
  gives, plus ``nobles`` for each noble on the table still short of that colour at this seat.
  The *target* is the display's or its own reserved card with the most value per turn it
  still needs (one turn per three gems missing after its bonuses, tokens and gold). It takes
  the gems of the target's missing colours (two of one colour when only that colour is
  missing twice or more), reserves the target when no take brings it nearer, returns the
  tokens its target needs least, and welcomes the first noble offered. Ties: ``self.rng``.

All three read only what their seat sees at the table: the bank, the display, the nobles, every
seat's bought cards, tokens and nobles, and their own reserved cards (never another seat's
card reserved face down, nor the decks' order).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import ClassVar

from ludolab.envs.agents import Agent, AgentRegistry, spec_string
from ludolab.envs.search import SearchAgent
from ludolab.envs.splendor.cards import CARDS, NOBLES
from ludolab.envs.splendor.engine import (
    BUY,
    BUY_RESERVED,
    DOUBLE,
    GOLD,
    LEVELS,
    NOBLE,
    PAIRS,
    RESERVE,
    RETURN,
    SLOTS,
    TAKE1,
    TAKE2,
    TRIPLES,
    SplendorState,
)


class SplendorAgent(Agent):
    """A Splendor agent: ``act(game, legal)`` gets the :class:`SplendorState`."""

    game: ClassVar[str] = "splendor"

    def act(self, game: SplendorState, legal: Sequence[int]) -> int:
        raise NotImplementedError


class RandomAgent(SplendorAgent):
    """Each legal action with equal probability (from ``self.rng``)."""

    name = "random"

    def act(self, game: SplendorState, legal: Sequence[int]) -> int:
        return legal[int(self.rng.random() * len(legal))]


class GreedyAgent(SplendorAgent):
    """Buy the most valuable card it can, else work towards the best-value target.

    Args:
        bonus: a card's value for the gem it gives, in prestige.
        nobles: a card's value for each noble on the table still short of its colour here.
    """

    name = "greedy"
    DEFAULTS: ClassVar[dict[str, object]] = {"bonus": 0.5, "nobles": 0.5}

    def __init__(self, bonus: float = 0.5, nobles: float = 0.5) -> None:
        super().__init__()
        for key, value in (("bonus", bonus), ("nobles", nobles)):
            if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
                raise ValueError(f"{key} must be a number of 0 or more, got {value!r}")
        self.bonus, self.nobles = float(bonus), float(nobles)

    @property
    def spec(self) -> str:
        return spec_string(self.name, {"bonus": self.bonus, "nobles": self.nobles}, self.DEFAULTS)

    def act(self, game: SplendorState, legal: Sequence[int]) -> int:
        if legal[0] >= NOBLE:  # a noble to choose, or a pass
            return legal[0]
        if legal[0] >= RETURN:
            return self._give_back(game, legal)
        buys = [a for a in legal if BUY <= a < RETURN]
        if buys:
            return self._best(buys, lambda a: self._value(game, self._card_of(game, a)))
        target = self._target(game)
        if target is not None:
            missing = self._missing(game, target)
            takes = [a for a in legal if a < RESERVE]
            if takes:
                gain = {a: self._covered(a, missing) for a in takes}
                best = max(gain.values())
                if best > 0:
                    return self._best([a for a in takes if gain[a] == best], lambda a: 0.0)
            reserve = self._reserve_action(game, target)
            if reserve in legal:
                return reserve
        return legal[int(self.rng.random() * len(legal))]

    # -- what it weighs ----------------------------------------------------------------------

    def _value(self, game: SplendorState, card: int) -> float:
        c = CARDS[card]
        seat = game.seats[self.seat]
        short = sum(1 for n in game.nobles if NOBLES[n].need[c.bonus] > seat.bonuses[c.bonus])
        return c.points + self.bonus + self.nobles * short

    def _missing(self, game: SplendorState, card: int) -> list[int]:
        seat = game.seats[self.seat]
        cost = CARDS[card].cost
        return [max(0, cost[k] - seat.bonuses[k] - seat.tokens[k]) for k in range(5)]

    def _target(self, game: SplendorState) -> int | None:
        seat = game.seats[self.seat]
        options = [c for row in game.display for c in row if c >= 0] + list(seat.reserved)
        if not options:
            return None

        def rate(card: int) -> float:
            short = max(0, sum(self._missing(game, card)) - seat.tokens[GOLD])
            return self._value(game, card) / (1 + (short + 2) // 3)

        return self._best(options, rate)

    def _covered(self, action: int, missing: list[int]) -> int:
        if action < TAKE2:
            return sum(1 for k in TRIPLES[action] if missing[k] > 0)
        if action < TAKE1:
            return sum(1 for k in PAIRS[action - TAKE2] if missing[k] > 0)
        if action < DOUBLE:
            return int(missing[action - TAKE1] > 0)
        return min(2, missing[action - DOUBLE])

    def _reserve_action(self, game: SplendorState, card: int) -> int:
        for level, row in enumerate(game.display):
            if card in row:
                return RESERVE + level * SLOTS + row.index(card)
        return -1  # a card already reserved: nothing to reserve

    def _give_back(self, game: SplendorState, legal: Sequence[int]) -> int:
        target = self._target(game)
        need = CARDS[target].cost if target is not None else (0, 0, 0, 0, 0)
        seat = game.seats[self.seat]

        def spare(action: int) -> float:
            kind = action - RETURN
            if kind == GOLD:
                return -1.0  # gold pays for anything: the last to go
            return seat.tokens[kind] + seat.bonuses[kind] - need[kind]

        return self._best(list(legal), spare)

    def _card_of(self, game: SplendorState, action: int) -> int:
        if action < BUY_RESERVED:
            level, slot = divmod(action - BUY, SLOTS)
            return game.display[level][slot]
        return game.seats[self.seat].reserved[action - BUY_RESERVED]

    def _best(self, items: Sequence[int], score: Callable[[int], float]) -> int:
        scores = [score(x) for x in items]
        top = max(scores)
        best = [x for x, s in zip(items, scores, strict=True) if s == top]
        return best[int(self.rng.random() * len(best))]


class MCTSAgent(SearchAgent, SplendorAgent):
    """IS-MCTS on every decision with ``playouts`` iterations (default 64), sequential halving
    at the root (every action compared on the same determinisations), judged flat by default
    (the play-out policy plays on from each root action, no tree below it), a ``greedy``
    (default) or ``random`` play-out policy; parameters as in
    :class:`ludolab.envs.search.SearchAgent`, and:

    Against greedy, two players (``benchmarks/agent_strength.py``, match
    ``splendor-mcts-vs-greedy``, commit 417bbfe): 260 of 400 games (65.0%), 1.4 CPU s a game;
    with ``horizon=4`` 53 of 100, with ``horizon=0`` (play-outs to the end) 13 of 40.

    Args:
        horizon: player turns after which a play-out stops and the position is scored (0: play
            to the end). A cut-off position's reward for a seat is
            ``1 / (1 + exp(-(v - best other v) / 2))`` where ``v`` is its prestige plus
            ``bonus_value`` per bonus card (a played-out game's is 1 for a win, shared on
            ties): a lead of two prestige is worth 0.73.
        bonus_value: prestige a bonus card is worth in that score.
    """

    name = "mcts"
    policies = ("random", "greedy")
    _DEFAULTS = {
        **SearchAgent._DEFAULTS,
        "playouts": 64,
        "root": "halving",
        "flat": True,
        "horizon": 8,
        "bonus_value": 0.5,
    }

    def __init__(
        self,
        playouts: int = 64,
        seconds: float = 0.0,
        c: float = 0.7,
        policy: str = "greedy",
        widen: float = 1.0,
        root: str = "halving",
        flat: bool = True,
        horizon: int = 8,
        bonus_value: float = 0.5,
    ) -> None:
        super().__init__(playouts, seconds, c, policy, widen, root, flat)
        if isinstance(horizon, bool) or not isinstance(horizon, int) or horizon < 0:
            raise ValueError(f"horizon must be a whole number >= 0, got {horizon!r}")
        if (
            isinstance(bonus_value, bool)
            or not isinstance(bonus_value, int | float)
            or bonus_value < 0
        ):
            raise ValueError(f"bonus_value must be a number >= 0, got {bonus_value!r}")
        self.horizon = horizon
        self.bonus_value = float(bonus_value)
        self._until = -1

    def _parameters(self) -> dict[str, object]:
        return {**super()._parameters(), "horizon": self.horizon, "bonus_value": self.bonus_value}

    def make_policy(self, name: str) -> SplendorAgent:
        return GreedyAgent() if name == "greedy" else RandomAgent()

    def act(self, game: SplendorState, legal: Sequence[int]) -> int:
        self._until = game.turns + self.horizon if self.horizon else -1
        return super().act(game, legal)

    def _play_out(self, game: SplendorState, players: list[Agent]) -> None:
        until = self._until
        while not game.done and (until < 0 or game.turns < until):
            forced = game.forced_action()
            game.step(forced if forced >= 0 else self.policy_action(players[game.acting], game))

    def outcome(self, game: SplendorState) -> list[float]:
        if not game.done:  # cut off at the horizon: the score's logistic
            v = [s.points + self.bonus_value * sum(s.bonuses) for s in game.seats]
            return [
                1.0 / (1.0 + math.exp(-(v[q] - max(v[:q] + v[q + 1 :])) / 2.0))
                for q in range(game.n_players)
            ]
        winners = game.winners
        share = 1.0 / len(winners) if winners else 0.0
        return [share if q in winners else 0.0 for q in range(game.n_players)]

    def determinise(self, game: SplendorState) -> SplendorState:
        return determinise(game, self.seat, self.rng)


def determinise(game: SplendorState, seat: int, rng: random.Random) -> SplendorState:
    """A copy of ``game`` in which every card ``seat`` cannot see is dealt again from ``rng``:
    per level, the deck and the other seats' cards reserved face down from it (their level
    shows on the back) are shuffled together and dealt back, each reserved card's place kept.
    ``game`` is not changed."""
    copy = game.clone()
    for level in range(LEVELS):
        hidden = [
            (q, i)
            for q, held in enumerate(game.seats)
            if q != seat
            for i, (card, down) in enumerate(zip(held.reserved, held.hidden, strict=True))
            if down and CARDS[card].level == level + 1
        ]
        pool = list(game.decks[level]) + [game.seats[q].reserved[i] for q, i in hidden]
        rng.shuffle(pool)
        for (q, i), card in zip(hidden, pool, strict=False):
            copy.seats[q].reserved[i] = card
        copy.decks[level] = pool[len(hidden) :]
    return copy


REGISTRY = AgentRegistry("splendor", [RandomAgent, GreedyAgent, MCTSAgent])
"""Splendor's agents by name."""

__all__ = ["REGISTRY", "GreedyAgent", "MCTSAgent", "RandomAgent", "SplendorAgent", "determinise"]
