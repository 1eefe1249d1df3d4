"""The game passes ludolab's conformance suite (``ludolab.testing.check_game``), is found
through the entry point, and games with planted defects fail it at the check that names the
defect."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from typing import Any

import pytest

from ludolab import games
from ludolab.envs.rules import IllegalActionError
from ludolab.testing import CHECKS, ConformanceError, check_game
from ludolab_goofspiel.engine import GoofspielState
from ludolab_goofspiel.game import GAME, Goofspiel


def test_the_entry_point_finds_this_game() -> None:
    assert "goofspiel" in games.names()
    assert games.get("goofspiel") is GAME


def test_the_game_conforms() -> None:
    report = check_game(GAME)
    assert report.checks == CHECKS
    assert report.game == "goofspiel" and report.decisions > 0


# -- planted defects (run=False: they are not registered, and fail before the run) ---------


class UnseededPlay(Goofspiel):
    """play() ignores the game seed: its agents draw from the global generator."""

    def play(self, setup: Any, agents: Sequence[Any], seed: int, options: Any = None) -> Any:
        record = super().play(setup, agents, random.randrange(2**31), options)
        return dataclasses.replace(record, seed=seed)


class OffersSpentCards(GoofspielState):
    """legal_actions() offers the cards already bid too (the full suit, every time)."""

    def legal_actions(self) -> list[int]:
        return [] if self.done else list(range(1, self.options.cards + 1))

    def forced_action(self) -> int:
        return -1

    def clone(self) -> OffersSpentCards:
        copy = OffersSpentCards.__new__(OffersSpentCards)
        copy.__dict__.update(super().clone().__dict__)
        return copy


class AcceptsAnyCard(GoofspielState):
    """step() takes a card the seat does not hold without a word (it bids nothing)."""

    def step(self, action: int) -> None:
        if not self.done and action not in self.hands[len(self.pending)]:
            return
        super().step(action)

    def clone(self) -> AcceptsAnyCard:
        copy = AcceptsAnyCard.__new__(AcceptsAnyCard)
        copy.__dict__.update(super().clone().__dict__)
        return copy


class SharesHands(GoofspielState):
    """clone() copies everything but the hands, which the copy shares with its original."""

    def clone(self) -> SharesHands:
        copy = SharesHands.__new__(SharesHands)
        copy.__dict__.update(super().clone().__dict__)
        copy.hands = self.hands
        return copy


def _with_state(state_type: type) -> Goofspiel:
    class Planted(Goofspiel):
        def new_state(self, setup: Any, players: int, seed: int, options: Any = None) -> Any:
            return state_type(setup, players, seed, self._options(options))

    return Planted()


@pytest.mark.parametrize(
    ("game", "check", "says"),
    [
        (UnseededPlay(), "determinism", "play() gave different records"),
        # The suite plays the reference engine with random agents (play_out) in its
        # determinism check, before the legal-actions walk: a spent card offered is caught
        # there first, as the IllegalActionError its replay raises.
        (_with_state(OffersSpentCards), "determinism", "raised IllegalActionError"),
        (_with_state(AcceptsAnyCard), "illegal actions", "was accepted"),
        (_with_state(SharesHands), "clone", "clone() must copy every mutable part"),
    ],
)
def test_a_planted_defect_fails_the_check_that_names_it(
    game: Goofspiel, check: str, says: str
) -> None:
    with pytest.raises(ConformanceError) as caught:
        check_game(game, run=False)
    message = str(caught.value)
    assert message.startswith(f"{check}: "), message
    assert says in message, message


def test_the_planted_illegal_card_is_the_one_named() -> None:
    """The failure names the spent card that legal_actions() offered and the hand it is not
    in."""
    with pytest.raises(ConformanceError) as caught:
        check_game(_with_state(OffersSpentCards), run=False)
    message = str(caught.value)
    assert message.startswith("determinism: play_out() of new_state() for game 0"), message
    assert isinstance(caught.value.__cause__, IllegalActionError)
    detail = message.split("IllegalActionError: action ", 1)[1]
    card = int(detail.split(" ", 1)[0])
    hand = [int(c) for c in detail.split("its hand is [", 1)[1].split("]", 1)[0].split(",")]
    assert card not in hand
