"""Constraints on the harbors: access to their resource, the best hex beside them, spacing."""

from __future__ import annotations

import numpy as np

from ludolab.envs.catan.board import HARBOR_TYPES, RESOURCES
from ludolab.research.catan import rules as R
from ludolab.research.catan.constraints.base import (
    Constraint,
    ConstraintError,
    Param,
    members,
    mzn_hex_sets,
    mzn_pairs,
    mzn_set,
    register,
)
from ludolab.research.catan.geometry import (
    PIPS_TABLE,
)


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
            f"{mzn_hex_sets(self.geo.harbor_touch)}, {require})"
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
        return f"harbor_best_hex(harbor, terrain, number, {mzn_hex_sets(self.geo.harbor_touch)})"

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
        p, listed = self._pairs(), members(self.values["types"], len(HARBOR_TYPES))
        return ~(listed[harbors[:, p[:, 0]]] & listed[harbors[:, p[:, 1]]]).any(axis=1)

    def minizinc(self):
        return (
            f"set_never_paired(harbor, {mzn_pairs(self._pairs())}, {mzn_set(self.values['types'])})"
        )

    def rules(self):
        listed = members(self.values["types"], len(HARBOR_TYPES))
        return [
            R.SlotPair(
                self._pairs(), R.table(len(HARBOR_TYPES), lambda a, b: listed[a] & listed[b])
            )
        ]
