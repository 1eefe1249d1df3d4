"""``mcts``: information-set Monte Carlo tree search for Masters Gallery (see
:mod:`ludolab.envs.search` for the search itself; the determinisations are
:mod:`ludolab.envs.gallery.agents.determinise`'s).

With the native core built (and not in debug mode), each decision's position is loaded into the
core once, and its determinisations, the tree's steps, the playout policy's choices and the
play-outs run there, with the core's copies of the playout agents (the same streams and
choices as the Python ones: the same decisions, tested in tests/test_gallery_core.py); otherwise
on the reference engine.
"""

from __future__ import annotations

from typing import Any

from ludolab.envs.gallery import native
from ludolab.envs.gallery.agents.base import Agent
from ludolab.envs.gallery.agents.determinise import determinise
from ludolab.envs.gallery.agents.greedy import GreedyAgent, LeaderAgent
from ludolab.envs.gallery.agents.native_seats import native_seats
from ludolab.envs.gallery.agents.random_agent import RandomAgent
from ludolab.envs.gallery.engine import Game
from ludolab.envs.search import SearchAgent

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
        self._seats: list[tuple] | None = None  # the playout agents as the core's seats
        self._agents: Any = None  # the core's copies of the playout agents, for this game
        self._position: Any = None  # this decision's position in the core

    def reset(self, seat: int, seed: int) -> None:
        super().reset(seat, seed)
        # The same numbers as the random.Random the base class seeds, in the core's stream
        # when there is a core (its determinisations draw from it in C).
        self.rng = native.stream(self.stream_seed(seat, seed))
        self._seats = self._agents = None

    def _policy_agents(self, n_players: int) -> list[Agent]:
        # SearchAgent's, and the core's seats for the same agents when it makes them anew.
        made = len(self._players) != n_players
        players = super()._policy_agents(n_players)
        if made:
            self._seats = native_seats(players, self._policy_seeds)
            self._agents = None
        return players  # type: ignore[return-value]

    def act(self, game: Game, legal: Any) -> int:
        self._position = None  # the decision's position is loaded into the core once
        return super().act(game, legal)

    def make_policy(self, name: str) -> Agent:
        return _POLICIES[name]()

    def outcome(self, game: Any) -> list[float]:
        share = 1.0 / len(game.winners) if game.winners else 0.0
        return [share if q in game.winners else 0.0 for q in range(game.n_players)]

    def _position_in_core(self, game: Game) -> Any:
        """The decision's position in the native core (loaded once per decision), or None where
        the search runs on the reference: no core, a playout agent the core does not have, or
        debug mode (which checks the reference's steps, so they must be taken)."""
        if self._seats is None or game.options.debug:
            return None
        if self._position is None:
            position = native.core_of(game)
            if position is None:
                return None
            if self._agents is None:
                self._agents = position.agents(self._seats)
            self._position = position
        return self._position

    def determinise(self, game: Game) -> Any:
        """A determinisation of ``game`` (see :func:`determinise`); in the native core when the
        core can play the playout agents there, dealt there from the same numbers of ``rng``."""
        position = self._position_in_core(game)
        if position is None:
            return determinise(game, self.seat, self.rng)
        return position.determinised(self.rng, self.seat)

    def policy_action(self, agent: Any, game: Any) -> int:
        if self._agents is not None and not isinstance(game, Game):  # a position in the core
            return int(game.choose(self._agents))
        return int(agent.act(game, game.legal_actions()))

    def _play_out(self, game: Any, players: list[Any]) -> None:
        if self._agents is not None and not isinstance(game, Game):
            game.play(self._agents)
            return
        super()._play_out(game, players)
