"""Constraint rules: the form in which the chain sampler and the enumerator check boards.

Every library constraint can be written as a handful of *rules* over positions (hexes, harbor
slots) and value tables: "these hex pairs must not carry these value pairs", "these groups of
hexes must not sum above a cap", and so on. A constraint's :meth:`rules` returns them; they are a
third description of the constraint beside its Python face (``check``, vectorised numpy) and its
MiniZinc face. Why a third: the samplers that cope with tight sets (Markov chains, depth-first
enumeration, ``ludolab.research.catan.kernel``) change one or two hexes at a time and must re-check
only the rules those hexes take part in, millions of times a second, one board at a time. Rules say
which positions each part of a constraint reads; a numpy face cannot.

:func:`evaluate` checks rules on a batch of boards with numpy; the tests hold it, and the
compiled kernel, against every constraint's Python face.

Codes: a hex's value under each *kind* is its terrain code (``terrain``, 0-5), its token
(``numbers``, 0 on the desert, 2-12), or both at once (``tile``: terrain * 13 + token).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

KINDS = ("terrain", "numbers", "tile")
CODE_SIZE = {"terrain": 6, "numbers": 13, "tile": 78}
TOKEN_CODES = 13  # tokens are 0..12 (0 = none)


@dataclass(frozen=True, eq=False)
class PairRule:
    """No pair of hexes in ``pairs`` carries a forbidden pair of codes.

    Attributes:
        kind: "terrain", "numbers" or "tile".
        pairs: (k, 2) hex pairs.
        forbidden: (size, size) bool, ``forbidden[a, b]`` for the codes of the pair's first and
            second hex.
    """

    kind: str
    pairs: np.ndarray
    forbidden: np.ndarray


@dataclass(frozen=True, eq=False)
class TripleRule:
    """No triple of hexes carries a forbidden triple of codes; ``forbidden`` is (s, s, s)."""

    kind: str
    triples: np.ndarray
    forbidden: np.ndarray


@dataclass(frozen=True, eq=False)
class PairCount:
    """The number of pairs whose codes are ``counted`` lies in ``lo..hi``."""

    kind: str
    pairs: np.ndarray
    counted: np.ndarray
    lo: int
    hi: int


@dataclass(frozen=True, eq=False)
class GroupSum:
    """Over each group of hexes, ``constant + sum(weights[token])`` is at most ``hi``.

    Attributes:
        groups: hex indices per group (1-3 hexes).
        constants: one integer per group (e.g. water cells of the 2019 seed's array).
        weights: (13,) non-negative integer weight per token value (0 = the desert).
        hi: the cap (inclusive).
    """

    groups: tuple[tuple[int, ...], ...]
    constants: tuple[int, ...]
    weights: np.ndarray
    hi: int


@dataclass(frozen=True, eq=False)
class ResourceSum:
    """For each listed resource, the sum of ``weights[token]`` over its hexes lies in lo..hi."""

    resources: tuple[int, ...]
    weights: np.ndarray
    lo: int
    hi: int


@dataclass(frozen=True, eq=False)
class Unary:
    """Position ``position`` of ``part`` ("terrain", "numbers" or "harbors") holds an allowed
    code; ``allowed`` is a bool table over codes."""

    part: str
    position: int
    allowed: np.ndarray


@dataclass(frozen=True, eq=False)
class HarborTouch:
    """Each 2:1 harbor (code c > 0, the harbor of terrain c - 1) touches (``require``) or avoids
    (not ``require``) hexes of its own resource; ``touch`` lists each slot's hexes."""

    require: bool
    touch: tuple[tuple[int, ...], ...]


@dataclass(frozen=True, eq=False)
class SlotPair:
    """No pair of harbor slots in ``pairs`` holds a forbidden pair of harbor codes;
    ``forbidden`` is (6, 6)."""

    pairs: np.ndarray
    forbidden: np.ndarray


@dataclass(frozen=True, eq=False)
class HarborBest:
    """No 2:1 harbor (code c > 0) touches a hex of its own resource (c - 1) whose token weighs
    the most among that resource's hexes (ties included); ``touch`` lists each slot's hexes,
    ``weights`` (13,) weighs the tokens (pips)."""

    touch: tuple[tuple[int, ...], ...]
    weights: np.ndarray


Rule = (
    PairRule
    | TripleRule
    | PairCount
    | GroupSum
    | ResourceSum
    | Unary
    | HarborTouch
    | SlotPair
    | HarborBest
)


def codes(kind: str, terrain: np.ndarray, numbers: np.ndarray) -> np.ndarray:
    """(B, n_hexes) codes of every hex under ``kind``."""
    if kind == "terrain":
        return terrain.astype(np.int64)
    if kind == "numbers":
        return numbers.astype(np.int64)
    return terrain.astype(np.int64) * TOKEN_CODES + numbers


def evaluate(
    rules: list[Rule], terrain: np.ndarray, numbers: np.ndarray, harbors: np.ndarray
) -> np.ndarray:
    """Whether each board of a batch satisfies every rule: (B, n_hexes) x2, (B, n_slots) ->
    (B,) bool. The reference the kernel's one-board checks are tested against."""
    ok = np.ones(len(terrain), dtype=bool)
    for r in rules:
        ok &= _evaluate(r, terrain, numbers, harbors)
    return ok


def _evaluate(r: Rule, terrain: np.ndarray, numbers: np.ndarray, harbors: np.ndarray) -> np.ndarray:
    if isinstance(r, PairRule):
        c = codes(r.kind, terrain, numbers)
        return ~r.forbidden[c[:, r.pairs[:, 0]], c[:, r.pairs[:, 1]]].any(axis=1)
    if isinstance(r, TripleRule):
        c = codes(r.kind, terrain, numbers)
        t = r.triples
        return ~r.forbidden[c[:, t[:, 0]], c[:, t[:, 1]], c[:, t[:, 2]]].any(axis=1)
    if isinstance(r, PairCount):
        c = codes(r.kind, terrain, numbers)
        n = r.counted[c[:, r.pairs[:, 0]], c[:, r.pairs[:, 1]]].sum(axis=1)
        return (n >= r.lo) & (n <= r.hi)
    if isinstance(r, GroupSum):
        w = r.weights[numbers]
        sums = np.stack(
            [w[:, list(g)].sum(axis=1) + k for g, k in zip(r.groups, r.constants, strict=True)],
            axis=1,
        )
        return (sums <= r.hi).all(axis=1)
    if isinstance(r, ResourceSum):
        w = r.weights[numbers]
        ok = np.ones(len(terrain), dtype=bool)
        for res in r.resources:
            total = np.where(terrain == res, w, 0).sum(axis=1)
            ok &= (total >= r.lo) & (total <= r.hi)
        return ok
    if isinstance(r, Unary):
        values = {"terrain": terrain, "numbers": numbers, "harbors": harbors}[r.part]
        return r.allowed[values[:, r.position]]
    if isinstance(r, SlotPair):
        return ~r.forbidden[harbors[:, r.pairs[:, 0]], harbors[:, r.pairs[:, 1]]].any(axis=1)
    if isinstance(r, HarborBest):
        w = r.weights[numbers]
        ok = np.ones(len(terrain), dtype=bool)
        best = np.stack([np.where(terrain == res, w, -1).max(axis=1) for res in range(5)], axis=1)
        for s, touch in enumerate(r.touch):
            res = harbors[:, s] - 1
            top = np.take_along_axis(best, np.maximum(res, 0)[:, None], axis=1)[:, 0]
            for h in touch:
                ok &= ~((res >= 0) & (terrain[:, h] == res) & (w[:, h] == top))
        return ok
    if isinstance(r, HarborTouch):
        ok = np.ones(len(terrain), dtype=bool)
        for s, touch in enumerate(r.touch):
            own = (terrain[:, list(touch)] == harbors[:, s : s + 1] - 1).any(axis=1)
            ok &= (harbors[:, s] == 0) | (own == r.require)
        return ok
    raise TypeError(f"unknown rule {r!r}")


def table(size: int, forbidden) -> np.ndarray:  # noqa: ANN001 - a numpy ufunc-like predicate
    """A (size, size) bool table from a vectorised predicate of two code arrays."""
    a, b = np.meshgrid(np.arange(size), np.arange(size), indexing="ij")
    return np.asarray(forbidden(a, b), dtype=bool)


def tile_parts(code: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(terrain, token) of tile codes."""
    return code // TOKEN_CODES, code % TOKEN_CODES
