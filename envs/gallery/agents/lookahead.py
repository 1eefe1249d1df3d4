"""``lookahead``: the greedy agent's best few cards, each played out to the end of the game.

When it plays a card, the agent ranks its cards by the greedy agent's one-ply value (see
:mod:`ludolab.envs.gallery.agents.greedy`) and keeps the ``candidates`` best. From each of
``playouts`` determinisations (the cards it cannot see dealt again, as the search agent deals
them: :func:`ludolab.envs.gallery.agents.determinise.determinise`) it plays every candidate and then
the whole rest of the game with a greedy agent in every seat, and counts its wins (a shared
win as a share). All candidates meet the same determinisations, so their difference does not
carry the luck of the deal. It plays the candidate with the most wins, greedy's first choice
on a tie. Every other decision (a double's second card, an award, a face-down or
simultaneous pick) is greedy's.

Unlike ``mcts`` there is no tree: the others' replies are greedy's, not searched, and only
the greedy agent's top cards are compared.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ludolab.envs.gallery import native
from ludolab.envs.gallery.agents.determinise import determinise
from ludolab.envs.gallery.agents.greedy import GreedyAgent
from ludolab.envs.gallery.engine import PLAY

if TYPE_CHECKING:
    from ludolab.envs.gallery.engine import Game


class LookaheadAgent(GreedyAgent):
    """Greedy's ``candidates`` best cards (default 3), each played out to the end of the game
    from ``playouts`` shared determinisations (default 32) with greedy play; the greedy
    parameters (``sharpness``, ``card_value``, ``symbol_hold``, ``opponents``) steer both the
    ranking and the play-outs."""

    name = "lookahead"
    _DEFAULTS = {**GreedyAgent._DEFAULTS, "candidates": 3, "playouts": 32}

    def __init__(
        self,
        sharpness: float = 2.0,
        card_value: float = 2.0,
        symbol_hold: float = 1.0,
        opponents: str = "max",
        candidates: int = 3,
        playouts: int = 32,
    ) -> None:
        super().__init__(sharpness, card_value, symbol_hold, opponents)
        for key, value in (("candidates", candidates), ("playouts", playouts)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{key} must be a whole number >= 1, got {value!r}")
        self.candidates = candidates
        self.playouts = playouts
        self._players: list[GreedyAgent] = []
        # Per candidate card type, its wins at the last card chosen by play-outs (to inspect).
        self.last_wins: dict[int, float] = {}

    def _parameters(self) -> dict[str, object]:
        return {**super()._parameters(), "candidates": self.candidates, "playouts": self.playouts}

    def reset(self, seat: int, seed: int) -> None:
        super().reset(seat, seed)
        # The same numbers as random.Random, in the core's stream when there is a core (its
        # determinisations draw from it in C).
        self.rng = native.stream(self.stream_seed(seat, seed))
        self._players = []

    def act(self, game: Game, legal: Sequence[int]) -> int:
        if game.phase != PLAY or len(legal) == 1 or self.candidates == 1:
            return super().act(game, legal)
        self._read(game)
        hand = game.hands[self.seat]
        value = {t: self._play_value(t, hand) for t in legal}
        # Stable: equal values keep the legal order, as greedy's own choice does.
        ranked = sorted(legal, key=lambda t: -value[t])[: self.candidates]
        players = self._play_out_agents(game.n_players)
        wins = dict.fromkeys(ranked, 0.0)
        me = self.seat
        position = None if game.options.debug else native.core_of(game)
        if position is not None:  # the same play-outs, in the native core
            self._play_off_in_core(position, ranked, wins)
            self.last_wins = wins
            return self._most_wins(ranked, wins)
        for _ in range(self.playouts):
            deal = determinise(game, me, self.rng)
            for t in ranked:
                copy = deal.clone()
                copy.step(t)
                while not copy.done:
                    forced = copy.forced_action()
                    if forced < 0:
                        forced = players[copy.acting].act(copy, copy.legal_actions())
                    copy.step(forced)
                if me in copy.winners:
                    wins[t] += 1.0 / len(copy.winners)
        self.last_wins = wins
        return self._most_wins(ranked, wins)

    @staticmethod
    def _most_wins(ranked: list[int], wins: dict[int, float]) -> int:
        """The candidate with the most wins; the first in greedy's order on a tie."""
        best = ranked[0]
        for t in ranked[1:]:
            if wins[t] > wins[best]:
                best = t
        return best

    def _play_off_in_core(self, position: Any, ranked: list[int], wins: dict[int, float]) -> None:
        """The play-off of :meth:`act` on the decision's position in the core: the same
        determinisations (from the same numbers of ``rng``), the same greedy play-outs."""
        me, n = self.seat, position.n_players
        greedy = ("greedy", self.sharpness, self.card_value, self.symbol_hold)
        agents = position.agents([(*greedy, self.opponents == "mean")] * n)
        for _ in range(self.playouts):
            deal = position.determinised(self.rng, me)
            for t in ranked:
                copy = deal.clone()
                copy.step(t)
                copy.play(agents)
                winners = copy.winners
                if me in winners:
                    wins[t] += 1.0 / len(winners)

    def _play_out_agents(self, n_players: int) -> list[GreedyAgent]:
        if len(self._players) != n_players:
            self._players = [
                GreedyAgent(self.sharpness, self.card_value, self.symbol_hold, self.opponents)
                for _ in range(n_players)
            ]
            for q, agent in enumerate(self._players):
                agent.reset(q, self.rng.getrandbits(62))
        return self._players


__all__ = ["LookaheadAgent"]
