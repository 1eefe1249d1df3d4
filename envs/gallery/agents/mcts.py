"""``mcts``: information-set Monte Carlo tree search for Masters Gallery (see
:mod:`ludolab.envs.search` for the search itself).

A determinisation deals again every card the seat cannot see: the other seats' hands (each
keeps its size), their face-down cards and hidden simultaneous picks (each keeps its count),
and the order of the deck. The cards dealt are exactly those not visible to the seat: the deck
minus its own hand, its own face-down cards and pick, every card displayed face up this round
(the extra card included) and every card discarded in earlier rounds. The seat's memory of
what it saw earlier (which cards an opponent's double or draw revealed) is not used: the agent
knows no more than it may, possibly less than a card-counting player.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from ludolab.envs.gallery.agents.base import Agent
from ludolab.envs.gallery.agents.greedy import GreedyAgent, LeaderAgent
from ludolab.envs.gallery.agents.random_agent import RandomAgent
from ludolab.envs.gallery.cards import N_TYPES
from ludolab.envs.search import SearchAgent

if TYPE_CHECKING:
    from ludolab.envs.gallery.engine import Game


# The playout policies, by the names ``policy`` takes.
_POLICIES: dict[str, type[Agent]] = {
    "random": RandomAgent,
    "greedy": GreedyAgent,
    "leader": LeaderAgent,
}


class MCTSAgent(SearchAgent, Agent):
    """IS-MCTS on every decision with ``playouts`` iterations (default 1,000), sequential
    halving at the root (``root=halving``, default: every card compared on the same deals) and
    a ``greedy`` (default), ``leader`` or ``random`` playout policy; parameters as in
    :class:`ludolab.envs.search.SearchAgent`. Against the ``lookahead`` agent, two players
    (benchmarks/agent_strength.py, match gallery-mcts-vs-lookahead): halving at 1,000
    play-outs won 273 of 400 games (68.2%), at 400 play-outs 120 of 200, at 200 46%; UCB at 200
    about half. Judging each root action flat instead (``flat=true``: no tree below it, as the
    Catan ``mcts-value`` does) won 99 of 200 at 400 play-outs (seed 1; the tree's 120 of 200
    was seed 0), so here the tree stays."""

    name = "mcts"
    policies = tuple(_POLICIES)
    _DEFAULTS = {**SearchAgent._DEFAULTS, "playouts": 1000, "root": "halving"}

    def __init__(
        self,
        playouts: int = 1000,
        seconds: float = 0.0,
        c: float = 0.7,
        policy: str = "greedy",
        widen: float = 1.0,
        root: str = "halving",
        flat: bool = False,
    ) -> None:
        super().__init__(playouts, seconds, c, policy, widen, root, flat)

    def make_policy(self, name: str) -> Agent:
        return _POLICIES[name]()

    def outcome(self, game: Game) -> list[float]:
        share = 1.0 / len(game.winners) if game.winners else 0.0
        return [share if q in game.winners else 0.0 for q in range(game.n_players)]

    def determinise(self, game: Game) -> Game:
        return determinise(game, self.seat, self.rng)


def determinise(game: Game, seat: int, rng: random.Random) -> Game:
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
    copy._simul_pending = [
        (q, t if q == me else next(cards)) for q, t in game.simultaneous_picks
    ]
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
