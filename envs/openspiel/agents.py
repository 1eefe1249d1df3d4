"""OpenSpiel's bots as ludolab agents, the same for every OpenSpiel game.

* ``random``: OpenSpiel's uniform random bot (``pyspiel.make_uniform_random_bot``).
* ``mcts``: OpenSpiel's Monte Carlo tree search with random roll-outs (``pyspiel.MCTSBot``,
  UCT), for games of perfect information (it reads the whole state). ``simulations`` is the
  budget per decision; ``rollouts`` the random play-outs that value a leaf; ``uct_c`` the
  exploration constant; ``solve`` proves won and lost subtrees (MCTS-Solver).
* ``ismcts``: ludolab's shared information-set MCTS (:class:`ludolab.envs.search.SearchAgent`)
  with random play-outs, for games of imperfect information: each iteration deals what the
  seat cannot see again (OpenSpiel's ``resample_from_infostate``, drawing from the agent's
  stream) and draws the chance events to come afresh, so it never reads a hidden card or a
  future die. On a game of perfect information it is plain MCTS over resampled chance.
  OpenSpiel's own ``ISMCTSBot`` is not seated: with a fixed seed it still chooses differently
  from run to run, and a rerun must be the same game.

Every agent draws from its own stream (:meth:`ludolab.envs.agents.Agent.reset`: the game seed
and the seat), so a game is the same game when it is played again.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, ClassVar

from ludolab.envs.agents import Agent, AgentRegistry, AgentSpecError, spec_string
from ludolab.envs.openspiel.engine import OpenSpielError, OpenSpielState, pyspiel_module
from ludolab.envs.search import SearchAgent


class OpenSpielAgent(Agent):
    """An agent of any OpenSpiel game: ``act(game, legal)`` gets the :class:`OpenSpielState`
    and asks a bot about ``game.spiel``."""

    game: ClassVar[str] = "openspiel"

    def reset(self, seat: int, seed: int) -> None:
        super().reset(seat, seed)
        self._bot: Any = None

    def _bot_seed(self) -> int:
        return self.rng.getrandbits(31)

    def make_bot(self, spiel_game: Any) -> Any:
        raise NotImplementedError

    def act(self, game: OpenSpielState, legal: Sequence[int]) -> int:
        if self._bot is None:
            self._bot = self.make_bot(game.spiel.get_game())
        pyspiel = pyspiel_module()
        try:
            return int(self._bot.step(game.spiel))
        except pyspiel.SpielError as exc:
            raise OpenSpielError(
                f"agent {self.spec!r} cannot play {game.game}: OpenSpiel says {exc}"
            ) from None


class RandomAgent(OpenSpielAgent):
    """OpenSpiel's uniform random bot: each legal action with equal probability."""

    name = "random"

    def make_bot(self, spiel_game: Any) -> Any:
        return pyspiel_module().make_uniform_random_bot(self.seat, self._bot_seed())


class MCTSAgent(OpenSpielAgent):
    """OpenSpiel's MCTS with random roll-outs, for games of perfect information.

    Args:
        simulations: tree searches per decision (the budget).
        rollouts: random play-outs that value each new leaf.
        uct_c: the UCT exploration constant.
        solve: prove won and lost subtrees (MCTS-Solver).
    """

    name = "mcts"
    DEFAULTS: ClassVar[dict[str, object]] = {
        "simulations": 100,
        "rollouts": 1,
        "uct_c": 2.0,
        "solve": False,
    }

    def __init__(
        self, simulations: int = 100, rollouts: int = 1, uct_c: float = 2.0, solve: bool = False
    ) -> None:
        super().__init__()
        for key, value in (("simulations", simulations), ("rollouts", rollouts)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise AgentSpecError(
                    f"mcts: {key} must be a whole number of 1 or more, got {value!r}"
                )
        if isinstance(uct_c, bool) or not isinstance(uct_c, int | float) or uct_c <= 0:
            raise AgentSpecError(f"mcts: uct_c must be a number above 0, got {uct_c!r}")
        if not isinstance(solve, bool):
            raise AgentSpecError(f"mcts: solve must be true or false, got {solve!r}")
        self.simulations, self.rollouts = simulations, rollouts
        self.uct_c, self.solve = float(uct_c), solve

    @property
    def spec(self) -> str:
        params = {
            "simulations": self.simulations,
            "rollouts": self.rollouts,
            "uct_c": self.uct_c,
            "solve": self.solve,
        }
        return spec_string(self.name, params, self.DEFAULTS)

    def make_bot(self, spiel_game: Any) -> Any:
        pyspiel = pyspiel_module()
        if spiel_game.get_type().information != pyspiel.GameType.Information.PERFECT_INFORMATION:
            raise OpenSpielError(
                f"mcts reads the whole state, and {spiel_game.get_type().long_name} hides "
                "some of it: seat ismcts instead"
            )
        evaluator = pyspiel.RandomRolloutEvaluator(self.rollouts, self._bot_seed())
        return pyspiel.MCTSBot(
            spiel_game,
            evaluator,
            self.uct_c,
            self.simulations,
            1000,  # MB of tree memory before the search stops growing it
            self.solve,
            self._bot_seed(),
            False,
        )


class ISMCTSAgent(SearchAgent, Agent):
    """Information-set MCTS (:class:`ludolab.envs.search.SearchAgent`) with random play-outs:
    ``playouts`` iterations per decision (default 200), UCB1 constant ``c``, progressive
    widening ``widen``, root choice ``root`` (``ucb`` or ``halving``)."""

    name = "ismcts"
    game: ClassVar[str] = "openspiel"
    policies = ("random",)
    _DEFAULTS = {**SearchAgent._DEFAULTS, "policy": "random"}

    def __init__(
        self,
        playouts: int = 200,
        seconds: float = 0.0,
        c: float = 0.7,
        policy: str = "random",
        widen: float = 1.0,
        root: str = "ucb",
        flat: bool = False,
    ) -> None:
        try:
            super().__init__(playouts, seconds, c, policy, widen, root, flat)
        except ValueError as exc:
            raise AgentSpecError(f"ismcts: {exc}") from None

    def make_policy(self, name: str) -> Agent:
        return RandomAgent()

    def outcome(self, game: OpenSpielState) -> list[float]:
        winners = game.winners
        share = 1.0 / len(winners) if winners else 0.0
        return [share if q in winners else 0.0 for q in range(game.n_players)]

    def determinise(self, game: OpenSpielState) -> OpenSpielState:
        """A copy of ``game`` with what ``self.seat`` cannot see dealt again and the chance
        events to come drawn from a stream of the agent's own."""
        copy = game.clone()
        pyspiel = pyspiel_module()
        kind = game.spiel.get_game().get_type()
        if kind.information != pyspiel.GameType.Information.PERFECT_INFORMATION:
            try:
                copy.spiel = game.spiel.resample_from_infostate(self.seat, self.rng.random)
            except pyspiel.SpielError:
                raise OpenSpielError(
                    f"ismcts cannot play {game.game}: OpenSpiel cannot deal its hidden state "
                    "again (no ResampleFromInfostate)"
                ) from None
        copy.reseed_chance(random.Random(self.rng.getrandbits(64)))
        return copy


def registry(game: str) -> AgentRegistry:
    """The agents of the ludolab game ``game`` (``openspiel:go``)."""
    return AgentRegistry(game, [RandomAgent, MCTSAgent, ISMCTSAgent])


__all__ = ["ISMCTSAgent", "MCTSAgent", "OpenSpielAgent", "RandomAgent", "registry"]
