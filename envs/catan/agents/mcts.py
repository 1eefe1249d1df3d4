"""``mcts``: information-set Monte Carlo tree search for Catan (see :mod:`ludolab.envs.search`
for the search itself).

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
Playouts run with the ``greedy`` agent by default (``policy=random`` for random playouts). With
the native core built (and not in debug mode), a determinisation is loaded into the core and
the tree walk, the play-outs and the policy's choices all run there, with the core's copies of
the policy agents (the same streams and choices as the Python ones: the same decisions, tested);
otherwise on the reference engine, where the main phase gives a lazy view of the legal actions to
agents that ask for one, as :func:`ludolab.envs.catan.play.play_out` does.

**Cut-off play-outs** (``horizon``): a play-out from a decision after the placements may stop
``horizon`` turns later and score the position with a win-probability model fitted on greedy
games (:mod:`ludolab.envs.catan.agents.value`), its chances as the seats' rewards. A play-out to
the end carries every die of the rest of the game, 60-odd turns of luck that drown the
difference one build makes; a few turns on, the model's estimate varies far less, at the cost of
the model's bias. Play-outs from the placements always run to the end: before the dice have
rolled the model knows little (held-out log-loss 1.34 over turns 1-9, against 1.39 for no
knowledge; benchmarks/fit_win_model.py).

``mcts-value`` (:class:`ValueMCTSAgent`) is this agent with cut-off play-outs and every decision
of a turn searched; see its docstring for why its defaults are what they are.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from ludolab.envs.catan import actions as A
from ludolab.envs.catan import native
from ludolab.envs.catan.actions import N_RESOURCES
from ludolab.envs.catan.agents.base import Agent
from ludolab.envs.catan.agents.greedy import BoardInfo, GreedyAgent
from ludolab.envs.catan.agents.value import WEIGHTS, fields_of, win_probabilities
from ludolab.envs.catan.engine import (
    CARDS_PER_RESOURCE,
    DEV_DECK_COUNTS,
    DISCARD,
    MAIN,
    MOVE_ROBBER,
    PRE_ROLL,
    ROAD_BUILDING,
    SETUP_ROAD,
    SETUP_SETTLEMENT,
    STEAL,
    TRADE_CONFIRM,
    TRADE_RESPONSE,
    VICTORY_POINT,
    Game,
)
from ludolab.envs.search import SearchAgent

# The domestic offers of two cards for one (OFFER_TRADE with n_give = 2), as an index range.
_TWO_FOR_ONE = (A.OFFER + len(A.TRADE_PAIRS), A.ACCEPT_TRADE)
_REDEALS = 50  # tries at a deal that leaves nobody else already winning

# The decisions ``search`` can name, by the phases they are taken in.
DECISIONS = {
    "setup": (SETUP_SETTLEMENT, SETUP_ROAD),
    "robber": (MOVE_ROBBER, STEAL),
    "turn": (PRE_ROLL, MAIN, ROAD_BUILDING),
    "discard": (DISCARD,),
    "trade": (TRADE_RESPONSE, TRADE_CONFIRM),
}


class MCTSAgent(SearchAgent, Agent):
    """IS-MCTS on the decisions named by ``search``, the playout policy's choice elsewhere.

    Parameters as in :class:`ludolab.envs.search.SearchAgent` (defaults here: ``playouts``
    1000, ``policy`` greedy, ``root`` halving), ``search``: the decisions searched,
    ``+``-separated from ``setup`` (the two settlements and roads), ``robber`` (where to move
    it, whom to rob), ``turn`` (before the roll, the main phase, free roads), ``discard``,
    ``trade`` (answering and confirming domestic offers), or ``all``; ``candidates``: the
    settlements searched, the best ones by greedy's spot value (default 10; 0 = every legal
    spot), so that the budget goes to spots worth comparing; ``setup_playouts``: the budget
    of the placement decisions (0, the default: ``playouts``); ``horizon``: turns after a
    decision past the placements at which a play-out is cut off and scored by the win model
    (0, the default: play to the end; see the module docstring). Default ``setup``: the
    placements decide much of a game, and there the search beats the greedy policy
    (benchmarks/agent_strength.py); searching the main phase or the robber as well costs many
    times the time per game, and at the budgets tried neither beat placements-only search.
    """

    name = "mcts"
    policies = ("random", "greedy", "lookahead")
    _DEFAULTS = {
        **SearchAgent._DEFAULTS,
        "playouts": 1000,
        "root": "halving",
        "search": "setup",
        "candidates": 10,
        "setup_playouts": 0,
        "horizon": 0,
    }
    _view: Any = None  # the play module's LegalView (see reset)
    lazy_legal = True  # decisions it does not search go to its policy agent, which is lazy

    def __init__(
        self,
        playouts: int = 1000,
        seconds: float = 0.0,
        c: float = 0.7,
        policy: str = "greedy",
        widen: float = 1.0,
        root: str = "halving",
        search: str = "setup",
        candidates: int = 10,
        setup_playouts: int = 0,
        horizon: int = 0,
    ) -> None:
        super().__init__(playouts, seconds, c, policy, widen, root)
        for key, value in (
            ("candidates", candidates),
            ("setup_playouts", setup_playouts),
            ("horizon", horizon),
        ):
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"{key} must be a whole number >= 0, got {value!r}")
        if horizon and policy != "greedy":
            raise ValueError("horizon needs policy=greedy: the win model is fitted on greedy play")
        self.candidates = candidates
        self.setup_playouts = setup_playouts
        self.horizon = horizon
        self._until = -1  # the turn at which play-outs stop (-1: at the end)
        self._mirror: Any = None
        names = DECISIONS if search == "all" else search.split("+")
        unknown = [x for x in names if x not in DECISIONS]
        if unknown or not names:
            raise ValueError(
                f"search must be all or +-separated from {', '.join(DECISIONS)}; got {search!r}"
            )
        self.search = search
        self._searched = frozenset(p for x in names for p in DECISIONS[x])
        self._base: Any = None
        self._ranker: Any = None

    def _parameters(self) -> dict[str, object]:
        return {
            **super()._parameters(),
            "search": self.search,
            "candidates": self.candidates,
            "setup_playouts": self.setup_playouts,
            "horizon": self.horizon,
        }

    def reset(self, seat: int, seed: int) -> None:
        # Imported here: the play module imports this package (and so this module).
        from ludolab.envs.catan.play import LegalView

        super().reset(seat, seed)
        self._seats: list[tuple] | None = None  # the policy agents as the core's seats
        self._agents: Any = None  # the core's copies of them (Core.agents), for this game
        self._view = LegalView
        self._base = self.make_policy(self.policy)
        self._base.reset(seat, seed)
        self._ranker = GreedyAgent()
        self._ranker.reset(seat, seed)

    def act(self, game: Game, legal: Any) -> int:
        if game.phase not in self._searched:
            return self._base.act(game, legal)
        self._mirror = None  # the game loaded into the core, for this decision's deals
        setup = game.phase in DECISIONS["setup"]
        self._until = game.turns + self.horizon if self.horizon and not setup else -1
        if game.phase == SETUP_SETTLEMENT and 0 < self.candidates < len(legal):
            # Stable: equal values keep the legal order.
            values = dict(zip(legal, self._ranker.setup_spot_values(game, legal), strict=True))
            legal = sorted(legal, key=lambda a: -values[a])[: self.candidates]
        return super().act(game, legal)

    def budget(self, game: Game) -> int:
        if self.setup_playouts and game.phase in DECISIONS["setup"]:
            return self.setup_playouts
        return self.playouts

    def _policy_agents(self, n_players: int) -> list[Agent]:
        # SearchAgent's, and the core's seats for the same agents when it makes them anew.
        from ludolab.envs.catan.play import native_seats

        made = len(self._players) != n_players
        players = super()._policy_agents(n_players)
        if made:
            self._seats = native_seats(players, self._policy_seeds)
            self._agents = None
        return players

    def make_policy(self, name: str) -> Agent:
        from ludolab.envs.catan.agents import make_agent

        return make_agent(name)

    def policy_action(self, agent: Any, game: Any) -> int:
        if self._agents is not None and not isinstance(game, Game):  # a determinisation in the core
            return int(game.choose(self._agents))
        lazy = agent.lazy_legal and game.phase == MAIN
        return agent.act(game, self._view(game) if lazy else game.legal_actions())

    def _play_out(self, game: Any, players: list[Agent]) -> None:
        until = self._until
        if self._agents is not None and not isinstance(game, Game):
            game.play(self._agents, until=until)
            return
        while not game.done and (until < 0 or game.turns < until):
            forced = game.forced_action()
            game.step(forced if forced >= 0 else self.policy_action(players[game.acting], game))

    def outcome(self, game: Any) -> list[float]:
        if not game.done:  # a cut-off play-out: the win model's chances
            if not isinstance(game, Game):  # (the core restates the model in C)
                return game.win_chances(WEIGHTS)
            return win_probabilities(fields_of(game), BoardInfo.of(game))
        n = game.n_players
        if game.winner is None:  # cut off at the turn limit: nobody won
            return [1.0 / n] * n
        return [1.0 if q == game.winner else 0.0 for q in range(n)]

    def determinise(self, game: Game) -> Any:
        """A determinisation of ``game`` (see :func:`determinise`), in the native core when the
        core can play the policy agents there: the decision's position is loaded once, and each
        determinisation is a copy of it with the hidden fields dealt again (the same deal)."""
        if self._seats is None or game.options.debug:
            return determinise(game, self.seat, self.rng)
        if self._mirror is None:
            mirror = native.mirror_of(game)  # (its traces left out: the search never reads them)
            if mirror is None:
                return determinise(game, self.seat, self.rng)
            self._mirror = mirror.core
            if self._agents is None:
                self._agents = mirror.core.agents(self._seats)
        deal = deal_hidden(game, self.seat, self.rng)
        core = self._mirror.clone()
        core.set_state(
            {
                "hands": deal.hands,
                "dev_hand": deal.dev_hand,
                "dev_new": deal.dev_new,
                "dev_deck": deal.dev_deck,
                "_dice_rng": deal.dice.getstate()[1],
                "_steal_rng": deal.steals.getstate()[1],
                "_forced_dice": [],
            }
        )
        return core


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


class ValueMCTSAgent(MCTSAgent):
    """``mcts-value``: :class:`MCTSAgent` searching the placements, the robber and every
    decision of its turns (builds, bank trades, offers, development cards), its play-outs after
    the placements cut off ``horizon`` turns on and scored by the win model (see the module
    docstring).

    Its defaults come from runs against three greedy agents (benchmarks/README.md, "A search
    with cut-off play-outs"): with 500 play-outs a decision in turn, a horizon of 8 turns (two
    rounds of four seats) won 41 of 100 games, 16 turns 40, 4 turns 32 (each interval about
    +-10 points: 8 is a middle choice, not a proven best); the placements get 4,000 play-outs
    to the end, the budget at which placement search stopped gaining (36.0% at 4,000, 34.5% at
    8,000; 200 games each). At these defaults it won 43.8% [39.0%, 48.6%] of 400 games against
    three greedy at 3.0 CPU s a game, and 41.2% [36.5%, 46.1%] with twice the budget in turn
    (benchmarks/agent_strength.py, match catan-mcts-value-vs-greedy). Domestic offers of two
    cards for one are not among its choices: a greedy agent that takes an offer takes it
    whatever it is given, so one card for one asks the same of it for less. Discards and
    answers to offers follow the greedy policy.
    """

    name = "mcts-value"
    _DEFAULTS = {
        **MCTSAgent._DEFAULTS,
        "playouts": 500,
        "search": "setup+robber+turn",
        "setup_playouts": 4000,
        "horizon": 8,
    }

    def __init__(self, **params: Any) -> None:
        # MCTSAgent's parameters, this agent's defaults where none is given.
        super().__init__(**{**self._DEFAULTS, **params})  # type: ignore[arg-type]

    def act(self, game: Game, legal: Any) -> int:
        if game.phase == MAIN and MAIN in self._searched:
            legal = [a for a in legal if not _TWO_FOR_ONE[0] <= a < _TWO_FOR_ONE[1]]
        return super().act(game, legal)
