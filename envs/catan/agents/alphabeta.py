"""``alphabeta``: catanatron's strongest published bot, re-implemented from its description as a
strength anchor from outside ludolab.

catanatron (Collazo, github.com/bcollazo/catanatron; its ``players/value.py``,
``players/minimax.py`` and ``players/tree_search_utils.py`` were read, not copied) ranks
``AlphaBetaPlayer`` at depth 2 first of its bots: 80% of 25 one-against-one games against its
value-function player, which won 90% against its play-out player, which won every game against
its MCTS (the project's published leaderboard). This agent is that player on ludolab's engine:

**The value function** (:func:`value`) is catanatron's ``base_fn``, a weighted sum of features
of the seat's position (:data:`WEIGHTS`, catanatron's default weights): its public victory
points; its production (the chance of each number it builds on, cities twice, not the robber's
hex, plus 4/36 per resource it produces at all); minus the production of the next seat in turn
order (catanatron's one "enemy"); the hexes it touches; the production of the free spots its
roads reach or could reach with one more road; how many spots it could build on; its longest
road (weighted 10 when it has nowhere to build, else 0.1); how close its hand is to a city and
a settlement; its cards; a penalty when it holds more cards than the discard limit; its
development cards; its knights played. The weights make it nearly lexicographic: points first,
then production, then reach.

**The search** is paranoid expecti-alpha-beta to ``depth`` decisions (catanatron's 2): the
seat maximises its value, every other seat minimises it, and chance is averaged over its
outcomes with their probabilities: the 11 dice sums; the development card bought, over the
cards the seat has not seen (the deck and the others' hands); the card stolen, over the
victim's hand. A decision's depth counts actions, not turns, so depth 2 mostly compares two of
the seat's own actions in a row. Actions the rules force take no depth; a turn's first roll
takes one even where ludolab's engine rolls at once (catanatron asks for it), so an end of
turn on the last level is scored before the dice.

Where catanatron's player reads the true game (the others' hands and the deck's order), this one
never peeks: each decision searches one determinisation of what the seat cannot see, dealt as
the ``mcts`` agent deals them (:func:`ludolab.envs.catan.agents.determinise.determinise`). Three
other changes, each because catanatron's engine differs: a domestic offer made to the seat
(catanatron's bots are never offered one) is accepted when the trade leaves the seat's value
higher; the seat never offers one (catanatron's bots never do); and a won game scores above any
position (catanatron scores a win only through its public points, so a win by a hidden
victory-point card was worth no more than the card). Ties go to the first action in the legal
order, as catanatron's go to the first generated. There is no time limit (catanatron stops
searching after 20 s of wall time, which would make a game depend on the machine); the search is
small enough at depth 2.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

from ludolab.envs.agents import spec_string
from ludolab.envs.catan import actions as A
from ludolab.envs.catan.agents.base import Agent
from ludolab.envs.catan.agents.determinise import determinise, unseen_dev_cards
from ludolab.envs.catan.engine import (
    KNIGHT,
    MOVE_ROBBER,
    STEAL,
    TRADE_RESPONSE,
    Game,
    tables,
)

# catanatron's DEFAULT_WEIGHTS, by feature.
WEIGHTS = {
    "public_vps": 3e14,
    "production": 1e8,
    "enemy_production": -1e8,
    "num_tiles": 1.0,
    "reachable_production_0": 0.0,
    "reachable_production_1": 1e4,
    "buildable_nodes": 1e3,
    "longest_road": 10.0,
    "hand_synergy": 1e2,
    "hand_resources": 1.0,
    "discard_penalty": -5.0,
    "hand_devs": 10.0,
    "army_size": 10.1,
}
WON = 1e18  # a won game: above any position's value (at most about 5e15)
VARIETY = 4 * 0.02778  # catanatron's bonus per resource produced: 4 pips, as it rounds them

# The chance of each dice sum, 2..12 (index = sum).
DICE = tuple(sum(1 for a in range(1, 7) for b in range(1, 7) if a + b == s) / 36 for s in range(13))
# Resource indices (lumber, wool, grain, brick, ore), by the names the features use.
WOOD, SHEEP, WHEAT, BRICK, ORE = range(A.N_RESOURCES)


class _Outcome(random.Random):
    """A stream that yields the numbers one chance outcome needs, so that the engine plays
    that outcome: the dice (two ``random()`` draws) or the index of the card stolen."""

    def __init__(self, values: Sequence[float]) -> None:
        super().__init__(0)
        self._values = list(values)

    def random(self) -> float:
        return self._values.pop(0)

    def randrange(self, *args: Any, **kwargs: Any) -> int:
        return int(self._values.pop(0))


class _Board:
    """Per-board tables for the value function: each node's production per resource (the
    chance of its hexes' numbers, robber ignored) and its hexes."""

    def __init__(self, game: Game) -> None:
        t = tables()
        self.node_hexes = t.node_hexes
        self.node_links = t.node_links
        self.hex_chance = tuple(DICE[n] if n else 0.0 for n in game.hex_number)
        self.hex_resource = game.hex_resource
        self.node_production = tuple(
            sum(self.hex_chance[h] for h in t.node_hexes[v] if game.hex_resource[h] >= 0)
            for v in range(A.N_INTERSECTIONS)
        )


def features(game: Game, me: int, board: _Board | None = None) -> dict[str, float]:
    """catanatron's features of ``me``'s position in ``game`` (see the module docstring), by
    the names of :data:`WEIGHTS`; ``board`` saves rebuilding the board's tables."""
    b = board or _Board(game)
    owner, building, robber = game.owner, game.building, game.robber
    n = game.n_players
    enemy = (me + 1) % n

    def production(seat: int, variety: bool) -> float:
        per = [0.0] * A.N_RESOURCES
        for v in range(A.N_INTERSECTIONS):
            if owner[v] == seat:
                for h in b.node_hexes[v]:
                    r = b.hex_resource[h]
                    if r >= 0 and h != robber:
                        per[r] += b.hex_chance[h] * building[v]
        return sum(per) + (VARIETY * sum(1 for x in per if x) if variety else 0.0)

    mine = [v for v in range(A.N_INTERSECTIONS) if owner[v] == me]
    tiles = {h for v in mine for h in b.node_hexes[v]}
    network = game.network[me]
    free = game.site_free
    # One road further: through no other seat's building or road.
    level1 = set(network)
    for u in network:
        if owner[u] in (-1, me):
            for e, w in b.node_links[u]:
                if game.road_owner[e] in (-1, me):
                    level1.add(w)

    def reach(nodes: set[int]) -> float:
        return sum(b.node_production[v] for v in nodes if owner[v] == me or free[v])

    buildable = sum(1 for v in network if free[v])
    hand = game.hands[me]
    to_city = (max(2 - hand[WHEAT], 0) + max(3 - hand[ORE], 0)) / 5
    to_settlement = sum(max(1 - hand[r], 0) for r in (WHEAT, SHEEP, BRICK, WOOD)) / 4
    return {
        "public_vps": game.vp_public[me],
        "production": production(me, True),
        "enemy_production": production(enemy, False),
        "num_tiles": len(tiles),
        "reachable_production_0": reach(network),
        "reachable_production_1": reach(level1),
        "buildable_nodes": buildable,
        "longest_road": game.road_length[me] * (1.0 if buildable == 0 else 0.01),
        "hand_synergy": (2 - to_city - to_settlement) / 2,
        "hand_resources": game.hand_size[me],
        "discard_penalty": 1.0 if game.hand_size[me] > game.options.discard_limit else 0.0,
        "hand_devs": sum(game.dev_hand[me]),
        "army_size": game.dev_played[me][KNIGHT],
    }


def value(game: Game, me: int, board: _Board | None = None) -> float:
    """catanatron's value of ``me``'s position: the features weighted by :data:`WEIGHTS`
    (``longest_road`` is scaled 1 or 0.01 in :func:`features`, so that its weight 10 gives
    catanatron's 10 or 0.1); a game ``me`` has won is worth :data:`WON`, one lost ``-WON``."""
    if game.winner is not None:
        return WON if game.winner == me else -WON
    f = features(game, me, board)
    return sum(WEIGHTS[k] * x for k, x in f.items())


class AlphaBetaAgent(Agent):
    """catanatron's alpha-beta player (see the module docstring).

    Parameters: ``depth``, the decisions searched ahead (>= 1; catanatron's default 2; 1 is a
    one-step value-function player that averages over chance).
    """

    name = "alphabeta"
    _DEFAULTS = {"depth": 2}

    def __init__(self, depth: int = 2) -> None:
        super().__init__()
        if isinstance(depth, bool) or not isinstance(depth, int) or depth < 1:
            raise ValueError(f"depth must be a whole number >= 1, got {depth!r}")
        self.depth = depth
        self._board: _Board | None = None
        self._board_of: Any = None

    @property
    def spec(self) -> str:
        return spec_string(self.name, {"depth": self.depth}, self._DEFAULTS)

    def reset(self, seat: int, seed: int) -> None:
        super().reset(seat, seed)
        self._board = None
        self._board_of = None

    def act(self, game: Game, legal: Sequence[int]) -> int:
        if len(legal) == 1:
            return legal[0]
        if game.phase == TRADE_RESPONSE:
            return self._answer(game, legal)
        values = self.values(game, legal)
        return max(values, key=values.__getitem__)  # the first of equals, in the legal order

    def values(self, game: Game, legal: Sequence[int]) -> dict[int, float]:
        """The value to the seat of each action of ``legal`` it considers (every one but
        domestic offers), searched in one determinisation of what the seat cannot see; an
        action that cannot beat an earlier one may get a bound instead (alpha-beta)."""
        if self._board_of is not game.board:
            self._board, self._board_of = _Board(game), game.board
        deal = determinise(game, self.seat, self.rng)
        values: dict[int, float] = {}
        alpha = -math.inf
        for action in self._choices(deal, legal):
            values[action] = q = self._expect(deal, action, self.depth - 1, alpha, math.inf)
            alpha = max(alpha, q)
        return values

    def _answer(self, game: Game, legal: Sequence[int]) -> int:
        """Accept an offer made to the seat when the trade raises its value."""
        give, n_give, get = game.offer  # type: ignore[misc]
        after = game.clone(share_randomness=True)
        hand = after.hands[self.seat]
        hand[give] += n_give
        hand[get] -= 1
        after.hand_size[self.seat] += n_give - 1
        better = value(after, self.seat) > value(game, self.seat)
        return A.ACCEPT_TRADE if better and A.ACCEPT_TRADE in legal else A.DECLINE_TRADE

    @staticmethod
    def _choices(game: Game, legal: Sequence[int]) -> list[int]:
        # catanatron's bots never offer a domestic trade.
        return [a for a in legal if not A.OFFER <= a < A.ACCEPT_TRADE] or list(legal)

    def _search(self, game: Game, depth: int, alpha: float, beta: float) -> float:
        """The value of ``game`` to the seat, searched ``depth`` decisions ahead."""
        if game.done or depth == 0:
            return value(game, self.seat, self._board)
        forced = game.forced_action()
        if forced >= 0:
            return self._expect(game, forced, depth, alpha, beta)
        legal = self._choices(game, game.legal_actions())
        if game.acting == self.seat:
            best = -math.inf
            for action in legal:
                best = max(best, self._expect(game, action, depth - 1, alpha, beta))
                alpha = max(alpha, best)
                if alpha >= beta:
                    break
        else:
            best = math.inf
            for action in legal:
                best = min(best, self._expect(game, action, depth - 1, alpha, beta))
                beta = min(beta, best)
                if alpha >= beta:
                    break
        return best

    def _expect(self, game: Game, action: int, depth: int, alpha: float, beta: float) -> float:
        """The value of taking ``action`` in ``game``, searched ``depth`` decisions further:
        averaged over its chance outcomes."""
        if action == A.END_TURN and depth == 0:
            # catanatron's next turn starts with a roll decision, which costs a level: an end
            # of turn on the last level is scored as it stands (it changes no feature).
            return value(game, self.seat, self._board)
        out = outcomes(game, action)
        if action != A.ROLL and len(out[0][1].dice) > len(game.dice):
            # The next turn rolled at once (after an end of turn, or the last setup road):
            # for catanatron that roll is the next seat's decision, one level down.
            if depth == 0:
                return sum(p * value(child, self.seat, self._board) for p, child in out)
            depth -= 1
        return sum(p * self._search(child, depth, alpha, beta) for p, child in out)


def outcomes(game: Game, action: int) -> list[tuple[float, Game]]:
    """The games ``action`` can lead to from ``game``, with their probabilities (summing to 1):
    one per dice sum for an action that rolls (a roll; the end of a turn, or the last setup
    road, when the next turn rolls at once), per card the seat has not seen for a purchase, per
    card in the victim's hand for a steal; one game otherwise. ``game`` is not changed."""
    if action == A.BUY_DEV:
        return _purchases(game, game.acting)
    child = _stepped(game, action)  # (dice summing to 2 if it rolls, the first card if it steals)
    if len(child.dice) > len(game.dice):
        return [(DICE[2], child)] + [(DICE[s], _stepped(game, action, s)) for s in range(3, 13)]
    victim = _robbed(game, child)
    if victim < 0:
        return [(1.0, child)]
    hand, size = game.hands[victim], game.hand_size[victim]
    out, before = [], 0
    for r in range(A.N_RESOURCES):
        if hand[r]:
            taken = child if before == 0 else _stepped(game, action, steal=before)
            out.append((hand[r] / size, taken))
        before += hand[r]
    return out


def _stepped(game: Game, action: int, dice: int = 2, steal: int = 0) -> Game:
    """A copy of ``game`` after ``action``, with the dice summing to ``dice`` if it rolls and
    the ``steal``-th card of the victim's hand taken if it steals."""
    child = _copy(game)
    first = max(1, dice - 6)
    child._dice_rng = _Outcome([(first - 0.5) / 6, (dice - first - 0.5) / 6])
    child._steal_rng = _Outcome([steal])
    child.step(action)
    return child


def _copy(game: Game) -> Game:
    """A copy of ``game`` for the search. Its chance outcomes are forced with stand-in streams,
    which the debug mode's mirror core cannot follow, so it skips that check (the real game,
    stepped by the caller, still runs it)."""
    child = game.clone(share_randomness=True)
    child._debug = False
    return child


def _robbed(game: Game, child: Game) -> int:
    """The seat the robber's steal took a card from between ``game`` and ``child``, one step
    later (a steal, or a robber move with a single victim), or -1."""
    if game.phase not in (MOVE_ROBBER, STEAL):
        return -1
    sizes = child.hand_size
    return next(
        (q for q, k in enumerate(game.hand_size) if q != game.acting and sizes[q] < k), -1
    )


def _purchases(game: Game, p: int) -> list[tuple[float, Game]]:
    """A development card bought by ``p``: one game per kind of card ``p`` has not seen, with
    the chance of drawing it."""
    unseen = unseen_dev_cards(game, p)
    total = sum(unseen)
    out = []
    for k, count in enumerate(unseen):
        if count:
            child = _copy(game)
            child._dice_rng = child._steal_rng = _Outcome([])  # (a purchase draws neither)
            deck = child.dev_deck
            i = deck.index(k) if k in deck else len(deck) - 1
            deck[i], deck[-1] = deck[-1], k
            child.step(A.BUY_DEV)
            out.append((count / total, child))
    return out
