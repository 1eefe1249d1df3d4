"""The constraint library: named, parameterised constraints on a Catan setup, each with two faces.

* The **Python face** ``check(terrain, numbers, harbors)`` takes a batch of boards as integer
  arrays — terrain (B, n_hexes), numbers (B, n_hexes), harbors (B, n_slots), codes as in
  :mod:`ludolab.envs.catan.board` — and returns a (B,) bool array. Vectorised, so the uniform
  sampler can test many thousands of shuffles per call.
* The **MiniZinc face** ``minizinc()`` returns one MiniZinc boolean expression over the arrays
  ``terrain``, ``number`` and ``harbor`` (1-based hexes), calling the predicates of
  ``models/library.mzn``. Used to generate, enumerate, count and optimise.

Tests hold the two faces against each other on thousands of random boards.

To add a constraint: subclass :class:`Constraint`, declare ``name``, ``summary``, ``reads`` and
``params``, write both faces, and register it with ``@register``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from ludolab.envs.catan.board import DESERT, HARBOR_TYPES, NUMBERS, RESOURCES, TERRAINS
from ludolab.research.catan import rules as R
from ludolab.research.catan.geometry import (
    PIPS_TABLE,
    LayoutArrays,
    layout_arrays,
    maximal_cliques,
    with_zero_column,
)

PARTS = ("terrain", "numbers", "harbors")


class ConstraintError(ValueError):
    """A constraint is unknown or has bad parameters. The message says what is allowed."""


@dataclass(frozen=True)
class Param:
    """One parameter of a constraint: its kind, default and meaning.

    kind: "int", "resource-list", "number-list", "choice", "ring-list", "terrain-list",
    "token-list", "harbor-list", "bool".
    """

    kind: str
    default: Any
    doc: str
    choices: tuple[str, ...] = ()
    unit: str = ""
    """What a number parameter counts ("pips", "pairs"), for axis labels and tables."""


# ----------------------------------------------------------------------------------------------
# MiniZinc literal helpers (1-based indices)


def _members(values: Sequence[int], size: int = 13) -> np.ndarray:
    """A boolean lookup table: ``table[code]`` is True for the listed codes. Indexing it with a
    code array tests membership about ten times faster than ``np.isin`` on small arrays, which
    matters to the samplers (they check millions of boards)."""
    table = np.zeros(size, dtype=bool)
    table[list(values)] = True
    return table


def _mzn_pairs(pairs: np.ndarray) -> str:
    rows = "|".join(f"{a + 1},{b + 1}" for a, b in pairs)
    return f"[|{rows}|]" if len(pairs) else "array2d(1..0, 1..2, [])"


def _mzn_set(values: Sequence[int]) -> str:
    return "{" + ", ".join(str(v) for v in sorted(values)) + "}"


def _mzn_hex_sets(groups: Sequence[Sequence[int]]) -> str:
    return "[" + ", ".join(_mzn_set([h + 1 for h in g]) for g in groups) + "]"


# ----------------------------------------------------------------------------------------------


class Constraint:
    """Base class. Subclasses set the class attributes and implement both faces."""

    name: ClassVar[str]
    summary: ClassVar[str]
    reads: ClassVar[frozenset[str]]
    params: ClassVar[dict[str, Param]] = {}

    def __init__(self, layout: str = "standard", **values: Any) -> None:
        unknown = set(values) - set(self.params)
        if unknown:
            allowed = ", ".join(self.params) or "none"
            raise ConstraintError(
                f"constraint {self.name!r} has no parameter {sorted(unknown)[0]!r}; "
                f"its parameters: {allowed}"
            )
        self.values = {
            k: _coerce(self.name, k, p, values.get(k, p.default)) for k, p in self.params.items()
        }
        self.geo: LayoutArrays = layout_arrays(layout)
        self._validate()

    def _validate(self) -> None:
        """Cross-parameter checks; raise ConstraintError."""

    def check(self, terrain: np.ndarray, numbers: np.ndarray, harbors: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def minizinc(self) -> str:
        raise NotImplementedError

    def rules(self) -> list[R.Rule]:
        """The constraint as rules over positions (see :mod:`ludolab.research.catan.rules`), for the
        samplers that check one board at a time."""
        raise NotImplementedError

    def param_unit(self, name: str) -> str:
        """What parameter ``name`` counts ("pips"; "" when it is not a count)."""
        return self.params[name].unit

    def describe(self) -> str:
        """``name(param=value, ...)`` with resources, terrains and harbors by name."""
        shown = ", ".join(
            f"{k}={_show(v, _NAMES.get(self.params[k].kind))}" for k, v in self.values.items()
        )
        return f"{self.name}({shown})" if shown else self.name

    def __repr__(self) -> str:
        return f"<constraint {self.describe()}>"


REGISTRY: dict[str, type[Constraint]] = {}


def register(cls: type[Constraint]) -> type[Constraint]:
    REGISTRY[cls.name] = cls
    return cls


def make_constraint(name: str, layout: str = "standard", **values: Any) -> Constraint:
    """Instantiate a library constraint by name; unknown names list the known ones."""
    try:
        cls = REGISTRY[name]
    except KeyError:
        raise ConstraintError(
            f"unknown constraint {name!r}; known constraints: {', '.join(sorted(REGISTRY))} "
            f"(see `ludolab constraints list`)"
        ) from None
    return cls(layout, **values)


_NAMES: dict[str, tuple[str, ...]] = {
    "resource-list": RESOURCES,
    "terrain-list": TERRAINS,
    "harbor-list": HARBOR_TYPES,
}
"""Parameter kinds whose values are stored as indices into a list of names."""


def _show(value: Any, names: tuple[str, ...] | None = None) -> str:
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_show(v, names) for v in value) + "]"
    if names is not None and isinstance(value, int) and not isinstance(value, bool):
        return names[value]
    return str(value)


def _coerce(cname: str, key: str, p: Param, value: Any) -> Any:
    where = f"constraint {cname!r}, parameter {key!r}"

    def names_list(allowed: Sequence[str]) -> tuple[int, ...]:
        if not isinstance(value, list) or not all(v in allowed for v in value):
            raise ConstraintError(
                f"{where}: expected a list of names from {', '.join(allowed)}; got {value!r}"
            )
        return tuple(allowed.index(v) for v in value)

    if p.kind == "int" or p.kind == "optional-int":
        if value is None and p.kind == "optional-int":
            return None
        if not isinstance(value, int) or isinstance(value, bool):
            raise ConstraintError(f"{where}: expected an integer; got {value!r}")
        return value
    if p.kind == "bool":
        if not isinstance(value, bool):
            raise ConstraintError(f"{where}: expected true or false; got {value!r}")
        return value
    if p.kind == "choice":
        if value not in p.choices:
            raise ConstraintError(f"{where}: expected one of {', '.join(p.choices)}; got {value!r}")
        return value
    if p.kind == "resource-list":
        return names_list(RESOURCES)
    if p.kind == "terrain-list":
        return None if value is None else names_list(TERRAINS)
    if p.kind == "harbor-list":
        return None if value is None else names_list(HARBOR_TYPES)
    if p.kind == "number-list":
        if not isinstance(value, list) or not all(v in NUMBERS for v in value):
            raise ConstraintError(
                f"{where}: expected a list of token values from "
                f"{', '.join(map(str, NUMBERS))}; got {value!r}"
            )
        return tuple(value)
    if p.kind == "token-list":
        if value is None:
            return None
        if not isinstance(value, list) or not all(v is None or v in (0, *NUMBERS) for v in value):
            raise ConstraintError(
                f"{where}: expected a list of token values, 0 (TOML has no null) or null on the "
                f"desert; got {value!r}"
            )
        return tuple(0 if v is None else v for v in value)
    if p.kind == "ring-list":
        if not isinstance(value, list) or not all(v in (0, 1, 2) for v in value) or not value:
            raise ConstraintError(
                f"{where}: expected a non-empty list of rings from 0 (centre), "
                f"1, 2 (coast); got {value!r}"
            )
        return tuple(value)
    raise AssertionError(f"unknown parameter kind {p.kind}")


NEIGHBOURHOOD = Param(
    "choice",
    "adjacent",
    "which hex pairs count: 'adjacent' (sharing a side) or 'seed-2019-block' (any two hexes in a "
    "2x2 block of the 2019 seed's 5x5 array, which also pairs some NON-adjacent hexes)",
    ("adjacent", "seed-2019-block"),
)


def _pairs(c: Constraint) -> np.ndarray:
    return c.geo.adjacent if c.values["neighbourhood"] == "adjacent" else c.geo.seed_block


def _mzn_groups_differ(array: str, pairs: np.ndarray) -> str:
    return f"groups_differ({array}, {_mzn_hex_sets(maximal_cliques(pairs))})"


# ----------------------------------------------------------------------------------------------
# Terrain


@register
class NoEqualResourcesAdjacent(Constraint):
    name = "no-equal-resources-adjacent"
    summary = "No two hexes of the same resource are neighbours."
    reads = frozenset({"terrain"})
    params = {
        "resources": Param("resource-list", list(RESOURCES), "the resources this applies to"),
        "neighbourhood": NEIGHBOURHOOD,
    }

    def check(self, terrain, numbers, harbors):
        p = _pairs(self)
        a = terrain[:, p[:, 0]]
        return ~((a == terrain[:, p[:, 1]]) & _members(self.values["resources"])[a]).any(axis=1)

    def minizinc(self):
        if set(self.values["resources"]) == set(range(len(RESOURCES))):
            return _mzn_groups_differ("terrain", _pairs(self))  # the one desert differs anyway
        return (
            f"pairs_differ_within(terrain, {_mzn_pairs(_pairs(self))}, "
            f"{_mzn_set(self.values['resources'])})"
        )

    def rules(self):
        listed = _members(self.values["resources"], 6)
        return [R.PairRule("terrain", _pairs(self), R.table(6, lambda a, b: (a == b) & listed[a]))]


@register
class ResourcesNeverAdjacent(Constraint):
    name = "resources-never-adjacent"
    summary = (
        "Hexes of the listed resources never touch each other (the seed's brick and "
        "lumber; two hexes of one listed resource count too)."
    )
    reads = frozenset({"terrain"})
    params = {
        "resources": Param("resource-list", ["brick", "lumber"], "the resources kept apart"),
        "neighbourhood": NEIGHBOURHOOD,
    }

    def check(self, terrain, numbers, harbors):
        p, listed = _pairs(self), _members(self.values["resources"])
        return ~(listed[terrain[:, p[:, 0]]] & listed[terrain[:, p[:, 1]]]).any(axis=1)

    def minizinc(self):
        return (
            f"set_never_paired(terrain, {_mzn_pairs(_pairs(self))}, "
            f"{_mzn_set(self.values['resources'])})"
        )

    def rules(self):
        listed = _members(self.values["resources"], 6)
        return [R.PairRule("terrain", _pairs(self), R.table(6, lambda a, b: listed[a] & listed[b]))]


@register
class EqualResourcePairs(Constraint):
    name = "equal-resource-pairs"
    summary = (
        "The number of neighbouring hex pairs with the same resource lies in min..max "
        "(high min = clumpy boards; a uniform shuffle averages about 5.9 of 42)."
    )
    reads = frozenset({"terrain"})
    params = {
        "min": Param("int", 0, "at least this many equal neighbouring pairs", unit="pairs"),
        "max": Param("int", 42, "at most this many", unit="pairs"),
    }

    def check(self, terrain, numbers, harbors):
        p = self.geo.adjacent
        count = (terrain[:, p[:, 0]] == terrain[:, p[:, 1]]).sum(axis=1)
        return (count >= self.values["min"]) & (count <= self.values["max"])

    def minizinc(self):
        return (
            f"let {{ var int: c = equal_pairs(terrain, {_mzn_pairs(self.geo.adjacent)}) }} in "
            f"{self.values['min']} <= c /\\ c <= {self.values['max']}"
        )

    def rules(self):
        equal = R.table(6, lambda a, b: a == b)
        return [
            R.PairCount("terrain", self.geo.adjacent, equal, self.values["min"], self.values["max"])
        ]


@register
class NoResourceTriangles(Constraint):
    name = "no-resource-triangles"
    summary = "No intersection is surrounded by three hexes of one resource."
    reads = frozenset({"terrain"})

    def check(self, terrain, numbers, harbors):
        t = self.geo.triples
        a, b, c = terrain[:, t[:, 0]], terrain[:, t[:, 1]], terrain[:, t[:, 2]]
        return ~((a == b) & (b == c)).any(axis=1)

    def minizinc(self):
        rows = "|".join(",".join(str(h + 1) for h in tri) for tri in self.geo.triples)
        return f"no_equal_triples(terrain, [|{rows}|])"

    def rules(self):
        a, b, c = np.meshgrid(*[np.arange(6)] * 3, indexing="ij")
        return [R.TripleRule("terrain", self.geo.triples, (a == b) & (b == c))]


@register
class DesertPlacement(Constraint):
    name = "desert-placement"
    summary = "The desert lies on one of the given rings (0 = centre, 1 = inner ring, 2 = coast)."
    reads = frozenset({"terrain"})
    params = {"rings": Param("ring-list", [0], "allowed rings")}

    def _forbidden(self) -> np.ndarray:
        return np.flatnonzero(~np.isin(self.geo.ring, self.values["rings"]))

    def check(self, terrain, numbers, harbors):
        return ~(terrain[:, self._forbidden()] == DESERT).any(axis=1)

    def minizinc(self):
        return (
            f"forall(h in {_mzn_set([h + 1 for h in self._forbidden()])})(terrain[h] != {DESERT})"
        )

    def rules(self):
        allowed = np.arange(6) != DESERT
        return [R.Unary("terrain", int(h), allowed) for h in self._forbidden()]


# ----------------------------------------------------------------------------------------------
# Numbers


@register
class NumbersApart(Constraint):
    name = "red-numbers-apart"
    summary = "The red numbers (6 and 8) are never on neighbouring hexes (the official rule)."
    reads = frozenset({"numbers"})
    params = {
        "numbers": Param("number-list", [6, 8], "the numbers kept apart (any two of them)"),
        "neighbourhood": NEIGHBOURHOOD,
    }

    def check(self, terrain, numbers, harbors):
        p, listed = _pairs(self), _members(self.values["numbers"])
        return ~(listed[numbers[:, p[:, 0]]] & listed[numbers[:, p[:, 1]]]).any(axis=1)

    def minizinc(self):
        return (
            f"set_never_paired(number, {_mzn_pairs(_pairs(self))}, "
            f"{_mzn_set(self.values['numbers'])})"
        )

    def rules(self):
        listed = _members(self.values["numbers"])
        return [
            R.PairRule("numbers", _pairs(self), R.table(13, lambda a, b: listed[a] & listed[b]))
        ]


@register
class NoEqualNumbersAdjacent(Constraint):
    name = "no-equal-numbers-adjacent"
    summary = "No two neighbouring hexes carry the same number."
    reads = frozenset({"numbers"})
    params = {"neighbourhood": NEIGHBOURHOOD}

    def check(self, terrain, numbers, harbors):
        p = _pairs(self)
        return ~(numbers[:, p[:, 0]] == numbers[:, p[:, 1]]).any(axis=1)

    def minizinc(self):
        return _mzn_groups_differ("number", _pairs(self))

    def rules(self):
        return [R.PairRule("numbers", _pairs(self), R.table(13, lambda a, b: a == b))]


@register
class RedNumbersOnDifferentResources(Constraint):
    name = "red-numbers-on-different-resources"
    summary = "Each resource carries at most one of the red numbers (6, 8)."
    reads = frozenset({"terrain", "numbers"})
    params = {"numbers": Param("number-list", [6, 8], "the numbers spread over resources")}

    def check(self, terrain, numbers, harbors):
        red = _members(self.values["numbers"])[numbers]
        return np.all(
            [((terrain == r) & red).sum(axis=1) <= 1 for r in range(len(RESOURCES))], axis=0
        )

    def minizinc(self):
        return (
            f"at_most_one_per_terrain(terrain, number, 0..{len(RESOURCES) - 1}, "
            f"{_mzn_set(self.values['numbers'])})"
        )

    def rules(self):
        red = _members(self.values["numbers"])

        def forbidden(a, b):
            (ta, na), (tb, nb) = R.tile_parts(a), R.tile_parts(b)
            return (ta == tb) & (ta < len(RESOURCES)) & red[na] & red[nb]

        return [R.PairRule("tile", self.geo.all_pairs, R.table(78, forbidden))]


@register
class DifferentNumbersWithinResource(Constraint):
    name = "different-numbers-within-resource"
    summary = "The hexes of one resource all carry different numbers."
    reads = frozenset({"terrain", "numbers"})

    def check(self, terrain, numbers, harbors):
        p = self.geo.all_pairs
        code = terrain.astype(np.int16) * 16 + numbers  # one (terrain, number) code per hex
        return ~(code[:, p[:, 0]] == code[:, p[:, 1]]).any(axis=1)

    def minizinc(self):
        return "distinct_numbers_per_terrain(terrain, number)"

    def rules(self):
        return [R.PairRule("tile", self.geo.all_pairs, R.table(78, lambda a, b: a == b))]


@register
class IntersectionCap(Constraint):
    name = "intersection-cap"
    summary = (
        "At every intersection the sum over its hexes (of pips, or of the numbers as the "
        "seed does) is at most max. 13+ pips is a 6-5-9 style hot spot."
    )
    reads = frozenset({"numbers"})
    params = {
        "measure": Param(
            "choice",
            "pips",
            "'pips' (dots on the tokens) or 'numbers' (token values; the desert counts 0)",
            ("pips", "numbers"),
        ),
        "max": Param("int", 12, "the largest allowed sum (inclusive)", unit="pips"),
        "scope": Param(
            "choice",
            "all",
            "'all' intersections or only 'three-hex' (inland) ones",
            ("all", "three-hex"),
        ),
    }

    def _weights(self) -> np.ndarray:
        return PIPS_TABLE if self.values["measure"] == "pips" else np.arange(13)

    def param_unit(self, name: str) -> str:
        if name == "max" and self.values["measure"] == "numbers":
            return "sum of numbers"
        return super().param_unit(name)

    def _intersections(self) -> np.ndarray:
        g = self.geo
        return g.intersections if self.values["scope"] == "all" else g.triples

    def check(self, terrain, numbers, harbors):
        w = self._weights()[with_zero_column(numbers)]
        sums = w[:, self._intersections()].sum(axis=2)
        return (sums <= self.values["max"]).all(axis=1)

    def minizinc(self):
        n = self.geo.layout.n_hexes
        groups = [[h for h in row if h < n] for row in self._intersections()]
        weights = ", ".join(str(int(v)) for v in self._weights())
        return (
            f"intersection_cap(number, {_mzn_hex_sets(groups)}, "
            f"array1d(0..12, [{weights}]), {self.values['max']})"
        )

    def rules(self):
        n = self.geo.layout.n_hexes
        groups = tuple(tuple(int(h) for h in row if h < n) for row in self._intersections())
        return [R.GroupSum(groups, (0,) * len(groups), self._weights(), self.values["max"])]


@register
class ResourcePips(Constraint):
    name = "resource-pips"
    summary = (
        "Each listed resource's total pips lies in min..max (58 pips in all; a fair share "
        "is about 13.5 for a 4-hex and 10 for a 3-hex resource)."
    )
    reads = frozenset({"terrain", "numbers"})
    params = {
        "resources": Param("resource-list", list(RESOURCES), "the resources bounded"),
        "min": Param("int", 0, "smallest allowed total pips", unit="pips"),
        "max": Param("int", 58, "largest allowed total pips", unit="pips"),
    }

    def check(self, terrain, numbers, harbors):
        p = PIPS_TABLE[numbers]
        ok = np.ones(terrain.shape[0], dtype=bool)
        for r in self.values["resources"]:
            total = np.where(terrain == r, p, 0).sum(axis=1)
            ok &= (total >= self.values["min"]) & (total <= self.values["max"])
        return ok

    def minizinc(self):
        return (
            f"terrain_pips_within(terrain, number, {_mzn_set(self.values['resources'])}, "
            f"{self.values['min']}, {self.values['max']})"
        )

    def rules(self):
        v = self.values
        return [R.ResourceSum(tuple(v["resources"]), PIPS_TABLE, v["min"], v["max"])]


# ----------------------------------------------------------------------------------------------
# Harbors


@register
class HarborResourceAccess(Constraint):
    name = "harbor-resource-access"
    summary = (
        "Each 2:1 harbor touches ('require') or avoids ('forbid') hexes of its own "
        "resource at its two intersections."
    )
    reads = frozenset({"terrain", "harbors"})
    params = {"mode": Param("choice", "forbid", "'forbid' or 'require'", ("forbid", "require"))}

    def check(self, terrain, numbers, harbors):
        require = self.values["mode"] == "require"
        ok = np.ones(terrain.shape[0], dtype=bool)
        for s, touch in enumerate(self.geo.harbor_touch):
            resource = harbors[:, s] - 1  # harbor code r + 1 is the 2:1 harbor of terrain r
            touches = (terrain[:, list(touch)] == resource[:, None]).any(axis=1)
            ok &= (harbors[:, s] == 0) | (touches == require)
        return ok

    def minizinc(self):
        require = "true" if self.values["mode"] == "require" else "false"
        return (
            f"harbor_resource_access(harbor, terrain, "
            f"{_mzn_hex_sets(self.geo.harbor_touch)}, {require})"
        )

    def rules(self):
        return [R.HarborTouch(self.values["mode"] == "require", self.geo.harbor_touch)]


@register
class HarborBestHex(Constraint):
    name = "harbor-best-hex"
    summary = (
        "No 2:1 harbor touches the best hex of its own resource (the one with the most pips; "
        "every hex tied for the most counts), so that the harbor does not double the richest "
        "source of its resource."
    )
    reads = frozenset({"terrain", "numbers", "harbors"})

    def check(self, terrain, numbers, harbors):
        pips = PIPS_TABLE[numbers]
        best = np.stack(
            [np.where(terrain == r, pips, -1).max(axis=1) for r in range(len(RESOURCES))], axis=1
        )
        ok = np.ones(terrain.shape[0], dtype=bool)
        rows = np.arange(terrain.shape[0])
        for s, touch in enumerate(self.geo.harbor_touch):
            resource = harbors[:, s].astype(np.int64) - 1  # -1: a 3:1 harbor
            top = best[rows, np.maximum(resource, 0)]
            for h in touch:
                ok &= ~((resource >= 0) & (terrain[:, h] == resource) & (pips[:, h] == top))
        return ok

    def minizinc(self):
        return f"harbor_best_hex(harbor, terrain, number, {_mzn_hex_sets(self.geo.harbor_touch)})"

    def rules(self):
        return [R.HarborBest(self.geo.harbor_touch, PIPS_TABLE)]


@register
class HarborSpacing(Constraint):
    name = "harbor-spacing"
    summary = (
        "Harbors of the listed types keep at least 'gap' frame slots apart around the coast "
        "(gap 1: never on neighbouring slots), so that no stretch of coast gathers them."
    )
    reads = frozenset({"harbors"})
    params = {
        "types": Param(
            "harbor-list",
            ["generic"],
            "harbor types kept apart (default: the 3:1 harbors; five 2:1 harbors cannot all "
            "be kept off neighbouring slots of a 9-slot frame)",
        ),
        "gap": Param(
            "int",
            1,
            "slots between two of them: 1 = not neighbours, 2 = one between",
            unit="hexes",
        ),
    }

    def _validate(self) -> None:
        slots = len(self.geo.layout.harbor_slots)
        if not 1 <= self.values["gap"] <= slots // 2:
            raise ConstraintError(
                f"constraint 'harbor-spacing', parameter 'gap': expected 1..{slots // 2} on "
                f"this layout's {slots} slots; got {self.values['gap']}"
            )

    def _pairs(self) -> np.ndarray:
        slots, gap = len(self.geo.layout.harbor_slots), self.values["gap"]
        pairs = {
            tuple(sorted((a, (a + d) % slots))) for a in range(slots) for d in range(1, gap + 1)
        }
        return np.array(sorted(pairs), dtype=np.int64)

    def check(self, terrain, numbers, harbors):
        p, listed = self._pairs(), _members(self.values["types"], len(HARBOR_TYPES))
        return ~(listed[harbors[:, p[:, 0]]] & listed[harbors[:, p[:, 1]]]).any(axis=1)

    def minizinc(self):
        return (
            f"set_never_paired(harbor, {_mzn_pairs(self._pairs())}, "
            f"{_mzn_set(self.values['types'])})"
        )

    def rules(self):
        listed = _members(self.values["types"], len(HARBOR_TYPES))
        return [
            R.SlotPair(
                self._pairs(), R.table(len(HARBOR_TYPES), lambda a, b: listed[a] & listed[b])
            )
        ]


# ----------------------------------------------------------------------------------------------
# Given parts and the 2019 seed's own forms


@register
class Fixed(Constraint):
    name = "fixed"
    summary = (
        "Fix parts of the board to given values (e.g. the seed's tile layout, to place "
        "numbers on it). Samplers draw only the parts left free."
    )
    reads = frozenset()  # set per instance in _validate
    params = {
        "terrain": Param("terrain-list", None, "terrain name per hex (reading order)"),
        "numbers": Param("token-list", None, "token per hex, 0 (or null) on the desert"),
        "harbors": Param("harbor-list", None, "harbor type per slot"),
    }

    def _validate(self):
        fixed = {part for part in PARTS if self.values[part] is not None}
        if not fixed:
            raise ConstraintError(
                "constraint 'fixed': give at least one of terrain, numbers, harbors"
            )
        lengths = {
            "terrain": self.geo.layout.n_hexes,
            "numbers": self.geo.layout.n_hexes,
            "harbors": len(self.geo.layout.harbor_slots),
        }
        for part in fixed:
            if len(self.values[part]) != lengths[part]:
                raise ConstraintError(
                    f"constraint 'fixed', parameter {part!r}: expected "
                    f"{lengths[part]} entries, got {len(self.values[part])}"
                )
        self.reads = frozenset(fixed)  # type: ignore[misc]

    def check(self, terrain, numbers, harbors):
        ok = np.ones(terrain.shape[0], dtype=bool)
        for part, arr in zip(PARTS, (terrain, numbers, harbors), strict=True):
            if self.values[part] is not None:
                ok &= (arr == np.array(self.values[part])).all(axis=1)
        return ok

    def minizinc(self):
        names = {"terrain": "terrain", "numbers": "number", "harbors": "harbor"}
        return " /\\ ".join(
            f"{names[part]} = [{', '.join(map(str, self.values[part]))}]"
            for part in PARTS
            if self.values[part] is not None
        )

    def rules(self):
        size = {"terrain": 6, "numbers": 13, "harbors": len(HARBOR_TYPES)}
        return [
            R.Unary(part, position, np.arange(size[part]) == value)
            for part in PARTS
            if self.values[part] is not None
            for position, value in enumerate(self.values[part])
        ]


@register
class SeedSymmetryBreaking(Constraint):
    name = "seed-2019-symmetry-breaking"
    summary = (
        "The 2019 seed's 'break rotational symmetry': the corners at array cells (1,1), "
        "(3,5), (5,3) have increasing seed resource codes. It also removes boards that "
        "are not rotations of a kept one."
    )
    reads = frozenset({"terrain"})

    SEED_CODE: ClassVar[np.ndarray] = np.array([7, 5, 4, 3, 6, 2])

    def _cells(self) -> list[int]:
        if not self.geo.seed_cells:
            raise ConstraintError(f"constraint {self.name!r} needs a layout with a seed grid")
        return [self.geo.seed_cells[rc] for rc in ((1, 1), (3, 5), (5, 3))]

    def check(self, terrain, numbers, harbors):
        codes = self.SEED_CODE[terrain[:, self._cells()]]
        return (codes[:, 0] < codes[:, 1]) & (codes[:, 1] < codes[:, 2])

    def minizinc(self):
        return f"seed_increasing(terrain, [{', '.join(str(h + 1) for h in self._cells())}])"

    def rules(self):
        a, b, c = np.meshgrid(*[self.SEED_CODE] * 3, indexing="ij")
        return [R.TripleRule("terrain", np.array([self._cells()]), ~((a < b) & (b < c)))]


@register
class SeedMarkerThreshold(Constraint):
    name = "seed-2019-marker-threshold"
    summary = (
        "The 2019 seed's marker threshold, exactly as stated: over the triangles of its "
        "5x5 array, number sums < threshold, water cells counting 1 and the desert 7."
    )
    reads = frozenset({"numbers"})
    params = {
        "threshold": Param("int", 23, "sums must stay strictly below this", unit="sum of numbers")
    }

    def check(self, terrain, numbers, harbors):
        tri = self.geo.seed_triangles()
        seed_values = np.where(numbers == 0, 7, numbers)
        padded = np.concatenate([seed_values, np.ones((len(numbers), 1), numbers.dtype)], axis=1)
        return (padded[:, tri].sum(axis=2) < self.values["threshold"]).all(axis=1)  # -1 = water

    def minizinc(self):
        rows = "|".join(",".join(str(h + 1) for h in tri) for tri in self.geo.seed_triangles())
        return f"seed_marker_threshold(number, [|{rows}|], {self.values['threshold']})"

    def rules(self):
        tri = self.geo.seed_triangles().tolist()
        groups = tuple(tuple(h for h in t if h >= 0) for t in tri)
        water = tuple(sum(h < 0 for h in t) for t in tri)  # a water cell counts 1
        seed_value = np.where(np.arange(13) == 0, 7, np.arange(13))  # the desert counts 7
        return [R.GroupSum(groups, water, seed_value, self.values["threshold"] - 1)]


# ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Objective:
    """Something to optimise: a MiniZinc expression and its Python twin (one board at a time)."""

    name: str
    summary: str
    sense: str  # "minimize" or "maximize"
    minizinc: Callable[[LayoutArrays], str]
    python: Callable[[LayoutArrays, np.ndarray, np.ndarray], np.ndarray]


def _pip_sums(g: LayoutArrays, numbers: np.ndarray) -> np.ndarray:
    return PIPS_TABLE[with_zero_column(numbers)][:, g.triples].sum(axis=2)


def _mzn_inland_pips(g: LayoutArrays) -> str:
    return f"[sum(h in I)(PIPS[number[h]]) | I in {_mzn_hex_sets(g.triples.tolist())}]"


OBJECTIVES: dict[str, Objective] = {
    o.name: o
    for o in [
        Objective(
            "pip-spread",
            "max minus min pips over the inland (three-hex) intersections",
            "minimize",
            lambda g: (
                f"let {{ array[int] of var int: s = {_mzn_inland_pips(g)} }} in max(s) - min(s)"
            ),
            lambda g, t, n: _pip_sums(g, n).max(axis=1) - _pip_sums(g, n).min(axis=1),
        ),
        Objective(
            "max-intersection-pips",
            "the richest inland intersection's pips",
            "minimize",
            lambda g: f"max({_mzn_inland_pips(g)})",
            lambda g, t, n: _pip_sums(g, n).max(axis=1),
        ),
        Objective(
            "resource-pip-spread",
            "max minus min total pips over the five resources",
            "minimize",
            lambda g: (
                "let { array[0..4] of var int: p = array1d(0..4, [sum(h in index_set("
                "terrain))(bool2int(terrain[h] = r) * PIPS[number[h]]) | r in 0..4]) } "
                "in max(p) - min(p)"
            ),
            lambda g, t, n: np.ptp(
                np.stack(
                    [np.where(t == r, PIPS_TABLE[n], 0).sum(axis=1) for r in range(5)], axis=1
                ),
                axis=1,
            ),
        ),
    ]
}
