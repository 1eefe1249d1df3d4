"""Constraints on Splendor's opening, their exact counts, and the samplers that draw deals.

A deal (:class:`ludolab.envs.splendor.engine.Deal`) is the three shuffled development decks
and the nobles revealed. The constraints read only its *opening*: the four cards each level
shows first (the display, a set: the slots' order does not matter) and the nobles (a set of
players + 1 of the ten). Constraints (:data:`LIBRARY`):

* ``level1-prestige``: at most ``max`` of the four level-1 cards shown give prestige.
* ``level1-cost``: the four level-1 cards shown cost between ``min`` and ``max`` gems together.
* ``display-colours``: each colour is the bonus of between ``min`` and ``max`` of the twelve
  cards shown.
* ``noble-colours``: each colour is needed by at least ``min`` of the nobles revealed.

Each has a MiniZinc face, the predicate of the same name in ``models/opening.mzn``
(:mod:`ludolab.research.splendor.model`); the tests hold the two faces to each other.

**Counting.** Every constraint reads one level's four cards, the colours of all twelve, or the
nobles, so the allowed openings factor: list each level's 4-card sets (91,390, 27,405 and
4,845 of them), keep those its own constraints allow, and histogram them by their colour
counts; the histograms' convolution (at most 70 x 70 x 70 colour-count triples) gives the
display sets whose twelve colours are allowed; the nobles' sets (at most 252) are listed
apart. Every allowed opening is dealt by the same number of deck orders (the display's slots
and the rest of each deck in any order), so the share of fair deals a set allows is its share
of openings, exactly.

**Samplers.** ``exact`` (the default) draws uniformly from the allowed deals: a colour-count
triple with the weight of its openings, then each level's four cards uniformly among the sets
with its counts, the nobles uniformly among the allowed sets, and every order (the slots, the
rest of each deck, the nobles) uniformly. ``rejection`` deals fairly
(:func:`ludolab.envs.splendor.engine.fair_deal`) and keeps the deals the set allows, the
reference the exact sampler is tested against. ``minizinc``
(:mod:`ludolab.research.splendor.model`) asks Gecode's random search for the parts the set
constrains: valid, but not uniform.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from ludolab.envs.splendor.cards import CARDS, COLOURS, NOBLES
from ludolab.envs.splendor.engine import LEVELS, SLOTS, Deal, fair_deal
from ludolab.games import SetupSetError
from ludolab.research.param_sets import ConstraintDoc, Library, Param, SetFile

SETS_FOLDER = ("ludolab.research", "splendor", "sets")
"""Where the shipped sets are: ``ludolab/research/splendor/sets/<name>.toml``."""

MAX_REJECTIONS = 2_000_000
"""Fair deals the rejection sampler may try per call."""

N_COLOURS = len(COLOURS)
LEVEL_IDS = tuple(tuple(c.id for c in CARDS if c.level == lv + 1) for lv in range(LEVELS))
"""The card ids of each level (40, 30 and 20), in id order."""


class SamplingError(RuntimeError):
    """The rejection sampler cannot deliver the deals asked for (the set accepts too few)."""


# -- the constraints -------------------------------------------------------------------------


class Constraint:
    """One constraint on the opening, bound to its parameters' values.

    A constraint tests 4-card sets of one level (``level``, :meth:`level_mask`), the colour
    counts of the twelve cards shown (:meth:`colour_mask`), or sets of nobles
    (:meth:`noble_mask`); the counting, the samplers and :meth:`holds` all go through these
    tests, so that one definition serves them all.
    """

    name: ClassVar[str]
    summary: ClassVar[str]
    params: ClassVar[dict[str, Param]]
    level: ClassVar[int | None] = None
    """The level (0-2) whose four cards the constraint reads, or None."""
    reads_colours: ClassVar[bool] = False
    reads_nobles: ClassVar[bool] = False

    def __init__(self, values: Mapping[str, int]) -> None:
        self.values = {p: int(values.get(p, d.default)) for p, d in self.params.items()}

    def level_mask(self, shown: np.ndarray) -> np.ndarray:
        """(m, 4) card ids of this constraint's level -> (m,) bool: allowed."""
        raise NotImplementedError

    def colour_mask(self, counts: np.ndarray) -> np.ndarray:
        """(m, 5) colour counts of the twelve cards shown -> (m,) bool: allowed."""
        raise NotImplementedError

    def noble_mask(self, nobles: np.ndarray) -> np.ndarray:
        """(m, k) noble ids -> (m,) bool: allowed."""
        raise NotImplementedError

    def problem(self) -> str | None:
        """Why the parameters contradict each other (a min above a max), or None."""
        low, high = self.values.get("min"), self.values.get("max")
        if low is not None and high is not None and low > high:
            return f"{self.name}.min = {low} is above {self.name}.max = {high}"
        return None

    def holds(self, deal: Deal) -> bool:
        """Whether ``deal``'s opening satisfies the constraint."""
        if self.level is not None:
            return bool(self.level_mask(np.array([deal.display[self.level]]))[0])
        if self.reads_colours:
            return bool(self.colour_mask(colour_counts(np.array([sum(deal.display, ())])))[0])
        return bool(self.noble_mask(np.array([deal.nobles]))[0])

    def describe(self) -> dict[str, Any]:
        return {"name": self.name, **self.values}


POINTS = np.array([c.points for c in CARDS], dtype=np.int64)
TOTAL_COST = np.array([sum(c.cost) for c in CARDS], dtype=np.int64)
BONUS = np.array([c.bonus for c in CARDS], dtype=np.int64)
NEEDS = np.array([[n > 0 for n in noble.need] for noble in NOBLES], dtype=np.int64)


def colour_counts(shown: np.ndarray) -> np.ndarray:
    """(m, j) card ids -> (m, 5) how many of each row's cards have each bonus colour."""
    return (BONUS[shown][..., None] == np.arange(N_COLOURS)).sum(axis=-2)


class Level1Prestige(Constraint):
    name = "level1-prestige"
    summary = "at most max of the four level-1 cards shown give prestige"
    params: ClassVar[dict[str, Param]] = {
        "max": Param(0, 0, "cards", "the most level-1 cards shown that give prestige"),
    }
    level = 0

    def level_mask(self, shown: np.ndarray) -> np.ndarray:
        return (POINTS[shown] > 0).sum(axis=1) <= self.values["max"]


class Level1Cost(Constraint):
    name = "level1-cost"
    summary = "the four level-1 cards shown cost between min and max gems together"
    params: ClassVar[dict[str, Param]] = {
        "min": Param(0, 0, "gems", "the least the four cost together"),
        "max": Param(15, 0, "gems", "the most the four cost together"),
    }
    level = 0

    def level_mask(self, shown: np.ndarray) -> np.ndarray:
        total = TOTAL_COST[shown].sum(axis=1)
        return (total >= self.values["min"]) & (total <= self.values["max"])


class DisplayColours(Constraint):
    name = "display-colours"
    summary = "each colour is the bonus of between min and max of the twelve cards shown"
    params: ClassVar[dict[str, Param]] = {
        "min": Param(2, 0, "cards", "the fewest cards shown of any one colour"),
        "max": Param(3, 0, "cards", "the most cards shown of any one colour"),
    }
    reads_colours = True

    def colour_mask(self, counts: np.ndarray) -> np.ndarray:
        return (counts.min(axis=1) >= self.values["min"]) & (
            counts.max(axis=1) <= self.values["max"]
        )


class NobleColours(Constraint):
    name = "noble-colours"
    summary = "each colour is needed by at least min of the nobles revealed"
    params: ClassVar[dict[str, Param]] = {
        "min": Param(1, 0, "nobles", "the fewest nobles revealed that need any one colour"),
    }
    reads_nobles = True

    def noble_mask(self, nobles: np.ndarray) -> np.ndarray:
        return NEEDS[nobles].sum(axis=1).min(axis=1) >= self.values["min"]


CONSTRAINTS: dict[str, type[Constraint]] = {
    c.name: c for c in (Level1Prestige, Level1Cost, DisplayColours, NobleColours)
}
"""The constraint library by name."""

LIBRARY = Library(
    "Splendor",
    {n: ConstraintDoc(n, c.summary, c.params) for n, c in CONSTRAINTS.items()},
    SETS_FOLDER,
)
"""The library as set files name it (reading, overrides, descriptions)."""


# -- a set bound to its players, counted -------------------------------------------------------


@dataclass(frozen=True)
class OpeningCount:
    """The openings a set allows, counted exactly.

    Attributes:
        display: allowed display sets (three 4-card sets, one per level).
        nobles: allowed sets of nobles.
        total_display, total_nobles: every display set and every set of nobles.
    """

    display: int
    nobles: int
    total_display: int
    total_nobles: int

    @property
    def share(self) -> float:
        """The share of fair deals the set allows."""
        return (self.display / self.total_display) * (self.nobles / self.total_nobles)


@dataclass(frozen=True)
class OpeningSet:
    """A constraint set bound to a number of players, ready to test, count and draw deals.

    Attributes:
        name, description, source: the set's (source says where it came from, for messages).
        players: the seats (the nobles revealed are players + 1).
        constraints: the constraints, in the file's order.
        count: the allowed openings, counted exactly.
    """

    name: str
    description: str
    source: str
    players: int
    constraints: tuple[Constraint, ...]
    count: OpeningCount

    def holds(self, deal: Deal) -> bool:
        """Whether ``deal`` satisfies every constraint."""
        return all(c.holds(deal) for c in self.constraints)


def load_opening_set(source: str | Path, params: Mapping[str, Any], players: int) -> OpeningSet:
    """The set ``source`` (a shipped set's name or a file) with ``params`` applied, bound to
    ``players`` seats and counted. SetupSetError, its key naming what to change:
    ``constraints`` (the set is unusable or allows no deal), ``params`` (an override is wrong
    or leaves no deal)."""
    base = LIBRARY.read(source)
    given = LIBRARY.with_params(base, params)
    constraints, count, problem = _bind(given, players)
    if problem:
        # blame the overrides when the set as written allows deals
        key = "params" if params and not _bind(base, players)[2] else "constraints"
        raise SetupSetError(key, f"{given.source}: {problem}; loosen it")
    return OpeningSet(given.name, given.description, given.source, players, constraints, count)


def _bind(
    set_file: SetFile, players: int
) -> tuple[tuple[Constraint, ...], OpeningCount, str | None]:
    """The constraints of ``set_file``, their count for ``players`` seats, and why they allow
    no deal (contradictory parameters, or a count of 0), or None."""
    constraints = tuple(CONSTRAINTS[c](v) for c, v in set_file.entries)
    for constraint in constraints:
        problem = constraint.problem()
        if problem:
            return constraints, OpeningCount(0, 0, 1, 1), problem
    count = count_openings(constraints, players)
    if count.display == 0 or count.nobles == 0:
        if count.display == 0:
            part, blamed = "display", [c for c in constraints if not c.reads_nobles]
        else:
            part, blamed = (
                f"set of {players + 1} nobles",
                [c for c in constraints if c.reads_nobles],
            )
        return (
            constraints,
            count,
            f"no {part} satisfies {' and '.join(c.name for c in blamed)} for {players} "
            f"players (counted)",
        )
    return constraints, count, None


# -- counting ----------------------------------------------------------------------------------


@cache
def level_sets(level: int) -> np.ndarray:
    """(C(n, 4), 4) every 4-card set of ``level`` (0-2), card ids ascending."""
    ids = LEVEL_IDS[level]
    return np.array(list(combinations(ids, SLOTS)), dtype=np.int64)


@cache
def noble_sets(k: int) -> np.ndarray:
    """(C(10, k), k) every set of ``k`` nobles, ids ascending."""
    return np.array(list(combinations(range(len(NOBLES)), k)), dtype=np.int64)


def _colour_key(counts: np.ndarray) -> np.ndarray:
    """(m, 5) colour counts (each 0-12) -> (m,) one integer per count vector."""
    return counts @ (13 ** np.arange(N_COLOURS))


@dataclass(frozen=True)
class _Plan:
    """What the exact sampler draws from: per level the allowed sets and their colour keys;
    the allowed colour-key triples with their weights; the allowed noble sets."""

    sets: tuple[np.ndarray, ...]  # per level (m, 4), sorted by colour key
    keys: tuple[np.ndarray, ...]  # per level (m,), ascending
    triples: np.ndarray  # (t, 3) colour keys, one per level
    weights: np.ndarray  # (t,) display sets with those keys
    nobles: np.ndarray  # (m, k)


def _constraint_key(constraints: Sequence[Constraint]) -> tuple[tuple[str, tuple[Any, ...]], ...]:
    return tuple((c.name, tuple(sorted(c.values.items()))) for c in constraints)


def _plan(constraints: Sequence[Constraint], players: int) -> _Plan:
    return _plan_cached(_constraint_key(constraints), players)


@cache
def _plan_cached(key: tuple[tuple[str, tuple[Any, ...]], ...], players: int) -> _Plan:
    constraints = [CONSTRAINTS[name](dict(values)) for name, values in key]
    sets, keys, hists = [], [], []
    for level in range(LEVELS):
        shown = level_sets(level)
        mask = np.ones(len(shown), dtype=bool)
        for c in constraints:
            if c.level == level:
                mask &= c.level_mask(shown)
        allowed = shown[mask]
        level_keys = _colour_key(colour_counts(allowed))
        order = np.argsort(level_keys, kind="stable")  # the sets of one key side by side
        allowed, level_keys = allowed[order], level_keys[order]
        sets.append(allowed)
        keys.append(level_keys)
        hists.append(np.unique(level_keys, return_counts=True))
    (k0, w0), (k1, w1), (k2, w2) = hists
    # every triple of colour keys, weighted by the sets that have them
    grid = np.stack(np.meshgrid(k0, k1, k2, indexing="ij"), axis=-1).reshape(-1, 3)
    weights = np.multiply.outer(np.multiply.outer(w0, w1), w2).reshape(-1)
    colour_tests = [c for c in constraints if c.reads_colours]
    if colour_tests and len(grid):
        counts = _decode(grid.sum(axis=1))
        mask = np.ones(len(grid), dtype=bool)
        for c in colour_tests:
            mask &= c.colour_mask(counts)
        grid, weights = grid[mask], weights[mask]
    nobles = noble_sets(players + 1)
    for c in constraints:
        if c.reads_nobles:
            nobles = nobles[c.noble_mask(nobles)]
    return _Plan(tuple(sets), tuple(keys), grid, weights, nobles)


def _decode(keys: np.ndarray) -> np.ndarray:
    """(m,) colour keys -> (m, 5) colour counts (the inverse of :func:`_colour_key`)."""
    return (keys[:, None] // (13 ** np.arange(N_COLOURS))) % 13


def count_openings(constraints: Sequence[Constraint], players: int) -> OpeningCount:
    """The openings (display sets and noble sets) ``constraints`` allow for ``players`` seats,
    counted exactly (see the module docstring)."""
    plan = _plan(constraints, players)
    total = math.prod(math.comb(len(ids), SLOTS) for ids in LEVEL_IDS)
    return OpeningCount(
        display=int(plan.weights.sum()),  # at most 1.2e13: int64 holds it
        nobles=len(plan.nobles),
        total_display=total,
        total_nobles=math.comb(len(NOBLES), players + 1),
    )


# -- sampling ----------------------------------------------------------------------------------


@dataclass
class DrawReport:
    """What a sampler did: candidate deals tried, deals kept, seconds taken."""

    draws: int = 0
    hits: int = 0
    seconds: float = 0.0

    @property
    def acceptance(self) -> float | None:
        """The measured share of candidates the set accepted (hits / draws)."""
        return self.hits / self.draws if self.draws else None


def draw_exact(oset: OpeningSet, n: int, seed: int) -> list[Deal]:
    """``n`` deals uniform over those ``oset`` allows (independent draws, with replacement),
    every random choice from ``seed``'s own stream."""
    plan = _plan(oset.constraints, oset.players)
    rng = np.random.default_rng([seed, 0x5B1E])
    probabilities = plan.weights / plan.weights.sum()
    deals = []
    for _ in range(n):
        triple = plan.triples[rng.choice(len(plan.triples), p=probabilities)]
        decks = []
        for level in range(LEVELS):
            keys = plan.keys[level]
            lo, hi = (
                np.searchsorted(keys, triple[level], "left"),
                np.searchsorted(keys, triple[level], "right"),
            )
            shown = list(plan.sets[level][lo + rng.integers(hi - lo)])
            rng.shuffle(shown)
            rest = sorted(set(LEVEL_IDS[level]) - set(shown))
            rng.shuffle(rest)
            decks.append(tuple(int(c) for c in (*shown, *rest)))
        nobles = list(plan.nobles[rng.integers(len(plan.nobles))])
        rng.shuffle(nobles)
        deals.append(
            Deal((decks[0], decks[1], decks[2]), tuple(int(x) for x in nobles), oset.players)
        )
    return deals


def draw_rejection(
    oset: OpeningSet, n: int, seed: int, max_draws: int = MAX_REJECTIONS
) -> tuple[list[Deal], DrawReport]:
    """``n`` deals uniform over those ``oset`` allows: fair deals from ``seed``'s own stream
    (``fair_deal`` with seeds drawn from it), kept when the set holds. SamplingError when
    ``max_draws`` deals would not be enough (judged up front from the exact share)."""
    share = oset.count.share
    if n > 0 and n / share > max_draws:
        raise SamplingError(
            f"{oset.source}: only {share:.3g} of fair deals satisfy the set (counted), so {n} "
            f"deals need about {n / share:,.0f} tries, more than the {max_draws:,} the "
            f"rejection sampler makes; use the exact sampler"
        )
    report = DrawReport()
    start = time.perf_counter()
    rng = random.Random(f"ludolab.splendor.rejection:{seed}")
    out: list[Deal] = []
    while len(out) < n:
        deal = fair_deal(oset.players, rng.getrandbits(63))
        report.draws += 1
        if oset.holds(deal):
            out.append(deal)
    report.hits = len(out)
    report.seconds = time.perf_counter() - start
    return out, report


__all__ = [
    "CONSTRAINTS",
    "LIBRARY",
    "Constraint",
    "DisplayColours",
    "DrawReport",
    "Level1Cost",
    "Level1Prestige",
    "NobleColours",
    "OpeningCount",
    "OpeningSet",
    "SamplingError",
    "colour_counts",
    "count_openings",
    "draw_exact",
    "draw_rejection",
    "level_sets",
    "load_opening_set",
    "noble_sets",
]
