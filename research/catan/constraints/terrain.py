"""Constraints on the terrain: which resources may touch, equal pairs, triangles, the desert."""

from __future__ import annotations

import numpy as np

from ludolab.envs.catan.board import DESERT, RESOURCES
from ludolab.research.catan import rules as R
from ludolab.research.catan.constraints.base import (
    NEIGHBOURHOOD,
    Constraint,
    Param,
    members,
    mzn_groups_differ,
    mzn_pairs,
    mzn_set,
    neighbour_pairs,
    register,
)


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
        p = neighbour_pairs(self)
        a = terrain[:, p[:, 0]]
        return ~((a == terrain[:, p[:, 1]]) & members(self.values["resources"])[a]).any(axis=1)

    def minizinc(self):
        if set(self.values["resources"]) == set(range(len(RESOURCES))):
            return mzn_groups_differ(
                "terrain", neighbour_pairs(self)
            )  # the one desert differs anyway
        return (
            f"pairs_differ_within(terrain, {mzn_pairs(neighbour_pairs(self))}, "
            f"{mzn_set(self.values['resources'])})"
        )

    def rules(self):
        listed = members(self.values["resources"], 6)
        return [
            R.PairRule(
                "terrain", neighbour_pairs(self), R.table(6, lambda a, b: (a == b) & listed[a])
            )
        ]


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
        p, listed = neighbour_pairs(self), members(self.values["resources"])
        return ~(listed[terrain[:, p[:, 0]]] & listed[terrain[:, p[:, 1]]]).any(axis=1)

    def minizinc(self):
        return (
            f"set_never_paired(terrain, {mzn_pairs(neighbour_pairs(self))}, "
            f"{mzn_set(self.values['resources'])})"
        )

    def rules(self):
        listed = members(self.values["resources"], 6)
        return [
            R.PairRule(
                "terrain", neighbour_pairs(self), R.table(6, lambda a, b: listed[a] & listed[b])
            )
        ]


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
            f"let {{ var int: c = equal_pairs(terrain, {mzn_pairs(self.geo.adjacent)}) }} in "
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
        return f"forall(h in {mzn_set([h + 1 for h in self._forbidden()])})(terrain[h] != {DESERT})"

    def rules(self):
        allowed = np.arange(6) != DESERT
        return [R.Unary("terrain", int(h), allowed) for h in self._forbidden()]
