"""``mcts``: information-set Monte Carlo tree search for Catan (see :mod:`ludolab.envs.search`
for the search itself).

A determinisation deals again what the seat cannot see, from the public counts (see
:mod:`ludolab.envs.catan.agents.determinise`). Playouts run with the ``greedy`` agent by
default (``policy=random`` for random playouts). With the native core built (and not in debug
mode), a determinisation is loaded into the core and the tree walk, the play-outs and the
policy's choices all run there, with the core's copies of the policy agents (the same streams
and choices as the Python ones: the same decisions, tested); otherwise on the reference engine,
where the main phase gives a lazy view of the legal actions to agents that ask for one, as
:func:`ludolab.envs.catan.loop.play_out` does.

**Cut-off play-outs** (``horizon``): a play-out from a decision after the placements may stop
``horizon`` turns later and score the position with a win-probability model fitted on greedy
games (:mod:`ludolab.envs.catan.agents.value`), its chances as the seats' rewards. A play-out to
the end carries every die of the rest of the game, 60-odd turns of luck that drown the
difference one build makes; a few turns on, the model's estimate varies far less, at the cost of
the model's bias. Play-outs from a placement run to the end unless ``setup_horizon`` is set:
turn 30, say, where the model knows more than in the first turns (held-out log-loss 1.18 over
turns 20-39, 1.34 over turns 1-9, 1.39 for no knowledge; benchmarks/fit_win_model.py).

``mcts-value`` (:class:`ValueMCTSAgent`) is this agent with cut-off play-outs and every decision
of a turn searched; see its docstring for why its defaults are what they are.
"""

from __future__ import annotations

from typing import Any

from ludolab.envs.catan import actions as A
from ludolab.envs.catan import native
from ludolab.envs.catan.agents.base import Agent
from ludolab.envs.catan.agents.determinise import determinise
from ludolab.envs.catan.agents.greedy import BoardInfo, GreedyAgent
from ludolab.envs.catan.agents.lookahead import LookaheadAgent
from ludolab.envs.catan.agents.native_seats import native_seats
from ludolab.envs.catan.agents.random_agent import RandomAgent
from ludolab.envs.catan.agents.value import WEIGHTS, fields_of, win_probabilities
from ludolab.envs.catan.engine import (
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
    Game,
)
from ludolab.envs.catan.loop import LegalView
from ludolab.envs.search import SearchAgent

# The playout policies, by the names ``policy`` takes.
_POLICIES: dict[str, type[Agent]] = {
    "random": RandomAgent,
    "greedy": GreedyAgent,
    "lookahead": LookaheadAgent,
}

# The domestic offers of two cards for one (OFFER_TRADE with n_give = 2), as an index range.
_TWO_FOR_ONE = (A.OFFER + len(A.TRADE_PAIRS), A.ACCEPT_TRADE)

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
    (0, the default: play to the end; see the module docstring); ``flat``: judge each decision
    after the placements by play-outs alone from each root action (the playout policy plays on;
    no tree with random expansions below the root), with ``root=halving`` (default false);
    ``setup_horizon``, ``setup_flat``: the same for the placements (the turn of the game at
    which their play-outs are cut off, 0 for none; whether they are judged flat).
    Default ``setup``: the placements decide much of a game, and there the search beats the
    greedy policy (benchmarks/agent_strength.py); searching the main phase or the robber as
    well costs many times the time per game, and at the budgets tried neither beat
    placements-only search.
    """

    name = "mcts"
    policies = tuple(_POLICIES)
    _DEFAULTS = {
        **SearchAgent._DEFAULTS,
        "playouts": 1000,
        "root": "halving",
        "search": "setup",
        "candidates": 10,
        "setup_playouts": 0,
        "horizon": 0,
        "setup_horizon": 0,
        "setup_flat": False,
    }
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
        flat: bool = False,
        setup_horizon: int = 0,
        setup_flat: bool = False,
    ) -> None:
        super().__init__(playouts, seconds, c, policy, widen, root, flat)
        for key, value in (
            ("candidates", candidates),
            ("setup_playouts", setup_playouts),
            ("horizon", horizon),
            ("setup_horizon", setup_horizon),
        ):
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"{key} must be a whole number >= 0, got {value!r}")
        for key, value in (("horizon", horizon), ("setup_horizon", setup_horizon)):
            if value and policy != "greedy":
                raise ValueError(
                    f"{key} needs policy=greedy: the win model is fitted on greedy play"
                )
        if not isinstance(setup_flat, bool):
            raise ValueError(f"setup_flat must be true or false, got {setup_flat!r}")
        if setup_flat and root != "halving":
            raise ValueError(
                "setup_flat applies to root=halving (the root's actions compared flat)"
            )
        self.candidates = candidates
        self.setup_playouts = setup_playouts
        self.horizon = horizon
        self.setup_horizon = setup_horizon
        self.setup_flat = setup_flat
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
        shared = super()._parameters()
        flat = shared.pop("flat")  # last, where the specs already written have it
        return {
            **shared,
            "search": self.search,
            "candidates": self.candidates,
            "setup_playouts": self.setup_playouts,
            "horizon": self.horizon,
            "flat": flat,
            "setup_horizon": self.setup_horizon,
            "setup_flat": self.setup_flat,
        }

    def reset(self, seat: int, seed: int) -> None:
        super().reset(seat, seed)
        # The same numbers as the ``random.Random`` the base class seeds, in the core's stream
        # when there is one: the core then deals determinisations from it itself.
        self.rng = native.stream(self.stream_seed(seat, seed))
        self._seats: list[tuple] | None = None  # the policy agents as the core's seats
        self._agents: Any = None  # the core's copies of them (Core.agents), for this game
        self._base = self.make_policy(self.policy)
        self._base.reset(seat, seed)
        self._ranker = GreedyAgent()
        self._ranker.reset(seat, seed)

    def act(self, game: Game, legal: Any) -> int:
        if game.phase not in self._searched:
            return self._base.act(game, legal)
        self._mirror = None  # the game loaded into the core, for this decision's deals
        horizon = self.setup_horizon if game.phase in DECISIONS["setup"] else self.horizon
        self._until = game.turns + horizon if horizon else -1
        if game.phase == SETUP_SETTLEMENT and 0 < self.candidates < len(legal):
            # Stable: equal values keep the legal order.
            values = dict(zip(legal, self._ranker.setup_spot_values(game, legal), strict=True))
            legal = sorted(legal, key=lambda a: -values[a])[: self.candidates]
        return super().act(game, legal)

    def judged_flat(self, game: Any) -> bool:
        if game.phase in DECISIONS["setup"]:
            return self.setup_flat
        return super().judged_flat(game)

    def budget(self, game: Game) -> int:
        if self.setup_playouts and game.phase in DECISIONS["setup"]:
            return self.setup_playouts
        return self.playouts

    def _policy_agents(self, n_players: int) -> list[Agent]:
        # SearchAgent's, and the core's seats for the same agents when it makes them anew.
        made = len(self._players) != n_players
        players = super()._policy_agents(n_players)
        if made:
            self._seats = native_seats(players, self._policy_seeds)
            self._agents = None
        return players

    def make_policy(self, name: str) -> Agent:
        return _POLICIES[name]()

    def policy_action(self, agent: Any, game: Any) -> int:
        if self._agents is not None and not isinstance(game, Game):  # a determinisation in the core
            return int(game.choose(self._agents))
        lazy = agent.lazy_legal and game.phase == MAIN
        return agent.act(game, LegalView(game) if lazy else game.legal_actions())

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

    def _position_in_core(self, game: Game) -> Any:
        """The decision's position loaded into the native core (once per decision), or None
        where the search runs on the reference: no core, a policy the core does not have, or
        debug mode (which checks the reference's steps, so they must be taken)."""
        if self._seats is None or game.options.debug:
            return None
        if self._mirror is None:
            mirror = native.mirror_of(game)  # (its traces left out: the search never reads them)
            if mirror is None:
                return None
            self._mirror = mirror.core
            if self._agents is None:
                self._agents = mirror.core.agents(self._seats)
        return self._mirror

    def determinise(self, game: Game) -> Any:
        """A determinisation of ``game`` (see :func:`determinise`); in the native core when the
        core can play the policy agents there, dealt there from the same numbers of ``rng``
        (``Core.determinised`` states :func:`deal_hidden` a second time)."""
        position = self._position_in_core(game)
        if position is None:
            return determinise(game, self.seat, self.rng)
        return position.determinised(self.rng, self.seat)

    def _flat_round(
        self, game: Any, left: list[int], players: list[Agent], reps: int, children: dict
    ) -> None:
        position = self._position_in_core(game)
        if position is None:
            super()._flat_round(game, left, players, reps, children)
            return
        # The same determinisations, play-outs and sums as the loop of SearchAgent, in C.
        totals = position.flat_trials(
            self.rng,
            self.seat,
            left,
            self._agents,
            self._until,
            WEIGHTS,
            reps,
            [children[a].total for a in left],
        )
        for a, total in zip(left, totals, strict=True):
            children[a].total = total
            children[a].visits += reps


class ValueMCTSAgent(MCTSAgent):
    """``mcts-value``: :class:`MCTSAgent` searching the placements, the robber and every
    decision of its turns (builds, bank trades, offers, development cards), every decision
    judged flat (each root action by the greedy policy playing on from it, no tree below it),
    its play-outs cut off and scored by the win model (see the module docstring): ``horizon``
    turns after a decision in the game, at turn ``setup_horizon`` from a placement.

    Its defaults come from runs against three greedy agents (benchmarks/README.md, "A search
    with cut-off play-outs" and "search_cost.py"). In turn: with 500 play-outs a decision, a
    horizon of 8 turns (two rounds of four seats) won 41 of 100 games, 16 turns 40, 4 turns 32
    (each interval about +-10 points: 8 is a middle choice, not a proven best). Judged with a
    tree below each root action instead (``flat=false``) it won 43.8% [39.0%, 48.6%] of 400
    games, and no more with twice the budget: with a few dozen iterations per root action, we
    think, the tree's random expansions of the decisions that follow weigh on the action's
    value. Judged flat, with 4,000 play-outs to the end and a tree for each placement (the
    defaults until issue 52: ``setup_flat=false,setup_horizon=0,setup_playouts=4000``), it won
    56.0% [51.1%, 60.8%] of 400 games on seed 0's boards and dice at 2.6 CPU s a game (commit
    95bc26f). The placements then took most of its time; judged flat too, their play-outs cut
    off at turn 30 (the win model knows more by then: held-out log-loss 1.18 over turns 20-39,
    1.34 over turns 1-9) and 1,000 play-outs each, it won 56.8% [51.9%, 61.5%] of the same
    games at 0.59 CPU s (cut off at turn 4, 10 or 20 with 4,000 play-outs: 46.5%, 50.0%,
    53.8%; with 400 play-outs in turn: 52.0%); docs/games/catan.md, "Search agents", has its
    check on other boards and dice. Domestic offers of two cards for one are not among its
    choices: a greedy agent that takes an offer takes it whatever it is given, so one card for
    one asks the same of it for less. Discards and answers to offers follow the greedy policy.
    """

    name = "mcts-value"
    _DEFAULTS = {
        **MCTSAgent._DEFAULTS,
        "playouts": 500,
        "search": "setup+robber+turn",
        "setup_playouts": 1000,
        "horizon": 8,
        "flat": True,
        "setup_horizon": 30,
        "setup_flat": True,
    }

    def __init__(self, **params: Any) -> None:
        # MCTSAgent's parameters, this agent's defaults where none is given.
        super().__init__(**{**self._DEFAULTS, **params})  # type: ignore[arg-type]

    def act(self, game: Game, legal: Any) -> int:
        if game.phase == MAIN and MAIN in self._searched:
            legal = [a for a in legal if not _TWO_FOR_ONE[0] <= a < _TWO_FOR_ONE[1]]
        return super().act(game, legal)
