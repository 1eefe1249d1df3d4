"""The loop agents play a Catan game in: :func:`play_out`, and :class:`LegalView`, the lazy list
of legal actions it gives agents that ask for one.

Below the agents (a search agent plays its play-outs with these) and above the engine; compiled
with the engine (setup.py). :func:`ludolab.envs.catan.play.play_game` plays whole games with it.
"""

from __future__ import annotations

import operator
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, SupportsIndex, overload

from ludolab.envs.catan.engine import MAIN, Game

if TYPE_CHECKING:
    from ludolab.envs.catan.agents.base import Agent


class LegalView(Sequence[int]):
    """``game.legal_actions()`` listed only when read: a read-only sequence of the legal actions
    of the seat acting now, always up to date with ``game``.

    The main phase has the longest lists (every road, settlement, trade...) and an agent such as
    the greedy one decides there by asking ``game.is_legal`` about the few actions it considers;
    listing them all for it costs more than its decision (see :attr:`Agent.lazy_legal`).
    """

    __slots__ = ("_game",)

    def __init__(self, game: Game) -> None:
        self._game = game

    @overload
    def __getitem__(self, index: int) -> int: ...
    @overload
    def __getitem__(self, index: slice) -> list[int]: ...
    def __getitem__(self, index: int | slice) -> int | list[int]:
        return self._game.legal_actions()[index]

    def __len__(self) -> int:
        return len(self._game.legal_actions())

    def __iter__(self) -> Iterator[int]:
        return iter(self._game.legal_actions())

    def __contains__(self, action: object) -> bool:
        return action in self._game.legal_actions()

    def __repr__(self) -> str:
        return f"LegalView({self._game.legal_actions()!r})"


def play_out(game: Game, agents: Sequence[Agent], seed: SupportsIndex) -> None:
    """:func:`ludolab.envs.agents.play_out` for Catan: reset seat ``i``'s agent with (``i``,
    ``seed``), then let the agents decide until the game is over; agents with
    :attr:`Agent.lazy_legal` get a :class:`LegalView` in the main phase rather than the listed
    actions.

    The same loop as the generic one, written again here because this module is compiled with
    the engine (setup.py): typed, it calls the engine natively, which makes random games about
    40% and greedy ones about 15% faster than the generic loop.
    """
    seed = operator.index(seed)  # numpy's integers too
    for seat, agent in enumerate(agents):
        agent.reset(seat, seed)
    lazy = [bool(getattr(agent, "lazy_legal", False)) for agent in agents]
    view = LegalView(game)
    while not game.done:
        seat = game.acting
        forced = game.forced_action()
        if forced >= 0:  # not a decision (declining an offer without the card): no agent asked
            game.step(forced)
            continue
        legal = view if lazy[seat] and game.phase == MAIN else game.legal_actions()
        game.step(agents[seat].act(game, legal))
