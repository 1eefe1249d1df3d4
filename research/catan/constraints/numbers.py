"""Constraints on the number tokens: numbers apart, red numbers, numbers within a resource, pips at
an intersection and per resource."""

from __future__ import annotations

import numpy as np

from ludolab.envs.catan.board import RESOURCES
from ludolab.research.catan import rules as R
from ludolab.research.catan.constraints.base import (
    NEIGHBOURHOOD,
    Constraint,
    Param,
    members,
    mzn_groups_differ,
    mzn_hex_sets,
    mzn_pairs,
    mzn_set,
    neighbour_pairs,
    register,
)
from ludolab.research.catan.geometry import (
    PIPS_TABLE,
    with_zero_column,
)


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
        p, listed = neighbour_pairs(self), members(self.values["numbers"])
        return ~(listed[numbers[:, p[:, 0]]] & listed[numbers[:, p[:, 1]]]).any(axis=1)

    def minizinc(self):
        return (
            f"set_never_paired(number, {mzn_pairs(neighbour_pairs(self))}, "
            f"{mzn_set(self.values['numbers'])})"
        )

    def rules(self):
        listed = members(self.values["numbers"])
        return [
            R.PairRule(
                "numbers", neighbour_pairs(self), R.table(13, lambda a, b: listed[a] & listed[b])
            )
        ]


@register
class NumberPlacement(Constraint):
    name = "number-placement"
    summary = (
        "The listed numbers lie only on the given rings (0 = centre, 1 = inner ring, 2 = "
        "coast): the default keeps the 6s and 8s off the coast."
    )
    reads = frozenset({"numbers"})
    params = {
        "numbers": Param("number-list", [6, 8], "the numbers placed"),
        "rings": Param("ring-list", [0, 1], "the rings they may lie on"),
    }

    def forbidden(self) -> np.ndarray:
        """The hexes (0-based) the listed numbers may not lie on."""
        return np.flatnonzero(~np.isin(self.geo.ring, self.values["rings"]))

    def check(self, terrain, numbers, harbors):
        listed = members(self.values["numbers"])
        return ~listed[numbers[:, self.forbidden()]].any(axis=1)

    def minizinc(self):
        hexes = mzn_set([h + 1 for h in self.forbidden()])
        return f"forall(h in {hexes})(not (number[h] in {mzn_set(self.values['numbers'])}))"

    def rules(self):
        allowed = ~members(self.values["numbers"])
        return [R.Unary("numbers", int(h), allowed) for h in self.forbidden()]


@register
class NoEqualNumbersAdjacent(Constraint):
    name = "no-equal-numbers-adjacent"
    summary = "No two neighbouring hexes carry the same number."
    reads = frozenset({"numbers"})
    params = {"neighbourhood": NEIGHBOURHOOD}

    def check(self, terrain, numbers, harbors):
        p = neighbour_pairs(self)
        return ~(numbers[:, p[:, 0]] == numbers[:, p[:, 1]]).any(axis=1)

    def minizinc(self):
        return mzn_groups_differ("number", neighbour_pairs(self))

    def rules(self):
        return [R.PairRule("numbers", neighbour_pairs(self), R.table(13, lambda a, b: a == b))]


@register
class RedNumbersOnDifferentResources(Constraint):
    name = "red-numbers-on-different-resources"
    summary = "Each resource carries at most one of the red numbers (6, 8)."
    reads = frozenset({"terrain", "numbers"})
    params = {"numbers": Param("number-list", [6, 8], "the numbers spread over resources")}

    def check(self, terrain, numbers, harbors):
        red = members(self.values["numbers"])[numbers]
        return np.all(
            [((terrain == r) & red).sum(axis=1) <= 1 for r in range(len(RESOURCES))], axis=0
        )

    def minizinc(self):
        return (
            f"at_most_one_per_terrain(terrain, number, 0..{len(RESOURCES) - 1}, "
            f"{mzn_set(self.values['numbers'])})"
        )

    def rules(self):
        red = members(self.values["numbers"])

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
            f"intersection_cap(number, {mzn_hex_sets(groups)}, "
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
            f"terrain_pips_within(terrain, number, {mzn_set(self.values['resources'])}, "
            f"{self.values['min']}, {self.values['max']})"
        )

    def rules(self):
        v = self.values
        return [R.ResourceSum(tuple(v["resources"]), PIPS_TABLE, v["min"], v["max"])]
