"""The conformance suite (ludolab.testing): the built-in games pass it, and games with planted
defects fail it at the check that names the defect."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from typing import Any

import pytest

from ludolab import games
from ludolab.testing import CHECKS, ConformanceError, ConformanceReport, check_game

Gallery: type = type(games.get("gallery"))
Catan: type = type(games.get("catan"))


@pytest.fixture(scope="module")
def reports() -> dict[str, ConformanceReport]:
    return {name: check_game(name) for name in ("catan", "gallery")}


@pytest.mark.parametrize("name", ["catan", "gallery"])
def test_the_built_in_games_conform(reports: dict[str, ConformanceReport], name: str) -> None:
    report = reports[name]
    assert report.game == name
    assert report.checks == CHECKS
    assert report.games == 3 and report.decisions > 0


def test_a_registered_name_checks_the_same_as_the_instance(
    reports: dict[str, ConformanceReport],
) -> None:
    assert check_game(games.get("gallery")) == reports["gallery"]
    without_run = check_game("gallery", run=False)
    assert without_run.checks == CHECKS[:-1]
    assert dataclasses.replace(without_run, checks=CHECKS) == reports["gallery"]


def test_the_seed_decides_the_games() -> None:
    one, other = (check_game("gallery", seed=s, run=False) for s in (1, 2))
    assert check_game("gallery", seed=1, run=False) == one
    assert one.decisions != other.decisions


# -- planted defects ---------------------------------------------------------------------------


class Proxy:
    """The real state seen through a wrapper; each planted defect overrides a method."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def step(self, action: int) -> None:
        self.inner.step(action)

    def clone(self) -> Proxy:
        return type(self)(self.inner.clone())


class Wrapped(Gallery):  # type: ignore[misc, valid-type]
    """Masters Gallery whose reference engine hands out ``proxy`` states."""

    proxy: type[Proxy] = Proxy

    def new_state(self, setup: Any, players: int, seed: int, options: Any = None) -> Any:
        return self.proxy(super().new_state(setup, players, seed, options))

    def state_record(self, state: Any, agent_specs: Sequence[str]) -> Any:
        return super().state_record(state.inner, agent_specs)


class AcceptsIllegal(Proxy):
    def step(self, action: int) -> None:
        if action in self.inner.legal_actions():  # anything else is dropped without a word
            self.inner.step(action)


class Unseeded(Proxy):
    def step(self, action: int) -> None:
        legal = self.inner.legal_actions()
        if len(legal) > 1 and random.random() < 0.2:  # the global generator: not the seed's
            action = random.choice(legal)
        self.inner.step(action)


class SharedClone(Proxy):
    def clone(self) -> Proxy:
        return SharedClone(self.inner)  # a new wrapper around the same state


class SharedHands(Proxy):
    def clone(self) -> Proxy:
        copy = self.inner.clone()
        copy.hands = self.inner.hands  # a shallow copy of one part: the subtle kind
        return SharedHands(copy)


class LeakyPlay(Gallery):  # type: ignore[misc, valid-type]
    """play() keeps a count between calls and lets it into the game."""

    calls = 0

    def play(self, setup: Any, agents: Sequence[Any], seed: int, options: Any = None) -> Any:
        self.calls += 1
        record = super().play(setup, agents, seed + self.calls, options)
        return dataclasses.replace(record, seed=seed)


class NoTruncated(Catan):  # type: ignore[misc, valid-type]
    """A record type without the core's last field."""

    @property
    def record_type(self) -> type:
        real = super().record_type
        kept = [(f.name, f.type) for f in dataclasses.fields(real) if f.name != "truncated"]
        return dataclasses.make_dataclass("Partial", kept, frozen=True)


class BadWinners(Gallery):  # type: ignore[misc, valid-type]
    """Records whose winner is a seat the game does not have."""

    def play(self, setup: Any, agents: Sequence[Any], seed: int, options: Any = None) -> Any:
        return dataclasses.replace(super().play(setup, agents, seed, options), winners=(9,))

    def state_record(self, state: Any, agent_specs: Sequence[str]) -> Any:
        return dataclasses.replace(super().state_record(state, agent_specs), winners=(9,))


class ShortScores(Gallery):  # type: ignore[misc, valid-type]
    """Final scores that drop the last seat."""

    def play(self, setup: Any, agents: Sequence[Any], seed: int, options: Any = None) -> Any:
        record = super().play(setup, agents, seed, options)
        return dataclasses.replace(record, final_scores=record.final_scores[:-1])

    def state_record(self, state: Any, agent_specs: Sequence[str]) -> Any:
        record = super().state_record(state, agent_specs)
        return dataclasses.replace(record, final_scores=record.final_scores[:-1])


def wrapped(proxy: type[Proxy]) -> Wrapped:
    return type(f"Wrapped{proxy.__name__}", (Wrapped,), {"proxy": proxy})()


@pytest.mark.parametrize(
    ("game", "message"),
    [
        pytest.param(
            wrapped(AcceptsIllegal),
            r"^illegal actions: step\(\d+\) was accepted at decision 0 of game 0 ",
            id="accepts-an-illegal-action",
        ),
        pytest.param(
            wrapped(Unseeded),
            r"^determinism: play\(\) and the reference engine .* disagree",
            id="step-draws-from-the-global-generator",
        ),
        pytest.param(
            LeakyPlay(),
            r"^determinism: play\(\) gave different records .* with the same setup",
            id="play-varies-between-calls",
        ),
        pytest.param(
            wrapped(SharedClone),
            r"^clone: stepping the clone from decision \d+ .* changed the original",
            id="clone-is-the-same-state",
        ),
        pytest.param(wrapped(SharedHands), r"^clone: ", id="clone-shares-the-hands"),
        pytest.param(
            NoTruncated(),
            r"^description: record_type Partial's first fields .* \(truncated missing\)",
            id="record-type-lacks-a-core-field",
        ),
        pytest.param(
            BadWinners(),
            r"^record core: play\(\)'s record of game 0 .* winners = \(9,\)",
            id="winner-out-of-range",
        ),
        pytest.param(
            ShortScores(),
            r"^record core: .* final_scores = .* tuple of 2 numbers, one per seat",
            id="a-final-score-missing",
        ),
    ],
)
def test_a_planted_defect_fails_its_check(game: Any, message: str) -> None:
    with pytest.raises(ConformanceError, match=message):
        check_game(game, run=False)


def test_an_unregistered_game_cannot_run() -> None:
    with pytest.raises(ConformanceError, match=r"^run: the game registered as 'gallery' is a "):
        check_game(Wrapped())


def test_an_unknown_name_fails_the_description() -> None:
    with pytest.raises(ConformanceError, match=r"^description: unknown game 'no_such_game'"):
        check_game("no_such_game")


def test_a_failure_is_an_assertion() -> None:
    assert issubclass(ConformanceError, AssertionError)
    with pytest.raises(ValueError, match="games must be at least 1"):
        check_game("gallery", games=0)
